"""Colours as content writes them (#rrggbb) and how well text reads on them: WCAG 2.2's
relative luminance and contrast ratio (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio).
A side's pieces take black or white text, whichever reads better on the side's colour, unless
the designer names a text colour; the layout check measures every printed text against what is
behind it."""

from __future__ import annotations

import re

BLACK = "#000000"
WHITE = "#ffffff"
HEX = re.compile(r"#[0-9a-fA-F]{6}")

# WCAG 2.2, success criterion 1.4.3: 4.5:1 for text, 3:1 for large text (18 pt, or 14 pt bold).
BODY_RATIO = 4.5
LARGE_RATIO = 3.0


def rgb(colour: str) -> tuple[float, float, float]:
    """#rrggbb as three channels from 0 to 1."""
    if not HEX.fullmatch(colour):
        raise ValueError(f"'{colour}' is not a colour: write #rrggbb, e.g. #c0392b")
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def luminance(channels: tuple[float, float, float]) -> float:
    """Relative luminance of an sRGB colour (channels 0 to 1)."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """The contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable_on(background: str) -> str:
    """Black or white, whichever has the higher contrast on `background` (#rrggbb)."""
    back = rgb(background)
    return BLACK if contrast(rgb(BLACK), back) >= contrast(rgb(WHITE), back) else WHITE


def required_ratio(size_pt: float, bold: bool) -> float:
    """The contrast WCAG asks of text of this size and weight."""
    large = size_pt >= 18 - 0.05 or (bold and size_pt >= 14 - 0.05)
    return LARGE_RATIO if large else BODY_RATIO
