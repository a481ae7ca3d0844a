"""Component sizes as a designer writes them: a preset name (poker, tarot, counter-1/2) or
a size in millimetres or inches ("25mm", "60x90mm", "2.5x3.5in", "5/8in")."""

from __future__ import annotations

import re
from fractions import Fraction

MM_PER_INCH = 25.4

# Trimmed width × height in millimetres of each preset.
PRESETS: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 67.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
    "euro": (59.0, 92.0),
    "counter-1/2": (12.7, 12.7),
    "counter-5/8": (15.875, 15.875),
    "counter-3/4": (19.05, 19.05),
    "counter-1": (25.4, 25.4),
}

_NUMBER = r"\d+(?:\.\d+)?(?:/\d+)?"
_SIZE = re.compile(rf"^\s*({_NUMBER})\s*(?:[x×*]\s*({_NUMBER}))?\s*(mm|in|inch|inches|\"|″)\s*$", re.IGNORECASE)


def _amount(text: str) -> float:
    return float(Fraction(text)) if "/" in text else float(text)


def parse_size(text: str) -> tuple[float, float]:
    """(width, height) in mm; ValueError that says what would do."""
    if text in PRESETS:
        return PRESETS[text]
    match = _SIZE.match(str(text))
    if not match:
        raise ValueError(f"'{text}' is not a size: write a preset ({', '.join(PRESETS)}) "
                         "or a size with its unit, e.g. 25mm, 60x90mm, 2.5x3.5in, 5/8in")
    width = _amount(match.group(1))
    height = _amount(match.group(2)) if match.group(2) else width
    if width <= 0 or height <= 0:
        raise ValueError(f"'{text}': a size must be larger than zero")
    scale = 1.0 if match.group(3).lower() == "mm" else MM_PER_INCH
    return round(width * scale, 3), round(height * scale, 3)


def size_key(text: str) -> str:
    """A name for the size that is safe in CSS page names and file names."""
    if text in PRESETS and "/" not in text:
        return text
    w, h = parse_size(text)
    return f"{w:g}x{h:g}mm".replace(".", "_")


def check_size(value: str) -> str:
    parse_size(value)
    return value
