"""The errata sheet, `changes.pdf`: every change of a game since an older version as a
publisher posts it, in one edition's language. Each entry says where (the record, or the
chapter and headings) and on which page of the new rulebook, then "replace … with …",
"added" or "removed". The new text is the edition's where its catalog translates it, else
the source's marked untranslated (like the rulebook, W005); the old text is rendered from the
older version with its own catalog. The page is the one the rulebook's job found for the
element each change was printed from, as it laid the same book out (changepages.py)."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

from ..changes import ADDED, REMOVED, RENAMED, Change
from ..i18n.translate import Translator
from ..reading.game import Game
from ..text.chapters import RULES_DIR, load_chapter
from ..text.render import RenderContext, render_chapter
from .context import BuildContext
from .living import TEXT_KINDS, Since, since as older
from .sources import reads


@dataclass(frozen=True)
class Edition:
    """One version of the game as the sheet renders it: the game and its translator."""

    game: Game
    tr: Translator

    def markdown(self, text: str | None) -> Markup:
        """A block of rules text rendered in this edition's language (references as words)."""
        if text is None:
            return Markup("")
        chapter = load_chapter(self.game.folder / RULES_DIR / "changes.md", text)
        return render_chapter(chapter, RenderContext(self.game, self.tr, "site", lambda record: None)).html


@dataclass(frozen=True)
class Book:
    """The rulebook whose pages the sheet names: its size and whether it prints the notes."""

    paper: str = "a4"
    notes: bool = True


def sheet_entries(ctx: BuildContext, ref: str, book: Book | None = None) -> tuple[list[dict], Since]:
    """The sheet's entries, each with its page in the rulebook (None where the book does not
    print it), and the older version."""
    with older(ctx, ref) as found:
        before, after = Edition(found.old, Translator.load(found.old, ctx.lang)), Edition(ctx.game, ctx.tr)
        changes = found.printed
        where = {id(change): _anchor(ctx, found, change) for change in changes}
        at = rulebook_pages(ctx, found, book or Book(), {w for w in where.values() if w})
        return [{**_entry(ctx, change, before, after), "page": at.get(where[id(change)]),
                 "heading": found.heading(change) if change.kind in TEXT_KINDS else None,
                 "record": change.record if change.action != REMOVED else None} for change in changes], found


def _anchor(ctx: BuildContext, found: Since, change: Change) -> str:
    """What a change is printed from in the rulebook: its block's data-src, or its record's
    anchor (empty for a record removed)."""
    if change.kind in TEXT_KINDS:
        return found.source_of(change)
    if change.record is not None and change.action != REMOVED:
        record = ctx.game.section(change.record[0]).get(change.record[1])
        return f"{record.kind}-{record.id}" if record is not None else ""
    return ""


def rulebook_pages(ctx: BuildContext, found: Since, book: Book, wanted: set[str]) -> dict[str, int]:
    """The page of each element `wanted` names (data-src or id) in the rulebook as this build
    prints it (with its change bars' marks; in one column where WeasyPrint cannot lay it out
    in columns, as the rulebook falls back): as the rulebook's job kept them when it laid that
    very book out (changepages.py), else by laying it out here (and keeping them)."""
    from .bookpages import book_layout
    from .changepages import recorded
    from .rulebook import rulebook_html

    if not wanted:
        return {}
    layout = book_layout(ctx.roots, book.paper)

    def html_of(columns: int) -> str:
        attempt = layout if columns == layout.columns else layout.model_copy(update={"columns": columns})
        return rulebook_html(ctx, book.paper, notes=book.notes, layout=attempt, since=found)

    kept = recorded(ctx, book.paper, html_of)
    if kept is None:
        kept = laid_out_pages(ctx, book, html_of, layout.columns)
    return {key: page for key, page in kept.items() if key in wanted}


def laid_out_pages(ctx: BuildContext, book: Book, html_of, columns: int) -> dict[str, int]:
    """The pages of the elements a sheet can name, by laying the rulebook out here (in
    `columns` columns, else in one, as the rulebook falls back), kept for the next sheet."""
    from .changepages import landmarks, record
    from .pdf import LayoutFailed, render_document

    for attempt in dict.fromkeys((columns, 1)):
        try:
            html = html_of(attempt)
            document, fetcher = render_document(html, ctx.game.folder, ctx.roots)
        except LayoutFailed:
            if attempt == 1:
                raise
            continue
        pages = landmarks(document)
        record(ctx, book.paper, html, attempt, pages, reads(fetcher.read, ctx.project_root))
        return pages
    return {}


