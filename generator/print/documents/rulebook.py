"""The rulebook PDF."""

from __future__ import annotations

from ..rulebook import rulebook_html
from . import Document


class Rulebook(Document):
    name = "rulebook"
    weight = 0
    templates = ("rulebook.html.j2", "rulebook.css")
    reads_examples = True

    def options(self, job) -> dict:
        return {"book": job.book, "notes": job.notes}

    def render(self, ctx, job, report, previous):
        return self.single_pdf(ctx, rulebook_html(ctx, job.book, notes=job.notes), report, previous)
