"""A language's word for one that is also its article or a verb's particle (German ein/eine,
"stürzt … ein") may stand for a number of the source ("one die" = "einen Würfel") but is no
number on its own: a translation that says "verliert eine Schlacht" adds no claim (E039), a
free mark on it is accepted, and a real numeral the translation adds is still reported."""

from __future__ import annotations

import shutil

import pytest

from generator.core.diagnostics import Report
from generator.project import Project
from generator.text.claims import claims, compare
from generator.text.numbers import numerals

from .conftest import REPO

FIXTURE = REPO / "tests/fixtures/bridgehead"
BATTLE = ("The counter {{ counter:r1 }} loses a battle: its strength drops from [4]{result=before} to "
          "[2]{result=strength}")
FALLS = "Blue rolls a [5]{die=1}: a section falls."


@pytest.mark.parametrize("source, translation, problem", [
    (BATTLE, "Der Counter {{ counter:r1 }} verliert eine Schlacht: seine Stärke sinkt von [4]{result=before} auf "
             "[2]{result=strength}", None),
    (FALLS, "Blau würfelt [5]{die=1}: ein Abschnitt stürzt ein.", None),
    ("Roll one die.", "Würfelt einen Würfel.", None),      # "einen" stands for the source's bare "one"
    ("Roll one die and one more.", "Würfelt einen Würfel und noch einen.", None),
    ("Roll one die.", "Würfelt.", "drops 'one' = 1 (unbound)"),
    ("Roll [one]{input=dice} die.", "Würfelt [einen]{input=dice} Würfel.", None),
    (BATTLE, "Der Counter {{ counter:r1 }} verliert zwei Schlachten: seine Stärke sinkt von [4]{result=before} "
             "auf [2]{result=strength}", "adds 'zwei' = 2 (unbound)"),
    (FALLS, "Blau würfelt [5]{die=1}: [ein]{.free} Abschnitt stürzt ein.", None),
    (FALLS, "Blau würfelt [5]{die=1}: [zwei]{.free} Abschnitte stürzen ein.", None),   # the language's own
    ("[Example 2]{.free}: roll a [5]{die=1}.", "[Beispiel 3]{.free}: würfelt [5]{die=1}.", "free text says 3"),
    ("[Example 2]{.free}: roll a [5]{die=1}.", "[Beispiel 2]{.free}: würfelt [5]{die=1}.", None),
])
def test_a_german_article_is_no_number_of_its_own(source, translation, problem):
    found = compare(source, translation, "en", "de")
    if problem is None:
        assert found is None, found
    else:
        assert found is not None and problem in found, found


def test_an_article_is_flagged_and_a_numeral_is_not():
    found = [(n.text, int(n.value), n.article) for n in numerals("Eine Schlacht, zwei Würfel, eins", "de")]
    assert found == [("Eine", 1, True), ("zwei", 2, False), ("eins", 1, False)]
    assert [c.text for c in claims("Die Einheit verliert eine Schlacht und zwei Würfel.", "de")] == ["zwei"]
    # English and Russian words for one are no articles
    assert [c.text for c in claims("Roll one die.", "en")] == ["one"]
    assert [c.text for c in claims("Бросьте один кубик.", "ru")] == ["один"]


def test_a_translation_that_loses_a_battle_with_an_article_validates(tmp_path):
    folder = tmp_path / "content" / "bridgehead"
    shutil.copytree(FIXTURE, folder)
    po = folder / "locale" / "de.po"
    text = po.read_text(encoding="utf-8")
    said = "verliert die Schlacht: Seine Stärke"
    assert text.count(said) == 1
    po.write_text(text.replace(said, "verliert eine Schlacht: Seine Stärke"), encoding="utf-8")
    report = Report()
    Project(tmp_path).load("bridgehead", report)
    assert [d.format_text() for d in report.diagnostics if d.code == "E039"] == []
    po.write_text(text.replace(said, "verliert zwei Schlachten: Seine Stärke"), encoding="utf-8")
    report = Report()
    Project(tmp_path).load("bridgehead", report)
    (found,) = [d for d in report.errors if d.code == "E039"]
    assert "adds 'zwei' = 2 (unbound)" in found.message and "needs no mark" in found.hint
