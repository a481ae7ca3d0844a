"""The dice engine: each roll's exact distribution (icepool) against brute-force enumeration of
faces with a second, independent reading of the rule, and against seeded simulation.

Brute force: every sequence of L faces (itertools.product) is equally likely; the reading
consumes a prefix of it, so counting results over all sequences gives each result's exact
probability, whatever the number of dice explosions and rerolls add.

Simulation tolerance: |frequency − p| ≤ 4 standard errors, sqrt(p(1−p)/N) at N = 20,000
(a correct engine fails one such comparison in about 16,000).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from generator.checker import Dice, ProcedureError, ScriptError, exact, scripted, simulate
from generator.checker.dice import Face, Faces, Opposed, Shows, Successes, Total, threshold
from generator.values import Span, Target

RUNS = 20_000
SIGMAS = 4


def brute(reading, sides: int, length: int) -> dict:
    """Exact distribution of reading(next_face) over every sequence of `length` faces."""
    counts: Counter = Counter()
    for faces in itertools.product(range(1, sides + 1), repeat=length):
        it = iter(faces)
        counts[reading(lambda: next(it))] += 1
    total = sides ** length
    return {k: Fraction(v, total) for k, v in counts.items()}


def engine(roll) -> dict:
    return dict(roll.outcomes())


# --- second readings of the rules, written independently of the engine ------------------

def pool_successes(next_face, n, target, explode=(), reroll=None, depth=9):
    """Breadth-first: the dice a pool ends up with, each read once (rerolls replace the face)."""
    successes = failures = 0
    queue = [depth] * n
    while queue:
        left = queue.pop(0)
        face = next_face()
        if face < target and reroll == "failed":
            face = next_face()  # the new face stands
        if face >= target:
            successes += 1
        else:
            failures += 1
        if face in explode and left > 0:
            queue.append(left - 1)
    if reroll == "one" and failures:
        left = depth
        while True:
            face = next_face()
            successes += face >= target
            if face in explode and left > 0:
                left -= 1
                continue
            break
    return successes


CASES = [
    # (n, target, sides, explode, reroll, depth, faces to enumerate)
    (3, 4, 6, (), None, 0, 3),
    (2, 5, 6, (6,), None, 2, 6),
    (2, 3, 4, (4,), None, 3, 8),
    (2, 3, 4, (), "failed", 0, 4),
    (2, 3, 4, (4,), "failed", 1, 8),
    (3, 4, 4, (), "one", 0, 4),
    (2, 3, 4, (4,), "one", 1, 6),
    (2, 3, 4, (3, 4), "one", 2, 9),
]


@pytest.mark.parametrize("n,target,sides,explode,reroll,depth,length", CASES)
def test_successes_exact_matches_brute_force(n, target, sides, explode, reroll, depth, length):
    roll = Successes(n, target, sides, frozenset(explode), reroll, depth)
    expected = brute(lambda f: pool_successes(f, n, target, explode, reroll, depth), sides, length)
    assert engine(roll) == {k: v for k, v in expected.items() if v}
    # the engine's own face-by-face reading (scripted and seeded runs) gives the same distribution
    assert brute(lambda f: roll.draw(lambda s: f()), sides, length) == expected


def test_successes_explode_is_deep_enough_to_matter():
    """d8, success on 4+, an 8 adds a die: P(at least 2 successes from 1 die) = 1/8 · 5/8 (+ deeper)."""
    dist = engine(Successes(1, 4, 8, frozenset({8}), None, 9))
    assert dist[0] == Fraction(3, 8)
    assert dist[1] == Fraction(4, 8) + Fraction(1, 8) * Fraction(3, 8)
    assert sum(dist.values()) == 1


def test_one_die_target_roll_with_keep_or_reroll():
    assert engine(Successes(1, 4, 6, frozenset(), "failed"))[1] == 1 - Fraction(1, 2) ** 2
    assert engine(Successes(1, 5, 6))[1] == Fraction(1, 3)


def test_face_and_handful_and_total_match_brute_force():
    assert engine(Face(6)) == brute(lambda f: f(), 6, 1)
    assert engine(Faces(3, 4)) == brute(lambda f: tuple(sorted((f(), f(), f()), reverse=True)), 4, 3)
    assert engine(Total(((1, 6), (1, 3)))) == {
        k: v for k, v in brute(lambda f: f() + (f() - 1) // 2 + 1, 6, 2).items()}
    assert engine(Total(((2, 6),), 1)) == brute(lambda f: f() + f() + 1, 6, 2)


def test_fixed_faces_match_brute_force():
    assert engine(Shows(frozenset({4, 5}), 6)) == brute(lambda f: f() in (4, 5), 6, 1)
    assert exact(lambda g, d: d.shows("6"), None).probability("result") == Fraction(1, 6)
    assert exact(lambda g, d: d.shows("4+", sides=8), None).probability("result") == Fraction(5, 8)
    assert scripted(lambda g, d: d.shows([4, 5]), None, [6]) == {"result": False}


def test_opposed_matches_brute_force():
    roll = Opposed(Successes(2, 4, 6, frozenset({6}), None, 1), Successes(2, 5, 6, frozenset(), None, 1))
    expected = brute(lambda f: pool_successes(f, 2, 4, (6,), None, 1) - pool_successes(f, 2, 5), 6, 6)
    assert engine(roll) == expected
    through_dice = exact(lambda g, d: d.opposed((2, 4), (2, "5+"), sides=4, explode=4, depth=1), None)
    both_explode = brute(lambda f: pool_successes(f, 2, 4, (4,), None, 1) - pool_successes(f, 2, 5, (4,), None, 1), 4, 8)
    assert {o["result"]: p for o, p in through_dice} == both_explode


@pytest.mark.parametrize("roll", [
    Successes(4, 4, 8, frozenset({8}), None, 9),
    Successes(3, 5, 6, frozenset({6}), "failed", 9),
    Successes(5, 4, 6, frozenset(), "one", 9),
    Opposed(Successes(3, 4, 8, frozenset({8})), Successes(3, 5, 8, frozenset({8}))),
    Total(((1, 6), (1, 3))),
], ids=str)
def test_exact_matches_seeded_simulation(roll):
    rng = random.Random(20240521)
    counts = Counter(roll.draw(lambda sides: rng.randint(1, sides)) for _ in range(RUNS))
    for outcome, p in roll.outcomes():
        if p < Fraction(1, 1000):
            continue
        error = SIGMAS * math.sqrt(float(p * (1 - p)) / RUNS)
        assert abs(counts[outcome] / RUNS - float(p)) <= error, (outcome, counts[outcome] / RUNS, float(p))


def test_simulation_of_wrong_distribution_is_caught():
    """The tolerance is tight enough to reject a slightly wrong answer (the test can fail)."""
    roll = Successes(4, 4, 6)
    rng = random.Random(7)
    freq = sum(roll.draw(lambda sides: rng.randint(1, sides)) >= 1 for _ in range(RUNS)) / RUNS
    true_p = 1 - 0.5 ** 4                    # 0.9375
    wrong_p = 1 - (Fraction(3, 6) + Fraction(1, 60)) ** 4  # a target of 4+ read as slightly harder
    error = SIGMAS * math.sqrt(true_p * (1 - true_p) / RUNS)
    assert abs(freq - true_p) <= error
    assert abs(freq - float(wrong_p)) > error


# --- one procedure, three ways ----------------------------------------------------------

def fight(game, dice, attackers: int, target: int, armour: int = 0):
    """A test procedure: hits on a success pool (6s explode), each hit then saved on armour+."""
    hits = dice.successes(attackers, target, explode=6)
    saves = dice.successes(hits, armour) if armour else 0
    return {"hits": hits, "wounds": hits - saves}


def test_procedure_three_ways():
    inputs = {"attackers": 2, "target": 4, "armour": 5}
    assert scripted(fight, None, [6, 2, 4, 5, 1], inputs) == {"hits": 2, "wounds": 1}
    dist = exact(fight, None, inputs)
    assert sum(p for _, p in dist) == 1
    assert dist.mean("hits") == 2 * (Fraction(1, 2) + Fraction(1, 6) * Fraction(1, 2) * sum(
        Fraction(1, 6) ** k for k in range(9)))
    sim = simulate(fight, None, inputs, runs=RUNS, seed=1)
    for wounds in range(3):
        p = dist.probability(f"wounds == {wounds}")
        assert abs(sim.probability(f"wounds == {wounds}") - p) <= SIGMAS * math.sqrt(float(p * (1 - p)) / RUNS)


def test_procedure_exact_against_brute_force_with_shallow_explosions():
    def shallow(game, dice, attackers, target, armour):
        hits = dice.successes(attackers, target, sides=4, explode=4, depth=1)
        saves = dice.successes(hits, armour, sides=4)
        return hits - saves

    def reading(f):
        hits = pool_successes(f, 2, 3, (4,), None, 1)
        return hits - pool_successes(f, hits, 4)

    dist = exact(shallow, None, {"attackers": 2, "target": 3, "armour": 4})
    assert {o["result"]: p for o, p in dist} == brute(reading, 4, 8)


def test_scripted_faces_are_read_in_order_with_explosions_first():
    """An exploding die's extra die is read right after it, before the next die of the pool."""
    assert scripted(lambda g, d: d.successes(2, 4, 8, explode=8), None, [8, 3, 5]) == {"result": 2}
    assert scripted(lambda g, d: d.successes(2, 4, 8, explode=8), None, [8, 8, 1, 2]) == {"result": 2}


