"""A parameter reference prints its value with its unit of measure in the edition's language
(`{{ param:ID }}`; `{{ param:ID.value }}` the number alone), and a unit of measure a game
declares with its form for one (`one: pace`) prints by count: "1 pace", "2 paces", and in a
translation the catalog's plural forms (msgstr[N], by the language's Plural-Forms rule)."""

from __future__ import annotations

import shutil
import re
from pathlib import Path

import pytest

from generator.core.diagnostics import Report
from generator.i18n.catalog import template, update
from generator.i18n.plurals import CountedWord, rule_text
from generator.project import Project

from .conftest import edition_page, REPO, run_cli

FIXTURE = REPO / "tests/fixtures/bridgehead"
NB = "\u00a0"
PARAMETERS = """  - {id: step, name: Charge step, value: 1, unit: pace}
  - {id: steps, name: Charge steps, value: 2, unit: pace}
  - {id: reach, name: Dispatch reach, value: 12, unit: inch}
"""
CHAPTER = ("A step is {{ param:step }}, two are {{ param:steps }} or {{ param:steps.value }} paces; a rider "
           "reaches {{ param:reach }}; the game lasts {{ param:turns }} turns.")
GERMAN = ("Ein Schritt ist {{ param:step }}, zwei sind {{ param:steps }} oder {{ param:steps.value }} Schritt; "
          "ein Melder reicht {{ param:reach }}; das Spiel dauert {{ param:turns }} Züge.")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A copy of bridgehead with three parameters in units of measure and a chapter naming
    them, translated; its site built."""
    root = tmp_path_factory.mktemp("units")
    game = root / "content" / "bridgehead"
    shutil.copytree(FIXTURE, game)
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("measures:\n", PARAMETERS + "measures:\n", 1), encoding="utf-8")
    (game / "rules" / "05-steps.md").write_text(f"# Steps\n\n{CHAPTER}\n", encoding="utf-8")
    with (game / "locale" / "de.po").open("a", encoding="utf-8") as po:
        for source, german in (("Steps", "Schritte"), (CHAPTER, GERMAN), ("Charge step", "Sturmschritt"),
                               ("Charge steps", "Sturmschritte"), ("Dispatch reach", "Reichweite der Melder")):
            po.write(f'\nmsgid "{source}"\nmsgstr "{german}"\n')
    result = run_cli("build", "--game", "bridgehead", "--only", "site", "--jobs", "1", cwd=root)
    assert result.returncode == 0, result.stdout + result.stderr
    return root


def _paragraph(root: Path, lang: str, start: str) -> str:
    html = edition_page(root / f"output/site/bridgehead/{lang}", "steps.html")
    begin = html.index(start)
    return html[begin:html.index("</p>", begin)]


def test_a_parameter_prints_with_its_unit_by_count_in_each_edition(site):
    english = _paragraph(site, "en", "A step is")
    assert f">1{NB}pace<" in english and f">2{NB}paces<" in english and f">12{NB}in<" in english
    assert ">2</span> paces" in english            # .value: the number alone, the sentence says the unit
    assert ">6</span> turns" in english            # 'turns' counts, it is no unit of measure
    german = _paragraph(site, "de", "Ein Schritt ist")
    assert f">1{NB}Schritt<" in german and f">2{NB}Schritt<" in german and f">12{NB}Zoll<" in german
    assert "pace" not in german and ">6</span> Züge" in german


def test_the_fixture_validates_with_its_plural_entry(site):
    report = Report()
    Project(site).load("bridgehead", report)
    assert [d.format_text() for d in report.diagnostics if d.code in ("W013", "E019", "E007")] == []


def test_a_parameter_has_no_other_field(tmp_path):
    game = tmp_path / "content" / "bridgehead"
    shutil.copytree(FIXTURE, game)
    (game / "rules" / "05-steps.md").write_text("# Steps\n\nA game lasts {{ param:turns.unit }}.\n", encoding="utf-8")
    report = Report()
    Project(tmp_path).load("bridgehead", report)
    (found,) = [d for d in report.errors if d.code == "E019"]
    assert "{{ param:turns.value }}" in found.hint


@pytest.mark.parametrize("lang, forms, counts", [
    ("en", ("pace", "paces"), {1: "pace", 2: "paces", 0: "paces", 1.5: "paces", 21: "paces"}),
    ("de", ("Schritt", "Schritt"), {1: "Schritt", 5: "Schritt"}),
    ("fr", ("pas", "pas"), {0: "pas", 1: "pas"}),
    ("ru", ("шаг", "шага", "шагов"), {1: "шаг", 2: "шага", 4: "шага", 5: "шагов", 11: "шагов", 12: "шагов",
                                      21: "шаг", 22: "шага", 1.5: "шага"}),
])
def test_a_counted_word_takes_the_form_its_language_gives_each_count(lang, forms, counts):
    word = CountedWord.from_catalog(forms, rule_text(lang), lang)
    assert {n: word.for_count(n) for n in counts} == counts


def test_a_russian_catalog_gets_a_form_for_each_of_its_three_counts(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "content" / "bridgehead")
    game = Project(tmp_path).load("bridgehead", Report())
    catalog = update(game, "ru", template(game))
    (entry,) = [e for e in catalog if e.msgid_plural]
    assert (entry.msgid, entry.msgid_plural, sorted(entry.msgstr_plural)) == ("pace", "paces", [0, 1, 2])
