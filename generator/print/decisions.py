"""Layout decisions, remembered. Some documents are laid out once only to decide something
about their HTML: which rulebook tables go on a landscape page, which reference-sheet
sections span the sheet or start a column, which long cards must continue on a second card
of the sheets. The decision depends only on what was laid out
(the HTML, the files it read, the fonts, WeasyPrint and Rulesmith; see sources.py), so it is
kept per document in output/.rulesmith/layout.json with the hash of that, and a build whose
HTML hashes the same takes the decision without laying the document out again. An edit
elsewhere in the game then costs the document nothing: its HTML is the same, its PDF is kept."""

from __future__ import annotations

from typing import Callable, Iterable

from . import memo
from .context import BuildContext
from .sources import made_from, reads

STORE = "layout.json"


def decided(ctx: BuildContext, document: str, html: str,
            decide: Callable[[], tuple[list, Iterable]], valid: Callable[[list], bool]) -> list:
    """What `decide` decides about `html` (a JSON list), from the store when the same HTML
    (with the files it read) was decided before. `decide` returns the decision and the files
    its layout read; `valid` says whether a kept decision is one `decide` could have made
    (the store is data to check: a malformed one is decided again). `document` names the
    document (one entry each: the store stays small)."""
    path = memo.store(ctx.project_root, STORE)
    key = f"{document}:{ctx.game.id}/{ctx.lang}"
    entry = memo.load(path, _entry).get(key)
    if entry is not None and entry["state"] == made_from(ctx.project_root, entry["reads"], html):
        if valid(entry["decision"]):
            return entry["decision"]
        memo.damaged(path, f"the decision for {key} is not well formed", "laid out again")
    decision, fetched = decide()
    read = reads(fetched, ctx.project_root)
    memo.add(path, {key: {"state": made_from(ctx.project_root, read, html), "reads": list(read), "decision": decision}},
             _entry)
    return decision


def _entry(entry: object) -> bool:
    return (isinstance(entry, dict) and isinstance(entry.get("state"), str) and isinstance(entry.get("decision"), list)
            and isinstance(entry.get("reads"), list) and all(isinstance(r, str) for r in entry["reads"]))


def strings(decision: list) -> bool:
    """A decision that is a list of names."""
    return all(isinstance(item, str) for item in decision)
