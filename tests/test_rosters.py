"""Roster rules as data and `rulesmith roster check`: the total and each breach at the list's line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.core.diagnostics import Report
from generator.model.rosters import Roster
from generator.project import Project
from generator.values import is_unstated

from .conftest import REPO, Workspace, line_of, run_cli
from .source_audit import is_source, seed_text

# A small game's roster, as docs/rosters.md writes it: two units besides the scaffold's scouts.
UNITS = """
  - id: captain
    name: Captain
    type: leader
    stats: {quality: 3+, cost: 40}
  - id: sharpshooter
    name: Sharpshooter
    type: infantry
    stats: {quality: 3+, cost: 30}
"""
ROSTERS = """rosters:
  - id: army
    cost:
      stat: cost
      source: "Each unit costs the points its profile gives."
    sizes:
      - id: skirmish
        rule: last-stand
        limit: 150
        source: "A skirmish list costs no more than 150 points."
    limits:
      - type: leader
        min: 1
        max: 1
        source: "Every list has one leader."
      - unit: sharpshooter
        max: 2
        source: "No more than two sharpshooters."
    choices: []
    options:
      - id: long-rifles
        units: [scouts]
        name: Long rifles
        cost: 10
        max: 1
        source: "Scouts may carry long rifles for 10 points."
"""


def demo(tmp_path: Path, rosters: str = ROSTERS) -> Workspace:
    ws = Workspace(tmp_path)
    ws.edit("data/units.yaml", "    text: Eyes of the army.\n", "    text: Eyes of the army.\n" + UNITS)
    ws.write("data/rosters.yaml", rosters)
    return ws


def army(ws: Workspace, text: str) -> Path:
    path = ws.root / "lists" / "army.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


GOOD = """game: demo
size: skirmish
units:
  - unit: captain
  - unit: scouts
    options: [long-rifles]
  - unit: sharpshooter
