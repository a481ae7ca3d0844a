"""What goes on each card: the game's own decks, plus datasheets for unit profiles and
quick-reference cards for games that have no cards of their own."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from ..diagnostics import Location
from ..model import Card, Record
from ..model.sizes import parse_size, size_key
from ..text import blocks
from ..text.editorial import field_html, mark_if_editors
from ..text.legend import legend_for
from .context import BuildContext


@dataclass
class CardFace:
    id: str
    deck: str
    deck_name: str
    back: str
    size: str
    title: str
    label: str
    body: Markup
    draft: str | None
    location: Location | None
    copies: int = 1
    font_pt: float = 0.0
    index: int = 0  # position in the list being fitted; found again in the laid-out document
    extra: dict[str, Any] = field(default_factory=dict)
    corners: str = "square"
    src: str = ""  # 'data/cards.yaml:12', for the layout check
    # the body as blocks a card that does not fit may be split between (see cards.fit)
    parts: tuple[Markup, ...] = ()
    # the body for a card too narrow for `body` (stats as a list), if there is one
    narrow: Markup | None = None
    # after the title: the editor's-text mark, where the record's name is the editor's (editorial.py)
    title_mark: Markup = Markup("")

    @property
    def mm(self) -> tuple[float, float]:
        return parse_size(self.size)

    @property
    def size_key(self) -> str:
        return size_key(self.size)


def _label(ctx: BuildContext, kind: str) -> str:
    return "" if kind == "other" else ctx.tr.ui(f"card-{kind}")


def _location(ctx: BuildContext, record: Record) -> Location | None:
    try:
        return ctx.game.origin(record).location("id")
    except KeyError:
        return None


def _link(record):  # cards are printed on their own: no links
    return None


def deck_cards(ctx: BuildContext) -> list[CardFace]:
    game, tr = ctx.game, ctx.tr
    faces = []
    for card in game.cards.values():
        deck = game.decks[card.deck]
        faces.append(CardFace(
            id=card.id, deck=deck.id, deck_name=tr.field(deck, "name"), back=card.back or deck.print_back,
            size=deck.print_size, corners=deck.corners,
            extra=_side_colours(ctx, next((s for s in (card.side, deck.side) if isinstance(s, str)), None)),
            title=tr.field(card, "name"), title_mark=mark_if_editors(card, "name", tr), label=_label(ctx, card.card_kind),
            body=card_body(ctx, card), draft=tr.field(card, "incomplete") if card.incomplete else None,
            location=_location(ctx, card), copies=card.quantity or 1,
        ))
    return faces


def _side_colours(ctx: BuildContext, side_id: str | None) -> dict:
    """A card of a declared side wears the side's colour on its edge."""
    side = next((s for s in ctx.game.manifest.sides if s.id == side_id), None)
    return {"side_colour": side.colour} if side else {}


def card_body(ctx: BuildContext, card: Card) -> Markup:
    game, tr = ctx.game, ctx.tr
    parts = []
    if card.image:
        from .pictures import data_uri

        src = data_uri(game.folder, card.image)
        if src:
            parts.append(Markup('<p class="art"><img src="{}" alt=""></p>').format(src))
    if card.icons:
        parts.append(Markup('<p class="icons">{}</p>').format(Markup(" ").join(icon(name) for name in card.icons)))
    if card.unit and card.unit in game.units:
        parts.append(unit_body(ctx, game.units[card.unit], _stats_in_row(ctx)))
    if card.text:
        parts.append(Markup('<p>{}{}</p>').format(with_icons(tr.field(card, "text")), mark_if_editors(card, "text", tr)))
    for i, _section in enumerate(card.sections):
        parts.append(Markup('<p><strong>{}.</strong> {}{}</p>').format(
            field_html(card, tr, "sections", i, "title"), with_icons(tr.field(card, "sections", i, "text")),
            mark_if_editors(card, ("sections", i, "text"), tr)))
    return Markup("").join(parts)


