"""`rulesmith validate [GAME...]`: load and check content like a compiler."""

from __future__ import annotations

import sys

import click

from ..checks.trial import PendingChecks
from ..diagnostics import Report, render
from ..project import Project
from . import FORMAT_OPTION


@click.command("validate")
@click.argument("games", nargs=-1)
@FORMAT_OPTION
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
@click.pass_obj
def command(ctx, games: tuple[str, ...], fmt: str, strict: bool) -> None:
    """Validate the named games (all games under content/ when none is named)."""
    project = ctx.project
    report = Report()
    names = project.resolve_games(games)
    validate_games(project, names, report)
    out = render(report, fmt, project.root)
    if out:
        click.echo(out)
    if fmt == "text":
        verdict = "FAILED" if report.failed(strict) else "ok"
        click.echo(f"{len(names)} game(s) validated: {len(report.errors)} error(s), "
                   f"{len(report.warnings)} warning(s) — {verdict}", err=True)
    if report.failed(strict):
        sys.exit(1)


def validate_games(project: Project, names: list[str], report: Report) -> None:
    """Load and check the named games, as `project.load` one after another would, but with
    every game's checks started before the first is waited for: each runs in a child of its
    own (checks/trial.py), so the games are checked side by side on the machine's cores. The
    diagnostics come in the order of `names`, each game's together."""
    started = []
    for name in names:
        game_report = Report()
        game = project.read(name, game_report)
        started.append((game, game_report, PendingChecks(game) if game is not None else None))
    for game, game_report, pending in started:
        if pending is not None:
            game.check_result = pending.finish(game_report)
        report.extend(game_report)
