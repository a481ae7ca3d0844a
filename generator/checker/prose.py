"""An example's prose checked against its own check blocks: the text says 3, the rules give 2.

Each number of a worked example's text (text/claims.py) is bound to an input of a check
block, a face its dice show, or a result of the run with those dice, or marked free. The
checker compares every bound number with what it is bound to; one that differs fails the
example at the number's own line and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping

from ..text.claims import Binding, Claim, claims
from .distribution import lookup
from .examples import CheckBlock, Example
from .expect import show
from ..values import Span, Target

PASS, FAIL, ERROR, FREE, UNBOUND = "pass", "fail", "error", "free", "unbound"
ERRATUM = "erratum"  # the text and the rules differ, and an erratum records it


@dataclass(frozen=True)
class ClaimResult:
    """One number of an example's prose, where it stands, and the verdict on it."""

    claim: Claim
    path: Path
    line: int
    col: int
    verdict: str               # pass | fail | error | free | unbound | erratum
    actual: str | None = None  # the value it is bound to, as the run gives it
    message: str = ""

    @property
    def failed(self) -> bool:
        return self.verdict in (FAIL, ERROR)


def example_claims(example: Example, lang: str) -> list[tuple[Claim, Path, int, int]]:
    """Every number of an example's prose with its place: (claim, file, line, column)."""
    out = []
    for paragraph in example.prose:
        for claim in claims(paragraph.text, lang):
            line, col = paragraph.place(claim.start)
            out.append((claim, paragraph.path, line, col))
    return out


def number_of(value: Any) -> Fraction | None:
    """A value as the number prose writes for it: a target 4+ is 4, a list counts its items."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(str(value))
    if isinstance(value, Target):
        return Fraction(value.number)
    if isinstance(value, Span):
        return Fraction(value.low) if value.high is None or value.high == value.low else None
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(\d+)\s*\+?\s*", value)
        return Fraction(int(m.group(1))) if m else None
    if isinstance(value, (list, tuple, set, frozenset, Mapping)):
        return Fraction(len(value))
    return None


def _path(value: Any, steps: list[str]) -> Any:
    for step in steps:
        if isinstance(value, Mapping):
            value = lookup(value, step)
        elif isinstance(value, (list, tuple)) and step.isdigit() and 0 < int(step) <= len(value):
            value = value[int(step) - 1]
        else:
            raise KeyError(f"'{step}' is not inside {show(value)}")
    return value


def bound_value(binding: Binding, block: CheckBlock, outcome: Mapping[str, Any] | None) -> Any:
    """What a binding names in a check block and its run; KeyError says why there is none."""
    if binding.kind == "die":
        dice = block.dice or []
        if int(binding.name) > len(dice):
            raise KeyError(f"die={binding.name}: the check block shows {len(dice)} dice")
        return dice[int(binding.name) - 1]
    steps = binding.name.split(".")
    if binding.kind == "input":
        if not any(k in block.inputs for k in (steps[0], steps[0].replace("-", "_"), steps[0].replace("_", "-"))):
            raise KeyError(f"the check block gives no input '{steps[0]}' "
                           f"(it gives: {', '.join(map(str, block.inputs)) or 'none'})")
        return _path(block.inputs, steps)
    if outcome is None:
        raise KeyError(f"result={binding.name}: the check block has no run with dice to read it from (add expect:)")
    return _path(outcome, steps)


def _verdict(claim: Claim, path: Path, line: int, col: int, blocks: list[CheckBlock],
             outcomes: list[Mapping[str, Any] | None]) -> ClaimResult:
    if claim.problems:
        return ClaimResult(claim, path, line, col, ERROR, message="; ".join(claim.problems))
    if claim.free:
        return ClaimResult(claim, path, line, col, FREE)
    binding = claim.binding
    if binding is None:
        return ClaimResult(claim, path, line, col, UNBOUND)
    if binding.check > len(blocks):
        return ClaimResult(claim, path, line, col, ERROR,
                           message=f"check={binding.check}: the example has {len(blocks)} check block(s)")
    try:
        value = bound_value(binding, blocks[binding.check - 1], outcomes[binding.check - 1])
    except KeyError as exc:
        return ClaimResult(claim, path, line, col, ERROR, message=str(exc.args[0]))
    number = number_of(value)
    actual = show(value)
    if number is None:
        return ClaimResult(claim, path, line, col, ERROR, actual,
                           f"{binding} is {actual}, not a number the text can say")
    if number != claim.value:
        said = f"the text says {claim.text}, the rules give {show(number)} ({binding})"
        return ClaimResult(claim, path, line, col, ERRATUM if binding.erratum else FAIL, show(number), said)
    if binding.erratum:
        return ClaimResult(claim, path, line, col, FAIL, actual,
                           f"the text says {claim.text} and the rules agree, but erratum '{binding.erratum}' "
                           f"says they differ: drop erratum={binding.erratum}")
    return ClaimResult(claim, path, line, col, PASS, actual)


def check_claims(example: Example, outcomes: list[Mapping[str, Any] | None], lang: str) -> list[ClaimResult]:
    """The verdict on every number of an example's prose; `outcomes` are the runs of its
    check blocks with their dice (None where a block has none)."""
    return [_verdict(claim, path, line, col, example.checks, outcomes)
            for claim, path, line, col in example_claims(example, lang)]


def cited_errata(examples: list[Example], lang: str) -> dict[str, tuple[Path, int, int]]:
    """The errata that numbers of the examples' prose cite, each with its first place."""
    out: dict[str, tuple[Path, int, int]] = {}
    for example in examples:
        for claim, path, line, col in example_claims(example, lang):
            if claim.binding is not None and claim.binding.erratum:
                out.setdefault(claim.binding.erratum, (path, line, col))
    return out


__all__ = ["ClaimResult", "ERRATUM", "ERROR", "FAIL", "FREE", "PASS", "UNBOUND", "bound_value", "check_claims",
           "cited_errata", "example_claims", "number_of"]
