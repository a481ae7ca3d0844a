"""Pictures the site would copy and the printer would draw: each one refused by pictures.py
(script or references in an SVG, a damaged or oversized PNG or JPEG) is reported at its own
place, and again where a chapter or record names it, so the designer learns both what is
wrong and what would lose its picture."""

from __future__ import annotations

from pathlib import Path

from ..system import folders
from ..core.diagnostics import Location, Report
from ..reading.game import Game
from ..safety.pictures import MAX_PIXELS, TYPES, Refusal, inside, refusal

HINTS = {
    "E063": "remove it from the drawing (an SVG shows shapes and text only: no script, no links to other "
            "files), or export the drawing again as plain SVG or PNG",
    "E064": f"save the picture again as PNG, JPEG or plain SVG (at most {MAX_PIXELS:,} pixels)",
}


def report_use(report: Report, where: Location, name: str, path: Path) -> None:
    """A chapter or record at `where` names the picture `name` (at `path`): report it if refused."""
    refused = refusal(path)
    if refused is not None:
        report.add(refused.code, f"image '{name}' cannot be published: {refused.message} "
                   f"({refused.where(name)})", where, HINTS[refused.code])


def _report_own(report: Report, path: Path, refused: Refusal) -> None:
    report.add(refused.code, refused.message, Location(path, refused.line, refused.col), HINTS[refused.code])


def check(game: Game, report: Report) -> None:
    for path in folders.files(game.folder, {"__pycache__"}):
        if path.suffix.lower() not in TYPES or not inside(game.folder, path):
            continue
        refused = refusal(path)
        if refused is not None:
            _report_own(report, path, refused)
