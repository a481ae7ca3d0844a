"""What the build keeps for itself under output/.rulesmith/ (the manifest, card text sizes,
layout decisions, image states, kept chunks) is read like any input: it may be damaged, cut
short, edited by hand or replaced by something else. A file of it is read only if it is a
plain file reached through no symlink and holds JSON with finite numbers; anything else is
discarded (it is ours, inside output/) and worked out again, with a one-line note. What the
data means (types, ranges, paths) each reader checks."""

from __future__ import annotations

import json
import math
import stat
from pathlib import Path

from ..system import folders
from .. import outputs

FOLDER = ".rulesmith"
FILES = ("manifest.json", "fit.json", "layout.json", "images.json", "pages.json")  # the manifest first: Manifest.load reads it
FOLDERS = ("chunks",)


class Damaged(Exception):
    """A kept file that cannot be trusted; the message says why, for the note."""


def folder(output: Path) -> Path:
    return output / FOLDER


def read_json(path: Path) -> object:
    """The JSON kept at `path`, or None when there is none. Raises Damaged when it is not a plain
    file (then it is removed: it would stand in the way of the next write) or not valid JSON."""
    try:
        data = folders.read_bytes(path, follow=False)
    except FileNotFoundError:
        return None
    except OSError as exc:  # a symlink, a FIFO, a device: not something to read
        if isinstance(exc, folders.Refused) and exc.kind == "too large":
            raise Damaged(exc.strerror) from None
        what = outputs.what_is(path)
        outputs.discard(path)
        raise Damaged(what) from None
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_not_finite, parse_float=_finite)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Damaged("not valid JSON") from None


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is not a finite number")
    return value


def _not_finite(text: str) -> float:
    raise ValueError(f"{text} is not a number")


def tidy(output: Path) -> None:
    """Before a build reads any of it: output/.rulesmith is a folder of plain files and folders
    (no symlinks, no file where a folder goes) and its stores are JSON; anything else in it is
    removed with a note."""
    top = folder(output)
    if top.is_symlink() or (top.exists() and not top.is_dir()):
        _discard(top, "replaced by a new folder")
        return
    for name in FILES + FOLDERS:
        path = top / name
        if path.is_symlink() or (path.exists() and path.is_dir() != (name in FOLDERS)):
            _discard(path)
    for name in FILES[1:]:  # the stores the build's workers share: one note here, not one per worker
        try:
            read_json(top / name)
        except Damaged as exc:
            damaged(top / name, str(exc))
            outputs.discard(top / name)
    for path in folders.walk(top):  # links to folders are listed, not entered
        mode = path.lstat().st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            _discard(path)


def _discard(path: Path, done: str = "removed") -> None:
    outputs.note(f"{outputs.shown(path)} was {outputs.what_is(path)}; {done} (nothing it named was touched)")
    outputs.discard(path)


def damaged(path: Path, why: str, redone: str = "worked out again") -> None:
    """The one-line note for a kept file that was not trusted."""
    outputs.note(f"{outputs.shown(path)} is damaged ({why}); {redone}")
