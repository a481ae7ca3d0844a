"""Maps drawn as SVG from their data (terrain colours, features, labels, setup codes, cell
numbers, an optional background picture), printed tiled across paper pages with an overlap and
registration marks for assembly, and as one large page per map for a print shop."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup, escape

from .. import outputs
from ..core.diagnostics import Location, Report
from ..model import Map
from ..model.mapgrid import Grid
from ..model.maps import cell_xy
from ..outputs.layout import sized
from .bleed import crop_marks, set_bleed_box, slug
from .sheetparts import draw_marks, sheets_config
from .context import BuildContext
from .pdf import write_pdf
from .preflight import preflight_pages

# Colours for terrain that names none: common terrain ids first, then a fixed palette.
DEFAULT_COLOURS = {"clear": "#f3ecd2", "open": "#f3ecd2", "woods": "#9cc08a", "forest": "#9cc08a",
                   "hills": "#d8bf8c", "hill": "#d8bf8c", "mountain": "#b49a7a", "mountains": "#b49a7a",
                   "town": "#c9c2bc", "city": "#b9b0a8", "marsh": "#b7d3c6", "swamp": "#b7d3c6",
                   "water": "#9fc4e0", "lake": "#9fc4e0", "sea": "#8fb8d8", "desert": "#f0dca0"}
PALETTE = ["#e8d9b0", "#b8d4a0", "#d9b99b", "#c4c4dc", "#e0c4c4", "#c4dcd8"]
FEATURE_STYLE = {  # stroke colour, width mm, dash
    "river": ("#2f6fb0", 1.4, None), "stream": ("#2f6fb0", 0.7, None), "wall": ("#4a4a4a", 0.9, None),
    "border": ("#7a2f8a", 0.8, "2.5 1.2"), "road": ("#7a4a1e", 0.9, None), "track": ("#7a4a1e", 0.6, "1.6 0.9"),
    "railway": ("#111111", 0.7, "0.5 0.5"),
}
ALONG_SIDES = {"river", "stream", "wall", "border"}
PAPER = "#fbf8ef"  # the map's paper, around the grid and (for a print shop) into the bleed


def grid_of(m: Map) -> Grid:
    return Grid(m.grid, m.columns, m.rows, m.cell)


def terrain_colour(ctx: BuildContext, terrain_id: str | None) -> str:
    if terrain_id is None:
        return "#ffffff"
    record = ctx.game.terrain.get(terrain_id)
    colour = getattr(record, "colour", None)
    if colour:
        return colour
    if terrain_id in DEFAULT_COLOURS:
        return DEFAULT_COLOURS[terrain_id]
    return PALETTE[sum(map(ord, terrain_id)) % len(PALETTE)]


def cell_terrain(m: Map) -> dict[tuple[int, int], str | None]:
    """The terrain of every cell: the map's default, then each cells: entry in order."""
    found: dict[tuple[int, int], str | None] = {
        (c, r): m.terrain for c in range(1, m.columns + 1) for r in range(1, m.rows + 1)}
    for entry in m.cells:
        places = [cell_xy(c) for c in entry.cells]
        if entry.range:
            (c1, r1), (c2, r2) = cell_xy(entry.range[0]), cell_xy(entry.range[1])
            places += [(c, r) for c in range(min(c1, c2), max(c1, c2) + 1) for r in range(min(r1, r2), max(r1, r2) + 1)]
        for place in places:
            if place in found:
                found[place] = entry.terrain
    return found


def _points(points) -> str:
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in points)


def _text(x: float, y: float, text: str, size: float, cls: str, halo: bool = False) -> str:
    body = escape(text)
    base = f'x="{x:.2f}" y="{y:.2f}" font-size="{size:.2f}" text-anchor="middle" font-family="PT Sans" class="{cls}"'
    under = (f'<text {base} fill="#ffffff" stroke="#ffffff" stroke-width="{size / 4:.2f}" '
             f'stroke-linejoin="round">{body}</text>') if halo else ""
    return f'{under}<text {base} fill="#1a1a1a">{body}</text>'


