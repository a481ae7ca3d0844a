"""Site pages for components: one page per map (its drawing, a terrain legend), and the
side badge that gives unit and card pages their side's colour."""

from __future__ import annotations

import base64
import mimetypes
import re

from markupsafe import Markup

from ..print.cards import sheets_config
from ..print.context import BuildContext
from ..print.maps import cell_terrain, draw, svg, terrain_colour


def side_badge(ctx: BuildContext, side_id: str | None) -> Markup:
    """The side's name on its colour, for a record that names a declared side."""
    sides = {s.id: (i, s) for i, s in enumerate(ctx.game.manifest.sides)}
    if side_id not in sides:
        return Markup("")
    i, side = sides[side_id]
    return Markup('<p class="side-badge" style="display:inline-block;padding:0.1em 0.6em;border-radius:0.3em;'
                  'background:{};color:{}">{}</p>').format(side.colour, side.text_colour, ctx.tr.manifest("sides", i, "name"))


def _inline_background(ctx: BuildContext, body: str, path: str) -> str:
    """The site has no copy of the game folder: the map's picture goes into the page itself."""
    target = (ctx.game.folder / path).resolve()
    if ctx.game.folder.resolve() not in target.parents or not target.is_file():
        return body
    kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
    data = base64.b64encode(target.read_bytes()).decode("ascii")
    return re.sub(r'href="[^"]*"', f'href="data:{kind};base64,{data}"', body, count=1)


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
