"""One module per CLI verb; each exposes `command`."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import click

FORMAT_OPTION = click.option(
    "--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text", show_default=True,
    help="text for people, json for tools, github for workflow annotations.",
)


class LanguageCode(click.ParamType):
    """A command's LANG or --lang: checked and normalised like game.yaml's codes (languages.py)."""

    name = "LANG"

    def convert(self, value, param, ctx) -> str:
        from ..core.languages import language_code

        try:
            return language_code(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


LANGUAGE = LanguageCode()


@contextmanager
def output_held(output: Path) -> Iterator[None]:
    """output/ held by this command alone, as a build holds it; another build running is a
    usage error (exit 2) in one line, and a write that would leave output/ an error (exit 1)."""
    from .. import outputs

    lock = outputs.BuildLock(output)
    try:
        lock.acquire()
    except outputs.OutputLocked as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    try:
        yield
    except outputs.OutsideOutput as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    finally:
        lock.release()