"""


@pytest.fixture(scope="module")
def shipped_rosters() -> dict[str, Roster]:
    project = Project(REPO)
    out = {}
    for game in ("battle-rules", "deadzone", "nuclear"):
        loaded = project.load(game, Report(), checks=False)
        out[game] = next(iter(loaded.section("rosters").values()))
    return out


@pytest.mark.parametrize("game", ["battle-rules", "deadzone", "nuclear"])
def test_every_shipped_roster_rule_quotes_its_source(shipped_rosters, game):
    roster = shipped_rosters[game]
    quotes = [roster.cost.source]
    quotes += [] if is_unstated(roster.sizes) else [s.source for s in roster.sizes]
    quotes += [limit.source for limit in roster.limits]
    quotes += [roster.reinforcement.source] if roster.reinforcement else []
    seed = seed_text(game)
    assert quotes and all(is_source(q, seed) for q in quotes), [q for q in quotes if not is_source(q, seed)]


def test_shipped_rosters_state_what_their_sources_state_and_no_more(shipped_rosters):
    battle = shipped_rosters["battle-rules"]
    assert battle.cost.stat == "command-points" and is_unstated(battle.cost.value)  # which of «-3 / 2»: not said
    sizes = {s.id: s for s in battle.sizes}
    assert sizes["standard-battle"].parameter == "standard-battle-command-points"
    assert {sizes[s].limit for s in ("scenario-battles", "free-play", "endless-war")} == {"free"}
    nuclear = shipped_rosters["nuclear"]
    assert (nuclear.cost.stat, nuclear.reinforcement.stat) == ("cost", "reinforcement-cost")
    assert is_unstated(nuclear.sizes)  # no starting Prestige, no size of game
    deadzone = shipped_rosters["deadzone"]
    assert is_unstated(deadzone.sizes) and is_unstated(deadzone.options)
    assert [(lim.type, lim.min) for lim in deadzone.limits] == [("Лидер", 1)] and is_unstated(deadzone.limits[0].max)


def test_roster_rules_are_validated_at_their_line_with_a_suggestion(tmp_path):
    bad = (ROSTERS.replace("stat: cost", "stat: cots").replace("units: [scouts]", "units: [scuots]")
           .replace("      - unit: sharpshooter\n        max: 2", "      - unit: sharpshooter\n        min: 3\n        max: 2")
           .replace("    choices: []", "    choice: []"))
    ws = demo(tmp_path, bad)
    found = {(d.code, d.location.line, d.message, d.hint) for d in ws.validate().errors}
    path = ws.game / "data" / "rosters.yaml"
    assert ("E003", line_of(path, "choice: []"), "unknown field 'choice'", "did you mean 'choices'?") in found
    ws.edit("data/rosters.yaml", "    choice: []\n", "")
    found = {(d.code, d.location.line, d.message, d.hint) for d in ws.validate().errors}
    assert ("E007", line_of(path, "stat: cots"), "unknown stat 'cots'", "did you mean 'cost'?") in found
    assert ("E007", line_of(path, "[scuots]"), "unknown unit 'scuots'", "did you mean 'scouts'?") in found
    assert any(c == "E080" and line == line_of(path, "min: 3") for c, line, _m, _h in found)


def test_a_list_within_its_limit_passes_with_its_total(tmp_path):
    ws = demo(tmp_path)
    result = ws.run("roster", "check", str(army(ws, GOOD)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "demo: total cost 130 of 150 (skirmish)" in result.stdout  # 40 + 50 + 10 + 30


def test_each_breach_is_reported_at_the_lists_line(tmp_path):
    ws = demo(tmp_path)
    path = army(ws, GOOD.replace("  - unit: sharpshooter\n", "  - unit: sharpshooter\n    count: 3\n"))
    result = ws.run("roster", "check", str(path))
    assert result.returncode == 1
    out = result.stdout
    over = line_of(path, "- unit: sharpshooter")
    assert f"army.yaml:{over}:5: error[E081]: this takes the list to 190, over the limit of 150 for 'skirmish'" in out
    assert f"army.yaml:{over}:5: error[E081]: 3 unit 'sharpshooter': the roster allows at most 2" in out
    assert "total cost 190 of 150" in out


def test_an_unknown_unit_is_named_with_a_suggestion_and_leaves_the_total_not_computed(tmp_path):
    ws = demo(tmp_path)
    path = army(ws, GOOD + "  - unit: captian\n")
    out = ws.run("roster", "check", str(path)).stdout
    assert f"army.yaml:{line_of(path, 'captian')}:11: error[E081]: unknown unit 'captian'" in out
    assert "did you mean 'captain'?" in out
    assert "total cost not computed (1 line(s) of unknown cost, said above) of 150 (skirmish)" in out


def test_every_line_counts_in_the_total_whatever_its_breaches(tmp_path):
    """An option the unit may not take, or takes too often, still costs what it costs (issue 34:
    the total was 160 where the list costs 195)."""
    ws = demo(tmp_path)
    path = army(ws, "game: demo\nsize: skirmish\nunits:\n  - unit: captain\n  - unit: sharpshooter\n"
                    "    options: [long-rifles]\n  - unit: scouts\n    options: [long-rifles, long-rifles]\n"
                    "  - unit: sharpshooter\n    count: 2\n")
    result = ws.run("roster", "check", "--format", "json", str(path))
    assert result.returncode == 1
    verdict = json.loads(result.stdout)["list"]
    assert [line["cost"] for line in verdict["lines"]] == [40, 40, 70, 60]
    assert (verdict["total"], verdict["limit"], verdict["size"]) == (210, 150, "skirmish")
    assert {(f["rule"], f["subject"], f["index"]) for f in verdict["findings"]} == {
        ("option-not-open", "long-rifles", 1), ("option-max", "long-rifles", 2), ("over-limit", "", 3),
        ("at-most", "sharpshooter", 3)}


def test_negative_costs_count_and_are_a_warning_at_their_line(tmp_path):
    ws = demo(tmp_path)
    ws.edit("data/units.yaml", "cost: 30}", "cost: -60}")
    path = army(ws, "game: demo\nsize: skirmish\nunits:\n  - unit: captain\n  - unit: sharpshooter\n    count: 3\n")
    result = ws.run("roster", "check", str(path))
    assert result.returncode == 1, result.stdout  # three sharpshooters: over the roster's two
    line = line_of(path, "- unit: sharpshooter")
    assert (f"army.yaml:{line}:11: warning[W081]: unit 'sharpshooter' costs -60 each: a negative cost lowers the "
            "list's total") in result.stdout
    assert "total cost -140 of 150 (skirmish)" in result.stdout


def test_json_carries_the_total_the_limit_and_each_lines_cost(tmp_path):
    ws = demo(tmp_path)
    result = ws.run("roster", "check", "--format", "json", str(army(ws, GOOD)))
    assert result.returncode == 0, result.stdout
    out = json.loads(result.stdout)
    assert out["errors"] == 0 and out["list"]["total"] == 130 and out["list"]["limit"] == 150
    assert [(ln["unit"], ln["count"], ln["each"], ln["cost"]) for ln in out["list"]["lines"]] == [
        ("captain", 1, 40, 40), ("scouts", 1, 60, 60), ("sharpshooter", 1, 30, 30)]
    assert out["list"]["findings"] == []


def test_required_minimum_and_options_are_checked(tmp_path):
    ws = demo(tmp_path)
    path = army(ws, "game: demo\nsize: skirmish\nunits:\n  - unit: scouts\n    options: [long-rifles, long-rifles]\n"
                    "  - unit: sharpshooter\n    options: [long-rifles]\n")
    out = ws.run("roster", "check", str(path)).stdout
    assert f"army.yaml:{line_of(path, 'units:')}:1: error[E081]: 0 units of type 'leader': the roster asks for at least 1" in out
    assert "option 'long-rifles' taken 2 times, at most 1" in out
    assert "unit 'sharpshooter' may not take option 'long-rifles'" in out


def test_a_list_that_names_no_size_or_an_unknown_game_is_refused(tmp_path):
    ws = demo(tmp_path)
    result = ws.run("roster", "check", str(army(ws, GOOD.replace("size: skirmish\n", ""))))
    assert result.returncode == 1 and "the list names no size of game" in result.stdout
    result = ws.run("roster", "check", str(army(ws, GOOD.replace("game: demo", "game: deom"))))
    assert result.returncode == 1 and "army.yaml:1:7: error[E081]: unknown game 'deom'" in result.stdout
    result = ws.run("roster", "check", str(army(ws, GOOD.replace("units:", "unit:"))))
    assert result.returncode == 1 and "unknown field 'unit'" in result.stdout and "did you mean 'units'?" in result.stdout


def test_a_missing_list_is_a_usage_error(tmp_path):
    ws = demo(tmp_path)
    result = ws.run("roster", "check", str(tmp_path / "nowhere.yaml"))
    assert result.returncode == 2 and "no army list" in result.stderr and "Traceback" not in result.stderr


BATTLE = """game: battle-rules
size: standard-battle
counted: second
units:
  - unit: scouts
    count: 6
  - unit: snipers
    count: 4
