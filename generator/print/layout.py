"""Card sheet geometry: how many cards fit a paper, where each sits, where its back goes
for long-edge duplex, and where the cut marks are. Pure numbers, tested on their own."""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path



@dataclass(frozen=True)
class SheetSpec:
    paper: str
    paper_w: float
    paper_h: float
    card_w: float
    card_h: float
    min_margin: float
    mark_gap: float
    mark_length: float
    gutter: float = 0.0  # space between neighbouring pieces (0: they share their cut lines)
    top_at: float | None = None  # where the first row starts (a shelf of pieces among others); None: centred
    printable: float = 0.0  # paper edge most printers leave blank: no mark or note there

    @property
    def cols(self) -> int:
        return max(1, math.floor((self.paper_w - 2 * self.min_margin + self.gutter) / (self.card_w + self.gutter)))

    @property
    def rows(self) -> int:
        return max(1, math.floor((self.paper_h - 2 * self.min_margin + self.gutter) / (self.card_h + self.gutter)))

    @property
    def grid_w(self) -> float:
        return self.cols * self.card_w + (self.cols - 1) * self.gutter

    @property
    def grid_h(self) -> float:
        return self.rows * self.card_h + (self.rows - 1) * self.gutter

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def left(self) -> float:
        return (self.paper_w - self.grid_w) / 2

    @property
    def top(self) -> float:
        return (self.paper_h - self.grid_h) / 2 if self.top_at is None else self.top_at

    def rows_fitting(self, top: float) -> int:
        """How many rows of pieces fit between `top` and the bottom margin."""
        return max(0, math.floor((self.paper_h - self.min_margin - top + self.gutter) / (self.card_h + self.gutter)))

    def block_height(self, rows: int) -> float:
        return rows * self.card_h + (rows - 1) * self.gutter

    @property
    def shelf_gap(self) -> float:
        """Between two shelves of pieces of different sizes on one sheet: room for the cut marks
        of each (below the one, above the other), with a cut between them."""
        return 2 * (self.mark_gap + self.mark_length)

    def _x(self, col: int) -> float:
        return self.left + col * (self.card_w + self.gutter)

    def _y(self, row: int) -> float:
        return self.top + row * (self.card_h + self.gutter)

    def front_slot(self, index: int) -> tuple[float, float]:
        """Top-left corner (x, y) in mm of the index-th card on a sheet of fronts."""
        row, col = divmod(index, self.cols)
        return self._x(col), self._y(row)

    def back_slot(self, index: int) -> tuple[float, float]:
        """Where the back of the index-th card goes: the same row, mirrored column, so that
        a sheet printed long-edge duplex puts each back behind its front."""
        row, col = divmod(index, self.cols)
        return self._x(self.cols - 1 - col), self._y(row)

    def cut_xs(self, count: int | None = None, mirrored: bool = False) -> list[float]:
        """Every vertical cut line: each piece's left and right edge (shared without a gutter).
        With `count` pieces on the sheet, only the columns they occupy (on a sheet of backs,
        `mirrored`, the columns mirror the fronts')."""
        cols = range(self.cols)
        if count is not None and count < self.cols:
            cols = range(self.cols - count, self.cols) if mirrored else range(count)
        edges = {round(self._x(c), 4) for c in cols} | {round(self._x(c) + self.card_w, 4) for c in cols}
        return sorted(edges)

    def cut_ys(self, count: int | None = None) -> list[float]:
        rows = self.used_rows(count)
        edges = {round(self._y(r), 4) for r in range(rows)} | {round(self._y(r) + self.card_h, 4) for r in range(rows)}
        return sorted(edges)

    def used_rows(self, count: int | None = None) -> int:
        return self.rows if count is None else max(1, min(self.rows, -(-count // self.cols)))

    def cut_marks(self, count: int | None = None, mirrored: bool = False) -> list[tuple[float, float, float, float]]:
        """Cut mark lines (x1, y1, x2, y2) in mm, at every cut line, outside the card area. With
        `count`, for a sheet holding that many pieces: no marks beside or below empty rows."""
        grid_r = self.left + self.grid_w
        grid_b = self._y(self.used_rows(count) - 1) + self.card_h
        gap_v, length_v = self.mark_room(min(self.top, self.paper_h - grid_b))
        gap_h, length_h = self.mark_room(min(self.left, self.paper_w - grid_r))
        lines = []
        for x in self.cut_xs(count, mirrored) if length_v else ():
            lines.append((x, self.top - gap_v - length_v, x, self.top - gap_v))
            lines.append((x, grid_b + gap_v, x, grid_b + gap_v + length_v))
        for y in self.cut_ys(count) if length_h else ():
            lines.append((self.left - gap_h - length_h, y, self.left - gap_h, y))
            lines.append((grid_r + gap_h, y, grid_r + gap_h + length_h, y))
        return lines

    def mark_room(self, margin: float) -> tuple[float, float]:
        """(gap from the cut, length) of the marks in a margin this wide: `mark_gap` and
        `mark_length` where they fit, shorter, then closer to the cut, where the printable
        area is narrower; (0, 0) when not even a millimetre of mark fits."""
        room = margin - self.printable
        length = min(self.mark_length, max(1.0, room - self.mark_gap))
        gap = min(self.mark_gap, room - length)
        if gap < 0.5:
            return 0.0, 0.0
        return gap, length


def shelves(specs: list[tuple[SheetSpec, int]]) -> list[list[tuple[int, SheetSpec, int, int]]]:
    """Pieces of several sizes packed onto as few sheets as their sizes allow: each kind (its
    spec, how many pieces) in rows of its own columns, the rows of one kind a shelf, shelves
    stacked down the sheet with room for their marks between them, the stack centred. Per
    sheet, (which kind, its spec placed at the shelf's top, first piece, pieces) of each shelf."""
    pages: list[list[tuple[int, SheetSpec, int, int]]] = [[]]
    bottom = None  # where the last shelf of the current sheet ends
    for kind, (spec, count) in enumerate(specs):
        first = 0
        while first < count:
            top = spec.min_margin if bottom is None else bottom + spec.shelf_gap
            rows = min(spec.rows_fitting(top), -(-(count - first) // spec.cols))
            if rows <= 0:
                pages.append([])
                bottom = None
                continue
            take = min(count - first, rows * spec.cols)
            pages[-1].append((kind, replace(spec, top_at=top), first, take))
            bottom = top + spec.block_height(rows)
            first += take
    centred = []
    for page in pages:
        if not page:
            continue
        _kind, last, _first, count = page[-1]
        start = page[0][1].top
        used = last.top + last.block_height(last.used_rows(count)) - start
        shift = (last.paper_h - used) / 2 - start
        centred.append([(kind, replace(s, top_at=s.top + shift), first, n) for kind, s, first, n in page])
    return centred


def load_sheets(path: Path) -> dict:
    """sheets.yaml, read once while the file stays the same (every card face asks for it)."""
    stat = path.stat()
    return copy.deepcopy(_parsed(str(path), stat.st_mtime_ns, stat.st_size))


@lru_cache(maxsize=8)
def _parsed(path: str, _mtime: int, _size: int) -> dict:
    from ..reading.loader import read_settings
    from ..model.printing import SheetsConfig

    return read_settings(Path(path), SheetsConfig)


def sheet_spec(sheets: dict, paper: str, card_size: tuple[float, float], gutter: float | None = None,
               kind: str = "cards") -> SheetSpec:
    """The layout of pieces of one size on one paper. The gutter, when not given, is the one
    sheets.yaml sets for this kind of piece (cards, counters)."""
    if paper not in sheets["papers"]:
        raise ValueError(f"unknown paper '{paper}' (known: {', '.join(sheets['papers'])})")
    p = sheets["papers"][paper]
    if gutter is None:
        gutter = sheets.get("gutters", {}).get(kind, 0.0)
    spec = SheetSpec(paper, p["width"], p["height"], card_size[0], card_size[1], sheets["min_margin"],
                     sheets["mark_gap"], sheets["mark_length"], gutter, printable=sheets.get("printable_margin", 0.0))
    if spec.grid_w > p["width"] or spec.grid_h > p["height"]:
        raise ValueError(f"a {card_size[0]}×{card_size[1]} mm card does not fit on {paper}")
    return spec
