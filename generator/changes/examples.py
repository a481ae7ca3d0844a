"""Worked examples whose verdict moved between two versions: the rules checker runs on both
(procedures.py bounded in a child, checks/trial.py), and an example that passed and now
fails, or the other way, is a change even where its own text stayed the same."""

from __future__ import annotations

from ..checker.runner import GameResult
from ..checks.trial import PendingChecks
from ..core.diagnostics import Location, Report
from ..reading.game import Game
from . import CHANGED, Change


def verdicts(old: Game, new: Game) -> tuple[GameResult | None, GameResult | None]:
    """Both versions' check results, their checks run side by side (one child each)."""
    pending = [PendingChecks(game, catalogs=False, examples=True) for game in (old, new)]
    before, after = (p.finish(Report()) for p in pending)
    return before, after


def changes(old: Game, new: Game) -> list[Change]:
    """One change per example of both versions whose verdict differs (pass, fail, error, unchecked)."""
    before, after = verdicts(old, new)
    if before is None or after is None:
        return []
    was = {e.example.id: e.status for e in before.examples}
    out = []
    for result in after.examples:
        example = result.example
        if example.id in was and was[example.id] != result.status:
            out.append(Change("example", CHANGED, f"example {example.id}", "verdict", was[example.id],
                              result.status, Location(example.path, example.line)))
    return out
