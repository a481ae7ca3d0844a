"""`rulesmith roster check|print LIST.yaml`: a player's army list against its game's roster rules."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..diagnostics import Report, render
from . import FORMAT_OPTION


@click.group("roster")
def command() -> None:
    """Check and print army lists built from a game's roster rules (docs/rosters.md)."""


@command.command("check")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@FORMAT_OPTION
@click.pass_obj
def check(ctx, path: Path, fmt: str) -> None:
    """Print the list's total and every breach of its roster rules, at the list's lines."""
    from ..roster.session import check_list, summary

    report = Report()
    checked = check_list(ctx.project, path, report)
    out = render(report, fmt, ctx.project.root)
    if out:
        click.echo(out)
    if checked is not None and fmt == "text":
        click.echo(summary(checked))
    if fmt == "text":
        verdict = "FAILED" if report.failed() else "ok"
        click.echo(f"{path}: {len(report.errors)} error(s), {len(report.warnings)} warning(s) — {verdict}", err=True)
    if report.failed():
        sys.exit(1)
