"""What a printed document is made from, hashed: its HTML and the files laying that HTML out
read (a picture a chapter shows, a background a stylesheet names), with the fonts, WeasyPrint
and Rulesmith. The HTML alone is not enough: a redrawn picture changes no HTML. A document
remembers the files its last layout read, and the next build hashes those files again, so a
picture that changed makes the document again."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from ..project.manifest import digest, file_hash, fonts_hash, rulesmith_version


@dataclass(frozen=True)
class Source:
    """A document's source as the last build recorded it: its hash and the files it read."""

    state: str = ""
    reads: tuple[str, ...] = ()

    @classmethod
    def recorded(cls, entry: dict) -> "Source":
        """The source a manifest entry recorded; nothing if the entry is not well formed."""
        state, read = entry.get("source"), entry.get("reads") or []
        if not isinstance(state, str) or not isinstance(read, list) or not all(isinstance(r, str) for r in read):
            return cls()
        return cls(state, tuple(read))


def reads(fetched: Iterable[Path], root: Path) -> tuple[str, ...]:
    """The files a layout read, relative to the project (absolute outside it); the shipped
    fonts are left out (their hash is part of every state already)."""
    from .fonts import font_dirs

    fonts = [folder.resolve() for folder in font_dirs()]
    return tuple(sorted({in_project(path, root) for path in fetched
                         if not any(path == folder or folder in path.parents for folder in fonts)}))


def in_project(path: Path, root: Path) -> str:
    """A file's path relative to the project (which may be moved or copied), else absolute."""
    path, root = path.resolve(), root.resolve()
    return path.relative_to(root).as_posix() if root in path.parents else path.as_posix()


def made_from(root: Path, read: Iterable[str], *parts: object) -> str:
    """The hash of a document made from `parts` (its HTML...) that read the files `read`."""
    return digest(renderer(), *parts, [(rel, _hash(root / rel)) for rel in read])


def _hash(path: Path) -> str | None:
    """A read file's hash; None when it is gone or cannot be read (the names come from the
    build's kept state, which may name anything)."""
    try:
        return file_hash(path) if path.is_file() else None
    except OSError:
        return None


@lru_cache(maxsize=1)
def renderer() -> str:
    """What turns HTML into pages: Rulesmith, WeasyPrint and the shipped fonts."""
    from weasyprint import __version__

    return digest(rulesmith_version(), __version__, fonts_hash())
