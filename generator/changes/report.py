"""`rulesmith changes` output: text for people, JSON for tools, GitHub workflow annotations."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

from ..core.diagnostics import Location
from . import SAME, Change

ARROW = "→"
SHORT = 40  # a value this long or shorter prints inline: `cost 80 → 85`


def _inline(change: Change) -> bool:
    return all(v is None or (len(v) <= SHORT and "\n" not in v) for v in (change.old, change.new))


def headline(change: Change) -> str:
    """`unit nuclear/recruits: cost 80 → 85`, or `01-basics › Основы: paragraph changed`."""
    if change.kind in ("field", "record", "example") and _inline(change) and change.old and change.new:
        line = f"{change.what} {change.old} {ARROW} {change.new}"
    else:
        line = f"{change.what} {change.action}"
    return line + (f" ({change.note})" if change.note else "")


def as_dict(change: Change, root: Path | None, source: str) -> dict:
    return {
        "kind": change.kind,
        "action": change.action,
        "what": change.what,
        "case": change.case,
        "file": Location(change.location.path).display(root),
        "line": change.location.line,
        "old": change.old,
        "new": change.new,
        "note": change.note,
        "source_language": source,
        "editions": {lang: e.as_dict() for lang, e in change.editions.items()},
    }


CONTEXT = 4  # words kept on each side of a change in a word diff


def word_diff(old: str, new: str) -> str:
    """What a reworded text changed, git's --word-diff style: `… перемещается [-именно-]{+только+} отряд …`,
    with a few words of context around each change."""
    a, b = old.split(), new.split()
    parts: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            same = a[i1:i2]
            if len(same) > 2 * CONTEXT:
                same = (same[:CONTEXT] if parts else []) + ["…"] + (same[-CONTEXT:] if i2 < len(a) else [])
            parts.extend(same)
            continue
        if i2 > i1:
            parts.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            parts.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(parts)


def _text(change: Change, root: Path | None, source: str) -> str:
    lines = [f"{change.location.display(root)}: {headline(change)}"]
    if change.old and change.new and not _inline(change):
        lines.append(f"  {source} ~ {word_diff(change.old, change.new)}")
    if not _inline(change) or change.kind not in ("field", "record", "example") or not (change.old and change.new):
        if change.old is not None:
            lines.append(f"  {source} - {change.old}")
        if change.new is not None:
            lines.append(f"  {source} + {change.new}")
    for lang, edition in change.editions.items():
        if edition.state == SAME:
            continue
        lines.append(f"  {lang}: {edition.state}")
        if edition.old is not None and edition.old != change.old:
            lines.append(f"  {lang} - {edition.old}")
        if edition.new is not None and edition.new != change.new:
            lines.append(f"  {lang} + {edition.new}")
    return "\n".join(lines)


def _github(change: Change, root: Path | None) -> str:
    states = ", ".join(f"{lang} {e.state}" for lang, e in change.editions.items() if e.state != SAME)
    message = headline(change) + (f" [{states}]" if states else "")
    message = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    path = Location(change.location.path).display(root)
    return f"::notice file={path},line={change.location.line or 1},title={change.action}::{message}"


def render(changes: list[Change], fmt: str, root: Path | None, source: str, header: dict | None = None) -> str:
    """The changes as `fmt` (text, json or github); `header`: the JSON's other keys (game, versions)."""
    if fmt == "json":
        return json.dumps({**(header or {}), "changes": [as_dict(c, root, source) for c in changes]},
                          ensure_ascii=False, indent=2)
    if fmt == "github":
        return "\n".join(_github(c, root) for c in changes)
    return "\n".join(_text(c, root, source) for c in changes)
