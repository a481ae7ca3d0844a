"""Chunks of sheets kept between builds. A deck of thousands of cards is laid out a chunk of
sheets at a time (sheets.py). A chunk whose HTML, and the files its layout read, are the same
as when it was last laid out is not laid out again: its PDF and what its layout found are
kept in output/.rulesmith/chunks/GAME/LANG/DOCUMENT/, and the document is joined from them.
Editing one card of 10,000 lays out the chunk that shows it. A chunk with layout findings is
not kept (the next build checks it again); a kept chunk no longer in its document is removed
when the document is written."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .. import outputs
from ..core.diagnostics import Diagnostic
from ..project.manifest import file_hash
from . import memo
from .sources import made_from, reads

INDEX = "index.json"


@dataclass
class Chunk:
    """One chunk laid out, checked and written to its own PDF."""

    pdf: Path
    pages: int
    refused: list[str] = field(default_factory=list)
    findings: list[Diagnostic] = field(default_factory=list)
    read: set[Path] = field(default_factory=set)
    found: list = field(default_factory=list)  # what the caller looked for in its layout (e.g. long cards)
    owner: Path | None = None  # the document it is a chunk of


class ChunkStore:
    """The kept chunks of one document (`out`, e.g. output/GAME/LANG/cards.pdf)."""

    def __init__(self, root: Path, out: Path):
        self.root = root
        self.folder = memo.store(root, "chunks") / out.parent.parent.name / out.parent.name / out.stem
        self.index = memo.load(self.folder / INDEX, _entry)

    def get(self, key: str, part: str):
        """The chunk `part` (hashed as `key`) as laid out before, or None."""
        entry = self.index.get(key)
        pdf = self.folder / f"{key}.pdf"
        if entry is None or not pdf.is_file():
            return None
        if entry.get("state") != made_from(self.root, entry["reads"], part) or entry.get("pdf") != file_hash(pdf):
            return None  # another chunk, or its PDF is not the one kept (damaged, replaced)
        return Chunk(pdf, entry["pages"], read={self.root / rel for rel in entry["reads"]}, found=entry["found"])

    def put(self, key: str, part: str, chunk) -> None:
        """Keep a chunk just laid out, unless its layout found something to report."""
        if chunk.findings or chunk.refused:
            return
        read = reads(chunk.read, self.root)
        outputs.copy_file(chunk.pdf, self.folder / f"{key}.pdf")
        self.index[key] = {"state": made_from(self.root, read, part), "reads": list(read),
                           "pages": chunk.pages, "found": chunk.found, "pdf": file_hash(chunk.pdf)}
        self._save()

    def keep_only(self, keys: set[str]) -> None:
        """Forget the chunks not in `keys` (the document's chunks now)."""
        for key in [k for k in self.index if k not in keys]:
            del self.index[key]
        if self.folder.is_dir():
            for pdf in self.folder.glob("*.pdf"):
                if pdf.stem not in keys:
                    outputs.check_inside(pdf)
                    pdf.unlink(missing_ok=True)
        self._save()

    def _save(self) -> None:
        outputs.write_text(self.folder / INDEX, json.dumps(self.index, sort_keys=True))


def _entry(entry: object) -> bool:
    """An index.json entry: the chunk's state, the files its layout read, its page count, what
    its layout found and its PDF's hash."""
    return (isinstance(entry, dict) and isinstance(entry.get("state"), str) and isinstance(entry.get("pdf"), str)
            and isinstance(entry.get("reads"), list) and all(isinstance(r, str) for r in entry["reads"])
            and type(entry.get("pages")) is int and entry["pages"] >= 0 and isinstance(entry.get("found"), list)
            and all(type(i) is int and i >= 0 for i in entry["found"]))
