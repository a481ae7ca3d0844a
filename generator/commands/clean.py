"""`rulesmith clean [GAME...]`: remove what `rulesmith build` made under output/, of these
games or of all. Builds never remove a file made with other options (--bleed, another
--print-shop, --booklet...); this is how a designer asks for them to go.

What it removes: every file the builds recorded in output/.rulesmith/manifest.json as made
(the documents and what their options asked for, the probability tables, the site's pages),
the game's site folder (output/site/GAME/; without GAME the whole site), half-written files of
an interrupted build, and the folders all this leaves empty. Without GAME it removes the
build's kept state too (output/.rulesmith/: the manifest, card text sizes, layout decisions,
kept chunks), so that the next build is like the first; with GAME the state of other games
is kept and only that game's records are forgotten. What it keeps: anything under output/
that no build made (`rulesmith roster print`'s lists, `rulesmith schema`'s files, a file put
there by hand), said in one line; nothing outside output/ is ever touched."""

from __future__ import annotations


import click

from ..system import folders
from ..project import keptstate
from .. import outputs
from . import output_held
from ..project.manifest import Manifest
from ..outputs.layout import OWN, SITE
from .build import tell


@click.command("clean")
@click.argument("games", nargs=-1)
@click.pass_obj
def command(ctx, games: tuple[str, ...]) -> None:
    """Remove what builds made under output/ (of these games; default: all of it, the kept state included)."""
    project = ctx.project
    for name in games:
        if outputs.within(project.output, name) is None or "/" in name or name in OWN:
            raise click.BadParameter(f"'{name}' is not a game's folder in output/", param_hint="GAME")
    if not project.output.is_dir():
        tell("nothing to remove: there is no output/ folder")
        return
    with output_held(project.output):
        clean(project, list(games))


def game_of(key: str) -> str:
    """The game a manifest entry is of ('cards:demo/en', 'tables:demo', 'site-game:demo'), or
    '' for what the games share (the search index)."""
    _kind, _, where = key.partition(":")
    return where.split("/")[0]


def clean(project, games: list[str]) -> int:
    """Remove what builds made, of `games` (empty: all), under the lock the caller holds; each
    game's count said in a line. The number of files removed."""
    output = project.output
    outputs.confine_to(output)
    removed = len(outputs.remove_stale_temps(output, tell))
    keptstate.tidy(output)
    manifest = Manifest.load(output)
    if manifest.damaged:
        keptstate.damaged(manifest.path, manifest.why, "only the site and the kept state are removed")
    named = set(games) or {game_of(key) for key in manifest.entries} - {""}
    for game in sorted(named):
        removed += _clean_game(manifest, game)
    if games:
        manifest.forget("site-search")  # the index named the pages removed: made again by the next build
        manifest.save()
    else:
        removed += _remove_folder(output / SITE, "the site")
        removed += _remove_folder(keptstate.folder(output), "the kept state of the builds")
    _kept(output, games)
    return removed


def _clean_game(manifest: Manifest, game: str) -> int:
    """Remove what the builds made of one game (its recorded files, its site folder) and
    forget its records."""
    count = 0
    for key in [key for key in manifest.entries if game_of(key) == game]:
        count += len(manifest.clear(key))
    site = manifest.output / SITE / game
    if site.is_dir() and not site.is_symlink():
        count += len(folders.files(site))
        folders.remove(site)
        outputs.prune(site.parent, manifest.output)
    tell(f"{game}: removed {count} file{'s' if count != 1 else ''} the builds made" if count
         else f"{game}: nothing a build made to remove")
    return count


def _remove_folder(folder, what: str) -> int:
    if not folder.exists() or folder.is_symlink():
        return 0
    count = len(folders.files(folder))
    outputs.discard(folder)
    tell(f"removed {outputs.shown(folder)}/: {what}")
    return count


def _kept(output, games: list[str]) -> None:
    """Say what stays under the folders cleaned that no build made."""
    roots = [output / game for game in games] if games else [output]
    left = [path for root in roots for path in folders.files(root, {".lock", keptstate.FOLDER})
            if path.relative_to(output).parts[0] not in OWN]
    if left:
        more = f" and {len(left) - 1} more" if len(left) > 1 else ""
        tell(f"kept {outputs.shown(left[0])}{more}: no build made {'them' if more else 'it'}")
