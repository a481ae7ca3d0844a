"""One module per CLI verb; each exposes `command`."""

from __future__ import annotations

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
