"""Rock'n'Roll: its procedures against the rules as written (numbers read from the data),
checked against brute-force enumeration of the d6 faces and against seeded simulation; its
examples pass, a broken example and a changed number in the data are caught. Shipped content
is only read; changes are made to a copy in a temporary project.

No unit's attack chance is printed, so every attack here takes its chance as an input.
Simulations use 20,000 seeded runs and must fall within 4 standard errors (sqrt(p(1-p)/N))
of the exact value.
"""

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
from generator.checks.trial import check_project
from generator.cli import cli
from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import REPO, line_of

GAME = "rock-n-roll"
FOLDER = REPO / "content" / GAME
SIDES = 6
FACES = range(1, SIDES + 1)
RUNS = 20_000


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


def run(procs, game, name, inputs, faces=()):
    proc = procs.get(name)
    return scripted(proc, game, faces, proc.bind(game, inputs))


def exactly(procs, game, name, inputs):
    proc = procs.get(name)
    return exact(proc, game, proc.bind(game, inputs))


# --- the shipped content ---------------------------------------------------------------------

def test_shipped_check_passes_every_example():
    result = check_project(Project(REPO), [GAME])
    checked = result.games[0]
    assert not result.failed, [(e.example.id, e.status) for e in checked.examples if e.status != "pass"]
    statuses = Counter(e.status for e in checked.examples)
    assert statuses["pass"] == len(checked.examples) >= 56
    assert statuses["unchecked"] == statuses["fail"] == statuses["error"] == 0
    assert {r.rule.id for r in checked.rules} >= {"rule-params-match", "double-attack-icons", "rd-rates-agree",
                                                  "scoring-fits-counters", "hidden-attack-fits-die"}
    assert all(r.status == "pass" for r in checked.rules)


# --- attacks: exact against enumeration of the faces --------------------------------------------

def attack_by_hand(faces, need, rd=0, double=False, rerolls=0, rnr=False, rnr_rd=0):
    """The attack read as a set of attempts, apart from the procedure: one (or two) rolls plus the
    rerolls are attempts that kill on face + RD >= need; ROCK'N'ROLL is one more attempt made only
    when all of them failed, and kills the attacker if it fails too. All rerolls go on the last
    roll, as the procedure does when first_rerolls is 0."""
    attempts = (2 if double else 1) + rerolls
    tries = faces[:attempts]
    hit = [f + rd >= need for f in tries]
    if any(hit):
        killed, dies = True, False
        used = hit.index(True) + 1
    elif rnr:
        killed = faces[attempts] + rd + rnr_rd >= need
        dies, used = not killed, attempts + 1
    else:
        killed, dies, used = False, False, attempts
    two_ones = False
    if double and faces[0] + rd < need:
        # the second roll's standing result: its first success, else its last attempt, else ROCK'N'ROLL
        second_tries = faces[1:attempts]
        second = next((f for f in second_tries if f + rd >= need), second_tries[-1])
        if used == attempts + 1:
            second = faces[attempts]
        two_ones = faces[0] == 1 and second == 1
    return killed, dies, two_ones, used


CASES = [
    dict(need=need, rd=rd, double=double, rerolls=rerolls, rnr=rnr)
    for need in range(2, SIDES + 1)
    for rd in (0, 1, 3)
    for double in (False, True)
    for rerolls in (0, 1)
    for rnr in (False, True)
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(f"{k}{v}" for k, v in c.items()))
def test_attack_exact_matches_enumeration(game, procs, case):
    inputs = {"chance": f"{case['need']}+", "rd": case["rd"], "double": case["double"],
              "rerolls": case["rerolls"], "rock_n_roll": case["rnr"]}
    dist = exactly(procs, game, "attack", inputs)
    n = (2 if case["double"] else 1) + case["rerolls"] + (1 if case["rnr"] else 0)
    expected = Counter()
    for faces in itertools.product(FACES, repeat=n):
        killed, dies, two_ones, _ = attack_by_hand(list(faces), case["need"], case["rd"], case["double"],
                                                   case["rerolls"], case["rnr"])
        expected[(killed, dies, two_ones)] += Fraction(1, SIDES ** n)
    got = Counter()
    for outcome, prob in dist:
        got[(outcome["killed"], outcome["attacker_dies"], outcome["two_ones"])] += prob
    assert dict(got) == {k: v for k, v in expected.items() if v}


