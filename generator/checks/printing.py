"""How the game prints: its print.yaml and the sheets.yaml and print-shops.yaml of its
templates (the game's and the project's) are content like any other, checked with file:line
before a build reads them."""

from __future__ import annotations

from pathlib import Path

from ..system import folders
from ..core.diagnostics import Report
from ..reading.game import Game
from ..reading.loader import load_settings
from ..model.printing import PrintConfig, PrintShops, SheetsConfig
from ..reading.yamlsource import unreadable


def settings_files(game: Game) -> list[tuple]:
    """(path, model) of every settings file the game's documents would read."""
    templates = (game.folder / "templates", game.project_root / "templates")
    return ([(game.folder / "print.yaml", PrintConfig)]
            + [(folder / "print.yaml", PrintConfig) for folder in templates]
            + [(folder / "sheets.yaml", SheetsConfig) for folder in templates]
            + [(folder / "print-shops.yaml", PrintShops) for folder in templates])


def check(game: Game, report: Report) -> None:
    for path, model in settings_files(game):
        if path.exists() or path.is_symlink():
            load_settings(path, model, report)
    for folder in (game.folder / "templates", game.project_root / "templates"):
        _check_readable(folder, report)


def _check_readable(folder: Path, report: Report) -> None:
    """E024 for each file of a template folder the build could not read: a named pipe, a
    device, a dangling or looping link (Jinja would pass over it and print Rulesmith's own
    template instead, without a word)."""
    for path in folders.walk(folder):
        if path.is_dir():
            continue
        try:
            folders.open_file(path).close()
        except OSError as exc:
            message, where, hint = unreadable(path, exc)
            report.add("E024", message, where, hint)
