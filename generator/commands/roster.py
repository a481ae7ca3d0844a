"""`rulesmith roster check|print LIST.yaml`: a player's army list against its game's roster rules."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..core.diagnostics import Report, render
from . import FORMAT_OPTION, LANGUAGE


@click.group("roster")
def command() -> None:
    """Check and print army lists built from a game's roster rules (docs/rosters.md)."""


@command.command("check")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@FORMAT_OPTION
@click.pass_obj
def check(ctx, path: Path, fmt: str) -> None:
    """Print the list's total and every breach of its roster rules, at the list's lines."""
    import json

    from ..roster.session import check_list, summary, verdict

    report = Report()
    checked = check_list(ctx.project, path, report)
    out = render(report, fmt, ctx.project.root)
    if fmt == "json":  # the diagnostics, and the list's total, limit and lines beside them
        out = json.dumps({**json.loads(out), "list": verdict(checked)}, ensure_ascii=False, indent=2)
    if out:
        click.echo(out)
    if checked is not None and fmt == "text":
        click.echo(summary(checked))
    if fmt == "text":
        verdict = "FAILED" if report.failed() else "ok"
        click.echo(f"{path}: {len(report.errors)} error(s), {len(report.warnings)} warning(s) — {verdict}", err=True)
    if report.failed():
        sys.exit(1)


@command.command("print")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--lang", type=LANGUAGE, default=None,
              help="The edition's language (default: the game's source language).")
@click.pass_obj
def print_(ctx, path: Path, lang: str | None) -> None:
    """Write output/GAME/LANG/lists/NAME.pdf: the list's units with their datasheets, the keywords
    they use, the totals and the roster rules it was checked against. A list with breaches is not printed."""
    from ..project import UsageError
    from ..roster.printed import print_list
    from ..roster.session import check_list

    report = Report()
    checked = check_list(ctx.project, path, report)
    if checked is None or report.failed():
        click.echo(render(report, "text", ctx.project.root))
        click.echo(f"{path}: not printed; 'rulesmith roster check {path}' shows every breach", err=True)
        sys.exit(1)
    manifest = checked.game.manifest
    lang = lang or manifest.source_language
    if lang != manifest.source_language and lang not in manifest.languages:
        raise UsageError(f"game '{manifest.id}' has no language '{lang}'; its languages: "
                         f"{', '.join([manifest.source_language, *manifest.languages])}")
    from .. import outputs

    with outputs.BuildLock(ctx.project.output, wait=True):  # one writer at a time in output/ (a build's temporaries)
        result = print_list(checked, lang, ctx.project.root, path)
    for finding in result.diagnostics:
        click.echo(finding.format_text(ctx.project.root), err=True)
    click.echo(str(result.path))
    if result.path.name.endswith(".layout-errors.pdf"):
        sys.exit(1)
