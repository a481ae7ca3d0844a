"""What goes on each card: the game's own decks, plus datasheets for unit profiles and
quick-reference cards for games that have no cards of their own."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from ..core.diagnostics import Location
from ..model import Card, Record
from ..model.cards import back_key
from ..model.sizes import parse_size, size_key
from ..text import blocks
from ..text.editorial import field_html, mark_if_editors
from ..text.legend import legend_for
from ..text.tabletext import holds_tables, text_blocks
from .context import BuildContext, print_config


@dataclass(frozen=True)
class BackFace:
    """A card's back written as content, in this language: its heading and its body."""

    title: str
    title_mark: Markup
    body: Markup
    text: str = ""  # the back's text as plain words, for a back design of the game's own (backs/NAME.svg.j2)
    font_pt: float = 0.0  # the size its text was fitted to (print/fitting.py); 0: not fitted yet


@dataclass(frozen=True)
class TableRow:
    """One row of a table printed on a card, with the table's head (its opening tag, caption and
    header row): a card that continues the table opens it again with the same head."""

    head: Markup
    row: Markup


def body_of(parts) -> Markup:
    """A card's body made of parts (see CardFace.parts): HTML as it is, each run of rows of one
    table as that table, under its head."""
    out: list[Markup] = []
    head = None
    for part in parts:
        if isinstance(part, TableRow) and part.head == head:
            out.append(part.row)
            continue
        if head is not None:
            out.append(Markup(_TABLE_END))
        head = part.head if isinstance(part, TableRow) else None
        out.append(part.head + part.row if isinstance(part, TableRow) else part)
    if head is not None:
        out.append(Markup(_TABLE_END))
    return Markup("").join(out)


_TABLE_END = "</tbody></table>"
_ROW = re.compile(r"<tr>.*?</tr>", re.S)


def table_parts(html: Markup) -> list[Markup | TableRow]:
    """A table's HTML (text/blocks.py table_html) as the parts a card holding it may be split
    between: each body row under the table's head (without its anchor: a card repeats the head,
    and an id is only once on a page), then the notes below the table. No parts where the HTML
    is not one table of plain rows: nothing to split it by."""
    start, end = html.find("<tbody>") + len("<tbody>"), html.find(_TABLE_END)
    if start < len("<tbody>") or end < start:
        return []
    rows = _ROW.findall(html[start:end])
    if not rows or "".join(rows) != html[start:end]:
        return []
    head = Markup(re.sub(r'^(<table[^>]*?) id="[^"]*"', r"\1", str(html[:start]), count=1))
    notes = html[end + len(_TABLE_END):]
    return [TableRow(head, Markup(row)) for row in rows] + ([Markup(notes)] if notes else [])


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
    # the body as blocks a card that does not fit may be split between (print/fitting.py), in
    # order: HTML, or a table's rows (TableRow), which a card continuing the table prints under its head
    parts: tuple[Markup | TableRow, ...] = ()
    # the body for a card too narrow for `body` (stats as a list), if there is one
    narrow: Markup | None = None
    # after the title: the editor's-text mark, where the record's name is the editor's (editorial.py)
    title_mark: Markup = Markup("")
    # the back written as content (card.back: {title:, text:, ...}); None: the back is the design `back` alone
    reverse: BackFace | None = None
    # the card's texts this language's catalog does not translate yet: they print in the source language
    fallback: tuple[str, ...] = ()
    # the version mark of a card whose face changed since the older version (`build --changes-since`)
    version_mark: str = ""

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
        before = len(tr.missing)
        parts = card_parts(ctx, card)
        faces.append(CardFace(
            id=card.id, deck=deck.id, deck_name=tr.field(deck, "name"),
            back=card.back_design or ("" if card.back_face else deck.print_back), reverse=back_face(ctx, card),
            size=deck.print_size, corners=deck.corners,
            extra=_side_colours(ctx, next((s for s in (card.side, deck.side) if isinstance(s, str)), None)),
            title=tr.field(card, "name"), title_mark=mark_if_editors(card, "name", tr), label=_label(ctx, card.card_kind),
            body=body_of(parts), draft=tr.field(card, "incomplete") if card.incomplete else None,
            location=_location(ctx, card), copies=card.quantity or 1,
            # a card holding a table may continue it on more cards: its parts (none for text alone)
            parts=tuple(parts) if any(isinstance(p, TableRow) for p in parts) else (),
        ))
        faces[-1].fallback = tuple(dict.fromkeys(text for _context, text in tr.missing[before:]))
    return faces


