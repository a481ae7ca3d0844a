"""Where each record lives on the site, as a link relative to the page that points at it."""

from __future__ import annotations

from ..model import Record

# Record kind -> page (relative to the game's language folder) that shows it, at the anchor
# `kind-id` (counters.html holds the markers too: a marker is a counter of a markers sheet).
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
    "counter": "counters.html",
}
# Record kind -> the page of its own (no anchor).
OWN_PAGES = {
    "unit": "units/{id}.html",
    "card": "cards/{id}.html",
    "map": "map-{id}.html",
    "countersheet": "counters.html",  # the page shows the counters by side, not sheet by sheet
}
# The other kinds a reference names (text/refs.py: KIND_SECTIONS, SPECIAL), and why they have
# no page of their own.
NO_PAGE = {
    "weapon": "printed on each unit page that carries it",
    "roster": "linked to the army builder only where the site builds one for it (pages.py gives it in `pages`)",
    "param": "prints its value in the sentence",
    "calc": "prints a computed number in the sentence",
    "stat": "prints a stat's name",
    "list": "prints the records themselves, each linked",
    "case": "a numbered chapter or heading: links to its chapter page's anchor `case-N.N` (text/numbering.py)",
}


def record_path(record: Record, pages: dict[str, str] | None = None) -> str | None:
    """Path of the record's page plus its anchor, from the language folder. `pages` overrides
    the page of a kind (a chapter that prints the whole glossary replaces glossary.html) or,
    keyed "kind:id", of one record (the chapter that prints its text)."""
    if pages and f"{record.kind}:{record.id}" in pages:  # a chapter prints this record's text
        return f"{pages[f'{record.kind}:{record.id}']}#{record.kind}-{record.id}"
    if pages and record.kind in pages:
        return f"{pages[record.kind]}#{record.kind}-{record.id}"
    if record.kind in OWN_PAGES:
        return OWN_PAGES[record.kind].format(id=record.id)
    page = PAGES.get(record.kind)
    return f"{page}#{record.kind}-{record.id}" if page else None


def site_linker(depth: int, pages: dict[str, str] | None = None):
    """A linker for a page `depth` folders below the language folder."""
    prefix = "../" * depth

    def link(record: Record) -> str | None:
        path = record_path(record, pages)
        return prefix + path if path else None

    return link