def test_attack_reads_faces_in_the_order_rolled(game, procs):
    """Scripted faces are consumed exactly as the enumeration's attempts: a script of the used
    prefix runs and gives the same result."""
    for faces in itertools.product(FACES, repeat=4):
        killed, dies, two_ones, used = attack_by_hand(list(faces), 5, 0, True, 1, True)
        out = run(procs, game, "attack", {"chance": "5+", "double": True, "rerolls": 1, "rock_n_roll": True},
                  faces[:used])
        assert (out["killed"], out["attacker_dies"], out["two_ones"]) == (killed, dies, two_ones)
        assert out["rolls"] == faces[:used]


@pytest.mark.parametrize("need", range(2, SIDES + 1))
def test_closed_form_kill_chance(game, procs, need):
    """P(kill) = 1 − q^attempts, q the chance one attempt fails; ROCK'N'ROLL is one more attempt."""
    q = Fraction(need - 1, SIDES)
    for double, rerolls, rnr in itertools.product((False, True), (0, 1, 2), (False, True)):
        attempts = (2 if double else 1) + rerolls + (1 if rnr else 0)
        dist = exactly(procs, game, "attack", {"chance": f"{need}+", "double": double, "rerolls": rerolls,
                                               "rock_n_roll": rnr})
        assert dist.probability("killed") == 1 - q ** attempts
        assert dist.probability("attacker_dies") == (q ** attempts if rnr else 0)


def test_rd_poured_into_rock_n_roll_alone(game, procs):
    dist = exactly(procs, game, "attack", {"chance": "6+", "rd": 1, "rock_n_roll": True, "rock_n_roll_rd": 2})
    # the first roll needs 5+ (1/3); ROCK'N'ROLL needs 3+ (2/3)
    assert dist.probability("killed") == Fraction(1, 3) + Fraction(2, 3) * Fraction(2, 3)
    assert dist.probability("attacker_dies") == Fraction(2, 3) * Fraction(1, 3)


def test_first_rerolls_go_on_the_first_roll(game, procs):
    inputs = {"chance": "4+", "double": True, "rerolls": 2, "first_rerolls": 1}
    out = run(procs, game, "attack", inputs, [1, 2, 3, 5])
    assert out["kept"] == (2, 5) and out["rerolls_used"] == 2 and out["killed"]
    # the two 1s of Bao: a 1 kept, then a 1 on the second roll (no rerolls left for it)
    bao = run(procs, game, "attack", {"chance": "4+", "unit": "bao"}, [1, 1])
    assert bao["two_ones"] and bao["double"]


@pytest.mark.parametrize("hidden_target,hidden_attacker,threshold", [
    (False, False, 4), (True, False, 5), (False, True, 6), (True, True, 7)])
def test_macv_sog_thresholds(game, procs, hidden_target, hidden_attacker, threshold):
    inputs = {"chance": "4+", "hidden_target": hidden_target, "hidden_attacker": hidden_attacker}
    dist = exactly(procs, game, "attack", inputs)
    by_hand = sum(Fraction(1, SIDES) for f in FACES if f >= threshold)
    assert dist.probability("killed") == by_hand
    assert run(procs, game, "kill-threshold", inputs)["threshold"].number == threshold


def test_ability_check_matches_enumeration(game, procs):
    for need, rerolls, rd in itertools.product(range(2, 7), (0, 1, 2), (0, 2)):
        dist = exactly(procs, game, "ability-check", {"target": f"{need}+", "rerolls": rerolls, "rd": rd})
        n = rerolls + 1
        by_hand = sum(Fraction(1, SIDES ** n) for faces in itertools.product(FACES, repeat=n)
                      if any(f + rd >= need for f in faces))
        assert dist.probability("success") == by_hand


# --- seeded simulation -----------------------------------------------------------------------

@pytest.mark.parametrize("inputs", [
    {"chance": "4+"},
    {"chance": "5+", "double": True, "rerolls": 1},
    {"chance": "6+", "rd": 2, "rock_n_roll": True},
    {"chance": "3+", "unit": "bao", "rock_n_roll": True},
])
def test_attack_simulation_agrees_with_exact(game, procs, inputs):
    proc = procs.get("attack")
    bound = proc.bind(game, inputs)
    truth = exact(proc, game, bound)
    seen = simulate(proc, game, bound, runs=RUNS, seed=11)
    for event in ("killed", "attacker_dies", "two_ones"):
        p = truth.probability(event)
        se = math.sqrt(float(p * (1 - p)) / RUNS)
        assert abs(float(seen.probability(event)) - float(p)) <= 4 * se + 1e-12, event