def _side_colours(ctx: BuildContext, side_id: str | None) -> dict:
    """A card of a declared side wears the side's colour on its edge."""
    side = next((s for s in ctx.game.manifest.sides if s.id == side_id), None)
    return {"side_colour": side.colour} if side else {}


def card_body(ctx: BuildContext, card: Card) -> Markup:
    return body_of(card_parts(ctx, card))


def card_parts(ctx: BuildContext, card: Card) -> list[Markup | TableRow]:
    """A deck card's body in parts: its picture, icons, unit, stats, text and sections (a table
    in them by its rows), then the data table it is made from (`table:`) by its rows."""
    game = ctx.game
    parts: list[Markup | TableRow] = [_art(ctx, card.image)]
    if card.icons:
        parts.append(Markup('<p class="icons">{}</p>').format(Markup(" ").join(icon(name) for name in card.icons)))
    if card.unit and card.unit in game.units:
        parts.append(unit_body(ctx, game.units[card.unit], _stats_in_row(ctx)))
    parts.append(stats_body(ctx, card))
    if card.text:
        parts += text_parts(ctx, card, "text")
    for i, _section in enumerate(card.sections):
        parts += section_parts(ctx, card, i)
    if card.table in game.tables:  # the table the card is made from: the card's title names it
        html = icons_in(blocks.table_html(game.tables[card.table], ctx.tr, _link, caption=False))
        parts += table_parts(html) or [html]
    return [part for part in parts if part]  # no empty parts: a card that continues a table shares out its rows


def section_parts(ctx: BuildContext, card: Card, i: int, link=_link) -> list[Markup | TableRow]:
    """A card's section: its title run into its text's paragraph, or above its text where the
    text holds tables."""
    title = field_html(card, ctx.tr, "sections", i, "title")
    if holds_tables(ctx.tr.field(card, "sections", i, "text", refs=False)):
        return [Markup("<p><strong>{}.</strong></p>").format(title), *text_parts(ctx, card, "sections", i, "text",
                                                                               link=link)]
    return [Markup("<p><strong>{}.</strong> {}</p>").format(title, card_text(ctx, card, "sections", i, "text",
                                                                            link=link))]


def text_parts(ctx: BuildContext, record, *path, link=_link) -> list[Markup | TableRow]:
    """A text field of a card in parts: one paragraph as card_text prints it; or, where it holds
    tables (`{{ table:ID }}` alone on its line, a Markdown table), its paragraphs and each
    table by its rows, the editor's mark after the last."""
    tr = ctx.tr
    text = tr.field(record, *path, refs=False)
    if not holds_tables(text):
        return [Markup("<p>{}</p>").format(card_text(ctx, record, *path, link=link))]
    parts: list[Markup | TableRow] = []
    for block in text_blocks(ctx.game, tr, text, link):
        block = icons_in(block)
        parts += (table_parts(block) or [block]) if block.startswith("<table") else [block]
    mark = mark_if_editors(record, path, tr)
    return parts + ([Markup("<p>{}</p>").format(mark)] if mark else [])


def card_text_html(ctx: BuildContext, record, *path, link=_link) -> Markup:
    """A text field of a card as HTML blocks: its paragraphs and tables (text_parts)."""
    return body_of(text_parts(ctx, record, *path, link=link))


def back_face(ctx: BuildContext, card: Card) -> BackFace | None:
    """The card's back written as content, in this language; None for a back that is a design alone."""
    back, tr = card.back_face, ctx.tr
    if back is None or not (back.title or back.text or back.stats or back.image):
        return None
    body = [_art(ctx, back.image), stats_body(ctx, BackOf(card))]
    if back.text:
        body.append(card_text_html(ctx, card, "back", "text"))
    return BackFace(title=tr.field(card, "back", "title"), title_mark=mark_if_editors(card, "back.title", tr),
                    body=Markup("").join(body), text=tr.field(card, "back", "text"))


@dataclass(frozen=True)
class BackOf:
    """A card's back face seen as a record with stats: its values are kept under back_key."""

    card: Card
    kind = "card"
    section = "cards"

    @property
    def id(self) -> str:
        return back_key(self.card.id)

    @property
    def stats(self) -> dict:
        return self.card.back_face.stats if self.card.back_face else {}

    as_written: dict = field(default_factory=dict)