Box = tuple[float, float, float, float]  # left, top, right, bottom in mm of the map's grid


@dataclass
class DrawnMap:
    map: Map
    width: float  # mm, frame included
    height: float
    body: str  # SVG content in mm, origin at the frame's top-left corner: the paper, the background
    frame: float = 0.0
    # what lies on the grid (cells, features, numbers, codes, labels), each with the box it
    # covers: a tile draws only what lies on it
    items: list[tuple[Box, str]] = field(default_factory=list)


def _around(points, pad: float = 0.0) -> Box:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


def _text_box(x: float, y: float, text: str, size: float) -> Box:
    half = max(len(text), 1) * size * 0.32 + size * 0.3  # wider than the text: its halo, a wide glyph
    return x - half, y - size, x + half, y + size * 0.4


def draw(ctx: BuildContext, m: Map, frame: float, key: bool = False) -> DrawnMap:
    """The map as SVG parts; with `key`, its key under the grid (printed maps: the site shows
    its own legend)."""
    grid = grid_of(m)
    gw, gh = grid.size
    items = [item for layer in LAYERS for item in layer(ctx, m, grid)]
    below = 0.0
    if key:
        key_items, below = _key(ctx, m, cell_terrain(m), gw, gh)
        items += key_items
    return DrawnMap(m, gw + 2 * frame, gh + below + 2 * frame, _paper(m, frame, grid.size, below), frame, items)


Item = tuple[Box, str]  # what a tile draws if the box lies on it


def _paper(m: Map, frame: float, size: tuple[float, float], below: float) -> str:
    """The paper under the grid (`size`), its frame and the key `below` it, and the map's
    background picture stretched over the grid."""
    gw, gh = size
    parts = [f'<rect x="0" y="0" width="{gw + 2 * frame:.2f}" height="{gh + below + 2 * frame:.2f}" fill="{PAPER}"/>']
    if m.background:
        parts.append(f'<g transform="translate({frame:.2f},{frame:.2f})">'
                     f'<image href="{escape(m.background)}" x="0" y="0" width="{gw:.2f}" height="{gh:.2f}" '
                     'preserveAspectRatio="none"/></g>')
    return "".join(parts)


def _cells(ctx: BuildContext, m: Map, grid: Grid) -> list[Item]:
    """Each cell in its terrain's colour, outlined unless the map has no grid; a cell of no
    terrain over a background picture lets the picture show."""
    stroke = "none" if m.grid == "none" else "#6b6b6b"
    items = []
    for (c, r), tid in cell_terrain(m).items():
        fill = "none" if m.background and tid is None else terrain_colour(ctx, tid)
        corners = grid.corners(c, r)
        items.append((_around(corners, 0.2), f'<polygon points="{_points(corners)}" fill="{fill}" stroke="{stroke}" '
                                             f'stroke-width="0.25" data-cell="{c:02d}{r:02d}"/>'))
    return items


