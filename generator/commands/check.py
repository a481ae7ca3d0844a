"""`rulesmith check [GAME...]`: run every worked example and consistency rule of the games."""

from __future__ import annotations

import sys

import click

from ..checker.report import render, summary_text
from ..checker.tables import write_tables
from ..checks.trial import check_project
from ..outputs.layout import RESERVED
from . import FORMAT_OPTION


@click.command("check")
@click.argument("games", nargs=-1)
@FORMAT_OPTION
@click.option("--tables", is_flag=True,
              help="Also write the probability tables the procedures declare to output/GAME/tables/ (CSV and JSON).")
@click.pass_obj
def command(ctx, games: tuple[str, ...], fmt: str, tables: bool) -> None:
    """Run the examples of the named games (all games when none is named) against their rule
    procedures: PASS/FAIL per example, exit code 1 if any fails."""
    project = ctx.project
    names = project.resolve_games(games)
    run = check_project(project, names)
    out = render(run, fmt, project.root)
    if out:
        click.echo(out)
    if tables:
        from ..checker.procedures import error_line, load_procedures
        from ..values import UnstatedError

        for result in run.games:
            game = result.loaded
            if game is not None and game.id in RESERVED:
                continue  # its E017 says why: output/GAME/tables would land in Rulesmith's own folder
            procedures = load_procedures(game.folder) if game is not None else None
            if procedures is None or not procedures.tables:
                continue
            try:
                written = write_tables(game, project.output)
            except UnstatedError as exc:  # a table needs a value the source does not give: say which
                click.echo(f"error: {game.id}: a table could not be computed: {exc}", err=True)
                run.tables_failed = True
                continue
            except OSError:  # the disk, not the table function: the CLI says what to do
                raise
            except Exception as exc:  # a table function's bug: name where, do not hide the check results
                line = getattr(exc, "line", 0) or error_line(exc, procedures.path)
                where = f"{procedures.path.relative_to(project.root)}:{line}: " if line else ""
                click.echo(f"{where}error: {game.id}: a table could not be computed: {exc}", err=True)
                run.tables_failed = True
                continue
            for path in written:
                click.echo(f"wrote {path.relative_to(project.root)}", err=True)
    if fmt == "text":
        click.echo(summary_text(run), err=True)
    if run.failed or run.tables_failed:
        sys.exit(1)
