"""Rules text: chapters have a title, references resolve, examples have unique ids."""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from ..core.diagnostics import Location, Report
from ..safety.fetching import css_fetch, foreign_image
from ..reading.game import Game
from ..safety.outside import outside_links
from ..safety.pictures import TYPES, data_refusal
from ..text.chapters import Chapter, chapter_files, load_chapter
from ..text.markdown import CONTAINERS, NOTE_KINDS, container_info
from ..text.refs import Ref, RefError, is_block, resolve
from ..reading.yamlsource import BIDI_HINT, control_character, line_of_offset, unbalanced_bidi, unreadable
from .pictures import HINTS, report_use

_FENCE = re.compile(r"^\s*:{3,}\s*([^\s:]\S*)")
_OPEN = re.compile(r"^ {0,3}(:{3,})\s*(\S+)")
_CLOSE = re.compile(r"^ {0,3}(:{3,})\s*$")
_CODE_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def examples(chapter: Chapter):
    """Every example container: (id, line)."""
    for token in chapter.tokens:
        if token.type in ("container_example_open", "container_rule_open") and token.map:
            yield container_info(token.info)[1], token.map[0] + 1


def check(game: Game, report: Report) -> None:
    seen_examples: dict[str, Location] = {}
    linked_out = {link for link, _target in outside_links(game.folder, game.project_root)}  # links.check reports them
    for path in chapter_files(game.folder):
        if path in linked_out:
            continue
        try:
            chapter = load_chapter(path)
        except (OSError, UnicodeDecodeError) as exc:
            message, where, hint = unreadable(path, exc)
            report.add("E024", message, where, hint)
            continue
        bad = control_character(chapter.source)
        if bad is not None:
            line, col = line_of_offset(chapter.source, bad[0])
            report.add("E024", f"control character {bad[1]} in the text", Location(path, line, col),
                       "remove it: rules text is printable text")
        turned = unbalanced_bidi(chapter.source)
        if turned is not None:
            line, col = line_of_offset(chapter.source, turned)
            report.add("E067", f"the direction control U+{ord(chapter.source[turned]):04X} is never closed in its "
                       "line: the text after it reads in another direction than it is written",
                       Location(path, line, col), BIDI_HINT)
        _check_chapter(game, chapter, seen_examples, report)
        _check_containers_closed(chapter, report)
        _check_references_closed(chapter, report)
        _check_images(game, chapter, report)
        _check_attributes(chapter, report)


def _check_chapter(game: Game, chapter: Chapter, seen: dict[str, Location], report: Report) -> None:
    """A chapter's title, references, notes, example ids (`seen` across chapters) and containers."""
    _check_title(chapter, report)
    _check_references(game, chapter, report)
    _check_note_kinds(chapter, report)
    _check_example_ids(game, chapter, seen, report)
    _check_container_names(chapter, report)


def _check_title(chapter: Chapter, report: Report) -> None:
    """E020: a chapter starts with its '# Title'."""
    first = next((t for t in chapter.tokens if t.type.endswith("_open") or t.type in {"inline", "fence"}), None)
    if first is None or first.type != "heading_open" or first.tag != "h1":
        report.add("E020", "a chapter must start with its '# Title' heading", Location(chapter.path, 1, 1),
                   "put the chapter title on the first line as '# Title'")


def _check_references(game: Game, chapter: Chapter, report: Report) -> None:
    """Each reference names something (E007, E019) and a block stands alone (E052)."""
    blocks = {(token.content, token.map[0] + 1) for token in chapter.tokens
              if token.type == "substitution_block" and token.map}
    for text, line, col in chapter.placed_references():
        try:
            resolved = resolve(game, Ref.parse(text))
        except RefError as exc:
            if not exc.follows:
                report.add(exc.code, str(exc), Location(chapter.path, line, col), exc.hint)
            continue
        if (text, line) not in blocks and is_block(resolved):
            report.add("E052", f"'{{{{ {text.strip()} }}}}' prints a whole table or list, but stands inside a sentence",
                       Location(chapter.path, line, col),
                       "put it alone in its own paragraph (a blank line before and after), or refer to one "
                       "record ({{ kind:id }}) in the sentence")


def _check_note_kinds(chapter: Chapter, report: Report) -> None:
    """E021: a `::: note KIND` of a kind that exists."""
    for token in chapter.tokens:
        kind = container_info(token.info)[1] if token.type == "container_note_open" else ""
        if kind and kind not in NOTE_KINDS and token.map:
            report.add("E021", f"unknown kind of note '{kind}'", Location(chapter.path, token.map[0] + 1, 1),
                       f"write '::: note' followed by one of: {', '.join(NOTE_KINDS)} (or nothing)")


def _check_example_ids(game: Game, chapter: Chapter, seen: dict[str, Location], report: Report) -> None:
    """Each example has an id (E021) no other example has (E006)."""
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


