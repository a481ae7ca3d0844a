"""Additional Battle Rules: its procedures against a second method (enumeration of the faces,
seeded simulation), its examples pass, and a change in the data or a check block is caught.
Shipped content is only read; changes are made to a copy in a temporary project."""

from __future__ import annotations

import itertools
import json
import math
import shutil
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.checker import ProcedureError, exact, load_procedures, scripted, simulate
from generator.checker.tables import compute
from generator.checks.trial import check_project
from generator.cli import cli
from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import REPO, line_of

GAME = "battle-rules"
FOLDER = REPO / "content" / GAME
FACES = range(1, 7)


@pytest.fixture(scope="module")
def game():
    report = Report()
    loaded = Project(REPO).load(GAME, report)
    assert report.diagnostics == [], [d.format_text() for d in report.diagnostics]
    return loaded


@pytest.fixture(scope="module")
def procs(game):
    found = load_procedures(game.folder)
    assert found.problems == []
    return found


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A project with a copy of the game to change."""
    shutil.copytree(FOLDER, tmp_path / "content" / GAME, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def edit(root: Path, relpath: str, old: str, new: str) -> None:
    path = root / "content" / GAME / relpath
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not once in {relpath}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def run_json(root: Path) -> tuple[int, dict]:
    result = CliRunner().invoke(cli, ["--root", str(root), "check", GAME, "--format", "json"])
    return result.exit_code, json.loads(result.output)


def failing(report: dict) -> set[str]:
    return {e["id"] for e in report["examples"] if e["result"] == "fail"}


def run(procs, game, pid, inputs, faces=()):
    proc = procs.get(pid)
    return scripted(proc, game, list(faces), proc.bind(game, inputs))


def dist(procs, game, pid, inputs):
    proc = procs.get(pid)
    return exact(proc, game, proc.bind(game, inputs))


def joint(distribution, *keys) -> dict:
    got = Counter()
    for outcome, p in distribution:
        got[tuple(outcome[k] for k in keys)] += p
    return dict(got)


# --- the shipped game ----------------------------------------------------------------------------

def test_shipped_game_check_passes():
    run_ = check_project(Project(REPO), [GAME])
    result = run_.games[0]
    assert not run_.failed, [(e.example.id, e.status) for e in result.examples]
    statuses = Counter(e.status for e in result.examples)
    assert statuses["pass"] >= 20 and statuses["fail"] == statuses["error"] == 0
    checked = {e.example.id for e in result.examples if e.status == "pass"}
    assert checked >= {"fortification", "attacks-limited-by-targets", "rearming-scouts", "landing-capacities",
                       "landing-restrictions", "roster-16-points", "hit-damage-save", "melee-exchange",
                       "deadly-damage", "deployment-distance", "ranged-or-melee-distance"}
    assert {r.rule.id for r in result.rules} == {"parameters-match-rules", "bands-match-parameters",
                                                 "targets-fit-the-die", "units-read-by-the-procedures"}


# --- exact procedures against enumeration of the faces ----------------------------------------------

def chain_by_hand(n, accuracy, damage, save):
    """(hits, critical, wounded) of n attacks, each read from its own hit, damage and save die."""
    expected = Counter()
    weight = Fraction(1, 6 ** (3 * n))
    for faces in itertools.product(FACES, repeat=3 * n):
        hits = critical = wounded = 0
        for hit, dmg, sv in zip(faces[0::3], faces[1::3], faces[2::3]):
            if hit >= accuracy:
                hits += 1
                if dmg >= damage:
                    critical += 1
                    wounded += sv < save
        expected[(hits, critical, wounded)] += weight
    return dict(expected)


@pytest.mark.parametrize("attacker,defender,n,choice,cover,numbers", [
    ("scouts", "grenadiers", 2, None, [], (2, 4, 4)),
    ("machine-gunners", "scouts", 2, "first", [], (3, 2, 4)),
    ("machine-gunners", "scouts", 2, "second", [], (3, 5, 4)),
    ("machine-gunners", "scouts", 2, "first", ["fortification"], (3, 3, 4)),   # 2+ -> 3+
    ("bazookas", "tank", 2, "first", ["fortification", "building"], (3, 6, 2)),  # 5+ -> 6+, once
    ("scouts", "grenadiers", 2, None, ["vehicle-cover"], (2, 4, 4)),            # no bonus
])
def test_hit_damage_save_matches_enumeration(game, procs, attacker, defender, n, choice, cover, numbers):
    inputs = {"attacker": attacker, "defender": defender, "attackers": n, "targets": n,
              "damage_choice": choice, "cover": cover}
    got = joint(dist(procs, game, "hit-damage-save", inputs), "hits", "critical", "wounded")
    assert got == chain_by_hand(n, *numbers)


def test_kill_chance_tables_match_enumeration(game, procs):
    for table_id, shift in (("kill-chance", 0), ("kill-chance-fortified", 1)):
        rows = compute(game, procs.tables[table_id]).rows
        assert len(rows) == 36
        for row in rows:
            acc, dmg = row["accuracy"].number, row["damage"].number
            for save in (*FACES, None):
                column = "save-none" if save is None else f"save-{save}"
                by_hand = sum(Fraction(1, 216) for h, d, s in itertools.product(FACES, repeat=3)
                              if h >= acc and d >= dmg + shift and (save is None or s < save))
                assert row[column] == by_hand, (table_id, acc, dmg, save)
    plain = {(r["accuracy"].number, r["damage"].number): r for r in compute(game, procs.tables["kill-chance"]).rows}
    assert plain[(3, 2)]["save-4"] == Fraction(5, 18) and plain[(1, 1)]["save-none"] == 1
    fortified = {(r["accuracy"].number, r["damage"].number): r
                 for r in compute(game, procs.tables["kill-chance-fortified"]).rows}
    assert fortified[(3, 2)]["save-4"] == Fraction(2, 9)
    assert fortified[(1, 6)]["save-none"] == 0   # 6+ made 7+: the die cannot roll it


def test_melee_exchange_matches_enumeration(game, procs):
    """Three attacks (scouts Save 4+ on machine gunners Save 3+): the defender's three saves, then the
    attacker's saves for each success, read from the first of its own three dice."""
    got = joint(dist(procs, game, "melee-exchange", {"attacker": "scouts", "defender": "machine-gunners"}),
                "attacks", "defender_critical", "attacker_losses")
    expected = Counter()
    for faces in itertools.product(FACES, repeat=6):
        saved = sum(f >= 3 for f in faces[:3])
        losses = sum(f < 4 for f in faces[3:3 + saved])
        expected[(3, 3 - saved, losses)] += Fraction(1, 6 ** 6)
    assert got == dict(expected)
    # fortifications do not count in melee
    covered = dist(procs, game, "melee-exchange", {"attacker": "scouts", "defender": "machine-gunners",
                                                   "cover": ["fortification"]})
    assert joint(covered, "attacks", "defender_critical", "attacker_losses") == got


