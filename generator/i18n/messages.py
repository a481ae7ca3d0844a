"""What a translator translates: one message per paragraph, heading, list item and table
cell of the rules, and per player-facing YAML string, each with the place it comes from.
Identical strings share one message; locale/contexts.yaml separates those that need
different translations (see contexts.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from pydantic import BaseModel

from ..reading.game import Game
from ..model.base import is_translatable
from ..text.chapters import Chapter, load_chapters
from ..text.markdown import EDITOR_CLASS
from .contexts import Contexts, load_contexts

_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
_REF = re.compile(r"\{\{.*?\}\}")


@dataclass(frozen=True)
class Message:
    msgid: str
    context: str | None
    path: Path
    line: int
    place: str | None = None  # KIND:ID.FIELD or game.FIELD of a YAML string; None for rules text
    editors: bool = False  # the editor's text, not the source's words (the record's `editor:`)
    plural: str | None = None  # a word with forms for counts: msgid is its form for one, this the other


def normalize(text: str) -> str:
    """Paragraph text as one line: re-wrapping a paragraph changes nothing for translators."""
    return " ".join(text.split())


def needs_translation(text: str) -> bool:
    """Text with letters outside references or in a reference's display text ({{ unit:gun | guns }});
    '4+' or '{{ unit:x }}' alone are not messages."""
    return bool(_LETTER.search(_REF.sub(lambda m: m.group().partition("|")[2], text)))


def chapter_messages(chapter: Chapter) -> Iterator[Message]:
    before = None
    for token in chapter.tokens:
        if token.type == "inline":
            text = normalize(token.content)
            if token.map and needs_translation(text):
                editors = before is not None and before.type == "heading_open" and \
                    EDITOR_CLASS in str(before.attrs.get("class", "")).split()
                yield Message(text, None, chapter.path, token.map[0] + 1, editors=editors)
        before = token


def _walk(value: Any, model: type[BaseModel] | None, path: tuple) -> Iterator[tuple[tuple, str]]:
    """(field path, string) for every translatable string inside a model instance."""
    if isinstance(value, BaseModel):
        for name, info in type(value).model_fields.items():
            field_value = getattr(value, name)
            if isinstance(field_value, str):
                if is_translatable(info):
                    yield path + (name,), field_value
            elif (isinstance(field_value, tuple) and is_translatable(info)
                  and all(isinstance(item, str) for item in field_value)):  # e.g. authors: [..]
                for i, item in enumerate(field_value):
                    yield path + (name, i), item
            else:
                yield from _walk(field_value, None, path + (name,))
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from _walk(item, None, path + (i,))
    elif isinstance(value, dict):  # stats and params: an unstated value's reason inside
        for key, item in value.items():
            yield from _walk(item, None, path + (key,))


def _table_cells(record) -> Iterator[tuple[tuple, str]]:
    """(path, text) of a table's free-text cells: coded columns' values are named elsewhere."""
    coded = {c.id for c in getattr(record, "columns", ()) if c.values}  # their values' names are the messages
    for i, row in enumerate(getattr(record, "rows", ())):
        for key, cell in row.items():
            if key != "roll" and key not in coded and isinstance(cell, str):
                yield ("rows", i, key), cell


def record_strings(record: Any) -> list[tuple[tuple, str]]:
    """(field path, text) of every string of a record a translator sees, a table's cells
    included: what data_strings walks and what a record's `editor:` may name."""
    strings = list(_walk(record, None, ()))
    if getattr(record, "kind", None) == "table":
        strings += list(_table_cells(record))
    return strings


def place_of(owner: str, path: tuple) -> str:
    """The place of a YAML string: unit:scouts.name, game.stats.0.name."""
    return owner + "." + ".".join(str(p) for p in path)


def data_strings(game: Game) -> Iterator[tuple[Any, tuple, str, Any]]:
    """Every player-facing YAML string of the game, the manifest's first: (record or None for
    game.yaml, path in it, text, where the string starts). Card faces and backs, counters,
    map labels, table cells, parameters, sides: what a translator sees is what this walks."""
    for path, text in _walk(game.manifest, None, ()):
        yield None, path, text, game.manifest_doc.location(path)
    for record in game.all_records():
        origin = game.origin(record)
        for path, text in record_strings(record):
            yield record, path, text, origin.location(*path)


def data_messages(game: Game, contexts: Contexts | None = None) -> Iterator[Message]:
    contexts = load_contexts(game.folder / "locale") if contexts is None else contexts
    manifest = game.manifest
    for record, path, text, loc in data_strings(game):
        if not needs_translation(text) or (record is not None and len(path) == 1
                                           and manifest.enum_entry(record.kind, path[0], text)):
            continue  # a value of an enumeration: its name is the message
        if record is None:
            place = place_of("game", path)
            editors = (path[0] in ("parameters", "components") and len(path) == 3
                       and path[2] in getattr(manifest, path[0])[path[1]].editor) \
                or ".".join(map(str, path)) in manifest.editor
        else:
            place = place_of(f"{record.kind}:{record.id}", path)
            editors = ".".join(map(str, path)) in record.editor
        yield Message(text, contexts.context_of(place), loc.path, loc.line, place, editors, _plural_of(manifest, record, path))


def _plural_of(manifest, record, path: tuple) -> str | None:
    """The other form of a unit of measure's word for one (game.yaml measures: `one:`)."""
    if record is None and len(path) == 3 and path[0] == "measures" and path[2] == "one":
        return manifest.measures[path[1]].word
    return None


def game_messages(game: Game, chapters: list[Chapter] | None = None,
                  contexts: Contexts | None = None) -> list[Message]:
    chapters = load_chapters(game.folder) if chapters is None else chapters
    out: list[Message] = []
    for chapter in chapters:
        out.extend(chapter_messages(chapter))
    out.extend(data_messages(game, contexts))
    return out


def is_translatable_path(record: BaseModel, path: tuple) -> bool:
    """Whether record.<path> (e.g. ('abilities', 0, 'text')) is a translatable field."""
    value: object = record
    info = None
    for part in path:
        if isinstance(part, int) or (isinstance(part, str) and part.isdigit()):
            if not isinstance(value, (list, tuple)):
                return False
            value = value[int(part)]
            continue
        if not isinstance(value, BaseModel) or part not in type(value).model_fields:
            return False
        info = type(value).model_fields[part]
        value = getattr(value, part)
    return info is not None and is_translatable(info)
