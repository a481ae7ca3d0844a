"""Files of a game that are symbolic links to files outside the project. Such a file would be
read and published (a chapter on the site, a data file's text in a PDF) though the project
does not hold it: another user's files, the machine's own. The readers skip them and
checks/links.py reports them; links that stay inside the project are fine."""

from __future__ import annotations

import os
from pathlib import Path

from ..system import folders


def outside_links(folder: Path, project: Path) -> list[tuple[Path, Path]]:
    """Every (link, target) under `folder` whose target exists outside `project`. Linked
    folders are not walked into (a loop ends nowhere); a broken link or a loop is reported
    by the reader of its kind of file."""
    root = os.path.realpath(project)
    found = []
    for path in folders.walk(folder):
        if not path.is_symlink():
            continue
        target = os.path.realpath(path)
        if os.path.exists(target) and not (target + os.sep).startswith(root + os.sep):
            found.append((path, Path(target)))
    return sorted(found)
