"""What changed between two versions of a game: in its data, its rules text, its examples.

Each change is one entry (`Change`): a record's field, a paragraph, heading, list item or
table row of the rules, or a worked example whose verdict moved. Every entry carries its old
and new text in the source language and, for each edition, whether the translation keeps up
(`Edition`). `compare` (compare.py) finds them; report.py prints them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.diagnostics import Location

ADDED, REMOVED, CHANGED, RENAMED = "added", "removed", "changed", "renamed"
# An edition's state for one change: the catalog translates the new text (TRANSLATED; for a
# removal, nothing is left to do), its translation predates the change (FUZZY), it has none
# (MISSING), or the value prints the same in every edition (SAME: numbers, ids, dice).
TRANSLATED, FUZZY, MISSING, SAME = "translated", "fuzzy", "missing", "same"


@dataclass(frozen=True)
class Edition:
    """One edition's side of a change: its state and its text before and after, where known."""

    lang: str
    state: str
    old: str | None = None
    new: str | None = None

    def as_dict(self) -> dict:
        return {"state": self.state, "old": self.old, "new": self.new}


@dataclass
class Change:
    """One change: `subject` is what it belongs to (`unit nuclear/recruits`, a chapter and its
    headings, `example ID`), `part` which piece of it (`cost`, `paragraph`, `row`)."""

    kind: str       # field | record | paragraph | heading | item | row | check | example
    action: str     # added | removed | changed | renamed
    subject: str
    part: str
    old: str | None
    new: str | None
    location: Location
    editions: dict[str, Edition] = field(default_factory=dict)
    note: str = ""  # what else a rename changed, or a moved paragraph
    trail: tuple[str, ...] = ()  # a block of the rules text: the headings above it, as the source writes them
    record: tuple[str, str] | None = None  # a record's change: its section and (new) id
    case: str | None = None  # a block of a game that numbers its cases: the number of its case (5.3.4.1)
    ordinal: int = 0  # ... and its place among the case's blocks of its kind (paragraph 2); 0: none or its own case
    # the old and new text as written (Markdown, its `{{ references }}` unresolved) where `old`
    # and `new` read as printed (readable.py); None where they are the same
    written: tuple[str | None, str | None] | None = None

    @property
    def what(self) -> str:
        return f"{self.subject}: {self.part}" if self.part else self.subject

    @property
    def markup(self) -> tuple[str | None, str | None]:
        """The old and new text as written, for a document that renders them itself."""
        return self.written or (self.old, self.new)


__all__ = ["ADDED", "CHANGED", "Change", "Edition", "FUZZY", "MISSING", "REMOVED", "RENAMED", "SAME",
           "TRANSLATED"]
