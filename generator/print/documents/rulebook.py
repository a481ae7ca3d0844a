"""The rulebook PDF: rulebook.pdf in A4, rulebook-a5.pdf and rulebook-letter.pdf in the other
--book sizes, side by side; with --booklet also rulebook-booklet.pdf, the A5 book imposed."""

from __future__ import annotations

from ...core.diagnostics import Diagnostic, Location, Severity
from ..booklet import impose
from ..changebars import bars, draw
from ..changepages import landmarks, record
from ..living import maybe_since
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
        return {"book": job.book, "notes": job.notes, "booklet": job.booklet, **since_options(job)}

    def variants(self, job) -> set[str]:
        return {f"book:{job.book}", *(["booklet"] if job.booklet else [])}

    def render(self, ctx, job, report, previous):
        with maybe_since(ctx, job.changes_since) as since:
            return self._laid_out(ctx, job, report, previous, since)

    def _laid_out(self, ctx, job, report, previous, since):
        layout = book_layout(ctx.roots, job.book)
        try:
            rendered = self._book(ctx, job, report, previous, layout, since)
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
            rendered = self._book(ctx, job, report, previous, layout, since)
        if job.booklet:
            book = ctx.output_dir() / sized("rulebook", job.book)
            out = ctx.output_dir() / "rulebook-booklet.pdf"
            if book.exists() and (not rendered.unchanged or not out.exists()):
                impose(ctx, book, out)
            rendered.files.append(out)
        return rendered

    def _book(self, ctx, job, report, previous, layout, since=None):
        """The book; with `since` (--changes-since) its changed blocks barred in the margin,
        and the pages of what changed kept for the errata sheet (changepages.py)."""
        html = rulebook_html(ctx, job.book, notes=job.notes, layout=layout, since=since)
        found: dict[str, int] = {}

        def marks(document):
            found.update(landmarks(document))
            return lambda path, drawn=bars(document): draw(path, drawn)

        rendered = self.single_pdf(ctx, html, report, previous, finish=lambda path: finish(path, layout),
                                   name=sized("rulebook", job.book), marks=marks if since else None)
        if since and not rendered.unchanged:
            record(ctx, job.book, html, layout.columns, found, rendered.reads)
        return rendered


def since_options(job) -> dict:
    """The build option of a document that marks what changed: the older version, as the
    commit its REF names now (a tag moved is a new document); nothing without --changes-since."""
    if not job.changes_since:
        return {}
    from ...changes.versions import revision

    return {"since": job.changes_since, "commit": revision(job.root, job.game, job.changes_since)[0]}
