"""Typed game values as the rules write them: 4+, D6, 25 см, Н3, 1–4.

A stat in YAML is kept as the designer writes it; its stat definition names the type, and
`parse_value` turns the text into a value the rule procedures compute with. A value that
does not fit its type raises `ValueError` with a message that says what would.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable

from babel import Locale, UnknownLocaleError, numbers
from pydantic import BaseModel, ConfigDict, PrivateAttr, model_serializer, model_validator

from ..core.diagnostics import did_you_mean

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
    "in": DistanceUnit.INCH, "inch": DistanceUnit.INCH, '"': DistanceUnit.INCH, "zoll": DistanceUnit.INCH,
    "hex": DistanceUnit.HEX, "гекс": DistanceUnit.HEX, "гекса": DistanceUnit.HEX,
    "гексов": DistanceUnit.HEX, "h": DistanceUnit.HEX, "н": DistanceUnit.HEX,
    "cube": DistanceUnit.CUBE, "cubes": DistanceUnit.CUBE, "куб": DistanceUnit.CUBE,
    "куба": DistanceUnit.CUBE, "кубов": DistanceUnit.CUBE,
    "ue": DistanceUnit.UE, "ед": DistanceUnit.UE,
}

# A unit of measure: one of the built-in five, or the id of one a game declares (game.yaml
# measures:, e.g. "pace").
Unit = DistanceUnit | str


def unit_of(unit_id: str) -> Unit:
    """The built-in unit `unit_id` names ("cm" -> DistanceUnit.CM), else the id of a game's own unit."""
    try:
        return DistanceUnit(unit_id)
    except ValueError:
        return unit_id


def unit_id(unit: Unit) -> str:
    """The id a unit is written with in game.yaml: 'cm', 'inch', 'pace'."""
    return unit.value if isinstance(unit, DistanceUnit) else unit


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
    unit: Unit

    def __str__(self) -> str:
        amount = int(self.amount) if float(self.amount).is_integer() else self.amount
        return f"{amount} {unit_id(self.unit)}"


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


class Unstated(BaseModel):
    """The source does not give this value. Written in YAML as `unstated` or
    `{unstated: "why"}`; it validates where a value is required, prints as a marked blank
    with a note, and a rule procedure that needs it fails with `UnstatedError`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reason: str | None = None
    # Where the value sits ("die 'red' field 'sides'"), set when the game is loaded, so a
    # procedure that computes with it fails naming the record and field.
    _where: str = PrivateAttr(default="a value")

    @model_validator(mode="before")
    @classmethod
    def _written(cls, data: Any) -> Any:
        if isinstance(data, Unstated):
            return data
        if data == UNSTATED:
            return {"reason": None}
        if isinstance(data, dict) and set(data) <= {"reason"}:
            return data  # Unstated(reason=...) from Python
        if isinstance(data, dict) and set(data) == {UNSTATED}:
            reason = data[UNSTATED]
            if reason is True or reason is None:
                return {"reason": None}
            if isinstance(reason, str) and reason.strip():
                return {"reason": reason.strip()}
            raise ValueError("write {unstated: \"what the source leaves out\"} or just unstated")
        raise ValueError(f"not '{UNSTATED}'")

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> dict[str, Any]:
        """For editors: the YAML forms, `unstated` or `{unstated: "why"}`."""
        return {"title": "Unstated", "description": "the source does not give this value",
                "anyOf": [{"const": UNSTATED},
                          {"type": "object", "additionalProperties": False, "required": [UNSTATED],
                           "properties": {UNSTATED: {"anyOf": [{"type": "string"}, {"const": True}]}}}]}

    @model_serializer
    def _export(self) -> dict[str, Any]:
        return {UNSTATED: self.reason if self.reason else True}

    def __str__(self) -> str:
        return UNSTATED_MARK

    def __bool__(self) -> bool:
        return False  # a value the source does not give counts as no value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unstated) and other.reason == self.reason

    def __hash__(self) -> int:
        return hash((UNSTATED, self.reason))

    def placed(self, where: str) -> "Unstated":
        self._where = where
        return self

    def _refuse(self, *_: Any) -> Any:
        raise UnstatedError(self._where, self.reason)

    # Computing with a value the source does not give is a clear error, not a wrong number.
    __int__ = __index__ = __float__ = __iter__ = __len__ = _refuse  # type: ignore[assignment]
    __lt__ = __le__ = __gt__ = __ge__ = _refuse  # type: ignore[assignment]
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _refuse  # type: ignore[assignment]
    __truediv__ = __floordiv__ = __neg__ = __contains__ = _refuse  # type: ignore[assignment]


UNSTATED = "unstated"  # the YAML word
UNSTATED_SIGN = "‡"     # points from a marked blank to its note; the erratum mark is † (text/blocks.py)
UNSTATED_MARK = "?" + UNSTATED_SIGN  # the marked blank printed in place of a value the source does not give


class UnstatedError(ValueError):
    """A rule procedure or table needed a value the source does not give."""

    def __init__(self, where: str, reason: str | None = None):
        self.where = where
        self.reason = reason
        why = f" ({reason})" if reason else ""
        super().__init__(f"{where} is not stated in the source{why}; the procedure needs it: "
                         "make it an input the example gives, or record a reading as an erratum")


def is_unstated(value: object) -> bool:
    return isinstance(value, Unstated)


def stated(value: Any, where: str | None = None) -> Any:
    """`value`, or UnstatedError naming where it sits if the source does not give it."""
    if isinstance(value, Unstated):
        raise UnstatedError(where or value._where, value.reason)
    if isinstance(value, tuple):
        for item in value:
            stated(item, where)
    return value


Value = Target | Dice | Distance | Span | Unstated | int | float | str | None

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


def _not_given(raw: object) -> bool:
    """Nothing to parse: no value, `unstated`, or the source's dash (the stat does not apply).
    A mapping or list that is none of these is refused here (ValueError)."""
    if raw is None or isinstance(raw, Unstated) or raw == UNSTATED or \
            (isinstance(raw, dict) and set(raw) == {UNSTATED}):
        return True
    _refuse_non_value(raw)
    return str(raw).strip() in DASH


def _absent(raw: object) -> Value:
    """What a value that is not given stands for: None for none or the dash, else `unstated`."""
    if raw is None or isinstance(raw, Unstated):
        return raw
    return None if not isinstance(raw, dict) and raw != UNSTATED else Unstated.model_validate(raw)


def parse_value(raw: object, kind: StatType, unit: Unit | None = None, known: dict[str, Unit] | None = None) -> Value:
    """Parse one stat value of the given type; raise ValueError saying what was expected.
    `known`: the words of the game's own units (GameManifest.unit_words), over the built-in ones."""
    if _not_given(raw):
        return _absent(raw)
    text = str(raw).strip()
    parse = _PARSERS.get(kind) if isinstance(kind, StatType) else None
    if parse is None:
        raise ValueError(f"unknown stat type {kind}")  # pragma: no cover
    return parse(raw, text, unit, known)


