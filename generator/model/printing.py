"""How a game prints, as data: `print.yaml` (the reference sheet's sections, the layout
check's limits) and `sheets.yaml` (papers, margins, cut marks, text sizes of cards, counters
and maps). Validated like every content file; the printers read only validated values."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from .base import Frozen


class Settings(Frozen):
    unstated_allowed: ClassVar[bool] = False  # settings are ours to choose, not a source's to state

# The reference sheet's sections, in their default order (print/reference.py).
REFERENCE_SECTIONS = ("parameters", "keywords", "units", "tables", "dice", "actions", "terrain", "bands", "rules",
                      "probabilities")
ReferenceSection = Literal[REFERENCE_SECTIONS]  # type: ignore[valid-type]

Mm = Annotated[float, Field(ge=0, le=2000, allow_inf_nan=False, description="millimetres")]
PositiveMm = Annotated[float, Field(gt=0, le=2000, allow_inf_nan=False, description="millimetres")]
# Text sizes: a size of 0 prints no text at all (nor does the layout check see it).
Pt = Annotated[float, Field(ge=1, le=200, allow_inf_nan=False, description="points")]


BookPaper = Literal["a4", "a5", "letter"]


class BookLayout(Settings):
    """How the rulebook sets its pages on one paper (`books:` in print.yaml): one or two
    columns, the margins (inner = the binding side), whether left and right pages mirror
    them, and the multiple of pages a folded book is padded to with blank pages."""

    columns: Literal[1, 2] = Field(default=1, description="text columns on a page")
    column_gap: Mm = Field(default=7, description="space between the columns")
    spanning_table: int = Field(default=4, ge=1, le=100,
                                description="a table of this many columns spans the columns of a page")
    top: Mm = 20
    bottom: Mm = 22
    inner: Mm = 18
    outer: Mm = 18
    mirrored: bool = Field(default=False, description="inner margin on the binding side of each page")
    pad_to: Literal[1, 2, 4] = Field(default=1, description="page count padded to a multiple of this")


class PrintConfig(Settings):
    """content/GAME/print.yaml (or templates/print.yaml): what the reference sheet shows,
    the limits the layout check keeps and how the rulebook sets its pages per paper."""

    reference: list[ReferenceSection] | None = Field(default=None,
                                                     description="the reference sheet's sections, in order")
    min_text_pt: Pt | None = Field(default=None, description="smallest text size a document may use")
    card_safe_mm: Mm | None = Field(default=None, description="how far text on a card keeps inside the cut line")
    counter_safe_mm: Mm | None = Field(default=None, description="how far text on a counter keeps inside the cut line")
    books: dict[BookPaper, BookLayout] | None = Field(default=None, description="the rulebook's pages per paper")
    reference_deck: bool | None = Field(default=None, description="print the generated quick-reference deck (dice, "
                                        "actions, tables, distance bands): true, false, or leave out for games "
                                        "with neither cards nor units")
    datasheet_deck: bool | None = Field(default=None, description="print a datasheet card for every unit no card "
                                        "fields: true, false, or leave out for games without cards")


class Paper(Settings):
    width: PositiveMm
    height: PositiveMm


class CardLayout(Settings):
    padding: Mm
    header: Mm
    footer: Mm
    base_font_pt: Pt
    min_font_pt: Pt
    stats_in_row: int = Field(default=6, ge=1, le=50)


class Gutters(Settings):
    cards: Mm = 0.0
    counters: Mm = 0.0
    cards_mixed: Mm = Field(default=0.0, le=20, description="between cards of different backgrounds on one sheet")


class CounterLayout(Settings):
    base_font_pt_per_mm: float = Field(gt=0, le=20, allow_inf_nan=False)
    min_font_pt: Pt


class MapLayout(Settings):
    page_margin: Mm
    overlap: Mm
    caption: Mm
    frame: Mm


class SheetsConfig(Settings):
    """templates/sheets.yaml: how pieces are laid out on paper."""

    papers: dict[str, Paper] = Field(min_length=1)
    min_margin: Mm
    printable_margin: Mm = 0.0
    mark_gap: Mm
    mark_length: Mm
    bleed: Mm
    card: CardLayout
    gutters: Gutters = Gutters()
    counter: CounterLayout
    maps: MapLayout


def _file_names(front: str, back: str, format_: str, fields: dict[str, str]) -> None:
    """File name patterns of a preset's fronts and backs: only the fields there are, inside
    the preset's folder, ending in the format's suffix; a pdf's fronts and backs in one file,
    a png's apart and numbered."""
    names = ", ".join(f"{{{k}}}" for k in fields)
    for pattern in (front, back):
        try:
            name = pattern.format(**fields)
        except (KeyError, IndexError, ValueError):
            raise ValueError(f"'{pattern}' names a field there is not: write {names}")
        if name.startswith("/") or ".." in name.split("/") or "\\" in name:
            raise ValueError(f"'{pattern}' leaves the preset's folder: write a name like {{n}}.png")
        if not name.endswith("." + format_):
            raise ValueError(f"'{pattern}' does not end in .{format_}, the preset's format")
    if format_ == "pdf" and front != back:
        raise ValueError("a pdf preset writes fronts and backs into one file: give front and back one name")
    numbered = [k for k in fields if k != next(iter(fields))]  # every field but the deck's or sheet's
    if format_ == "png" and (front == back or not all(any(f"{{{k}}}" in p for k in numbered) for p in (front, back))):
        raise ValueError("a png preset writes a file per face: name fronts and backs apart, each with "
                         + " or ".join(f"{{{k}}}" for k in numbered))


class CounterProduct(Settings):
    """A printer's product for counters (punch-out chits, tokens): `counters:` of a preset."""

    sizes: dict[str, tuple[PositiveMm, PositiveMm]] = Field(
        min_length=1, description="counter size (as countersheets name it) -> the printer's trim, mm")
    bleed: Mm
    format: Literal["pdf", "png"]
    dpi: int = Field(default=300, ge=72, le=1200)
    front: str = Field(min_length=1, max_length=200, description="file name of a front: {sheet}, {counter}, {n}")
    back: str = Field(min_length=1, max_length=200, description="file name of a back: {sheet}, {counter}, {n}")

    @model_validator(mode="after")
    def _names(self) -> "CounterProduct":
        _file_names(self.front, self.back, self.format, {"sheet": "s", "counter": "c", "n": "001"})
        return self


class PrintShop(Settings):
    """One print-on-demand preset (templates/print-shops.yaml)."""

    name: str = Field(min_length=1, max_length=100)
    sizes: dict[str, tuple[PositiveMm, PositiveMm]] = Field(min_length=1,
                                                            description="deck size -> the printer's trim, mm")
    bleed: Mm
    format: Literal["pdf", "png"]
    dpi: int = Field(default=300, ge=72, le=1200)
    front: str = Field(min_length=1, max_length=200, description="file name of a front: {deck}, {card}, {n}")
    back: str = Field(min_length=1, max_length=200, description="file name of a back: {deck}, {card}, {n}")
    counters: CounterProduct | None = Field(default=None, description="the printer's product for counters, if any")

    @model_validator(mode="after")
    def _names(self) -> "PrintShop":
        _file_names(self.front, self.back, self.format, {"deck": "d", "card": "c", "n": "001"})
        return self


class PrintShops(Settings):
    """templates/print-shops.yaml: the print-on-demand presets `build --print-shop` knows."""

    presets: dict[str, PrintShop] = Field(min_length=1)