def test_timing_example_simulation_agrees_with_exact(game, procs):
    proc = procs.get("reactions")
    bound = proc.bind(game, {"active": "vpa", "point": ["mai-veteran", "johny-veteran", "doc"], "enters": "zulu",
                             "chances": {"mai-veteran": "4+", "johny-veteran": "4+"}, "checks": {"doc": "4+"},
                             "order": ["doc", "johny-veteran"], "choices": {"johny-veteran": "attack"},
                             "rock_n_roll": ["johny-veteran"]})
    truth = exact(proc, game, bound)
    half = Fraction(1, 2)
    # Zulu stays dead when Mai kills him and Doc fails; Johny when both his rolls and Doc fail;
    # Mai dies when Johny's attack or his ROCK'N'ROLL kills her
    by_hand = {"zulu": half * half, "johny-veteran": half * half * half, "mai-veteran": 1 - half * half}
    seen = simulate(proc, game, bound, runs=RUNS, seed=5)
    for unit, p in by_hand.items():
        assert truth.probability(lambda o: unit in o["dead"]) == p
        se = math.sqrt(float(p * (1 - p)) / RUNS)
        assert abs(float(seen.probability(lambda o: unit in o["dead"])) - float(p)) <= 4 * se


def test_first_player_ties_are_left_open(game, procs):
    dist = exactly(procs, game, "first-player", {})
    assert dist.probability("chooser == null") == Fraction(1, 6)
    assert dist.probability("chooser == vpa") == dist.probability("chooser == vietnam") == Fraction(5, 12)


# --- the rules the procedures keep ---------------------------------------------------------

def test_zulu_fires_before_rong_whatever_the_order_given(game, procs):
    out = run(procs, game, "reactions", {"active": "vietnam", "point": ["rong", "zulu"], "enters": "chi",
                                         "chances": {"zulu": "4+", "rong": "4+"}, "order": ["rong", "zulu"]}, [1, 1])
    assert out["resolved"] == ("zulu", "rong") and out["dead"] == ()


def test_locals_and_devils_hand_have_no_rerolls(game, procs):
    with pytest.raises(ProcedureError, match="Locals"):
        run(procs, game, "attack", {"chance": "4+", "unit": "rong", "rerolls": 1}, [1, 5])
    with pytest.raises(ProcedureError, match="Devil"):
        run(procs, game, "attack", {"chance": "4+", "rock_n_roll": True, "devils_hand": True}, [1, 5])


def test_rd_is_a_bounded_pool(game, procs):
    out = run(procs, game, "rd", {"events": ["discard-card 5", "failed-roll", "unit-lost", "pour 3", "card-swap"]})
    assert out["history"] == (5, 6, 6, 3, 2) and out["over_max"] == 1
    with pytest.raises(ProcedureError, match="4 RD needed, 2 held"):
        run(procs, game, "rd", {"events": ["discard-card 2", "goal-change"]})
    with pytest.raises(ProcedureError, match="unknown RD event"):
        run(procs, game, "rd", {"events": ["steal"]})


def test_deployment_points_and_chi(game, procs):
    assert run(procs, game, "deploy", {"point": 3, "points": 5})["allowed"] is False
    assert run(procs, game, "deploy", {"point": 5, "points": 5})["allowed"] is True
    assert run(procs, game, "deploy", {"point": 2, "allies_here": ["chi"]})["reason"] == "chi"
    assert run(procs, game, "deploy", {"point": 3, "unit": "chi-veteran", "allies_here": ["mai"]})["reason"] == "chi-veteran"
    assert run(procs, game, "deploy", {"point": 3, "unit": "chi", "allies_here": ["mai"]})["allowed"] is False


def test_simultaneous_abilities_need_the_active_players_order(game, procs):
    with pytest.raises(ProcedureError, match="active player"):
        run(procs, game, "ability-order", {"active": "vpa", "triggered": ["doc", "johny-veteran"]})


def test_round_end_follows_the_catch_up_and_four_four_rules(game, procs):
    def end(score, winner):
        points = [{winner: 1}] if winner else [{}]
        return run(procs, game, "round-end", {"points": points, "score": score, "order": ["vpa", "vietnam"]})

    assert end({"vpa": 1, "vietnam": 2}, "vpa")["score"] == {"vpa": 3, "vietnam": 2}   # behind ×2 → 2 points
    assert end({"vpa": 0, "vietnam": 4}, "vpa")["score"] == {"vpa": 1, "vietnam": 4}   # not at 0
    assert end({"vpa": 4, "vietnam": 4}, "vietnam")["war_winner"] == "vietnam"
    assert end({"vpa": 3, "vietnam": 4}, None)["war_winner"] is None
    deathmatch = run(procs, game, "round-end", {"points": [{"vpa": 1}], "score": {"vpa": 0, "vietnam": 0},
                                                "order": ["vietnam", "vpa"], "mode": "deathmatch"})
    assert deathmatch["award"] == 0 and deathmatch["order"] == ("vietnam", "vpa")


