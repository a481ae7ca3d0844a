"""Nuclear: its procedures against the rules as written (read from the data, never retyped), held
to brute-force enumeration of the dice and to seeded simulation; its examples pass, and a broken
example or a changed stat is caught. Shipped content is only read; changes go to a copy of the
game in a temporary project."""

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

NUCLEAR = REPO / "content" / "nuclear"
FACES = range(1, 7)
RUNS = 20_000


@pytest.fixture(scope="module")
def nuclear():
    report = Report()
    game = Project(REPO).load("nuclear", report)
    assert report.diagnostics == [], [d.format_text() for d in report.diagnostics]
    return game


@pytest.fixture(scope="module")
def procs(nuclear):
    found = load_procedures(nuclear.folder)
    assert found.problems == []
    return found


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A project with a copy of Nuclear to change."""
    shutil.copytree(NUCLEAR, tmp_path / "content" / "nuclear", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def run(procs, game, pid, inputs, faces=None):
    proc = procs.get(pid)
    bound = proc.bind(game, inputs)
    return exact(proc, game, bound) if faces is None else scripted(proc, game, faces, bound)


def distribution(dist, key):
    got = Counter()
    for outcome, p in dist:
        got[outcome[key]] += p
    return dict(got)


def within(observed: Fraction, p: Fraction, runs: int = RUNS) -> bool:
    """A simulated frequency is within 4 standard errors, sqrt(p(1-p)/N), of the exact value."""
    return abs(float(observed) - float(p)) <= 4 * math.sqrt(float(p) * float(1 - p) / runs) + 1e-12


# --- the shipped game ----------------------------------------------------------------------------

def test_shipped_nuclear_check_passes():
    result = check_project(Project(REPO), ["nuclear"])
    game = result.games[0]
    assert not result.failed, [(e.example.id, e.status) for e in game.examples]
    statuses = Counter(e.status for e in game.examples)
    assert statuses["pass"] == len(game.examples) >= 22 and statuses["unchecked"] == 0
    assert {r.rule.id for r in game.rules} >= {"event-table-covers-die", "texts-print-the-numbers",
                                               "recover-params-match", "weapon-counts-match-models"}


# --- the attack roll against enumeration -----------------------------------------------------------

def by_hand(attacks, quality, defense, ap=0, blast=0, models=None, rending=False, regeneration=False):
    """The Боевая система written apart from the procedure: every attack face, then every save face
    for each success, then every regeneration face; the distribution of Раны."""
    counts = Counter()  # (successes that are natural 6s, other successes) after Взрыв
    for hits_faces in itertools.product(FACES, repeat=attacks):
        hit = [f for f in hits_faces if f >= quality]
        torn = sum(1 for f in hit if rending and f == 6)
        factor = min(blast, models) if blast else 1
        counts[(torn * factor, (len(hit) - torn) * factor)] += Fraction(1, 6 ** attacks)
    out = Counter()
    for (torn, plain), p_attack in counts.items():
        for saves in itertools.product(FACES, repeat=torn + plain):
            p_save = Fraction(1, 6 ** (torn + plain))
            torn_left = sum(1 for f in saves[:torn] if f < defense + 4)
            plain_left = sum(1 for f in saves[torn:] if f < defense + ap)
            regen_dice = plain_left if regeneration else 0
            for regen in itertools.product(FACES, repeat=regen_dice):
                p_regen = Fraction(1, 6 ** regen_dice)
                ignored = sum(1 for f in regen if f >= 5)
                out[torn_left + plain_left - ignored] += p_attack * p_save * p_regen
    return dict(out)


@pytest.mark.parametrize("case", [
    dict(attacks=3, quality=4, defense=4),
    dict(attacks=2, quality=5, defense=3, ap=1),
    dict(attacks=3, quality=3, defense=2, ap=4),
    dict(attacks=2, quality=4, defense=2, rending=True),
    dict(attacks=2, quality=4, defense=3, rending=True, regeneration=True),
    dict(attacks=2, quality=4, defense=4, regeneration=True),
    dict(attacks=1, quality=4, defense=5, ap=1, blast=3, models=5),
    dict(attacks=2, quality=4, defense=4, blast=3, models=2),
])
def test_attack_dice_matches_enumeration(nuclear, procs, case):
    inputs = {"attacks": case["attacks"], "quality": f"{case['quality']}+", "defense": f"{case['defense']}+",
              "ap": case.get("ap", 0), "blast": case.get("blast", 0), "target_models": case.get("models"),
              "rending": case.get("rending", False), "regeneration": case.get("regeneration", False)}
    dist = run(procs, nuclear, "attack-dice", inputs)
    assert distribution(dist, "wounds") == by_hand(**case)


def test_wounds_per_attack_is_hit_times_failed_save(nuclear, procs):
    """The table: P(hit) × P(no save), the save one face harder per ББ, for every cell."""
    from generator.checker.tables import compute

    computed = compute(nuclear, procs.tables["wounds-per-attack"])
    assert len(computed.rows) == 25
    for row in computed.rows:
        q, d = row["quality"].number, row["defense"].number
        for ap in range(0, 5):
            hit = Fraction(sum(1 for f in FACES if f >= q), 6)
            save = Fraction(sum(1 for f in FACES if f >= d + ap), 6)
            assert row[f"ap{ap}"] == hit * (1 - save), (q, d, ap)
    names = {c["id"]: c["name"] for c in computed.columns}
    assert names["quality"] == {"ru": "Качество", "en": "Quality"} and names["ap1"] == {"ru": "ББ 1", "en": "AP 1"}


def test_tables_command_writes_the_table(copy: Path):
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", "nuclear", "--tables"])
    assert result.exit_code == 0, result.output
    folder = copy / "output" / "nuclear" / "tables"
    csv = (folder / "wounds-per-attack.csv").read_text(encoding="utf-8").splitlines()
    assert csv[0] == "quality,defense,ap0,ap1,ap2,ap3,ap4"
    assert csv[1] == "2+,2+,0.138889,0.277778,0.416667,0.555556,0.694444"
    data = json.loads((folder / "wounds-per-attack.json").read_text(encoding="utf-8"))
    assert data["exact"][0]["ap0"] == "5/36" and set(data["localized"]) == {"ru", "en"}


# --- shooting and melee: enumeration and simulation -----------------------------------------------

def test_shooting_matches_enumeration(nuclear, procs):
    """Veterans (4+) fire 5 Лазвинтовок at soldiers (4+) from Черное дерево (Частичное укрытие: 5+)."""
    dist = run(procs, nuclear, "shooting", {"attacker": "veterans", "target": "soldiers", "terrain": "black-wood"})
    assert distribution(dist, "wounds") == by_hand(attacks=5, quality=5, defense=4)
    left = distribution(dist, "models_left")
    assert left == {10 - w: p for w, p in by_hand(attacks=5, quality=5, defense=4).items()}


def test_shooting_morale_against_simulation(nuclear, procs):
    """Soldiers at 6 models: a test once at half strength; seeded runs agree within 4 standard errors."""
    proc = procs.get("shooting")
    inputs = proc.bind(nuclear, {"attacker": "veterans", "target": "soldiers", "models_left": 6})
    exactly = exact(proc, nuclear, inputs)
    assert exactly.probability("morale_test") == 1 - Fraction(3, 4) ** 5
    assert exactly.probability("suppressed") == (1 - Fraction(3, 4) ** 5) * Fraction(2, 3)
    simulated = simulate(proc, nuclear, inputs, runs=RUNS, seed=11)
    for condition in ("morale_test", "suppressed", "wounds >= 2", "models_left <= 3"):
        assert within(simulated.probability(condition), exactly.probability(condition)), condition


def test_melee_against_simulation(nuclear, procs):
    proc = procs.get("melee")
    inputs = proc.bind(nuclear, {"attacker": "veterans", "defender": "soldiers"})
    exactly = exact(proc, nuclear, inputs)
    assert sum(p for _, p in exactly) == 1
    simulated = simulate(proc, nuclear, inputs, runs=RUNS, seed=5)
    for condition in ("winner == attacker", "winner == defender", "winner == null", "loser_morale == failed"):
        assert within(simulated.probability(condition), exactly.probability(condition)), condition
    # the attacker's Раны: 5 dice on 4+ against the soldiers' 4+
    assert distribution(exactly, "attacker_wounds") == by_hand(attacks=5, quality=4, defense=4)


def test_melee_by_hand_small(nuclear, procs):
    """Two veterans Attack one soldier: enumerated face by face, written apart from the procedure."""
    dist = run(procs, nuclear, "melee", {"attacker": "veterans", "defender": "soldiers",
                                         "attacker_models": 2, "defender_models": 2})
    expected = Counter()
    for hits in itertools.product(FACES, repeat=2):
        h = sum(f >= 4 for f in hits)
        for saves in itertools.product(FACES, repeat=h):
            dealt = h - sum(f >= 4 for f in saves)
            survivors = 2 - dealt
            for back in itertools.product(FACES, repeat=survivors):
                b = sum(f >= 5 for f in back)
                for own in itertools.product(FACES, repeat=b):
                    received = b - sum(f >= 4 for f in own)
                    p = Fraction(1, 6 ** (2 + h + survivors + b))
                    winner = "attacker" if dealt > received else "defender" if received > dealt else None
                    expected[winner] += p
    assert distribution(dist, "winner") == dict(expected)


def test_impact_and_suppressed(nuclear, procs):
    # Удар (4) when Attacking: four successes with no roll
    dist = run(procs, nuclear, "melee", {"attacker": "ragnarok", "defender": "veterans", "defender_models": 1})
    assert dist.probability("attacker_hits == 4") == 1
    # a Подавленный defender strikes back on 6+ only
    dist = run(procs, nuclear, "melee", {"attacker": "veterans", "defender": "soldiers", "attacker_models": 1,
                                         "defender_models": 1, "defender_suppressed": True})
    no_wound = Fraction(1, 2) + Fraction(1, 2) * Fraction(1, 2)  # the veteran misses, or the soldier saves
    assert dist.probability("defender_hits == 1") == no_wound * Fraction(1, 6)


# --- wounds, toughness, deadly ----------------------------------------------------------------------

def every_order(procs, game, unit, wounds, deadly, toughness):
    finals = set()
    for order in itertools.product(range(1, len(toughness) + 1), repeat=wounds):
        try:
            result = run(procs, game, "wounds", {"unit": unit, "wounds": wounds, "deadly": deadly,
                                                 "toughness": toughness, "order": list(order)}, [])
        except ProcedureError:  # a wound on a model already dead
            continue
        finals.add(tuple(result["toughness"]))
    return finals


@pytest.mark.parametrize("unit,wounds,deadly,toughness", [
    ("recruits", 3, 1, [1] * 10),
    ("recruits", 2, 6, [1] * 4),
    ("heavy-weapons-platoon", 1, 1, [2, 2, 2]),
    ("heavy-weapons-platoon", 2, 1, [2, 2, 2]),
    ("heavy-weapons-platoon", 3, 1, [1, 2]),
    ("siegfried", 2, 6, [4, 4, 1]),
    ("ragnarok", 2, 6, [8]),
])
def test_allocation_is_decided_only_when_every_order_agrees(nuclear, procs, unit, wounds, deadly, toughness):
    result = run(procs, nuclear, "wounds", {"unit": unit, "wounds": wounds, "deadly": deadly,
                                            "toughness": toughness}, [])
    finals = every_order(procs, nuclear, unit, wounds, deadly, toughness)
    if len(finals) == 1:
        assert tuple(result["toughness"]) == next(iter(finals))
    else:
        assert result["toughness"] is None and result["models_left"] is None


def test_deadly_does_not_spill(nuclear, procs):
    r = run(procs, nuclear, "wounds", {"unit": "recruits", "wounds": 3, "weapon": "twin-lascannon"}, [])
    assert r["models_left"] == 7 and r["lost"] == 15
    r = run(procs, nuclear, "wounds", {"unit": "leman-russ", "wounds": 1, "weapon": "twin-lascannon"}, [])
    assert r["toughness"] == (6,)


# --- rolls of 1-2, events, initiative, morale ------------------------------------------------------------

@pytest.mark.parametrize("pid,unit,toughness", [
    ("transport-destroyed", "veterans", None),
    ("dangerous", "veterans", None),
    ("transport-destroyed", "heavy-weapons-platoon", [1, 2, 2]),
    ("dangerous", "siegfried", None),
])
def test_low_rolls_match_enumeration(nuclear, procs, pid, unit, toughness):
    inputs = {"unit": unit} if toughness is None else {"unit": unit, "toughness": toughness}
    dist = run(procs, nuclear, pid, inputs)
    state = toughness or [1] * nuclear.stat(nuclear.units[unit], "models")  # no Стойкость: one Рана kills
    if unit == "siegfried":  # Вездеход ignores Опасный
        assert distribution(dist, "wounded") == {0: 1}
        return
    expected = Counter()
    for faces in itertools.product(FACES, repeat=len(state)):
        left = sum(1 for t, f in zip(state, faces) if not (f <= 2 and t == 1))
        expected[left] += Fraction(1, 6 ** len(state))
    assert distribution(dist, "models_left") == dict(expected)


def test_random_event_matches_enumeration(nuclear, procs):
    dist = run(procs, nuclear, "random-event", {})
    expected = Counter()
    rows = nuclear.tables["random-events"].rows
    for trigger in FACES:
        if trigger < 4:
            expected[None] += Fraction(1, 6)
            continue
        for roll in range(1, 101):
            row = next(r for r in rows if int(r["roll"].split("-")[0]) <= roll <= int(r["roll"].split("-")[1]))
            expected[row["event"]] += Fraction(1, 600)
    assert distribution(dist, "event") == dict(expected)
    assert all(p == Fraction(1, 40) for event, p in expected.items() if event)


def test_initiative_ties_by_d100(nuclear, procs):
    dist = run(procs, nuclear, "initiative", {"bids": {"a": 10, "b": 10, "c": 20}})
    wins = sum(Fraction(1, 10_000) for x, y in itertools.product(range(1, 101), repeat=2) if x > y)
    assert dist.probability("first == c") == 1
    assert dist.probability(lambda r: r["order"] == ("c", "a", "b")) == wins
    assert dist.probability("order == null") == Fraction(1, 100)


def test_morale_matches_enumeration(nuclear, procs):
    for unit, bonus in (("veterans", 0), ("grenadiers", 1), ("recruits", 0)):
        quality = nuclear.stat(nuclear.units[unit], "quality").number
        dist = run(procs, nuclear, "morale-test", {"unit": unit})
        assert dist.probability("passed") == Fraction(sum(1 for f in FACES if f + bonus >= quality), 6)


@pytest.mark.parametrize("pid,inputs,conditions", [
    ("attack-dice", {"attacks": 3, "quality": "4+", "defense": "3+", "ap": 1}, ["wounds >= 1", "wounds == 2"]),
    ("attack-dice", {"attacks": 2, "quality": "4+", "defense": "2+", "rending": True, "regeneration": True},
     ["wounds >= 1", "regenerated >= 1"]),
    ("shooting", {"attacker": "ragnarok", "target": "veterans", "weapons": ["battle-cannon"]},
     ["wounds >= 2", "successes == 3"]),
    ("morale-test", {"unit": "grenadiers"}, ["passed"]),
    ("dangerous", {"unit": "veterans"}, ["wounded >= 2"]),
    ("transport-destroyed", {"unit": "heavy-weapons-platoon", "toughness": [1, 2, 2]}, ["models_left == 2"]),
    ("random-event", {}, ["happens", "roll >= 91"]),
    ("initiative", {"bids": {"a": 5, "b": 5}}, ["first == a"]),
])
def test_exact_agrees_with_seeded_simulation(nuclear, procs, pid, inputs, conditions):
    """20,000 seeded runs land within 4 standard errors of the exact probability."""
    proc = procs.get(pid)
    bound = proc.bind(nuclear, inputs)
    exactly = exact(proc, nuclear, bound)
    simulated = simulate(proc, nuclear, bound, runs=RUNS, seed=2024)
    for condition in conditions:
        assert within(simulated.probability(condition), exactly.probability(condition)), condition


def test_morale_only_after_wounds(nuclear, procs):
    """«также проходят Тест на Мораль»: a unit already below half that takes no Рана does not test."""
    result = run(procs, nuclear, "shooting", {"attacker": "veterans", "target": "soldiers", "models_left": 4},
                 [4, 1, 1, 1, 1, 6])
    assert result["wounds"] == 0 and result["morale_test"] is False
    result = run(procs, nuclear, "shooting", {"attacker": "veterans", "target": "soldiers", "models_left": 4},
                 [4, 1, 1, 1, 1, 1, 5])
    assert result["models_left"] == 3 and result["morale_test"] is True and result["suppressed"] is False


# --- gaps: the procedure stops and says why ------------------------------------------------------------

@pytest.mark.parametrize("pid,inputs,faces,message", [
    ("reinforce", {"unit": "ragnarok", "new_models": 1, "toughness": []}, [], "ragnarok-reinforcement-cost"),
    ("reinforce", {"unit": "soldiers", "new_models": 1}, [], "full strength"),
    ("shooting", {"attacker": "ragnarok", "target": "soldiers", "weapons": ["battle-cannon"],
                  "terrain": "black-gorges"}, [], "Подземный уровень"),
    ("melee", {"attacker": "death-riders", "defender": "soldiers"}, [], "Удар"),
    ("melee", {"attacker": "veterans", "defender": "heavy-weapons-platoon", "defender_suppressed": True}, [],
     "Подавленный"),
    ("attack-dice", {"attacks": 1, "quality": "4+", "defense": "4+", "blast": 3}, [4], "Взрыв"),
    ("shooting", {"attacker": "veterans", "target": "soldiers", "weapons": ["close-combat-weapon"]}, [], "reaches"),
])
def test_gaps_raise(nuclear, procs, pid, inputs, faces, message):
    with pytest.raises(ProcedureError, match=message):
        run(procs, nuclear, pid, inputs, faces)


# --- a broken example, a changed stat --------------------------------------------------------------

def test_broken_example_fails_with_a_readable_message(copy: Path):
    rules = copy / "content" / "nuclear" / "rules" / "05-combat.md"
    text = rules.read_text(encoding="utf-8")
    old = "expect: {hits: 3, saves: 1, wounds: 2, models_left: 8, morale_test: false}"
    assert old in text
    rules.write_text(text.replace(old, old.replace("wounds: 2", "wounds: 3")), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", "nuclear"])
    assert result.exit_code == 1
    example = line_of(rules, "::: rule combat-resolution")
    block = line_of(rules, old.replace("wounds: 2", "wounds: 3"))
    assert f"FAIL      content/nuclear/rules/05-combat.md:{example} combat-resolution" in result.output
    assert f"content/nuclear/rules/05-combat.md:{block}: shooting with dice [4, 5, 2, 6, 1, 4, 2, 1]: wounds" \
        in result.output
    assert "expected: 3" in result.output and "actual:   2" in result.output


def test_changed_quality_fails_the_examples_that_use_it(copy: Path):
    units = copy / "content" / "nuclear" / "data" / "units.yaml"
    text = units.read_text(encoding="utf-8")
    old = "stats: {models: 5, quality: 4+, defense: 4+, cost: 80, reinforcement-cost: 16}"
    assert text.count(old) == 1  # the veterans
    units.write_text(text.replace(old, old.replace("quality: 4+", "quality: 5+")), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", "nuclear", "--format", "json"])
    report = json.loads(result.output)
    assert result.exit_code == 1
    failed = {e["id"] for e in report["examples"] if e["result"] == "fail"}
    assert {"combat-resolution", "melee-resolution", "terrain-properties", "central-base",
            "weapon-notation"} <= failed
    assert "fast-movement" not in failed and "slow-movement" not in failed and "deadly-no-spill" not in failed


def test_changed_weapon_property_fails_blast(copy: Path):
    weapons = copy / "content" / "nuclear" / "data" / "weapons.yaml"
    text = weapons.read_text(encoding="utf-8")
    assert text.count("Взрывное (3)") == 1
    weapons.write_text(text.replace("Взрывное (3)", "Взрывное (2)"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", "nuclear", "--format", "json"])
    report = json.loads(result.output)
    failed = {e["id"] for e in report["examples"] if e["result"] == "fail"}
    assert failed == {"blast-capped-by-models"}


def test_changed_parameter_fails_the_glossary_consistency(copy: Path):
    manifest = copy / "content" / "nuclear" / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    old = "value: 5+}"
    assert text.count(old) == 1  # regeneration-target
    manifest.write_text(text.replace(old, "value: 4+}"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", "nuclear"])
    assert result.exit_code == 1
    assert "keywords/regeneration does not print «(4+)»" in result.output
    assert "FAIL      content/nuclear/rules/09-glossary.md" in result.output
    assert "regeneration-5plus" in result.output


def test_event_table_gap_is_caught(copy: Path):
    tables = copy / "content" / "nuclear" / "data" / "tables.yaml"
    text = tables.read_text(encoding="utf-8")
    assert text.count("roll: 96-100") == 1
    tables.write_text(text.replace("roll: 96-100", "roll: 97-100"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", "nuclear"])
    assert result.exit_code == 1
    assert "random-events: no line for 96" in result.output
