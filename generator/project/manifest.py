"""What the last build made from what: for each output (a PDF, a site folder, a table) the
hash of its inputs and of the files it wrote, kept in output/.rulesmith/manifest.json. An
output is rebuilt when its inputs' hash differs, when a file it wrote is missing or changed,
or when the manifest is missing or damaged (then it is ignored, never trusted). The manifest is
read as untrusted data: every entry is checked (types, ranges, the files it names confined to
output/), and one that is not well formed makes the whole manifest damaged."""

from __future__ import annotations

import hashlib
import json
import stat as stat_mode
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

from ..system import folders
from .. import outputs
from ..core.diagnostics import Location, Report
from .keptstate import Damaged, folder, read_json

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
    with folders.open_file(path) as handle:  # never a FIFO swapped in after the listing
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
    from .templates import PACKAGE_TEMPLATES

    package = Path(generator.__file__).parent
    code = [p for p in folders.files(package, {"__pycache__"}) if p.suffix == ".py"]
    return digest(generator.__version__, files_hash(code), tree_hash(PACKAGE_TEMPLATES))


@lru_cache(maxsize=1)
def fonts_hash() -> str:
    from ..print.fonts import FAMILIES, STYLES

    return files_hash(folder / f"{prefix}-{suffix}.ttf" for folder, prefix in FAMILIES.values()
                      for suffix in STYLES.values())


def save_diagnostics(report: Report) -> list[list]:
    return [[d.code, d.message, str(d.location.path), d.location.line, d.location.col, d.hint]
            for d in report.diagnostics]


def load_diagnostics(items: list[list], report: Report) -> None:
    for code, message, path, line, col, hint in items:
        report.add(code, message, Location(Path(path), line, col), hint)


def _count(value: object) -> bool:
    return type(value) is int and value >= 0


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _diagnostics(value: object) -> bool:
    """A list as save_diagnostics writes it."""
    return isinstance(value, list) and all(
        isinstance(d, list) and len(d) == 6 and all(isinstance(v, str) for v in d[:3]) and d[0][:1] in ("E", "W")
        and all(v is None or _count(v) for v in d[3:5]) and (d[5] is None or isinstance(d[5], str)) for d in value)


def _catalogue(value: object) -> bool:
    """The site's catalogue entry of a game: its id and [lang, name, title] per language."""
    return (isinstance(value, dict) and isinstance(value.get("id"), str) and isinstance(value.get("langs"), list)
            and all(isinstance(lang, list) and len(lang) == 3 and _strings(lang) for lang in value["langs"]))


FIELDS = {  # what an entry may hold besides its inputs and files, and what each must be
    "source": lambda v: isinstance(v, str),
    "reads": _strings,
    "pages": _count,
    "cards": _count,
    "diagnostics": _diagnostics,
    "examples": lambda v: isinstance(v, dict) and all(isinstance(x, bool) for x in v.values()),
    "title": lambda v: isinstance(v, str),
    "catalogue": _catalogue,
    "downloads": lambda v: isinstance(v, str),  # what a site folder's downloads were copied from
    "seconds": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0,
}
REQUIRED = {  # by the kind of entry (its key up to ':'), the fields its reader takes as given
    "validate": ("diagnostics",),
    "examples": ("examples",),
    "site": ("title", "pages"),
    "site-game": ("catalogue",),
}


