"""A unit's or card's page: one readable datasheet in HTML (keywords link to the glossary with a
tooltip), and the printed card only as a preview, hidden from screen readers and from search."""

from __future__ import annotations

from markupsafe import Markup

from ..print.cardfaces import BackOf, CardFace, body_of, card_text_html, section_parts
from ..print.context import BuildContext
from ..text import blocks


def stats_table(ctx: BuildContext, unit, link=None) -> Markup:
    """The stats a record gives (a unit, a card, a card's back), named in this language."""
    game, tr = ctx.game, ctx.tr
    stats = [s for s in game.manifest.stats
             if unit.kind in s.applies_to and (unit.section, unit.id, s.id) in game.values]
    if not stats:
        return Markup("")
    head = []
    for s in stats:
        i = game.manifest.stats.index(s)
        name, abbr = tr.manifest("stats", i, "name"), tr.manifest("stats", i, "abbr")
        head.append(Markup('<th scope="col"><abbr title="{}">{}</abbr></th>').format(name, abbr) if abbr and abbr != name
                    else Markup('<th scope="col">{}</th>').format(name))
    cells = Markup("").join(Markup("<td>{}</td>").format(blocks.stat_html(game, tr, unit, s.id, link)) for s in stats)
    return Markup('<table class="stats"><caption>{}</caption><thead><tr>{}</tr></thead><tbody><tr>{}</tr></tbody>'
                  '</table>').format(ctx.env.globals["ui"]("stats"), Markup("").join(head), cells)


def unit_sheet(ctx: BuildContext, unit, link) -> Markup:
    """The unit's profile, weapons, keywords and abilities, keywords linked with tooltips."""
    return Markup('<section class="datasheet">{}{}</section>').format(
        stats_table(ctx, unit, link), blocks.unit_details(ctx.game, ctx.tr, unit, link))


def card_sheet(ctx: BuildContext, face: CardFace, link) -> Markup:
    """A deck card's text as HTML, its back's after it; a unit card shows the unit's datasheet."""
    game, tr = ctx.game, ctx.tr
    card = game.cards.get(face.id)
    if card is None or card.deck != face.deck:  # a generated card (datasheet, quick reference): its face says it all
        return Markup('<section class="datasheet">{}</section>').format(face.body)
    parts = []
    if face.label:
        parts.append(Markup('<p class="card-kind">{}</p>').format(face.label))
    if card.unit and card.unit in game.units:
        parts.append(unit_sheet(ctx, game.units[card.unit], link))
    parts.append(stats_table(ctx, card, link))
    if card.text:
        parts.append(card_text_html(ctx, card, "text", link=link))
    for i, _section in enumerate(card.sections):
        parts.append(body_of(section_parts(ctx, card, i, link=link)))
    if card.table in game.tables:
        parts.append(blocks.table_html(game.tables[card.table], tr, link))
    parts.append(blocks.unstated_notes(game, tr, card))  # what the source does not give, and why
    if face.reverse is not None:
        parts.append(back_sheet(ctx, card, face, link))
    return Markup('<section class="datasheet">{}</section>').format(Markup("").join(parts))


def back_sheet(ctx: BuildContext, card, face: CardFace, link) -> Markup:
    """The card's back written as content: its heading, stats and text, under a 'Back' heading."""
    back = card.back_face
    parts = [Markup("<h2>{}</h2>").format(ctx.env.globals["ui"]("back-side"))]
    if face.reverse.title:
        parts.append(Markup('<p class="card-back-title"><strong>{}</strong>{}</p>').format(
            face.reverse.title, face.reverse.title_mark))
    parts.append(stats_table(ctx, BackOf(card), link))
    if back.text:
        parts.append(card_text_html(ctx, card, "back", "text", link=link))
    return Markup('<section class="card-back-sheet">{}</section>').format(Markup("").join(parts))


def card_preview(ctx: BuildContext, faces: list[CardFace], caption: str) -> Markup:
    """The printed card, for looking at and printing: the datasheet above already says it all,
    so screen readers and search skip it. A card the sheets continue on a second card shows
    both, as printed (never one card with its text cut off)."""
    macros = ctx.env.get_template("card.html.j2").module
    from ..print.images import back_svg

    def figure(face, html):
        return Markup('<figure class="card-figure" aria-hidden="true" style="width:{}mm;height:{}mm">{}</figure>'
                      ).format(face.mm[0], face.mm[1], html)

    figures = Markup("").join(figure(face, macros.front(face, ctx.title)) for face in faces)
    if faces[-1].reverse is not None:  # a back written as content shows beside its front
        figures += figure(faces[-1], macros.back(faces[-1], ctx.title, back_svg(ctx, faces[-1])))
    return Markup('<div class="card-preview" data-pagefind-ignore="all"><p class="preview-caption">{}</p>{}</div>'
                  ).format(caption, figures)
