"""How a value written in YAML is read against an actual one.

`fraction` reads an exact probability as written (1/2, 0.5, 50%); `same` says whether a written
value means an actual one: `3+` against a Target, `4–5` against a span of faces, `1/6` against
a Fraction, lists and mappings item by item. The checker's conditions (distribution), the
comparison of an example with its results (expect) and procedure inputs all read values so.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Mapping

from ..values import DASH, Dice, Distance, Span, StatType, Target, parse_value


def fraction(value: Any) -> Fraction:
    """An exact probability as written: 1/2, 0.5, 50%, 1 -> Fraction; ValueError otherwise."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a probability")
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(str(value))
    text = str(value).strip().replace(" ", "")
    if text.endswith("%"):
        return Fraction(text[:-1]) / 100
    return Fraction(text)


def same(actual: Any, expected: Any) -> bool:
    """Whether a written value means the actual one."""
    if isinstance(expected, str) and expected.strip() in DASH:
        expected = None
    if actual is None or expected is None:
        return actual is None and expected is None
    if isinstance(actual, bool) or isinstance(expected, bool):
        return isinstance(actual, bool) and isinstance(expected, bool) and actual == expected
    for types, compare in _BY_TYPE:
        if isinstance(actual, types):
            return compare(actual, expected)
    return actual == expected or (isinstance(expected, (int, float)) and str(actual) == str(expected))


_KIND = {Target: StatType.TARGET, Span: StatType.RANGE, Dice: StatType.DICE, Distance: StatType.DISTANCE}


def _same_value(actual: Any, expected: Any) -> bool:
    """`3+`, `4–5`, `2D6`, `6"` read as the actual value's type (in its unit) reads them."""
    try:
        return parse_value(expected, _KIND[type(actual)], getattr(actual, "unit", None)) == actual
    except ValueError:
        return False


def _same_number(actual: Any, expected: Any) -> bool:
    if isinstance(expected, str):
        try:
            expected = fraction(expected)
        except (ValueError, ZeroDivisionError):
            return False
    if not isinstance(expected, (int, float, Fraction)):
        return False
    return Fraction(str(actual)) == Fraction(str(expected))


def _same_mapping(actual: Any, expected: Any) -> bool:
    return isinstance(expected, Mapping) and set(map(str, expected)) == set(actual) and all(
        same(actual[str(k)], v) for k, v in expected.items())


def _same_set(actual: Any, expected: Any) -> bool:
    return isinstance(expected, list) and len(expected) == len(actual) and all(
        any(same(a, e) for a in actual) for e in expected)


def _same_sequence(actual: Any, expected: Any) -> bool:
    return isinstance(expected, list) and len(expected) == len(actual) and all(
        same(a, e) for a, e in zip(actual, expected))


# How an actual value of each type is compared with what is written, the first that fits.
_BY_TYPE: tuple[tuple[Any, Callable[[Any, Any], bool]], ...] = (
    ((Target, Span, Dice, Distance), _same_value),
    ((int, float, Fraction), _same_number),
    (Mapping, _same_mapping),
    ((frozenset, set), _same_set),
    ((tuple, list), _same_sequence),
)