def card_text(ctx: BuildContext, record, *path, link=_link) -> Markup:
    """A text field of a card in this language: its references printed (a unit's translated
    name, a value; linked where `link` gives a page), its :dice: icons drawn, the editor's
    mark after it where it is the editor's."""
    text = blocks.inline_refs_html(ctx.game, ctx.tr, ctx.tr.field(record, *path, refs=False), link)
    return Markup("{}{}").format(icons_in(text), mark_if_editors(record, path, ctx.tr))


def _art(ctx: BuildContext, image: str | None) -> Markup:
    """A card's picture above its text (nothing where there is none or it cannot be read)."""
    if not image:
        return Markup("")
    from .pictures import data_uri

    src = data_uri(ctx.game.folder, image)
    return Markup('<p class="art"><img src="{}" alt=""></p>').format(src) if src else Markup("")


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


def icons_in(html: Markup) -> Markup:
    """HTML with :dice:-style tokens turned into icons."""
    return Markup(_INLINE_ICON.sub(lambda m: str(icon(m.group(1))), str(html)))


def unit_body(ctx: BuildContext, unit, stats_in_row: int = 6, as_list: bool = False) -> Markup:
    """A unit's stats and details."""
    return stats_body(ctx, unit, stats_in_row, as_list) + blocks.unit_details(ctx.game, ctx.tr, unit, _link)


def stats_body(ctx: BuildContext, record, stats_in_row: int = 6, as_list: bool = False) -> Markup:
    """The stats a record (a unit, a card, a card's back) gives, named in this language. Up to
    `stats_in_row` stats print as one table row (name over value); more print as a stat list
    (name beside value), which fits a card's width whatever their number."""
    game, tr = ctx.game, ctx.tr
    stats = [s for s in game.manifest.stats
             if record.kind in s.applies_to and (record.section, record.id, s.id) in game.values]

    def name(stat):
        return blocks.stat_heading(game, tr, stat)

    if stats and len(stats) <= stats_in_row and not as_list:
        head = Markup("").join(Markup("<th>{}</th>").format(name(s)) for s in stats)
        cells = Markup("").join(Markup("<td>{}</td>").format(blocks.stat_html(game, tr, record, s.id, _link))
                                for s in stats)
        return Markup('<table class="stats"><tr>{}</tr><tr>{}</tr></table>').format(head, cells)
    if stats:
        rows = Markup("").join(Markup('<tr><th scope="row">{}</th><td>{}</td></tr>').format(
            name(s), blocks.stat_html(game, tr, record, s.id, _link)) for s in stats)
        return Markup('<table class="stats stat-list">{}</table>').format(rows)
    return Markup("")


def datasheets(ctx: BuildContext) -> list[CardFace]:
    """One datasheet card per unit profile, for games whose units have no cards."""
    game, tr = ctx.game, ctx.tr
    carded = {c.unit for c in game.cards.values() if c.unit}
    units = [u for u in game.units.values() if u.id not in carded]
    if not units or not generated(ctx, "datasheet_deck", not game.cards):
        return []
    deck_name = tr.field(next(iter(units)), "name") and _label(ctx, "datasheet")
    return [CardFace(
        id=unit.id, deck="datasheets", deck_name=deck_name, back="title", size="poker",
        title=tr.field(unit, "name"), title_mark=mark_if_editors(unit, "name", tr), label=field_html(unit, tr, "type") if unit.type else _label(ctx, "datasheet"),
        body=unit_body(ctx, unit, _stats_in_row(ctx)), draft=tr.field(unit, "incomplete") if unit.incomplete else None,
        location=_location(ctx, unit), narrow=unit_body(ctx, unit, as_list=True)) for unit in units]


def generated(ctx: BuildContext, deck: str, default: bool) -> bool:
    """Whether a generated deck prints: print.yaml's `reference_deck:` / `datasheet_deck:`
    (true or false), else `default` (the game's own cards and units decide)."""
    chosen = print_config(ctx).get(deck)
    return default if chosen is None else bool(chosen)


def _stats_in_row(ctx: BuildContext) -> int:
    from .sheetparts import sheets_config

    return int(sheets_config(ctx)["card"].get("stats_in_row", 6))


def reference_cards(ctx: BuildContext) -> list[CardFace]:
    """Quick-reference cards (dice, actions, tables, distance bands): by default for games
    without cards or units of their own."""
    game, tr = ctx.game, ctx.tr
    if not generated(ctx, "reference_deck", not (game.cards or game.units)):
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
        add(table, tr.field(table, "name"), html, table_parts(html))
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