# Quick-reference cards carry whole tables: tarot size keeps them readable.
REFERENCE_SIZE = "tarot"

_DIE = ('<svg class="icon" viewBox="0 0 10 10" width="1.15em" height="1.15em" role="img" aria-label="{label}">'
        '<rect x="0.5" y="0.5" width="9" height="9" rx="1.8" fill="#fff" stroke="currentColor" stroke-width="0.8"/>'
        '<circle cx="3" cy="3" r="0.9"/><circle cx="7" cy="3" r="0.9"/><circle cx="5" cy="5" r="0.9"/>'
        '<circle cx="3" cy="7" r="0.9"/><circle cx="7" cy="7" r="0.9"/></svg>')
_STAR = ('<svg class="icon" viewBox="0 0 10 10" width="1.15em" height="1.15em" role="img" aria-label="{label}">'
         '<polygon points="5,0.4 6.3,3.6 9.8,3.7 7.1,5.9 8,9.4 5,7.4 2,9.4 2.9,5.9 0.2,3.7 3.7,3.6"/></svg>')
# Icons a card may show, by name: in `icons:` and inline in card text as :name:
ICONS = {"dice": _DIE, "die": _DIE, "d6": _DIE, "star": _STAR}
_INLINE_ICON = re.compile(r":(" + "|".join(ICONS) + r"):")


def icon(name: str) -> Markup:
    return Markup(ICONS[name].format(label=name)) if name in ICONS else Markup("{}").format(name)


def with_icons(text: str) -> Markup:
    """Escaped text with :dice:-style tokens turned into icons."""
    escaped = str(Markup.escape(text))
    return Markup(_INLINE_ICON.sub(lambda m: str(icon(m.group(1))), escaped))


def unit_body(ctx: BuildContext, unit, stats_in_row: int = 6, as_list: bool = False) -> Markup:
    """A unit's stats and details. Up to `stats_in_row` stats print as one table row (name
    over value); a game with more prints them as a stat list (name beside value), which fits
    a card's width whatever their number."""
    game, tr = ctx.game, ctx.tr
    stats = [s for s in game.manifest.stats if "unit" in s.applies_to and ("units", unit.id, s.id) in game.values]
    out = []

    def name(stat):
        return blocks.stat_heading(game, tr, stat)

    if stats and len(stats) <= stats_in_row and not as_list:
        head = Markup("").join(Markup("<th>{}</th>").format(name(s)) for s in stats)
        cells = Markup("").join(Markup("<td>{}</td>").format(blocks.stat_html(game, tr, unit, s.id, _link)) for s in stats)
        out.append(Markup('<table class="stats"><tr>{}</tr><tr>{}</tr></table>').format(head, cells))
    elif stats:
        rows = Markup("").join(Markup('<tr><th scope="row">{}</th><td>{}</td></tr>').format(
            name(s), blocks.stat_html(game, tr, unit, s.id, _link)) for s in stats)
        out.append(Markup('<table class="stats stat-list">{}</table>').format(rows))
    out.append(blocks.unit_details(game, tr, unit, _link))
    return Markup("").join(out)


def datasheets(ctx: BuildContext) -> list[CardFace]:
    """One datasheet card per unit profile, for games whose units have no cards."""
    game, tr = ctx.game, ctx.tr
    carded = {c.unit for c in game.cards.values() if c.unit}
    units = [u for u in game.units.values() if u.id not in carded]
    if not units or game.cards:
        return []
    deck_name = tr.field(next(iter(units)), "name") and _label(ctx, "datasheet")
    return [CardFace(
        id=unit.id, deck="datasheets", deck_name=deck_name, back="title", size="poker",
        title=tr.field(unit, "name"), title_mark=mark_if_editors(unit, "name", tr), label=field_html(unit, tr, "type") if unit.type else _label(ctx, "datasheet"),
        body=unit_body(ctx, unit, _stats_in_row(ctx)), draft=tr.field(unit, "incomplete") if unit.incomplete else None,
        location=_location(ctx, unit), narrow=unit_body(ctx, unit, as_list=True)) for unit in units]


