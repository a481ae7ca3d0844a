"""Cards and the decks they belong to."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Discriminator, Field, StringConstraints, Tag, field_validator

from .base import Frozen, OrUnstated, Record, StatEntry, Text, as_written_field
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


def back_key(card_id: str) -> str:
    """The id a card's back face keeps its parsed stats under (game.values): ids hold no dot."""
    return f"{card_id}.back"


PRINT_SIZE = "poker"  # the size cards print at where the source does not give one
PRINT_BACK = "plain"  # the back they print with where the source does not show it


class Deck(Record):
    kind = "deck"
    section = "decks"

    name: Text
    back: OrUnstated[BackDesign] = Field(description="the back design printed behind every card of the deck: "
                                         + ", ".join(BUILTIN_BACKS) + ", or a templates/backs/NAME.svg.j2 of the game")
    size: OrUnstated[str] = Field(default="poker", description="a preset (poker, bridge, mini, tarot, square, euro) "
                                  "or a size with its unit: 60x90mm, 2.5x3.5in; `unstated` if the source does not give "
                                  "it (prints at poker size)")
    corners: Corners = "square"
    side: OrUnstated[str | None] = Field(default=None, description="id of a side declared in game.yaml")
    expansion: str | None = None
    text: Text | None = None

    @field_validator("size")
    @classmethod
    def _size(cls, value):
        return check_size(value) if isinstance(value, str) else value

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


class CardBack(Frozen):
    """A card's back written as content: printed in the card's layout (or over a back design),
    translated through the catalogs like the front. Every part is optional."""

    title: Text | None = Field(default=None, description="the back's heading")
    text: Text | None = Field(default=None, description="the back's text; may hold {{ kind:id }} references")
    stats: dict[str, StatEntry] = Field(default={}, description="typed values printed on the back: stats with "
                                        "applies_to: [card]")
    image: str | None = Field(default=None, description="a picture from the game folder (PNG, SVG, JPEG) above the text")
    template: BackDesign | None = Field(default=None, description="a back design drawn under the back's text: "
                                        + ", ".join(BUILTIN_BACKS) + ", or a templates/backs/NAME.svg.j2 of the game")


def _back_kind(value) -> str:
    """A back written as a mapping is a face; anything else names a design (one branch's errors only)."""
    return "face" if isinstance(value, (dict, CardBack)) else "design"


CardBackField = Annotated[Annotated[BackDesign, Tag("design")] | Annotated[CardBack, Tag("face")],
                          Discriminator(_back_kind)]


class Card(Record):
    kind = "card"
    section = "cards"

    name: Text
    card_kind: CardKind = Field(description="unit, order, point, local, special-operation, reference...")
    deck: str = Field(description="id of the deck this card belongs to")
    quantity: OrUnstated[Annotated[int, Field(ge=0)] | None] = Field(
        default=1, description="copies in the deck; `unstated` (or null) if the source does not say")
    side: OrUnstated[str | None] = Field(default=None, description="id of a side declared in game.yaml")
    back: CardBackField | None = Field(
        default=None, description="this card's own back: a back design's name, or a face of its own "
        "(title, text, stats, image, template); default: the deck's back")
    unit: str | None = Field(default=None, description="id of the unit this card fields")
    table: str | None = Field(default=None, description="id of a data table the card prints below its text: "
                              "a table too long for one card continues on as many as it needs, each "
                              "repeating the table's header row")
    stats: dict[str, StatEntry] = Field(default={}, description="typed values: stats with applies_to: [card]")
    as_written: dict[str, str] = as_written_field()
    icons: OrUnstated[tuple[str, ...]] = Field(
        default=(), description="icons printed on the card, e.g. dice, dice; `unstated` if the source does not show them")
    image: str | None = Field(default=None, description="a picture from the game folder (PNG, SVG, JPEG) above the text")
    text: Text | None = None
    sections: tuple[CardSection, ...] = ()

    @property
    def back_face(self) -> CardBack | None:
        """The back written as content, or None where the back is a design's name (or the deck's)."""
        return self.back if isinstance(self.back, CardBack) else None

    @property
    def back_design(self) -> str | None:
        """The back design this card names: `back: NAME`, or the template of its back face."""
        return self.back if isinstance(self.back, str) else (self.back.template if self.back else None)
