"""Deadzone: its procedures against the rules as written (numbers read from the data), checked
against brute-force enumeration of the D8 faces and against seeded simulation; its examples
pass, a broken example and a changed stat are caught. Shipped content is only read; changes
are made to a copy in a temporary project.

Every test die explodes on an 8. The enumeration follows each exploding chain face by face
to the same depth as the exact mode (generator.checker.DEPTH extra dice), so the two must
agree exactly. Simulations use 20,000 seeded runs and must fall within 4 standard errors
(sqrt(p(1-p)/N)) of the exact value.
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

from generator.checker import DEPTH, ProcedureError, exact, load_procedures, scripted, simulate
from generator.checks.trial import check_project
from generator.cli import cli
from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import REPO, line_of

DEADZONE = REPO / "content" / "deadzone"
SIDES = 8
EIGHT = 8
RUNS = 20_000


@pytest.fixture(scope="module")
def deadzone():
    report = Report()
    game = Project(REPO).load("deadzone", report)
    assert report.diagnostics == [], [d.format_text() for d in report.diagnostics]
    return game


@pytest.fixture(scope="module")
def procs(deadzone):
    found = load_procedures(deadzone.folder)
    assert found.problems == []
    return found


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A project with a copy of Deadzone to change."""
    shutil.copytree(DEADZONE, tmp_path / "content" / "deadzone", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def run(procs, game, name, inputs, faces=None):
    proc = procs.get(name)
    bound = proc.bind(game, inputs)
    return scripted(proc, game, faces or [], bound) if faces is not None else exact(proc, game, bound)


# --- enumeration of the faces, written apart from the procedures ---------------------------

def chains(depth: int = DEPTH) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every face sequence one die can show: its face, and while it shows 8 (and the chain is
    shorter than `depth`) one more die."""
    out = []
    for face in range(1, SIDES + 1):
        if face == EIGHT and depth > 0:
            out.extend(((face, *rest), p / SIDES) for rest, p in chains(depth - 1))
        else:
            out.append(((face,), Fraction(1, SIDES)))
    return out


def count(faces: tuple[int, ...], target: int) -> int:
    return sum(1 for f in faces if f >= target or f == EIGHT)


def die_counts(target: int) -> Counter:
    """One die's successes on `target`, summed over all its face sequences."""
    got: Counter = Counter()
    for faces, p in chains():
        got[count(faces, target)] += p
    return got


def pool_by_faces(n: int, target: int) -> Counter:
    """n dice, every combination of face sequences (itertools.product over the dice)."""
    got: Counter = Counter()
    for combo in itertools.product(chains(), repeat=n):
        faces = tuple(f for seq, _ in combo for f in seq)
        got[count(faces, target)] += math.prod((p for _, p in combo), start=Fraction(1))
    return got


def pool(n: int, target: int | None) -> Counter:
    """n dice, one die at a time: every result so far with every face sequence of the next die
    (the faces of pool_by_faces, grouped by successes so that large pools stay cheap)."""
    got: Counter = Counter({0: Fraction(1)})
    if n <= 0 or target is None:
        return got
    one = die_counts(target)
    for _ in range(n):
        step: Counter = Counter()
        for (a, p), (b, q) in itertools.product(got.items(), one.items()):
            step[a + b] += p * q
        got = step
    return got


def margins(ours: Counter, theirs: Counter) -> Counter:
    got: Counter = Counter()
    for (a, p), (b, q) in itertools.product(ours.items(), theirs.items()):
        got[a - b] += p * q
    return got


def marginal(dist, key) -> Counter:
    got: Counter = Counter()
    for outcome, p in dist:
        got[outcome[key]] += p
    return got


def within(observed: Fraction, expected: Fraction, runs: int = RUNS) -> bool:
    p = float(expected)
    return abs(float(observed) - p) <= 4 * math.sqrt(max(p * (1 - p), 1e-12) / runs)


# --- the shipped game ------------------------------------------------------------------------

def test_shipped_deadzone_check_passes():
    result = check_project(Project(REPO), ["deadzone"])
    game = result.games[0]
    assert not result.failed, [(e.example.id, e.status) for e in game.examples]
    statuses = {e.example.id: e.status for e in game.examples}
    assert [i for i, s in statuses.items() if s != "pass"] == ["directly-away"]
    for needed in ("test-3-dice-4plus", "opposed-fight", "damage-wounded", "damage-killed-ap", "exploding-eight",
                   "command-dice-limits", "shooting-distance", "wall-collision", "falling", "zero-dice",
                   "cube-capacity"):
        assert statuses[needed] == "pass"
    assert {r.rule.id for r in game.rules} == {"exploding-face-on-the-die", "cube-capacity-adds-up",
                                               "models-in-a-row", "prone-fight-bonus-in-table",
                                               "command-faces-known"}


# --- tests: exact against the faces ----------------------------------------------------------

def test_chains_are_a_whole_die():
    assert sum(p for _, p in chains()) == 1
    assert len(chains()) == 7 * (DEPTH + 1) + 1  # a non-8 after 0..DEPTH eights, or DEPTH+1 eights


@pytest.mark.parametrize("n,target", [(1, 4), (1, 8), (2, 3), (2, 7)])
def test_test_matches_enumeration_of_faces(deadzone, procs, n, target):
    dist = run(procs, deadzone, "test", {"dice_count": n, "target": f"{target}+"})
    assert marginal(dist, "successes") == +pool_by_faces(n, target)


def test_grouped_enumeration_is_the_faces():
    assert pool(2, 5) == pool_by_faces(2, 5) and pool(1, 3) == pool_by_faces(1, 3)


@pytest.mark.parametrize("n,target", [(4, 5), (5, 6), (8, 3)])
def test_larger_pools_match_enumeration(deadzone, procs, n, target):
    dist = run(procs, deadzone, "test", {"dice_count": n, "target": f"{target}+"})
    assert marginal(dist, "successes") == +pool(n, target)


def test_passing_a_test_needs_only_the_first_faces(deadzone, procs):
    """(k): explosions only add successes, so P(at least k) for k up to n reads off plain faces."""
    faces = list(itertools.product(range(1, SIDES + 1), repeat=3))
    for target, need in ((4, 1), (5, 2), (6, 3)):
        by_hand = Fraction(sum(1 for f in faces if sum(x >= target for x in f) >= need), len(faces))
        dist = run(procs, deadzone, "test", {"dice_count": 3, "target": f"{target}+", "need": need})
        if need == 1:
            assert dist.probability("passed") == by_hand
        else:  # an 8 among failures can still pass it: at least the plain chance
            assert dist.probability("passed") >= by_hand
    assert by_hand < 1


def test_modifiers_change_only_the_dice(deadzone, procs):
    plus = run(procs, deadzone, "test", {"dice_count": 3, "target": "4+", "modifiers": 2})
    assert plus.probability("successes == 0") == Fraction(3, 8) ** 5
    assert plus.probability("dice == 5") == 1
    for mods in (-3, -4):
        none = run(procs, deadzone, "test", {"dice_count": 3, "target": "4+", "need": 1, "modifiers": mods})
        assert none.probability("successes == 0 and not can_test and not passed") == 1
    dash = run(procs, deadzone, "test", {"dice_count": 3, "target": None, "modifiers": 5})
    assert dash.probability("successes == 0 and dice == 0") == 1


def test_exploding_script_reads_chain_then_next_die(deadzone, procs):
    out = run(procs, deadzone, "test", {"dice_count": 2, "target": "5+"}, faces=[8, 8, 8, 1, 6])
    assert out["successes"] == 4
    with pytest.raises(Exception, match="rolls die 4"):
        run(procs, deadzone, "test", {"dice_count": 2, "target": "5+"}, faces=[8, 8, 8])


# --- opposed tests -----------------------------------------------------------------------------

@pytest.mark.parametrize("shoot_dice,shoot,survive", [(3, 4, 4), (1, 3, 6), (5, 7, 3), (2, 5, 5)])
def test_shooting_matches_enumeration(deadzone, procs, shoot_dice, shoot, survive):
    extra = shoot_dice - deadzone.parameter("shoot-test-dice")
    dist = run(procs, deadzone, "shooting", {"shoot": f"{shoot}+", "survive": f"{survive}+", "extra_dice": extra})
    by_hand = margins(pool(shoot_dice, shoot), pool(3, survive))
    assert marginal(dist, "margin") == +by_hand
    assert dist.probability("hit") == sum(p for m, p in by_hand.items() if m > 0)
    assert dist.mean("potential_damage") == sum(p * m for m, p in by_hand.items() if m > 0)


def test_shooting_table_cells_are_the_enumerated_chances(deadzone, procs):
    from generator.checker.tables import compute

    table = compute(deadzone, procs.tables["shooting-hit"])
    assert len(table.rows) == 25
    assert [c["id"] for c in table.columns][:3] == ["survive", "survive_dice", "shoot_dice"]
    assert all(set(c["name"]) == {"ru", "en"} for c in table.columns)
    cell = {(r["survive"], r["shoot_dice"]): r for r in table.rows}
    for survive, n, shoot in ((4, 3, 4), (6, 1, 3), (3, 5, 7)):
        expected = sum(p for m, p in margins(pool(n, shoot), pool(3, survive)).items() if m > 0)
        assert cell[(f"{survive}+", n)][f"shoot_{shoot}"] == expected
    for row in table.rows:  # a better Shoot target never lowers the chance
        chances = [row[f"shoot_{t}"] for t in range(3, 8)]
        assert chances == sorted(chances, reverse=True)
    for survive in range(3, 8):  # nor does another die
        column = [cell[(f"{survive}+", n)]["shoot_4"] for n in range(1, 6)]
        assert column == sorted(column)


@pytest.mark.parametrize("attacker,defender,response", [(4, 5, "fight"), (3, 6, "survive")])
def test_fight_matches_enumeration(deadzone, procs, attacker, defender, response):
    dist = run(procs, deadzone, "fight", {"attacker": f"{attacker}+", "defender": f"{defender}+",
                                          "response": response, "attacker_conditions": ["moved-in"]})
    by_hand = margins(pool(4, attacker), pool(3, defender))
    assert marginal(dist, "margin") == +by_hand
    lost = sum(p for m, p in by_hand.items() if m < 0)
    assert dist.probability("outcome == null") == (lost if response == "fight" else 0)
    assert dist.probability("outcome == hit") == sum(p for m, p in by_hand.items() if m > 0)


def test_fight_rules_the_text_leaves_open_or_forbids(deadzone, procs):
    # the target answered with Fight and rolled more: erratum fight-defender-wins-missing
    out = run(procs, deadzone, "fight", {"attacker": "4+", "defender": "4+"}, faces=[1, 1, 1, 4, 1, 1])
    assert out["winner"] == "defender" and out["outcome"] is None and out["potential_damage"] == 0
    with pytest.raises(ProcedureError, match="cannot answer with Fight"):
        run(procs, deadzone, "fight", {"attacker": "4+", "defender": None, "response": "fight"}, faces=[])
    survive_dash = run(procs, deadzone, "fight", {"attacker": "4+", "defender": None, "response": "survive"})
    assert survive_dash.probability("outcome == hit") == 1 - Fraction(3, 8) ** 3
    dice = run(procs, deadzone, "fight-dice", {"conditions": ["moved-in", "friends-in-cube", "opponent-wounded",
                                                              "larger", "opponent-prone"]}, faces=[])
    assert dice["dice"] == 3 + 5


@pytest.mark.parametrize("ours,theirs", [(4, 4), (3, 6), (7, 5)])
def test_recon_rerolls_ties_exactly(deadzone, procs, ours, theirs):
    n = deadzone.parameter("recon-test-dice")
    by_hand = margins(pool(n, ours), pool(n, theirs))
    tie = by_hand[0]
    dist = run(procs, deadzone, "recon-test", {"ours": f"{ours}+", "theirs": f"{theirs}+"})
    assert dist.probability("winner == ours") == sum(p for m, p in by_hand.items() if m > 0) / (1 - tie)
    assert dist.probability("margin == 0") == 0


def test_recon_script_rerolls_until_decided(deadzone, procs):
    tie = [5, 1, 1, 1, 1]
    decided = [1, 1, 1, 1, 1, 6, 1, 1, 1, 1]  # 0 : 1
    out = run(procs, deadzone, "recon-test", {"ours": "5+", "theirs": "5+"}, faces=tie * 6 + decided)
    assert out == {"winner": "theirs", "margin": -1}
    with pytest.raises(ProcedureError, match="never be decided"):
        run(procs, deadzone, "recon-test", {"ours": None, "theirs": None}, faces=[])


@pytest.mark.parametrize("height", [2, 3, 5])
def test_falling_matches_enumeration(deadzone, procs, height):
    gravity = 3 + height
    dist = run(procs, deadzone, "falling", {"height": height, "survive": "4+"})
    by_hand = margins(pool(3, 4), pool(gravity, 5))
    assert dist.probability(f"gravity_dice == {gravity} and prone") == 1
    assert dist.probability("potential_damage >= 1") == sum(p for m, p in by_hand.items() if m < 0)


def test_wall_matches_enumeration(deadzone, procs):
    dist = run(procs, deadzone, "wall-collision", {"survive": "6+", "extra_dice": 1})
    by_hand = margins(pool(4, 6), pool(3, 5))
    assert marginal(dist, "margin") == +by_hand
    assert dist.probability("prone") == dist.probability("potential_damage >= 1")


# --- seeded simulation -------------------------------------------------------------------------

@pytest.mark.parametrize("name,inputs,event,seed", [
    ("test", {"dice_count": 3, "target": "5+"}, "successes >= 2", 1),
    ("test", {"dice_count": 2, "target": "7+"}, "successes >= 1", 2),
    ("shooting", {"shoot": "4+", "survive": "5+", "clean_shot": True}, "hit", 3),
    ("fight", {"attacker": "5+", "defender": "4+", "response": "survive"}, "outcome == miss", 4),
    ("recon-test", {"ours": "4+", "theirs": "5+"}, "winner == ours", 5),
    ("falling", {"height": 3, "survive": "5+"}, "potential_damage >= 2", 6),
    ("wall-collision", {"survive": "4+"}, "prone", 7),
    ("scatter-fall", {"floor": "partial"}, "falls", 8),
])
def test_simulation_agrees_with_exact(deadzone, procs, name, inputs, event, seed):
    proc = procs.get(name)
    bound = proc.bind(deadzone, inputs)
    expected = exact(proc, deadzone, bound).probability(event)
    observed = simulate(proc, deadzone, bound, runs=RUNS, seed=seed).probability(event)
    assert within(observed, expected), (name, float(observed), float(expected))


# --- damage, Command dice, distance, capacity ----------------------------------------------------

def damage_by_hand(potential, armour, size, ap, previous):
    left = max(0, armour - ap)
    total = previous + max(0, potential - left)
    return "unharmed" if total == 0 else "wounded" if total <= size else "killed"


def test_damage_follows_the_three_steps(deadzone, procs):
    proc = procs.get("damage")
    for potential, armour, size, ap, previous in itertools.product(range(5), range(4), range(1, 4), range(3), range(3)):
        inputs = {"potential": potential, "armour": armour, "size": size, "ap": ap, "previous": previous}
        out = scripted(proc, deadzone, [], inputs)
        assert out["state"] == damage_by_hand(**inputs), inputs
    out = scripted(proc, deadzone, [], {"potential": 2, "armour": 1, "size": 1})
    assert out["state_name"] == deadzone.tables["damage-thresholds"].rows[1]["state"]


def test_command_roll(deadzone, procs):
    out = run(procs, deadzone, "command-roll", {"models": 4, "in_play": 2}, faces=[])
    assert out == {"dice": 3, "reroll_allowed": True, "rerolls": 1}
    assert run(procs, deadzone, "command-roll", {"models": 9, "in_play": 4}, faces=[])["reroll_allowed"] is False
    with pytest.raises(ProcedureError, match="Tactician"):
        run(procs, deadzone, "command-roll", {"models": 4, "in_play": 4, "tactician": True}, faces=[])


def test_command_dice_limits(deadzone, procs):
    def allowed(faces):
        return run(procs, deadzone, "command-dice-activation", {"faces": faces}, faces=[])["allowed"]

    assert allowed(["Движение", "Спец.свойство армии", "+1 Кость", "+1 Кость", "+1 Кость"])
    assert not allowed(["Рукопашная", "Стрельба"])
    assert not allowed(["Спец.свойство армии", "Спец.свойство армии"])
    assert not allowed(["+1 Модель", "+1 Модель"])
    with pytest.raises(ProcedureError, match="no Command die face"):
        allowed(["Прыжок"])
    row = run(procs, deadzone, "activations-in-a-row", {"plus_model_dice": 2, "army_limit": 3}, faces=[])
    assert row == {"models": 3, "allowed": False}  # still one +1 Модель die a turn


def test_shooting_distance_and_range(deadzone, procs):
    def distance(target, **more):
        return run(procs, deadzone, "shooting-distance", {"shooter": [2, 2, 1], "target": target, **more}, faces=[])

    assert distance([5, 5, 0])["distance"] == 3  # a diagonal, one level down
    assert distance([2, 2, 4]) == {"horizontal": 0, "vertical": 3, "distance": 3, "may_shoot": True}
    assert distance([2, 2, 1])["may_shoot"] is False  # the same cube
    assert distance([2, 6, 1], weapon_range=4)["may_shoot"] is True
    with pytest.raises(ProcedureError, match="off a row"):
        distance([3, 4, 1])


def test_cube_capacity(deadzone, procs):
    fits = lambda ours, theirs=None: run(procs, deadzone, "cube-capacity",  # noqa: E731
                                         {"ours": ours, "theirs": theirs}, faces=[])["fits"]
    assert fits([2, 2], [1, 1, 1, 1])
    assert not fits([2, 2], [3, 2])
    assert not fits([4, 1])


# --- the data drives the examples ------------------------------------------------------------------

def test_broken_example_fails_with_a_readable_message(copy: Path):
    rules = copy / "content" / "deadzone" / "rules" / "06-damage.md"
    text = rules.read_text(encoding="utf-8")
    old = "expect: {armour: 1, actual_damage: 1, total_damage: 1, state: wounded}"
    assert old in text
    rules.write_text(text.replace(old, old.replace("wounded", "killed")), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", "deadzone"])
    assert result.exit_code == 1
    example = line_of(rules, "::: example damage-wounded")
    expect = line_of(rules, "state: killed}")
    assert f"FAIL      content/deadzone/rules/06-damage.md:{example} damage-wounded" in result.output
    assert f"content/deadzone/rules/06-damage.md:{expect}: damage: state" in result.output
    assert "expected: killed" in result.output and "actual:   wounded" in result.output


def failing(copy: Path) -> tuple[int, list[str], dict]:
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", "deadzone", "--format", "json"])
    report = json.loads(result.output)
    rules = {r["id"]: r["problems"] for r in report["rules"] if r["result"] != "pass"}
    return result.exit_code, [e["id"] for e in report["examples"] if e["result"] == "fail"], rules


def test_wall_target_change_is_caught(copy: Path):
    manifest = copy / "content" / "deadzone" / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    old = "  - id: wall-test-target\n    name: Целевое число теста стены\n    value: 5+"
    assert old in text
    manifest.write_text(text.replace(old, old.replace("5+", "4+")), encoding="utf-8")
    code, examples, rules = failing(copy)
    assert code == 1 and examples == ["wall-collision"] and rules == {}


def test_fight_modifier_change_is_caught(copy: Path):
    tables = copy / "content" / "deadzone" / "data" / "tables.yaml"
    text = tables.read_text(encoding="utf-8")
    old = "{condition: Если оппонент в состоянии Лежит, dice: 1}"
    assert old in text
    tables.write_text(text.replace(old, old.replace("dice: 1", "dice: 2")), encoding="utf-8")
    code, examples, rules = failing(copy)
    assert code == 1 and examples == ["prone-fight"]
    assert rules == {"prone-fight-bonus-in-table": [
        "parameter prone-fight-bonus is 1, the fight-modifiers table says 2"]}


def test_capacity_change_is_caught(copy: Path):
    manifest = copy / "content" / "deadzone" / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    old = "  - id: cube-capacity-faction\n    name: Вместимость куба для одной фракции\n    value: 4"
    assert old in text
    manifest.write_text(text.replace(old, old[:-1] + "3"), encoding="utf-8")
    code, examples, rules = failing(copy)
    assert code == 1 and examples == ["cube-capacity"] and set(rules) == {"cube-capacity-adds-up"}


def test_tables_command_writes_shooting_table(copy: Path):
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", "deadzone", "--tables"])
    assert result.exit_code == 0, result.output
    data = json.loads((copy / "output" / "deadzone" / "tables" / "shooting-hit.json").read_text(encoding="utf-8"))
    assert data["title"]["en"].startswith("Chance to hit")
    assert {"id": "shoot_4", "name": {"ru": "Стрельба 4+", "en": "Shoot 4+"}} in data["columns"]
    assert set(data["localized"]) == {"ru", "en"}
    first = data["rows"][0]
    assert first["survive"] == "3+" and first["shoot_dice"] == 1 and first["shoot_3"].endswith("\u00a0%")
    assert data["localized"]["en"][0]["shoot_3"].endswith("%")
    csv = (copy / "output" / "deadzone" / "tables" / "shooting-hit.csv").read_text(encoding="utf-8").splitlines()
    assert csv[0] == "survive,survive_dice,shoot_dice,shoot_3,shoot_4,shoot_5,shoot_6,shoot_7"
    assert len(csv) == 26


def test_designer_note_computes_the_pass_chance(deadzone):
    from generator.checker.calc import evaluate, format_computed
    from generator.text.refs import CalcRef

    rules = (DEADZONE / "rules" / "03-tests.md").read_text(encoding="utf-8")
    ref = "calc:test(dice_count=3, target=4+, need=1).P(passed)"
    assert "{{ " + ref + " }}" in rules
    assert "{{ " + ref + " }}" in (DEADZONE / "locale" / "en.po").read_text(encoding="utf-8").split(
        "Шанс пройти тест")[1].split("msgid")[0]
    value = evaluate(deadzone, CalcRef.parse(ref))
    assert value.value == Fraction(485, 512)
    assert format_computed(value, "ru") == "95\u00a0%" and format_computed(value, "en") == "95%"