def parse_measured(raw: object, unit: Unit, known: dict[str, Unit] | None = None) -> Value:
    """A value given in a unit of measure (a parameter whose `unit:` is one): a number (40,
    1,5, or 40 cm in that unit: a Distance), a range (2–7, 8+: a Span), `unstated`, or the
    source's dash (None); ValueError saying what would do, for a word ('много') or a value
    in another unit."""
    if _not_given(raw):
        return _absent(raw)
    text = str(raw).strip()
    if isinstance(raw, (int, float)) or _NUMBER.match(text):
        return _number(text)
    if _SPAN.match(text) or _SPAN_OPEN.match(text):
        return _parse_range(raw, text, unit, known)
    if _DISTANCE_PREFIX.match(text) or _DISTANCE_SUFFIX.match(text):  # '40 cm', with the unit's word
        written = _parse_distance(raw, text, None, {**(known or {}), unit_id(unit).lower(): unit})
        if written.unit != unit:
            raise ValueError(f"'{text}' is in {unit_id(written.unit)}, not in {unit_id(unit)}")
        return written
    raise ValueError(f"'{text}' is not a number or a range (write e.g. 40, 2–7 or unstated)")


def _refuse_non_value(raw: object) -> None:
    """ValueError for what YAML reads as a value no stat holds: true/false, .nan, .inf."""
    if isinstance(raw, bool):
        raise ValueError("expected a value, not true/false")
    if isinstance(raw, float) and not math.isfinite(raw):
        raise ValueError(f"'{raw}' is not a number a game can use")


def _parse_text(raw: object, text: str, unit: Unit | None, known: dict[str, Unit] | None) -> str:
    """Free text, as written (stripped)."""
    return text


def _parse_number(raw: object, text: str, unit: Unit | None, known: dict[str, Unit] | None) -> int | float:
    """A cost, count or modifier: 80, -3, 1,5 (a whole number stays an int)."""
    if isinstance(raw, (int, float)) or _NUMBER.match(text):
        return _number(text)
    raise ValueError(f"'{text}' is not a number (write e.g. 80 or -3)")


def _parse_target(raw: object, text: str, unit: Unit | None, known: dict[str, Unit] | None) -> Target:
    """A number to roll on a die: 4+ (1+ to 999+)."""
    match = _TARGET.match(text)
    if not match or len(match.group(1)) > 3:
        raise ValueError(f"'{text}' is not a target number (write e.g. 4+)")
    number = int(match.group(1))
    if number < 1:
        raise ValueError(f"'{text}': a target is at least 1+")
    return Target(number)


