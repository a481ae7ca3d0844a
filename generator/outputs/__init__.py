"""Writing into output/: every file goes to a unique temporary name beside it and is renamed
into place, so a reader (or a build killed half-way) never sees a half-written file; nothing
is written outside the output folder; one build at a time holds the folder's lock. A path read
from the build's own state is used only when it stays inside the output folder."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import shutil
import stat
import sys
import time
from pathlib import Path, PurePosixPath
from typing import Callable, Iterator

from ..system import faults, folders

_root: Path | None = None  # writes are confined to this folder once a build sets it
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class OutsideOutput(Exception):
    """A path to write resolves outside the output folder."""


class OutputLocked(Exception):
    """Another live process holds output/'s lock."""

    def __init__(self, output: Path, pid: int):
        self.output, self.pid = output, pid
        super().__init__(f"another build (pid {pid}) is writing into {output}; wait for it to finish "
                         f"or stop it, then run again")


def confine_to(root: Path | None) -> None:
    """Refuse, from now on in this process, any write outside `root` (the project's output/)."""
    global _root
    _root = root.resolve() if root is not None else None


def _inside(path: Path, root: Path, folders: dict[Path, Path] | None = None) -> bool:
    """`path` (its folder resolved, so a symlinked folder counts where it leads) is `root` or
    below it; the last part is not followed: a link there is removed or replaced, never used.
    `folders`: the folders resolved so far in this pass (see `within`)."""
    resolved = _resolved(path.parent, folders) / path.name
    return resolved == root or root in resolved.parents


def _resolved(folder: Path, folders: dict[Path, Path] | None) -> Path:
    """`folder` resolved, once per pass where `folders` keeps them."""
    if folders is None:
        return folder.resolve()
    found = folders.get(folder)
    if found is None:
        found = folders[folder] = folder.resolve()
    return found


def resolved(path: Path, folders: dict[Path, Path]) -> Path:
    """`path.resolve()`, its folder resolved once per pass over many paths (`folders`); the
    last part is followed only where it is a link."""
    return path.resolve() if path.is_symlink() else _resolved(path.parent, folders) / path.name


def check_inside(path: Path) -> Path:
    if _root is not None and not _inside(path, _root):
        raise OutsideOutput(f"refused to write {path}: outside {_root}")
    return path


def within(output: Path, rel: object, folders: dict[Path, Path] | None = None) -> Path | None:
    """`output / rel` when `rel`, a path the build's own state names, is a relative path that
    stays inside `output` (no '..', not absolute, no symlinked folder leading out); else None.
    Such a path may be deleted or trusted as a file the build wrote, so nothing else is.
    `folders`: where each folder resolved to, kept across the calls of one pass over many
    paths (a manifest of thousands of card images resolves each of their few folders once)."""
    if not isinstance(rel, str) or not rel or "\\" in rel or "\0" in rel:
        return None
    pure = PurePosixPath(rel)
    if pure.is_absolute() or ".." in pure.parts or pure.as_posix() != rel:
        return None
    path = output / rel
    return path if _inside(path, _resolved(output, folders), folders) else None


def shown(path: Path) -> str:
    """`path` as a note names it: from the project folder (output/...) when it is inside."""
    if _root is not None:
        with contextlib.suppress(ValueError):
            return (path.parent.resolve() / path.name).relative_to(_root.parent).as_posix()
    return str(path)


_noted: set[str] = set()


def note(message: str) -> None:
    """A one-line note on stderr, once per process."""
    if message not in _noted:
        _noted.add(message)
        print(f"note: {message}", file=sys.stderr, flush=True)


def what_is(path: Path) -> str:
    """What is at `path`, in a note's words ("a symlink", "a folder"...)."""
    if path.is_symlink():
        return "a symlink"
    return "a folder" if path.is_dir() else "a file" if path.is_file() else "not a plain file"


def discard(path: Path) -> None:
    """Remove what is at `path` inside output/ (a file, a symlink, a folder, anything), e.g. a
    damaged file of the build's own state; a symlink is removed, never what it points to."""
    check_inside(path)
    if path.is_dir() and not path.is_symlink():
        folders.remove(path)
    else:
        path.unlink(missing_ok=True)


def _temp_name(path: Path) -> Path:
    # the name cut short: a file whose name is near the system's limit still has a temporary
    return path.with_name(f".{path.name[:100]}.{os.getpid()}-{secrets.token_hex(4)}.tmp")


@contextlib.contextmanager
def replacing(path: Path, confined: bool = True) -> Iterator[Path]:
    """Yield a unique temporary path beside `path`; when the block ends without an error it
    replaces `path` in one rename, otherwise it is removed and `path` is left as it was."""
    if confined:
        check_inside(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _temp_name(path)
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(exc, OSError):
            faults.named(exc, path, tmp)
        raise


def write_bytes(path: Path, data: bytes) -> Path:
    with replacing(path) as tmp:
        with open(tmp, "wb") as handle:
            handle.write(data)
    return path


def write_text(path: Path, text: str) -> Path:
    return write_bytes(path, text.encode("utf-8"))


def write_content(path: Path, text: str) -> Path:
    """Write a file of the designer's content (a catalog the i18n commands make, a new game's
    files) the same way, so a full disk or Ctrl+C never leaves it half-written; these are the
    only writes outside output/."""
    with replacing(path, confined=False) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return path


def write_if_changed(path: Path, data: bytes | str) -> bool:
    """Write only when the bytes differ from the file there; True if it wrote."""
    data = data.encode("utf-8") if isinstance(data, str) else data
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    write_bytes(path, data)
    return True


def write_with(path: Path, writer: Callable[[Path], object]) -> Path:
    """Let `writer(tmp)` write the file (an image library, WeasyPrint), then rename it in."""
    with replacing(path) as tmp:
        writer(tmp)
    return path


def copy_file(source: Path, path: Path) -> Path:
    return write_with(path, lambda tmp: shutil.copyfile(source, tmp))


def write_json(path: Path, data) -> Path:
    return write_text(path, json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True))


