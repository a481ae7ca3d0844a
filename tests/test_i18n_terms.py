"""Term lists match word forms (Snowball stems), not literal substrings."""

from __future__ import annotations

from pathlib import Path

import polib

from generator.diagnostics import Location, Report
from generator.i18n.terms import check_entry, load_terms

from .conftest import Workspace

TERMS = """terms:
  - source: Пехота
    target: infantry
  - source: ход
    target: turn
  - source: [очки контроля, '\\bОК\\b']
    target: control point
  - source: выжи
    target: Survive
    note: a stem written by hand matches the words it begins
"""


def _terms(tmp_path: Path, text: str = TERMS, source: str = "ru", target: str = "en"):
    path = tmp_path / f"{target}.terms.yaml"
    path.write_text(text, encoding="utf-8")
    report = Report()
    terms = load_terms(path, report, source, target)
    assert not report.diagnostics, report.diagnostics
    return terms


def _warnings(terms, msgid: str, msgstr: str) -> list[str]:
    report = Report()
    check_entry(terms, msgid, msgstr, Location(Path("en.po"), 1), report)
    return [d.message for d in report.diagnostics if d.code == "W002"]


def test_inflected_russian_form_triggers_the_term(tmp_path: Path):
    terms = _terms(tmp_path)
    [warning] = _warnings(terms, "Пехоту нельзя атаковать в лесу.", "Foot soldiers cannot be attacked in woods.")
    assert "'infantry'" in warning
    assert _warnings(terms, "Пехотой командует сержант.", "The infantry is led by a sergeant.") == []
    assert _warnings(terms, "Набрать очков контроля", "Score points") != []  # a phrase in another case


def test_inflected_english_form_satisfies_the_term(tmp_path: Path):
    terms = _terms(tmp_path)
    assert _warnings(terms, "Две пехоты", "Two infantries") == []  # 'infantry' is not a substring of it
    assert _warnings(terms, "Три очка контроля", "Three control points") == []
    assert _warnings(terms, "В начале хода", "At the start of each turn") == []


def test_unrelated_word_does_not_trigger(tmp_path: Path):
    terms = _terms(tmp_path)
    # «находится», «выход» contain «ход» but are other words: a substring match would demand 'turn'
    assert _warnings(terms, "Отряд находится у выхода.", "The squad stands by the exit.") == []
    assert _warnings(terms, "Пехотинец", "Rifleman") == []


def test_regular_expressions_and_hand_written_stems_still_match(tmp_path: Path):
    terms = _terms(tmp_path)
    assert _warnings(terms, "Набери 10 ОК.", "Score 10 VP.") != []
    assert _warnings(terms, "Бросок на Выживание", "Endurance roll") != []
    assert _warnings(terms, "Бросок на Выживание", "Survival roll") == []  # a form of Survive


def test_english_source_matches_plurals_too(tmp_path: Path):
    terms = _terms(tmp_path, "terms:\n  - source: army\n    target: армия\n", source="en", target="ru")
    assert _warnings(terms, "Both armies deploy.", "Обе стороны расставляются.") != []
    assert _warnings(terms, "Both armies deploy.", "Обе армии расставляются.") == []  # a Russian form


def test_term_check_runs_in_validate(ws: Workspace):
    ws.edit("game.yaml", "languages: []", "languages: [ru]")
    ws.write("rules/01-intro.md", "# Intro\n\nThe armies meet.\n")
    ws.write("locale/ru.terms.yaml", "terms:\n  - source: army\n    target: армия\n")
    ws.run("i18n", "update", "ru")
    catalog = polib.pofile(str(ws.game / "locale/ru.po"))
    catalog.find("The armies meet.").msgstr = "Войска встречаются."
    catalog.save()
    [warning] = [d for d in ws.validate().diagnostics if d.code == "W002"]
    assert warning.location.path.name == "ru.po" and "'армия'" in warning.message
    catalog.find("The armies meet.").msgstr = "Армии встречаются."
    catalog.save()
    assert not [d for d in ws.validate().diagnostics if d.code == "W002"]


def test_bad_source_entries_are_reported(tmp_path: Path):
    path = tmp_path / "en.terms.yaml"
    path.write_text("terms:\n  - source: '(unclosed'\n    target: x\n  - source: '--'\n    target: y\n",
                    encoding="utf-8")
    report = Report()
    assert load_terms(path, report, "ru") == []
    assert {d.code for d in report.diagnostics} == {"E004"}
