"""Term lists match word forms (Snowball stems), not literal substrings."""

from __future__ import annotations

import re
from pathlib import Path

import polib
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.diagnostics import Location, Report
from generator.i18n.terms import CompiledTerm, Term, TermIndex, check_entry, is_pattern, load_terms, words

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
    check_entry(TermIndex(terms), msgid, msgstr, Location(Path("en.po"), 1), report)
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


# TermIndex finds the terms a source uses without testing each; CompiledTerm.in_source is the plain
# definition it must agree with, term for term and in the list's order.
TRICKY = """terms:
  - source: выжи
    target: Survive
    note: a prefix only, no word's stem
  - source: очки контроля
    target: control point
  - source: [ход, ходы]
    target: turn
  - source: [отряд в лесу, отряд у реки]
    target: squad in
  - source: ёлка
    target: fir
  - source: ['\\bОК\\b', 'модел\\w*']
    target: model
  - source: [пехота, '\\bпех\\w*']
    target: infantry
  - source: сила сила атака
    target: power
  - source: [огонь, стрельба по отряду]
    target: fire
"""
TRICKY_TEXTS = [
    "Бросок на Выживание", "выжить", "вы живы",  # prefix only; the prefix split over two words
    "Набрать очков контроля", "очки, контроля", "контроля очки", "очки очки очки контроля",  # a phrase of two
    "Отряд в отряде, отряд в лесу", "отряд в реке, отряд у реки", "отряды у реки",  # a first word many times over
    "находится у выхода", "Ходы и ход", "ХОДОМ",  # stems equal, words differing; letters case
    "Ёлка", "елка", "ёлки-палки",  # ё is е
    "Набери 10 ОК.", "моделька", "ОКО",  # patterns
    "Пехотинец", "пехоту", "сила сила сила атака", "сила атака", "Стрельбой по отрядам", "", "…",
]


def _plain(terms, text: str) -> list:
    return [t for t in terms if t.in_source(text)]


def test_term_index_agrees_with_the_definition_on_tricky_cases(tmp_path: Path):
    terms = _terms(tmp_path, TRICKY)
    index = TermIndex(terms)
    used = {text: index.used_in(text) for text in TRICKY_TEXTS}
    assert used == {text: _plain(terms, text) for text in TRICKY_TEXTS}
    assert {text for text, found in used.items() if found} >= {  # the table does exercise each kind
        "Бросок на Выживание", "выжить", "Набрать очков контроля", "Отряд в отряде, отряд в лесу",
        "отряд в реке, отряд у реки", "Ходы и ход", "елка", "Набери 10 ОК.", "Пехотинец", "сила сила сила атака",
        "Стрельбой по отрядам"}
    assert used["вы живы"] == used["контроля очки"] == used["сила атака"] == used["ОКО"] == []


def test_check_entry_reports_in_the_term_lists_order(tmp_path: Path):
    terms = _terms(tmp_path, TRICKY)
    text = "Сила сила атака: ёлка у отряда в лесу, 3 ОК за ход пехотой, выжить"
    warnings = _warnings(terms, text, "nothing")
    assert [w.split("lacks ")[1] for w in warnings] == [
        "'Survive'", "'turn'", "'squad in'", "'fir'", "'model'", "'infantry'", "'power'"]
    assert _warnings(terms, text, "Power of the fir: squad in woods survive the turn, the infantry model") == []


WORDS = ["от", "отряд", "отряды", "отряда", "ряд", "ход", "ходы", "выход", "ёж", "еж", "Ежи", "пех", "пехота",
         "пехотой", "огонь", "огня", "о", "в", "лес", "лесу"]
PHRASES = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)


SOURCES = st.lists(st.one_of(PHRASES, st.sampled_from(["\\bот\\w*", "ряд(ы|а)?", "\\bх"])), min_size=1, max_size=3)


@settings(derandomize=True, max_examples=150, deadline=None, database=None)
@given(sources=st.lists(SOURCES, min_size=1, max_size=8),
       texts=st.lists(st.lists(st.sampled_from(WORDS + [",", "Отряды", "ОГОНЬ"]), max_size=12).map(" ".join),
                      min_size=1, max_size=5))
def test_term_index_agrees_with_the_definition(sources: list[list[str]], texts: list[str]):
    terms = [CompiledTerm(Term(source=source, target=["x"]),
                          tuple(re.compile(p, re.IGNORECASE) for p in source if is_pattern(p)),
                          tuple(words(p, "ru") for p in source if not is_pattern(p)), ((("x", "x"),),), i, "ru", "en")
             for i, source in enumerate(sources)]
    index = TermIndex(terms)
    for text in texts:
        assert index.used_in(text) == _plain(terms, text)


def test_patterns_that_cannot_share_the_quick_test_are_tested_alone(tmp_path: Path):
    # each compiles alone; joined into one quick test, the names would clash, the global flag would
    # stand mid-pattern, and the backreference would point at the group of the term before it
    clashing = "terms:\n  - source: '(?P<a>army)'\n    target: армия\n  - source: '(?P<a>meet)'\n    target: встреча\n" \
               "  - source: '(?i)ARMIES'\n    target: войска\n"
    numbered = "terms:\n  - source: '(army)'\n    target: армия\n  - source: '(\\w)\\1'\n    target: двойной\n"
    for text, targets in ((clashing, ["встреча", "войска"]), (numbered, ["двойной"])):
        terms = _terms(tmp_path, text, source="en", target="ru")
        index = TermIndex(terms)
        for source in ("The armies meet.", "An army", "Two", "Moon"):
            assert index.used_in(source) == _plain(terms, source)
        assert [t.term.target[0] for t in index.used_in("The armies meet.")] == targets
        lacks = [w.split("lacks ")[1] for w in _warnings(terms, "The armies meet.", "Войска видятся.")]
        assert lacks == [f"'{targets[0]}'"]  # the translation has войска only


def test_what_patterns_match_is_remembered_per_term_list(tmp_path: Path):
    # the same regular expressions in another order, or beside other terms, are another term list
    first = _terms(tmp_path, "terms:\n  - source: '\\bход\\w*'\n    target: turn\n  - source: 'раунд\\w*'\n    target: round\n")
    second = _terms(tmp_path, "terms:\n  - source: 'раунд\\w*'\n    target: round\n  - source: '\\bход\\w*'\n    target: turn\n")
    third = _terms(tmp_path, "terms:\n  - source: пехота\n    target: infantry\n" + TERMS.split("\n", 1)[1])
    for _ in range(2):
        assert [t.term.target[0] for t in TermIndex(first).used_in("Ход раунда")] == ["turn", "round"]
        assert [t.term.target[0] for t in TermIndex(second).used_in("Ход раунда")] == ["round", "turn"]
        assert [t.term.target[0] for t in TermIndex(second).used_in("Раунд")] == ["round"]
        assert [t.term.target[0] for t in TermIndex(third).used_in("Набери 10 ОК.")] == ["control point"]
        assert [t.term.target[0] for t in TermIndex(_terms(tmp_path)).used_in("Набери 10 ОК.")] == ["control point"]
