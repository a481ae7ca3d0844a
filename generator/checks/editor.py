"""`editor:` of a record names text fields of that record, each once.

A field listed there is the editor's text, not the source's words (a short gloss where the
source gives none), and prints marked as such (text/editorial.py). A path that names no text
field would mark nothing, silently: that is an error.
"""

from __future__ import annotations

from ..core.diagnostics import Report, did_you_mean
from ..reading.game import Game
from ..text.editorial import text_fields


MANIFEST_FIELDS = ("summary", "authors")  # game.yaml's own text fields `editor:` may name there


def check(game: Game, report: Report) -> None:
    for record in game.all_records():
        if record.editor:
            origin = game.origin(record)
            _check(report, f"{record.kind} '{record.id}'", record.editor, text_fields(record),
                   lambda i: origin.location("editor", i))
    manifest = game.manifest
    if manifest.editor:
        own = {p for p in text_fields(manifest) if p.split(".")[0] in MANIFEST_FIELDS}
        _check(report, f"game '{manifest.id}'", manifest.editor, own, lambda i: game.manifest_doc.location(("editor", i)))
    for section, what in (("parameters", "parameter"), ("components", "component"), ("stats", "stat")):
        for n, item in enumerate(getattr(game.manifest, section)):
            if item.editor:
                _check(report, f"{what} '{item.id}'", item.editor, text_fields(item),
                       lambda i: game.manifest_doc.location((section, n, "editor", i)))


def _check(report: Report, what: str, listed, fields: set[str], where) -> None:
    seen: set[str] = set()
    for i, path in enumerate(listed):
        if path in seen:
            report.add("E062", f"{what} lists '{path}' under editor: twice", where(i),
                       "list each of the editor's text fields once")
        elif path not in fields:
            report.add("E062", f"editor: of {what} names '{path}', which is no text field of it", where(i),
                       did_you_mean(path, sorted(fields)) or
                       "name a text field as a dotted path: text, faces.2.text, rows.0.effect"
                       + (f" (its text fields: {', '.join(sorted(fields)[:6])})" if fields else ""))
        seen.add(path)
