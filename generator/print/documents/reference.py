"""The reference sheet PDF: the tables a player keeps beside the board."""

from __future__ import annotations

from ..reference import reference_html
from .base import Document


class ReferenceSheet(Document):
    name = "reference"
    weight = 2
    templates = ("reference.html.j2", "reference.css")
    reads_tables = True

    def render(self, ctx, job, report, previous):
        return self.single_pdf(ctx, reference_html(ctx), report, previous)