def _stats_in_row(ctx: BuildContext) -> int:
    from .cards import sheets_config

    return int(sheets_config(ctx)["card"].get("stats_in_row", 6))


def reference_cards(ctx: BuildContext) -> list[CardFace]:
    """Quick-reference cards (dice, actions, tables, distance bands) for games without cards
    or units of their own."""
    game, tr = ctx.game, ctx.tr
    if game.cards or game.units:
        return []
    label = _label(ctx, "reference")
    faces = []

    def add(record, title, body, parts=()):
        faces.append(CardFace(id=f"{record.kind}-{record.id}", deck="reference", deck_name=label, back="title",
                              size=REFERENCE_SIZE, title=title, label=label, body=body,
                              title_mark=mark_if_editors(record, "name", tr),
                              draft=tr.field(record, "incomplete") if record.incomplete else None,
                              location=_location(ctx, record), parts=tuple(parts)))

    for die in game.dice.values():
        body = [Markup("<p>{}</p>").format(field_html(die, tr, "text"))] if die.text else []
        for i, f in enumerate(die.faces):  # one list per face: a long die may go on two cards
            body.append(Markup('<ul class="faces"><li><strong>{}{}</strong>{}</li></ul>').format(
                f"{f.value}: " if f.value is not None else "",
                field_html(die, tr, "faces", i, "name") if f.name else (f.symbol or ""),
                Markup(" — {}").format(field_html(die, tr, "faces", i, "text")) if f.text else ""))
        add(die, tr.field(die, "name"), Markup("").join(body), body)
    for action in game.actions.values():
        length = {"short": {"ru": "короткое", "en": "short"}, "long": {"ru": "длинное", "en": "long"}}
        sub = Markup('<p class="sub">{}</p>').format(length[action.length].get(ctx.lang, action.length)) if action.length else ""
        add(action, tr.field(action, "name"), Markup("{}<p>{}</p>").format(sub, field_html(action, tr, "text")))
    for table in game.tables.values():
        html = blocks.table_html(table, tr)
        end = html.find("</table>") + len("</table>")  # the table, then its notes: a long note may go on two cards
        parts = [Markup(html[:end]), Markup(html[end:])] if html[end:] else []
        add(table, tr.field(table, "name"), html, parts)
    if game.bands:
        first = next(iter(game.bands.values()))
        html = blocks.records_html(game, "bands", tr, _link)
        faces.append(CardFace(id="bands", deck="reference", deck_name=label, back="title", size=REFERENCE_SIZE,
                              title=ctx.env.globals["ui"]("bands"), label=label, body=html, draft=None,
                              location=_location(ctx, first)))
    return faces


def all_faces(ctx: BuildContext) -> list[CardFace]:
    from dataclasses import replace

    from .context import source_mark

    faces = [with_legend(ctx, f) for f in deck_cards(ctx) + datasheets(ctx) + reference_cards(ctx)]
    return [replace(f, src=source_mark(ctx.game, f.location)) for f in faces]


def with_legend(ctx: BuildContext, face: CardFace) -> CardFace:
    """A card that shows a mark (the editor's text, an erratum's †, ?‡, DRAFT) says on itself
    what it means: a card is read cut out, away from any other page."""
    from dataclasses import replace

    # a draft card's stamp is a watermark: why the card is a draft prints under its text
    reason = Markup('<p class="incomplete-reason">{}: {}</p>').format(ctx.tr.ui("incomplete"), face.draft) \
        if face.draft and 'class="incomplete-reason"' not in face.body else Markup("")
    legend = reason + legend_for(Markup("{}{}{}{}").format(face.title_mark, face.label, face.body, reason), ctx.tr)
    if not legend:
        return face
    return replace(face, body=face.body + legend, parts=(*face.parts, legend) if face.parts else (),
                   narrow=face.narrow + legend if face.narrow is not None else None)
