"""Looking up translations while building a language."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..reading.game import Game
from ..model import Record
from .catalog import finished, locale_dir, po_path, read_catalog
from .contexts import Contexts, load_contexts
from .messages import needs_translation, normalize, place_of
from .plurals import CountedWord, rule_text
from .ui import InterfaceWords


# The finished translations of each catalog read by this process, under the hash of its text:
# a worker lays out a game's documents one after the other, each reading the same catalog.
_READ: dict[Path, tuple[bytes, tuple[dict, dict, str | None]]] = {}


def _finished(path: Path) -> tuple[dict, dict, str | None]:
    """The catalog's finished translations (msgctxt, msgid) -> msgstr, its words with forms
    for counts -> their forms, and its Plural-Forms; parsed once while its text is the same
    (read_catalog's errors raised as it raises them)."""
    try:
        digest = hashlib.sha256(path.read_bytes()).digest()
    except OSError:
        digest = b""
    kept = _READ.get(path)
    if kept is not None and digest and kept[0] == digest:
        return kept[1]
    catalog = read_catalog(path)
    entries, plurals = {}, {}
    for entry in (e for e in catalog if finished(e)):
        if entry.msgid_plural:
            plurals[(entry.msgctxt, entry.msgid)] = tuple(entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural))
        else:
            entries[(entry.msgctxt, entry.msgid)] = entry.msgstr
    found = (entries, plurals, catalog.metadata.get("Plural-Forms"))
    _READ[path] = (digest, found)
    return found