def _check_container_names(chapter: Chapter, report: Report) -> None:
    """E021: a `:::` container of a kind that exists."""
    for number, line in enumerate(chapter.source.splitlines(), start=1):
        match = _FENCE.match(line)
        if match and match.group(1) not in CONTAINERS:
            report.add("E021", f"unknown container '{match.group(1)}'", Location(chapter.path, number, 1),
                       f"containers: {', '.join(CONTAINERS)}")


def _check_containers_closed(chapter: Chapter, report: Report) -> None:
    """Every `::: note` / `::: example` has its closing `:::` (else the rest of the chapter
    would silently become part of it)."""
    opened: list[tuple[int, str, int]] = []  # (line, name, fence length)
    code: str | None = None
    for number, line in enumerate(chapter.source.splitlines(), start=1):
        fence = _CODE_FENCE.match(line)
        if code is not None:
            if fence and fence.group(1)[0] == code[0] and len(fence.group(1)) >= len(code):
                code = None
            continue
        if fence:
            code = fence.group(1)
            continue
        close = _CLOSE.match(line)
        if close and opened and len(close.group(1)) >= opened[-1][2]:
            opened.pop()
            continue
        start = _OPEN.match(line)
        if start and start.group(2) in CONTAINERS:
            opened.append((number, start.group(2), len(start.group(1))))
    for number, name, _ in opened:
        report.add("E021", f"'::: {name}' is never closed", Location(chapter.path, number, 1),
                   "end the container with a line holding only ':::'")


def _check_references_closed(chapter: Chapter, report: Report) -> None:
    """`{{` that the reference syntax did not take up: an unclosed `{{ unit:x`."""
    for token in chapter.tokens:
        if token.type != "inline" or not token.map:
            continue
        for child in token.children or []:
            if child.type == "text" and "{{" in child.content:
                at = token.content.find("{{")
                line = token.map[0] + 1 + (token.content.count("\n", 0, at) if at >= 0 else 0)
                report.add("E019", "'{{' opens a reference that is never closed with '}}'",
                           Location(chapter.path, line, 1), "write {{ kind:id }} on one line, or `{{` as code")
                break


def _place(chapter: Chapter, token, needle: str) -> Location:
    """Where `needle` stands in the lines of a block token (its first line if not found)."""
    lines = chapter.source.splitlines()
    first = max(token.map[0] - 1, 0)  # a `{...}` attribute line stands just above its block
    for number in range(first, min(token.map[1], len(lines))):
        col = lines[number].find(needle)
        if col >= 0:
            return Location(chapter.path, number + 1, col + 1)
    return Location(chapter.path, token.map[0] + 1, 1)


def _check_images(game: Game, chapter: Chapter, report: Report) -> None:
    """Images come from the game's folder: the printer fetches nothing from the network or
    from elsewhere on the machine (print/fetcher.py refuses it) and the site publishes no
    such image (render.py drops it); here the designer learns where. A picture of the game
    folder must exist and be publishable (checks/pictures.py)."""
    for token in chapter.tokens:
        if token.type != "inline" or not token.map:
            continue
        for child in token.children or []:
            if child.type != "image":
                continue
            src = str(child.attrs.get("src", ""))
            where = _place(chapter, token, src or "![")
            if foreign_image(src, str(game.folder)):
                report.add("W008", f"image '{src}' is outside the game folder: it is neither printed nor published",
                           where, "put the image in the game's folder (e.g. images/) and refer to it by a path "
                           "relative to the game folder")
                continue
            if urlparse(src).scheme == "data":
                if data_refusal(src):
                    report.add("E064", f"the inline picture cannot be published: {data_refusal(src)}", where,
                               HINTS["E064"])
                continue
            target = os.path.abspath(os.path.join(game.folder, unquote(urlparse(src).path)))
            if not os.path.isfile(target):
                report.add("E061", f"no image '{src}' in the game folder", where,
                           "check the path: it is relative to the game folder (e.g. images/x.png), as the printed "
                           "rulebook and the site read it")
            elif os.path.splitext(target)[1].lower() not in TYPES:
                report.add("E061", f"image '{src}' is not PNG, SVG or JPEG", where, "convert it to PNG, SVG or JPEG")
            else:
                report_use(report, where, src, Path(target))


def _check_attributes(chapter: Chapter, report: Report) -> None:
    """`{style="..."}` on a block is published as written: a style that loads a URL would
    have every reader's browser fetch it (render.py leaves such a style out)."""
    for token in chapter.tokens:
        if not token.map or not token.attrs:
            continue
        for name, value in token.attrs.items():
            if name.lower() == "style" and css_fetch(str(value)):
                report.add("E065", f"the style '{value}' loads another resource "
                           f"('{css_fetch(str(value)).group()}'): readers' browsers would fetch it",
                           _place(chapter, token, f"{name}="),
                           "style text with colours and sizes only; put pictures in the game folder and show "
                           "them with ![..](path)")
