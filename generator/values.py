"""Typed game values as the rules write them: 4+, D6, 25 см, Н3, 1–4.

A stat in YAML is kept as the designer writes it; its stat definition names the type, and
`parse_value` turns the text into a value the rule procedures compute with. A value that
does not fit its type raises `ValueError` with a message that says what would.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum

DASH = {"-", "–", "—"}


class StatType(str, Enum):
    TARGET = "target"      # a number to roll on a die: 4+
    DICE = "dice"          # a die or dice: D6, 2D6, d100, D6+D3
    DISTANCE = "distance"  # a length with its unit: 25 см, Н3, 2 UE
    NUMBER = "number"      # costs, counts, points: 80, -3
    RANGE = "range"        # an inclusive span: 1–4, 8+
    TEXT = "text"          # free text (a type name, a damage type code)


class DistanceUnit(str, Enum):
    CM = "cm"
    INCH = "inch"
    HEX = "hex"
    CUBE = "cube"
    UE = "UE"


# Words that name each unit, in both languages and in the sources' abbreviations.
UNIT_WORDS: dict[str, DistanceUnit] = {
    "cm": DistanceUnit.CM, "см": DistanceUnit.CM,
    "in": DistanceUnit.INCH, "inch": DistanceUnit.INCH, '"': DistanceUnit.INCH,
    "hex": DistanceUnit.HEX, "гекс": DistanceUnit.HEX, "гекса": DistanceUnit.HEX,
    "гексов": DistanceUnit.HEX, "h": DistanceUnit.HEX, "н": DistanceUnit.HEX,
    "cube": DistanceUnit.CUBE, "cubes": DistanceUnit.CUBE, "куб": DistanceUnit.CUBE,
    "куба": DistanceUnit.CUBE, "кубов": DistanceUnit.CUBE,
    "ue": DistanceUnit.UE, "ед": DistanceUnit.UE,
}


@dataclass(frozen=True)
class Target:
    """Roll this or more on one die."""
    number: int

    def __str__(self) -> str:
        return f"{self.number}+"


@dataclass(frozen=True)
class Dice:
    """A sum of dice, e.g. D6+D3 = ((1, 6), (1, 3))."""
    terms: tuple[tuple[int, int], ...]

    @property
    def faces(self) -> tuple[int, int]:
        """Smallest and largest total."""
        low = sum(n for n, _ in self.terms)
        high = sum(n * s for n, s in self.terms)
        return low, high

    def __str__(self) -> str:
        return "+".join(f"{n if n > 1 else ''}D{s}" for n, s in self.terms)


@dataclass(frozen=True)
class Distance:
    amount: float
    unit: DistanceUnit

    def __str__(self) -> str:
        amount = int(self.amount) if float(self.amount).is_integer() else self.amount
        return f"{amount} {self.unit.value}"


@dataclass(frozen=True)
class Span:
    """An inclusive range of whole numbers; `high` None means open-ended (8+)."""
    low: int
    high: int | None

    def __contains__(self, value: int) -> bool:
        return value >= self.low and (self.high is None or value <= self.high)

    def __str__(self) -> str:
        if self.high is None:
            return f"{self.low}+"
        return str(self.low) if self.low == self.high else f"{self.low}–{self.high}"


Value = Target | Dice | Distance | Span | int | float | str | None

_TARGET = re.compile(r"^(\d+)\s*\+$")
_DICE_TERM = re.compile(r"^(\d*)\s*[dDдД]\s*(\d+)$")
_NUMBER = re.compile(r"^[-−+]?\d+(?:[.,]\d+)?$")
_DISTANCE_SUFFIX = re.compile(r"^(\d+(?:[.,]\d+)?)\s*([^\d\s.,]+)?\.?$")
_DISTANCE_PREFIX = re.compile(r"^([HhНн])\s*(\d+)$")
_SPAN = re.compile(r"^(\d+)\s*(?:[-–—]|\.\.)\s*(\d+)$")
_SPAN_OPEN = re.compile(r"^(\d+)\s*\+$")


def _number(text: str) -> int | float:
    text = text.replace("−", "-").replace(",", ".")
    value = float(text)
    return int(value) if value.is_integer() and "." not in text else value


def parse_value(raw: object, kind: StatType, unit: DistanceUnit | None = None) -> Value:
    """Parse one stat value of the given type; raise ValueError saying what was expected."""
    if raw is None:
        return None
    if isinstance(raw, bool):
        raise ValueError("expected a value, not true/false")
    if isinstance(raw, float) and not math.isfinite(raw):
        raise ValueError(f"'{raw}' is not a number a game can use")
    text = str(raw).strip()
    if text in DASH:
        return None  # the source's dash: the stat does not apply
    if kind is StatType.TEXT:
        return text
    if kind is StatType.NUMBER:
        if isinstance(raw, (int, float)) or _NUMBER.match(text):
            return _number(text)
        raise ValueError(f"'{text}' is not a number (write e.g. 80 or -3)")
    if kind is StatType.TARGET:
        match = _TARGET.match(text)
        if match and len(match.group(1)) <= 3:
            number = int(match.group(1))
            if number < 1:
                raise ValueError(f"'{text}': a target is at least 1+")
            return Target(number)
        raise ValueError(f"'{text}' is not a target number (write e.g. 4+)")
    if kind is StatType.DICE:
        terms = []
        for part in text.split("+"):
            match = _DICE_TERM.match(part.strip())
            if not match:
                raise ValueError(f"'{text}' is not a dice expression (write e.g. D6, 2D6 or D6+D3)")
            terms.append((int(match.group(1) or 1), int(match.group(2))))
        return Dice(tuple(terms))
    if kind is StatType.RANGE:
        if isinstance(raw, int) or text.isdigit():
            return Span(int(text), int(text))
        match = _SPAN.match(text)
        if match:
            low, high = int(match.group(1)), int(match.group(2))
            if low > high:
                raise ValueError(f"range '{text}' runs backwards")
            return Span(low, high)
        match = _SPAN_OPEN.match(text)
        if match:
            return Span(int(match.group(1)), None)
        raise ValueError(f"'{text}' is not a range (write e.g. 1–4, 7 or 8+)")
    if kind is StatType.DISTANCE:
        match = _DISTANCE_PREFIX.match(text)
        if match:
            return Distance(int(match.group(2)), DistanceUnit.HEX)
        match = _DISTANCE_SUFFIX.match(text)
        if match:
            amount = _number(match.group(1))
            word = (match.group(2) or "").lower()
            if not word:
                if unit is None:
                    raise ValueError(f"'{text}' has no unit (write e.g. 25 см or 3 hex)")
                return Distance(amount, unit)
            if word in UNIT_WORDS:
                found = UNIT_WORDS[word]
                if unit is not None and found is not unit:
                    raise ValueError(f"'{text}' is in {found.value}, this stat is in {unit.value}")
                return Distance(amount, found)
            raise ValueError(f"'{text}': unknown distance unit '{word}' "
                             f"(known: {', '.join(sorted({u.value for u in DistanceUnit}))})")
        raise ValueError(f"'{text}' is not a distance (write e.g. 25 см, Н3 or 2 UE)")
    raise ValueError(f"unknown stat type {kind}")  # pragma: no cover


UNIT_NAMES: dict[str, dict[DistanceUnit, str]] = {
    "ru": {DistanceUnit.CM: "см", DistanceUnit.INCH: "дюйм.", DistanceUnit.HEX: "гекс.",
           DistanceUnit.CUBE: "куб.", DistanceUnit.UE: "УЕ"},
    "en": {DistanceUnit.CM: "cm", DistanceUnit.INCH: "in", DistanceUnit.HEX: "hex",
           DistanceUnit.CUBE: "cube", DistanceUnit.UE: "UE"},
}


def format_value(value: Value, lang: str = "en") -> str:
    """The value as a reader sees it; the source's dash for a value that does not apply."""
    if value is None:
        return "–"
    if isinstance(value, Distance):
        amount = int(value.amount) if float(value.amount).is_integer() else value.amount
        names = UNIT_NAMES.get(lang, UNIT_NAMES["en"])
        return f"{amount}\u00a0{names[value.unit]}"
    if isinstance(value, float) and lang == "ru":
        return str(value).replace(".", ",")
    return str(value)
