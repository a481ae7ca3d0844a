"""Chapters: the rules/*.md files of a game, parsed, in file-name order."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from markdown_it.token import Token

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

    def inline_tokens(self) -> Iterator[Token]:
        for token in self.tokens:
            if token.type == "inline":
                yield token


def chapter_files(folder: Path) -> list[Path]:
    return sorted((folder / RULES_DIR).glob("*.md"))


def load_chapter(path: Path, text: str | None = None) -> Chapter:
    source = path.read_text(encoding="utf-8") if text is None else text
    return Chapter(path=path, source=source, tokens=parser().parse(source))


def load_chapters(folder: Path) -> list[Chapter]:
    return [load_chapter(path) for path in chapter_files(folder)]
