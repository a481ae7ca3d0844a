"""The rulebook PDF: rulebook.pdf in A4, rulebook-a5.pdf and rulebook-letter.pdf in the other
--book sizes, side by side; with --booklet also rulebook-booklet.pdf, the A5 book imposed."""

from __future__ import annotations

from ...core.diagnostics import Diagnostic, Location, Severity
from ..booklet import impose
from ..bookpages import book_layout, finish
from ..pdf import LayoutFailed
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
        try:
            rendered = self._book(ctx, job, report, previous, layout)
        except LayoutFailed as failure:
            if layout.columns == 1:
                raise
            # WeasyPrint's columns are its least tested layout: a book they fail is still a book
            layout = layout.model_copy(update={"columns": 1})
            report.diagnostics.append(Diagnostic(
                "W045", f"{ctx.game.id}/{ctx.lang}/{sized('rulebook', job.book)} ({job.book}): WeasyPrint could not lay the book out "
                f"in {book_layout(ctx.roots, job.book).columns} columns ({failure}); it is laid out in one column",
                Location(ctx.game.folder), hint="set `columns: 1` for this paper under `books:` in print.yaml to "
                "choose it; report the failure to Rulesmith with the game's rules", severity=Severity.WARNING))
            rendered = self._book(ctx, job, report, previous, layout)
        if job.booklet:
            book = ctx.output_dir() / sized("rulebook", job.book)
            out = ctx.output_dir() / "rulebook-booklet.pdf"
            if book.exists() and (not rendered.unchanged or not out.exists()):
                impose(ctx, book, out)
            rendered.files.append(out)
        return rendered

    def _book(self, ctx, job, report, previous, layout):
        return self.single_pdf(ctx, rulebook_html(ctx, job.book, notes=job.notes, layout=layout), report, previous,
                               finish=lambda path: finish(path, layout), name=sized("rulebook", job.book))
