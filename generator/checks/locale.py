"""Translation catalogs: readable, each translation keeps its source's markup, and a
translated worked example keeps its numbers and their bindings (E039), and no translation leaves
a direction control open (E067)."""

from __future__ import annotations

from ..checker.examples import game_examples
from ..core.diagnostics import Location, Report
from ..system.folders import present
from ..reading.game import Game
from ..i18n.catalog import CatalogError, finished, po_path, read_catalog, report_faults
from ..i18n.contexts import contexts_path, load_contexts
from ..i18n.markup import mismatch
from ..i18n.plurals import categories, categories_of_forms, language_name, rule_text
from ..i18n.messages import data_messages, game_messages, normalize
from ..i18n.terms import TermIndex, check_entry, load_terms, terms_path
from ..i18n.ui import check_interface
from ..text.claims import compare
from ..reading.yamlsource import BIDI_HINT, read_text, unbalanced_bidi


def check(game: Game, report: Report) -> None:
    manifest = game.manifest
    prose = {normalize(p.text) for e in game_examples(game.folder)[0] for p in e.prose}
    _check_contexts(game, report)
    check_interface(game.folder / "locale", manifest.source_language,
                    game.manifest_doc.location(("source_language",)), report)
    _source_catalog(game, report)
    for i, lang in enumerate(manifest.languages):
        if lang != manifest.source_language:
            check_interface(game.folder / "locale", lang, game.manifest_doc.location(("languages", i)), report)
        path = po_path(game, lang)
        if not present(path):
            _no_catalog(game, lang, i, path, report)
            continue
        try:
            catalog = read_catalog(path)
        except CatalogError as exc:
            report_faults(report, path, exc)
            continue
        _untranslated(game, lang, catalog, path, report)
        lines = catalog_lines(path)
        _plural_forms(lang, catalog, path, lines, report)
        glossary = terms_path(path.parent, lang)
        terms = TermIndex(load_terms(glossary, report, manifest.source_language, lang) if present(glossary) else [])
        for entry in catalog:
            if entry.obsolete or not entry.msgstr or entry.fuzzy:
                continue
            where = Location(path, _msgstr_line(lines, entry.linenum), 1)
            if unbalanced_bidi(entry.msgstr) is not None:
                turned = entry.msgstr[unbalanced_bidi(entry.msgstr)]
                report.add("E067", f"the translation's direction control U+{ord(turned):04X} is never closed: the "
                           "text after it reads in another direction than it is written", where, BIDI_HINT)
            problem = mismatch(entry.msgid, entry.msgstr)
            if problem:
                report.add("E023", f"translation {problem}", where,
                           "keep every {{ }} reference, link, and emphasis of the source in the translation")
            if entry.msgid in prose:
                changed = compare(entry.msgid, entry.msgstr, manifest.source_language, lang)
                if changed:
                    report.add("E039", f"translation of an example changes its claims: {changed}", where,
                               "keep each number of the source with its binding ([3]{result=NAME} stays "
                               "[three]{result=NAME}), and its negation; bind any number the language adds, or mark "
                               "it free ({.free}) if it claims nothing (an article such as 'eine' needs no mark)")
            check_entry(terms, entry.msgid, entry.msgstr, where, report)


def _untranslated(game: Game, lang: str, catalog, path, report: Report) -> None:
    """One warning for the messages of the game this catalog does not translate yet (new, or
    fuzzy): what the edition would print in the source language (`validate --strict` fails)."""
    done = {(e.msgctxt, e.msgid) for e in catalog if finished(e)}
    missing = [m for m in game_messages(game)  # looked up as the Translator does (i18n/translate.py)
               if not {(m.context, m.msgid), (m.context, normalize(m.msgid)), (m.place, m.msgid)} & done]
    if missing:
        sample = "; ".join(f"'{normalize(m.msgid)[:40]}'" for m in missing[:3])
        report.add("W013", f"{len(missing)} message(s) have no finished translation in '{lang}' (e.g. {sample}): "
                   f"the '{lang}' edition prints them in '{game.manifest.source_language}'", Location(path),
                   f"run 'rulesmith i18n update {lang} {game.id}' and translate the new or fuzzy entries")


def _plural_forms(lang: str, catalog, path, lines: list[str], report: Report) -> None:
    """E025 where the catalog's Plural-Forms header picks msgstr[N] otherwise than CLDR counts
    in its language (a form shared by counts CLDR counts apart, a form no count takes)."""
    header = catalog.metadata.get("Plural-Forms")
    if not header:
        return
    _forms, problem = categories_of_forms(header, lang)
    if problem is None:
        return
    line = next((n for n, text in enumerate(lines, 1) if text.lstrip('"').startswith("Plural-Forms:")), 0)
    report.add("E025", f"Plural-Forms '{header.strip()}' disagrees with CLDR's plural rules for "
               f"{language_name(lang)}: {problem}", Location(path, line, 1 if line else 0),
               f"write \"Plural-Forms: {rule_text(lang)}\\n\" (CLDR's {', '.join(categories(lang))}, "
               "as Babel gives it), or delete the line and 'rulesmith i18n update' writes it")


def _source_catalog(game: Game, report: Report) -> None:
    """W015 for a catalog in the source language: no edition reads it (the source edition prints
    the source's own words; a unit's forms for counts are its measure's few:, many:, ...)."""
    source = game.manifest.source_language
    path = po_path(game, source)
    if path.is_file():
        report.add("W015", f"{path.relative_to(game.folder).as_posix()} is a catalog in the source language "
                   f"'{source}': no edition reads it", Location(path),
                   "write the source's words in the source files (a unit of measure's forms for counts as one:, "
                   "few:, many:, other: in game.yaml), and delete the catalog")


def _no_catalog(game: Game, lang: str, index: int, path, report: Report) -> None:
    """A declared language with no catalog at all prints every message in the source language:
    the same warning as a catalog that lacks some (W013), so `validate --strict` fails on it."""
    if lang == game.manifest.source_language:
        return
    total = len({(m.context, m.msgid) for m in game_messages(game)})
    if not total:
        return
    report.add("W013", f"'{lang}' is declared in languages: but has no catalog ({path.relative_to(game.folder).as_posix()} "
               f"is missing): the '{lang}' edition prints all {total} message(s) in '{game.manifest.source_language}'",
               game.manifest_doc.location(("languages", index)),
               f"run 'rulesmith i18n update {lang} {game.id}' to write the catalog, then translate it")


def _msgstr_line(lines: list[str], start: int) -> int:
    """polib gives the line where an entry starts; point at its msgstr instead."""
    for number in range(max(start, 1), len(lines) + 1):
        if lines[number - 1].startswith("msgstr"):
            return number
    return start


def catalog_lines(path) -> list[str]:
    """The lines of a catalog read_catalog has just read (none if it went away since)."""
    try:
        return read_text(path).splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def _check_contexts(game, report: Report) -> None:
    """Report a malformed contexts file, and W012 for a key that matches no place."""
    folder = game.folder / "locale"
    if not present(contexts_path(folder)):
        return
    contexts = load_contexts(folder, report)
    places = {m.place for m in data_messages(game, contexts) if m.place}
    for key in contexts.unused(places):
        report.add("W012", f"contexts: '{key}' matches no translatable text of the game",
                   Location(contexts_path(folder), contexts.lines[key], 3),
                   "a record or field was renamed or removed: correct the place or delete the line")
