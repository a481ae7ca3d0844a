"""The errata sheet PDF, `changes.pdf`: what changed since an older version (`build --changes-since REF`)."""

from __future__ import annotations

from ..changesheet import Book, changes_html
from .base import Document
from .rulebook import since_options

CHANGES_JSON = "changes.json"


class ChangeSheet(Document):
    name = "changes"
    weight = 3
    templates = ("changes.html.j2", "changes.css")
    reads_examples = True  # the pages it names are the rulebook's, which marks the checked examples
    after = "rulebook"  # made once the rulebook of its game and language is: it takes the book's pages

    def options(self, job) -> dict:
        """The older version, as the commit its REF names now (a tag moved is a new sheet), and
        the rulebook's size, whose pages the sheet names."""
        return {"since": job.changes_since, "book": job.book, "notes": job.notes, **since_options(job)}

    def render(self, ctx, job, report, previous):
        from ... import outputs

        html, data = changes_html(ctx, job.changes_since, Book(job.book, job.notes))
        rendered = self.single_pdf(ctx, html, report, previous)
        # the entries for the site's page "What changed" (site/changes.py)
        listed = outputs.write_json(ctx.output_dir() / CHANGES_JSON, data)
        rendered.files.append(listed)
        return rendered
