"""Typed stat values as the rules write them: one table of written forms and what each reads
as, or the one-line message that says what would be right, for every stat type."""

from __future__ import annotations

import math

import pytest

from generator.values import (Dice, Distance, DistanceUnit, Span, StatType, Target, Unstated, parse_measured,
                              parse_value)

CM, HEX, INCH = DistanceUnit.CM, DistanceUnit.HEX, DistanceUnit.INCH
PACES = {"pace": "pace", "paces": "pace"}

# (written, type, the stat's unit, the game's own unit words) -> value
READS = [
    (None, StatType.NUMBER, None, None, None),
    ("–", StatType.TARGET, None, None, None),  # the source's dash: the stat does not apply
    (" - ", StatType.DISTANCE, CM, None, None),
    ("unstated", StatType.DICE, None, None, Unstated()),
    ({"unstated": " why "}, StatType.NUMBER, None, None, Unstated(reason="why")),
    (Unstated(reason="r"), StatType.RANGE, None, None, Unstated(reason="r")),
    (" Bolter ", StatType.TEXT, None, None, "Bolter"),
    (7, StatType.TEXT, None, None, "7"),
    (80, StatType.NUMBER, None, None, 80),
    ("−3", StatType.NUMBER, None, None, -3),
    ("+2", StatType.NUMBER, None, None, 2),
    ("1,5", StatType.NUMBER, None, None, 1.5),
    (2.0, StatType.NUMBER, None, None, 2.0),
    ("4+", StatType.TARGET, None, None, Target(4)),
    (" 10 +", StatType.TARGET, None, None, Target(10)),
    ("D6", StatType.DICE, None, None, Dice(((1, 6),))),
    ("2д6 + d3", StatType.DICE, None, None, Dice(((2, 6), (1, 3)))),
    (7, StatType.RANGE, None, None, Span(7, 7)),
    ("1–4", StatType.RANGE, None, None, Span(1, 4)),
    ("2..3", StatType.RANGE, None, None, Span(2, 3)),
    ("8+", StatType.RANGE, None, None, Span(8, None)),
    ("Н3", StatType.DISTANCE, None, None, Distance(3, HEX)),
    ("25 см", StatType.DISTANCE, None, None, Distance(25, CM)),
    ("2,5 cm.", StatType.DISTANCE, CM, None, Distance(2.5, CM)),
    ('6"', StatType.DISTANCE, None, None, Distance(6, INCH)),
    ("12", StatType.DISTANCE, INCH, None, Distance(12, INCH)),
    ("3 PACES", StatType.DISTANCE, "pace", PACES, Distance(3, "pace")),
    ("3 pace", StatType.DISTANCE, "pace", None, Distance(3, "pace")),  # a unit's id names it
]

# (written, type, the stat's unit, the game's own unit words) -> the message, in full
REFUSED = [
    (True, StatType.NUMBER, None, None, "expected a value, not true/false"),
    (math.inf, StatType.NUMBER, None, None, "'inf' is not a number a game can use"),
    ("eighty", StatType.NUMBER, None, None, "'eighty' is not a number (write e.g. 80 or -3)"),
    ("4", StatType.TARGET, None, None, "'4' is not a target number (write e.g. 4+)"),
    ("1000+", StatType.TARGET, None, None, "'1000+' is not a target number (write e.g. 4+)"),
    ("0+", StatType.TARGET, None, None, "'0+': a target is at least 1+"),
    ("D6+", StatType.DICE, None, None, "'D6+' is not a dice expression (write e.g. D6, 2D6 or D6+D3)"),
    ("4–1", StatType.RANGE, None, None, "range '4–1' runs backwards"),
    ("a few", StatType.RANGE, None, None, "'a few' is not a range (write e.g. 1–4, 7 or 8+)"),
    ("far", StatType.DISTANCE, None, None, "'far' is not a distance (write e.g. 25 см, Н3 or 2 UE)"),
    ("12", StatType.DISTANCE, None, None, "'12' has no unit (write e.g. 25 см or 3 hex)"),
    ("12 in", StatType.DISTANCE, CM, None, "'12 in' is in inch, this stat is in cm"),
    ("3 pase", StatType.DISTANCE, None, PACES,
     "'3 pase': unknown distance unit 'pase' (known: UE, cm, cube, hex, inch, pace; a game declares its own "
     "under measures: in game.yaml) — did you mean 'pace'?"),
    ("3 qq", StatType.DISTANCE, None, None,
     "'3 qq': unknown distance unit 'qq' (known: UE, cm, cube, hex, inch; a game declares its own "
     "under measures: in game.yaml)"),
]


@pytest.mark.parametrize("raw, kind, unit, known, value", READS, ids=[repr(r[0]) for r in READS])
def test_a_written_value_reads_as_its_type(raw, kind, unit, known, value):
    parsed = parse_value(raw, kind, unit, known)
    assert parsed == value and type(parsed) is type(value)


@pytest.mark.parametrize("raw, kind, unit, known, message", REFUSED, ids=[repr(r[0]) for r in REFUSED])
def test_a_value_that_does_not_fit_says_what_would(raw, kind, unit, known, message):
    with pytest.raises(ValueError) as caught:
        parse_value(raw, kind, unit, known)
    assert str(caught.value) == message


def test_an_unstated_value_with_an_empty_reason_says_how_to_write_it():
    with pytest.raises(ValueError, match='write {unstated: "what the source leaves out"} or just unstated'):
        parse_value({"unstated": ""}, StatType.NUMBER)


# A value in a unit of measure (a parameter whose unit: is one): (written, unit, the game's words) -> value
MEASURED = [
    (40, CM, None, 40),
    ("1,5", CM, None, 1.5),
    ("−2", CM, None, -2),
    ("2–7", "UE", None, Span(2, 7)),
    ("8+", HEX, None, Span(8, None)),
    ("40 см", CM, None, Distance(40, CM)),
    ("Н3", HEX, None, Distance(3, HEX)),
    ("3 paces", "pace", PACES, Distance(3, "pace")),
    ("3 pace", "pace", None, Distance(3, "pace")),  # the unit's id names it
    ("unstated", CM, None, Unstated()),
    ("–", CM, None, None),
    (None, CM, None, None),
]

MEASURED_REFUSED = [
    ("много", CM, "'много' is not a number or a range (write e.g. 40, 2–7 or unstated)"),
    ("far away", "pace", "'far away' is not a number or a range (write e.g. 40, 2–7 or unstated)"),
    ("12 in", CM, "'12 in' is in inch, not in cm"),
    ("Н3", CM, "'Н3' is in hex, not in cm"),
    ("7–2", CM, "range '7–2' runs backwards"),
    (True, CM, "expected a value, not true/false"),
    (math.nan, CM, "'nan' is not a number a game can use"),
]


@pytest.mark.parametrize("raw, unit, known, value", MEASURED, ids=[repr(r[0]) for r in MEASURED])
def test_a_value_in_a_unit_of_measure_reads_as_a_number_range_or_unstated(raw, unit, known, value):
    parsed = parse_measured(raw, unit, known)
    assert parsed == value and type(parsed) is type(value)


@pytest.mark.parametrize("raw, unit, message", MEASURED_REFUSED, ids=[repr(r[0]) for r in MEASURED_REFUSED])
def test_a_word_in_a_unit_of_measure_says_what_would_do(raw, unit, message):
    with pytest.raises(ValueError) as caught:
        parse_measured(raw, unit)
    assert str(caught.value) == message
