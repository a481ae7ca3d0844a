"""The numbers of a worked example's prose are claims the checker verifies: each is bound to
its check block ([3]{result=hits}) or marked free ([1]{.free}); a wrong one fails `check` at
its own line, a translation that changes one fails `validate` at its PO entry, and one bound
to nothing is a warning that `--strict` makes a failure."""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from generator.checker.examples import game_examples
from generator.checker.prose import example_claims
from generator.checker.report import as_dict, summary_text
from generator.checks.trial import check_project
from generator.commands.new import scaffold
from generator.core.diagnostics import Report
from generator.project import Project
from generator.text.claims import Binding, claims, compare, plain
from generator.text.markdown import parser
from generator.text.numbers import numerals, value_of

from .conftest import REPO, run_cli

GAMES = ("battle-rules", "deadzone", "frames", "nuclear", "rock-n-roll")

# Frames and Nuclear print no worked example (their sources have none): the test gives a
# copy one, its numbers bound to a check block of the game's own procedures.
ADDED = {
    "frames": ("[Три]{input=attacks} кости прямой наводкой показали [4]{die=1}, [5]{die=2} и [6]{die=3}: "
               "Фрейм получает [два]{result=target_damage} урона.",
               "procedure: damage\ninputs: {attacks: 3, band: directed}\ndice: [4, 5, 6]\n"
               "expect: {target_damage: 2, misses: 1}",
               "[Three]{input=attacks} dice at point-blank range show [4]{die=1}, [5]{die=2} and [6]{die=3}: "
               "the Frame takes [two]{result=target_damage} damage."),
    "nuclear": ("Ветераны стреляют по солдатам: [три]{result=hits} попадания, [одно]{result=saves} спасение, "
                "в отряде остаётся [8]{result=models_left} моделей.",
                "procedure: shooting\ninputs: {attacker: veterans, target: soldiers}\n"
                "dice: [4, 5, 2, 6, 1, 4, 2, 1]\nexpect: {hits: 3, saves: 1, wounds: 2, models_left: 8}",
                "The veterans shoot at the soldiers: [three]{result=hits} hits, [one]{result=saves} save, "
                "and [8]{result=models_left} models are left in the squad."),
}
# game: (chapter, bound number as shipped, planted, what the run gives; the same in en.po)
PLANTS = {
    "battle-rules": ("rules/03-phases.md", "[10]{result=models_before}", "[12]{result=models_before}", "10",
                     "[10]{result=models_before} scouts", "[11]{result=models_before} scouts"),
    "deadzone": ("rules/06-damage.md", "[нуля]{result=armour}", "[одного]{result=armour}", "0",
                 "[zero]{result=armour}", "[one]{result=armour}"),
    "rock-n-roll": ("rules/10-locals.md", "[двум]{result=attacks check=2}", "[трём]{result=attacks check=2}", "2",
                    "[two]{result=attacks check=2}", "[three]{result=attacks check=2}"),
    "frames": ("rules/99-example.md", "[два]{result=target_damage}", "[три]{result=target_damage}", "2",
               "[two]{result=target_damage}", "[three]{result=target_damage}"),
    "nuclear": ("rules/99-example.md", "[три]{result=hits}", "[четыре]{result=hits}", "3",
                "[three]{result=hits}", "[four]{result=hits}"),
}


def copy_game(tmp_path: Path, game: str) -> Path:
    """A project holding a copy of one shipped game (with its added example, if it has none)."""
    folder = tmp_path / "content" / game
    shutil.copytree(REPO / "content" / game, folder, ignore=shutil.ignore_patterns("__pycache__"))
    if game in ADDED:
        ru, block, en = ADDED[game]
        (folder / "rules" / "99-example.md").write_text(
            f"# Пример\n\n::: example planted\n{ru}\n\n```check\n{block}\n```\n:::\n", encoding="utf-8")
        with (folder / "locale" / "en.po").open("a", encoding="utf-8") as po:
            po.write(f'\n#: rules/99-example.md:1\nmsgid "Пример"\nmsgstr "Example"\n'
                     f'\n#: rules/99-example.md:4\nmsgid "{ru}"\nmsgstr "{en}"\n')
    return tmp_path


