"""Each edition's side of a change: does its catalog translate the new text, only the old
one (fuzzy), or neither (missing)? Read from the LANG.po catalogs of both versions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

import polib

from ..i18n.catalog import CatalogError, finished, given, po_path, read_catalog
from ..i18n.messages import normalize
from ..reading.game import Game
from . import FUZZY, MISSING, SAME, TRANSLATED, Edition


@dataclass(frozen=True)
class Phrase:
    """One message of a change: its source text, its context and (for a YAML string) its
    place, the keys a catalog finds its translation under."""

    text: str
    context: str | None = None
    place: str | None = None


class Catalogs:
    """The translation catalogs of one version of a game, by language."""

    def __init__(self, game: Game, languages: Iterable[str]):
        self.entries: dict[str, dict[tuple[str | None, str], polib.POEntry]] = {}
        for lang in languages:
            path = po_path(game, lang)
            try:
                catalog = read_catalog(path) if path.is_file() else []
            except CatalogError:  # `rulesmith validate` names the bad line; here it translates nothing
                catalog = []
            self.entries[lang] = {(e.msgctxt, e.msgid): e for e in catalog if not e.obsolete}

    def entry(self, lang: str, phrase: Phrase) -> polib.POEntry | None:
        found = self.entries.get(lang, {})
        entry = found.get((phrase.context, phrase.text))
        if entry is None and phrase.place:  # a catalog from before shared messages: keyed by place
            entry = found.get((phrase.place, phrase.text))
        return entry

    def translation(self, lang: str, phrase: Phrase) -> str | None:
        """The finished translation of a phrase (not fuzzy), or None."""
        entry = self.entry(lang, phrase)
        if entry is None or not finished(entry):
            return None
        return entry.msgstr or entry.msgstr_plural.get(0) or None


NONE = "—"


def show(value: Any) -> str:
    """A value as a line of text: `80`, `[Пехота, Бесстрашные]`, `roll: 1 | effect: Ранен`; the
    cells of a rules table's row (a tuple) `a | b | c`."""
    if value is None or value == [] or value == {}:
        return NONE
    if isinstance(value, dict):
        return " | ".join(f"{k}: {show(v)}" for k, v in value.items())
    if isinstance(value, tuple):
        return " | ".join(show(v) for v in value)
    if isinstance(value, list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def shown(value: Any) -> str | None:
    """A value as text, None where there is none (a field added or removed)."""
    return None if value is None or value == [] or value == {} else show(value)


def _translated(value: Any, phrases: list[Phrase], lookup: Callable[[Phrase], str | None]) -> str | None:
    """The value shown with each of its phrases translated; None if one has no translation."""
    if value is None:
        return None
    by_text = {p.text: p for p in phrases}
    untranslated = []

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            phrase = by_text.get(item) or by_text.get(normalize(item))
            translation = lookup(phrase) if phrase is not None else item
            if translation is None:
                untranslated.append(phrase)
            return translation or item
        if isinstance(item, (list, tuple)):
            return type(item)(walk(i) for i in item)
        if isinstance(item, dict):
            return {key: walk(i) for key, i in item.items()}
        return item

    out = walk(value)
    return None if untranslated else shown(out)


def _state(lang: str, old: list[Phrase], new: list[Phrase], before: Catalogs, after: Catalogs) -> str:
    """The worst state over the new phrases: missing, else fuzzy, else translated."""
    gone = [p for p in old if p not in new]
    states = set()
    for phrase in new:
        entry = after.entry(lang, phrase)
        if entry is not None and finished(entry):
            states.add(TRANSLATED)
        elif entry is not None and given(entry) and not entry.obsolete:
            states.add(FUZZY)  # marked fuzzy: a merge kept the old translation
        elif any(after.translation(lang, p) or before.translation(lang, p) for p in gone):
            states.add(FUZZY)  # the catalog still translates the text this one replaced
        else:
            states.add(MISSING)
    for state in (MISSING, FUZZY):
        if state in states:
            return state
    return TRANSLATED


def edition(lang: str, values: tuple[Any, Any], phrases: tuple[list[Phrase], list[Phrase]],
            before: Catalogs, after: Catalogs) -> Edition:
    """One edition's side of a change whose source value was and is `values` (None: absent),
    holding the messages `phrases` (old, new)."""
    old, new = phrases
    if not old and not new:  # nothing translatable: the edition prints the same value
        return Edition(lang, SAME, shown(values[0]), shown(values[1]))
    old_text = _translated(values[0], old, lambda p: before.translation(lang, p) or after.translation(lang, p))
    new_text = _translated(values[1], new, lambda p: after.translation(lang, p))
    state = _state(lang, old, new, before, after) if shown(values[1]) is not None else TRANSLATED
    return Edition(lang, state, old_text, new_text if state == TRANSLATED else None)


def editions(languages: Iterable[str], values: tuple[Any, Any], phrases: tuple[list[Phrase], list[Phrase]],
             before: Catalogs, after: Catalogs) -> dict[str, Edition]:
    """Each edition's side of one change (see `edition`)."""
    return {lang: edition(lang, values, phrases, before, after) for lang in languages}