def _features(ctx: BuildContext, m: Map, grid: Grid) -> list[Item]:
    """Rivers, walls and borders along cell sides, roads and railways from cell to cell, each
    in its kind's stroke (FEATURE_STYLE)."""
    items = []
    for feature in m.features:
        colour, width, dash = FEATURE_STYLE[feature.kind]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        attrs = (f'fill="none" stroke="{colour}" stroke-width="{width}" stroke-linecap="round" '
                 f'stroke-linejoin="round"{dashed} class="f-{feature.kind}"')
        for side in feature.hexsides:
            a, b = (cell_xy(p.strip()) for p in side.split("/"))
            try:
                (x1, y1), (x2, y2) = grid.side(a, b)
            except ValueError:
                continue  # validation reports it
            items.append((_around([(x1, y1), (x2, y2)], width),
                          f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" {attrs}/>'))
        if feature.path:
            points = [grid.centre(*cell_xy(c)) for c in feature.path]
            items.append((_around(points, width), f'<polyline points="{_points(points)}" {attrs}/>'))
    return items


def _small_text(m: Map) -> float:
    """mm: the size of cell numbers and setup codes."""
    return min(2.2, m.cell * 0.1)


def _numbers(ctx: BuildContext, m: Map, grid: Grid) -> list[Item]:
    """Each cell's number (CCRR) near its top edge, where the map prints them and has a grid."""
    if not m.numbers or m.grid == "none":
        return []
    small = _small_text(m)
    items = []
    for c in range(1, m.columns + 1):
        for r in range(1, m.rows + 1):
            cx, cy = grid.centre(c, r)
            top = cy - (m.cell / 2 if m.grid != "hex-pointy" else grid.radius * 0.75) + small * 1.25
            items.append((_text_box(cx, top, "0000", small), _text(cx, top, f"{c:02d}{r:02d}", small, "cell-number")))
    return items


def _setup_codes(ctx: BuildContext, m: Map, grid: Grid) -> list[Item]:
    """Each setup code in a white box low in its cell."""
    small = _small_text(m)
    items = []
    for code in m.setup:
        cx, cy = grid.centre(*cell_xy(code.at))
        y = cy + m.cell * 0.32
        box = (cx - m.cell * 0.16, y - small * 1.05, cx + m.cell * 0.16, y + small * 0.4)
        items.append((box, f'<rect x="{cx - m.cell * 0.16:.2f}" y="{y - small * 1.05:.2f}" width="{m.cell * 0.32:.2f}" '
                           f'height="{small * 1.45:.2f}" rx="0.4" fill="#ffffff" stroke="#1a1a1a" stroke-width="0.2"/>'
                           + _text(cx, y, code.code, small * 1.05, "setup-code")))
    return items


def _labels(ctx: BuildContext, m: Map, grid: Grid) -> list[Item]:
    """Each label (a town, a ridge) in the edition's language, on a white halo over its cell."""
    items = []
    for i, label in enumerate(m.labels):
        cx, cy = grid.centre(*cell_xy(label.at))
        text = ctx.tr.field(m, "labels", i, "text")
        items.append((_text_box(cx, cy + 1.2 * label.size, text, 3.5 * label.size),
                      _text(cx, cy + 1.2 * label.size, text, 3.5 * label.size, "map-label", halo=True)))
    return items


# What lies on a map's grid, drawn bottom to top.
LAYERS = (_cells, _features, _numbers, _setup_codes, _labels)


KEY_TEXT = 3.0  # mm: the key's words (8.5 pt)
KEY_ROW = 6.0


def _key(ctx: BuildContext, m: Map, terrain: dict, width: float, top: float) -> tuple[list[tuple[Box, str]], float]:
    """The map's key under its grid, in the edition's language: a swatch and the name of each
    terrain the map shows, a stroke and the name of each kind of hexside or path feature. The
    items, and the height they take."""
    ui = ctx.env.globals["ui"]
    entries = [(f'<rect x="0" y="-2.6" width="6" height="3.6" fill="{terrain_colour(ctx, t)}" stroke="#6b6b6b" '
                'stroke-width="0.25"/>', ctx.tr.field(ctx.game.terrain[t], "name"))
               for t in dict.fromkeys(terrain.values()) if t is not None and t in ctx.game.terrain]
    for kind in dict.fromkeys(f.kind for f in m.features):
        colour, stroke, dash = FEATURE_STYLE[kind]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        entries.append((f'<line x1="0" y1="-0.8" x2="6" y2="-0.8" stroke="{colour}" stroke-width="{stroke}" '
                        f'stroke-linecap="round"{dashed}/>', ui(f"map-feature-{kind}")))
    if not entries:
        return [], 0.0
    heading = ui("terrain")
    items: list[tuple[Box, str]] = []
    x, y = 0.0, top + 3 + KEY_TEXT
    head_w = len(heading) * KEY_TEXT * 0.55 + 3
    items.append(((x, y - KEY_TEXT, x + head_w, y + 1), _key_text(x, y, heading, bold=True)))
    x += head_w
    for mark, name in entries:
        w = 6 + 1.5 + len(name) * KEY_TEXT * 0.5 + 4
        if x + w > width and x > 0:
            x, y = 0.0, y + KEY_ROW
        items.append(((x, y - KEY_TEXT, x + w, y + 1),
                      f'<g transform="translate({x:.2f},{y:.2f})">{mark}</g>' + _key_text(x + 7.5, y, name)))
        x += w
    return items, y + 2 - top


def _key_text(x: float, y: float, text: str, bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:.2f}" y="{y:.2f}" font-size="{KEY_TEXT:g}" font-family="PT Sans"{weight} fill="#1a1a1a" '
            f'class="map-key">{escape(text)}</text>')


def svg(drawn: DrawnMap, view: tuple[float, float, float, float] | None = None, extra: str = "",
        bleed: float = 0.0, label: str = "") -> Markup:
    """The map as SVG; with `view` (x, y, w, h in mm of the map), that part of it, holding only
    what lies on it (a tile's PDF carries no text of its neighbours'); with `bleed`, the whole
    map and its paper colour `bleed` mm past its edge (for a print shop); `label` names it for a
    screen reader (the PDF's alternative text of the picture)."""
    x, y, w, h = view or (-bleed, -bleed, drawn.width + 2 * bleed, drawn.height + 2 * bleed)
    if bleed:
        extra = ""
    under = f'<rect x="{x:.3f}" y="{y:.3f}" width="{w:.3f}" height="{h:.3f}" fill="{PAPER}"/>' if bleed else ""
    f = drawn.frame
    named = f' role="img" aria-label="{escape(label)}"' if label else ""
    shown = "".join(item for (left, top, right, bottom), item in drawn.items
                    if view is None or (left + f < x + w and right + f > x and top + f < y + h and bottom + f > y))
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" class="map" width="{w:.3f}mm" height="{h:.3f}mm" '
                  f'viewBox="{x:.3f} {y:.3f} {w:.3f} {h:.3f}"{named}>{under}{drawn.body}'
                  f'<g transform="translate({f:.2f},{f:.2f})">{shown}</g>{extra}</svg>')