def replace(path: Path, old: str, new: str) -> tuple[int, int]:
    """Replace the one occurrence of `old`; the line and column where it stood."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")
    before = text[:text.index(old)]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def validate(root: Path, game: str) -> Report:
    report = Report()
    Project(root).load(game, report)
    return report


# --- numbers as written ---------------------------------------------------------------------

@pytest.mark.parametrize("word, value", [
    ("три", 3), ("Трёх", 3), ("трех", 3), ("одну", 1), ("одного", 1), ("двум", 2), ("двумя", 2), ("обоими", 2),
    ("нуля", 0), ("четырьмя", 4), ("десяти", 10), ("трое", 3), ("пятерых", 5), ("единицы", 1), ("единицей", 1), ("шестёрку", 6),
    ("шестерок", 6),
])
def test_russian_number_words_in_every_case_are_numbers(word, value):
    assert value_of(word, "ru") == value
    assert [n.value for n in numerals(f"выпало {word} подряд", "ru")] == [value]


@pytest.mark.parametrize("word, value", [("three", 3), ("Two", 2), ("both", 2), ("twice", 2), ("zero", 0),
                                         ("twelve", 12)])
def test_english_number_words_are_numbers(word, value):
    assert value_of(word, "en") == value


def test_words_not_in_the_table_are_not_numbers():
    assert list(numerals("первым делом, единство, someone once was the first", "ru")) == []
    assert list(numerals("someone once was the first", "en")) == []
    assert value_of("drei", "de") == 3 and value_of("drei", "en") is None


def test_digits_inside_words_and_decimals_are_read():
    found = numerals("two 1s, 0,5 and 4+", "en")
    assert [(n.text, n.value) for n in found] == [("two", 2), ("1", 1), ("0,5", Fraction(1, 2)), ("4", 4)]


# --- the markup -----------------------------------------------------------------------------

def test_claims_of_a_paragraph_are_bound_free_or_unbound():
    found = claims("Roll [3]{input=dice_count} dice: [two]{result=hits check=2}, [5]{die=1}, "
                   "**Example [1]{.free}**, and 4 more. {{ calc:x(n=7).P(hits) }} `9`", "en")
    assert [(c.text, c.value, c.state) for c in found] == [
        ("3", 3, "bound"), ("two", 2, "bound"), ("5", 5, "bound"), ("1", 1, "free"), ("4", 4, "unbound")]
    assert found[0].binding == Binding("input", "dice_count")
    assert found[1].binding == Binding("result", "hits", 2)
    assert found[2].binding == Binding("die", "1")


@pytest.mark.parametrize("markup, problem", [
    ("[3]{resutl=hits}", "unknown binding 'resutl'"),
    ("[3]{result=hits input=n}", "one binding per number"),
    ("[3]{.free result=hits}", "either bound or free"),
    ("[three men]{result=killed}", "is not a number"),
    ("[3]{die=first}", "the dice shown count from 1"),
    ("[3]{result=hits check=0}", "count from 1"),
    ("[3]{die=²}", "die=²: the dice shown count from 1"),  # a digit to str.isdigit, no number to int
    ("[3]{result=hits check=³}", "check=³: the example's check blocks count from 1"),
])
def test_a_binding_that_cannot_be_read_says_why(markup, problem):
    (claim,) = claims(markup, "en")
    assert any(problem in p for p in claim.problems), claim.problems


def test_readers_see_the_words_only():
    text = "Бао выбросил [2]{result=rolls} [единицы]{die=1}, **Пример [1]{.free}** [link](a.html)"
    assert parser().renderInline(text) == 'Бао выбросил 2 единицы, <strong>Пример 1</strong> <a href="a.html">link</a>'
    assert plain(text) == "Бао выбросил 2 единицы, **Пример 1** [link](a.html)"


@pytest.mark.parametrize("translation, problem", [
    ("Kills [three]{result=killed} of [10]{input=men}.", None),
    ("Kills [two]{result=killed} of [10]{input=men}.", "drops [три]{result=killed} = 3; adds [two]{result=killed} = 2"),
    ("Kills three of [10]{input=men}.", "drops [три]{result=killed} = 3; adds 'three' = 3 (unbound)"),
    ("Kills [three]{result=dead} of [10]{input=men}.", "drops [три]{result=killed} = 3; adds [three]{result=dead} = 3"),
    ("Kills [three]{result=killed}.", "drops [10]{input=men}"),
    ("Kills [three]{result=killed} of [10]{input=men}, 2 more.", "adds 2 (unbound)"),
    ("[Example 2]{.free}: kills [three]{result=killed} of [10]{input=men}.", "free text says 2"),
])
def test_a_translation_keeps_every_bound_number(translation, problem):
    source = "[Пример 1]{.free}: убиты [трое]{result=killed} из [10]{input=men}." if "Example" in translation \
        else "Убиты [три]{result=killed} из [10]{input=men}."
    found = compare(source, translation, "ru", "en")
    assert found == problem if problem is None or found is None else problem in found


def test_free_text_may_be_dropped_by_a_translation():
    assert compare("Mai занимает [одну]{.free} точку, [2]{input=order} юнита",
                   "Mai shares a Point, [two]{input=order} units", "ru", "en") is None


# --- the shipped games ----------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_shipped_games_bind_every_number_of_their_examples(game):
    report = validate(REPO, game)
    assert [d.format_text() for d in report.diagnostics if d.code in ("W031", "E038", "E039")] == []
    assert not report.failed(strict=True)  # `rulesmith validate --strict` passes
    examples, _ = game_examples(REPO / "content" / game)
    states = [c.state for e in examples for c, *_ in example_claims(e, "ru")]
    assert "unbound" not in states
    if game not in ADDED:  # Frames and Nuclear have no worked example
        assert states.count("bound") >= 4


def test_check_reports_each_claim_and_the_counts(shipped):
    run = check_project(Project(shipped), ["deadzone"])
    data = as_dict(run, shipped)
    assert data["games"][0]["claims"] == {"bound": 15, "free": 4, "unbound": 0}
    assert "unchecked; prose numbers: 15 bound, 4 free, 0 unbound; consistency rules" in summary_text(run)
    example = next(e for e in data["examples"] if e["id"] == "damage-killed-ap")
    line = (REPO / "content/deadzone/rules/06-damage.md").read_text(encoding="utf-8").splitlines()[25]
    assert example["claims"] == [
        {"file": "content/deadzone/rules/06-damage.md", "line": 26, "column": line.index("[1]{input=ap}") + 1,
         "text": "1", "value": "1", "state": "bound", "binding": "input=ap", "bound_result": "1", "verdict": "pass",
         "message": ""},
        {"file": "content/deadzone/rules/06-damage.md", "line": 26, "column": line.index("[нуля]") + 1,
         "text": "нуля", "value": "0", "state": "bound", "binding": "result=armour", "bound_result": "0",
         "verdict": "pass", "message": ""},
    ]


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_number_in_an_examples_prose_fails_check_at_its_line(tmp_path, game):
    root = copy_game(tmp_path, game)
    chapter, shipped, planted, actual, *_ = PLANTS[game]
    ok = run_cli("check", game, cwd=root)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    line, col = replace(root / "content" / game / chapter, shipped, planted)
    result = run_cli("check", game, cwd=root)
    said = planted[1:planted.index("]")]
    assert result.returncode == 1
    assert f"content/{game}/{chapter}:{line}:{col}: the text says {said}, the rules give {actual}" in result.stdout


@pytest.mark.parametrize("game", GAMES)
def test_a_changed_number_in_a_translated_example_fails_validation_at_its_po_entry(tmp_path, game):
    root = copy_game(tmp_path, game)
    *_, shipped, planted = PLANTS[game]
    assert [d for d in validate(root, game).diagnostics if d.code == "E039"] == []
    line, _ = replace(root / "content" / game / "locale" / "en.po", shipped, planted)
    found = [d for d in validate(root, game).errors if d.code == "E039"]
    assert [(d.location.path.name, d.location.line) for d in found] == [("en.po", line)]
    assert "changes its claims" in found[0].message


def test_a_lost_binding_in_a_translation_fails_validation(tmp_path):
    root = copy_game(tmp_path, "rock-n-roll")
    line, _ = replace(root / "content/rock-n-roll/locale/en.po", "[both]{input=point}", "both")
    (found,) = [d for d in validate(root, "rock-n-roll").errors if d.code == "E039"]
    assert found.location.line == line and "drops [обоими]{input=point} = 2; adds 'both' = 2 (unbound)" in found.message


def test_an_unbound_number_is_a_warning_with_its_place_and_strict_fails(tmp_path):
    root = copy_game(tmp_path, "deadzone")
    line, col = replace(root / "content/deadzone/rules/06-damage.md", "[1]{input=ap}", "1")
    (found,) = [d for d in validate(root, "deadzone").diagnostics if d.code == "W031"]
    assert (found.location.line, found.location.col) == (line, col)
    assert "[1]{result=NAME}" in found.hint and "[1]{.free}" in found.hint
    lax = run_cli("validate", "deadzone", cwd=root)
    strict = run_cli("validate", "deadzone", "--strict", cwd=root)
    assert lax.returncode == 0 and strict.returncode == 1
    assert f"content/deadzone/rules/06-damage.md:{line}:{col}: warning[W031]" in strict.stdout + strict.stderr


def test_a_binding_to_nothing_the_block_holds_is_an_error(tmp_path):
    root = copy_game(tmp_path, "deadzone")
    line, col = replace(root / "content/deadzone/rules/06-damage.md", "[1]{input=ap}", "[1]{input=armour-piercing}")
    (found,) = [d for d in validate(root, "deadzone").errors if d.code == "E038"]
    assert (found.location.line, found.location.col) == (line, col)
    assert "gives no input 'armour-piercing'" in found.message


def _planted_erratum(root: Path) -> None:
    folder = root / "content/deadzone"
    with (folder / "data/errata.yaml").open("a", encoding="utf-8") as f:
        f.write("  - id: planted-armour\n    category: inconsistency\n"
                "    summary: Пример говорит, что Броня падает до одного; по правилам она падает до нуля.\n"
                "    source: уменьшило Броню до одного\n    reading: до нуля\n")
    with (folder / "ERRATA.md").open("a", encoding="utf-8") as f:
        f.write("\n- `planted-armour`: the example says the Armour falls to one; the rules give zero.\n")


def test_a_number_the_source_gets_wrong_is_kept_with_its_erratum(tmp_path):
    root = copy_game(tmp_path, "deadzone")
    _planted_erratum(root)
    chapter = root / "content/deadzone/rules/06-damage.md"
    line, col = replace(chapter, "[нуля]{result=armour}", "[одного]{result=armour erratum=planted-armour}")
    assert [d.format_text() for d in validate(root, "deadzone").errors] == []  # the erratum counts as cited
    result = run_cli("check", "deadzone", "--format", "json", cwd=root)
    assert result.returncode == 0, result.stdout
    data = json.loads(result.stdout)
    (claim,) = [c for e in data["examples"] for c in e["claims"] if c["verdict"] == "erratum"]
    assert (claim["line"], claim["column"], claim["text"], claim["bound_result"]) == (line, col, "одного", "0")


def test_an_erratum_on_a_number_the_rules_agree_with_fails(tmp_path):
    root = copy_game(tmp_path, "deadzone")
    _planted_erratum(root)
    chapter = root / "content/deadzone/rules/06-damage.md"
    line, col = replace(chapter, "[нуля]{result=armour}", "[нуля]{result=armour erratum=planted-armour}")
    result = run_cli("check", "deadzone", cwd=root)
    assert result.returncode == 1
    assert (f"06-damage.md:{line}:{col}: the text says нуля and the rules agree, but erratum 'planted-armour' "
            "says they differ") in result.stdout


def test_an_unknown_erratum_on_a_number_is_an_error(tmp_path):
    root = copy_game(tmp_path, "deadzone")
    line, col = replace(root / "content/deadzone/rules/06-damage.md", "[нуля]{result=armour}",
                        "[нуля]{result=armour erratum=no-such-erratum}")
    (found,) = [d for d in validate(root, "deadzone").errors if d.code == "E007"]
    assert (found.location.line, found.location.col) == (line, col) and "no-such-erratum" in found.message


def test_a_rendered_example_shows_the_words_and_its_headings_anchor_on_them(tmp_path):
    from generator.i18n.translate import Translator
    from generator.text.chapters import load_chapter
    from generator.text.render import RenderContext, render_chapter

    from .conftest import Workspace

    ws = Workspace(tmp_path)
    game = Project(ws.root).load("demo", Report())
    chapter = load_chapter(ws.game / "rules" / "x.md", text=(
        "# Shooting\n\n::: example volley\n## Example [2]{.free}\n\n"
        "The Scouts roll a [5]{die=1}: [one]{result=hits} hit.\n:::\n"))
    html = str(render_chapter(chapter, RenderContext(game, Translator(game, "en"), "site", lambda r: None, {})).html)
    assert 'id="example-2"' in html and "Example 2</h2>" in html
    assert "The Scouts roll a 5: one hit." in html and "{" not in html


def test_a_superscript_die_is_one_error_at_its_place_not_a_traceback(tmp_path):
    scaffold(tmp_path / "content/demo", "demo", "Demo", complete=True)
    line, col = replace(tmp_path / "content/demo/rules/01-basics.md", "[2]{die=2}", "[2]{die=²}")
    result = run_cli("--root", str(tmp_path), "validate")
    text = result.stdout + result.stderr
    assert result.returncode == 1 and "Traceback" not in text, text
    (error,) = [row for row in text.splitlines() if "error[" in row]
    assert error.startswith(f"content/demo/rules/01-basics.md:{line}:{col}: error[E038]")
    assert "die=²: the dice shown count from 1" in error


def test_binding_markup_outside_an_example_is_an_error(tmp_path):
    root = copy_game(tmp_path, "deadzone")
    chapter = root / "content/deadzone/rules/06-damage.md"
    text = chapter.read_text(encoding="utf-8")
    chapter.write_text(text + "\nКаждый тест бросает [3]{input=dice_count} кости.\n", encoding="utf-8")
    (found,) = [d for d in validate(root, "deadzone").errors if d.code == "E038"]
    assert (found.location.line, found.location.col) == (text.count("\n") + 2, 21)
    assert "stands outside a worked example" in found.message


def test_a_wrong_prose_number_is_a_workflow_annotation_on_its_line(tmp_path):
    root = copy_game(tmp_path, "deadzone")
    line, _ = replace(root / "content/deadzone/rules/06-damage.md", "[нуля]{result=armour}", "[одного]{result=armour}")
    result = run_cli("check", "deadzone", "--format", "github", cwd=root)
    assert result.returncode == 1
    assert (f"::error file=content/deadzone/rules/06-damage.md,line={line},title=example damage-killed-ap::"
            "the text says одного, the rules give 0 (result=armour)") in result.stdout


def test_an_example_without_a_check_block_is_told_to_get_one(tmp_path):
    from .conftest import Workspace

    ws = Workspace(tmp_path)
    ws.write("rules/01-rules.md", "# Rules\n\n::: example unchecked\nThe Scouts roll a 5: one hit.\n:::\n")
    found = [d for d in ws.validate().diagnostics if d.code == "W031"]
    assert [(d.location.line, d.location.col) for d in found] == [(4, 19), (4, 22)]
    assert "no ```check block" in found[0].hint


def _changed(text: str, claim) -> str:
    """The paragraph with one number written one higher, its binding kept."""
    return text[:claim.start] + text[claim.start:claim.end].replace(f"[{claim.text}]", f"[{claim.value + 1}]", 1) \
        + text[claim.end:]


@pytest.mark.parametrize("game", [g for g in GAMES if g not in ADDED])
def test_changing_any_bound_number_of_a_shipped_example_fails_in_either_language(game):
    """Every bound number of every worked example: one higher in the Russian text fails the
    check at its place; one higher in the English translation fails the catalog comparison."""
    import dataclasses

    import polib

    from generator.checker.procedures import load_procedures
    from generator.checker.prose import check_claims
    from generator.checker.runner import _run_block
    from generator.i18n.messages import normalize

    loaded = Project(REPO).load(game, Report())
    procedures = load_procedures(loaded.folder)
    examples, _ = game_examples(loaded.folder)
    catalog = {e.msgid: e.msgstr for e in polib.pofile(str(loaded.folder / "locale" / "en.po"))}
    tried = 0
    for example in (e for e in examples if e.kind == "example"):
        outcomes = [_run_block(loaded, block, procedures)[1] for block in example.checks]
        for i, paragraph in enumerate(example.prose):
            translation = catalog[normalize(paragraph.text)]
            for claim in (c for c in claims(paragraph.text, "ru") if c.binding):
                prose = list(example.prose)
                prose[i] = dataclasses.replace(paragraph, text=_changed(paragraph.text, claim))
                verdicts = check_claims(dataclasses.replace(example, prose=prose), outcomes, "ru")
                where = paragraph.place(claim.start)
                assert [(c.line, c.col) for c in verdicts if c.failed] == [where], (example.id, claim.text)
                tried += 1
            for claim in (c for c in claims(translation, "en") if c.binding or c.free):
                assert compare(normalize(paragraph.text), _changed(translation, claim), "ru", "en"), claim.text
    assert tried >= 4


@pytest.mark.parametrize("text, lang, found", [
    ("Юнит не уничтожен, и ни одна карта не сыграна.", "ru", ["не", "ни", "не"]),
    ("The unit is not destroyed; no card is played and it can’t move.", "en", ["not", "no", "n’t"]),
    ("Die Einheit wird nicht zerstört, keine Karte wird gespielt.", "de", ["nicht", "keine"]),
    ("Нетерпеливый юнит нанёс удар.", "ru", []),     # a word that begins like "нет" is not one
    ("Notably, the unit is nowhere near.", "en", []),
    ("La unidad no está destruida.", "es", []),       # a language the table does not hold
])
def test_negating_words_are_read_in_each_language(text, lang, found):
    from generator.text.negation import negations

    assert negations(text, lang) == found


def test_a_translated_example_that_loses_its_negation_fails_validation(tmp_path):
    root = copy_game(tmp_path, "rock-n-roll")
    po = root / "content/rock-n-roll/locale/en.po"
    assert [d for d in validate(root, "rock-n-roll").diagnostics if d.code == "E039"] == []
    line, _ = replace(po, "has no spare cards for rerolls and discarding units doesn’t pay",
                      "has spare cards for rerolls and discarding units pays")
    (found,) = [d for d in validate(root, "rock-n-roll").errors if d.code == "E039"]
    assert found.location.line == line
    assert "negation lost: the source says «нет»" in found.message


def test_a_translated_example_that_adds_a_negation_fails_validation(tmp_path):
    root = copy_game(tmp_path, "rock-n-roll")
    line, _ = replace(root / "content/rock-n-roll/locale/en.po", "Zulu fires on it first",
                      "Zulu does not fire on it first")
    (found,) = [d for d in validate(root, "rock-n-roll").errors if d.code == "E039"]
    assert found.location.line == line and "negation added: the translation says «not»" in found.message
