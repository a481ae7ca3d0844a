"""Files and folders as they are on the disk, whatever stands there.

Every file and folder under a folder, found without recursion: Python 3.11's Path.rglob and
os.walk call themselves once per level, so a project 1,200 folders deep ended the build in a
RecursionError; this walk keeps its own list of folders to visit and goes as deep as the disk
does. Symbolic links to folders are listed but not entered (a loop ends nowhere).

And one way to read a file of content, a template or the build's kept state (`read_bytes`):
only a regular file is read, opened without blocking, up to a size. A named pipe in place of a
chapter made every command wait for a writer forever; a link to /dev/zero read until memory
ran out; a socket or a device is no text either. Each is refused at once with `Refused`, an
OSError whose words say what stands there."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Collection, Iterator

MAX_BYTES = 64 << 20  # a content file larger than this is no rules text, data or catalog anyone wrote
OUTPUT_BYTES = 4 << 30  # a file of output/ (a PDF, a picture) read back: bounded, never a device's endless stream


class Refused(OSError):
    """A file that is there but is not read: not a regular file (`kind` says what it is), or
    larger than the limit. `strerror` is the reason in words; `hint` what to do."""

    def __init__(self, path: Path | str, reason: str, hint: str, kind: str = ""):
        super().__init__(errno.EINVAL, reason, os.fspath(path))
        self.hint = hint
        self.kind = kind


_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a folder"),
          (stat.S_ISLNK, "a symbolic link"))


def kind_of(mode: int) -> str:
    """What a file of this st_mode is, in words ("a named pipe (FIFO)", "a folder"...)."""
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def _refuse_unless_regular(path: Path | str, mode: int, shown_as: str) -> None:
    if not stat.S_ISREG(mode):
        what = kind_of(mode)
        raise Refused(path, f"it is {shown_as}{what}, not a regular file", "replace it with the file itself "
                      "(a named pipe, socket or device is never read: it could wait forever or never end)", what)


def present(path: Path | str) -> bool:
    """Something stands at `path`: a file of any kind, a folder, or a symbolic link, even one
    that leads nowhere or to itself (Path.exists says False for those, and the reader that
    asked it would skip the file without a word)."""
    return os.path.lexists(path)


def open_file(path: Path | str, follow: bool = True) -> BinaryIO:
    """The regular file at `path` opened for reading (binary). A symbolic link is followed to
    its file when `follow`, else refused. Raises Refused for anything but a regular file,
    checked before opening (a device is never opened: opening one can act) and again on the
    opened file, opened without blocking, so that neither a FIFO nor one swapped in between
    makes the command wait; other OSErrors as the OS gives them (ENOENT for a dangling link,
    ELOOP for a loop)."""
    shown_as = "a symbolic link to " if follow and os.path.islink(path) else ""
    _refuse_unless_regular(path, os.stat(path, follow_symlinks=follow).st_mode, shown_as)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | (0 if follow else getattr(os, "O_NOFOLLOW", 0))
    fd = os.open(path, flags)
    try:
        _refuse_unless_regular(path, os.fstat(fd).st_mode, shown_as)
        return open(path, "rb", opener=lambda _path, _flags: fd)  # the file opened above, under its name
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: Path | str, limit: int = MAX_BYTES, follow: bool = True) -> bytes:
    """The bytes of the regular file at `path` (`open_file`), at most `limit` of them: Refused
    for a larger one."""
    with open_file(path, follow) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        size = f"{limit >> 20} MB" if limit >= 1 << 20 else f"{limit:,} bytes"
        raise Refused(path, f"the file is larger than {size}, more than a file of this kind holds",
                      "check that this is the file you meant", "too large")
    return data


def read_text(path: Path | str, limit: int = MAX_BYTES, follow: bool = True) -> str:
    """`read_bytes` as UTF-8 text (UnicodeDecodeError when it is not)."""
    return read_bytes(path, limit, follow).decode("utf-8")


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


def copy(source: Path, target: Path) -> None:
    """Copy the folder `source` to `target` (made, with its parents), links copied as links:
    shutil.copytree, without its recursion."""
    target.mkdir(parents=True, exist_ok=True)
    for path in walk(source):
        to = target / path.relative_to(source)
        if path.is_symlink():
            to.symlink_to(os.readlink(path))
        elif path.is_dir():
            to.mkdir()
        else:
            shutil.copy2(path, to)


@contextmanager
def scratch(prefix: str) -> Iterator[Path]:
    """A new temporary folder, removed with all it holds on leaving: tempfile.TemporaryDirectory,
    whose clean-up recurses as shutil.rmtree does."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield folder
    finally:
        remove(folder)

