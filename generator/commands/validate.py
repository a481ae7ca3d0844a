"""`rulesmith validate [GAME...]`: load and check content like a compiler."""

from __future__ import annotations

import sys

import click

from ..checks.trial import checked_games
from ..core.diagnostics import Report, render
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
    for _name, game_report, _game in checked_games(project, names):  # side by side, reported in order
        report.extend(game_report)
    out = render(report, fmt, project.root)
    if out:
        click.echo(out)
    if fmt == "text":
        verdict = "FAILED" if report.failed(strict) else "ok"
        click.echo(f"{len(names)} game(s) validated: {len(report.errors)} error(s), "
                   f"{len(report.warnings)} warning(s) — {verdict}", err=True)
    if report.failed(strict):
        sys.exit(1)

