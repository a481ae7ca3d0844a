"""The kinds of roll the games make, each described once and readable two ways.

A roll is a small frozen description: `Face(6)`, `Total(((1, 6), (1, 3)))`,
`Successes(3, 4, sides=8, explode=(8,))`. It can read its result off dice faces one at a
time (`draw`: used by scripted examples and by seeded simulation) and it can say what its
exact distribution is (`distribution`: an icepool `Die`, probabilities as Fractions).
The tests hold the two to agreement by brute-force enumeration.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Iterable, Literal

import icepool

from ..values import Dice as DiceExpr
from ..values import Span, StatType, Target, parse_value

Draw = Callable[[int], int]  # sides -> one face of a die with that many sides
Reroll = Literal["failed", "one"] | None

DEPTH = 9  # how many extra dice one exploding die may add in a chain


class Roll:
    """A kind of roll: `draw` reads it off faces, `distribution` gives it exactly."""

    def draw(self, face: Draw) -> Any:  # pragma: no cover - interface
        raise NotImplementedError

    def distribution(self) -> icepool.Die:  # pragma: no cover - interface
        raise NotImplementedError

    def outcomes(self) -> tuple[tuple[Any, Fraction], ...]:
        """Each possible result with its exact probability (zero-probability ones left out)."""
        return _outcomes(self)


@lru_cache(maxsize=4096)
def _outcomes(roll: Roll) -> tuple[tuple[Any, Fraction], ...]:
    die = roll.distribution()
    total = die.denominator()
    return tuple((outcome, Fraction(quantity, total)) for outcome, quantity in die.items() if quantity)


@dataclass(frozen=True)
class Face(Roll):
    """One die: the face it shows."""

    sides: int = 6

    def draw(self, face: Draw) -> int:
        return face(self.sides)

    def distribution(self) -> icepool.Die:
        return icepool.d(self.sides)


@dataclass(frozen=True)
class Shows(Roll):
    """One die against a fixed set of faces ('6', '4–5', '4+'): whether it shows one of them."""

    faces: frozenset[int]
    sides: int = 6

    def draw(self, face: Draw) -> bool:
        return face(self.sides) in self.faces

    def distribution(self) -> icepool.Die:
        return icepool.d(self.sides).map(lambda value: value in self.faces)


@dataclass(frozen=True)
class Faces(Roll):
    """Several dice read as a handful: their faces, highest first (the order is lost)."""

    n: int
    sides: int = 6

    def draw(self, face: Draw) -> tuple[int, ...]:
        return tuple(sorted((face(self.sides) for _ in range(self.n)), reverse=True))

    def distribution(self) -> icepool.Die:
        if self.n <= 0:
            return icepool.Die([()])
        return icepool.d(self.sides).pool(self.n).expand().map(lambda faces: tuple(reversed(faces)))


@dataclass(frozen=True)
class Total(Roll):
    """The sum of dice, as a dice stat writes it: D6+D3 is ((1, 6), (1, 3))."""

    terms: tuple[tuple[int, int], ...]
    modifier: int = 0

    def draw(self, face: Draw) -> int:
        return sum(face(sides) for n, sides in self.terms for _ in range(n)) + self.modifier

    def distribution(self) -> icepool.Die:
        total: icepool.Die = icepool.Die([self.modifier])
        for n, sides in self.terms:
            total = total + n @ icepool.d(sides)
        return total


@dataclass(frozen=True)
class Successes(Roll):
    """A pool of `n` dice, each a success on `target` or more.

    `explode`: faces that add one more die to the pool (which may explode in turn, at most
    `depth` times in a chain). `reroll`: "failed" rolls every failed die once more and the
    new face stands; "one" rolls one failed die once more after the whole pool is rolled.
    A rerolled die explodes like any other but is not rerolled again (the dice its
    explosions add are new dice: under "failed" they may be rerolled).
    Faces are read die by die: a die, then the dice its explosions add, then the next die;
    a reroll is read right after the face it replaces; the "one" reroll comes last.
    """

    n: int
    target: int
    sides: int = 6
    explode: frozenset[int] = frozenset()
    reroll: Reroll = None
    depth: int = DEPTH

    def __post_init__(self) -> None:
        if self.reroll not in (None, "failed", "one"):
            raise ValueError(f"reroll is 'failed', 'one' or None, not {self.reroll!r}")
        if self.depth < 0:
            raise ValueError("depth cannot be negative")

    # --- one die at a time -------------------------------------------------------------
    def _die(self, face: Draw, depth: int, may_reroll: bool, new_may_reroll: bool) -> tuple[int, int]:
        """(successes, failures) of one die and the dice it adds. `may_reroll`: this die, if it
        fails; `new_may_reroll`: the dice its explosions add."""
        value = face(self.sides)
        success = value >= self.target
        if not success and may_reroll:
            return self._die(face, depth, False, new_may_reroll)
        counts = (int(success), int(not success))
        if value in self.explode and depth > 0:
            more = self._die(face, depth - 1, new_may_reroll, new_may_reroll)
            counts = (counts[0] + more[0], counts[1] + more[1])
        return counts

    def draw(self, face: Draw) -> int:
        every = self.reroll == "failed"
        successes = failures = 0
        for _ in range(max(self.n, 0)):
            s, f = self._die(face, self.depth, every, every)
            successes, failures = successes + s, failures + f
        if self.reroll == "one" and failures:
            successes += self._die(face, self.depth, False, False)[0]
        return successes

    # --- exactly -----------------------------------------------------------------------
    def _single(self, reroll: bool, with_failures: bool) -> icepool.Die:
        return _single_die(self.sides, self.target, self.explode, self.depth, reroll, reroll, with_failures)

    def distribution(self) -> icepool.Die:
        if self.n <= 0:
            return icepool.Die([0])
        if self.reroll == "one":
            # (successes, whether any die failed), die by die; then one failed die is rolled again
            single = self._single(False, True).map(lambda c: icepool.Vector((c[0], min(c[1], 1))))
            pool = _repeat(single, self.n)
            extra = self._single(False, False)
            return pool.map(lambda counts: counts[0] + (extra if counts[1] > 0 else 0), star=False)
        return self.n @ self._single(self.reroll == "failed", False)


@lru_cache(maxsize=1024)
def _single_die(sides: int, target: int, explode: frozenset[int], depth: int, may_reroll: bool,
                new_may_reroll: bool, with_failures: bool) -> icepool.Die:
    """One die of a success pool, as `Successes._die` reads it: its successes (or a Vector of
    successes and failures)."""

    def result(value: int):
        success = value >= target
        if not success and may_reroll:
            return _single_die(sides, target, explode, depth, False, new_may_reroll, with_failures)
        counts = icepool.Vector((int(success), int(not success))) if with_failures else int(success)
        if value in explode and depth > 0:
            more = _single_die(sides, target, explode, depth - 1, new_may_reroll, new_may_reroll, with_failures)
            return more.map(lambda extra: extra + counts)
        return counts

    return icepool.d(sides).map(result)


def _repeat(die: icepool.Die, n: int) -> icepool.Die:
    """n independent copies of a (successes, any failure) die, combined by doubling."""

    def join(a: icepool.Die, b: icepool.Die) -> icepool.Die:
        return icepool.map(lambda x, y: icepool.Vector((x[0] + y[0], max(x[1], y[1]))), a, b, star=False)

    result, power = None, die
    while n:
        if n & 1:
            result = power if result is None else join(result, power)
        n >>= 1
        if n:
            power = join(power, power)
    return result


@dataclass(frozen=True)
class Opposed(Roll):
    """Two success pools rolled against each other: the first side's margin (ours − theirs)."""

    ours: Successes
    theirs: Successes

    def draw(self, face: Draw) -> int:
        mine = self.ours.draw(face)
        return mine - self.theirs.draw(face)

    def distribution(self) -> icepool.Die:
        return self.ours.distribution() - self.theirs.distribution()


