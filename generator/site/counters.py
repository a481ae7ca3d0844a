"""The counters page: every counter's front and back, drawn from the same faces and templates
as the printed sheet (print/counters.py), grouped by side under the side's name and colour;
counters of no side are markers. Each counter is shown at three times its printed size, whole."""

from __future__ import annotations

from markupsafe import Markup

from ..model.sizes import parse_size
from ..print.sheetparts import sheets_config
from ..print.context import BuildContext
from ..print.counters import counter_html, pieces

SCALE = 3  # a half-inch counter is 38 mm wide on the page


def _face(ctx: BuildContext, piece, side_face: dict, config: dict, index: int, label: str) -> Markup:
    w, h = parse_size(piece.sheet.size)
    drawn = counter_html(ctx, side_face, piece.sheet, (w, h), config, index)
    return Markup('<div class="counter-face"><div class="counter-box" aria-hidden="true" style="width:{}mm;height:{}mm">'
                  '<div class="counter-scale" style="width:{}mm;height:{}mm;transform:scale({})">{}</div></div>'
                  '<p class="counter-side">{}</p></div>').format(
        round(w * SCALE, 2), round(h * SCALE, 2), w, h, SCALE, drawn, label)


def _label(word: str, face: dict, side: str | None) -> str:
    """"Back: 3-4", "Back: Out of supply", "Back: Northern League": what the side shows, in words."""
    values = "-".join(str(v) for v in (face.get("strength"), face.get("movement")) if v is not None)
    shown = [part for part in (side, face.get("text"), values, None if values else face.get("value")) if part]
    return f"{word}: {' '.join(str(p) for p in shown)}" if shown else word


def _caption(ctx: BuildContext, counter) -> str:
    """What the counter is: its name, else its text or designation (the faces say their values)."""
    tr = ctx.tr
    return (tr.field(counter, "name") if counter.name else "") or (tr.field(counter, "text") if counter.text else "") \
        or (tr.field(counter, "designation") if counter.designation else "") or counter.id


def counters_page(ctx: BuildContext) -> Markup | None:
    """The page's body, or None for a game without counters."""
    ui = ctx.env.globals["ui"]
    all_pieces = list({p.counter.id: p for p in pieces(ctx)}.values())  # one of each counter
    if not all_pieces:
        return None
    config = sheets_config(ctx)
    html = []
    for anchor, title, colour, group in _groups(ctx, all_pieces):
        swatch = Markup('<span class="side-swatch" style="background:{}"></span> ').format(colour) if colour else ""
        items = []
        for piece in group:
            index = all_pieces.index(piece)
            faces = [_face(ctx, piece, piece.front, config, index, _label(ui("front"), piece.front, None))]
            if piece.counter.back is not None or piece.sheet.backs:
                turned = piece.counter.back.side if piece.counter.back is not None and \
                    "side" in piece.counter.back.model_fields_set else None
                faces.append(_face(ctx, piece, piece.back, config, index,
                                   _label(ui("back-side"), piece.back, ctx.tr.side_name(turned))))
            items.append(Markup('<li class="counter-item" id="counter-{}"><figure><div class="counter-pair">{}</div>'
                                '<figcaption>{}</figcaption></figure></li>').format(
                piece.counter.id, Markup("").join(faces), _caption(ctx, piece.counter)))
        html.append(Markup('<section aria-labelledby="{0}"><h2 id="{0}">{1}{2}</h2><ul class="counter-gallery">{3}</ul>'
                           '</section>').format(anchor, swatch, title, Markup("").join(items)))
    return Markup("").join(html)


def _groups(ctx: BuildContext, counters: list) -> list[tuple[str, str, str | None, list]]:
    """(anchor, title, colour, items) per side that has any, in the sides' order, then the
    markers (items of no declared side); `counters` are pieces or counter records."""
    side_of = (lambda c: getattr(c, "counter", c).side)
    groups = []
    for side in ctx.game.manifest.sides:
        mine = [c for c in counters if side_of(c) == side.id]
        if mine:
            groups.append((f"side-{side.id}", ctx.tr.side_name(side.id), side.colour, mine))
    known = {s.id for s in ctx.game.manifest.sides}
    rest = [c for c in counters if side_of(c) not in known]
    if rest:
        groups.append(("markers", ctx.env.globals["ui"]("markers"), None, rest))
    return groups


def counter_headings(ctx: BuildContext) -> list[tuple[str, str]]:
    """(anchor, title) of each group, for the page's contents."""
    return [(anchor, title) for anchor, title, _colour, _items in
            _groups(ctx, list(ctx.game.section("counters").values()))]
