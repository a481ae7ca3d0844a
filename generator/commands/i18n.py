"""`rulesmith i18n extract|update|status|migrate|ui`: the gettext translation workflow."""

from __future__ import annotations

import json
import sys

import click

from ..diagnostics import Report, render
from ..i18n.catalog import TEMPLATE, locale_dir, po_path, status, template, update, write_catalog
from ..i18n.messages import game_messages
from ..i18n.migrate import migrate, needs_migration
from ..i18n.ui import builtin, english, interface_catalog


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
@click.argument("lang")
@click.argument("games", nargs=-1)
@click.pass_obj
def update_cmd(ctx, lang: str, games) -> None:
    """Merge the current messages into content/GAME/locale/LANG.po (changed → fuzzy, removed → obsolete)."""
    for game in _load_all(ctx.project, games):
        if lang not in game.manifest.languages:
            click.echo(f"error: {game.id} does not list '{lang}' in languages (game.yaml)", err=True)
            sys.exit(2)
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


@command.command("status")
@click.argument("games", nargs=-1)
@click.option("--lang", "langs", multiple=True, help="Only these languages (default: each game's languages).")
@click.option("--min", "minimum", type=click.FloatRange(0, 100), default=None,
              help="Exit 1 if any catalog is below this percent translated.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.pass_obj
def status_cmd(ctx, games, langs, minimum, fmt) -> None:
    """Translated / fuzzy / untranslated counts per game and language."""
    rows = []
    for game in _load_all(ctx.project, games):
        messages = game_messages(game)
        pot = template(game, messages)
        for lang in langs or game.manifest.languages:
            rows.append(status(game, lang, pot, messages))
    below = [r for r in rows if minimum is not None and r.percent < minimum]
    if fmt == "json":
        click.echo(json.dumps([r.as_dict() for r in rows], ensure_ascii=False, indent=2))
    else:
        click.echo(f"{'game':<14} {'lang':<5} {'translated':>10} {'fuzzy':>6} {'untransl.':>9} {'percent':>8}")
        for r in rows:
            flag = "  < min" if r in below else ""
            click.echo(f"{r.game:<14} {r.lang:<5} {r.translated:>10} {r.fuzzy:>6} {r.untranslated:>9} "
                       f"{r.percent:>7.1f}%{flag}")
    if below:
        sys.exit(1)


@command.command("ui")
@click.argument("lang")
@click.argument("game_id", metavar="GAME")
@click.pass_obj
def ui_cmd(ctx, lang: str, game_id: str) -> None:
    """Write content/GAME/locale/ui.LANG.po: every interface word ("Contents", "Example"…) to
    translate or override for one language. A word left empty keeps Rulesmith's own."""
    (game,) = _load_all(ctx.project, (game_id,))
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
