"""The content model: immutable records loaded from a game's YAML files."""

from .base import Record, Text, Translatable
from .cards import CARD_SIZES_MM, Card, CardSection, Deck
from .game import Component, EnumValue, GameManifest, Parameter, StatDef
from .profiles import Ability, Alias, Keyword, Unit, Weapon, WeaponEntry
from .rules import Action, Band, Erratum, Rule, Terrain
from .tables import Column, Die, Face, Table

RECORD_TYPES: tuple[type[Record], ...] = (
    Keyword, Weapon, Unit, Deck, Card, Table, Die, Action, Terrain, Band, Rule, Erratum,
)
# The top-level key of a data file says what it holds: `units:`, `keywords:`, ...
SECTIONS: dict[str, type[Record]] = {t.section: t for t in RECORD_TYPES}

__all__ = [
    "Ability", "Action", "Alias", "Band", "CARD_SIZES_MM", "Card", "CardSection", "Column",
    "Component", "Deck", "EnumValue", "Die", "Erratum", "Face", "GameManifest", "Keyword", "Parameter",
    "RECORD_TYPES", "Record", "Rule", "SECTIONS", "StatDef", "Table", "Terrain", "Text",
    "Translatable", "Unit", "Weapon", "WeaponEntry",
]
