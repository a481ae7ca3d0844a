"""Comparing what an example says with what the procedure gives, and showing the difference.

A value written in YAML is read the way the actual value is typed: `3+` against a Target,
`4–5` against a span of faces, `melee` against a record (records compare by id), `1/6`
against a Fraction. Each mismatch names the result, the expected and the actual value.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from ..values import format_value
from .distribution import Outcome, lookup
from .written import same


@dataclass(frozen=True)
class Mismatch:
    """One result that differs: what, where (the line of the expected value), both values."""

    what: str
    expected: str
    actual: str
    line: int = 0
    subject: str = ""  # the run it comes from: "damage with dice [4, 5, 6]", "damage, exactly"

    def __str__(self) -> str:
        return f"{self.what}: expected {self.expected}, actual {self.actual}"


def show(value: Any) -> str:
    """A value the way a check block would write it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return str(value) if value.denominator != 1 else str(value.numerator)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, (frozenset, set)):
        return "[" + ", ".join(sorted(show(v) for v in value)) + "]"
    return format_value(value)


def compare(outcome: Outcome, expected: Mapping[str, Any]) -> list[tuple[str, Mismatch]]:
    """(key as written, mismatch) for every expected result the outcome does not match."""
    out = []
    for key, want in expected.items():
        try:
            got = lookup(outcome, str(key))
        except KeyError:
            out.append((key, Mismatch(str(key), show(want), f"nothing (the procedure returns: "
                                                             f"{', '.join(sorted(outcome)) or 'nothing'})")))
            continue
        if not same(got, want):
            out.append((key, Mismatch(str(key), show(want), show(got))))
    return out


def show_probability(value: Fraction) -> str:
    """1/6 (≈ 16.67%): exact, with a reading aid."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value} (≈ {float(value) * 100:.2f}%)" if 0 <= value <= 1 else f"{value} (≈ {float(value):.4f})"


__all__ = ["Mismatch", "compare", "same", "show", "show_probability"]
