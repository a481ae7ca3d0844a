"""The reference sheet PDF: the tables a player keeps beside the board."""

from __future__ import annotations

from ..pdf import write_pdf
from ..reference import reference_html
from . import Document, Rendered


class ReferenceSheet(Document):
    name = "reference"
    weight = 2
    templates = ("reference.html.j2", "reference.css")
    reads_tables = True

    def render(self, ctx, job, report, previous):
        html = reference_html(ctx)
        source = self.source_hash(html)
        if source == previous:
            return Rendered(source=source, unchanged=True)
        res = write_pdf(html, ctx.output_dir() / "reference.pdf", ctx.game.folder, ctx.roots)
        report.diagnostics += res.diagnostics
        # with layout findings the source is not remembered: the next build checks it again
        return Rendered([res.path], pages=res.pages, source="" if res.diagnostics else source)
