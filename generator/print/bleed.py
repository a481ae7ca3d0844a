"""Bleed pages for print shops: one face per page at trim size, whose background, frame colour
and art run `bleed` mm past the cut, crop marks (when wanted) in a slug outside the bleed,
and the PDF page boxes (TrimBox, BleedBox) that say where the cut and the bleed are."""

from __future__ import annotations

import re
from pathlib import Path

import pikepdf

from .pdfsave import save

MM = 72 / 25.4
MARK_CLEARANCE = 1.0  # mm between the bleed's edge and the nearest crop mark


def mark_offset(bleed: float, gap: float) -> float:
    """How far from the cut the crop marks start: their usual gap, and never inside the bleed."""
    return max(gap, bleed + MARK_CLEARANCE)


def slug(config: dict, marks: bool = True) -> float:
    """Paper kept around the bleed for the crop marks (none without marks)."""
    return mark_offset(config["bleed"], config["mark_gap"]) + config["mark_length"] - config["bleed"] if marks else 0.0


def bleed_rules(sizes: dict[str, tuple[float, float]], config: dict, marks: bool = True) -> list[str]:
    """CSS for bleed pages of faces of these sizes (key -> trim w, h in mm): a page per size,
    its paper the trim plus bleed (plus the marks' slug), and the face's own box grown by the
    bleed on every side (a transparent border), so its background paints into the bleed
    while what the face lays out (relative to its padding box, the trim) stays where it is on
    the sheets. The face sits in a box of trim and bleed that clips what runs further (back art)."""
    bleed = config["bleed"]
    around = bleed + slug(config, marks)
    rules = [f"@page card-{key} {{ size: {w}mm {h}mm; margin: 0; bleed: {around:g}mm; }}"
             for key, (w, h) in sizes.items()]
    return rules + box_rules(bleed)


def box_rules(bleed: float, within: str = "") -> list[str]:
    """CSS for faces (in a OPEN_BOX … CLOSE_BOX) whose colour runs `bleed` mm past their cut:
    on bleed pages, and into the gutters of card sheets (`within` their sheets)."""
    return [f"{within}.bleed-box {{ position: absolute; left: -{bleed:g}mm; right: -{bleed:g}mm; "
            f"top: -{bleed:g}mm; bottom: -{bleed:g}mm; overflow: hidden; }}",
            f"{within}.bleed-box > .card {{ border: {bleed:g}mm solid transparent; border-radius: 0; "
            "background-origin: border-box; }",
            f"{within}.bleed-box > .card-back {{ overflow: visible; }}"]


def counter_box_rules(bleed: float) -> list[str]:
    """CSS for counters on bleed pages: the counter's colour runs `bleed` mm past its cut (no
    keyline on the cut), and so does its band, which crosses the counter from edge to edge."""
    return [f".bleed-box > .counter {{ border: {bleed:g}mm solid transparent; border-radius: 0; "
            "background-origin: border-box; overflow: visible; }",
            f".bleed-box > .counter .band {{ left: -{bleed:g}mm; right: -{bleed:g}mm; }}"]


OPEN_BOX, CLOSE_BOX = '<div class="bleed-box">', "</div>"  # around a face on a bleed page


def crop_marks(w: float, h: float, bleed: float, gap: float, length: float) -> list[tuple[float, float, float, float]]:
    """Crop mark lines (x1, y1, x2, y2) in mm, relative to the trim's top-left corner: on the
    continuation of each cut line, starting outside the bleed."""
    start = mark_offset(bleed, gap)
    end = start + length
    lines = []
    for x in (0.0, w):
        lines += [(x, -end, x, -start), (x, h + start, x, h + end)]
    for y in (0.0, h):
        lines += [(-end, y, -start, y), (w + start, y, w + end, y)]
    return lines


def set_bleed_box(path: Path, bleed: float) -> None:
    """Make every page's BleedBox its TrimBox grown by `bleed` mm (WeasyPrint puts it at most
    10 pt from the trim, whatever the CSS bleed), within the paper."""
    with pikepdf.Pdf.open(path, allow_overwriting_input=True) as pdf:
        for page in pdf.pages:
            trim = [float(v) for v in page.obj.get("/TrimBox", page.mediabox)]
            media = [float(v) for v in page.mediabox]
            out = bleed * MM
            box = [max(media[0], trim[0] - out), max(media[1], trim[1] - out),
                   min(media[2], trim[2] + out), min(media[3], trim[3] + out)]
            page.obj.BleedBox = pikepdf.Array([round(v, 4) for v in box])
        save(pdf, path)


VIEWBOX = re.compile(r'viewBox="\s*([-\d.eE+]+)[\s,]+([-\d.eE+]+)[\s,]+([-\d.eE+]+)[\s,]+([-\d.eE+]+)\s*"')


def grown_art(svg: str, w: float, h: float, bleed: float) -> str:
    """A back's art (an SVG drawn for a w×h mm face) drawn over the face and its bleed: the
    root's viewBox widened by the bleed in its own units, the picture as large and as placed
    as before, so what the art paints past its edge (its background) fills the bleed."""
    match = VIEWBOX.search(svg, 0, svg.find(">") + 1)
    if match is None:
        return svg
    x, y, vw, vh = (float(v) for v in match.groups())
    dx, dy = bleed * vw / w, bleed * vh / h
    box = f'viewBox="{x - dx:g} {y - dy:g} {vw + 2 * dx:g} {vh + 2 * dy:g}" style="position: absolute; ' \
          f'left: -{bleed:g}mm; top: -{bleed:g}mm; width: {w + 2 * bleed:g}mm; height: {h + 2 * bleed:g}mm"'
    return svg[:match.start()] + box + svg[match.end():]
