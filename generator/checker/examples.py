"""Worked examples in the rules text and the ```check blocks that make them executable.

    ::: example barricade-falls
    Three dice against a Frame behind a Barricade ...
    ```check
    procedure: damage
    inputs: {attacks: 3, band: directed, cover: barricade, cover_hp: 1}
    dice: [4, 5, 6]
    expect: {target_damage: 2, cover_damage: 1}
    exact: {"P(target_damage >= 1)": 91/216}
    ```
    :::

An example may hold several check blocks; each is one case. This module only reads them
(with the line of every value, so each problem can cite it); `runner` runs them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.diagnostics import Diagnostic, Location, Report, did_you_mean
from ..text.chapters import Chapter, chapter_files, load_chapter
from ..text.markdown import container_info
from ..reading.yamlsource import YamlDocument, load_yaml
from .distribution import Stat
from .written import fraction

FENCE = "check"
KEYS = {
    "procedure": "the procedure to run (an id from the game's procedures.py)",
    "inputs": "the procedure's inputs: record ids and situational values",
    "dice": "faces the dice show, in the order the procedure rolls them",
    "expect": "results of the run with those dice: {name: value}",
    "exact": "exact probabilities and averages: {'P(condition)': 1/6, 'E(result)': 3/2}",
}


@dataclass
class CheckBlock:
    path: Path
    line: int                      # the ```check line (1-based)
    example: str | None            # the enclosing example's id; None outside any example
    source: str
    doc: YamlDocument | None = None
    problems: list[Diagnostic] = field(default_factory=list)
    stats: dict[str, Stat] = field(default_factory=dict)  # exact: key as written -> parsed

    @property
    def data(self) -> dict[str, Any]:
        return self.doc.data if self.doc is not None and isinstance(self.doc.data, dict) else {}

    @property
    def procedure(self) -> str | None:
        value = self.data.get("procedure")
        return value if isinstance(value, str) else None

    @property
    def inputs(self) -> dict[str, Any]:
        value = self.data.get("inputs")
        return value if isinstance(value, dict) else {}

    @property
    def dice(self) -> list[int] | None:
        return self.data.get("dice")

    @property
    def expect(self) -> dict[str, Any] | None:
        return self.data.get("expect")

    @property
    def exact(self) -> dict[str, Any] | None:
        return self.data.get("exact")

    def location(self, *path: Any, key: bool = False) -> Location:
        """The place in the Markdown file of a value inside the block (the fence line if unknown)."""
        if self.doc is None or not path:
            return Location(self.path, self.line, 1)
        inner = self.doc.location(tuple(path), key=key)
        return Location(self.path, self.line + inner.line, inner.col)

    def _problem(self, message: str, where: Location, hint: str = "") -> None:
        self.problems.append(Diagnostic("E032", message, where, hint))


@dataclass(frozen=True)
class Paragraph:
    """A paragraph (heading, list item, cell) of an example's prose: its Markdown source
    and the place of each of its lines in the file, so an offset gives a line and column."""

    text: str
    path: Path
    starts: tuple[tuple[int, int], ...]  # per line of `text`: (line in the file, column of its first character)

    @property
    def line(self) -> int:
        return self.starts[0][0]

    def place(self, offset: int) -> tuple[int, int]:
        """(line, column), 1-based, of an offset into the text."""
        before = self.text[:offset]
        row = before.count("\n")
        line, col = self.starts[min(row, len(self.starts) - 1)]
        return line, col + len(before) - (before.rfind("\n") + 1)


@dataclass
class Example:
    id: str
    path: Path
    line: int
    checks: list[CheckBlock] = field(default_factory=list)
    kind: str = "example"  # example (a worked case) | rule (normative text)
    prose: list[Paragraph] = field(default_factory=list)  # a worked case's text, the claims it makes


def _paragraph(chapter: Chapter, token: Any) -> Paragraph:
    lines = chapter.source.splitlines()
    starts = []
    for i, text in enumerate(token.content.split("\n")):
        number = token.map[0] + i
        source = lines[number] if number < len(lines) else ""
        at = source.find(text) if text else -1
        starts.append((number + 1, (at if at >= 0 else len(source) - len(source.lstrip())) + 1))
    return Paragraph(token.content, chapter.path, tuple(starts))


def chapter_examples(chapter: Chapter) -> tuple[list[Example], list[CheckBlock]]:
    """The examples of one chapter, and the check blocks that stand outside any example."""
    examples: list[Example] = []
    stray: list[CheckBlock] = []
    current: list[Example | None] = []  # container stack: an Example, or None for a note
    for token in chapter.tokens:
        if token.type in ("container_example_open", "container_rule_open") and token.map:
            kind, name = container_info(token.info)
            example = Example(name, chapter.path, token.map[0] + 1, kind=kind)
            examples.append(example)
            current.append(example)
        elif token.type == "container_note_open":
            current.append(None)
        elif token.type in ("container_example_close", "container_rule_close", "container_note_close") and current:
            current.pop()
        elif token.type == "inline" and token.map and current and current[-1] is not None \
                and current[-1].kind == "example":
            current[-1].prose.append(_paragraph(chapter, token))
        elif token.type == "fence" and token.info.strip().split(" ")[0] == FENCE and token.map:
            inside = current[-1] if current else None
            block = parse_block(chapter.path, token.map[0] + 1, token.content, inside.id if inside else None)
            (inside.checks if inside else stray).append(block)
    return examples, stray


def loose_prose(folder: Path) -> list[Paragraph]:
    """The paragraphs of a game's rules outside any worked example (where no number is bound)."""
    out = []
    for path in chapter_files(folder):
        try:
            chapter = load_chapter(path)
        except (OSError, UnicodeDecodeError):
            continue
        depth = 0
        for token in chapter.tokens:
            depth += token.type == "container_example_open"
            depth -= token.type == "container_example_close"
            if token.type == "inline" and token.map and depth <= 0:
                out.append(_paragraph(chapter, token))
    return out


