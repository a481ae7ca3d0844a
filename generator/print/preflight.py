"""Preflight of print-shop files, as a print shop's checker would do it on the written PDF:
page boxes consistent, the bleed strip around every face painted like the face's edge (art
in the bleed, no mark in it), fonts embedded with one name per subset, raster pictures at
300 dpi or more. Pure readings of the
file; the build turns what they find into diagnostics."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pikepdf

MM = 72 / 25.4
STRIP_DPI = 150
EDGE_TOLERANCE = 10  # per colour channel (anti-aliasing, rendering)
EDGE_SHARE = 0.9  # share of the positions along an edge whose bleed must match the edge


@dataclass(frozen=True)
class Finding:
    page: int  # 1-based; 0 for the file as a whole
    what: str
    hint: str = ""


BLEED_HINT = ("paint the face's background to the edge of its box and draw back art past its viewBox "
              "(backs/*.svg.j2 fill -5..w+5); keep marks and white paper out of the bleed")
BOX_HINT = "write the file with Rulesmith's bleed pages (cards-bleed.pdf, --print-shop), which set both boxes"
FONT_HINT = "build again; a file joined by another tool must keep one name per font subset"


def _box(page, name: str) -> list[float] | None:
    value = page.obj.get(name)
    return [float(v) for v in value] if value is not None else None


def page_boxes(path: Path, bleed: float) -> list[Finding]:
    """Every page has a TrimBox, a BleedBox `bleed` mm around it, and paper around both."""
    found = []
    with pikepdf.Pdf.open(path) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            trim, box, media = _box(page, "/TrimBox"), _box(page, "/BleedBox"), [float(v) for v in page.mediabox]
            if trim is None or box is None:
                found.append(Finding(number, "no TrimBox or BleedBox", BOX_HINT))
                continue
            out = [trim[0] - box[0], trim[1] - box[1], box[2] - trim[2], box[3] - trim[3]]
            if any(abs(v / MM - bleed) > 0.05 for v in out):
                sides = ", ".join(f"{v / MM:.2f}" for v in out)
                found.append(Finding(number, f"BleedBox is {sides} mm around the TrimBox, not {bleed:g} mm", BOX_HINT))
            if box[0] < media[0] - 0.01 or box[1] < media[1] - 0.01 or box[2] > media[2] + 0.01 or box[3] > media[3] + 0.01:
                found.append(Finding(number, "BleedBox reaches past the paper (MediaBox)", BOX_HINT))
    return found


def bleed_strips(path: Path, bleed: float) -> list[Finding]:
    """Every page's bleed strip (between the TrimBox and the BleedBox) is painted as the face's
    edge just inside the trim: art runs into the bleed, and no mark or white paper is there."""
    import pypdfium2 as pdfium

    found = []
    scale = STRIP_DPI / 72
    document = pdfium.PdfDocument(str(path))
    try:
        with pikepdf.Pdf.open(path) as pdf:
            trims = [_box(page, "/TrimBox") for page in pdf.pages]
            medias = [[float(v) for v in page.mediabox] for page in pdf.pages]
        for number, (trim, media) in enumerate(zip(trims, medias), start=1):
            if trim is None:
                continue
            image = document[number - 1].render(scale=scale).to_pil().convert("RGB")
            # pixel rectangle of the trim (PDF y grows upwards, the image's downwards)
            left, right = (trim[0] - media[0]) * scale, (trim[2] - media[0]) * scale
            top, bottom = (media[3] - trim[3]) * scale, (media[3] - trim[1]) * scale
            found += _strip_findings(number, image, (left, top, right, bottom), bleed * MM * scale)
    finally:
        document.close()
    return found


def _strip_findings(number: int, image, trim: tuple[float, float, float, float], bleed_px: float) -> list[Finding]:
    sides = _unlike_sides(image, trim, bleed_px)
    if not sides:
        return []
    return [Finding(number, f"the bleed at the {' and '.join(sides)} is not the face's edge "
                            "(white paper, a mark, or art that stops at the cut)", BLEED_HINT)]


def png_face(path: Path, trim: tuple[float, float], bleed: float, dpi: int) -> list[Finding]:
    """A face's PNG for a printer: its pixels the trim plus bleed at `dpi` (and said so in
    the file), and its bleed painted like its edge."""
    from PIL import Image

    with Image.open(path) as opened:
        image = opened.convert("RGB")
        stated = opened.info.get("dpi", (0, 0))
    want = tuple(round((v + 2 * bleed) / 25.4 * dpi) for v in trim)
    found = []
    if image.size != want or min(float(v) for v in stated) < dpi - 0.5:
        found.append(Finding(1, f"{image.size[0]}×{image.size[1]} px at {float(stated[0]):g} dpi, not "
                                f"{want[0]}×{want[1]} px at {dpi} dpi", "render the face at the preset's dpi"))
    px = bleed / 25.4 * dpi
    scale = STRIP_DPI / dpi  # judged at the strip's resolution, as a PDF page is
    small = image.resize((max(1, round(image.size[0] * scale)), max(1, round(image.size[1] * scale))))
    s = px * scale
    found += _strip_findings(1, small, (s, s, small.size[0] - s, small.size[1] - s), s)
    return found


def _unlike_sides(image, trim: tuple[float, float, float, float], bleed_px: float) -> list[str]:
    """The sides (and corners) whose bleed differs from the face's pixels just inside the trim.
    Along an edge most positions must match (the edge's colour runs on); in a corner, where
    crop marks would be drawn, every one must match the face's corner."""
    left, top, right, bottom = trim
    inner = max(1.0, 0.3 * STRIP_DPI / 25.4)  # sample 0.3 mm inside the trim
    depths = [bleed_px * f for f in (0.25, 0.5, 0.85)]  # and across the bleed
    pixels = image.load()
    size = image.size

    def pixel(x: float, y: float):
        return pixels[_clamp(x, size[0]), _clamp(y, size[1])]

    edges = {
        "top": [((x, top + inner), [(x, top - d) for d in depths]) for x in _along(left, right)],
        "bottom": [((x, bottom - inner), [(x, bottom + d) for d in depths]) for x in _along(left, right)],
        "left": [((left + inner, y), [(left - d, y) for d in depths]) for y in _along(top, bottom)],
        "right": [((right - inner, y), [(right + d, y) for d in depths]) for y in _along(top, bottom)],
    }
    out = []
    for side, samples in edges.items():
        good = sum(all(_near(pixel(*at), pixel(*o)) for o in outs) for at, outs in samples)
        if good < EDGE_SHARE * len(samples):
            out.append(side)
    for name, (cx, cy, sx, sy) in {"top left corner": (left, top, -1, -1), "top right corner": (right, top, 1, -1),
                                   "bottom left corner": (left, bottom, -1, 1),
                                   "bottom right corner": (right, bottom, 1, 1)}.items():
        corner = pixel(cx - sx * inner, cy - sy * inner)
        if not all(_near(corner, pixel(cx + sx * dx, cy + sy * dy)) for dx in depths for dy in depths):
            out.append(name)
    return out


def _along(start: float, end: float, count: int = 40) -> list[float]:
    """Positions along an edge, its corners (a rounded frame's) left out."""
    margin = (end - start) * 0.08
    return [start + margin + (end - start - 2 * margin) * k / (count - 1) for k in range(count)]


def _clamp(v: float, size: int) -> int:
    return min(size - 1, max(0, int(v)))


def _near(a, b) -> bool:
    return all(abs(x - y) <= EDGE_TOLERANCE for x, y in zip(a, b))


def subset_names(path: Path) -> list[Finding]:
    """Fonts not embedded, and names that more than one font of the file uses (`pdffonts`
    would list them twice): a RIP that takes one subset for another drops glyphs."""
    found = []
    named: dict[str, set] = {}
    with pikepdf.Pdf.open(path) as pdf:
        for font in _fonts(pdf):
            name = str(font.get("/BaseFont", "")).lstrip("/")
            descriptor = _descriptor(font)
            if descriptor is not None and not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                found.append(Finding(0, f"font {name} is not embedded", FONT_HINT))
            named.setdefault(name, set()).add(font.objgen)
    for name, objects in sorted(named.items()):
        if len(objects) > 1:
            found.append(Finding(0, f"font name {name} stands for {len(objects)} different fonts", FONT_HINT))
    return found


def _fonts(pdf):
    """Every font dictionary the file holds, but a composite font's descendant (the same font)."""
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font" and "/BaseFont" in obj \
                and obj.get("/Subtype") not in ("/CIDFontType0", "/CIDFontType2"):
            yield obj


def _descriptor(font):
    if "/FontDescriptor" in font:
        return font.FontDescriptor
    descendants = font.get("/DescendantFonts")
    if descendants:
        return descendants[0].get("/FontDescriptor")
    return None


LEAST_DPI = 300
RASTER_HINT = "give the picture more pixels (300 per inch of its printed size), or print it smaller"


def raster_dpi(path: Path, least: int = LEAST_DPI) -> list[Finding]:
    """Raster pictures printed at fewer than `least` pixels per inch: each picture's size on
    the page from the transformation it is drawn with (forms followed, as a RIP reads them)."""
    found = []
    with pikepdf.Pdf.open(path) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            for width_px, height_px, w_pt, h_pt in _images_drawn(page.obj, [1, 0, 0, 1, 0, 0], 0):
                dpi = min(width_px / (w_pt / 72) if w_pt else least, height_px / (h_pt / 72) if h_pt else least)
                if dpi < least - 0.5:
                    found.append(Finding(number, f"a {width_px}×{height_px} px picture printed {w_pt / MM:.1f}×"
                                                 f"{h_pt / MM:.1f} mm: {dpi:.0f} dpi, below {least}", RASTER_HINT))
    return found


def _images_drawn(holder, ctm: list[float], depth: int):
    """(pixels wide, high, points wide, high) of each image a page or form draws."""
    if depth > 8:
        return
    xobjects = (holder.get("/Resources") or {}).get("/XObject") or {}
    stack, current = [], ctm
    for operands, operator in pikepdf.parse_content_stream(holder):
        op = str(operator)
        if op == "q":
            stack.append(current)
        elif op == "Q" and stack:
            current = stack.pop()
        elif op == "cm":
            current = _times([float(v) for v in operands], current)
        elif op == "Do":
            xobject = xobjects.get(str(operands[0]))
            if xobject is None:
                continue
            if xobject.get("/Subtype") == "/Image":
                a, b, c, d = current[:4]
                yield int(xobject.Width), int(xobject.Height), (a * a + b * b) ** 0.5, (c * c + d * d) ** 0.5
            elif xobject.get("/Subtype") == "/Form":
                matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                yield from _images_drawn(xobject, _times(matrix, current), depth + 1)


def _times(m: list[float], n: list[float]) -> list[float]:
    """The PDF matrix m × n (m applied first)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F]


def preflight_pages(path: Path, bleed: float, records: list, ctx, report) -> None:
    """Preflight a PDF of one face per page: each finding an E048 at the record of the face on
    that page (`records`, in page order), or at game.yaml for the file as a whole."""
    from ..core.diagnostics import Location

    fallback = Location(ctx.game.folder / "game.yaml")
    name = path.relative_to(ctx.output_dir()).as_posix() if path.is_relative_to(ctx.output_dir()) else path.name
    for finding in page_boxes(path, bleed) + bleed_strips(path, bleed) + subset_names(path) + raster_dpi(path):
        at = records[finding.page - 1] if 0 < finding.page <= len(records) else None
        where = f"page {finding.page}: " if finding.page else ""
        report.add("E048", f"{ctx.lang}/{name}: {where}{finding.what}", at or fallback, finding.hint)
