"""A game written in Polish, with an English edition: its own unit of measure declares the forms
of Polish's CLDR plural categories (`one: cal, few: cale, many: cali, other: cala`), a value may
write any of them, and each edition prints the form its number takes ("1 cal", "2 cale",
"5 cali", "22 cale"; "1 inch", "2 inches"). A catalog's Plural-Forms is compared with CLDR
(E025), and a declared language without a catalog fails `validate --strict` (W013)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polib
import pytest

from .conftest import edition_page

from generator.core.diagnostics import Report
from generator.i18n.catalog import po_path, template, update, write_catalog
from generator.i18n.plurals import CountedWord, categories_of_forms, rule_text
from generator.i18n.translate import Translator
from generator.project import Project

from .conftest import run_cli

NB = "\u00a0"
GAME = """id: zwiad
title:
  pl: Zwiad
  en: Recon
source_language: pl
languages: [en]
authors: [Gra testowa Rulesmith]
summary: Potyczka zwiadowców.
parameters:
  - {id: odskok, name: Odskok, value: 2, unit: cal}
  - {id: krok, name: Krok, value: 1, unit: cal}
  - {id: skok, name: Skok, value: 5, unit: cal}
  - {id: bieg, name: Bieg, value: 22, unit: cal}
measures:
  - {id: cal, name: cali, one: cal, few: cale, many: cali, other: cala}
stats:
  - {id: ruch, name: Ruch, type: distance, unit: cal}
"""
UNITS = """units:
  - {id: zwiadowca, name: Zwiadowca, stats: {ruch: 1 cal}}
  - {id: strzelec, name: Strzelec, stats: {ruch: 4 cale}}
  - {id: ciezki, name: Ciężki, stats: {ruch: 5 cali}}
  - {id: goniec, name: Goniec, stats: {ruch: 22}}
