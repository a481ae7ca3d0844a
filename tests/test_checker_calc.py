"""Computed numbers in the text: `{{ calc:proc(input=value).P(condition) }}`, validated like any
reference and printed the way each language writes numbers."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import pytest

from generator.checker import format_computed, format_number
from generator.checker.calc import Computed
from generator.core.diagnostics import Report
from generator.i18n.translate import Translator
from generator.reading.loader import load_game
from generator.project import Project
from generator.text.chapters import load_chapter
from generator.text.refs import Ref, RefError, is_block, resolve
from generator.text.render import RenderContext, render_chapter

from .conftest import Workspace, line_of
from .test_checker import CHAPTER, PROCEDURES

NBSP = "\u00a0"


@pytest.mark.parametrize("value,fmt,lang,digits,text", [
    (Fraction(1, 2), "percent", "ru", None, f"50{NBSP}%"),
    (Fraction(1, 2), "percent", "en", None, "50%"),
    (Fraction(5, 9), "percent", "ru", 1, f"55,6{NBSP}%"),
    (Fraction(5, 9), "percent", "en", 1, "55.6%"),
    (Fraction(1, 8), "percent", "en", None, "13%"),      # 12.5 rounds half up
    (Fraction(1, 2), "decimal", "ru", None, "0,5"),
    (Fraction(1, 2), "decimal", "en", None, "0.5"),
    (Fraction(11, 2), "decimal", "ru", None, "5,5"),
    (Fraction(7, 3), "decimal", "en", 3, "2.333"),
    (Fraction(3), "decimal", "en", None, "3"),
    (Fraction(115, 216), "fraction", "ru", None, "115/216"),
    (Fraction(0), "percent", "ru", None, f"0{NBSP}%"),
    (Fraction(1, 2), "percent", "ru-RU", None, f"50{NBSP}%"),
])
def test_numbers_as_each_language_writes_them(value, fmt, lang, digits, text):
    assert format_number(value, fmt, lang, digits) == text


def test_parse_computed_number():
    ref = Ref.parse("calc:shoot(unit=scouts, shots=2, cover=true).P(hits >= 1) as percent(1)")
    assert (ref.kind, ref.id, ref.args, ref.stat, ref.fmt, ref.digits) == (
        "calc", "shoot", (("unit", "scouts"), ("shots", 2), ("cover", True)), "P(hits >= 1)", "percent", 1)
    assert Ref.parse("calc:missile-roll().E(total)").args == ()
    assert Ref.parse("calc:damage(band=melee, dice=[4, 5]).E(total)").args == (("band", "melee"), ("dice", [4, 5]))


@pytest.mark.parametrize("text,needle", [
    ("calc:shoot", "is not a computed number"),
    ("calc:shoot(unit=scouts)", "is not a computed number"),
    ("calc:shoot(unit=scouts).Q(hits)", "is not a computed number"),
    ("calc:shoot(scouts).P(hits >= 1)", "cannot read the inputs"),
    ("calc:shoot(unit=scouts).P(hits >= 1) as percentage", "unknown number format"),
])
def test_malformed_computed_numbers_are_e019(text, needle):
    with pytest.raises(RefError) as caught:
        Ref.parse(text)
    assert caught.value.code == "E019" and needle in str(caught.value)


@pytest.fixture
def demo(ws: Workspace) -> Workspace:
    ws.write("procedures.py", PROCEDURES)
    ws.write("rules/01-shooting.md", CHAPTER)
    return ws


def load(ws: Workspace):
    report = Report()
    return Project(ws.root).load("demo", report), report


def test_computed_number_resolves_and_prints_per_language(demo: Workspace):
    demo.write("rules/02-odds.md", "# Odds\n\nTwo shots in cover hit at least once "
                                   "{{ calc:shoot(unit=scouts, shots=2, cover=true).P(hits >= 1) }} of the time, "
                                   "{{ calc:shoot(unit=scouts, shots=2).E(hits) as decimal }} hits on average.\n")
    game, report = load(demo)
    assert report.diagnostics == []
    resolved = resolve(game, Ref.parse("calc:shoot(unit=scouts, shots=2, cover=true).P(hits >= 1)"))
    assert isinstance(resolved.value, Computed) and resolved.value.value == Fraction(5, 9)
    assert resolved.text() == "56%"                      # the demo's source language is en
    assert format_computed(resolved.value, "ru") == f"56{NBSP}%"
    mean = resolve(game, Ref.parse("calc:shoot(unit=scouts, shots=2).E(hits) as decimal"))
    assert mean.text() == "1" and mean.value.value == 1


@pytest.mark.parametrize("ref,code,needle", [
    ("calc:shot(unit=scouts).P(hits >= 1)", "E031", "unknown procedure 'shot'"),
    ("calc:shoot(unit=scout).P(hits >= 1)", "E007", "unknown unit 'scout'"),
    ("calc:shoot(unit=scouts, shot=2).P(hits >= 1)", "E033", "has no input 'shot'"),
    ("calc:shoot(unit=scouts).P(kills >= 1)", "E033", "returns no 'kills'"),
    ("calc:broken().E(x)", "E034", "raised ZeroDivisionError"),
    ("calc:shoot(unit=scouts).P(hits >=)", "E019", "is not a condition"),
    ("calc:shot(unit=scouts).P(hits >=)", "E019", "is not a condition"),  # read before the procedure is looked up
])
def test_validate_reports_computed_numbers_that_cannot_be_computed(demo: Workspace, ref, code, needle):
    path = demo.write("rules/02-odds.md", f"# Odds\n\nThe odds are\n{{{{ {ref} }}}} in all.\n")
    _, report = load(demo)
    found = [d for d in report.diagnostics if d.code == code]
    assert found, [d.format_text() for d in report.diagnostics]
    assert needle in found[0].message
    assert found[0].location.path == path and found[0].location.line == line_of(path, "{{")


class Handed:
    """Computations handed to a game as data (text/computed.py), none of them the checker's."""

    def table_ids(self) -> list[str]:
        return ["odds"]

    def table(self, table_id: str):
        return SimpleNamespace(id=table_id, title={"en": "Odds"}, columns=[{"id": "n", "name": "Dice"}],
                               printed_rows=lambda tr: [{"n": f"7 of 9 ({tr.lang})"}])

    def number(self, ref):
        return SimpleNamespace(text=lambda lang: f"{ref.id} as {ref.fmt} in {lang}")


