"""`rulesmith new GAME`: a small complete game that validates, checks and builds.

The scaffold has two layers: `scaffold/game/` (the manifest, one data file of each kind,
ERRATA.md) and `scaffold/complete/` (rules chapters with references, a worked example with
its check block, and the procedures.py it runs). `new` writes both, then a translation
catalog (locale/LANG.po) for each language asked for.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from importlib import resources
from pathlib import Path

import click

from ..system import folders
from .. import outputs
from ..core.diagnostics import Report, render
from ..core.languages import language_code
from ..outputs.layout import RESERVED, reserved_hint
from . import LANGUAGE

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


# What `--kind` starts from: a folder under generator/scaffold/.
KINDS = {"skirmish": "game", "counters": "counters"}


def scaffold(target: Path, game_id: str, title: str, source_language: str = "en",
             languages: tuple[str, ...] = (), complete: bool = False, kind: str = "skirmish") -> list[Path]:
    """Copy the scaffold into `target`, naming the game; `complete` adds rules and procedures
    to the skirmish scaffold."""
    layers = [KINDS[kind]] + (["complete"] if complete and kind == "skirmish" else [])
    written = []
    for layer in layers:
        source = resources.files("generator") / "scaffold" / layer
        with resources.as_file(source) as folder:
            for path in folders.files(Path(folder), {"__pycache__"}):
                dest = target / path.relative_to(folder)
                text = (path.read_text(encoding="utf-8").replace("__ID__", game_id)
                        .replace("__TITLE__", _written(title, path.suffix))
                        .replace("__SOURCE__", source_language).replace("__LANGUAGES__", ", ".join(languages)))
                outputs.write_content(dest, text)
                written.append(dest)
    return written


def _written(title: str, suffix: str) -> str:
    """The title as the scaffold file of this kind holds it: a YAML scalar quoted when it would
    not read back as itself (War: The Game), a docstring's quotes escaped."""
    if suffix == ".py":
        return title.replace("\\", "\\\\").replace('"', '\\"')
    if suffix != ".yaml":
        return title
    import yaml

    try:
        plain = yaml.safe_load(f"title: {title}") == {"title": title}
    except yaml.YAMLError:
        plain = False
    return title if plain else json.dumps(title, ensure_ascii=False)


def write_catalogs(project, game_id: str, languages: tuple[str, ...]) -> list[Path]:
    """locale/LANG.po for each language (every message untranslated), and messages.pot."""
    from ..i18n.catalog import TEMPLATE, locale_dir, po_path, template, update, write_catalog

    game = project.load(game_id, Report(), catalogs=False)
    if game is None or not languages:
        return []
    pot = template(game)
    write_catalog(locale_dir(game) / TEMPLATE, pot)
    written = [locale_dir(game) / TEMPLATE]
    for lang in languages:
        write_catalog(po_path(game, lang), update(game, lang, pot))
        written.append(po_path(game, lang))
    return written


def _languages(_ctx, _param, value: str | None) -> tuple[str, ...]:
    """--languages: comma-separated codes, each checked and normalised like game.yaml's."""
    try:
        return tuple(dict.fromkeys(language_code(part) for part in (value or "").split(",") if part.strip()))
    except ValueError as exc:
        raise click.BadParameter(f"{exc}; write e.g. ru,de") from None


@click.command("new")
@click.argument("game")
@click.option("--title", default=None, help="The game's title (default: from its id).")
@click.option("--source-language", type=LANGUAGE, default="en", show_default=True,
              help="The language the rules are written in (a code: en, ru, de...).")
@click.option("--languages", default="", callback=_languages,
              help="Comma-separated languages to translate into, e.g. ru,de.")
@click.option("--kind", type=click.Choice(list(KINDS)), default="skirmish", show_default=True,
              help="skirmish: units, cards and tables; counters: sides, counters, a hex map and a results table.")
@click.pass_obj
def command(ctx, game: str, title: str | None, source_language: str, languages: tuple[str, ...], kind: str) -> None:
    """Create content/GAME: a small complete game (data, rules, a checked example, translations)."""
    if not _ID.match(game):
        raise click.BadParameter("a game id is lowercase Latin letters, digits and hyphens, e.g. my-game",
                                 param_hint="GAME")
    if game in RESERVED:
        raise click.BadParameter(f"'{game}' is reserved: Rulesmith keeps that name for its own files beside the "
                                 f"games in output/; {reserved_hint()}", param_hint="GAME")
    langs = tuple(lang for lang in languages if lang != source_language)
    project = ctx.project
    target = project.content / game
    if target.exists():
        click.echo(f"error: {target} already exists; choose another id or remove it", err=True)
        sys.exit(2)
    try:
        written = scaffold(target, game, title or game.replace("-", " ").title(), source_language, langs,
                           complete=True, kind=kind)
        written += write_catalogs(project, game, langs)
    except BaseException:  # a full disk, Ctrl+C: no half-made game is left behind
        shutil.rmtree(target, ignore_errors=True)
        raise
    report = Report()
    project.load(game, report)
    if report.failed():  # the scaffold itself is broken: leave nothing half-made behind
        shutil.rmtree(target)
        click.echo(render(report, "text", project.root), err=True)
        sys.exit(1)
    for path in written:
        click.echo(f"created {path.relative_to(project.root)}")
    where = target.relative_to(project.root)
    click.echo(f"\n{game} validates. Next: edit {where}/game.yaml and {where}/rules/, then run "
               f"'rulesmith validate {game}', 'rulesmith check {game}' and 'rulesmith build --game {game}'.")
    if langs:
        click.echo(f"Translate {', '.join(f'{where}/locale/{lang}.po' for lang in langs)} "
                   f"(after changing the text: 'rulesmith i18n update LANG {game}').")
    click.echo("The documentation: 'rulesmith docs'.")
