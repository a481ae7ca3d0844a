"""Where each record lives on the site, as a link relative to the page that points at it."""

from __future__ import annotations

from ..model import Record

# Record kind -> page (relative to the game's language folder) that shows it.
PAGES = {
    "keyword": "glossary.html",
    "table": "tables.html",
    "erratum": "errata.html",
    "die": "reference.html",
    "action": "reference.html",
    "terrain": "reference.html",
    "band": "reference.html",
    "rule": "reference.html",
    "deck": "cards.html",
}


def record_path(record: Record, pages: dict[str, str] | None = None) -> str | None:
    """Path of the record's page plus its anchor, from the language folder. `pages` overrides
    the page of a kind (a chapter that prints the whole glossary replaces glossary.html) or,
    keyed "kind:id", of one record (the chapter that prints its text)."""
    if pages and f"{record.kind}:{record.id}" in pages:  # a chapter prints this record's text
        return f"{pages[f'{record.kind}:{record.id}']}#{record.kind}-{record.id}"
    if pages and record.kind in pages:
        return f"{pages[record.kind]}#{record.kind}-{record.id}"
    if record.kind == "unit":
        return f"units/{record.id}.html"
    if record.kind == "card":
        return f"cards/{record.id}.html"
    page = PAGES.get(record.kind)
    return f"{page}#{record.kind}-{record.id}" if page else None


def site_linker(depth: int, pages: dict[str, str] | None = None):
    """A linker for a page `depth` folders below the language folder."""
    prefix = "../" * depth

    def link(record: Record) -> str | None:
        path = record_path(record, pages)
        return prefix + path if path else None

    return link
