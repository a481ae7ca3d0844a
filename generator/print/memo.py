"""Small JSON stores under output/.rulesmith/ that the build's workers add to (card text
sizes, layout decisions): a write merges into what another worker may have written
meanwhile. A store is read as untrusted data (keptstate.py): a missing one reads as empty, a
damaged one too (with a note), and an entry its reader does not find well formed is left
out (everything left out is worked out again)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from ..project.keptstate import Damaged, damaged, folder, read_json

__all__ = ["Damaged", "add", "damaged", "load", "number", "store"]


def store(root: Path, name: str) -> Path:
    return folder(root / "output") / name


def load(path: Path, valid: Callable[[object], bool]) -> dict:
    """The entries of the store at `path` that `valid` accepts."""
    try:
        data = read_json(path)
    except Damaged as exc:
        damaged(path, str(exc))
        return {}
    if data is None:
        return {}
    if not isinstance(data, dict):
        damaged(path, "not a table of entries")
        return {}
    kept = {key: entry for key, entry in data.items() if valid(entry)}
    if len(kept) != len(data):
        left = len(data) - len(kept)
        damaged(path, f"{left} entr{'y' if left == 1 else 'ies'} not well formed", "those are worked out again")
    return kept


def add(path: Path, entries: dict, valid: Callable[[object], bool]) -> None:
    from .. import outputs

    merged = load(path, valid)
    merged.update(entries)
    outputs.write_text(path, json.dumps(merged, sort_keys=True))


def number(value: object, low: float = 0.0, high: float = float("inf")) -> bool:
    """A JSON number (not a boolean) from `low` to `high`."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high
