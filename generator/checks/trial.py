"""Checking a game whose procedures.py runs bounded (checker/bounded.py): one child per game.

The child runs every check that touches procedures.py (all of validation, and the examples
and consistency rules of the rules checker when `rulesmith check` asks) and answers with the
diagnostics, the parsed stats and the check results. When it overruns or ends, the game gets
E035 and the module is marked unusable here, so nothing in this process runs it afterwards.
The semantic checks and the rules checker meet here, in the layer above both.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Iterator

from ..checker.bounded import ahead, start_bounded, time_limit
from ..checker.procedures import load_procedures, module_path, mark_unusable, problem_of
from ..checker.runner import CheckRun, GameResult, check_game
from ..core.diagnostics import Report
from ..reading.game import Game
from ..text.chapters import load_chapters
from . import run_checks


def _trial(game: Game, catalogs: bool, examples: bool) -> tuple[Any, ...]:
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
        self.path = module_path(game.folder)
        self.seconds = time_limit()
        if self.path.is_file():
            load_chapters(game.folder)  # parsed once here and kept: the child inherits them, renderers reuse them
        self.child = start_bounded(_trial, game, catalogs, examples, seconds=self.seconds) if self.path.is_file() else None

    def finish(self, report: Report) -> GameResult | None:
        """Wait for the checks; their diagnostics go to `report`; the check results if asked for."""
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


def checked_games(project: Any, names: Iterable[str], catalogs: bool = True,
                  examples: bool = False) -> Iterator[tuple[str, Report, Game | None]]:
    """Each named game of a project (a Project) read and checked, as `project.load` one after
    another would, but with the next games' checks started before the first is waited for
    (as many as there are cores, bounded.ahead): each runs in a child of its own, so the games
    are checked side by side on the machine's cores. Yields (name, the game's diagnostics, the
    game or None) in the order of `names`; the game's check_result is set."""
    def start(name: str) -> tuple[Report, Game | None, PendingChecks | None]:
        report = Report()
        game = project.read(name, report)
        return report, game, PendingChecks(game, catalogs, examples) if game is not None else None

    for name, (report, game, pending) in ahead(names, start):
        if pending is not None:
            game.check_result = pending.finish(report)
        yield name, report, game


def check_project(project: Any, names: Iterable[str]) -> CheckRun:
    """Load, validate and check the named games of a project (a Project)."""
    run = CheckRun()
    for name, report, game in checked_games(project, names, catalogs=False, examples=True):  # translations: validate's
        if game is None:
            run.games.append(GameResult(name, project.content / name, report=report))
        else:
            run.games.append(game.check_result if game.check_result is not None else check_game(game, report))
    return run


__all__ = ["PendingChecks", "check_bounded", "check_project", "checked_games"]
