"""`rulesmith check` as a designer meets it: examples pass or fail with file:line and
expected-vs-actual, data changes are caught, bad check blocks are diagnostics (E030–E034),
exit codes, the JSON report, verified example ids for renderers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.checker import verified_examples
from generator.cli import cli
from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import Workspace, line_of

PROCEDURES = '''\
"""Demo procedures."""
from generator.checker import consistency, procedure, table, exact
from generator.model import Unit, Weapon
from generator.values import Target


@procedure("shoot")
def shoot(game, dice, unit: Unit, shots: int = 1, cover: bool = False) -> dict:
    """Hits on the unit's quality, one worse in cover."""
    target = game.stat(unit, "quality").number + (1 if cover else 0)
    return {"threshold": Target(target), "hits": dice.successes(shots, target)}


@procedure
def volley(game, dice, weapon: Weapon) -> int:
    return dice.successes(game.stat(weapon, "attacks"), 4)


@procedure("broken")
def broken(game, dice) -> dict:
    return {"x": 1 // 0}


@table("hit-chances", title="Hit chances", columns={"unit": "Unit", "hit": "P(hit)"})
def hit_chances(game):
    return [{"unit": u, "hit": exact(shoot, game, {"unit": u}).probability("hits == 1")}
            for u in game.units.values()]


@consistency("victory-is-positive")
def victory_is_positive(game):
    if game.parameter("victory-points") <= 0:
        yield "victory-points must be positive"
'''

CHAPTER = '''\
# Shooting

Scouts shoot.

::: example scouts-shoot
[Two]{input=shots} shots from Scouts in cover hit on [5]{result=threshold}+.

```check
procedure: shoot
inputs: {unit: scouts, shots: 2, cover: true}
dice: [5, 3]
expect: {threshold: 5+, hits: 1}
exact: {"P(hits >= 1)": 5/9}
```
:::

::: example prose-only
An example nobody checks yet.
:::
'''


@pytest.fixture
def demo(ws: Workspace) -> Workspace:
    ws.write("procedures.py", PROCEDURES)
    ws.write("rules/01-shooting.md", CHAPTER)
    return ws


def check(ws: Workspace, *args: str):
    return CliRunner().invoke(cli, ["--root", str(ws.root), "check", *args])


def codes(report: Report) -> dict[str, list]:
    out: dict[str, list] = {}
    for d in report.diagnostics:
        out.setdefault(d.code, []).append(d)
    return out


def load(ws: Workspace):
    report = Report()
    game = Project(ws.root).load("demo", report)
    return game, report


# --- passing and failing -------------------------------------------------------------------

def test_examples_pass_and_unchecked_are_listed(demo: Workspace):
    result = check(demo)
    assert result.exit_code == 0, result.output
    assert "PASS      content/demo/rules/01-shooting.md:5 scouts-shoot" in result.output
    assert "UNCHECKED content/demo/rules/01-shooting.md:17 prose-only" in result.output
    assert "rule victory-is-positive" in result.output
    assert "demo: 2 examples: 1 passed, 0 failed, 1 unchecked" in result.output


def test_wrong_example_names_file_line_expected_and_actual(demo: Workspace):
    path = demo.edit("rules/01-shooting.md", "expect: {threshold: 5+, hits: 1}", "expect: {threshold: 5+, hits: 2}")
    result = check(demo)
    assert result.exit_code == 1
    line = line_of(path, "expect: {threshold")
    assert "FAIL      content/demo/rules/01-shooting.md:5 scouts-shoot" in result.output
    assert f"  content/demo/rules/01-shooting.md:{line}: shoot with dice [5, 3]: hits\n" \
           "    expected: 2\n    actual:   1" in result.output
    assert "demo: 2 examples: 0 passed, 1 failed, 1 unchecked" in result.output


def test_wrong_probability_names_its_line(demo: Workspace):
    path = demo.edit("rules/01-shooting.md", '"P(hits >= 1)": 5/9', '"P(hits >= 1)": 1/2')
    result = check(demo)
    assert result.exit_code == 1
    line = line_of(path, '"P(hits >= 1)"')
    assert f"01-shooting.md:{line}: shoot, exactly: P(hits >= 1)" in result.output
    assert "expected: 1/2 (≈ 50.00%)" in result.output and "actual:   5/9 (≈ 55.56%)" in result.output


def test_changing_a_stat_fails_the_example_that_depends_on_it(demo: Workspace):
    assert check(demo).exit_code == 0
    demo.edit("data/units.yaml", "quality: 4+", "quality: 3+")
    result = check(demo, "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    failed = [e for e in report["examples"] if e["result"] == "fail"]
    assert [(e["id"], e["file"], e["line"]) for e in failed] == [("scouts-shoot", "content/demo/rules/01-shooting.md", 5)]
    mismatch = failed[0]["checks"][0]["mismatches"]
    assert {"what": "threshold", "expected": "5+", "actual": "4+"}.items() <= mismatch[0].items()


def test_script_that_does_not_fit_the_rolls_fails(demo: Workspace):
    demo.edit("rules/01-shooting.md", "dice: [5, 3]", "dice: [5]")
    result = check(demo)
    assert result.exit_code == 1
    assert "the procedure rolls die 2 (a d6); the example scripts 1 die: [5]" in result.output


def test_consistency_rule_failure(demo: Workspace):
    demo.edit("../../content/demo/game.yaml", "value: 10", "value: -1")
    result = check(demo)
    assert result.exit_code == 1
    assert "FAIL      content/demo/procedures.py:" in result.output and "victory-points must be positive" in result.output


def test_crashing_procedure_is_an_error_with_its_line_not_a_traceback(demo: Workspace):
    demo.write("rules/02-more.md",
               "# More\n\n::: example crash\nText.\n\n```check\nprocedure: broken\nexpect: {x: 1}\n```\n:::\n")
    result = check(demo)
    assert result.exit_code == 1
    line = line_of(demo.game / "procedures.py", "1 // 0")
    assert f"content/demo/procedures.py:{line}: the procedure raised ZeroDivisionError" in result.output
    assert "Traceback" not in result.output


# --- the report -----------------------------------------------------------------------------

def test_json_report_shape(demo: Workspace):
    result = check(demo, "--format", "json")
    assert result.exit_code == 0
    report = json.loads(result.output)
    assert set(report) == {"passed", "games", "summary", "examples", "stray_checks", "rules", "diagnostics"}
    assert report["passed"] is True
    assert report["games"] == [{"game": "demo", "passed": True, "claims": {"bound": 2, "free": 0, "unbound": 0}}]
    assert report["summary"] == {"examples": 2, "pass": 1, "fail": 0, "error": 0, "unchecked": 1,
                                 "rules": 1, "rules_failed": 0, "errors": 0}
    first, second = report["examples"]
    assert {k: first[k] for k in ("game", "id", "file", "line", "result")} == {
        "game": "demo", "id": "scouts-shoot", "file": "content/demo/rules/01-shooting.md", "line": 5, "result": "pass"}
    assert first["checks"] == [{"line": 8, "procedure": "shoot", "dice": [5, 3], "result": "pass",
                                "mismatches": [], "messages": []}]
    assert [(c["line"], c["column"], c["text"], c["binding"], c["bound_result"], c["verdict"]) for c in first["claims"]] == [
        (6, 1, "Two", "input=shots", "2", "pass"), (6, 54, "5", "result=threshold", "5+", "pass")]
    assert second["id"] == "prose-only" and second["result"] == "unchecked" and second["checks"] == []
    assert report["rules"][0]["id"] == "victory-is-positive" and report["rules"][0]["result"] == "pass"


def test_github_annotations(demo: Workspace):
    path = demo.edit("rules/01-shooting.md", "hits: 1}", "hits: 0}")
    result = check(demo, "--format", "github")
    assert result.exit_code == 1
    line = line_of(path, "hits: 0}")
    assert (f"::error file=content/demo/rules/01-shooting.md,line={line},title=example scouts-shoot::"
            "shoot with dice [5, 3]: hits: expected 0, actual 1") in result.output


def test_exit_codes_through_the_command_line(demo: Workspace):
    assert demo.run("check").returncode == 0
    assert demo.run("check", "dmeo").returncode == 2
    demo.edit("rules/01-shooting.md", "hits: 1}", "hits: 2}")
    broken = demo.run("check", "demo")
    assert broken.returncode == 1 and "FAIL" in broken.stdout and "Traceback" not in broken.stderr


def test_verified_examples_for_renderers(demo: Workspace):
    game, _ = load(demo)
    assert verified_examples(game) == {"scouts-shoot": True}
    demo.edit("rules/01-shooting.md", "hits: 1}", "hits: 2}")
    game, _ = load(demo)
    assert verified_examples(game) == {"scouts-shoot": False}


# --- check blocks that cannot run: validate diagnostics ------------------------------------

def test_e030_check_block_outside_an_example(demo: Workspace):
    path = demo.write("rules/02-loose.md", "# Loose\n\n```check\nprocedure: shoot\ninputs: {unit: scouts}\n"
                                            "expect: {hits: 0}\ndice: [1]\n```\n")
    game, report = load(demo)
    d = codes(report)["E030"][0]
    assert d.location.path == path and d.location.line == 3
    result = check(demo)
    assert result.exit_code == 1 and "(outside any example)" in result.output


def test_e031_unknown_procedure_did_you_mean(demo: Workspace):
    path = demo.edit("rules/01-shooting.md", "procedure: shoot", "procedure: shot")
    _, report = load(demo)
    d = codes(report)["E031"][0]
    assert d.location.path == path and d.location.line == line_of(path, "procedure: shot")
    assert "did you mean 'shoot'" in d.hint
    result = demo.run("validate")
    assert result.returncode == 1 and f"01-shooting.md:{d.location.line}:" in result.stdout


def test_e031_game_without_procedures(ws: Workspace):
    ws.write("rules/01-a.md", "# A\n\n::: example a\nText.\n\n```check\nprocedure: roll\nexact: {'P(x)': 1}\n```\n:::\n")
    _, report = load(ws)
    assert "has no procedures.py" in codes(report)["E031"][0].hint


def test_e032_bad_yaml_in_a_check_block(demo: Workspace):
    path = demo.edit("rules/01-shooting.md", "dice: [5, 3]", "dice: [5, 3")
    _, report = load(demo)
    d = codes(report)["E032"][0]
    assert d.location.path == path and line_of(path, "procedure: shoot") <= d.location.line <= line_of(path, "exact:") + 1


def test_e032_unknown_key_and_nothing_to_check(demo: Workspace):
    path = demo.edit("rules/01-shooting.md", "expect: {threshold", "expected: {threshold")
    _, report = load(demo)
    messages = {d.message: d for d in codes(report)["E032"]}
    unknown = messages["unknown key 'expected' in a check block"]
    assert unknown.location.line == line_of(path, "expected:") and "did you mean 'expect'" in unknown.hint
    assert "'dice' without 'expect': nothing compares the run with those dice" in messages


def test_e033_inputs_that_do_not_fit(demo: Workspace):
    path = demo.edit("rules/01-shooting.md", "inputs: {unit: scouts, shots: 2, cover: true}",
                     "inputs: {unit: scouts, shot: 2, cover: yes please}")
    _, report = load(demo)
    found = {d.message: d for d in codes(report)["E033"]}
    assert "procedure 'shoot' has no input 'shot'" in found
    assert found["procedure 'shoot' has no input 'shot'"].hint == "did you mean 'shots'?"
    assert "cover: expected true or false, got 'yes please'" in found
    assert all(d.location.line == line_of(path, "shot: 2") for d in found.values())


def test_e007_unknown_record_in_inputs(demo: Workspace):
    path = demo.edit("rules/01-shooting.md", "inputs: {unit: scouts,", "inputs: {unit: scout,")
    _, report = load(demo)
    d = codes(report)["E007"][0]
    assert d.message == "unit: unknown unit 'scout'" and "did you mean 'scouts'" in d.hint
    assert d.location.path == path and d.location.line == line_of(path, "unit: scout,")


def test_e034_procedures_module_with_a_syntax_error(demo: Workspace):
    path = demo.edit("procedures.py", "    return dice.successes(game.stat(weapon, \"attacks\"), 4)",
                     "    return dice.successes(game.stat(weapon, \"attacks\"), 4")
    _, report = load(demo)
    d = codes(report)["E034"][0]
    assert d.location.path.resolve() == path.resolve() and d.location.line >= line_of(path, "def volley")
    assert "syntax error" in d.message
    assert "E031" not in codes(report)  # the blocks cannot find 'shoot' now; E034 is the one cause


def test_e034_procedure_declared_twice(demo: Workspace):
    demo.edit("procedures.py", '@procedure("broken")', '@procedure("shoot")')
    _, report = load(demo)
    d = codes(report)["E034"][0]
    # cited at its declaration, the decorator line above the def
    assert "declared twice" in d.message and d.location.line == line_of(demo.game / "procedures.py", "def broken") - 1


def test_shipped_examples_validate_clean_with_check_blocks(demo: Workspace):
    _, report = load(demo)
    assert report.diagnostics == []


# --- tables ---------------------------------------------------------------------------------

def test_tables_written_as_csv_and_json(demo: Workspace):
    result = check(demo, "--tables")
    assert result.exit_code == 0, result.output
    folder = demo.root / "output" / "demo" / "tables"
    assert (folder / "hit-chances.csv").read_text().splitlines() == ["unit,hit", "scouts,0.500000"]
    data = json.loads((folder / "hit-chances.json").read_text())
    assert data["columns"] == [{"id": "unit", "name": "Unit"}, {"id": "hit", "name": "P(hit)"}]
    assert data["rows"] == [{"unit": "Scouts", "hit": "50.0%"}]
    assert data["exact"] == [{"unit": "scouts", "hit": "1/2"}]


def test_every_public_name_is_documented():
    """docs/checker.md is what procedure writers work from: each public name must be in it."""
    import inspect as _inspect

    import generator.checker as checker
    from generator.checker import Dice

    doc = (Path(__file__).resolve().parents[1] / "docs" / "checker.md").read_text(encoding="utf-8")
    names = [n for n in checker.__all__ if n not in {"CheckRun", "GameResult", "Procedures", "Outcome"}]
    methods = [n for n, _ in _inspect.getmembers(Dice, _inspect.isfunction) if not n.startswith("_")]
    missing = [n for n in names + [f"dice.{m}(" for m in methods] if n not in doc]
    assert not missing, f"not in docs/checker.md: {missing}"
