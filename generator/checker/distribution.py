"""What a procedure can come out as, with how likely each result is.

A procedure returns a mapping of named results (`{"hits": 2, "destroyed": True}`); an
exact run gives each distinct result its probability as a Fraction, a simulation its
observed frequency. Questions are asked by name: `dist.probability("hits >= 1")`,
`dist.mean("hits")`, or with a function of the result.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any, Callable, Iterator, Mapping

import icepool
import yaml

from ..reading.yamlsource import yaml_value

from ..model import Record
from .written import same

RESULT = "result"  # the name a procedure's single (non-mapping) result goes by


class Outcome(dict):
    """One result of a procedure: a read-only mapping that can be counted (hashable)."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("a procedure's outcome cannot be changed")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _refuse  # type: ignore[assignment]


def freeze(value: Any) -> Any:
    """A result in comparable form: lists become tuples, records their ids, mappings Outcomes."""
    if isinstance(value, Record):
        return value.id
    if isinstance(value, Mapping):
        return Outcome({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(freeze(v) for v in value)
    return value


def as_outcome(value: Any) -> Outcome:
    """A procedure's return value as an Outcome; a bare value is named 'result'."""
    frozen = freeze(value)
    return frozen if isinstance(frozen, Outcome) else Outcome({RESULT: frozen})


class Distribution:
    """Results with their probabilities (exact Fractions, or frequencies from a simulation)."""

    def __init__(self, weights: Mapping[Outcome, Fraction], runs: int | None = None):
        self._weights = dict(weights)
        self.runs = runs  # number of simulated runs; None for an exact distribution

    @property
    def exact(self) -> bool:
        return self.runs is None

    def __iter__(self) -> Iterator[tuple[Outcome, Fraction]]:
        return iter(self._weights.items())

    def __len__(self) -> int:
        return len(self._weights)

    def keys(self) -> set[str]:
        """Every result name some outcome carries."""
        return {key for outcome in self._weights for key in outcome}

    def probability(self, event: str | Callable[[Outcome], bool]) -> Fraction:
        """P(event): `"hits >= 1"`, `"destroyed"`, `"not destroyed and hits == 0"`, or a function."""
        test = Event.parse(event).test if isinstance(event, str) else event
        return sum((p for outcome, p in self._weights.items() if test(outcome)), Fraction(0))

    def mean(self, key: str = RESULT) -> Fraction:
        """E(key): the average of a numeric result (true counts as 1)."""
        total = Fraction(0)
        for outcome, p in self._weights.items():
            value = lookup(outcome, key)
            if isinstance(value, bool):
                value = int(value)
            if not isinstance(value, (int, Fraction, float)):
                raise ValueError(f"'{key}' is {value!r} in some outcomes: not a number to average")
            total += p * Fraction(value)
        return total

    def die(self, key: str = RESULT) -> icepool.Die:
        """One result as an icepool Die, for anything icepool can ask of it."""
        marginal: dict[Any, Fraction] = {}
        for outcome, p in self._weights.items():
            value = lookup(outcome, key)
            marginal[value] = marginal.get(value, Fraction(0)) + p
        scale = math.lcm(*(p.denominator for p in marginal.values())) if marginal else 1
        return icepool.Die({value: int(p * scale) for value, p in marginal.items()})


# --- events: "hits >= 1 and not destroyed" ---------------------------------------------

_ATOM = re.compile(r"^\s*(?P<neg>not\s+)?(?P<key>[A-Za-z_][\w-]*)\s*"
                   r"(?:(?P<op>==|!=|>=|<=|>|<|=)\s*(?P<value>[^=<>!\s].*?))?\s*$")
_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b, "=": lambda a, b: a == b, "!=": lambda a, b: a != b,
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, "<": lambda a, b: a < b,
}


class Event:
    """A condition on a result: atoms `key`, `not key`, `key OP value`, joined by `and` / `or`."""

    def __init__(self, text: str, alternatives: list[list[tuple[bool, str, str | None, Any]]]):
        self.text = text
        self._alternatives = alternatives

    @classmethod
    def parse(cls, text: str) -> "Event":
        alternatives = []
        for part in re.split(r"\s+or\s+", text.strip()):
            atoms = []
            for atom in re.split(r"\s+and\s+", part):
                match = _ATOM.match(atom)
                if not match:
                    raise ValueError(f"'{atom.strip()}' is not a condition (write e.g. hits >= 1, destroyed, not destroyed)")
                value = match.group("value")
                atoms.append((bool(match.group("neg")), match.group("key"),
                              match.group("op"), literal(value) if value is not None else None))
            alternatives.append(atoms)
        return cls(text.strip(), alternatives)

    def names(self) -> set[str]:
        return {key for atoms in self._alternatives for _, key, _, _ in atoms}

    def test(self, outcome: Mapping[str, Any]) -> bool:
        return any(all(self._atom(outcome, *atom) for atom in atoms) for atoms in self._alternatives)

    @staticmethod
    def _atom(outcome: Mapping[str, Any], negate: bool, key: str, op: str | None, value: Any) -> bool:
        actual = lookup(outcome, key)
        if op is None:
            result = bool(actual)
        else:
            if op in ("==", "=", "!="):
                result = same(actual, value) == (op != "!=")
            else:
                if actual is None:
                    result = False
                else:
                    try:
                        result = _OPS[op](actual, value)
                    except TypeError:
                        raise ValueError(f"cannot compare {key} = {actual!r} with {value!r}") from None
        return not result if negate else result


def lookup(outcome: Mapping[str, Any], key: str) -> Any:
    """outcome[key], where `cover-hp` and `cover_hp` name the same result."""
    for name in (key, key.replace("-", "_"), key.replace("_", "-")):
        if name in outcome:
            return outcome[name]
    raise KeyError(f"the procedure returns no '{key}' (it returns: {', '.join(sorted(outcome)) or 'nothing'})")


def literal(text: str) -> Any:
    """A value written in a condition or an argument: 3, 1/2, true, null, melee, 4+."""
    text = text.strip()
    if re.fullmatch(r"-?\d+\s*/\s*\d+", text):
        return Fraction(text.replace(" ", ""))
    try:
        return yaml_value(text)
    except yaml.YAMLError:
        return text


# --- statistics: "P(hits >= 1)", "E(hits)" ---------------------------------------------

_STAT = re.compile(r"^\s*(?P<kind>[PE])\s*\(\s*(?P<body>.*?)\s*\)\s*$")


class Stat:
    """A number computed from a distribution: P(event) or E(result)."""

    def __init__(self, kind: str, body: str, event: Event | None):
        self.kind = kind
        self.body = body
        self.event = event

    @classmethod
    def parse(cls, text: str) -> "Stat":
        match = _STAT.match(str(text))
        if not match or not match.group("body"):
            raise ValueError(f"'{text}' is neither P(condition) nor E(result) (write e.g. P(hits >= 1) or E(hits))")
        kind, body = match.group("kind"), match.group("body")
        if kind == "E":
            if not re.fullmatch(r"[A-Za-z_][\w-]*", body):
                raise ValueError(f"E({body}): name one numeric result, e.g. E(hits)")
            return cls(kind, body, None)
        return cls(kind, body, Event.parse(body))

    def names(self) -> set[str]:
        return self.event.names() if self.event else {self.body}

    def of(self, dist: Distribution) -> Fraction:
        return dist.probability(self.event.test) if self.event else dist.mean(self.body)

    def __str__(self) -> str:
        return f"{self.kind}({self.body})"


__all__ = ["Distribution", "Event", "Outcome", "RESULT", "Stat", "as_outcome", "freeze", "literal", "lookup"]
