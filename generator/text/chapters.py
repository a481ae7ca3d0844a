"""Chapters: the rules/*.md files of a game, parsed, in file-name order."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from markdown_it.token import Token

from ..reading.yamlsource import read_text
from .markdown import parser

RULES_DIR = "rules"


@dataclass
class Chapter:
    path: Path
    source: str
    tokens: list[Token] = field(default_factory=list)

    @property
    def slug(self) -> str:
        """'03-turn.md' -> 'turn': the page name on the site."""
        return re.sub(r"^\d+[-_]?", "", self.path.stem) or self.path.stem

    @property
    def title(self) -> str:
        for i, token in enumerate(self.tokens):
            if token.type == "heading_open" and token.tag == "h1":
                return self.tokens[i + 1].content
        return self.slug

    def references(self) -> Iterator[tuple[str, int]]:
        """Every `{{ }}` in the chapter with its line: (text, line)."""
        for text, line, _col in self.placed_references():
            yield text, line

    def placed_references(self) -> Iterator[tuple[str, int, int]]:
        """Every `{{ }}` in the chapter with its line and the column of its `{{`: (text, line, col)."""
        lines = self.source.splitlines()

        def column(line: int, nth: int) -> int:
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            at = -1
            for _ in range(nth + 1):
                found = text.find("{{", at + 1)
                if found < 0:
                    break
                at = found
            return at + 1 if at >= 0 else 1

        for token in self.tokens:
            if token.type == "substitution_block" and token.map:
                yield token.content, token.map[0] + 1, column(token.map[0] + 1, 0)
            elif token.type == "inline" and token.map and token.children:
                offset = 0
                for child in token.children:
                    if child.type != "substitution_inline":
                        continue
                    at = token.content.find("{{", offset)
                    line = token.map[0] + 1 + (token.content.count("\n", 0, at) if at >= 0 else 0)
                    start = token.content.rfind("\n", 0, at) + 1 if at >= 0 else 0
                    nth = token.content.count("{{", start, at) if at >= 0 else 0
                    offset = at + 2 if at >= 0 else offset
                    yield child.content, line, column(line, nth)

    def inline_tokens(self) -> Iterator[Token]:
        for token in self.tokens:
            if token.type == "inline":
                yield token


def chapter_files(folder: Path) -> list[Path]:
    """The chapter files (folders named like a chapter included: text.check reports them)."""
    return sorted((folder / RULES_DIR).glob("*.md"))


_CACHE: dict[Path, tuple[tuple[int, int], Chapter]] = {}


def load_chapter(path: Path, text: str | None = None) -> Chapter:
    """Parse a chapter; a file unchanged since its last parse (same size and mtime) is not
    parsed again (validation, the checker and the renderers all read the same chapters).
    Callers must not modify the tokens (renderers work on copies)."""
    if text is not None:
        return Chapter(path=path, source=text, tokens=parser().parse(text))
    stat = path.stat()
    key = (stat.st_mtime_ns, stat.st_size)
    cached = _CACHE.get(path)
    if cached is not None and cached[0] == key:
        return cached[1]
    source = read_text(path)
    chapter = Chapter(path=path, source=source, tokens=parser().parse(source))
    _CACHE[path] = (key, chapter)
    return chapter


def load_chapters(folder: Path) -> list[Chapter]:
    """Every readable chapter (text.check reports those that cannot be read)."""
    chapters = []
    for path in chapter_files(folder):
        try:
            chapters.append(load_chapter(path))
        except (OSError, UnicodeDecodeError):
            continue
    return chapters
