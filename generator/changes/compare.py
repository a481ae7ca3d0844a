"""Compare two loaded versions of one game: its data, its rules text, its examples' verdicts."""

from __future__ import annotations

from ..reading.game import Game
from . import Change
from . import examples as worked
from .data import DataChanges, Side
from .readable import readable
from .text import TextChanges


def compare(old: Game, new: Game, examples: bool = True) -> list[Change]:
    """Every change from `old` to `new`, one entry each: game.yaml and the data first, then
    the rules text chapter by chapter, then the examples whose verdict moved (examples=True
    runs the rules checker on both versions). Their texts read as printed (readable.py)."""
    languages = list(new.manifest.languages)
    before, after = Side.of(old, languages), Side.of(new, languages)
    data = DataChanges(before, after, languages)
    found = data.changes() + TextChanges(before, after, languages, data.renames).changes()
    if examples:
        found += worked.changes(old, new)
    return readable(found, old, new)