def test_kill_chance_table(game, procs):
    from generator.checker.tables import compute

    rows = {(r["chance"].number, r["rd"]): r for r in compute(game, procs.tables["kill-chance"]).rows}
    assert len(rows) == 5 * 4
    for (need, rd), row in rows.items():
        q = Fraction(max(0, min(SIDES, need - rd - 1)), SIDES)
        assert row["plain"] == 1 - q
        assert row["reroll"] == row["rock_n_roll"] == row["double"] == 1 - q ** 2
        assert row["double_reroll"] == row["double_rock_n_roll"] == 1 - q ** 3
        assert row["rock_n_roll_death"] == q ** 2


# --- changes to a copy are caught ----------------------------------------------------------

def test_tables_command_writes_the_kill_chance_table(copy: Path):
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", GAME, "--tables"])
    assert result.exit_code == 0, result.output
    data = json.loads((copy / "output" / GAME / "tables" / "kill-chance.json").read_text(encoding="utf-8"))
    assert data["columns"][0]["name"] == {"ru": "Шанс атаки", "en": "Attack chance"}
    four = next(r for r in data["exact"] if r["chance"] == "4+" and r["rd"] == 0)
    assert four["plain"] == "1/2" and four["double_reroll"] == "7/8"
    assert set(data["localized"]) == {"ru", "en"}


def test_a_broken_example_fails_readably(copy: Path):
    rules = copy / "content" / GAME / "rules" / "04-details.md"
    text = rules.read_text(encoding="utf-8")
    old = 'exact: {"P(killed)": 3/4, "P(attacker_dies)": 1/4}'
    assert old in text
    rules.write_text(text.replace(old, 'exact: {"P(killed)": 3/4, "P(attacker_dies)": 1/3}'), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", GAME])
    assert result.exit_code == 1
    example = line_of(rules, "::: rule rock-n-roll")
    assert f"FAIL      content/{GAME}/rules/04-details.md:{example} rock-n-roll" in result.output
    assert "attack, exactly: P(attacker_dies)" in result.output
    assert "expected: 1/3 (≈ 33.33%)" in result.output and "actual:   1/4 (≈ 25.00%)" in result.output


def failing(copy: Path) -> tuple[int, list[str], list[str]]:
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", GAME, "--format", "json"])
    report = json.loads(result.output)
    examples = [e["id"] for e in report["examples"] if e["result"] == "fail"]
    rules = [r["id"] for r in report["rules"] if r["result"] != "pass"]
    return result.exit_code, examples, rules


def test_a_changed_parameter_fails_the_examples_that_use_it(copy: Path):
    manifest = copy / "content" / GAME / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    old = "value: 1, unit: pips}"
    assert text.count(old) == 1
    manifest.write_text(text.replace(old, "value: 2, unit: pips}"), encoding="utf-8")   # macv-sog-kill-modifier
    code, examples, rules = failing(copy)
    assert code == 1
    assert examples == ["macv-sog-hidden"]
    assert "rule-params-match" in rules


def test_a_unit_without_its_two_dice_fails_bao(copy: Path):
    units = copy / "content" / GAME / "data" / "units.yaml"
    text = units.read_text(encoding="utf-8")
    old = "    keywords: [Две кости]\n"
    assert text.count(old) == 1
    units.write_text(text.replace(old, ""), encoding="utf-8")
    code, examples, rules = failing(copy)
    assert code == 1
    assert set(examples) == {"double-attack", "bao-double-ones"}
    assert rules == []  # Bao's card icons are unstated: the examples are what catches it


def test_after_devils_hand_rerolls_stay_unavailable(game, procs):
    """«В результате сделки перебросы/дополнительные броски, станут НЕДОСТУПНЫ стороне до конца
    партии!»: a deal made ends rerolls; a deal refused (or a second one, once the first is used)
    cannot give them back."""
    for option, phase in ((1, "deployment"), (1, "orders"), (2, "deployment"), (3, None)):
        made = run(procs, game, "devils-hand", {"option": option, "phase": phase})
        assert made["allowed"] and made["rerolls_after"] is False
        again = run(procs, game, "devils-hand", {"option": option, "phase": phase, "used": True})
        assert not again["allowed"] and again["rerolls_after"] is False
    refused = run(procs, game, "devils-hand", {"option": 2, "phase": "orders"})
    assert not refused["allowed"] and refused["rerolls_after"] is True
