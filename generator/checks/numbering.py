"""Numbered cases: every heading's number can stand (text/numbering.py); E082 where one is
malformed, repeated, not under its parent's, or asked for in a game that does not number."""

from __future__ import annotations

from ..core.diagnostics import Location, Report
from ..reading.game import Game
from ..text.numbering import game_numbering


def check(game: Game, report: Report) -> None:
    for problem in game_numbering(game).problems:
        report.add("E082", problem.message, Location(problem.chapter, problem.line, 1), problem.hint)
