"""`rulesmith changes GAME --since REF`: what changed since a tagged version, in every edition."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..changes import FUZZY, MISSING
from ..changes.compare import compare
from ..changes.report import render
from ..changes.versions import from_folder, from_git
from ..core.diagnostics import Report, render as render_report
from ..project import Project, UsageError
from . import FORMAT_OPTION


@click.command("changes")
@click.argument("game")
@click.option("--since", "ref", metavar="REF",
              help="A git revision or tag of the project's repository: the older version.")
@click.option("--since-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="An older copy of the game's folder (or of content/), for a project without git.")
@FORMAT_OPTION
@click.option("--examples/--no-examples", default=True, show_default=True,
              help="Run the worked examples of both versions and list those whose verdict moved.")
@click.pass_obj
def command(ctx, game: str, ref: str | None, since_dir: Path | None, fmt: str, examples: bool) -> None:
    """List every change of GAME since an older version: records' fields, paragraphs and table
    rows, examples whose verdict moved; each with its old and new text and every edition's
    state (translated, fuzzy, missing)."""
    project = ctx.project
    project.resolve_games([game])
    if (ref is None) == (since_dir is None):
        raise UsageError("give the older version with --since REF (a git tag or revision) or --since-dir DIR, "
                         "one of them")
    if since_dir is not None and not since_dir.is_dir():
        raise UsageError(f"--since-dir: '{since_dir}' is not a folder")
    report = Report()
    new = project.read(game, report)
    if new is None:
        click.echo(render_report(report, "github" if fmt == "github" else "text", project.root), err=True)
        sys.exit(1)
    older = from_git(project.root, game, ref) if ref is not None else from_folder(since_dir.resolve(), game)
    with older as old_root:
        problems = Report()
        old = Project(old_root).read(game, problems)
        if old is None:
            first = problems.sorted()[0].format_text(old_root).splitlines()[0] if problems.diagnostics else ""
            raise UsageError(f"the older version of {game} ({ref or since_dir}) cannot be loaded: {first}")
        found = compare(old, new, examples=examples)
    header = {"game": game, "since": ref or str(since_dir),
              "version": {"old": old.manifest.version, "new": new.manifest.version}}
    out = render(found, fmt, project.root, new.manifest.source_language, header)
    if out:
        click.echo(out)
    if fmt == "text":
        click.echo(_summary(game, header["version"], found), err=True)


def _summary(game: str, version: dict, found: list) -> str:
    versions = f" {version['old'] or '?'} → {version['new'] or '?'}" if version["old"] or version["new"] else ""
    counts = {}
    for change in found:
        for lang, edition in change.editions.items():
            if edition.state in (FUZZY, MISSING):
                counts.setdefault(lang, {FUZZY: 0, MISSING: 0})[edition.state] += 1
    editions = "; ".join(f"{lang}: {c[FUZZY]} fuzzy, {c[MISSING]} missing" for lang, c in counts.items())
    return f"{game}{versions}: {len(found)} change(s)" + (f" — to translate: {editions}" if editions else "")