def _parse_dice(raw: object, text: str, unit: Unit | None, known: dict[str, Unit] | None) -> Dice:
    """A sum of dice terms: D6, 2D6, d100, D6+D3 (Cyrillic Д too)."""
    terms = []
    for part in text.split("+"):
        match = _DICE_TERM.match(part.strip())
        if not match:
            raise ValueError(f"'{text}' is not a dice expression (write e.g. D6, 2D6 or D6+D3)")
        terms.append((int(match.group(1) or 1), int(match.group(2))))
    return Dice(tuple(terms))


def _parse_range(raw: object, text: str, unit: Unit | None, known: dict[str, Unit] | None) -> Span:
    """An inclusive span: 7, 1–4 (or 1-4, 1..4), or open-ended 8+."""
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


def _parse_distance(raw: object, text: str, unit: Unit | None, known: dict[str, Unit] | None) -> Distance:
    """A length: Н3 (hexes, the sources' prefix form), 25 см, 2 UE; a bare number is in the
    stat's own unit."""
    match = _DISTANCE_PREFIX.match(text)
    if match:
        return Distance(int(match.group(2)), DistanceUnit.HEX)
    match = _DISTANCE_SUFFIX.match(text)
    if not match:
        raise ValueError(f"'{text}' is not a distance (write e.g. 25 см, Н3 or 2 UE)")
    amount = _number(match.group(1))
    word = (match.group(2) or "").lower()
    if word:
        return Distance(amount, _unit_named(word, text, unit, known))
    if unit is None:
        raise ValueError(f"'{text}' has no unit (write e.g. 25 см or 3 hex)")
    return Distance(amount, unit)


def _unit_named(word: str, text: str, unit: Unit | None, known: dict[str, Unit] | None) -> Unit:
    """The unit `word` names (a built-in word, the game's own, or the stat's unit's id);
    ValueError if it names none, or another unit than the stat's."""
    words = {**UNIT_WORDS, **(known or {})}
    if unit is not None:
        words.setdefault(unit_id(unit).lower(), unit)  # a unit's id names it
    if word not in words:
        known_ids = sorted({unit_id(u) for u in (*DistanceUnit, *(known or {}).values())})
        hint = did_you_mean(word, words)
        raise ValueError(f"'{text}': unknown distance unit '{word}' (known: {', '.join(known_ids)}; "
                         f"a game declares its own under measures: in game.yaml){' — ' + hint if hint else ''}")
    found = words[word]
    if unit is not None and found != unit:
        raise ValueError(f"'{text}' is in {unit_id(found)}, this stat is in {unit_id(unit)}")
    return found


# How each stat type reads its text: (raw, stripped text, the stat's unit, the game's unit words).
_PARSERS: dict[StatType, Callable[[object, str, Unit | None, dict[str, Unit] | None], Value]] = {
    StatType.TEXT: _parse_text,
    StatType.NUMBER: _parse_number,
    StatType.TARGET: _parse_target,
    StatType.DICE: _parse_dice,
    StatType.RANGE: _parse_range,
    StatType.DISTANCE: _parse_distance,
}


# The units' words in every shipped interface language (generator/locale/ui): a value prints in
# its edition's words ("12 Zoll", not "12 in").
UNIT_NAMES: dict[str, dict[DistanceUnit, str]] = {
    "ru": {DistanceUnit.CM: "см", DistanceUnit.INCH: "дюйм.", DistanceUnit.HEX: "гекс.",
           DistanceUnit.CUBE: "куб.", DistanceUnit.UE: "УЕ"},
    "en": {DistanceUnit.CM: "cm", DistanceUnit.INCH: "in", DistanceUnit.HEX: "hex",
           DistanceUnit.CUBE: "cube", DistanceUnit.UE: "UE"},
    "de": {DistanceUnit.CM: "cm", DistanceUnit.INCH: "Zoll", DistanceUnit.HEX: "Hex",
           DistanceUnit.CUBE: "Würfel", DistanceUnit.UE: "UE"},
    "fr": {DistanceUnit.CM: "cm", DistanceUnit.INCH: "po", DistanceUnit.HEX: "hex",
           DistanceUnit.CUBE: "cube", DistanceUnit.UE: "UE"},
    "es": {DistanceUnit.CM: "cm", DistanceUnit.INCH: "pulg.", DistanceUnit.HEX: "hex.",
           DistanceUnit.CUBE: "cubo", DistanceUnit.UE: "UE"},
    "pl": {DistanceUnit.CM: "cm", DistanceUnit.INCH: "cal", DistanceUnit.HEX: "heks.",
           DistanceUnit.CUBE: "kost.", DistanceUnit.UE: "UE"},
}


