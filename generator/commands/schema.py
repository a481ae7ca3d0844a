"""`rulesmith schema`: write JSON Schema for every kind of content file."""

from __future__ import annotations

from pathlib import Path

import click

from .. import outputs
from ..outputs.layout import SCHEMA
from ..model.schema import write_schemas


@click.command("schema")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder inside output/ to write into. Default: output/schema/ of the project.")
@click.pass_obj
def command(ctx, out: Path | None) -> None:
    """Write JSON Schema files so editors autocomplete and underline content mistakes."""
    output = ctx.project.output
    folder = out or output / SCHEMA
    resolved = folder.resolve()
    if resolved != output.resolve() and output.resolve() not in resolved.parents:
        raise click.BadParameter(
            f"{folder} is outside {output}; Rulesmith writes only into the output folder. "
            f"Hint: leave --out out (output/schema/) or name a folder inside output/, "
            f"then point your editor there or copy the files.", param_hint="--out")
    with outputs.BuildLock(output, wait=True):  # one writer at a time in output/ (a build's temporaries)
        written = write_schemas(folder)
    for path in written:
        click.echo(str(path))