@dataclass(frozen=True)
class Tiling:
    """How a map of width × height mm is cut into windows of one page each."""

    width: float
    height: float
    window_w: float
    window_h: float
    overlap: float

    def _count(self, length: float, window: float) -> int:
        return 1 if length <= window else math.ceil((length - self.overlap) / (window - self.overlap))

    @property
    def cols(self) -> int:
        return self._count(self.width, self.window_w)

    @property
    def rows(self) -> int:
        return self._count(self.height, self.window_h)

    def origin(self, col: int, row: int) -> tuple[float, float]:
        return col * (self.window_w - self.overlap), row * (self.window_h - self.overlap)

    def marks(self) -> list[tuple[float, float]]:
        """Registration marks in map mm: in the middle of every overlap, near both ends of
        each tile edge, so the two tiles that share an overlap both print them."""
        xs = [self.origin(c, 0)[0] + self.overlap / 2 for c in range(1, self.cols)]
        ys = [self.origin(0, r)[1] + self.overlap / 2 for r in range(1, self.rows)]
        out = []
        for x in xs:
            for r in range(self.rows):
                oy = self.origin(0, r)[1]
                out += [(x, oy + self.overlap * 1.5), (x, min(oy + self.window_h, self.height) - self.overlap * 1.5)]
        for y in ys:
            for c in range(self.cols):
                ox = self.origin(c, 0)[0]
                out += [(ox + self.overlap * 1.5, y), (min(ox + self.window_w, self.width) - self.overlap * 1.5, y)]
        return out


def tiling(drawn: DrawnMap, paper: tuple[float, float], config: dict) -> Tiling:
    margin, caption = config["maps"]["page_margin"], config["maps"]["caption"]
    return Tiling(drawn.width, drawn.height, paper[0] - 2 * margin, paper[1] - 2 * margin - caption,
                  config["maps"]["overlap"])


