"""Games loaded once per process. A build's worker lays out several documents of a game; it
reads the game again only when the game's files changed since it last did (their hashes,
rebuild.Inputs), so a long-lived process (`serve`, a one-worker build) never lays out a game
as it was. Only one project's games are kept at a time."""

from __future__ import annotations

from pathlib import Path

from ..core.diagnostics import Report
from ..reading.game import Game
from .rebuild import Inputs

_KEPT: dict[tuple[Path, str], tuple[str, Game]] = {}


def loaded(project, name: str, report: Report) -> Game | None:
    """The game as `project.load(name, report, checks=False)` gives it: kept from an earlier
    call while its files are the same, else loaded now (and kept unless it has errors)."""
    state = Inputs(project).game(name)
    key = (project.content, name)
    kept = _KEPT.get(key)
    if kept is not None and kept[0] == state:
        return kept[1]
    for other in [k for k in _KEPT if k == key or k[0] != project.content]:
        del _KEPT[other]
    game = project.load(name, report, checks=False)
    if game is not None and not report.errors:
        _KEPT[key] = (state, game)
    return game
