"""`editor:` of a record names text fields of that record, each once.

A field listed there is the editor's text, not the source's words (a short gloss where the
source gives none), and prints marked as such (text/editorial.py). A path that names no text
field would mark nothing, silently: that is an error.
"""

from __future__ import annotations

from ..diagnostics import Report, did_you_mean
from ..game import Game
from ..text.editorial import text_fields


def check(game: Game, report: Report) -> None:
    for record in game.all_records():
        if not record.editor:
            continue
        origin = game.origin(record)
        fields = text_fields(record)
        seen: set[str] = set()
        for i, path in enumerate(record.editor):
            where = origin.location("editor", i)
            if path in seen:
                report.add("E062", f"{record.kind} '{record.id}' lists '{path}' under editor: twice", where,
                           "list each of the editor's text fields once")
            elif path not in fields:
                report.add("E062", f"editor: of {record.kind} '{record.id}' names '{path}', which is no text "
                           "field of this record", where,
                           did_you_mean(path, sorted(fields)) or
                           "name a text field of this record as a dotted path: text, faces.2.text, rows.0.effect"
                           + (f" (its text fields: {', '.join(sorted(fields)[:6])})" if fields else ""))
            seen.add(path)
