"""The rulebook PDF."""

from __future__ import annotations

from ..pdf import write_pdf
from ..rulebook import rulebook_html
from . import Document, Rendered


class Rulebook(Document):
    name = "rulebook"
    weight = 0
    templates = ("rulebook.html.j2", "rulebook.css")
    reads_examples = True

    def options(self, job) -> dict:
        return {"book": job.book}

    def render(self, ctx, job, report, previous):
        html = rulebook_html(ctx, job.book)
        source = self.source_hash(html)
        if source == previous:
            return Rendered(source=source, unchanged=True)
        res = write_pdf(html, ctx.output_dir() / "rulebook.pdf", ctx.game.folder, ctx.roots)
        report.diagnostics += res.diagnostics
        # with layout findings the source is not remembered: the next build checks it again
        return Rendered([res.path], pages=res.pages, source="" if res.diagnostics else source)
