"""Cards and the decks they belong to."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Frozen, Record, Text

CardKind = Literal[
    "unit", "order", "point", "local", "special-operation", "reference", "datasheet", "event", "other"
]
BackDesign = Literal[
    "stars", "eagles", "hammer-sickle", "spades-diamonds", "buddha", "schematic", "plain", "title"
]
CardSize = Literal["poker", "bridge", "mini", "tarot", "square", "euro"]

# Trimmed size in millimetres for each named card size.
CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
    "euro": (59.0, 92.0),
}


class Deck(Record):
    kind = "deck"
    section = "decks"

    name: Text
    back: BackDesign = Field(description="the back design printed behind every card of the deck")
    size: CardSize = "poker"
    side: str | None = None
    expansion: str | None = None
    text: Text | None = None


class CardSection(Frozen):
    title: Text
    text: Text


class Card(Record):
    kind = "card"
    section = "cards"

    name: Text
    card_kind: CardKind = Field(description="unit, order, point, local, special-operation, reference...")
    deck: str = Field(description="id of the deck this card belongs to")
    quantity: int | None = Field(default=1, ge=0, description="copies in the deck; null if the source does not say")
    side: str | None = None
    unit: str | None = Field(default=None, description="id of the unit this card fields")
    icons: tuple[str, ...] = Field(default=(), description="icons printed on the card, e.g. dice, dice")
    text: Text | None = None
    sections: tuple[CardSection, ...] = ()
