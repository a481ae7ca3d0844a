"""What the machine does to a command, said in one line: an OS error (a full disk, a read-only
folder, a file where a folder must be) and Ctrl+C. Commands let these rise; the CLI boundary
(generator/__main__.py, generator/cli.py) and the build's worker results turn them into the
line the user reads. Only the standard library here: this module is imported before anything
else, so Ctrl+C is handled from a command's first moment."""

from __future__ import annotations

import errno
import os
import signal
import sys
from pathlib import Path
from typing import NoReturn

ABORTED = "Aborted."
INTERRUPTED_EXIT = 130  # 128 + SIGINT, what a shell reports for a command ended by Ctrl+C

# errno -> (reason in words, what to do)
_WRITE = {
    errno.ENOSPC: ("no space left on the disk", "free some space and run again"),
    errno.EDQUOT: ("the disk quota is used up", "free some space and run again"),
    errno.EFBIG: ("the file is larger than this disk allows", "write the output to another disk"),
    errno.EROFS: ("the disk is mounted read-only", "make it writable, or run the command in a writable copy"),
    errno.EISDIR: ("a folder stands where a file must be", "remove or rename that folder and run again"),
    errno.EMLINK: ("the folder holds too many entries", "remove some of them"),
}
# errno -> (reason, what to do) for a path that cannot be used at all, read or written
_PATH = {
    errno.ENAMETOOLONG: ("the name is too long for this system", "use shorter names or fewer nested folders"),
    errno.ELOOP: ("too many symbolic links lead there", "replace the symbolic links with real folders"),
}
_ACCESS = (errno.EACCES, errno.EPERM)


def interrupted() -> NoReturn:
    """End the command after Ctrl+C: one line, exit 130. A second Ctrl+C while the process
    ends (its cleanup, the pool's exit) is ignored rather than shown as a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.stderr.write(f"{ABORTED}\n")
    sys.exit(INTERRUPTED_EXIT)


class Fault(Exception):
    """A fault of the surroundings found by Rulesmith itself (not raised by the OS), already
    worded as the one line to show."""


def shown(path: Path) -> str:
    """`path` from the current folder when it lies inside it, else in full."""
    full = Path(os.path.abspath(path))
    try:
        return full.relative_to(Path.cwd()).as_posix() or "."
    except (ValueError, OSError):
        return str(full)


def _standing_file(path: Path) -> Path | None:
    """The nearest existing ancestor of `path` that is not a folder (the file in the way)."""
    for parent in path.parents:
        if parent.exists() or parent.is_symlink():
            return None if parent.is_dir() else parent
    return None


def message(exc: OSError | Fault) -> str:
    """The one line for a fault, without the leading 'error: '."""
    return describe(exc) if isinstance(exc, OSError) else str(exc)


def describe(exc: OSError) -> str:
    """The one line for `exc`, without the leading 'error: '."""
    code = exc.errno
    reason = exc.strerror or str(exc)
    if exc.filename is None:
        if code in _WRITE:
            words, todo = _WRITE[code]
            return f"cannot write: {words}; {todo}"
        return f"{reason.lower()}; check the disk and the folders the command uses, then run again"
    path = Path(os.fsdecode(exc.filename))
    name = shown(path)
    if code in (errno.ENOTDIR, errno.EEXIST):
        blocker = path if code == errno.EEXIST else _standing_file(path)
        if blocker == path and (path.exists() or path.is_symlink()) and not path.is_dir():
            return f"cannot write {name}: a file stands where a folder must be; remove or rename it and run again"
        if blocker is not None and not blocker.is_dir():
            return (f"cannot write {name}: {shown(blocker)} is a file where a folder must be; "
                    f"remove or rename {shown(blocker)} and run again")
    if code in _WRITE:
        words, todo = _WRITE[code]
        return f"cannot write {name}: {words}; {todo}"
    if code in _PATH:
        words, todo = _PATH[code]
        return f"cannot use {name}: {words}; {todo}"
    if code in _ACCESS:
        if path.exists() and not os.access(path, os.R_OK):
            return f"cannot read {name}: permission denied; make it readable for the user running the command"
        where = path if path.is_dir() else path.parent
        return (f"cannot write {name}: permission denied; make {shown(where)} writable for the user "
                f"running the command, or run the command in a writable copy")
    if code == errno.ENOENT:
        return f"cannot find {name}: it is missing or was removed while the command ran; run again"
    return f"cannot use {name}: {reason.lower()}; check the file and its folder, then run again"


def named(exc: OSError, path: Path, temporary: Path) -> OSError:
    """`exc` naming `path`, the file being written, where the OS named its temporary or nothing
    (a failed write or close on an open file names no file)."""
    if exc.filename is None or os.fspath(exc.filename) == os.fspath(temporary):
        exc.filename, exc.filename2 = str(path), None
    return exc
