"""The game manifest (game.yaml): identity, languages, components, parameters, stat types."""

from __future__ import annotations

import difflib
import math
import re
from typing import Annotated, ClassVar, Union

from pydantic import Field, StringConstraints, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from ..core.languages import language_code, repeated
from ..values import UNIT_WORDS, Distance, StatType, Unit, parse_measured, unit_of
from ..values.colours import readable_on
from .base import Frozen, Id, OrUnstated, Scalar, Text

# Record kinds that carry typed stats (a `stats:` mapping checked against game.yaml's stats).
PROFILE_KINDS = ("unit", "weapon", "terrain", "card", "action")
LANGUAGE_FIELDS = ("source_language", "languages", "title", "dice_notation")
REPEATED = "language_repeated"  # the error type of a language given twice (EN beside en)
# `numbering:` kinds: `cases` numbers chapters and their headings, `paragraphs` also the paragraphs
# of each numbered section (text/numbering.py)
NUMBERINGS = ("cases", "paragraphs")
NUMBERING_ERROR = "numbering"  # the error type of an unknown `numbering:` kind


class Component(Frozen):
    id: Id
    name: Text
    count: OrUnstated[Annotated[int, Field(ge=0)] | None] = Field(
        default=None, description="how many come in the box; `unstated` (or omit) if the source does not say")
    note: Text | None = None
    editor: tuple[str, ...] = Field(
        default=(), description="text fields of this component (name, note) that are the editor's words, not the "
        "source's; each prints marked as the editor's text")


