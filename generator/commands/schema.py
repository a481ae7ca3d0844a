"""`rulesmith schema`: write JSON Schema for every kind of content file."""

from __future__ import annotations

from pathlib import Path

import click

from ..schema import write_schemas


@click.command("schema")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder to write into. Default: output/schema/ of the project.")
@click.pass_obj
def command(ctx, out: Path | None) -> None:
    """Write JSON Schema files so editors autocomplete and underline content mistakes."""
    folder = out or ctx.project.output / "schema"
    for path in write_schemas(folder):
        click.echo(str(path))
