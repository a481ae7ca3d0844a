"""Cards and the decks they belong to."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .base import Frozen, OrUnstated, Record, StatEntry, Text

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


PRINT_SIZE = "poker"  # the size cards print at where the source does not give one
PRINT_BACK = "plain"  # the back they print with where the source does not show it


class Deck(Record):
    kind = "deck"
    section = "decks"

    name: Text
    back: OrUnstated[BackDesign] = Field(description="the back design printed behind every card of the deck")
    size: OrUnstated[CardSize] = Field(
        default="poker", description="card size; `unstated` if the source does not give it (prints at poker size)")
    side: OrUnstated[str | None] = None
    expansion: str | None = None
    text: Text | None = None

    @property
    def print_size(self) -> str:
        """The size the cards print at: the deck's size, or poker size where the source gives none."""
        return self.size if isinstance(self.size, str) else PRINT_SIZE

    @property
    def print_back(self) -> str:
        """The back design the cards print with: the deck's, or a plain back where the source shows none."""
        return self.back if isinstance(self.back, str) else PRINT_BACK


class CardSection(Frozen):
    title: Text
    text: Text


class Card(Record):
    kind = "card"
    section = "cards"

    name: Text
    card_kind: CardKind = Field(description="unit, order, point, local, special-operation, reference...")
    deck: str = Field(description="id of the deck this card belongs to")
    quantity: OrUnstated[Annotated[int, Field(ge=0)] | None] = Field(
        default=1, description="copies in the deck; `unstated` (or null) if the source does not say")
    side: OrUnstated[str | None] = None
    unit: str | None = Field(default=None, description="id of the unit this card fields")
    stats: dict[str, StatEntry] = Field(default={}, description="typed values: stats with applies_to: [card]")
    icons: OrUnstated[tuple[str, ...]] = Field(
        default=(), description="icons printed on the card, e.g. dice, dice; `unstated` if the source does not show them")
    text: Text | None = None
    sections: tuple[CardSection, ...] = ()
