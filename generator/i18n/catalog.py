"""PO catalogs on disk: the POT template, LANG.po per language, merge and status."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

import polib

from .. import outputs
from ..core.diagnostics import Location, Report
from ..reading.game import Game
from ..reading.yamlsource import control_character, line_of_offset, read_text, unreadable
from .messages import Message, game_messages
from .plurals import form_count, rule_text
from .posyntax import NO_PLURAL_FORMS, Fault, faults

LOCALE_DIR = "locale"
TEMPLATE = "messages.pot"
# A changed source string keeps its old translation, marked fuzzy, when it is at least this
# similar to the string it replaced (msgmerge's fuzzy matching; difflib's ratio).
FUZZY_CUTOFF = 0.6
# Fixed dates keep catalogs byte-stable between runs, so only real changes show in a diff.
DATE = "2000-01-01 00:00+0000"
# The extracted comment of a message that is the editor's text (a record's `editor:`): it prints
# marked «ed.», and a translator should know it is not a quote of the source.
EDITORS_COMMENT = "Editor's text, not the source's words: it prints marked as such."


def locale_dir(game: Game) -> Path:
    return game.folder / LOCALE_DIR


def po_path(game: Game, lang: str) -> Path:
    return locale_dir(game) / f"{lang}.po"


def _metadata(game: Game, lang: str | None) -> dict[str, str]:
    meta = {
        "Project-Id-Version": game.id,
        "POT-Creation-Date": DATE,
        "PO-Revision-Date": DATE,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
    }
    if lang:
        meta["Language"] = lang
        meta["Language-Team"] = f"{game.id} ({lang})"
        meta["Last-Translator"] = f"{game.id} translators"
    return meta


def _new(game: Game, lang: str | None) -> polib.POFile:
    catalog = polib.POFile(wrapwidth=0, check_for_duplicates=True)
    catalog.metadata = _metadata(game, lang)
    title = game.manifest.title.get(game.manifest.source_language, game.id)
    catalog.header = (f"{lang} translation of {title} ({game.id}).\nUpdate with: rulesmith i18n update {lang} {game.id}"
                      if lang else f"Messages of {title} ({game.id}): rules text and YAML strings.")
    return catalog


def template(game: Game, messages: list[Message] | None = None) -> polib.POFile:
    """The POT catalog of a game: every message with its file:line references."""
    catalog = _new(game, None)
    index: dict[tuple[str | None, str], polib.POEntry] = {}
    for message in game_messages(game) if messages is None else messages:
        where = (message.path.relative_to(game.folder).as_posix(), str(message.line))
        key = (message.context, message.msgid)
        if key in index:
            index[key].occurrences.append(where)
            if message.editors:
                index[key].comment = EDITORS_COMMENT
            continue
        entry = polib.POEntry(msgid=message.msgid, msgstr="", msgctxt=message.context, occurrences=[where],
                              comment=EDITORS_COMMENT if message.editors else "")
        if message.plural:  # a word with forms for counts: the translation gives one per form of its language
            entry.msgid_plural = message.plural
            entry.msgstr_plural = {0: "", 1: ""}
        index[key] = entry
        catalog.append(entry)
    return catalog


class CatalogError(ValueError):
    """A PO file that cannot be read: what is wrong and on which line; `faults` holds every
    fault found (message, line, column), the first of them in `message` and `line`."""

    def __init__(self, message: str, line: int = 0, faults: list[Fault] | None = None):
        super().__init__(f"{message} (line {line})" if line else message)
        self.message = message
        self.line = line
        self.faults = faults if faults else [Fault(message, line)]


def read_catalog(path: Path) -> polib.POFile:
    """Parse a PO file as strictly as msgfmt --check does (posyntax.py): UTF-8, printable,
    every string closed and every escape known, every entry whole, no duplicate, a header;
    CatalogError names each fault's line."""
    try:
        text = read_text(path)
    except UnicodeDecodeError as exc:
        raise CatalogError("the catalog is not UTF-8 (save it as UTF-8)", getattr(exc, "line", 0)) from None
    except OSError as exc:
        raise CatalogError(unreadable(path, exc)[0]) from None
    bad = control_character(text)
    if bad is not None:
        raise CatalogError(f"control character {bad[1]}", line_of_offset(text, bad[0])[0])
    found = faults(text)
    if found:
        raise CatalogError(found[0].message, found[0].line, found)
    try:
        return polib.pofile(text, wrapwidth=0, check_for_duplicates=True, encoding="utf-8")
    except (OSError, ValueError) as exc:
        match = re.search(r"line (\d+)", str(exc))
        raise CatalogError(str(exc), int(match.group(1)) if match else 0) from None


