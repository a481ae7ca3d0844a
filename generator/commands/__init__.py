"""One module per CLI verb; each exposes `command`."""

from __future__ import annotations

import click

FORMAT_OPTION = click.option(
    "--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text", show_default=True,
    help="text for people, json for tools, github for workflow annotations.",
)
