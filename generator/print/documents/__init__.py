"""The kinds of document a build writes for one game in one language. Each kind is one small
module with one class: its name, the inputs it reads besides the game's content (templates,
options, the checker's tables), and `render`, which writes its files. A new kind of output is
one new module added to KINDS."""

from __future__ import annotations

from .base import Document, Rendered

__all__ = ["KINDS", "ON_REQUEST", "Document", "Rendered", "registry"]


def registry() -> dict[str, Document]:
    from .cards import CardSheets
    from .changes import ChangeSheet
    from .counters import CounterSheets
    from .maps import MapSheets
    from .reference import ReferenceSheet
    from .rulebook import Rulebook

    return {doc.name: doc for doc in (Rulebook(), CardSheets(), ReferenceSheet(), CounterSheets(), MapSheets(),
                                      ChangeSheet())}


KINDS = ("rulebook", "cards", "reference", "counters", "maps")
# Made only when asked for: the errata sheet needs the older version (`build --changes-since REF`).
ON_REQUEST = ("changes",)
