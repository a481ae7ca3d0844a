"""NATO-style unit symbols as inline SVG: a frame, the unit-type sign inside it and the
echelon marks above it. Drawn in `currentColor` on a light field, so they print in the side's
text colour at any counter size."""

from __future__ import annotations

from markupsafe import Markup

# The frame: 24 × 16 units, with 6 units above it for the echelon marks.
W, H, TOP = 24.0, 16.0, 7.0
X0, Y0 = 3.0, TOP
X1, Y1 = X0 + W, Y0 + H
STROKE = 1.3


def _line(x1, y1, x2, y2, width=STROKE) -> str:
    return f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="currentColor" stroke-width="{width:g}"/>'


def _infantry() -> str:
    return _line(X0, Y0, X1, Y1) + _line(X0, Y1, X1, Y0)


def _armour() -> str:
    return (f'<rect x="{X0 + 4:g}" y="{Y0 + 4:g}" width="{W - 8:g}" height="{H - 8:g}" rx="{(H - 8) / 2:g}" '
            f'fill="none" stroke="currentColor" stroke-width="{STROKE:g}"/>')


def _cavalry() -> str:
    return _line(X0, Y1, X1, Y0)


def _artillery() -> str:
    return f'<circle cx="{(X0 + X1) / 2:g}" cy="{(Y0 + Y1) / 2:g}" r="2.6" fill="currentColor"/>'


def _headquarters() -> str:
    return (
        f'<text x="{(X0 + X1) / 2:g}" y="{Y1 - 4.2:g}" text-anchor="middle" font-family="PT Sans" '
        f'font-weight="bold" font-size="8" fill="currentColor">HQ</text>')


def _engineer() -> str:
    cx, cy = (X0 + X1) / 2, (Y0 + Y1) / 2
    return (f'<path d="M{cx - 6:g},{cy + 2.5:g} V{cy - 2.5:g} H{cx + 6:g} V{cy + 2.5:g} M{cx:g},{cy - 2.5:g} V{cy + 2.5:g}" '
            f'fill="none" stroke="currentColor" stroke-width="{STROKE:g}"/>')


def _antitank() -> str:
    return _line(X0, Y1, (X0 + X1) / 2, Y0) + _line((X0 + X1) / 2, Y0, X1, Y1)


def _airborne() -> str:
    cx = (X0 + X1) / 2
    return _infantry() + (f'<path d="M{cx - 5:g},{Y1 - 1:g} Q{cx - 2.5:g},{Y1 - 4:g} {cx:g},{Y1 - 1:g} '
                          f'Q{cx + 2.5:g},{Y1 - 4:g} {cx + 5:g},{Y1 - 1:g}" fill="none" stroke="currentColor" '
                          f'stroke-width="{STROKE:g}"/>')


def _motorized() -> str:
    return _infantry() + _line((X0 + X1) / 2, Y0, (X0 + X1) / 2, Y1)


def _mountain() -> str:
    cx = (X0 + X1) / 2
    return f'<path d="M{cx - 4:g},{Y1:g} L{cx:g},{Y1 - 5:g} L{cx + 4:g},{Y1:g} Z" fill="currentColor"/>'


def _supply() -> str:
    return _line(X0, Y1 - 3.5, X1, Y1 - 3.5)


SYMBOLS = {
    "infantry": _infantry,
    "armour": _armour,
    "mechanized": lambda: _infantry() + _armour(),
    "motorized": _motorized,
    "cavalry": _cavalry,
    "recon": _cavalry,
    "armoured-cavalry": lambda: _cavalry() + _armour(),
    "artillery": _artillery,
    "self-propelled-artillery": lambda: _artillery() + _armour(),
    "headquarters": _headquarters,
    "engineer": _engineer,
    "anti-tank": _antitank,
    "airborne": _airborne,
    "mountain": lambda: _infantry() + _mountain(),
    "supply": _supply,
    "none": lambda: "",
}

# Echelon marks above the frame: how many, and which sign.
ECHELONS = {
    "team": ("∅", 1), "squad": ("●", 1), "section": ("●", 2), "platoon": ("●", 3), "company": ("I", 1),
    "battalion": ("I", 2), "regiment": ("I", 3), "brigade": ("X", 1), "division": ("X", 2),
    "corps": ("X", 3), "army": ("X", 4),
}


def _echelon(name: str | None) -> str:
    if not name:
        return ""
    sign, count = ECHELONS[name]
    text = sign * count if sign != "I" else "I" * count
    return (f'<text x="{(X0 + X1) / 2:g}" y="{TOP - 0.9:g}" text-anchor="middle" font-family="PT Sans" '
            f'font-weight="bold" font-size="7.5" letter-spacing="0.4" fill="currentColor">{text}</text>')


def unit_symbol(symbol: str, echelon: str | None = None, field: str = "#ffffff") -> Markup:
    """The symbol as an <svg> that fills its box (width 100%), keeping its proportions."""
    sign = SYMBOLS[symbol]()
    frame = (f'<rect x="{X0:g}" y="{Y0:g}" width="{W:g}" height="{H:g}" fill="{field}" '
             f'stroke="currentColor" stroke-width="{STROKE:g}"/>')
    return Markup(f'<svg class="unit-symbol" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {X1 + X0:g} {Y1 + 0.7:g}" '
                  f'role="img" aria-label="{symbol}">{_echelon(echelon)}{frame}{sign}</svg>')