# --- the values rolls are made of ------------------------------------------------------

def target_number(target: Any) -> int:
    """4, '4+' or Target(4) -> 4: the face a die needs to succeed."""
    if isinstance(target, Target):
        return target.number
    if isinstance(target, bool):
        raise ValueError(f"a target number is a face such as 4 or 4+, not {target!r}")
    if isinstance(target, int):
        return target
    parsed = parse_value(target, StatType.TARGET)
    if not isinstance(parsed, Target):
        raise ValueError(f"'{target}' is not a target number (write e.g. 4+)")
    return parsed.number


def dice_terms(dice: Any) -> tuple[tuple[int, int], ...]:
    """'D6+D3', '2D6', 8 (sides) or a parsed Dice value -> ((count, sides), ...)."""
    if isinstance(dice, DiceExpr):
        return dice.terms
    if isinstance(dice, int) and not isinstance(dice, bool):
        return ((1, dice),)
    parsed = parse_value(dice, StatType.DICE)
    if not isinstance(parsed, DiceExpr):
        raise ValueError(f"'{dice}' is not a dice expression (write e.g. D6, 2D6 or D6+D3)")
    return parsed.terms


def faces_of(which: Iterable[int] | Span | int | str | None, sides: int) -> frozenset[int]:
    """The faces a rule names: 8, [7, 8], '7+', '4–5', Span(7, None), or None for none."""
    if which is None:
        return frozenset()
    if isinstance(which, str):
        which = threshold(which)
        if which is None:
            return frozenset()
    if isinstance(which, int):
        return frozenset({which})
    if isinstance(which, Span):
        return frozenset(f for f in range(1, sides + 1) if f in which)
    return frozenset(int(f) for f in which)


def threshold(cell: Any) -> Span | None:
    """A damage or hit cell as a table prints it: '4+', '6', '4–5' -> a Span of faces; '-' -> None.

    Test a face with `face in threshold(cell)`.
    """
    if isinstance(cell, Span) or cell is None:
        return cell
    if isinstance(cell, Target):
        return Span(cell.number, None)
    return parse_value(cell, StatType.RANGE)  # type: ignore[return-value]


__all__ = [
    "DEPTH", "Face", "Faces", "Opposed", "Roll", "Shows", "Successes", "Total",
    "dice_terms", "faces_of", "target_number", "threshold",
]
