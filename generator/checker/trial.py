"""Checking a game whose procedures.py runs bounded (see bounded.py): one child per game.

The child runs every check that touches procedures.py (all of validation, and the examples
and consistency rules when `rulesmith check` asks) and answers with the diagnostics, the
parsed stats and the check results. When it overruns or ends, the game gets E035 and the
module is marked unusable here, so nothing in this process runs it afterwards.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..diagnostics import Report
from ..game import Game
from ..text.chapters import load_chapters
from .bounded import start_bounded, time_limit
from .procedures import MODULE, load_procedures, mark_unusable, problem_of
from .runner import GameResult, check_game


def _trial(game: Game, catalogs: bool, examples: bool) -> tuple[Any, ...]:
    from ..checks import run_checks

    report = Report()
    run_checks(game, report, catalogs=catalogs)
    result = check_game(game, report) if examples else None
    if result is not None:  # plain data only: functions and parsed conditions stay in the child
        result.loaded, result.report = None, Report()
        result.rules = [replace(r, rule=replace(r.rule, fn=None)) for r in result.rules]
        for block in [c.block for e in result.examples for c in e.checks] + [c.block for c in result.stray]:
            block.stats = {}
    return report.diagnostics, dict(game.values), result, list(load_procedures(game.folder).problems)


class PendingChecks:
    """A game's checks under way in a child (or done, where there is no procedures.py)."""

    def __init__(self, game: Game, catalogs: bool = True, examples: bool = False):
        self.game, self.catalogs, self.examples = game, catalogs, examples
        self.path = (game.folder / MODULE).resolve()
        self.seconds = time_limit()
        if self.path.is_file():
            load_chapters(game.folder)  # parsed once here and kept: the child inherits them, renderers reuse them
        self.child = start_bounded(_trial, game, catalogs, examples, seconds=self.seconds) if self.path.is_file() else None

    def finish(self, report: Report) -> GameResult | None:
        """Wait for the checks; their diagnostics go to `report`; the check results if asked for."""
        from ..checks import run_checks

        game = self.game
        if self.child is None:  # no content code: nothing to bound
            run_checks(game, report, catalogs=self.catalogs)
            return check_game(game, report) if self.examples else None
        outcome = self.child.wait()
        if outcome.ok:
            diagnostics, values, result, problems = outcome.value
            report.diagnostics.extend(diagnostics)
            game.values.update(values)
            if problems:
                mark_unusable(self.path, problems)
            if result is not None:
                result.report, result.loaded = report, game
            return result
        mark_unusable(self.path, [problem_of(outcome, self.path, self.seconds)])
        run_checks(game, report, catalogs=self.catalogs)  # procedures.py now reports E035 wherever it is used
        return check_game(game, report) if self.examples else None


def check_bounded(game: Game, report: Report, catalogs: bool = True, examples: bool = False) -> GameResult | None:
    """Run the game's checks (and with examples=True its examples and consistency rules) with
    procedures.py bounded; the check results when asked for."""
    return PendingChecks(game, catalogs, examples).finish(report)


__all__ = ["PendingChecks", "check_bounded"]
