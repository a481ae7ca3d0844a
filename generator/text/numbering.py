"""Numbered cases (`numbering: cases` in game.yaml; `numbering: paragraphs` also numbers each
paragraph of a numbered section): each chapter and each of its headings gets
a number, 1, 1.1, 1.1.1, from the structure of the source chapters, so every edition prints the
same numbers. A heading may declare its number (`{number="5.3"}` on the line before it: a
fragment of a longer book starting at 5.3), and the headings after it count on from there; one
marked `{.unnumbered}` (an editor's section, a fragment's unnumbered opening) takes no number,
nor do the headings under it. `{{ case:ID }}` names a chapter (by its slug or `{#ID}`) or a
heading (by its `{#ID}`) and prints its number."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from .chapters import Chapter, load_chapters

NUMBER_ATTR = "number"
UNNUMBERED = "unnumbered"
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)*")
# an attribute line the parser did not take (`{number=5.3}`: a value with a dot needs quotes)
_LOOSE_ATTRS = re.compile(r"^\{[^{}]*\bnumber\s*=\s*[^\s\"'{}][^{}]*\}$")


@dataclass(frozen=True)
class Case:
    """A numbered chapter or heading. Links reach it as `case-NUMBER` (kind `case`, id its
    number: the site's and the book's linkers treat it like a record)."""

    kind: ClassVar[str] = "case"
    number: str
    chapter: Path
    line: int  # the heading's line (1-based)
    level: int  # 1 for a chapter's title

    @property
    def id(self) -> str:
        return self.number

    @property
    def anchor(self) -> str:
        return f"case-{self.number}"


@dataclass(frozen=True)
class Problem:
    chapter: Path
    line: int
    message: str
    hint: str


@dataclass
class Numbering:
    """The game's cases: each source heading's case (None: unnumbered), in chapter order."""

    numbered: bool
    headings: dict[Path, list[Case | None]] = field(default_factory=dict)
    # `numbering: paragraphs`: chapter -> token index -> the case of a paragraph or list item
    paragraphs: dict[Path, dict[int, Case]] = field(default_factory=dict)
    keys: dict[str, Case | None] = field(default_factory=dict)  # `{{ case:KEY }}` -> its case
    problems: list[Problem] = field(default_factory=list)

    def cases(self) -> list[Case]:
        """Every numbered heading, then every numbered paragraph."""
        return ([case for cases in self.headings.values() for case in cases if case is not None]
                + [case for cases in self.paragraphs.values() for case in cases.values()])

    def case_at(self, chapter: Path, line: int) -> Case | None:
        """The case of the nearest numbered heading at or above `line` of `chapter`."""
        found = None
        for case in self.headings.get(chapter, ()):
            if case is not None and case.line <= line:
                found = case
        return found


def parse_number(text: str) -> tuple[int, ...] | None:
    text = text.strip().rstrip(".")
    return tuple(int(part) for part in text.split(".")) if _NUMBER.fullmatch(text) else None


def shown(number: tuple[int, ...]) -> str:
    return ".".join(map(str, number))


@dataclass
class _Open:
    level: int
    number: tuple[int, ...] | None
    children: int = 0


def number_chapters(chapters: list[Chapter], numbered: bool, paragraphs: bool = False) -> Numbering:
    """Number the headings of `chapters` (in file-name order), and with `paragraphs` the
    paragraphs and list items of each numbered section (SPI style: they count on with its
    subsections, 5.3.1, 5.3.2 ...); without `numbered`, only say where a heading asks for a
    number the game does not print."""
    out = Numbering(numbered)
    last: list[tuple[int, ...] | None] = [None]  # the last chapter's number: the next counts on
    for chapter in chapters:
        blocks: dict[int, Case] | None = {} if paragraphs and numbered else None
        out.headings[chapter.path] = list(_chapter_cases(chapter, numbered, last, out, blocks))
        if blocks is not None:
            out.paragraphs[chapter.path] = blocks
    if numbered:
        _repeated_numbers(out)
    return out


def _chapter_cases(chapter: Chapter, numbered: bool, last: list, out: Numbering, blocks: dict | None = None):
    tokens = chapter.tokens
    stack: list[_Open] = []
    for i, token in _paragraphs(tokens, stack, chapter, out, blocks):
        if token.type == "paragraph_open" and i + 1 < len(tokens) and _LOOSE_ATTRS.match(tokens[i + 1].content.strip()):
            out.problems.append(Problem(chapter.path, token.map[0] + 1 if token.map else 1,
                                        f"'{tokens[i + 1].content.strip()}' is not read as a heading's attributes",
                                        'quote a number with dots: {number="5.3"}'))
        if token.type != "heading_open":
            continue
        line = token.map[0] + 1 if token.map else 1
        level = int(token.tag[1])
        declared_text = token.attrs.get(NUMBER_ATTR)
        unnumbered = UNNUMBERED in str(token.attrs.get("class", "")).split()
        if not numbered:
            if declared_text is not None or unnumbered:
                out.problems.append(Problem(chapter.path, line, "the heading declares a number, but the game does not "
                                            "number its cases" if declared_text is not None else
                                            "{.unnumbered}: the game does not number its cases",
                                            "add 'numbering: cases' to game.yaml, or leave the attribute out"))
            yield None
            continue
        declared = parse_number(str(declared_text)) if declared_text is not None else None
        if declared_text is not None and declared is None:
            out.problems.append(Problem(chapter.path, line, f"number=\"{declared_text}\" is not a case number",
                                        'write digits separated by dots: {number="5.3"}'))
        while stack and stack[-1].level >= level:
            stack.pop()
        parent = stack[-1] if stack else None
        number = None if unnumbered else _number(parent, declared, last, chapter, line, out)
        stack.append(_Open(level, number))
        case = Case(shown(number), chapter.path, line, level) if number is not None else None
        _keyed(out, token, case, chapter, line, top=parent is None)
        yield case


def _paragraphs(tokens, stack: list[_Open], chapter: Chapter, out: Numbering, blocks: dict | None):
    """Each token of the chapter with its index, numbering on the way (into `blocks`) every
    paragraph and top-level list item of a numbered section, outside notes and examples (a
    rule box's paragraphs count: it is rules text); a reference alone that prints a whole
    table or list is no paragraph."""
    depth, aside = 0, 0  # open rule boxes (transparent), open notes or examples (skipped)
    for i, token in enumerate(tokens):
        yield i, token
        if blocks is None:
            continue
        if token.type in ("container_note_open", "container_example_open"):
            aside += 1
        elif token.type in ("container_note_close", "container_example_close"):
            aside -= 1
        elif token.type == "container_rule_open":
            depth += 1
        elif token.type == "container_rule_close":
            depth -= 1
        elif not aside and stack and stack[-1].number is not None and _is_paragraph(token, token.level - depth):
            parent = stack[-1]
            parent.children += 1
            case = Case(shown((*parent.number, parent.children)), chapter.path, token.map[0] + 1 if token.map else 1, 0)
            blocks[i] = case
            if token.attrs.get("id"):
                out.keys.setdefault(str(token.attrs["id"]), case)


def _is_paragraph(token, level: int) -> bool:
    if token.type == "paragraph_open":
        return level == 0
    if token.type == "list_item_open":
        return level == 1
    if token.type == "substitution_block":
        kind, _, rest = token.content.strip().partition(":")
        return level == 0 and (kind.strip() not in ("list", "table") or "." in rest)  # a whole table: no
    return False


def _number(parent: _Open | None, declared, last: list, chapter: Chapter, line: int, out: Numbering):
    """A heading's number: declared, or one past its previous sibling's (a chapter's title:
    past the previous chapter's); none under an unnumbered heading."""
    if parent is None:
        number = declared or ((*last[0][:-1], last[0][-1] + 1) if last[0] else (1,))
        last[0] = number
        return number
    if parent.number is None:
        return None
    number = declared or (*parent.number, parent.children + 1)
    if number[:-1] != parent.number:
        out.problems.append(Problem(chapter.path, line, f"case {shown(number)} stands under {shown(parent.number)}",
                                    f"a heading under {shown(parent.number)} is numbered {shown(parent.number)}.N"))
    parent.children = number[-1]
    return number


def _keyed(out: Numbering, token, case: Case | None, chapter: Chapter, line: int, top: bool) -> None:
    """Record the names `{{ case:... }}` reaches this heading by: its `{#ID}`, and a chapter's
    title also its slug."""
    keys = [str(token.attrs["id"])] if token.attrs.get("id") else []
    if top and chapter.slug not in keys:
        keys.append(chapter.slug)
    for key in keys:
        if key in out.keys and out.keys[key] is not case and token.attrs.get("id") == key:
            out.problems.append(Problem(chapter.path, line, f"the id '{key}' names two headings",
                                        "give each heading its own {#id}"))
        out.keys.setdefault(key, case)


def _repeated_numbers(out: Numbering) -> None:
    seen: dict[str, Case] = {}
    for case in out.cases():
        first = seen.setdefault(case.number, case)
        if first is not case:
            out.problems.append(Problem(case.chapter, case.line, f"case {case.number} is numbered twice",
                                        f"the first is {first.chapter.name}:{first.line}; declare another number "
                                        "or leave number= out"))


_CACHE: dict[tuple, Numbering] = {}


def game_numbering(game) -> Numbering:
    """The numbering of a loaded game's chapters (numbered or not), recomputed when a chapter
    changes."""
    chapters = load_chapters(game.folder)
    kind = getattr(game.manifest, "numbering", None)
    key = (game.folder, kind, tuple(id(chapter) for chapter in chapters))
    if key not in _CACHE:
        if len(_CACHE) > 32:
            _CACHE.clear()
        _CACHE[key] = number_chapters(chapters, kind is not None, paragraphs=kind == "paragraphs")
    return _CACHE[key]
