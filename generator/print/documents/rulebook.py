"""The rulebook PDF: rulebook.pdf in A4, rulebook-a5.pdf and rulebook-letter.pdf in the other
--book sizes, side by side; with --booklet also rulebook-booklet.pdf, the A5 book imposed."""

from __future__ import annotations

from ..booklet import impose
from ..bookpages import book_layout, finish
from ..rulebook import rulebook_html
from ...outputs.layout import sized
from .base import Document


class Rulebook(Document):
    name = "rulebook"
    weight = 0
    templates = ("rulebook.html.j2", "rulebook.css")
    reads_examples = True

    def options(self, job) -> dict:
        return {"book": job.book, "notes": job.notes, "booklet": job.booklet}

    def variants(self, job) -> set[str]:
        return {f"book:{job.book}", *(["booklet"] if job.booklet else [])}

    def render(self, ctx, job, report, previous):
        layout = book_layout(ctx.roots, job.book)
        rendered = self.single_pdf(ctx, rulebook_html(ctx, job.book, notes=job.notes), report, previous,
                                   finish=lambda path: finish(path, layout), name=sized("rulebook", job.book))
        if job.booklet:
            book = ctx.output_dir() / sized("rulebook", job.book)
            out = ctx.output_dir() / "rulebook-booklet.pdf"
            if book.exists() and (not rendered.unchanged or not out.exists()):
                impose(ctx, book, out)
            rendered.files.append(out)
        return rendered
