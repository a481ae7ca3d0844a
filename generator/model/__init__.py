"""The content model: immutable records loaded from a game's YAML files."""

from .base import Record, Text, Translatable
from .cards import CARD_SIZES_MM, Card, CardBack, CardSection, Deck
from .components import Counter, CounterFace, CounterSheet
from .maps import Map
from .game import Component, EnumValue, GameManifest, Parameter, Side, StatDef
from .profiles import Ability, Alias, Keyword, Unit, Weapon, WeaponEntry
from .rosters import Roster
from .rules import Action, Band, Erratum, Rule, Terrain
from .tables import Column, Die, Face, Table

RECORD_TYPES: tuple[type[Record], ...] = (
    Keyword, Weapon, Unit, Deck, Card, Table, Die, Action, Terrain, Band, Rule, Erratum,
    CounterSheet, Counter, Map, Roster,
)
# The top-level key of a data file says what it holds: `units:`, `keywords:`, ...
SECTIONS: dict[str, type[Record]] = {t.section: t for t in RECORD_TYPES}

__all__ = [
    "Ability", "Action", "Alias", "Band", "CARD_SIZES_MM", "Card", "CardBack", "CardSection", "Column",
    "Component", "Counter", "CounterFace", "CounterSheet", "Deck", "Die", "EnumValue", "Erratum", "Face", "GameManifest",
    "Keyword", "Map", "Parameter", "RECORD_TYPES", "Record", "Roster", "Rule", "SECTIONS", "Side", "StatDef", "Table", "Terrain", "Text",
    "Translatable", "Unit", "Weapon", "WeaponEntry",
]