"""


def test_battle_rules_list_over_16_command_points_is_refused_under_the_lists_reading(tmp_path, shipped):
    path = tmp_path / "battle.yaml"
    path.write_text(BATTLE, encoding="utf-8")
    result = run_cli("--root", str(shipped), "roster", "check", str(path))
    assert result.returncode == 0, result.stdout
    assert "total command-points 16 of 16 (standard-battle)" in result.stdout  # 6 × 2 + 4 × 1
    path.write_text(BATTLE.replace("count: 4", "count: 5"), encoding="utf-8")
    result = run_cli("--root", str(shipped), "roster", "check", str(path))
    assert result.returncode == 1
    assert (f"battle.yaml:{line_of(path, 'unit: snipers')}:5: error[E081]: this takes the list to 17, over the "
            f"limit of 16 for 'standard-battle'") in result.stdout
    path.write_text(BATTLE.replace("counted: second\n", ""), encoding="utf-8")
    result = run_cli("--root", str(shipped), "roster", "check", str(path))
    assert result.returncode == 1 and "the source does not say which value of 'command-points' counts" in result.stdout


def test_required_and_exclusive_choices_are_checked(tmp_path):
    choice = ("    choices:\n      - id: one-specialist\n        units: [scouts, sharpshooter]\n"
              "        required: true\n        exclusive: true\n        source: \"Take one specialist unit.\"\n")
    ws = demo(tmp_path, ROSTERS.replace("    choices: []\n", choice))
    path = army(ws, "game: demo\nsize: skirmish\nunits:\n  - unit: captain\n")
    out = ws.run("roster", "check", str(path)).stdout
    assert f"army.yaml:{line_of(path, 'units:')}:1: error[E081]: the list takes none of scouts, sharpshooter" in out
    path = army(ws, GOOD)
    result = ws.run("roster", "check", str(path))
    assert result.returncode == 1
    assert (f"army.yaml:{line_of(path, 'unit: sharpshooter')}:5: error[E081]: the list takes 2 of scouts, "
            f"sharpshooter; choice 'one-specialist' allows one") in result.stdout
