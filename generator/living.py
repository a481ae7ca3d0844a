"""Living rules: what a build with `--changes-since REF` marks in what it prints. The older
version is read from git (changes/versions.py) and compared with the game (changes/compare.py);
the rulebook marks each block of rules text that changed or was added (by its `data-src`, the
chapter's file and line, so a block is found in the laid-out book by the element it was printed
from) and each record entry that changed (by its anchor); cards and counters compare their
printed faces, this version's with the older one's, in the edition's language."""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from markupsafe import Markup

from ..changes import ADDED, REMOVED, RENAMED, Change
from ..changes.compare import compare
from ..changes.text import blocks
from ..changes.versions import from_git
from ..core.diagnostics import Report
from ..project import Project
from ..reading.game import Game
from ..text.chapters import load_chapters
from .context import BuildContext

# Changes the printed documents show: check blocks and example verdicts do not print.
NOT_PRINTED = ("check", "example")
TEXT_KINDS = ("paragraph", "heading", "item", "row")
# The mark of a component that changed when the game gives no `version:` (a sign, not a word).
UNVERSIONED = "Δ"


@dataclass
class Since:
    """The older version a build compares with (REF, loaded from git) and what changed since."""

    ref: str
    old: Game
    game: Game
    changes: list[Change]

    @property
    def old_version(self) -> str:
        """The older version's name: its `version:`, else REF."""
        return self.old.manifest.version or self.ref

    @property
    def printed(self) -> list[Change]:
        """The changes a printed document shows (a record only renamed prints the same)."""
        return [c for c in self.changes if c.kind not in NOT_PRINTED and not (c.action == RENAMED and not c.note)]

    @cached_property
    def sources(self) -> dict[str, str]:
        """`data-src` (rules/FILE.md:LINE) of each block of rules text that changed or was added
        -> the kind of change (a block removed leaves nothing to mark)."""
        found: dict[str, str] = {}
        for change in self.printed:
            if change.kind in TEXT_KINDS and change.action != REMOVED:
                found.setdefault(self.source_of(change), change.action)
        for source in self.pictures:
            found.setdefault(source, "changed")
        return found

    @cached_property
    def pictures(self) -> list[str]:
        """`data-src` of each block of rules text that shows a picture whose file changed (its
        text the same): a figure is barred when its picture is redrawn."""
        out = []
        for chapter in load_chapters(self.game.folder):
            opened: Any = None  # the block the picture is printed in: a paragraph, or a table's row
            for token in chapter.tokens:
                if token.type in ("paragraph_open", "tr_open") and token.map:
                    opened = token
                for child in (token.children or []) if token.type == "inline" else []:
                    src = child.attrGet("src") if child.type == "image" else None
                    if src and opened is not None and _picture(self.game.folder, src) != _picture(self.old.folder, src):
                        out.append(_relative(self.game, chapter.path, opened.map[0] + 1))
        return out

    def source_of(self, change: Change) -> str:
        """Where a change of the rules text is in this version: its block's `data-src`; a
        removed block's is the heading it stood under (empty if that is gone too)."""
        if change.action != REMOVED:
            return _relative(self.game, change.location.path, change.location.line)
        return _headings(self.game).get((change.location.path.name, change.trail), "")

    def heading(self, change: Change) -> tuple[str, int] | None:
        """Where a change of the rules text stands in this version: (its chapter's file name,
        the number of the heading above it, or of the heading itself, among the chapter's
        headings from 0), for a link to that heading; None where that heading is gone. A block
        of this version is placed by its line (two headings may read alike: `##` numbered alone),
        a removed one by the headings it stood under."""
        name = change.location.path.name
        if change.action != REMOVED:
            above = sum(1 for line in _heading_lines(self.game).get(name, ()) if line <= change.location.line)
            return (name, above - 1) if above else None
        return _heading_numbers(self.game).get((name, change.trail))

    @cached_property
    def records(self) -> set[tuple[str, str]]:
        """(section, id) of each record this version has that changed or was added."""
        return {c.record for c in self.printed if c.record is not None and c.action != REMOVED}

    def anchors(self, game: Game) -> set[str]:
        """The rulebook anchors (kind-id) of the records that changed."""
        out = set()
        for section, record_id in self.records:
            record = game.section(section).get(record_id)
            if record is not None:
                out.add(f"{record.kind}-{record.id}")
        return out

    @cached_property
    def renames(self) -> dict[str, str]:
        """Old id -> new id of each record renamed."""
        return {c.old: c.new for c in self.changes if c.action == RENAMED and c.old and c.new}


