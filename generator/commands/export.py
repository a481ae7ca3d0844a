"""`rulesmith export GAME --json`: the validated model as JSON."""

from __future__ import annotations

import json
import sys

import click

from ..core.diagnostics import Report, render


@click.command("export")
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, default=True, help="Write JSON (the only format).")
@click.pass_obj
def command(ctx, game: str, as_json: bool) -> None:
    """Print GAME's validated model as JSON: every record with its kind and id."""
    project = ctx.project
    project.resolve_games([game])
    report = Report()
    loaded = project.load(game, report)
    if report.errors or loaded is None:
        click.echo(render(report, "text", project.root), err=True)
        click.echo(f"error: {game} has content errors; nothing exported", err=True)
        sys.exit(1)
    click.echo(json.dumps(loaded.export(), ensure_ascii=False, indent=2))
