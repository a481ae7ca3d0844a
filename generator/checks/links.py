"""A file of the game that is a symbolic link to a file outside the project would be read
and published (a chapter on the site, a picture in a PDF) though the project does not hold
it: another user's files, the machine's own. Each such link is refused, named at its place;
links that stay inside the project are fine (one picture shared by two games)."""

from __future__ import annotations

import os
from pathlib import Path

from ..diagnostics import Location, Report
from ..game import Game


def outside_links(folder: Path, project: Path) -> list[tuple[Path, Path]]:
    """Every (link, target) under `folder` whose target exists outside `project`. Linked
    folders are not walked into (a loop ends nowhere); a broken link or a loop is reported
    by the reader of its kind of file."""
    root = os.path.realpath(project)
    found = []
    for parent, folders, files in os.walk(folder):
        for name in sorted(folders + files):
            path = Path(parent) / name
            if not path.is_symlink():
                continue
            target = os.path.realpath(path)
            if os.path.exists(target) and not (target + os.sep).startswith(root + os.sep):
                found.append((path, Path(target)))
    return sorted(found)


def check(game: Game, report: Report) -> None:
    for link, target in outside_links(game.folder, game.project_root):
        report.add("E066", f"this is a link to '{target}', outside the project: the build does not publish it",
                   Location(link), "copy the file into the project instead of linking to it")
