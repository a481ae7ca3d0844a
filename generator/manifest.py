"""What the last build made from what: for each output (a PDF, a site folder, a table) the
hash of its inputs and of the files it wrote, kept in output/.rulesmith/manifest.json. An
output is rebuilt when its inputs' hash differs, when a file it wrote is missing or changed,
or when the manifest is missing or damaged (then it is ignored, never trusted)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from . import folders, outputs
from .diagnostics import Location, Report

FORMAT = 1
IGNORED = {"__pycache__", ".git", ".DS_Store"}


def digest(*parts: object) -> str:
    """A stable hash of strings, bytes and JSON-able values."""
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, bytes):
            data = part
        elif isinstance(part, str):
            data = part.encode("utf-8")
        else:
            data = json.dumps(part, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def file_hash(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def tree_hash(folder: Path, skip: Iterable[str] = ()) -> str:
    """Hash of every file's relative path and bytes under `folder` (top-level names in `skip`
    left out); a missing folder hashes as empty."""
    skip = set(skip)
    parts: list[str] = []
    for path in folders.files(folder, IGNORED):
        rel = path.relative_to(folder)
        if rel.parts[0] not in skip:
            parts += [rel.as_posix(), file_hash(path)]
    return digest(*parts)


def files_hash(paths: Iterable[Path]) -> str:
    return digest(*[x for p in paths for x in (p.as_posix(), file_hash(p) if p.is_file() else "-")])


@lru_cache(maxsize=1)
def rulesmith_version() -> str:
    """Rulesmith's version and the hash of its own code and default templates: a new release
    (or an edited checkout) rebuilds everything."""
    import generator
    from .print.context import PACKAGE_TEMPLATES

    package = Path(generator.__file__).parent
    code = [p for p in folders.files(package, {"__pycache__"}) if p.suffix == ".py"]
    return digest(generator.__version__, files_hash(code), tree_hash(PACKAGE_TEMPLATES))


@lru_cache(maxsize=1)
def fonts_hash() -> str:
    from .print.fonts import FAMILIES, STYLES

    return files_hash(folder / f"{prefix}-{suffix}.ttf" for folder, prefix in FAMILIES.values()
                      for suffix in STYLES.values())


def save_diagnostics(report: Report) -> list[list]:
    return [[d.code, d.message, str(d.location.path), d.location.line, d.location.col, d.hint]
            for d in report.diagnostics]


def load_diagnostics(items: list[list], report: Report) -> None:
    for code, message, path, line, col, hint in items:
        report.add(code, message, Location(Path(path), line, col), hint)


@dataclass
class Manifest:
    output: Path
    entries: dict[str, dict] = field(default_factory=dict)
    damaged: bool = False

    @property
    def path(self) -> Path:
        return self.output / ".rulesmith" / "manifest.json"

    @classmethod
    def load(cls, output: Path) -> "Manifest":
        manifest = cls(output)
        try:
            data = json.loads(manifest.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return manifest
        except (OSError, ValueError):
            manifest.damaged = True
            return manifest
        if (not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("entries"), dict)
                or not all(isinstance(e, dict) and isinstance(e.get("files"), dict) for e in data["entries"].values())):
            manifest.damaged = True
            return manifest
        manifest.entries = data["entries"]
        return manifest

    def save(self) -> None:
        outputs.write_text(self.path, json.dumps({"format": FORMAT, "entries": self.entries}, sort_keys=True,
                                                 ensure_ascii=False, indent=0))

    def get(self, key: str) -> dict | None:
        return self.entries.get(key)

    def intact(self, key: str) -> bool:
        """Every file the output wrote is there with the bytes it wrote."""
        entry = self.entries.get(key)
        if entry is None:
            return False
        for rel, recorded in entry["files"].items():
            path = self.output / rel
            try:
                stat = path.stat()
            except OSError:
                return False
            if not isinstance(recorded, list) or len(recorded) != 3:
                return False
            size, mtime, sha = recorded
            if stat.st_size != size:
                return False
            if stat.st_mtime_ns != mtime and file_hash(path) != sha:
                return False
        return True

    def fresh(self, key: str, inputs: str) -> bool:
        entry = self.entries.get(key)
        return entry is not None and entry.get("inputs") == inputs and self.intact(key)

    def record(self, key: str, inputs: str, files: Iterable[Path], **extra) -> None:
        recorded = {}
        for path in files:
            stat = path.stat()
            recorded[path.relative_to(self.output).as_posix()] = [stat.st_size, stat.st_mtime_ns, file_hash(path)]
        self.entries[key] = {"inputs": inputs, "files": recorded, **extra}

    def forget(self, key: str) -> None:
        self.entries.pop(key, None)
