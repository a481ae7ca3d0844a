"""Rules text: chapters have a title, references resolve, examples have unique ids."""

from __future__ import annotations

import re

from ..diagnostics import Location, Report
from ..game import Game
from ..text.chapters import Chapter, chapter_files, load_chapter
from ..text.markdown import CONTAINERS, container_info
from ..text.refs import Ref, RefError, is_block, resolve

_FENCE = re.compile(r"^\s*:{3,}\s*([^\s:]\S*)")


def examples(chapter: Chapter):
    """Every example container: (id, line)."""
    for token in chapter.tokens:
        if token.type == "container_example_open" and token.map:
            yield container_info(token.info)[1], token.map[0] + 1


def check(game: Game, report: Report) -> None:
    seen_examples: dict[str, Location] = {}
    for path in chapter_files(game.folder):
        try:
            chapter = load_chapter(path)
        except UnicodeDecodeError as exc:
            report.add("E001", f"file is not UTF-8 text ({exc.reason})", Location(path, 1, 1), "save it as UTF-8")
            continue
        _check_chapter(game, chapter, seen_examples, report)


def _check_chapter(game: Game, chapter: Chapter, seen: dict[str, Location], report: Report) -> None:
    first = next((t for t in chapter.tokens if t.type.endswith("_open") or t.type in {"inline", "fence"}), None)
    if first is None or first.type != "heading_open" or first.tag != "h1":
        report.add("E020", "a chapter must start with its '# Title' heading", Location(chapter.path, 1, 1),
                   "put the chapter title on the first line as '# Title'")
    blocks = {(token.content, token.map[0] + 1) for token in chapter.tokens
              if token.type == "substitution_block" and token.map}
    for text, line in chapter.references():
        try:
            resolved = resolve(game, Ref.parse(text))
        except RefError as exc:
            if not exc.follows:
                report.add(exc.code, str(exc), Location(chapter.path, line, 1), exc.hint)
            continue
        if (text, line) not in blocks and is_block(resolved):
            report.add("E042", f"'{{{{ {text.strip()} }}}}' prints a whole table or list, but stands inside a sentence",
                       Location(chapter.path, line, 1),
                       "put it alone in its own paragraph (a blank line before and after), or refer to one "
                       "record ({{ kind:id }}) in the sentence")
    for example_id, line in examples(chapter):
        where = Location(chapter.path, line, 1)
        if not re.match(r"^[a-z0-9][a-z0-9-]*$", example_id):
            report.add("E021", f"example needs an id, got '{example_id}'", where,
                       "write '::: example some-id' (lowercase Latin letters, digits, hyphens)")
        elif example_id in seen:
            report.add("E006", f"duplicate example id '{example_id}' (first at {seen[example_id].display(game.project_root)})",
                       where, "give each example its own id")
        else:
            seen[example_id] = where
    for number, line in enumerate(chapter.source.splitlines(), start=1):
        match = _FENCE.match(line)
        if match and match.group(1) not in CONTAINERS:
            report.add("E021", f"unknown container '{match.group(1)}'", Location(chapter.path, number, 1),
                       f"containers: {', '.join(CONTAINERS)}")
