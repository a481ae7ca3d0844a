"""What changed in a game's rules text: paragraphs, headings, list items, table rows and
check blocks, matched chapter by chapter. Within a chapter the blocks are aligned with
difflib; a block reworded or moved is one change, not a removal and an addition."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from typing import Iterator

from ..core.diagnostics import Location
from ..i18n.messages import needs_translation, normalize
from ..text.chapters import Chapter, load_chapters
from ..text.numbering import Case, Numbering, game_numbering
from . import ADDED, CHANGED, REMOVED, Change
from .editions import Phrase, editions

# A block of the old version and one of the new are the same block changed when their texts
# are at least this similar (the catalogs' fuzzy match, i18n/catalog.py, uses the same cutoff).
SAME_BLOCK = 0.6


@dataclass(frozen=True)
class Block:
    """A piece of a chapter a reader points at: its kind, the headings above it, its text as
    one line, its line, and the messages a translator has for it (one per table cell)."""

    kind: str  # paragraph | heading | item | row | check
    trail: tuple[str, ...]
    text: str
    line: int
    messages: tuple[str, ...]
    key: str = ""  # the text compared: the old version's, renamed records read as their new ids
    cells: tuple[str, ...] = ()  # a table row's cells
    case: str | None = None  # the number of its case, where the game numbers them (see `numbered`)
    ordinal: int = 0  # its place among its section's blocks of its kind (paragraph 2); 0: its case is its own

    @property
    def compared(self) -> str:
        return self.key or self.text

    @property
    def value(self) -> str | tuple[str, ...]:
        return self.cells or self.text


def _messages(*texts: str) -> tuple[str, ...]:
    return tuple(t for t in texts if needs_translation(t))


def blocks(chapter: Chapter) -> list[Block]:
    """The blocks of a chapter, in order, from its parsed tokens."""
    out: list[Block] = []
    trail: list[tuple[int, str]] = []  # (heading level, text)
    items = 0  # list items open around the current token
    row: list[str] = []
    row_line = 0
    tokens = chapter.tokens
    for index, token in enumerate(tokens):
        line = token.map[0] + 1 if token.map else 0
        if token.type == "list_item_open":
            items += 1
        elif token.type == "list_item_close":
            items -= 1
        elif token.type == "tr_open":
            row, row_line = [], line
        elif token.type == "tr_close":
            out.append(Block("row", _above(trail), " | ".join(row), row_line, _messages(*row), cells=tuple(row)))
        elif token.type == "heading_open":
            text = normalize(tokens[index + 1].content)
            level = int(token.tag[1:])
            trail = [t for t in trail if t[0] < level]
            out.append(Block("heading", _above(trail), text, line, _messages(text)))
            trail.append((level, text))
        elif token.type == "inline" and tokens[index - 1].type in ("th_open", "td_open"):
            row.append(normalize(token.content))
        elif token.type == "inline" and tokens[index - 1].type == "paragraph_open":
            text = normalize(token.content)
            out.append(Block("item" if items else "paragraph", _above(trail), text, line, _messages(text)))
        elif token.type == "fence" and token.info.strip() == "check":
            out.append(Block("check", _above(trail), token.content.strip(), line, ()))
    return out


def numbered(chapter: Chapter, found: list[Block], numbering: Numbering) -> list[Block]:
    """The blocks of a chapter with the numbers of their cases, where the game numbers them
    (text/numbering.py): a heading its own; another block its section's, the case of the
    heading it stands under, with its place among that section's blocks of its kind; with
    `numbering: paragraphs` a paragraph or list item its own. A block under an unnumbered
    heading has none."""
    cases = numbering.headings.get(chapter.path) if numbering.numbered else None
    if not cases or len(cases) != sum(1 for b in found if b.kind == "heading"):
        return found
    own = {case.line: case.number for case in numbering.paragraphs.get(chapter.path, {}).values()}
    headings = iter(cases)
    opened: list[Case | None] = []  # the case of each heading open around the block, outermost first
    counted: dict[str, int] = {}
    out = []
    for block in found:
        if block.kind == "heading":
            case = next(headings)
            opened, counted = opened[:len(block.trail)] + [case], {}
            out.append(replace(block, case=case.number if case is not None else None))
            continue
        counted[block.kind] = counted.get(block.kind, 0) + 1
        section = opened[len(block.trail) - 1] if block.trail and len(opened) >= len(block.trail) else None
        if block.kind in ("paragraph", "item") and block.line in own:
            out.append(replace(block, case=own[block.line]))
        elif section is not None:
            out.append(replace(block, case=section.number, ordinal=counted[block.kind]))
        else:
            out.append(block)
    return out


def subject(chapter: Chapter, block: Block) -> tuple[str, str]:
    """How a change names its block: (subject, part). By its case where it has one (`5.3.4.1
    Атака`, `paragraph 2`; a heading numbered alone, `##`, by its number), else by its chapter
    and the headings above it (`01-basics › Правила`, `paragraph`)."""
    if block.case is None:
        return f"{chapter.path.stem}" + "".join(f" › {t}" for t in block.trail), block.kind
    heading = block.text if block.kind == "heading" else block.trail[-1] if block.ordinal and block.trail else ""
    part = f"{block.kind} {block.ordinal}" if block.ordinal else block.kind
    return f"{block.case} {heading}".strip(), part


def _above(trail: list[tuple[int, str]]) -> tuple[str, ...]:
    return tuple(text for _level, text in trail)


def _similarity(a: Block, b: Block) -> float:
    """How alike two blocks read (difflib's ratio); 0 where its cheap upper bounds already
    fall short of SAME_BLOCK, so a chapter rewritten whole stays quick to compare."""
    matcher = difflib.SequenceMatcher(None, a.compared, b.compared, autojunk=False)
    if matcher.real_quick_ratio() < SAME_BLOCK or matcher.quick_ratio() < SAME_BLOCK:
        return 0.0
    return matcher.ratio()


def aligned(old: list[Block], new: list[Block]) -> Iterator[tuple[Block | None, Block | None]]:
    """(old, new) for every block that changed: a pair for one changed or moved, (old, None)
    for one removed, (None, new) for one added; unchanged blocks are left out."""
    matcher = difflib.SequenceMatcher(None, [(b.kind, b.compared) for b in old], [(b.kind, b.compared) for b in new],
                                      autojunk=False)
    gone: list[Block] = []
    came: list[Block] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            gone += old[i1:i2]
            came += new[j1:j2]
    scored = sorted(((_similarity(a, b), i, j) for i, a in enumerate(gone) for j, b in enumerate(came)
                     if a.kind == b.kind), key=lambda s: (-s[0], s[1], s[2]))
    paired: dict[int, int] = {}
    taken: set[int] = set()
    for ratio, i, j in scored:
        if ratio < SAME_BLOCK:
            break
        if i not in paired and j not in taken:
            paired[i] = j
            taken.add(j)
    for i, block in enumerate(gone):
        yield block, came[paired[i]] if i in paired else None
    for j, block in enumerate(came):
        if j not in taken:
            yield None, block


def _renamed_refs(text: str, renames: dict[str, str]) -> str:
    """Old text with references to a renamed record (`{{ unit:old }}`, a check block's
    `attacker: old`) read as the new id."""
    for old, new in renames.items():
        text = re.sub(rf"(?<![\w-]){re.escape(old)}(?![\w-])", new, text)
    return text


def _with_renames(found: list[Block], renames: dict[str, str]) -> list[Block]:
    if not renames:
        return found
    return [replace(b, key=_renamed_refs(b.text, renames)) for b in found]


class TextChanges:
    """The changes of a game's rules text between two versions (`before`, `after`: data.Side)."""

    def __init__(self, before, after, languages: list[str], renames: dict[str, str]):
        self.before, self.after, self.languages, self.renames = before, after, languages, renames
        self.numbering = (game_numbering(before.game), game_numbering(after.game))

    def changes(self) -> list[Change]:
        old = {c.path.name: c for c in load_chapters(self.before.game.folder)}
        new = {c.path.name: c for c in load_chapters(self.after.game.folder)}
        by_slug = {c.slug: c for name, c in old.items() if name not in new}  # a chapter renumbered
        out: list[Change] = []
        for name, chapter in new.items():
            was = old.get(name) or by_slug.pop(chapter.slug, None)
            out += self._chapter(was, chapter)
        for chapter in by_slug.values():  # a chapter removed
            out += self._chapter(chapter, None)
        return out

    def _chapter(self, old: Chapter | None, new: Chapter | None) -> list[Change]:
        old_blocks = _with_renames(numbered(old, blocks(old), self.numbering[0]), self.renames) if old is not None else []
        new_blocks = numbered(new, blocks(new), self.numbering[1]) if new is not None else []
        out = []
        for was, now in aligned(old_blocks, new_blocks):
            out.append(self._change(was, now, old, new))
        return out

    def _change(self, was: Block | None, now: Block | None, old: Chapter | None, new: Chapter | None) -> Change:
        block = now or was
        chapter = new if now is not None else old
        action = CHANGED if was and now else ADDED if now else REMOVED
        named, part = subject(chapter, block)
        note = "moved" if was and now and was.compared == now.compared else ""
        where = Location(chapter.path if new is None else new.path, block.line)
        old_phrases = [Phrase(m) for m in was.messages] if was else []
        new_phrases = [Phrase(m) for m in now.messages] if now else []
        values = (was.value if was else None, now.value if now else None)
        return Change(block.kind, action, named, part, was.text if was else None, now.text if now else None,
                      where, editions(self.languages, values, (old_phrases, new_phrases),
                               self.before.catalogs, self.after.catalogs), note=note, trail=block.trail, case=block.case,
                      ordinal=block.ordinal)