def _picture(folder: Path, src: Any) -> bytes | None:
    """A picture's bytes, by its address in the rules (relative to the game's folder); None
    for an address elsewhere or a file that is not there."""
    if not isinstance(src, str) or ":" in src or src.startswith("/"):
        return None
    path = (folder / src).resolve()
    if not path.is_relative_to(folder.resolve()) or not path.is_file():
        return None
    return path.read_bytes()


def _relative(game: Game, path: Path, line: int) -> str:
    try:
        rel = path.resolve().relative_to(game.folder.resolve()).as_posix()
    except ValueError:
        return ""
    return f"{rel}:{line}"


def _headings(game: Game) -> dict[tuple[str, tuple[str, ...]], str]:
    """(chapter file name, the headings down to one) -> that heading's `data-src`."""
    out = {}
    for chapter in load_chapters(game.folder):
        for block in blocks(chapter):
            if block.kind == "heading":
                out.setdefault((chapter.path.name, (*block.trail, block.text)), _relative(game, chapter.path, block.line))
    return out


def _heading_lines(game: Game) -> dict[str, list[int]]:
    """Chapter file name -> the line of each of its headings, in order."""
    return {chapter.path.name: [block.line for block in blocks(chapter) if block.kind == "heading"]
            for chapter in load_chapters(game.folder)}


def _heading_numbers(game: Game) -> dict[tuple[str, tuple[str, ...]], tuple[str, int]]:
    """(chapter file name, the headings down to one) -> (that file name, the heading's number)."""
    out = {}
    for chapter in load_chapters(game.folder):
        number = 0
        for block in blocks(chapter):
            if block.kind == "heading":
                out.setdefault((chapter.path.name, (*block.trail, block.text)), (chapter.path.name, number))
                number += 1
    return out


@contextmanager
def since(ctx: BuildContext, ref: str) -> Iterator[Since]:
    """The game as it was at REF (loaded from a temporary folder, gone afterwards) and what
    changed since; ValueError if that version cannot be loaded."""
    with from_git(ctx.project_root, ctx.game.id, ref) as old_root:
        old = Project(old_root).load(ctx.game.id, Report(), checks=False)  # its stats parsed, as a build reads them
        if old is None:
            raise ValueError(f"the version of {ctx.game.id} at {ref} cannot be loaded; "
                             f"run 'rulesmith changes {ctx.game.id} --since {ref}' to see why")
        yield Since(ref, old, ctx.game, compare(old, ctx.game, examples=False))


@contextmanager
def maybe_since(ctx: BuildContext, ref: str | None) -> Iterator[Since | None]:
    """`since(ctx, ref)`, or None without a REF (a build without --changes-since)."""
    if ref is None:
        yield None
        return
    with since(ctx, ref) as found:
        yield found


def version_mark(ctx: BuildContext) -> str:
    """The mark a changed component carries: this version as the edition writes it ("v1.1")."""
    version = ctx.game.manifest.version
    return ctx.tr.ui("version-mark").format(version=version) if version else UNVERSIONED


def older_context(ctx: BuildContext, found: Since) -> BuildContext:
    """The older version's build context in the same language, with this project's templates
    (a component compares its content, not the templates it is printed with)."""
    return BuildContext(found.old, ctx.lang, ctx.project_root)