@pytest.mark.parametrize("deadly_on", ["hit", "damage"])
def test_sniper_sixes_are_deadly_and_unsaved(game, procs, deadly_on):
    """Snipers (1+ / 1+, three models) at scouts: every 6 on the named roll is deadly, the other
    shots are critical damage and are saved on 4+; deadly models get no save."""
    got = joint(dist(procs, game, "hit-damage-save", {"attacker": "snipers", "defender": "scouts",
                                                      "deadly_on": deadly_on}), "critical", "deadly", "wounded")
    expected = Counter()
    for faces in itertools.product(FACES, repeat=6):
        rolls, saves = faces[:3], faces[3:]
        deadly = sum(f == 6 for f in rolls)
        critical = 3 - deadly
        expected[(critical, deadly, sum(s < 4 for s in saves[:critical]))] += Fraction(1, 6 ** 6)
    assert got == dict(expected)


def test_compensation_rolls_only_for_critical_damage(game, procs):
    assert run(procs, game, "compensation", {"defender": "scouts", "critical": 0, "deadly": 3}) == {
        "saves_rolled": 0, "saved": 0, "wounded": 0, "removed": 3}
    got = joint(dist(procs, game, "compensation", {"defender": "tank", "critical": 2}), "wounded")
    assert got == {(w,): sum(Fraction(1, 36) for a, b in itertools.product(FACES, repeat=2) if (a < 2) + (b < 2) == w)
                   for w in range(3)}


# --- seeded simulation ---------------------------------------------------------------------------

