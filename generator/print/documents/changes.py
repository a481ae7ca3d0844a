"""The errata sheet PDF, `changes.pdf`: what changed since an older version (`build --changes-since REF`)."""

from __future__ import annotations

from ..changesheet import changes_html
from .base import Document


class ChangeSheet(Document):
    name = "changes"
    weight = 3
    templates = ("changes.html.j2", "changes.css")

    def options(self, job) -> dict:
        """The older version, as the commit its REF names now (a tag moved is a new sheet)."""
        from ...changes.versions import revision

        return {"since": job.changes_since,
                "commit": revision(job.root, job.game, job.changes_since)[0] if job.changes_since else None}

    def render(self, ctx, job, report, previous):
        return self.single_pdf(ctx, changes_html(ctx, job.changes_since), report, previous)