def changed_faces(ctx: BuildContext, found: Since, faces: Callable[[BuildContext], Iterable[Any]],
                  key: Callable[[Any], Any], printed: Callable[[Any], Any]) -> set:
    """The keys (`key(face)`) of this version's faces whose printed content (`printed(face)`)
    differs from the older version's face of the same key (renamed records read as their new
    id): a face new in this version counts as changed."""
    old_ctx = older_context(ctx, found)
    before = {}
    for face in faces(old_ctx):
        before[_renamed(key(face), found.renames)] = _text(printed(face), found.old.folder, ctx.game.folder)
    return {key(face) for face in faces(ctx)
            if before.get(key(face)) != _text(printed(face), ctx.game.folder, ctx.game.folder)}


def _renamed(key: Any, renames: dict[str, str]) -> Any:
    if isinstance(key, tuple):
        return tuple(renames.get(k, k) if isinstance(k, str) else k for k in key)
    return renames.get(key, key) if isinstance(key, str) else key


def _text(value: Any, folder: Path, home: Path) -> str:
    """A face's content as text, with its game folder's path read as this version's (the
    older version is read from a temporary folder)."""
    text = repr(value)
    for form in (str(folder.resolve()), folder.resolve().as_uri()):
        text = text.replace(form, str(home.resolve()) if not form.startswith("file:") else home.resolve().as_uri())
    return text


CHANGED = "data-changed"  # the attribute of a changed block in the book's HTML
_OPENING = re.compile(r"<(p|li|h[1-6]|tr|dt|dd|figure)\b[^>]*(?<!/)>")


def _face_content(face) -> tuple:
    """What a card face prints (not where it comes from, nor its fitted size)."""
    return (face.title, face.title_mark, face.label, face.body, face.deck_name, face.size, face.back, face.reverse,
            face.draft, face.corners, face.extra, face.narrow, face.copies)


def changed_cards(ctx: BuildContext, ref: str | None) -> tuple[set, str]:
    """The (deck, id) of the card faces whose printed content changed since REF in this
    edition, and the mark they carry; nothing without REF."""
    if ref is None:
        return set(), ""
    from .cardfaces import all_faces

    with since(ctx, ref) as found:
        return changed_faces(ctx, found, all_faces, lambda f: (f.deck, f.id), _face_content), version_mark(ctx)


def changed_counters(ctx: BuildContext, ref: str | None) -> tuple[set, str]:
    """The ids of the counters whose front or back changed since REF in this edition, and
    the mark their fronts carry; nothing without REF."""
    if ref is None:
        return set(), ""
    from .counters import pieces, unique_pieces

    def drawn(c: BuildContext) -> list[tuple[Any, tuple]]:  # each counter with its pictures' bytes
        return [(p, tuple(_picture(c.game.folder, side.get("image")) for side in (p.front, p.back)))
                for p in unique_pieces(pieces(c))]

    with since(ctx, ref) as found:
        return changed_faces(ctx, found, drawn, lambda d: d[0].counter.id,
                             lambda d: (d[0].sheet.size, d[0].sheet.template, d[0].front, d[0].back, d[1])), \
            version_mark(ctx)


def marked_html(html: str, sources: Iterable[str], anchors: Iterable[str]) -> str:
    """The book's HTML with `data-changed` on each element printed from a changed block of
    rules text (its `data-src`) or holding a changed record's anchor (its `id`, and the
    definition or the row of details after a changed record's name)."""
    wanted_src, wanted_id = set(sources) - {""}, set(anchors)
    if not wanted_src and not wanted_id:
        return html
    follows = [""]  # after a changed record's name: its <dd>, or its units' row of details

    def mark(match: re.Match) -> str:
        tag, name = match.group(0), match.group(1)
        src = re.search(r'\sdata-src="([^"]*)"', tag)
        ident = re.search(r'\sid="([^"]*)"', tag)
        hit = bool((src and src.group(1) in wanted_src) or (ident and ident.group(1) in wanted_id))
        hit = hit or (name == follows[0] and (name != "tr" or ' class="details"' in tag))
        follows[0] = {"dt": "dd", "tr": "tr"}.get(name, "") if hit and ident else ""
        return tag[:-1] + " " + CHANGED + ">" if hit else tag

    return _OPENING.sub(mark, html)


def mark_html(mark: str) -> Markup:
    """The small version mark a changed card or counter carries."""
    return Markup('<span class="version-mark">{}</span>').format(mark)