def _registration(t: Tiling) -> str:
    out = []
    for x, y in t.marks():
        out.append(f'<g class="registration" stroke="#000" stroke-width="0.2" fill="none">'
                   f'<circle cx="{x:.2f}" cy="{y:.2f}" r="2.2"/><line x1="{x - 3.5:.2f}" y1="{y:.2f}" x2="{x + 3.5:.2f}" y2="{y:.2f}"/>'
                   f'<line x1="{x:.2f}" y1="{y - 3.5:.2f}" x2="{x:.2f}" y2="{y + 3.5:.2f}"/></g>')
    for c in range(1, t.cols):  # the line to trim along: the middle of the overlap
        x = t.origin(c, 0)[0] + t.overlap / 2
        out.append(f'<line class="trim" x1="{x:.2f}" y1="0" x2="{x:.2f}" y2="{t.height:.2f}" stroke="#000" '
                   'stroke-width="0.15" stroke-dasharray="1 1.5"/>')
    for r in range(1, t.rows):
        y = t.origin(0, r)[1] + t.overlap / 2
        out.append(f'<line class="trim" x1="0" y1="{y:.2f}" x2="{t.width:.2f}" y2="{y:.2f}" stroke="#000" '
                   'stroke-width="0.15" stroke-dasharray="1 1.5"/>')
    return "".join(out)


def _best_paper(drawn: DrawnMap, config: dict, paper: str) -> tuple[str, tuple[float, float], Tiling]:
    """Portrait or landscape, whichever needs fewer pages."""
    p = config["papers"][paper]
    options = []
    for name, size in ((paper, (p["width"], p["height"])), (f"{paper}-landscape", (p["height"], p["width"]))):
        t = tiling(drawn, size, config)
        options.append((t.cols * t.rows, name, size, t))
    _, name, size, t = min(options, key=lambda o: o[0])
    return name, size, t


def _map_location(ctx: BuildContext, m: Map):
    try:
        return ctx.game.origin(m).location("id")
    except KeyError:
        return None


def _html(ctx: BuildContext, page_rules: list[str], body: str) -> str:
    return (f'<!DOCTYPE html><html lang="{ctx.lang}"><head><meta charset="utf-8">'
            f"<title>{escape(ctx.title)} — {escape(ctx.env.globals['ui']('maps'))}</title>"
            f'<meta name="generator" content="Rulesmith"><style>{ctx.env.globals["fonts_css"]}\n'
            + "\n".join(page_rules) + "\n" + ctx.css("map.css") + "</style></head><body>" + body + "</body></html>")


def tiled_html(ctx: BuildContext, paper: str = "a4") -> tuple[str, list[dict]]:
    """Every map tiled across pages of `paper`; and where each tile's window lies on its map."""
    config = sheets_config(ctx)
    margin = config["maps"]["page_margin"]
    pages, tiles, rules = [], [], {}
    for m in ctx.game.section("maps").values():
        drawn = draw(ctx, m, config["maps"]["frame"], key=True)
        name, (pw, ph), t = _best_paper(drawn, config, paper)
        rules[name] = f"@page {name} {{ size: {pw}mm {ph}mm; margin: 0 }}"
        marks = _registration(t) if t.cols * t.rows > 1 else ""
        total = t.cols * t.rows
        for row in range(t.rows):
            for col in range(t.cols):
                ox, oy = t.origin(col, row)
                n = row * t.cols + col + 1
                caption = ctx.env.globals["ui"]("map-tile").format(map=ctx.tr.field(m, "name"), n=n, total=total,
                                                                   row=row + 1, col=col + 1)
                view = svg(drawn, (ox, oy, t.window_w, t.window_h), marks, label=caption)
                pages.append(f'<div class="sheet" style="width:{pw}mm;height:{ph}mm;page:{name}">'
                             f'<div class="tile" style="left:{margin}mm;top:{margin}mm;width:{t.window_w:.3f}mm;'
                             f'height:{t.window_h:.3f}mm">{view}</div>'
                             f'<p class="tile-caption" style="left:{margin}mm;right:{margin}mm;'
                             f'top:{margin + t.window_h + 1:.3f}mm">{escape(caption)}</p></div>')
                tiles.append({"map": m.id, "page": len(pages), "row": row + 1, "col": col + 1,
                              "window": [round(ox, 3), round(oy, 3), round(t.window_w, 3), round(t.window_h, 3)],
                              "paper": [pw, ph], "map_size": [round(drawn.width, 3), round(drawn.height, 3)]})
    return _html(ctx, list(rules.values()), "".join(pages)), tiles


