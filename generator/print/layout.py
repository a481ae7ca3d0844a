"""Card sheet geometry: how many cards fit a paper, where each sits, where its back goes
for long-edge duplex, and where the cut marks are. Pure numbers, tested on their own."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import yaml


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

    @property
    def cols(self) -> int:
        return max(1, math.floor((self.paper_w - 2 * self.min_margin) / self.card_w))

    @property
    def rows(self) -> int:
        return max(1, math.floor((self.paper_h - 2 * self.min_margin) / self.card_h))

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def left(self) -> float:
        return (self.paper_w - self.cols * self.card_w) / 2

    @property
    def top(self) -> float:
        return (self.paper_h - self.rows * self.card_h) / 2

    def front_slot(self, index: int) -> tuple[float, float]:
        """Top-left corner (x, y) in mm of the index-th card on a sheet of fronts."""
        row, col = divmod(index, self.cols)
        return self.left + col * self.card_w, self.top + row * self.card_h

    def back_slot(self, index: int) -> tuple[float, float]:
        """Where the back of the index-th card goes: the same row, mirrored column, so that
        a sheet printed long-edge duplex puts each back behind its front."""
        row, col = divmod(index, self.cols)
        return self.left + (self.cols - 1 - col) * self.card_w, self.top + row * self.card_h

    def cut_marks(self) -> list[tuple[float, float, float, float]]:
        """Cut mark lines (x1, y1, x2, y2) in mm, at every cut line, outside the card area."""
        length = max(1.0, min(self.mark_length, min(self.left, self.top) - self.mark_gap - 1))
        grid_r = self.left + self.cols * self.card_w
        grid_b = self.top + self.rows * self.card_h
        lines = []
        for c in range(self.cols + 1):
            x = self.left + c * self.card_w
            lines.append((x, self.top - self.mark_gap - length, x, self.top - self.mark_gap))
            lines.append((x, grid_b + self.mark_gap, x, grid_b + self.mark_gap + length))
        for r in range(self.rows + 1):
            y = self.top + r * self.card_h
            lines.append((self.left - self.mark_gap - length, y, self.left - self.mark_gap, y))
            lines.append((grid_r + self.mark_gap, y, grid_r + self.mark_gap + length, y))
        return lines


def load_sheets(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def sheet_spec(sheets: dict, paper: str, card_size: tuple[float, float]) -> SheetSpec:
    if paper not in sheets["papers"]:
        raise ValueError(f"unknown paper '{paper}' (known: {', '.join(sheets['papers'])})")
    p = sheets["papers"][paper]
    spec = SheetSpec(paper, p["width"], p["height"], card_size[0], card_size[1], sheets["min_margin"],
                     sheets["mark_gap"], sheets["mark_length"])
    if spec.cols * card_size[0] > p["width"] or spec.rows * card_size[1] > p["height"]:
        raise ValueError(f"a {card_size[0]}×{card_size[1]} mm card does not fit on {paper}")
    return spec
