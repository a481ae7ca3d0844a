"""`rulesmith i18n extract|update|status|migrate|ui`: the gettext translation workflow."""

from __future__ import annotations

import json
import math
import sys

import click

from ..core.diagnostics import Report, render
from ..i18n.catalog import TEMPLATE, locale_dir, po_path, status, template, update, write_catalog
from ..i18n.messages import game_messages
from ..i18n.migrate import migrate, needs_migration
from ..i18n.ui import builtin, english, interface_catalog
from ..project import UsageError
from . import LANGUAGE


def _require_language(game, lang: str, targets_only: bool) -> None:
    """Exit 2 unless `game` has `lang`: among the languages it is translated into, or with
    targets_only=False its source language too."""
    langs = [*([] if targets_only else [game.manifest.source_language]), *game.manifest.languages]
    if lang not in langs:
        which = "target languages" if targets_only else "languages"
        click.echo(f"error: {game.id} does not list '{lang}' among its {which} ({', '.join(langs) or 'none'}); "
                   f"add it to languages: in its game.yaml first", err=True)
        sys.exit(2)


def _load_all(project, games):
    report = Report()
    loaded = []
    for name in project.resolve_games(games):
        game = project.load(name, report)
        if game is not None:
            loaded.append(game)
    if report.errors:
        click.echo(render(report, "text", project.root), err=True)
        click.echo("error: content has errors; fix them first (rulesmith validate)", err=True)
        sys.exit(1)
    return loaded


@click.group("i18n")
def command() -> None:
    """Translation catalogs: extract messages, update LANG.po, report status."""


@command.command("extract")
@click.argument("games", nargs=-1)
@click.pass_obj
def extract(ctx, games) -> None:
    """Write content/GAME/locale/messages.pot for the named games (default: all)."""
    for game in _load_all(ctx.project, games):
        pot = template(game)
        path = locale_dir(game) / TEMPLATE
        write_catalog(path, pot)
        click.echo(f"{path.relative_to(ctx.project.root)}: {len(pot)} messages")


@command.command("update")
@click.argument("lang", type=LANGUAGE)
@click.argument("games", nargs=-1)
@click.pass_obj
def update_cmd(ctx, lang: str, games) -> None:
    """Merge the current messages into content/GAME/locale/LANG.po (changed → fuzzy, removed → obsolete)."""
    loaded = _load_all(ctx.project, games)
    for game in loaded:  # every game first: a refusal leaves no catalog written
        _require_language(game, lang, targets_only=True)
    for game in loaded:
        pot = template(game)
        if needs_migration(game, pot):  # catalogs from before one message per source string
            _report_migration(migrate(game))
            pot = template(game)
        write_catalog(locale_dir(game) / TEMPLATE, pot)
        catalog = update(game, lang, pot)
        write_catalog(po_path(game, lang), catalog)
        st = status(game, lang, pot)
        click.echo(f"{po_path(game, lang).relative_to(ctx.project.root)}: {st.translated} translated, "
                   f"{st.fuzzy} fuzzy, {st.untranslated} untranslated")


def _a_number(_ctx, _param, value: float | None) -> float | None:
    if value is not None and math.isnan(value):  # FloatRange lets NaN through: no percent is below it
        raise click.BadParameter("nan is not a percent; give a number from 0 to 100")
    return value


@command.command("status")
@click.argument("games", nargs=-1)
@click.option("--lang", "langs", type=LANGUAGE, multiple=True,
              help="Only these languages (default: each game's languages).")
@click.option("--min", "minimum", type=click.FloatRange(0, 100), default=None, callback=_a_number,
              help="Exit 1 if any catalog is below this percent translated (0 to 100).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.pass_obj
def status_cmd(ctx, games, langs, minimum, fmt) -> None:
    """Translated / fuzzy / untranslated counts per game and language."""
    rows = []
    loaded = _load_all(ctx.project, games)
    for lang in langs:
        if not any(lang in game.manifest.languages for game in loaded):
            listed = "; ".join(f"{g.id}: {', '.join(g.manifest.languages) or 'none'}" for g in loaded)
            raise UsageError(f"no selected game is translated into '{lang}' ({listed}); choose one of those, "
                             f"or leave --lang out for all")
    for game in loaded:
        messages = game_messages(game)
        pot = template(game, messages)
        chosen = [lang for lang in langs if lang in game.manifest.languages] if langs else game.manifest.languages
        for lang in chosen:
            rows.append(status(game, lang, pot, messages))
    below = [r for r in rows if minimum is not None and r.percent < minimum]
    if fmt == "json":
        click.echo(json.dumps([r.as_dict() for r in rows], ensure_ascii=False, indent=2))
    else:
        _status_table(ctx, loaded, rows, below)
    if below:
        sys.exit(1)


def _status_table(ctx, loaded, rows, below) -> None:
    """The status rows as a table; a language with no catalog yet says which file it lacks."""
    game_of = {game.id: game for game in loaded}
    click.echo(f"{'game':<14} {'lang':<5} {'translated':>10} {'fuzzy':>6} {'untransl.':>9} {'percent':>8}")
    for r in rows:
        flag = "  < min" if r in below else ""
        if r.catalog is None:
            flag += f"  no catalog: {po_path(game_of[r.game], r.lang).relative_to(ctx.project.root)}"
        click.echo(f"{r.game:<14} {r.lang:<5} {r.translated:>10} {r.fuzzy:>6} {r.untranslated:>9} "
                   f"{r.percent:>7.1f}%{flag}")


@command.command("ui")
@click.argument("lang", type=LANGUAGE)
@click.argument("game_id", metavar="GAME")
@click.pass_obj
def ui_cmd(ctx, lang: str, game_id: str) -> None:
    """Write content/GAME/locale/ui.LANG.po: every interface word ("Contents", "Example"…) to
    translate or override for one language. A word left empty keeps Rulesmith's own."""
    (game,) = _load_all(ctx.project, (game_id,))
    _require_language(game, lang, targets_only=False)
    path = interface_catalog(game.folder / "locale", lang)
    click.echo(f"{path.relative_to(ctx.project.root)}: {len(english())} interface words "
               f"({len(builtin(lang))} shipped in '{lang}', empty entries keep them)")


@command.command("migrate")
@click.argument("games", nargs=-1)
@click.pass_obj
def migrate_cmd(ctx, games) -> None:
    """Regroup content/GAME/locale/*.po to one message per source string, keeping every
    translation; where old translations of the same words differ, each differing place keeps
    its own message (written to locale/contexts.yaml). Safe to run again."""
    for game in _load_all(ctx.project, games):
        _report_migration(migrate(game))


def _report_migration(result) -> None:
    kept = sum(len(c.apart) for c in result.conflicts)
    click.echo(f"{result.game}: {result.before} → {result.after} messages"
               + (f"; {kept} translation(s) kept apart in locale/contexts.yaml" if kept else ""))
    for conflict in result.conflicts:
        click.echo(f"  {conflict.lang} '{conflict.msgid[:50]}': shared '{conflict.shared[:50]}'")
        for place, text in conflict.apart:
            click.echo(f"    {place}: '{text[:50]}'")
