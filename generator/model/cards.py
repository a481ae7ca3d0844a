"""Cards and the decks they belong to."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, field_validator

from .base import Frozen, Record, Text
from .sizes import PRESETS, check_size

CardKind = Literal[
    "unit", "order", "point", "local", "special-operation", "reference", "datasheet", "event", "other"
]
# The built-in back designs (templates/backs/NAME.svg.j2); a game adds its own as
# templates/backs/NAME.svg.j2 in its folder or its project.
BUILTIN_BACKS = ("stars", "eagles", "hammer-sickle", "spades-diamonds", "buddha", "schematic", "plain", "title")
BackDesign = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$")]
Corners = Literal["square", "rounded"]

# Trimmed size in millimetres for each named size (any other size is written with its unit).
CARD_SIZES_MM: dict[str, tuple[float, float]] = PRESETS


class Deck(Record):
    kind = "deck"
    section = "decks"

    name: Text
    back: BackDesign = Field(description="the back design printed behind every card of the deck: "
                             + ", ".join(BUILTIN_BACKS) + ", or a templates/backs/NAME.svg.j2 of the game")
    size: str = Field(default="poker", description="a preset (poker, bridge, mini, tarot, square, euro) "
                      "or a size with its unit: 60x90mm, 2.5x3.5in")
    corners: Corners = "square"
    side: str | None = Field(default=None, description="id of a side declared in game.yaml")
    expansion: str | None = None
    text: Text | None = None

    @field_validator("size")
    @classmethod
    def _size(cls, value: str) -> str:
        return check_size(value)


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
    side: str | None = Field(default=None, description="id of a side declared in game.yaml")
    back: BackDesign | None = Field(default=None, description="this card's own back design (default: the deck's)")
    unit: str | None = Field(default=None, description="id of the unit this card fields")
    icons: tuple[str, ...] = Field(default=(), description="icons printed on the card, e.g. dice, dice")
    image: str | None = Field(default=None, description="a picture from the game folder (PNG, SVG, JPEG) above the text")
    text: Text | None = None
    sections: tuple[CardSection, ...] = ()