@dataclass
class Manifest:
    output: Path
    entries: dict[str, dict] = field(default_factory=dict)
    damaged: bool = False
    why: str = ""  # what was wrong with a damaged one

    @property
    def path(self) -> Path:
        return folder(self.output) / "manifest.json"

    @classmethod
    def load(cls, output: Path) -> "Manifest":
        manifest = cls(output)
        try:
            data = read_json(manifest.path)
        except Damaged as exc:
            manifest.damaged, manifest.why = True, str(exc)
            return manifest
        if data is None:
            return manifest
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("entries"), dict):
            manifest.damaged, manifest.why = True, f"not a format {FORMAT} manifest"
            return manifest
        folders: dict = {}  # each folder of the outputs resolved once
        for key, entry in data["entries"].items():
            problem = manifest._problem(key, entry, folders)
            if problem:
                manifest.damaged, manifest.why = True, f"entry {key!r}: {problem}"
                return manifest
        manifest.entries = data["entries"]
        return manifest

    def _problem(self, key: str, entry: object, folders: dict) -> str:
        """What is wrong with an entry as read, or ''."""
        if not isinstance(entry, dict) or not isinstance(entry.get("inputs"), str):
            return "not an entry"
        if not isinstance(entry.get("files"), dict) or not isinstance(entry.get("kept", {}), dict):
            return "no file list"
        for rel, recorded in [*entry["files"].items(), *entry.get("kept", {}).items()]:
            if outputs.within(self.output, rel, folders) is None or rel.split("/")[0] in (folder(self.output).name, ".lock"):
                return f"file {rel!r} is not a path inside output/"
            if not (isinstance(recorded, list) and len(recorded) == 3 and _count(recorded[0])
                    and type(recorded[1]) is int and isinstance(recorded[2], str)):
                return f"file {rel!r} has no size, time and hash"
        for name in REQUIRED.get(key.split(":")[0], ()):
            if name not in entry:
                return f"no {name}"
        for name, valid in FIELDS.items():
            if name in entry and not valid(entry[name]):
                return f"{name} is not well formed"
        return ""

    def save(self) -> None:
        # one line, no indent: json's C encoder (with an indent it writes in Python, 3x slower
        # on a large deck's manifest, saved after every document)
        outputs.write_text(self.path, json.dumps({"format": FORMAT, "entries": self.entries}, sort_keys=True,
                                                 ensure_ascii=False, separators=(",", ":")))

    def get(self, key: str) -> dict | None:
        return self.entries.get(key)

    def intact(self, key: str) -> bool:
        """Every file the output wrote is there, a plain file with the bytes it wrote."""
        entry = self.entries.get(key)
        if entry is None:
            return False
        folders: dict = {}
        for rel, (size, mtime, sha) in entry["files"].items():
            path = outputs.within(self.output, rel, folders)
            try:
                stat = path.lstat() if path is not None else None
            except OSError:
                return False
            if stat is None or not stat_mode.S_ISREG(stat.st_mode) or stat.st_size != size:
                return False
            if stat.st_mtime_ns != mtime and file_hash(path) != sha:
                return False
        return True

    def fresh(self, key: str, inputs: str) -> bool:
        entry = self.entries.get(key)
        return entry is not None and entry.get("inputs") == inputs and self.intact(key)

    def record(self, key: str, inputs: str, files: Iterable[Path], **extra) -> None:
        """What the output `key` was made from and the files it wrote; a file of the same size
        and time as the last record of it keeps its hash unread (as `intact` takes it: a deck's
        thousand card images, most not written again, are not read again)."""
        before = (self.entries.get(key) or {}).get("files", {})  # well formed: checked when loaded
        recorded = {}
        for path in files:
            stat, rel = path.stat(), path.relative_to(self.output).as_posix()
            old = before.get(rel)
            same = old is not None and old[:2] == [stat.st_size, stat.st_mtime_ns]
            recorded[rel] = [stat.st_size, stat.st_mtime_ns, old[2] if same else file_hash(path)]
        self.entries[key] = {"inputs": inputs, "files": recorded, **extra}

    def made(self, key: str) -> dict[str, list]:
        """Every file the output's builds made that is still known: its last build's and those
        kept from earlier builds with other options (relative path -> size, time, hash)."""
        entry = self.entries.get(key) or {}
        return {**entry.get("kept", {}), **entry.get("files", {})}

    def remove_left(self, key: str, files: Iterable[Path], asked: Callable[[str], bool] = lambda rel: True
                    ) -> tuple[list[Path], dict[str, list]]:
        """Of the files the output's builds made that are not among `files` (what it wrote
        now), remove those of the outputs this build was asked for (`asked(rel)`) and keep the
        others; only ever files inside output/, and the folders they leave empty. (The files
        removed; the files kept, to record with the entry as "kept".)"""
        removed, kept, folders = [], {}, {}
        now = {outputs.resolved(path, folders) for path in files}
        for rel, recorded in self.made(key).items():
            old = outputs.within(self.output, rel, folders)
            if old is None or outputs.resolved(old, folders) in now or not (old.is_symlink() or old.exists()):
                continue
            if not asked(rel):
                kept[rel] = recorded
                continue
            outputs.remove_made(old, self.output)
            removed.append(old)
        return removed, kept

    def clear(self, key: str) -> list[Path]:
        """Remove every file the output's builds made, and forget it; the files removed."""
        removed, _kept = self.remove_left(key, [])
        self.forget(key)
        return removed

    def forced(self, kinds: Iterable[str]) -> None:
        """Nothing the last builds made is taken as made (`build --force`), but the files that
        outputs of these kinds (the part of their keys before ':') made stay known, so that
        what a build no longer makes is still removed, and what it was not asked for kept."""
        kinds = set(kinds)
        self.entries = {key: {"inputs": "", "files": entry["files"], **({"kept": entry["kept"]} if "kept" in entry else {})}
                        for key, entry in self.entries.items() if key.split(":")[0] in kinds}

    def forget(self, key: str) -> None:
        self.entries.pop(key, None)
