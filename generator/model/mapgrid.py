"""Map grid geometry in millimetres: where each cell's centre and corners are, which cells are
neighbours, and the side two neighbouring hexes share. Columns and rows count from 1; on a
flat-top hex grid the even columns sit half a hex lower, on a pointy-top grid the even rows
sit half a hex to the right."""

from __future__ import annotations

import math
from dataclasses import dataclass

SQRT3 = math.sqrt(3)


@dataclass(frozen=True)
class Grid:
    kind: str  # hex-flat, hex-pointy, square, none
    columns: int
    rows: int
    cell: float  # hex: across the flats; square: the side

    @property
    def radius(self) -> float:
        """A hex's centre-to-corner distance."""
        return self.cell / SQRT3

    @property
    def size(self) -> tuple[float, float]:
        """Width and height of the whole grid in mm."""
        d, r = self.cell, self.radius
        if self.kind == "hex-flat":
            return 2 * r + (self.columns - 1) * 1.5 * r, self.rows * d + (d / 2 if self.columns > 1 else 0)
        if self.kind == "hex-pointy":
            return self.columns * d + (d / 2 if self.rows > 1 else 0), 2 * r + (self.rows - 1) * 1.5 * r
        return self.columns * d, self.rows * d

    def contains(self, col: int, row: int) -> bool:
        return 1 <= col <= self.columns and 1 <= row <= self.rows

    def centre(self, col: int, row: int) -> tuple[float, float]:
        d, r = self.cell, self.radius
        if self.kind == "hex-flat":
            return r + (col - 1) * 1.5 * r, d / 2 + (row - 1) * d + (d / 2 if col % 2 == 0 else 0)
        if self.kind == "hex-pointy":
            return d / 2 + (col - 1) * d + (d / 2 if row % 2 == 0 else 0), r + (row - 1) * 1.5 * r
        return d / 2 + (col - 1) * d, d / 2 + (row - 1) * d

    def corners(self, col: int, row: int) -> list[tuple[float, float]]:
        cx, cy = self.centre(col, row)
        if self.kind in ("square", "none"):
            h = self.cell / 2
            return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
        start = 0 if self.kind == "hex-flat" else 30
        r = self.radius
        return [(cx + r * math.cos(math.radians(start + 60 * k)), cy + r * math.sin(math.radians(start + 60 * k)))
                for k in range(6)]

    def _cube(self, col: int, row: int) -> tuple[int, int]:
        q, r = col - 1, row - 1
        if self.kind == "hex-flat":
            return q, r - (q - (q & 1)) // 2
        return q - (r - (r & 1)) // 2, r

    def distance(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """Cells between two cells (1: neighbours). Squares count diagonal steps as one."""
        if self.kind.startswith("hex"):
            (x1, z1), (x2, z2) = self._cube(*a), self._cube(*b)
            return max(abs(x1 - x2), abs(z1 - z2), abs((-x1 - z1) - (-x2 - z2)))
        return max(abs(a[0] - b[0]), abs(a[1] - b[1]))

    def share_side(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        if self.kind.startswith("hex"):
            return self.distance(a, b) == 1
        return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1

    def side(self, a: tuple[int, int], b: tuple[int, int]) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two ends of the side cells a and b share."""
        other = self.corners(*b)
        tolerance = self.cell / 100
        shared = [p for p in self.corners(*a) if any(math.dist(p, q) < tolerance for q in other)]
        if len(shared) != 2:
            raise ValueError(f"cells {a} and {b} share no side")
        return shared[0], shared[1]