def test_the_text_prints_the_numbers_and_tables_its_game_is_handed(demo: Workspace):
    """The text asks `game.computed` for what the checker computes, and prints what it answers:
    the condition, the procedure and the table are the checker's to read, not the text's."""
    path = demo.write("rules/02-odds.md", "# Odds\n\nOnce in {{ calc:nothing(x=1).P(y) as fraction }}.\n\n"
                                          "{{ table:odds }}\n")
    game, _ = load(demo)
    game.computed = Handed()
    assert resolve(game, Ref.parse("calc:nothing(x=1).P(y) as fraction")).text("ru") == "nothing as fraction in ru"
    assert is_block(resolve(game, Ref.parse("table:odds")))
    ctx = RenderContext(game, Translator.load(game, "en"), "site", lambda record: None)
    html = str(render_chapter(load_chapter(path), ctx).html)
    assert "Once in <span class=\"param\">nothing as fraction in en</span>." in html
    assert '<table class="data-table computed-table" id="table-odds">' in html and "<td>7 of 9 (en)</td>" in html


def test_a_game_loaded_without_its_procedures_computes_nothing(demo: Workspace):
    game = load_game(demo.game, Report())
    assert game.computed is None
    with pytest.raises(RefError) as caught:
        resolve(game, Ref.parse("calc:shoot(unit=scouts).P(hits >= 1)"))
    assert caught.value.code == "E031" and "not available" in str(caught.value)
    with pytest.raises(RefError, match="unknown table 'hit-chances'"):
        resolve(game, Ref.parse("table:hit-chances"))


def test_a_game_computes_each_number_and_table_once(demo: Workspace):
    game, _ = load(demo)
    ref = Ref.parse("calc:shoot(unit=scouts, shots=2).E(hits)")
    assert game.computed.table_ids() == ["hit-chances"]
    assert game.computed.number(ref) is game.computed.number(ref)
    assert game.computed.table("hit-chances") is game.computed.table("hit-chances")
