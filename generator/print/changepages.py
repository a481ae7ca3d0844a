"""The pages of the rulebook the errata sheet names ("p. 12"), recorded by the rulebook's own
job as it lays the book out with its change bars, so the sheet does not lay it out again.

The rulebook records the page of every element an entry of the sheet can point at: each
marked block (`data-changed`) by its `data-src` and its `id` (a changed record's entry), and
each heading by its `data-src` (where a removed block stood). They are kept in
output/.rulesmith/pages.json, one entry per game, language and book size, with the hash of
the HTML laid out and the files its layout read (sources.py): the sheet takes them only for
the very book it would print now (the same game, REF, size, notes and checker marks), and
lays the book out itself otherwise (`build --only changes`, or a book laid out before)."""

from __future__ import annotations

from typing import Callable, Iterable

from . import memo
from .boxtree import elements
from .context import BuildContext
from .living import CHANGED
from .sources import made_from

STORE = "pages.json"
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def landmarks(document) -> dict[str, int]:
    """The page (1-based, as the book numbers it) where each element the sheet can name starts:
    the marked blocks by `data-src` and `id`, the headings by `data-src`."""
    found: dict[str, int] = {}
    for index, _box, element in elements(document):
        keys = [element.get("data-src"), element.get("id")] if element.get(CHANGED) is not None else \
            [element.get("data-src")] if element.tag in _HEADINGS else []
        for key in keys:
            if key:
                found.setdefault(key, index + 1)
    return found


def _key(ctx: BuildContext, paper: str) -> str:
    return f"{paper}:{ctx.game.id}/{ctx.lang}"


def record(ctx: BuildContext, paper: str, html: str, columns: int, pages: dict[str, int], read: Iterable[str]) -> None:
    """Keep the pages of the book laid out from `html` in `columns` columns (`read`: the files
    its layout read, relative to the project)."""
    read = list(read)
    memo.add(memo.store(ctx.project_root, STORE),
             {_key(ctx, paper): {"state": made_from(ctx.project_root, read, html), "reads": read, "columns": columns,
                                 "pages": pages}}, _entry)


def recorded(ctx: BuildContext, paper: str, html_of: Callable[[int], str]) -> dict[str, int] | None:
    """The pages kept for the book this build prints (`html_of(columns)`: its HTML laid out in
    so many columns, the number the kept book was laid out in), or None if none are kept for it."""
    entry = memo.load(memo.store(ctx.project_root, STORE), _entry).get(_key(ctx, paper))
    if entry is None or entry["state"] != made_from(ctx.project_root, entry["reads"], html_of(entry["columns"])):
        return None
    return entry["pages"]


def _entry(entry: object) -> bool:
    return (isinstance(entry, dict) and isinstance(entry.get("state"), str)
            and isinstance(entry.get("reads"), list) and all(isinstance(r, str) for r in entry["reads"])
            and memo.number(entry.get("columns"), 1) and isinstance(entry.get("pages"), dict)
            and all(isinstance(k, str) and memo.number(v, 1) for k, v in entry["pages"].items()))