"""
PARAMS = "Odskok to {{ param:odskok }}, krok {{ param:krok }}, skok {{ param:skok }}, bieg {{ param:bieg }}."
STATS = ("Zwiadowca: {{ unit:zwiadowca.ruch }}; strzelec: {{ unit:strzelec.ruch }}; ciężki: {{ unit:ciezki.ruch }}; "
         "goniec: {{ unit:goniec.ruch }}.")
ENGLISH = {
    "Ruch": "Move", "Odskok": "Fall back", "Krok": "Step", "Skok": "Jump", "Bieg": "Run", "cali": "inches",
    "Gra testowa Rulesmith": "Rulesmith test game", "Potyczka zwiadowców.": "A scouts' skirmish.",
    "Zwiadowca": "Scout", "Strzelec": "Rifleman", "Ciężki": "Heavy", "Goniec": "Runner",
    PARAMS: "Falling back is {{ param:odskok }}, a step {{ param:krok }}, a jump {{ param:skok }}, a run "
            "{{ param:bieg }}.",
    STATS: "Scout: {{ unit:zwiadowca.ruch }}; rifleman: {{ unit:strzelec.ruch }}; heavy: {{ unit:ciezki.ruch }}; "
           "runner: {{ unit:goniec.ruch }}.",
}


def polish_game(root: Path, measure: str | None = None, translated: bool = True) -> Path:
    """The Polish-source game 'zwiad' under root/content, its English catalog written by
    `i18n update` and translated (translated=False: no catalog at all)."""
    game = root / "content" / "zwiad"
    (game / "data").mkdir(parents=True)
    (game / "rules").mkdir()
    text = GAME if measure is None else GAME.replace(
        "  - {id: cal, name: cali, one: cal, few: cale, many: cali, other: cala}", measure)
    (game / "game.yaml").write_text(text, encoding="utf-8")
    (game / "data" / "units.yaml").write_text(UNITS, encoding="utf-8")
    (game / "rules" / "01-ruch.md").write_text(f"# Ruch\n\n{PARAMS}\n\n{STATS}\n", encoding="utf-8")
    if translated:
        loaded = Project(root).load("zwiad", Report())
        catalog = update(loaded, "en", template(loaded))
        for entry in catalog:
            if entry.msgid_plural:
                entry.msgstr_plural = {0: "inch", 1: "inches"}
            else:
                entry.msgstr = ENGLISH[entry.msgid]
        write_catalog(po_path(loaded, "en"), catalog)
    return game


def _load(root: Path) -> tuple[object, Report]:
    report = Report()
    return Project(root).load("zwiad", report), report


def test_each_edition_prints_the_form_its_number_takes(tmp_path):
    polish_game(tmp_path)
    game, report = _load(tmp_path)
    assert [d.format_text() for d in report.diagnostics] == []  # '4 cale', '5 cali', '1 cal' are values
    polish, english = Translator.load(game, "pl"), Translator.load(game, "en")
    assert polish.references(PARAMS) == f"Odskok to 2{NB}cale, krok 1{NB}cal, skok 5{NB}cali, bieg 22{NB}cale."
    assert polish.references(STATS) == (f"Zwiadowca: 1{NB}cal; strzelec: 4{NB}cale; ciężki: 5{NB}cali; "
                                        f"goniec: 22{NB}cale.")
    assert english.references(english.text(PARAMS)) == (f"Falling back is 2{NB}inches, a step 1{NB}inch, a jump "
                                                        f"5{NB}inches, a run 22{NB}inches.")
    assert english.references(english.text(STATS)) == (f"Scout: 1{NB}inch; rifleman: 4{NB}inches; heavy: "
                                                       f"5{NB}inches; runner: 22{NB}inches.")
    assert english.missing == []


def test_the_site_of_each_edition_prints_the_forms(tmp_path):
    polish_game(tmp_path)
    result = run_cli("build", "--game", "zwiad", "--only", "site", "--jobs", "1", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    site = tmp_path / "output" / "site" / "zwiad"
    polish = edition_page(site / "pl", "ruch.html")
    english = edition_page(site / "en", "ruch.html")
    for form in ("1", "cal"), ("2", "cale"), ("5", "cali"), ("22", "cale"):
        assert f">{form[0]}{NB}{form[1]}<" in polish, form
    for form in ("1", "inch"), ("2", "inches"), ("5", "inches"), ("22", "inches"):
        assert f">{form[0]}{NB}{form[1]}<" in english, form
    assert f"{NB}cale" not in english and f"{NB}cal<" not in english and f"{NB}inch" not in polish
    table = {lang: re.findall(r"<td>(\d+\W[^<]*)</td>", (site / lang / "units.html").read_text(encoding="utf-8"))
             for lang in ("pl", "en")}
    assert table == {"pl": [f"1{NB}cal", f"4{NB}cale", f"5{NB}cali", f"22{NB}cale"],  # '22' bare: its unit's form
                     "en": [f"1{NB}inch", f"4{NB}inches", f"5{NB}inches", f"22{NB}inches"]}


@pytest.mark.parametrize("count, form", [(0, "cali"), (1, "cal"), (2, "cale"), (4, "cale"), (5, "cali"),
                                         (11, "cali"), (12, "cali"), (14, "cali"), (21, "cali"), (22, "cale"),
                                         (104, "cale"), (112, "cali"), (1.5, "cala")])
def test_a_polish_source_word_takes_its_cldr_form(count, form):
    word = CountedWord((("one", "cal"), ("few", "cale"), ("many", "cali"), ("other", "cala")), "pl", "cali")
    assert word.for_count(count) == form


def test_a_source_word_with_one_form_for_one_keeps_printing_as_before():
    """The old `one:` + word: every count but 1 prints the word (shipped games write it so)."""
    word = CountedWord((("one", "pace"), ("other", "paces")), "en", "paces")
    assert [word.for_count(n) for n in (0, 1, 2, 1.5, 21)] == ["paces", "pace", "paces", "paces", "paces"]


@pytest.mark.parametrize("lang, header, problem", [
    ("pl", rule_text("pl"), None),
    ("pl", "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);", None),
    ("ru", "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) "
           "? 1 : 2);", None),
    ("fr", "nplurals=2; plural=(n > 1);", None),
    ("pl", "nplurals=4; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : 2);", None),
    ("pl", "nplurals=2; plural=(n != 1);", "form 1 serves many (0) and few (2)"),
    ("ru", "nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);", "form 2 serves many (0) and one (21)"),
    ("en", "nplurals=3; plural=(n==1 ? 0 : n<5 ? 1 : 2);", "splits CLDR's 'other' over forms 1, 2"),
    ("en", "nplurals=3; plural=(n != 1);", "nplurals=3"),
    ("en", "nplurals=2; plural=(n >>> 1);", "cannot be read"),
])
def test_a_catalogs_plural_forms_is_compared_with_cldr(lang, header, problem):
    forms, found = categories_of_forms(header, lang)
    if problem is None:
        assert found is None and "one" in forms.values()
    else:
        assert problem in found and forms == {}


def test_a_four_form_polish_catalog_gives_its_last_form_to_fractions():
    word = CountedWord.from_catalog(("cal", "cale", "cali", "cala"), rule_text("pl").replace("nplurals=3", "nplurals=4"),
                                    "pl")
    assert [word.for_count(n) for n in (1, 3, 7, 2.5)] == ["cal", "cale", "cali", "cala"]


def test_a_plural_forms_header_that_disagrees_with_cldr_is_an_error_and_the_edition_counts_by_cldr(tmp_path):
    game = polish_game(tmp_path)
    po = game / "locale" / "en.po"
    text = po.read_text(encoding="utf-8")
    assert '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"' in text  # i18n update wrote Babel's rule
    po.write_text(text.replace("plural=(n != 1);", "plural=(n > 1);"), encoding="utf-8")
    loaded, report = _load(tmp_path)
    (found,) = [d for d in report.diagnostics if d.code == "E025"]
    assert found.location.path == po and found.location.line == text.splitlines().index(
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"') + 1
    assert "English" in found.message and "form 0 serves" in found.message
    assert Translator.load(loaded, "en").references("{{ param:krok }}") == f"1{NB}inch"


def test_a_form_the_source_language_does_not_have_and_too_few_forms(tmp_path):
    polish_game(tmp_path / "a", "  - {id: cal, name: cali, one: cal, two: cala, few: cale}")
    _game, report = _load(tmp_path / "a")
    assert [(d.code, d.location.line) for d in report.diagnostics] == [("E026", 15)]
    assert "Polish has no plural category 'two'" in report.diagnostics[0].message
    polish_game(tmp_path / "b", "  - {id: cal, name: cali, one: cal}")
    game, report = _load(tmp_path / "b")
    (found,) = [d for d in report.diagnostics if d.code == "W014"]
    assert "few, many" in found.message and found.location.line == 15
    assert any("'4 cale': unknown distance unit 'cale'" in d.message for d in report.errors)  # no few: declared
    assert Translator.load(game, "pl").references("{{ param:odskok }}") == f"2{NB}cali"  # as the warning says


def test_strict_validation_fails_for_a_declared_language_without_a_catalog(tmp_path):
    polish_game(tmp_path, translated=False)
    result = run_cli("validate", "--strict", "zwiad", cwd=tmp_path)
    assert result.returncode != 0
    assert ("content/zwiad/game.yaml:6:13: warning[W013]: 'en' is declared in languages: but has no catalog "
            "(locale/en.po is missing)") in result.stdout + result.stderr
    assert run_cli("validate", "zwiad", cwd=tmp_path).returncode == 0  # a warning: only strict fails
    status = run_cli("i18n", "status", "zwiad", cwd=tmp_path)
    assert "no catalog: content/zwiad/locale/en.po" in status.stdout
    (row,) = json.loads(run_cli("i18n", "status", "zwiad", "--format", "json", cwd=tmp_path).stdout)
    assert row["catalog"] is None and row["translated"] == 0
    run_cli("i18n", "update", "en", "zwiad", cwd=tmp_path)
    (row,) = json.loads(run_cli("i18n", "status", "zwiad", "--format", "json", cwd=tmp_path).stdout)
    assert row["catalog"] == "locale/en.po"


def test_the_translated_game_validates_strictly(tmp_path):
    polish_game(tmp_path)
    result = run_cli("validate", "--strict", "zwiad", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert polib.pofile(str(tmp_path / "content/zwiad/locale/en.po")).metadata["Plural-Forms"] == rule_text("en")


def test_a_catalog_in_the_source_language_is_no_longer_silently_ignored(tmp_path):
    game = polish_game(tmp_path)
    (game / "locale" / "pl.po").write_text('msgid "cal"\nmsgid_plural "cali"\nmsgstr[0] "cal"\nmsgstr[1] "cale"\n'
                                           'msgstr[2] "cali"\n', encoding="utf-8")
    _game, report = _load(tmp_path)
    (found,) = [d for d in report.diagnostics if d.code == "W015"]
    assert found.location.path == game / "locale" / "pl.po" and "source language 'pl'" in found.message
    assert "few:" in found.hint


@pytest.mark.parametrize("lang", ["de", "en", "es", "fr", "pl", "ru"])
def test_the_shipped_interface_catalogs_count_as_cldr_does(lang):
    po = Path(__file__).resolve().parents[1] / "generator" / "locale" / "ui" / f"{lang}.po"
    forms, problem = categories_of_forms(polib.pofile(str(po)).metadata["Plural-Forms"], lang)
    assert problem is None and forms[0] == "one"


def test_a_measure_with_forms_but_none_for_one_prints_the_translated_word(tmp_path):
    polish_game(tmp_path, "  - {id: cal, name: cali, few: cale}")
    game, report = _load(tmp_path)
    assert Translator.load(game, "pl").references("{{ param:odskok }} {{ param:skok }}") == f"2{NB}cale 5{NB}cali"
    assert Translator.load(game, "en").references("{{ param:odskok }}") == f"2{NB}inches"
