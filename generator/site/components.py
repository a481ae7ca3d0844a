"""Site pages for components: one page per map (its drawing, a terrain legend), and the
side badge that gives unit and card pages their side's colour."""

from __future__ import annotations

import re

from markupsafe import Markup

from ..system import folders
from ..print.sheetparts import sheets_config
from ..print.context import BuildContext
from ..print.pictures import data_uri
from ..print.maps import cell_terrain, draw, svg, terrain_colour


def side_badge(ctx: BuildContext, side_id: str | None) -> Markup:
    """The side's name on its colour, for a record that names a declared side."""
    side = next((s for s in ctx.game.manifest.sides if s.id == side_id), None)
    if side is None:
        return Markup("")
    return Markup('<p class="side-badge" style="display:inline-block;padding:0.1em 0.6em;border-radius:0.3em;'
                  'background:{};color:{}">{}</p>').format(side.colour, side.ink, ctx.tr.side_name(side.id))


def _inline_background(ctx: BuildContext, body: str, path: str) -> str:
    """The site has no copy of the game folder at the map's place: the picture goes into the page."""
    src = data_uri(ctx.game.folder, path)
    return re.sub(r'href="[^"]*"', f'href="{src}"', body, count=1) if src else body


def map_pages(ctx: BuildContext) -> list[tuple[str, str, Markup]]:
    """(path, title, body) of each map's page."""
    ui = ctx.env.globals["ui"]
    out = []
    frame = sheets_config(ctx)["maps"]["frame"]
    for m in ctx.game.section("maps").values():
        drawn = draw(ctx, m, frame)
        if m.background:
            drawn.body = _inline_background(ctx, drawn.body, m.background)
        picture = str(svg(drawn)).replace('class="map"', 'class="map" style="max-width:100%;height:auto"', 1)
        used = [t for t in dict.fromkeys(cell_terrain(m).values()) if t is not None and t in ctx.game.terrain]
        legend = Markup("").join(Markup(
            '<li><span style="display:inline-block;width:1em;height:1em;vertical-align:-0.15em;border:1px solid #777;'
            'background:{}"></span> {}</li>').format(terrain_colour(ctx, t), ctx.tr.field(ctx.game.terrain[t], "name"))
            for t in used)
        text = Markup("<p>{}</p>").format(ctx.tr.field(m, "text")) if m.text else Markup("")
        body = Markup('<p class="crumb">{}</p>{}<figure class="map-figure">{}</figure>'
                      '<h2 id="legend">{}</h2><ul class="map-legend">{}</ul>').format(
            ui("map"), text, Markup(picture), ui("terrain"), legend)
        out.append((f"map-{m.id}.html", ctx.tr.field(m, "name"), body))
    return out


def copy_images(ctx: BuildContext, folder) -> list:
    """The designer's pictures (PNG, SVG, JPEG anywhere in the game folder), copied beside the
    pages at the same relative paths, so `![..](images/x.png)` in the rules shows on the site.
    A file that resolves outside the game folder (a symbolic link) or that pictures.py refuses
    (script, references to other files, damaged) stays behind."""
    from .. import outputs
    from ..safety.pictures import picture_bytes, publishable

    copied = []
    for path in folders.walk(ctx.game.folder):
        if not publishable(ctx.game.folder, path):
            continue
        target = folder / path.relative_to(ctx.game.folder)
        outputs.write_if_changed(target, picture_bytes(path))
        copied.append(target)
    return copied