def report_faults(report: Report, path: Path, exc: CatalogError, what: str = "catalog") -> None:
    """E022 for each fault of an unreadable catalog, at its line."""
    rule = rule_text(path.stem.split(".")[-1])  # LANG.po, ui.LANG.po
    for fault in exc.faults:
        hint = fault.hint or "fix the PO syntax (msgfmt --check shows the same place)"
        if fault.message.endswith(NO_PLURAL_FORMS):
            hint = f'add the line "Plural-Forms: {rule}\\n" to the header (the msgstr of msgid "")'
        report.add("E022", f"cannot read {what}: {fault.message}",
                   Location(path, fault.line, fault.col or (1 if fault.line else 0)), hint)


def given(entry: polib.POEntry) -> bool:
    """Whether an entry holds a translation: its msgstr, or every form of a word with forms for
    counts (msgstr[N])."""
    return all(entry.msgstr_plural.values()) if entry.msgid_plural else bool(entry.msgstr)


def finished(entry: polib.POEntry) -> bool:
    """A translation the editions print: given, not fuzzy, not obsolete."""
    return given(entry) and not entry.fuzzy and not entry.obsolete


def write_catalog(path: Path, catalog: polib.POFile) -> None:
    outputs.write_content(path, str(catalog))  # never a half-written catalog


def _key(entry: polib.POEntry) -> tuple[str | None, str]:
    return entry.msgctxt, entry.msgid


def update(game: Game, lang: str, pot: polib.POFile) -> polib.POFile:
    """Merge the template into LANG.po with msgmerge semantics: a new message that replaces
    a similar old one gets the old translation marked fuzzy; a message gone from the template
    becomes obsolete."""
    path = po_path(game, lang)
    catalog = read_catalog(path) if path.exists() else _new(game, lang)
    wanted = {_key(e) for e in pot}
    previous = {_key(e): e.previous_msgid for e in catalog if e.fuzzy and e.previous_msgid}
    leaving = [e for e in catalog if _key(e) not in wanted and e.msgstr and not e.obsolete]
    catalog.merge(pot)
    consumed = _inherit(catalog, previous, leaving)
    order = {_key(e): i for i, e in enumerate(pot)}
    kept = [e for e in catalog if not e.obsolete]
    kept.sort(key=lambda e: order[_key(e)])
    obsolete = [e for e in catalog if e.obsolete and id(e) not in consumed]
    catalog[:] = kept + obsolete
    catalog.metadata = {**_metadata(game, lang), **{k: v for k, v in catalog.metadata.items()
                                                    if k not in ("POT-Creation-Date",)}}
    _plural_slots(catalog, lang)
    return catalog


def _plural_slots(catalog: polib.POFile, lang: str) -> None:
    """Give each word with forms for counts a msgstr[N] per form of the language (Russian: 3),
    and a catalog that has such words the language's Plural-Forms (Babel's) if it has none: msgfmt
    rejects forms without it."""
    counted = [e for e in catalog if e.msgid_plural and not e.obsolete]
    if counted and not catalog.metadata.get("Plural-Forms"):
        catalog.metadata["Plural-Forms"] = rule_text(lang)
    rule = rule_text(lang, catalog.metadata.get("Plural-Forms"))
    count = form_count(rule)
    for entry in catalog:
        if entry.msgid_plural and not entry.obsolete:
            entry.msgstr_plural = {i: entry.msgstr_plural.get(i, "") for i in range(count)}
            catalog.metadata.setdefault("Plural-Forms", rule)


