"""The game manifest (game.yaml): identity, languages, components, parameters, stat types."""

from __future__ import annotations

import math
import re
from typing import ClassVar

from pydantic import Field, field_validator

from ..values import DistanceUnit, StatType
from .base import Frozen, Id, Scalar, Text

PROFILE_KINDS = ("unit", "weapon")
# A BCP 47 language tag: language, optional script, optional region, optional variants (en, pt-BR, zh-Hant).
LANGUAGE_TAG = re.compile(r"^[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*$",
                          re.I)
LANGUAGE_FIELDS = ("source_language", "languages", "title")


def language_tag(value: str) -> str:
    """A language code, checked: output folders and file names are built from it."""
    if not isinstance(value, str) or not LANGUAGE_TAG.match(value):
        raise ValueError(f"'{value}' is not a language code (a BCP 47 tag such as en, ru, pt-BR or zh-Hant)")
    return value


class Component(Frozen):
    id: Id
    name: Text
    count: int | None = Field(default=None, ge=0, description="how many come in the box; omit if the source does not say")
    note: Text | None = None


class Side(Frozen):
    """A side or faction, declared once: counters, cards and pages take its colour."""

    id: Id
    name: Text
    colour: str = Field(description="background colour of its pieces: #rrggbb")
    text_colour: str = Field(default="#000000", description="colour of text and symbols on its pieces: #rrggbb")

    @field_validator("colour", "text_colour")
    @classmethod
    def _hex(cls, value: str) -> str:
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
            raise ValueError(f"'{value}' is not a colour: write #rrggbb, e.g. #c0392b")
        return value.lower()


class Parameter(Frozen):
    """A number the rules refer to by name: victory points, map size, limits."""

    id: Id
    name: Text
    value: Scalar
    unit: str | None = Field(default=None, description="what the number counts: cm, hex, points, cards...")
    note: Text | None = None


    @field_validator("value")
    @classmethod
    def _finite(cls, value: Scalar) -> Scalar:
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError("a parameter's value is a finite number or text")
        return value


class StatDef(Frozen):
    """One column of a profile: its name, its type and the unit of a distance."""

    id: Id
    name: Text
    abbr: Text | None = Field(default=None, description="short label for tables and cards")
    type: StatType
    unit: DistanceUnit | None = Field(default=None, description="for distances: the unit a bare number is in")
    applies_to: tuple[str, ...] = Field(default=("unit",), description="record kinds that carry this stat")
    required: bool = False
    max_values: int = Field(default=1, ge=1, description="how many values one record may give (a pair: 2)")
    note: Text | None = Field(default=None, description="what the stat means; what a second value means")

    @field_validator("applies_to")
    @classmethod
    def _known_kinds(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for kind in value:
            if kind not in PROFILE_KINDS:
                raise ValueError(f"applies_to takes {', '.join(PROFILE_KINDS)}, not '{kind}'")
        return value


class GameManifest(Frozen):
    kind: ClassVar[str] = "game"

    id: Id
    title: dict[str, str] = Field(description="the title in each language, keyed by language code")
    source_language: str = "ru"
    languages: tuple[str, ...] = Field(default=("en",), description="target languages, translated through locale/LANG.po")
    authors: tuple[str, ...] = ()
    edition: str | None = None
    summary: Text | None = None
    components: tuple[Component, ...] = ()
    parameters: tuple[Parameter, ...] = ()
    stats: tuple[StatDef, ...] = ()
    sides: tuple[Side, ...] = Field(default=(), description="sides or factions; records refer to them by id")

    @field_validator("title")
    @classmethod
    def _has_title(cls, value: dict[str, str]) -> dict[str, str]:
        if not value:
            raise ValueError("give the title in the source language at least")
        for lang in value:
            language_tag(lang)
        return value

    @field_validator("source_language")
    @classmethod
    def _source_language(cls, value: str) -> str:
        return language_tag(value)

    @field_validator("languages")
    @classmethod
    def _languages(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for lang in value:
            language_tag(lang)
        if len(set(value)) != len(value):
            raise ValueError("a language is listed twice")
        return value

    def export(self) -> dict:
        return {"kind": "game", **self.model_dump(mode="json")}