def _where(ctx: BuildContext, change: Change) -> str:
    """Where the change is, in the edition's words: a record's name, or the chapter and headings."""
    tr = ctx.tr
    if change.record is not None:
        record = ctx.game.section(change.record[0]).get(change.record[1])
        name = tr.field(record, "name") if record is not None and getattr(record, "name", None) else change.record[1]
        stat = _stat_name(ctx, change.part) if change.action not in (ADDED, REMOVED, RENAMED) else None
        return f"{name}: {stat}" if stat else name  # a stat by its printed name; other fields show themselves
    if change.case is not None:
        return _case(ctx, change)
    if change.trail:
        return " › ".join(tr.text(heading) for heading in change.trail)
    return change.location.path.stem


def _case(ctx: BuildContext, change: Change) -> str:
    """A block of a numbered game by its case, in the edition's words: `5.3.4.1 Attack,
    paragraph 2`; a heading by its number and (new) words; a numbered paragraph by its number."""
    tr = ctx.tr
    if change.kind == "heading":
        heading = change.markup[1] if change.markup[1] is not None else change.markup[0]
    else:
        heading = change.trail[-1] if change.ordinal and change.trail else ""
    words = tr.references(tr.text(heading)) if heading else ""
    where = f"{change.case} {words}".strip()
    if change.ordinal:
        where += ", " + tr.ui(f"change-{change.kind}").format(number=change.ordinal)
    return where


def _stat_name(ctx: BuildContext, part: str) -> str | None:
    """A stat's name as game.yaml gives it (translated); None for another field."""
    stat = ctx.game.stat_def(part)
    if stat is None:
        return None
    index = ctx.game.manifest.stats.index(stat)
    return ctx.tr.manifest("stats", index, "name")


def _value(ctx: BuildContext, change: Change, side: str) -> Markup:
    """A field's old or new value as this edition prints it: the edition's text where its
    catalogs give it, else the source's, marked untranslated as the rulebook marks it."""
    if getattr(change, side) is None:
        return Markup("")
    edition = change.editions.get(ctx.lang)
    text = getattr(edition, side) if edition is not None else None
    if text is not None or edition is None:
        return Markup("<p>{}</p>").format(text if text is not None else getattr(change, side))
    return Markup('<p><span class="untranslated" lang="{}" title="{}">{}</span></p>').format(
        ctx.game.manifest.source_language, ctx.tr.ui("untranslated"), getattr(change, side))


def _entry(ctx: BuildContext, change: Change, before: Edition, after: Edition) -> dict:
    if change.kind in TEXT_KINDS:
        old, new = before.markdown(change.markup[0]), after.markdown(change.markup[1])
    elif change.action == RENAMED:  # the id does not print: what else changed in the record does
        old, new = Markup(""), Markup("<p>{}</p>").format(change.note)
    else:
        old, new = _value(ctx, change, "old"), _value(ctx, change, "new")
    return {"where": escape(_where(ctx, change)), "action": change.action, "old": old, "new": new,
            "src": f"{change.location.path.relative_to(ctx.game.folder).as_posix()}:{change.location.line}"
            if change.location.path.is_relative_to(ctx.game.folder) else ""}


def changes_html(ctx: BuildContext, ref: str, book: Book | None = None) -> tuple[str, dict]:
    """The sheet's HTML, and its entries as data for the site's page of what changed
    (changes.json: the versions and each entry, its texts as HTML)."""
    entries, found = sheet_entries(ctx, ref, book)
    template = ctx.env.get_template("changes.html.j2")
    html = template.render(title=ctx.title, entries=entries, since=found.old_version,
                           version=ctx.game.manifest.version or "",
                           authors=ctx.authors, css=Markup(ctx.css("changes.css")))
    data = {"since": found.old_version, "version": ctx.game.manifest.version,
            "entries": [{key: str(value) if isinstance(value, Markup) else value for key, value in entry.items()}
                        for entry in entries]}
    return html, data
