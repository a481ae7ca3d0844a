"""One procedure, three ways to run it: scripted dice, a seeded random source, exactly.

A procedure rolls through the `Dice` it is given and never knows which way it runs:

- `scripted(proc, game, faces, inputs)`: the dice show the faces an example fixes, in order;
- `simulate(proc, game, inputs, runs=, seed=)`: the dice are random, repeatably;
- `exact(proc, game, inputs)`: every roll branches over all its results (each roll's exact
  distribution comes from icepool), the procedure is run once per branch, and each result
  collects the probability of the branches that lead to it.

Exact runs cost one call of the procedure per combination of roll results, so a procedure
should roll with the coarsest call that says what it needs: `successes(5, 4)` has 6
results where `roll(5)` has 7,776.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..values import Span, stated
from .dice import (DEPTH, Face, Faces, Opposed, Reroll, Roll, Shows, Successes, Total, dice_terms, faces_of,
                   target_number)
from .distribution import Distribution, Outcome, as_outcome

Faces_ = Iterable[int] | Span | int | str | None  # faces a rule names: 8, [7, 8], '7+', '4–5'
LEAF_LIMIT = 200_000  # branches of one exact run before it is refused as too large


class ScriptError(Exception):
    """The scripted faces do not fit the rolls the procedure made."""


class ProcedureError(Exception):
    """A procedure cannot go on with these inputs: say why in the message (the checker shows it)."""


class _Source:
    mode = "?"

    def resolve(self, roll: Roll) -> Any:  # pragma: no cover - interface
        raise NotImplementedError


class _Scripted(_Source):
    mode = "scripted"

    def __init__(self, faces: Sequence[int]):
        self.faces = list(faces)
        self.used = 0

    def _next(self, sides: int) -> int:
        if self.used >= len(self.faces):
            raise ScriptError(f"the procedure rolls die {self.used + 1} (a d{sides}); the example scripts "
                              f"{_dice(len(self.faces))}: {_show(self.faces)}")
        face = self.faces[self.used]
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
            raise ScriptError(f"die {self.used + 1} of the script is {face!r}, which a d{sides} cannot show "
                              f"(1–{sides})")
        self.used += 1
        return face

    def resolve(self, roll: Roll) -> Any:
        return roll.draw(self._next)

    def finish(self) -> None:
        if self.used < len(self.faces):
            raise ScriptError(f"the example scripts {_dice(len(self.faces))} ({_show(self.faces)}); "
                              f"the procedure rolled {self.used}")


class _Seeded(_Source):
    mode = "seeded"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def resolve(self, roll: Roll) -> Any:
        return roll.draw(lambda sides: self.rng.randint(1, sides))


class _Exact(_Source):
    """Replays the branch choices in `trail`, then takes the first result of each new roll."""

    mode = "exact"

    def __init__(self, trail: list[list[Any]]):
        self.trail = trail  # [index chosen, roll, outcomes] per roll made so far
        self.at = 0
        self.weight = Fraction(1)

    def resolve(self, roll: Roll) -> Any:
        if self.at < len(self.trail):
            step = self.trail[self.at]
            if step[1] != roll:
                raise ProcedureError(f"the procedure rolled {step[1]} on one run and {roll} on another with "
                                     "the same dice: it must depend only on its inputs and its dice")
        else:
            outcomes = roll.outcomes()
            if not outcomes:
                raise ProcedureError(f"{roll} has no possible result")
            step = [0, roll, outcomes]
            self.trail.append(step)
        self.at += 1
        value, p = step[2][step[0]]
        self.weight *= p
        return value


class Dice:
    """What a procedure rolls with. Every call reads the same in all three ways of running.

    Targets may be written 4, '4+' or a Target stat; faces to explode on as 8, [7, 8], '8' or a Span.
    """

    def __init__(self, source: _Source):
        self._source = source

    @classmethod
    def scripted(cls, faces: Iterable[int]) -> "Dice":
        """Dice that show these faces, in this order (a worked example's roll)."""
        return cls(_Scripted(list(faces)))

    @classmethod
    def seeded(cls, seed: int | random.Random = 0) -> "Dice":
        """Random dice that roll the same way for the same seed."""
        return cls(_Seeded(seed if isinstance(seed, random.Random) else random.Random(seed)))

    @property
    def mode(self) -> str:
        """'scripted', 'seeded' or 'exact' — for messages only; rules must not depend on it."""
        return self._source.mode

    def d(self, sides: int = 6) -> int:
        """One die: the face it shows."""
        stated(sides)
        return self._source.resolve(Face(sides))

    def shows(self, faces: Any, sides: int = 6) -> bool:
        """One die against fixed faces: 6, [4, 5], '4–5', '6', '4+' or a Span. True if it shows one."""
        stated(sides)
        return self._source.resolve(Shows(faces_of(faces, sides), sides))

    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        """`n` dice one by one, in the order rolled (for rules that play each die in turn)."""
        stated(sides)
        return tuple(self.d(sides) for _ in range(max(n, 0)))

    def pool(self, n: int, sides: int = 6) -> tuple[int, ...]:
        """`n` dice thrown together: their faces, highest first."""
        stated(sides)
        return self._source.resolve(Faces(n, sides)) if n > 0 else ()

    def total(self, dice: Any, modifier: int = 0) -> int:
        """The sum of a dice expression: 'D6+D3', '2D6', a Dice stat, or a number of sides."""
        stated(dice)
        return self._source.resolve(Total(dice_terms(dice), modifier))

    def success(self, target: Any, sides: int = 6, reroll: bool = False) -> bool:
        """One die against a target number (4+). `reroll=True`: a failure may be rolled once more."""
        return self.successes(1, target, sides, reroll="failed" if reroll else None) > 0

    def successes(self, n: int, target: Any, sides: int = 6, explode: Faces_ = None, reroll: Reroll = None,
                  depth: int = DEPTH) -> int:
        """How many of `n` dice reach `target`; 0 when modifiers leave no dice.

        explode: faces that add a die to the pool (again and again, at most `depth` in a chain).
        reroll: 'failed' rolls each failed die once more; 'one' rolls one failed die once more.
        """
        if n <= 0:
            return 0
        return self._source.resolve(self._pool(n, target, sides, explode, reroll, depth))

    def opposed(self, ours: tuple[int, Any], theirs: tuple[int, Any], sides: int = 6,
                explode: Faces_ = None, reroll: Reroll = None, depth: int = DEPTH) -> int:
        """Two pools, each (dice, target), rolled against each other: our successes − theirs.

        Ours are rolled first (scripted faces are read in that order). Positive: we win.
        """
        a = self._pool(ours[0], ours[1], sides, explode, reroll, depth)
        b = self._pool(theirs[0], theirs[1], sides, explode, reroll, depth)
        return self._source.resolve(Opposed(a, b))

    @staticmethod
    def _pool(n: int, target: Any, sides: int, explode: Any, reroll: Reroll, depth: int) -> Successes:
        stated(sides), stated(target)
        return Successes(max(n, 0), target_number(target), sides, faces_of(explode, sides), reroll, depth)


ProcedureFn = Callable[..., Any]


def _call(proc: ProcedureFn, game: Any, dice: Dice, inputs: Mapping[str, Any] | None) -> Outcome:
    return as_outcome(proc(game, dice, **dict(inputs or {})))


def scripted(proc: ProcedureFn, game: Any, faces: Iterable[int] = (), inputs: Mapping[str, Any] | None = None) -> Outcome:
    """Run once with dice that show `faces` in order; ScriptError if the faces do not fit."""
    source = _Scripted(list(faces))
    outcome = _call(proc, game, Dice(source), inputs)
    source.finish()
    return outcome


def sample(proc: ProcedureFn, game: Any, inputs: Mapping[str, Any] | None = None, seed: int = 0) -> Outcome:
    """Run once with random dice (repeatable for a seed)."""
    return _call(proc, game, Dice.seeded(seed), inputs)


def simulate(proc: ProcedureFn, game: Any, inputs: Mapping[str, Any] | None = None, runs: int = 20_000,
             seed: int = 0) -> Distribution:
    """Run `runs` times with random dice from one seeded source: observed frequencies."""
    dice = Dice.seeded(seed)
    counts = Counter(_call(proc, game, dice, inputs) for _ in range(runs))
    return Distribution({outcome: Fraction(n, runs) for outcome, n in counts.items()}, runs=runs)


def exact(proc: ProcedureFn, game: Any, inputs: Mapping[str, Any] | None = None, limit: int = LEAF_LIMIT) -> Distribution:
    """Every possible result with its exact probability (a Fraction)."""
    weights: dict[Outcome, Fraction] = {}
    trail: list[list[Any]] = []
    leaves = 0
    while True:
        source = _Exact(trail)
        outcome = _call(proc, game, Dice(source), inputs)
        if source.at < len(trail):
            raise ProcedureError("the procedure made fewer rolls on a replay of the same dice: "
                                 "it must depend only on its inputs and its dice")
        weights[outcome] = weights.get(outcome, Fraction(0)) + source.weight
        leaves += 1
        if leaves > limit:
            raise ProcedureError(f"more than {limit} combinations of rolls to enumerate; roll with coarser "
                                 "calls (successes, pool) or fewer dice")
        while trail and trail[-1][0] + 1 >= len(trail[-1][2]):
            trail.pop()
        if not trail:
            return Distribution(weights)
        trail[-1][0] += 1


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def _show(faces: Sequence[Any]) -> str:
    return "[" + ", ".join(str(f) for f in faces) + "]"


__all__ = ["Dice", "ProcedureError", "ScriptError", "exact", "sample", "scripted", "simulate"]