@dataclass
class Translator:
    """Translations of one game into one language. A string without a finished translation
    (untranslated or fuzzy) falls back to the source and is remembered in `missing`."""

    game: Game
    lang: str
    entries: dict[tuple[str | None, str], str] = field(default_factory=dict)
    missing: list[tuple[str | None, str]] = field(default_factory=list)
    ui: InterfaceWords = field(default_factory=lambda: InterfaceWords(""))
    contexts: Contexts = field(default_factory=Contexts)
    plurals: dict[tuple[str | None, str], tuple[str, ...]] = field(default_factory=dict)  # words with forms for counts
    plural_rule: str = ""  # the catalog's Plural-Forms (plurals.py), else the language's
    _measuring: bool = field(default=False, init=False, repr=False)  # measure_words is printing a unit's words

    @classmethod
    def load(cls, game: Game, lang: str) -> "Translator":
        translator = cls(game, lang, ui=InterfaceWords.load(lang, locale_dir(game)),
                         contexts=load_contexts(locale_dir(game)))
        path = po_path(game, lang)
        header = None
        if lang != game.manifest.source_language and path.exists():
            entries, plurals, header = _finished(path)
            translator.entries.update(entries)
            translator.plurals.update(plurals)
        translator.plural_rule = rule_text(lang, header)
        return translator

    @property
    def is_source(self) -> bool:
        return self.lang == self.game.manifest.source_language

    def lookup(self, text: str, context: str | None = None) -> tuple[str, bool]:
        """(text in this language, True if translated). Source text passes through as done.
        Identical strings share one message: the context is None unless locale/contexts.yaml
        gives the place one."""
        if self.is_source or not needs_translation(text):
            return text, True
        for key in ((context, text), (context, normalize(text))):
            if key in self.entries:
                return self.entries[key], True
        self.missing.append((context, normalize(text)))
        return text, False

    def text(self, text: str | None, context: str | None = None) -> str:
        return "" if text is None else self.lookup(text, context)[0]

    def field(self, record: Record, *path: Any, refs: bool = True) -> str:
        """A record's translatable field, e.g. field(unit, 'name') or field(card, 'sections', 0, 'text'),
        its {{ kind:id }} references printed as words of this language (refs=False: as written,
        for a renderer that links them)."""
        value: Any = record
        path = tuple(int(p) if isinstance(p, str) and p.isdigit() else p for p in path)
        for part in path:
            value = value[part] if isinstance(part, int) or isinstance(value, dict) else getattr(value, part)
        if value is None:
            return ""
        named = self.game.manifest.enum_entry(record.kind, path[0], value) if len(path) == 1 else None
        if named is not None:  # a value of an enumeration prints its name (unit-type: infantry -> Infantry)
            return self.manifest("enums", *named, "name")
        text = self._placed(str(value), place_of(f"{record.kind}:{record.id}", path))
        return self.references(text) if refs else text

    def manifest(self, *path: Any) -> str:
        """A translatable string of game.yaml (a parameter's or a side's name), references printed."""
        value: Any = self.game.manifest
        for part in path:
            value = value[part] if isinstance(part, int) or isinstance(value, dict) else getattr(value, part)
        return "" if value is None else self.references(self._placed(str(value), place_of("game", path)))

    def references(self, text: str) -> str:
        """Text with each {{ kind:id }} it holds printed as a reader sees it in this language: a
        record's translated name, a stat's name, a value. One that names nothing stays as
        written (validation reports it at its line and column)."""
        if "{{" not in text:
            return text
        from ..text.refs import reference_words

        return reference_words(self, text)

    def measure_words(self) -> dict:
        """The game's own words for its units of measure in this language (game.yaml measures:,
        translated through the catalog): unit -> what prints after a value. A value a unit's
        words refer to prints in the built-in words (no unit's words print inside themselves)."""
        if self._measuring:
            return {}
        self._measuring = True
        try:
            # a translation counts through the plural entry of `one:`; without one it prints the translated word
            return {m.unit: self._counted(i) if m.one or (m.counts and self.is_source)
                    else self.manifest("measures", i, "abbr" if m.abbr else "name")
                    for i, m in enumerate(self.game.manifest.measures)}
        finally:
            self._measuring = False

    def _counted(self, index: int) -> CountedWord:
        """A unit of measure's word with its forms for counts in this language: the source's
        forms (`one:`, `few:`, ... and the word for the rest), or the catalog's plural forms (the
        source's, until it gives them)."""
        measure = self.game.manifest.measures[index]
        context = self.contexts.context_of(place_of("game", ("measures", index, "one")))
        forms = None if self.is_source else self.plurals.get((context, measure.one))
        if forms is None:
            if not self.is_source:
                self.missing.append((context, measure.one))
            return CountedWord(tuple((c, self.references(form)) for c, form in measure.counts.items()),
                               self.game.manifest.source_language, self.references(measure.word))
        return CountedWord.from_catalog(tuple(self.references(form) for form in forms), self.plural_rule, self.lang)

    def value_name(self, kind: str, field: str, value: object) -> str:
        """What prints for a value of a records' field that something else names (a roster limit's
        unit type): the enumeration's name for it in this language (game.yaml enums:), else the
        value as the records write it, translated."""
        named = self.game.manifest.enum_entry(kind, field, value)
        if named is not None:
            return self.manifest("enums", *named, "name")
        return "" if value is None else self.text(str(value))

    def side_name(self, side_id: object) -> str | None:
        """A declared side's name in this language; None for no side, or one not declared."""
        for i, side in enumerate(self.game.manifest.sides):
            if side.id == side_id:
                return self.manifest("sides", i, "name")
        return None

    def _placed(self, text: str, place: str) -> str:
        """A YAML string at its place; a catalog not yet migrated (one message per place,
        rulesmith i18n migrate) still gives its translation."""
        if not self.is_source and (place, text) in self.entries:
            return self.entries[(place, text)]
        return self.text(text, self.contexts.context_of(place))

    def title(self) -> str:
        titles = self.game.manifest.title
        return titles.get(self.lang) or titles[self.game.manifest.source_language]


def report_fallbacks(translator: Translator, report, what: str) -> None:
    """One warning per document for the strings it printed in the source language."""
    from ..core.diagnostics import Location

    missing = list(dict.fromkeys(translator.missing))
    if not missing:
        return
    sample = "; ".join(f"'{m[:40]}'" for _ctx, m in missing[:3])
    report.add("W005", f"{what}: {len(missing)} string(s) fall back to '{translator.game.manifest.source_language}' "
               f"in '{translator.lang}' (e.g. {sample})", Location(po_path(translator.game, translator.lang)),
               f"run 'rulesmith i18n update {translator.lang} {translator.game.id}' and translate the new or fuzzy entries")