def game_examples(folder: Path) -> tuple[list[Example], list[CheckBlock]]:
    """Every example of a game's rules, in reading order, and every stray check block."""
    examples: list[Example] = []
    stray: list[CheckBlock] = []
    for path in chapter_files(folder):
        try:
            chapter = load_chapter(path)
        except (OSError, UnicodeDecodeError):
            continue  # the text check reports it
        found, loose = chapter_examples(chapter)
        examples.extend(found)
        stray.extend(loose)
    return examples, stray


def parse_block(path: Path, line: int, source: str, example: str | None) -> CheckBlock:
    """Read one block's YAML and its shape; problems (E032) are kept on the block."""
    block = CheckBlock(path, line, example, source)
    scratch = Report()
    block.doc = load_yaml(path, scratch, text=source)
    for d in scratch.diagnostics:
        where = Location(path, line + d.location.line, d.location.col)
        if d.code.startswith("W"):  # a warning about a value (W006) stays a warning
            block.problems.append(Diagnostic(d.code, f"check block: {d.message}", where, d.hint, d.severity))
        else:
            block._problem(f"check block: {d.message}", where, d.hint)
    if block.doc is None:
        return block
    data = block.doc.data
    if not isinstance(data, dict):
        block._problem("a check block is a mapping: procedure:, inputs:, dice:, expect:, exact:",
                       block.location(), "start with 'procedure: <id>'")
        block.doc.data = {}
        return block
    for key in data:
        if key not in KEYS:
            block._problem(f"unknown key '{key}' in a check block", block.location(key, key=True),
                           did_you_mean(str(key), KEYS) or "keys: " + ", ".join(KEYS))
    if not isinstance(data.get("procedure"), str):
        block._problem("a check block needs 'procedure: <id>'", block.location("procedure"),
                       "name a procedure of the game's procedures.py")
    if data.get("inputs") is not None and not isinstance(data["inputs"], dict):
        block._problem("'inputs' must be a mapping", block.location("inputs"), "write inputs: {name: value, ...}")
    _check_dice(block, data)
    if data.get("expect") is None and data.get("exact") is None:
        block._problem("the check block says nothing to check", block.location(),
                       "add 'expect: {result: value}' (with 'dice:') or 'exact: {\"P(...)\": 1/6}'")
    if data.get("expect") is not None and not isinstance(data["expect"], dict):
        block._problem("'expect' must be a mapping of result names to values", block.location("expect"),
                       "write expect: {hits: 1}")
    _check_exact(block, data)
    return block


def _check_dice(block: CheckBlock, data: dict[str, Any]) -> None:
    dice = data.get("dice")
    if dice is None:
        return
    if not isinstance(dice, list):
        block._problem("'dice' must be a list of faces", block.location("dice"), "write dice: [3, 5, 6]")
        data["dice"] = None
        return
    for i, face in enumerate(dice):
        if isinstance(face, bool) or not isinstance(face, int) or face < 1:
            block._problem(f"die {i + 1} is {face!r}: a face is a whole number from 1", block.location("dice", i))
    if data.get("expect") is None:
        block._problem("'dice' without 'expect': nothing compares the run with those dice",
                       block.location("dice", key=True), "add expect: {result: value}")


def _check_exact(block: CheckBlock, data: dict[str, Any]) -> None:
    exact = data.get("exact")
    if exact is None:
        return
    if not isinstance(exact, dict):
        block._problem("'exact' must be a mapping like {'P(hits >= 1)': 11/36}", block.location("exact"))
        data["exact"] = None
        return
    for key, value in exact.items():
        try:
            block.stats[str(key)] = Stat.parse(str(key))
        except ValueError as exc:
            block._problem(str(exc), block.location("exact", key, key=True))
            continue
        try:
            fraction(value)
        except (ValueError, ZeroDivisionError):
            block._problem(f"{key}: {value!r} is not an exact number", block.location("exact", key),
                           "write a fraction (11/36), a decimal (0.5) or a whole number")


__all__ = ["CheckBlock", "Example", "Paragraph", "FENCE", "KEYS", "chapter_examples", "game_examples", "loose_prose",
           "parse_block"]