def large_html(ctx: BuildContext) -> str:
    """One page per map at its full size, for a print shop: the map's paper runs `bleed` mm
    past its edge (the TrimBox is the map, the BleedBox the bleed), crop marks outside it."""
    config = sheets_config(ctx)
    bleed = config["bleed"]
    around = bleed + slug(config)
    pages, rules = [], []
    for m in ctx.game.section("maps").values():
        drawn = draw(ctx, m, config["maps"]["frame"], key=True)
        rules.append(f"@page map-{m.id} {{ size: {drawn.width:.3f}mm {drawn.height:.3f}mm; margin: 0; "
                     f"bleed: {around:g}mm }}")
        marks = draw_marks(crop_marks(drawn.width, drawn.height, bleed, config["mark_gap"], config["mark_length"]))
        pages.append(f'<div class="sheet large" style="width:{drawn.width:.3f}mm;height:{drawn.height:.3f}mm;'
                     f'page:map-{m.id}"><div class="bleed-map" style="left:-{bleed:g}mm;top:-{bleed:g}mm">'
                     f"{svg(drawn, bleed=bleed, label=ctx.tr.field(m, 'name'))}</div>{marks}</div>")
    return _html(ctx, rules, "".join(pages))


IMAGE_DPI = 150


def write_maps(ctx: BuildContext, report: Report, paper: str = "a4", images: bool = True,
               preflight: bool = False) -> tuple[list[Path], int]:
    """maps.pdf (tiled on paper; on Letter maps-letter.pdf), maps.json (tile windows; maps-letter.json), maps-large.pdf (one page per map,
    with bleed and crop marks; preflighted with `preflight`); with images, a PNG of each whole
    map (tts/map-ID.png: a Tabletop Simulator board)."""
    if not ctx.game.section("maps"):
        return [], 0
    import json

    out = ctx.output_dir()
    html, tiles = tiled_html(ctx, paper)
    tiled = write_pdf(html, out / sized("maps", paper), ctx.game.folder, ctx.roots)
    outputs.write_text(out / sized("maps", paper, ".json"), json.dumps(tiles, indent=1))
    bleed = sheets_config(ctx)["bleed"]
    large = write_pdf(large_html(ctx), out / "maps-large.pdf", ctx.game.folder, ctx.roots,
                      finish=lambda path: set_bleed_box(path, bleed))
    if preflight:
        fallback = ctx.game.folder / "data" / "maps.yaml"
        records = [_map_location(ctx, m) or Location(fallback) for m in ctx.game.section("maps").values()]
        preflight_pages(large.path, bleed, records, ctx, report)
    files = [tiled.path, out / sized("maps", paper, ".json"), large.path]
    if images:
        import pypdfium2 as pdfium

        from . import pngfile

        (out / "tts").mkdir(parents=True, exist_ok=True)
        pdf = pdfium.PdfDocument(str(large.path))
        for index, m in enumerate(ctx.game.section("maps").values()):
            path = out / "tts" / f"map-{m.id}.png"
            page = pdf[index]
            trim = [float(v) for v in page.get_trimbox()]
            media = [float(v) for v in page.get_mediabox()]
            crop = (trim[0] - media[0], trim[1] - media[1], media[2] - trim[2], media[3] - trim[3])
            bitmap = page.render(scale=IMAGE_DPI / 72, crop=crop, rev_byteorder=True)  # the map, not its bleed
            outputs.write_bytes(path, pngfile.rendered(bitmap))
            files.append(path)
        pdf.close()
    return files, tiled.pages
