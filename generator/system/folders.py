"""Every file and folder under a folder, found without recursion. Python 3.11's Path.rglob and
os.walk call themselves once per level, so a project 1,200 folders deep ended the build in a
RecursionError; this walk keeps its own list of folders to visit and goes as deep as the disk
does. Symbolic links to folders are listed but not entered (a loop ends nowhere)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Collection


def walk(folder: Path, skip: Collection[str] = ()) -> list[Path]:
    """Every path under `folder` (not `folder` itself), sorted as `sorted(folder.rglob("*"))`
    sorts them; entries named in `skip` are left out with all they hold. A missing folder
    holds nothing."""
    if not folder.is_dir():
        return []
    found: list[Path] = []
    pending = [folder]
    while pending:
        with os.scandir(pending.pop()) as entries:
            for entry in entries:
                if entry.name in skip:
                    continue
                path = Path(entry.path)
                found.append(path)
                if entry.is_dir(follow_symlinks=False):
                    pending.append(path)
    return sorted(found)


def files(folder: Path, skip: Collection[str] = ()) -> list[Path]:
    """The regular files (or links to them) of `walk(folder, skip)`."""
    return [path for path in walk(folder, skip) if path.is_file()]


def remove(folder: Path) -> None:
    """Remove `folder` and all it holds, deepest first (shutil.rmtree recurses as rglob does)."""
    for path in [*reversed(walk(folder)), folder]:
        if path.is_dir() and not path.is_symlink():
            path.rmdir()
        else:
            path.unlink(missing_ok=True)
