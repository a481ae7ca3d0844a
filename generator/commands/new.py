"""`rulesmith new GAME`: a game folder that validates, with one example of each file kind."""

from __future__ import annotations

import re
import shutil
import sys
from importlib import resources
from pathlib import Path

import click

from ..diagnostics import Report, render

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


# What `--kind` starts from: a folder under generator/scaffold/.
KINDS = {"skirmish": "game", "counters": "counters"}


def scaffold(target: Path, game_id: str, title: str, kind: str = "skirmish") -> list[Path]:
    """Copy the scaffold into `target`, naming the game."""
    source = resources.files("generator") / "scaffold" / KINDS[kind]
    written = []
    with resources.as_file(source) as folder:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_dir():
                continue
            dest = target / path.relative_to(folder)
            dest.parent.mkdir(parents=True, exist_ok=True)
            text = path.read_text(encoding="utf-8").replace("__ID__", game_id).replace("__TITLE__", title)
            dest.write_text(text, encoding="utf-8")
            written.append(dest)
    return written


@click.command("new")
@click.argument("game")
@click.option("--title", default=None, help="The game's title (default: from its id).")
@click.option("--kind", type=click.Choice(list(KINDS)), default="skirmish", show_default=True,
              help="skirmish: units, cards and tables; counters: sides, counters, a hex map and a results table.")
@click.pass_obj
def command(ctx, game: str, title: str | None, kind: str) -> None:
    """Create content/GAME with one example of each kind of file."""
    if not _ID.match(game):
        raise click.BadParameter("a game id is lowercase Latin letters, digits and hyphens, e.g. my-game",
                                 param_hint="GAME")
    project = ctx.project
    target = project.content / game
    if target.exists():
        click.echo(f"error: {target} already exists; choose another id or remove it", err=True)
        sys.exit(2)
    written = scaffold(target, game, title or game.replace("-", " ").title(), kind)
    report = Report()
    project.load(game, report)
    if report.failed():  # the scaffold itself is broken: leave nothing half-made behind
        shutil.rmtree(target)
        click.echo(render(report, "text", project.root), err=True)
        sys.exit(1)
    for path in written:
        click.echo(f"created {path.relative_to(project.root)}")
    click.echo(f"\n{game} validates. Next: edit {target.relative_to(project.root)}/game.yaml, "
               f"then run 'rulesmith validate {game}'.")
