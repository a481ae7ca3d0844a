"""A file of the game that is a symbolic link to a file outside the project is refused, named
at its place (outside.py: the readers skip it); links that stay inside the project are fine
(one picture shared by two games)."""

from __future__ import annotations

from ..core.diagnostics import Location, Report
from ..reading.game import Game
from ..safety.outside import outside_links


def check(game: Game, report: Report) -> None:
    for link, target in outside_links(game.folder, game.project_root):
        report.add("E066", f"this is a link to '{target}', outside the project: the build does not publish it",
                   Location(link), "copy the file into the project instead of linking to it")
