"""Errata are listed in the game's ERRATA.md, and every listed erratum exists."""

from __future__ import annotations

import re

from ..diagnostics import Location, Report
from ..game import Game
from ..yamlsource import control_character, line_of_offset, read_text, unreadable

ERRATA_FILE = "ERRATA.md"
# An erratum is listed as a heading or list item that starts with its id in backticks.
_LISTED = re.compile(r"^\s*(?:#+|[-*]|\d+\.)\s+`([a-z0-9][a-z0-9-]*)`")


def listed_errata(text: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = _LISTED.match(line)
        if match:
            found.setdefault(match.group(1), number)
    return found


def _referenced(game: Game) -> set[str]:
    used = {e.id for e in game.errata.values() if e.record}
    for record in game.all_records():
        used.update(record.errata)
    for keyword in game.keywords.values():
        used.update(a.erratum for a in keyword.aliases if a.erratum)
    return used


def check(game: Game, report: Report) -> None:
    path = game.folder / ERRATA_FILE
    listed: dict[str, int] = {}
    if path.exists():
        try:
            text = read_text(path)
        except (OSError, UnicodeDecodeError) as exc:
            message, where, hint = unreadable(path, exc)
            report.add("E024", message, where, hint)
        else:
            bad = control_character(text)
            if bad is not None:
                line, col = line_of_offset(text, bad[0])
                report.add("E024", f"control character {bad[1]} in {ERRATA_FILE}", Location(path, line, col),
                           "remove it")
            listed = listed_errata(text)
    for erratum in game.errata.values():
        if erratum.id not in listed:
            report.add("E015", f"erratum '{erratum.id}' is not listed in {ERRATA_FILE}",
                       game.origin(erratum).location("id"),
                       f"add a line '- `{erratum.id}`: {erratum.summary}' to {ERRATA_FILE}")
    for erratum_id, line in listed.items():
        if erratum_id not in game.errata:
            report.add("E016", f"{ERRATA_FILE} lists erratum '{erratum_id}' that no errata file defines",
                       Location(path, line, 1),
                       "add it to data/errata.yaml, or remove the line if the inconsistency is gone")
    used = _referenced(game)
    for erratum in game.errata.values():
        if erratum.id not in used and erratum.category != "reading":  # readings: E037 (checks/readings.py)
            report.add("W001", f"erratum '{erratum.id}' is not referenced by any record",
                       game.origin(erratum).location("id"),
                       "cite it from the record it concerns (errata: [...], an alias, or record:/field:)")