def swap_folder(new: Path, final: Path) -> None:
    """Put folder `new` where `final` is, the old one removed after the rename."""
    check_inside(final)
    old = _temp_name(final)
    if final.exists():
        final.rename(old)
    new.rename(final)
    with contextlib.suppress(OSError):
        folders.remove(old)


TEMP = re.compile(r"\..+\.[0-9]+-[0-9a-f]{8}\.tmp")  # _temp_name's: .NAME.PID-HEX.tmp


def remove_stale_temps(folder: Path, say: Callable[[str], None] | None = None) -> list[Path]:
    """The temporary files (and folders) an interrupted build left behind, removed; called
    under output/'s lock, before this build writes anything, so every one is stale: its writer
    is gone, whatever its pid now names (a zombie, or another process that took the pid). The
    other commands that write into output/ take the lock as well. `say` is told of each, in one
    line; the folders they leave empty go too. Returns what was removed."""
    removed = []
    for tmp in folders.walk(folder):
        if not TEMP.fullmatch(tmp.name) or not (tmp.is_symlink() or tmp.exists()):
            continue  # gone with a folder removed before it
        with contextlib.suppress(OSError):
            discard(tmp)
            removed.append(tmp)
            if say:
                say(f"removed {shown(tmp)}: left half-written by a build that was stopped")
            prune(tmp.parent, folder)
    return removed


def remove_made(path: Path, root: Path) -> None:
    """Remove a file a build made, and the folders its going leaves empty, up to `root`."""
    check_inside(path).unlink(missing_ok=True)
    prune(path.parent, root)


def prune(folder: Path, root: Path) -> None:
    """Remove `folder` and its parents while they are empty, up to `root` (kept)."""
    root = root.resolve()
    while folder.resolve() != root and root in folder.resolve().parents and not folder.is_symlink():
        try:
            folder.rmdir()
        except OSError:  # not empty (or gone)
            return
        folder = folder.parent


_held: set[int] = set()  # descriptors of the locks this process holds


def _forget_held() -> None:
    """In a forked child (a pool worker, a bounded run of procedures.py): close the lock's
    descriptor, so that the lock goes with the build that took it, whatever its children do."""
    for fd in _held:
        with contextlib.suppress(OSError):
            os.close(fd)
    _held.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_held)


class BuildLock:
    """output/.lock: one build at a time writes into output/. The lock is an flock on the file
    (the kernel drops it when its process dies, so a killed build never leaves a stale lock
    behind; a forked child closes its copy of the descriptor at once, so it never keeps the
    lock of a build that died); the file holds the owner's pid for the message. The lock file
    is opened without following a symlink, and anything else found there (a symlink, a folder,
    a file linked elsewhere) is replaced with a note, never written into. A second build
    refuses, or waits with `wait=True`."""

    def __init__(self, output: Path, wait: bool = False, poll: float = 0.3):
        self.output, self.wait, self.poll = output, wait, poll
        self.path = output / ".lock"
        self._fd: int | None = None

    def owner(self) -> int | None:
        try:
            with os.fdopen(os.open(self.path, os.O_RDONLY | _NOFOLLOW | os.O_NONBLOCK), "rb") as handle:
                text = handle.read(32).decode("ascii", "replace").strip()
        except OSError:
            return None
        return int(text) if text.isdigit() else None

    def _open(self) -> int:
        """The lock file's descriptor: a plain file of its own, never what a symlink names."""
        for _attempt in range(3):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_RDWR | os.O_NONBLOCK | _NOFOLLOW, 0o644)
            except OSError as exc:
                if exc.errno not in (errno.ELOOP, errno.EISDIR, errno.ENXIO, errno.EOPNOTSUPP):
                    raise
                what = what_is(self.path)
            else:
                found = os.fstat(fd)
                if stat.S_ISREG(found.st_mode) and found.st_nlink == 1:
                    return fd
                os.close(fd)
                what = "a file with other names" if stat.S_ISREG(found.st_mode) else "not a plain file"
            note(f"{shown(self.path)} was {what}; replaced by a new lock file (nothing it named was touched)")
            discard(self.path)
        raise OSError(errno.EEXIST, f"cannot make a lock file at {self.path}")

    def acquire(self) -> None:
        import fcntl

        self.output.mkdir(parents=True, exist_ok=True)
        fd = self._open()
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not self.wait:
                    pid = self.owner()
                    os.close(fd)
                    raise OutputLocked(self.output, pid or 0) from None
                time.sleep(self.poll)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        self._fd = fd
        _held.add(fd)

    def release(self) -> None:
        if self._fd is not None:
            _held.discard(self._fd)
            os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing drops the flock
            self._fd = None

    def __enter__(self) -> "BuildLock":
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()
