"""Rulesmith's own interface words ("Contents", "Example", "DRAFT"…): the labels around a
game's text, per output language.

They ship as gettext catalogs in generator/locale/ui/LANG.po (msgctxt = the word's key,
msgid = its English text), so translators work on them with their usual PO tools. A game
overrides any word for one language in content/GAME/locale/ui.LANG.po, written the same way.
A word no catalog gives prints in English.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import polib

from ..system import folders
from .. import outputs
from ..core.diagnostics import Location, Report
from ..system.folders import present
from .catalog import CatalogError, read_catalog, report_faults

UI_DIR = Path(__file__).resolve().parent.parent / "locale" / "ui"
TEMPLATE = UI_DIR / "ui.pot"
FALLBACK = "en"


def _shipped(path: Path) -> polib.POFile:
    """A catalog Rulesmith ships, read the one way files are read."""
    return polib.pofile(folders.read_text(path), wrapwidth=0)


@lru_cache(maxsize=None)
def english() -> dict[str, str]:
    """Every interface word's key and English text, in template order."""
    return {e.msgctxt: e.msgid for e in _shipped(TEMPLATE)}


def _words(catalog: polib.POFile) -> dict[str, str]:
    return {e.msgctxt: e.msgstr for e in catalog
            if e.msgctxt and e.msgstr and not e.fuzzy and not e.obsolete}


@lru_cache(maxsize=None)
def builtin(lang: str) -> dict[str, str]:
    """The words Rulesmith ships for a language (empty when it ships no catalog)."""
    path = UI_DIR / f"{lang}.po"
    return _words(_shipped(path)) if path.is_file() else {}


def shipped_languages() -> list[str]:
    return sorted(p.stem for p in UI_DIR.glob("*.po"))


def override_path(locale_dir: Path, lang: str) -> Path:
    return locale_dir / f"ui.{lang}.po"


def _override(locale_dir: Path | None, lang: str) -> dict[str, str]:
    if locale_dir is None:
        return {}
    path = override_path(locale_dir, lang)
    if not path.is_file():
        return {}
    try:
        return _words(read_catalog(path))
    except CatalogError:
        return {}  # reported by check_interface (E022); the build prints the shipped words


def _fallbacks(lang: str) -> list[str]:
    """A regional tag uses its language's words first: de-CH reads de, then de-CH."""
    primary = lang.split("-")[0]
    return [primary, lang] if primary != lang else [lang]


@dataclass
class InterfaceWords:
    """The interface words of one language, the game's overrides first."""

    lang: str
    words: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, lang: str, locale_dir: Path | None = None) -> "InterfaceWords":
        words: dict[str, str] = {}
        for tag in _fallbacks(lang):
            words.update(builtin(tag))
        for tag in _fallbacks(lang):
            words.update(_override(locale_dir, tag))
        return cls(lang, words)

    def __call__(self, key: str) -> str:
        if key in self.words:
            return self.words[key]
        return english().get(key) or builtin(FALLBACK).get(key) or key

    def missing(self) -> list[str]:
        """Keys that fall back to English in this language."""
        return [key for key in english() if key not in self.words]


def ui(lang: str, key: str) -> str:
    """A shipped interface word (no game overrides: for pages that belong to no one game)."""
    return InterfaceWords.load(lang)(key)


def check_interface(locale_dir: Path, lang: str, where: Location, report: Report) -> None:
    """W010 when a language would print interface words in English; E022 for an unreadable
    override catalog; W011 for an override of a word that does not exist."""
    path = override_path(locale_dir, lang)
    if present(path):
        try:
            catalog = read_catalog(path)
        except CatalogError as exc:
            report_faults(report, path, exc, "interface catalog")
        else:
            known = english()
            for entry in catalog:
                if entry.obsolete or entry.msgctxt in known:
                    continue
                close = difflib.get_close_matches(entry.msgctxt or "", list(known), n=1)
                name = f"'{entry.msgctxt}'" if entry.msgctxt else f"'{entry.msgid}' without a msgctxt (the word's key)"
                report.add("W011", f"{name} is not an interface word; this entry changes nothing",
                           Location(path, entry.linenum),
                           f"did you mean '{close[0]}'?" if close else
                           f"'rulesmith i18n ui {lang} {locale_dir.parent.name}' writes every word there is")
    missing = InterfaceWords.load(lang, locale_dir).missing()
    if missing:
        game = locale_dir.parent.name
        sample = ", ".join(repr(english()[k]) for k in missing[:3])
        has_catalog = any(builtin(tag) for tag in _fallbacks(lang)) or path.is_file()
        what = (f"the interface catalog for '{lang}' lacks {len(missing)} word(s); they" if has_catalog
                else f"no interface catalog for '{lang}': {len(missing)} interface word(s)")
        report.add("W010", f"{what} print in English (e.g. {sample})", where,
                   f"Rulesmith ships interface words for {', '.join(shipped_languages())}; run "
                   f"'rulesmith i18n ui {lang} {game}' and translate locale/{path.name}")


def interface_catalog(locale_dir: Path, lang: str) -> Path:
    """Write (or complete) a game's ui.LANG.po: every word, the game's own translations kept,
    the rest empty with Rulesmith's shipped word as a translator comment."""
    path = override_path(locale_dir, lang)
    own = _override(locale_dir, lang)
    shipped = builtin(lang)
    catalog = polib.POFile(wrapwidth=0)
    catalog.metadata = {"Project-Id-Version": "interface words", "Language": lang, "MIME-Version": "1.0",
                        "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit"}
    catalog.header = (f"Interface words in '{lang}' for this game. A filled msgstr replaces Rulesmith's word;\n"
                      "an empty one keeps it (shown below as 'shipped:').")
    template = {e.msgctxt: e for e in _shipped(TEMPLATE)}
    for key, text in english().items():
        note = template[key].comment
        if key in shipped:
            note += f"\nshipped: {shipped[key]}"
        catalog.append(polib.POEntry(msgctxt=key, msgid=text, msgstr=own.get(key, ""), comment=note))
    return outputs.write_content(path, str(catalog))