class Side(Frozen):
    """A side or faction, declared once: counters, cards and pages take its colour."""

    id: Id
    name: Text
    colour: str = Field(description="background colour of its pieces: #rrggbb")
    text_colour: str | None = Field(default=None, description="colour of text and symbols on its pieces: #rrggbb "
                                    "(default: black or white, whichever reads better on the colour)")

    @field_validator("colour", "text_colour")
    @classmethod
    def _hex(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
            raise ValueError(f"'{value}' is not a colour: write #rrggbb, e.g. #c0392b")
        return value.lower()

    @property
    def ink(self) -> str:
        """The colour its pieces' text prints in: the designer's, or the more readable of
        black and white on the side's colour."""
        return self.text_colour or readable_on(self.colour)


def _check_range(model):
    """min and max, where given, in order, and only on a number or a distance."""
    if model.min is not None and model.max is not None and model.min > model.max:
        raise ValueError(f"min {model.min:g} is above max {model.max:g}")
    kind = getattr(model, "type", None)
    if kind not in (None, StatType.NUMBER, StatType.DISTANCE) and (model.min, model.max) != (None, None):
        raise ValueError(f"min/max bound a number or a distance, not a {kind.value} stat")
    return model


class Parameter(Frozen):
    """A number the rules refer to by name: victory points, map size, limits."""

    id: Id
    name: Text
    value: Scalar
    unit: str | None = Field(default=None, description="what the number counts: cm, hex, points, cards...")
    min: float | None = Field(default=None, description="the smallest value the number may take (a count: 0)")
    max: float | None = Field(default=None, description="the largest value the number may take")
    note: Text | None = None
    errata: tuple[str, ...] = Field(
        default=(), description="ids of the errata (errata.yaml) that concern this number, e.g. the reading it follows")
    editor: tuple[str, ...] = Field(
        default=(), description="text fields of this parameter (name, note) that are the editor's words, not the "
        "source's; each prints marked as the editor's text")

    _range = model_validator(mode="after")(_check_range)

    @field_validator("value")
    @classmethod
    def _finite(cls, value: Scalar) -> Scalar:
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError("a parameter's value is a finite number or text")
        return value


COUNT_FIELDS = ("zero", "one", "two", "few", "many", "other")  # CLDR's plural categories


class Measure(Frozen):
    """A unit of measure in the game's own words: what prints after a distance (`12 inches`,
    `12 Zoll`), translated through the catalogs like any text. Its id is a built-in unit (cm,
    inch, hex, cube, UE), whose words it replaces, or a unit of the game's own (pace, foot)."""

    id: Annotated[str, StringConstraints(pattern=r"^(UE|[a-z0-9][a-z0-9-]*)$")] = Field(
        description="a built-in unit (cm, inch, hex, cube, UE) or a unit of the game's own: lowercase letters, "
        "digits and hyphens, e.g. pace")
    name: Text = Field(description="its name, e.g. inches, paces")
    abbr: Text | None = Field(default=None, description="what prints after a value (default: the name), e.g. in")
    one: Text | None = Field(default=None, description="what prints after a count of one, where it differs from "
                             "what prints after other counts (pace: '1 pace', '2 paces'); a translation gives the "
                             "forms its language counts with (gettext plural forms in the catalog)")
    # The other CLDR plural categories a source language may count with (Polish: one, few, many,
    # other); a category not given prints the word (abbr, else name). Plain strings, not messages:
    # the catalog's plural entry for `one:` gives a translation's forms for all of them.
    zero: str | None = Field(default=None, description="what prints after a count CLDR calls 'zero' (Arabic, Welsh)")
    two: str | None = Field(default=None, description="what prints after a count CLDR calls 'two' (Arabic, Slovenian)")
    few: str | None = Field(default=None, description="what prints after a count CLDR calls 'few' (Polish "
                             "'2 cale', Russian '2 шага')")
    many: str | None = Field(default=None, description="what prints after a count CLDR calls 'many' (Polish "
                              "'5 cali', Russian '5 шагов')")
    other: str | None = Field(default=None, description="what prints after a count CLDR calls 'other' (Polish "
                               "'1,5 cala'); default: the word")

    @property
    def counts(self) -> dict[str, str]:
        """The forms the source declares for counts, by CLDR category (empty: one word for every count)."""
        declared = {c: getattr(self, c) for c in COUNT_FIELDS if getattr(self, c)}
        if declared and "other" not in declared:
            declared["other"] = self.word
        return declared

    @property
    def word(self) -> str:
        """What prints after a value: the abbreviation, else the name."""
        return self.abbr or self.name

    @property
    def unit(self) -> Unit:
        return unit_of(self.id)


class StatDef(Frozen):
    """One column of a profile: its name, its type and the unit of a distance."""

    id: Id
    name: Text
    abbr: Text | None = Field(default=None, description="short label for tables and cards")
    type: StatType
    unit: str | None = Field(default=None, description="for distances: the unit a bare number is in: cm, inch, hex, "
                             "cube, UE or one the game declares under measures:")
    applies_to: tuple[str, ...] = Field(default=("unit",), description="record kinds that carry this stat")
    required: bool = False
    max_values: int = Field(default=1, ge=1, description="how many values one record may give (a pair: 2)")
    note: Text | None = Field(default=None, description="what the stat means; what a second value means")
    enum: str | None = Field(default=None, description="for a text stat: the enumeration (game.yaml enums:) its values come from")
    editor: tuple[str, ...] = Field(
        default=(), description="text fields of this stat (name, abbr, note) that are the editor's words, not the "
        "source's; each prints marked as the editor's text")
    min: float | None = Field(default=None, description="for a number or distance: the smallest value a record may "
                              "give (a count: 0)")
    max: float | None = Field(default=None, description="for a number or distance: the largest value a record may give")

    _range = model_validator(mode="after")(_check_range)

    @field_validator("unit")
    @classmethod
    def _unit(cls, value: str | None, info: ValidationInfo) -> Unit | None:
        """A unit of measure is a distance stat's: another type would read a value in it as
        its own kind (text takes any word) and print it without the unit."""
        kind = info.data.get("type")
        if value is not None and kind is not None and kind is not StatType.DISTANCE:
            raise ValueError(f"a unit of measure belongs to a distance stat, not a {kind.value} stat: make it "
                             f"type: distance (its values are numbers in the unit, or unstated), or leave the "
                             f"unit out")
        return None if value is None else unit_of(value)

    @field_validator("applies_to")
    @classmethod
    def _known_kinds(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for kind in value:
            if kind not in PROFILE_KINDS:
                raise ValueError(f"applies_to takes {', '.join(PROFILE_KINDS)}, not '{kind}'")
        return value


class EnumValue(Frozen):
    """One value of an enumeration, with what prints for it (a side's name, its colour)."""

    id: str
    name: Text | None = None
    colour: str | None = Field(default=None, description="a colour for the value, e.g. a side's (#b22222 or red)")
    note: Text | None = None


class GameManifest(Frozen):
    kind: ClassVar[str] = "game"

    id: Id
    title: dict[str, str] = Field(description="the title in each language, keyed by language code")
    short_title: dict[str, str] = Field(
        default={}, description="the name under the site's icon on a phone's home screen, in each language "
        "(about 12 letters); without it, the title")
    source_language: str = "ru"
    languages: tuple[str, ...] = Field(default=("en",), description="target languages, translated through locale/LANG.po")
    dice_notation: dict[str, str] = Field(
        default={}, description="the letter of dice notation in each language, keyed by language code, as the game "
        "writes it (pl: k for 2k6, de: W for 2W6, ru: Д for 2Д6); a language not given prints a translation with "
        "its interface word (dice-letter) and the source as its data writes it")
    authors: tuple[Text, ...] = Field(default=(), description="as the book credits them; translated like "
                                      "other text, e.g. a role in brackets")
    edition: str | None = None
    version: str | None = Field(
        default=None, description="the version of these rules, e.g. '1.3' (quoted: YAML reads 1.10 as the number "
        "1.1); `rulesmith changes` names it, and a release is tagged with it")
    numbering: str | None = Field(
        default=None, description="'cases': chapters and their headings are numbered (1, 1.1, 1.1.1), the same "
        "numbers in every edition ('paragraphs': also each paragraph of a numbered section); a heading may declare its number ({number=\"5.3\"}) or opt out ({.unnumbered})")
    summary: Text | None = None
    original: bool = Field(
        default=False, description="true: the game is its designer's own, written here; its rules text is its own "
        "source, with no earlier text behind it to encode or quote (Rulesmith's example game). False (the default): "
        "the game encodes a source text, whose inconsistencies ERRATA.md records")
    editor: tuple[str, ...] = Field(
        default=(), description="the manifest's own text fields (summary, authors.N) that are the editor's words, "
        "not the source's; each prints marked as the editor's text")
    components: tuple[Component, ...] = ()
    parameters: tuple[Parameter, ...] = ()
    stats: tuple[StatDef, ...] = ()
    measures: tuple[Measure, ...] = Field(default=(), description="the game's own words for its units of measure, "
                                          "translated through the catalogs (default: the built-in words)")
    enums: dict[Id, tuple[Union[str, EnumValue], ...]] = Field(
        default={},
        description="closed sets of values: 'side' checks every record's side field, 'unit-type' the type "
                    "field of units; a text stat names one with enum:",
    )
    sides: tuple[Side, ...] = Field(default=(), description="sides or factions; records refer to them by id")

    @model_validator(mode="before")
    @classmethod
    def _default_languages(cls, data: object) -> object:
        """Without `languages:` a game is translated into English, unless it is written in it."""
        if isinstance(data, dict) and "languages" not in data:
            try:
                source = language_code(data.get("source_language", cls.model_fields["source_language"].default))
            except ValueError:
                return data  # source_language's own error says why
            data = {**data, "languages": () if source == "en" else ("en",)}
        return data

    @field_validator("dice_notation", mode="before")
    @classmethod
    def _notation_languages(cls, value: object) -> object:
        """Each language once, by its code (its letter is checked in checks/dicenotation.py)."""
        if not isinstance(value, dict):
            return value  # the type check says what is wrong
        return _by_language(value, "its dice letter")

    @field_validator("title", mode="before")
    @classmethod
    def _has_title(cls, value: object) -> object:
        if not isinstance(value, dict):
            return value  # the type check says what is wrong
        if not value:
            raise ValueError("give the title in the source language at least")
        return _by_language(value, "its title")

    @field_validator("version", mode="before")
    @classmethod
    def _version_text(cls, value: object) -> object:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            raise ValueError("write the version in quotes, e.g. version: '1.3': YAML reads an unquoted "
                             "version as a number, 1.10 as 1.1")
        return value

    @field_validator("numbering", mode="before")
    @classmethod
    def _numbering(cls, value: object) -> object:
        if value is None or value in NUMBERINGS:
            return value
        near = difflib.get_close_matches(value.strip().lower(), NUMBERINGS, n=1) if isinstance(value, str) else []
        raise PydanticCustomError(NUMBERING_ERROR, "unknown numbering '{value}'" + (
            f" (did you mean '{near[0]}'?)" if near else ""), {"value": value})

    @field_validator("source_language", mode="before")
    @classmethod
    def _source_language(cls, value: object) -> str:
        return language_code(value)

    @field_validator("languages", mode="before")
    @classmethod
    def _languages(cls, value: object, info: ValidationInfo) -> object:
        if not isinstance(value, (list, tuple)):
            return value  # the type check says what is wrong
        twice = repeated(list(value))
        if twice is not None:
            first, second = value[twice[0]], value[twice[1]]
            raise PydanticCustomError(REPEATED, f"'{second}' is listed twice" if first == second else
                                      f"'{first}' and '{second}' are the same language, listed twice")
        codes = tuple(language_code(lang) for lang in value)
        source = info.data.get("source_language")
        if source in codes:
            raise PydanticCustomError(REPEATED, f"'{source}' is the source language; languages lists the "
                                      f"languages the game is translated into")
        return codes

    def export(self) -> dict:
        return {"kind": "game", **self.model_dump(mode="json")}

    def unit_words(self) -> dict[str, Unit]:
        """The words a value may write a unit of the game's own with (`12 paces`, `4 cale`): each
        declared unit's id, name, abbreviation and forms for counts, lower-cased, in the source language (a reference in a
        name is no part of the word)."""
        words: dict[str, Unit] = {}
        for measure in self.measures:
            for word in (measure.id, measure.name, measure.abbr, *measure.counts.values()):
                word = " ".join(re.sub(r"\{\{.*?\}\}", " ", word or "").split()).rstrip(".").lower()
                if word:
                    words.setdefault(word, measure.unit)
        return words

    def parameter_unit(self, param: Parameter) -> Unit | None:
        """The unit of measure a parameter's `unit:` names (built in, or declared under
        measures:), or None where it names none (points, turns: what the number counts)."""
        return {**UNIT_WORDS, **self.unit_words()}.get((param.unit or "").lower())

    def parameter_value(self, param: Parameter) -> object:
        """A parameter's value as it prints: a Distance where its `unit:` names a unit of
        measure and the value is a number ('40' and '40 cm' too), else the value as written (a
        range prints as written; a `unit:` such as points or turns says what the number
        counts; the sentence says it)."""
        unit = self.parameter_unit(param)
        if unit is None:
            return param.value
        try:
            value = parse_measured(param.value, unit, self.unit_words())
        except ValueError:
            return param.value  # E012 (checks/measures.py)
        if isinstance(value, Distance):
            return value
        return Distance(value, unit) if isinstance(value, (int, float)) else param.value

    def enum_values(self, name: str) -> list[str]:
        """The ids of an enumeration's values, in order."""
        return [v if isinstance(v, str) else v.id for v in self.enums.get(name, ())]

    def enum_of(self, kind: str, field: str) -> str | None:
        """The enumeration that constrains field `field` of records of `kind`: KIND-FIELD
        (unit-type) before one named like the field (side); None where none does."""
        named = field.replace("_", "-")
        return next((name for name in (f"{kind}-{named}", named) if name in self.enums), None)

    def enum_entry(self, kind: str, field: str, value: object) -> tuple[str, int] | None:
        """(enumeration, index) of the named value `value` of a record's field: a value whose
        name prints for it; None for a value with no name or a field no enumeration constrains."""
        name = self.enum_of(kind, field)
        for i, entry in enumerate(self.enums.get(name, ()) if name else ()):
            if isinstance(entry, EnumValue) and entry.id == value and entry.name:
                return name, i
        return None


def _by_language(value: dict, what: str) -> dict:
    """`value` keyed by language codes (EN and en are one language); a language given twice
    is an error naming `what` is to be given once."""
    keys = list(value)
    twice = repeated(keys)
    if twice is not None:
        raise PydanticCustomError(REPEATED, f"'{keys[twice[0]]}' and '{keys[twice[1]]}' are the same language; "
                                  f"give {what} once")
    return {language_code(lang): item for lang, item in value.items()}