def _inherit(catalog: polib.POFile, previous: dict, leaving: list[polib.POEntry]) -> set[int]:
    """After a merge, give each untranslated entry what it can inherit, marked fuzzy: the same
    words translated under another context, else the closest entry leaving the template; an
    entry that was fuzzy keeps its '#|' previous text. The ids of the leaving entries used."""
    # the same words translated under another context (a place just given its own context)
    same_words = {e.msgid: e.msgstr for e in catalog if e.msgstr and not e.fuzzy and not e.obsolete}
    consumed: set[int] = set()
    for entry in catalog:
        if entry.obsolete:
            continue
        if entry.msgstr:
            if _key(entry) in previous:  # polib's merge drops '#|' lines; a fuzzy entry keeps them
                entry.previous_msgid = previous[_key(entry)]
            continue
        if entry.msgid in same_words:
            entry.msgstr = same_words[entry.msgid]
            entry.flags.append("fuzzy")
            continue
        match = _closest(entry, [e for e in leaving if id(e) not in consumed])
        if match is not None:
            consumed.add(id(match))
            entry.msgstr = match.msgstr
            entry.previous_msgid = match.msgid
            if "fuzzy" not in entry.flags:
                entry.flags.append("fuzzy")
    return consumed


def _closest(entry: polib.POEntry, candidates: list[polib.POEntry]) -> polib.POEntry | None:
    """The old entry this new one most likely replaces: same context for YAML strings, the
    most similar text for rules text."""
    if entry.msgctxt:
        same = [c for c in candidates if c.msgctxt == entry.msgctxt]
        return same[0] if same else None
    pool = [c for c in candidates if not c.msgctxt]
    best, best_ratio = None, FUZZY_CUTOFF
    for candidate in pool:
        ratio = difflib.SequenceMatcher(None, entry.msgid, candidate.msgid).ratio()
        if ratio >= best_ratio:
            best, best_ratio = candidate, ratio
    return best


@dataclass(frozen=True)
class Status:
    game: str
    lang: str
    total: int
    translated: int
    fuzzy: int
    untranslated: int
    catalog: str | None = None  # the catalog's path in the game folder; None when the language has none

    @property
    def percent(self) -> float:
        return 100.0 if self.total == 0 else round(100.0 * self.translated / self.total, 1)

    def as_dict(self) -> dict:
        return {"game": self.game, "lang": self.lang, "total": self.total, "translated": self.translated,
                "fuzzy": self.fuzzy, "untranslated": self.untranslated, "percent": self.percent,
                "catalog": self.catalog}


def status(game: Game, lang: str, pot: polib.POFile, messages: list[Message] | None = None) -> Status:
    """Counts against the current template: a message the PO lacks counts as untranslated
    (unless a catalog not yet migrated translates each of its places)."""
    path = po_path(game, lang)
    entries = {_key(e): e for e in read_catalog(path) if not e.obsolete} if path.exists() else {}
    places: dict[tuple[str | None, str], list[str]] = {}
    for message in game_messages(game) if messages is None else messages:
        if message.place:
            places.setdefault((message.context, message.msgid), []).append(message.place)
    translated = fuzzy = untranslated = 0
    for message in pot:
        entry = entries.get(_key(message))
        found = [entry] if entry is not None else [entries.get((p, message.msgid)) for p in places.get(_key(message), ())]
        if not found or not all(e is not None and given(e) for e in found):
            untranslated += 1
        elif any(e.fuzzy for e in found):
            fuzzy += 1
        else:
            translated += 1
    catalog = path.relative_to(game.folder).as_posix() if path.exists() else None
    return Status(game.id, lang, len(pot), translated, fuzzy, untranslated, catalog)