def test_script_too_short_too_long_or_impossible():
    proc = lambda g, d: d.successes(2, 4)  # noqa: E731
    with pytest.raises(ScriptError, match="rolls die 2"):
        scripted(proc, None, [5])
    with pytest.raises(ScriptError, match="scripts 3 dice.*rolled 2"):
        scripted(proc, None, [5, 6, 1])
    with pytest.raises(ScriptError, match="a d6 cannot show"):
        scripted(proc, None, [5, 7])


def test_modifiers_can_remove_every_die():
    assert scripted(lambda g, d: d.successes(3 - 4, 4), None, []) == {"result": 0}
    assert exact(lambda g, d: d.successes(0, 4), None).probability("result == 0") == 1


def test_exact_refuses_a_procedure_that_is_not_a_function_of_its_dice():
    state = {"calls": 0}

    def moody(game, dice):
        state["calls"] += 1
        return dice.d(6 if state["calls"] == 1 else 8)

    with pytest.raises(ProcedureError, match="depend only on its inputs and its dice"):
        exact(moody, None)


def test_exact_refuses_too_many_branches():
    with pytest.raises(ProcedureError, match="coarser"):
        exact(lambda g, d: d.roll(8, 6), None, limit=1000)


def test_threshold_reads_table_cells():
    assert threshold("4+") == Span(4, None) and 6 in threshold("4+") and 3 not in threshold("4+")
    assert threshold("4–5") == Span(4, 5) and 6 not in threshold("4–5")
    assert threshold("6") == Span(6, 6)
    assert threshold("-") is None
    assert threshold(Target(3)) == Span(3, None)


def test_targets_as_written():
    dice = Dice.scripted([4, 3, 3])
    assert dice.success("4+") is True
    assert dice.success(Target(4)) is False
    assert dice.success(3) is True