# "Not stated in the source", per language: the note a marked blank points at.
UNSTATED_NOTE: dict[str, str] = {
    "en": "not stated in the source", "ru": "в источнике не указано",
    "de": "in der Quelle nicht angegeben", "fr": "non précisé dans la source",
    "es": "no indicado en la fuente", "pl": "nie podano w źródle",
}


def unstated_note(lang: str = "en", reason: str | None = None, label: str | None = None) -> str:
    """The note for a marked blank: "‡ Models: not stated in the source. Why." """
    note = UNSTATED_NOTE.get(lang, UNSTATED_NOTE["en"])
    head = f"{label}: {note}" if label else note[0].upper() + note[1:]
    if reason:
        reason = reason.strip()
        return f"{UNSTATED_SIGN} {head}. {reason}" + ("" if reason[-1] in ".!?…" else ".")
    return f"{UNSTATED_SIGN} {head}."


def unstated_inline(lang: str = "en") -> str:
    """A value the source does not give, inside a sentence: "? (not stated in the source)"."""
    return f"? ({UNSTATED_NOTE.get(lang, UNSTATED_NOTE['en'])})"


def unit_word(unit: Unit, lang: str = "en", words: dict | None = None, amount: float | None = None) -> str:
    """What prints after a value in `unit`: the game's word for it in this language (`words`,
    from game.yaml measures:; a word with forms for counts takes the one for `amount`), else
    the built-in word, else the unit's id."""
    if words and unit in words:
        word = words[unit]
        return word.for_count(amount) if amount is not None and hasattr(word, "for_count") else str(word)
    return UNIT_NAMES.get(lang, UNIT_NAMES["en"]).get(unit, unit_id(unit))


def format_value(value: Value, lang: str = "en", words: dict | None = None) -> str:
    """The value as a reader sees it; the source's dash for a value that does not apply,
    a marked blank (?‡) for one the source does not give. `words`: the game's own words for
    units of measure in this language (game.yaml measures:), over the built-in ones."""
    if value is None:
        return "–"
    if isinstance(value, Unstated):
        return UNSTATED_MARK
    if isinstance(value, Distance):
        amount = int(value.amount) if float(value.amount).is_integer() else value.amount
        return f"{decimal_text(amount, lang)}\u00a0{unit_word(value.unit, lang, words, amount)}"
    if isinstance(value, float):
        return decimal_text(value, lang)
    return str(value)


@functools.lru_cache(maxsize=None)
def decimal_sign(lang: str) -> str:
    """The sign a language writes between a number's whole and its fraction (CLDR, through Babel):
    "." in English, "," in Polish, Russian, German, French."""
    try:
        return numbers.get_decimal_symbol(Locale.parse(lang, sep="-"))
    except (ValueError, UnknownLocaleError):
        return "."


def decimal_text(amount: float | int, lang: str = "en") -> str:
    """A number as `lang` writes it: 2.5 -> "2,5" in Polish; a whole number as it is."""
    return str(amount).replace(".", decimal_sign(lang)) if isinstance(amount, float) else str(amount)


# A stat as the source writes it may join its values with a slash or put one in brackets
# ("40 см (60 см)", "2+ / 5+"): the separators are the source's, the values are typed.
_WRITTEN_SEPARATOR = re.compile(r"(\s*[/()]\s*)")


def written_parts(text: str) -> list[str]:
    """'40 см (60 см)' -> ['40 см', ' (', '60 см', ')']: values and the separators between them."""
    return [part for part in _WRITTEN_SEPARATOR.split(text.strip()) if part]


def is_separator(part: str) -> bool:
    return bool(_WRITTEN_SEPARATOR.fullmatch(part))


def written_values(text: str, kind: StatType, unit: Unit | None = None,
                   known: dict[str, Unit] | None = None) -> list[Value]:
    """The typed values a written form holds: '40 см (60 см)' -> [40 cm, 60 cm]. ValueError
    (saying which part) where a part is not a value of the type."""
    return [parse_value(part.strip(), kind, unit, known) for part in written_parts(text) if not is_separator(part)]


def format_written(text: str, kind: StatType, unit: Unit | None, lang: str,
                   words: dict | None = None, known: dict[str, Unit] | None = None) -> str | None:
    """The written form in another language: each value printed for `lang`, the source's
    separators kept ('40 см (60 см)' -> '40 cm (60 cm)'); None if a part is not a value."""
    out = []
    for part in written_parts(text):
        if is_separator(part):
            out.append(part)
            continue
        try:
            out.append(format_value(parse_value(part.strip(), kind, unit, known), lang, words))
        except ValueError:
            return None
    return "".join(out)
