"""Small JSON stores under output/.rulesmith/ that the build's workers add to (card text
sizes, layout decisions): a write merges into what another worker may have written
meanwhile, and a missing or damaged store reads as empty (everything is worked out again)."""

from __future__ import annotations

import json
from pathlib import Path


def store(root: Path, name: str) -> Path:
    return root / "output" / ".rulesmith" / name


def load(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def add(path: Path, entries: dict) -> None:
    from .. import outputs

    merged = load(path)
    merged.update(entries)
    outputs.write_text(path, json.dumps(merged, sort_keys=True))