@pytest.mark.parametrize("pid,inputs,condition", [
    ("hit-damage-save", {"attacker": "machine-gunners", "defender": "scouts", "damage_choice": "first"}, "wounded >= 1"),
    ("hit-damage-save", {"attacker": "scouts", "defender": "grenadiers", "cover": ["fortification"]}, "wounded >= 2"),
    ("melee-exchange", {"attacker": "scouts", "defender": "grenadiers"}, "attacker_losses >= 1"),
    ("ranged-attack", {"attacker": "snipers", "defender": "scouts", "deadly_on": "damage"}, "deadly >= 1"),
])
def test_seeded_simulation_agrees_within_four_standard_errors(game, procs, pid, inputs, condition):
    proc = procs.get(pid)
    bound = proc.bind(game, inputs)
    runs = 20_000
    p = exact(proc, game, bound).probability(condition)
    observed = simulate(proc, game, bound, runs=runs, seed=7).probability(condition)
    tolerance = 4 * math.sqrt(float(p) * (1 - float(p)) / runs)
    assert abs(float(observed) - float(p)) <= tolerance, (observed, p)


# --- gaps: an explicit input or no answer, never a guess ---------------------------------------------

@pytest.mark.parametrize("pid,inputs,message", [
    ("hit-damage-save", {"attacker": "machine-gunners", "defender": "scouts"}, "two Damage values (2+ / 5+)"),
    ("ranged-attack", {"attacker": "snipers", "defender": "scouts"}, "on which roll"),
    ("ranged-attack", {"attacker": "scouts", "defender": "snipers", "deadly_on": "hit"}, "not a sniper"),
    ("ranged-attack", {"attacker": "medic", "defender": "scouts"}, "no Accuracy"),
    ("landing-slots", {"squads": ["cruiser"]}, "cannot be landed"),
    ("building-move", {"unit": "recon-jeep", "step": "exit", "distance": 30}, "two move lengths"),
])
def test_the_rules_silence_is_an_error_not_a_guess(game, procs, pid, inputs, message):
    with pytest.raises(ProcedureError, match=message.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")):
        run(procs, game, pid, inputs, faces=[1] * 20)


def test_unstated_numbers_answer_none(game, procs):
    assert run(procs, game, "roster", {"squads": ["tank"] * 3})["within_limit"] is None
    slots = run(procs, game, "landing-slots", {"squads": ["scouts", "medic", "fighter"]})
    assert slots["slots"] is None and slots["unstated"] == ("medic", "fighter")
    told = run(procs, game, "landing-slots", {"squads": ["scouts", "medic"], "support_as_infantry": True})
    assert told["slots"] == 11
    assert run(procs, game, "attack-distance", {"distance": 1.5})["band"] is None
    assert run(procs, game, "turn-order", {"rolls": {"a": 4, "b": 4}})["order"] is None


def test_roster_readings_of_the_command_points(game, procs):
    squads = ["scouts", "machine-gunners", "sergeant"]          # -3/2, -2/1, -1/0
    read = lambda **kw: run(procs, game, "roster", {"squads": squads, **kw})["points"]  # noqa: E731
    assert read(counted="first") == -6 and read(counted="first", magnitude=True) == 6 and read(counted="second") == 3


# --- changes to the data or to an example are caught -------------------------------------------------

def test_broken_example_fails_with_a_readable_message(copy: Path):
    rules = copy / "content" / GAME / "rules" / "03-phases.md"
    edit(copy, "rules/03-phases.md", "inputs: {attackers: 10, targets: 6}\nexpect: {attacks: 6}",
         "inputs: {attackers: 10, targets: 6}\nexpect: {attacks: 10}")
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", GAME])
    assert result.exit_code == 1
    line = line_of(rules, "::: rule attacks-limited-by-targets")
    assert f"FAIL      content/{GAME}/rules/03-phases.md:{line} attacks-limited-by-targets" in result.output
    assert "attack-count: attacks" in result.output
    assert "expected: 10" in result.output and "actual:   6" in result.output


def test_unit_stat_change_fails_the_examples_that_use_it(copy: Path):
    edit(copy, "data/units.yaml", "    stats:\n      models: 5\n", "    stats:\n      models: 6\n")  # grenadiers
    code, report = run_json(copy)
    assert code == 1
    assert failing(report) == {"landing-declaration", "landing-capacities", "attacks-limited-by-targets",
                               "melee-exchange"}


def test_save_change_fails_the_chain_examples(copy: Path):
    edit(copy, "data/units.yaml", "      damage-type: RB/M\n      save: 4+\n", "      damage-type: RB/M\n      save: 5+\n")
    code, report = run_json(copy)
    assert code == 1
    assert failing(report) == {"hit-damage-save", "melee-exchange", "save-roll"}


def test_fortification_parameter_change_is_caught(copy: Path):
    edit(copy, "game.yaml", "    value: -1\n", "    value: -2\n")
    code, report = run_json(copy)
    assert code == 1
    assert failing(report) == {"fortification"}


def test_consistency_rules_name_the_disagreement(copy: Path):
    edit(copy, "data/rules.yaml", "params: {infantry: 1, vehicle: 10, artillery-and-tanks: 20}",
         "params: {infantry: 2, vehicle: 10, artillery-and-tanks: 20}")
    edit(copy, "data/units.yaml", "    type: флот\n    stats:\n      models: 1\n      movement: 20 см",
         "    type: корабль\n    stats:\n      models: 1\n      movement: 20 см")  # the cruiser
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", GAME])
    assert result.exit_code == 1
    assert "landing-slots-infantry is 1 in game.yaml but 2 in the data" in result.output
    assert "cruiser has the type 'корабль', which the landing procedures do not read" in result.output


def test_tables_command_writes_both_tables(copy: Path):
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", GAME, "--tables"])
    assert result.exit_code == 0, result.output
    folder = copy / "output" / GAME / "tables"
    data = json.loads((folder / "kill-chance.json").read_text(encoding="utf-8"))
    assert data["columns"][0] == {"id": "accuracy", "name": {"ru": "Меткость", "en": "Accuracy"}}
    assert data["columns"][5]["name"] == {"ru": "Мораль/броня 4+", "en": "Save 4+"}
    assert set(data["localized"]) == {"ru", "en"} and len(data["rows"]) == 36
    row = next(r for r in data["exact"] if r["accuracy"] == "3+" and r["damage"] == "2+")
    assert row["save-4"] == "5/18" and row["save-none"] == "5/9"
    fortified = json.loads((folder / "kill-chance-fortified.json").read_text(encoding="utf-8"))
    row = next(r for r in fortified["exact"] if r["accuracy"] == "3+" and r["damage"] == "2+")
    assert row["save-4"] == "2/9"
    csv = (folder / "kill-chance.csv").read_text(encoding="utf-8").splitlines()
    assert csv[0] == "accuracy,damage,save-1,save-2,save-3,save-4,save-5,save-6,save-none"
    assert csv[1] == "1+,1+,0.000000,0.166667,0.333333,0.500000,0.666667,0.833333,1.000000"


def test_small_rules_read_their_numbers(game, procs):
    assert run(procs, game, "disembark", {"distance": 1})["allowed"] is True
    assert run(procs, game, "disembark", {"distance": 1.5})["allowed"] is False
    assert run(procs, game, "landing-placement", {"enemy_distance": 20, "friendly_on_table": False}) == {
        "allowed": False, "reason": "no friendly units"}
    assert run(procs, game, "mine-triggered", {"distance": 30, "move": "start-on-mine"})["triggered"] is True
    assert run(procs, game, "mine-triggered", {"distance": 5})["triggered"] is True   # touching the radius
    allowed = lambda **kw: run(procs, game, "attack-allowed", {"attacker": "snipers", **kw})  # noqa: E731
    assert allowed(distance=30, kind="ranged")["allowed"] is True                   # Visibility 30 cm
    assert allowed(distance=10, kind="ranged", rearmed_this_turn=True)["reason"] == "rearmed this turn"
    assert allowed(distance=10, kind="ranged", target_attached=True)["reason"] == "attached unit"
    assert allowed(distance=1, kind="melee", target_attached=True)["allowed"] is True
    assert allowed(distance=1, kind="melee", target_in_building=True)["reason"] == "target in a building"
    assert run(procs, game, "passive-play", {"skips_in_a_row": 3})["sanctions_possible"] is True
