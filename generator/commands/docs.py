"""`rulesmith docs [TOPIC]`: the documentation shipped with Rulesmith, printed in the terminal.

The docs are the Markdown files of the repository's docs/ folder; an installed Rulesmith
carries them as package data (generator/docs), so a hint that says "see docs/checker.md"
works without the repository: `rulesmith docs checker`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..core.diagnostics import did_you_mean


def docs_folder() -> Path:
    """generator/docs in an installed package, the repository's docs/ when run from a checkout."""
    installed = Path(__file__).resolve().parents[1] / "docs"
    return installed if installed.is_dir() else Path(__file__).resolve().parents[2] / "docs"


def topics() -> dict[str, Path]:
    """Topic name (the file name without .md) -> file."""
    return {path.stem: path for path in sorted(docs_folder().glob("*.md"))}


def _title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem


@click.command("docs")
@click.argument("topic", required=False)
@click.option("--path", "show_path", is_flag=True, help="Print where the file is instead of its text.")
def command(topic: str | None, show_path: bool) -> None:
    """Show the documentation: the list of topics, or one topic (e.g. checker, content-format)."""
    found = topics()
    if not found:
        click.echo("error: this Rulesmith has no docs folder", err=True)
        sys.exit(2)
    if topic is None:
        width = max(len(name) for name in found)
        for name, path in found.items():
            click.echo(f"{name.ljust(width)}  {_title(path)}")
        click.echo("\nrulesmith docs TOPIC prints one; docs/TOPIC.md in hints is the same file.")
        return
    name = topic.removeprefix("docs/").removesuffix(".md")
    if name not in found:
        click.echo(f"error: no docs topic '{topic}'", err=True)
        click.echo(f"  hint: {did_you_mean(name, found) or 'topics: ' + ', '.join(found)}", err=True)
        sys.exit(2)
    click.echo(str(found[name]) if show_path else found[name].read_text(encoding="utf-8"))
