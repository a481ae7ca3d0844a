"""Card sheets: fronts and mirrored backs for long-edge duplex, cut marks, text shrunk to
fit, bleed mode for print shops."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from markupsafe import Markup

from ..core.diagnostics import Location, Report
from .cardfaces import CardFace, all_faces
from .context import BuildContext, source_mark
from .decisions import decided
from .bleed import CLOSE_BOX, OPEN_BOX, bleed_rules, box_rules, crop_marks, grown_art
from .images import back_svg
from .layout import SheetSpec, sheet_spec
from .overflow import overflows
from .pdf import render_document
from .sheetparts import draw_marks, marks, sheets_config, slot
from .sheets import SheetsHtml

BACK_ART = "\x00back-art\x00"  # stands for a card's back art while its back is laid out


class _Backs:
    """Card backs in three pieces: what is the card's own (its slot, its source line), its
    back art, and the closing tags. The art is one string for every card whose art is the
    same, so a large deck holds each distinct back once."""

    def __init__(self, ctx: BuildContext, macros, bleed: float = 0.0):
        self.ctx, self.macros, self.art, self.bleed = ctx, macros, {}, bleed

    def pieces(self, face: CardFace, wrap) -> tuple[str, ...]:
        art = str(back_svg(self.ctx, face))
        if self.bleed:
            art = grown_art(art, *face.mm, self.bleed)
        art = self.art.setdefault(art, art)
        around = str(wrap(self.macros.back(face, self.ctx.title, Markup(BACK_ART), self.bleed)))
        if around.count(BACK_ART) != 1:  # a back template that does not show its art once
            return (str(wrap(self.macros.back(face, self.ctx.title, Markup(art), self.bleed))),)
        before, after = around.split(BACK_ART)
        return before, art, after


def sheet_pages(ctx: BuildContext, faces: list[CardFace], paper: str, config: dict
                ) -> tuple[list[tuple[str, ...]], list[dict]]:
    """Pages of fronts, each followed by its page of backs, each page in pieces (see
    SheetsHtml); plus where every card went. A sheet whose cards differ in background (back
    design, side colour) keeps a gutter between them where the paper has room for it
    (gutters.cards_mixed), each card's colour bled into half of it: a cut or a duplex print a
    little off shows the card's own colour, not a sliver of its neighbour's. Where the gutters
    leave room for fewer cards (three rows of poker cards on Letter), such a sheet holds as
    many as fit with them, and the rest go on the next."""
    macros = ctx.env.get_template("card.html.j2").module
    pages: list[tuple[str, ...]] = []
    placements: list[dict] = []
    by_size: dict[str, list[CardFace]] = {}
    for face in faces:
        by_size.setdefault(face.size, []).extend([face] * face.copies)
    apart = mixed_gutter(config)
    sheets = []  # (cards, layout, mixed) of every sheet
    for cards in by_size.values():
        shared = sheet_spec(config, paper, cards[0].mm)
        gutter = sheet_spec(config, paper, cards[0].mm, gutter=apart) if apart else shared
        sheets += [(chunk, gutter if mixed else shared, mixed) for chunk, mixed in _sheets_of(cards, shared, gutter)]
    total = len(sheets)
    ui = ctx.env.globals["ui"]
    plain, bled = _Backs(ctx, macros), _Backs(ctx, macros, apart / 2)
    for chunk, spec, mixed in sheets:
        bleed, backs_of = (apart / 2, bled) if mixed else (0.0, plain)
        box = (OPEN_BOX, CLOSE_BOX) if bleed else ("", "")
        style = f"width:{spec.paper_w}mm;height:{spec.paper_h}mm;page:{paper}"
        fronts: list[str] = []
        backs: list[str] = []
        number = len(pages) // 2 + 1
        for k, face in enumerate(chunk):
            fx, fy = spec.front_slot(k)
            bx, by = spec.back_slot(k)
            front = Markup(box[0]) + macros.front(face, ctx.title, bleed) + Markup(box[1])
            fronts.append(str(slot(fx, fy, spec.card_w, spec.card_h, front)))
            backs += backs_of.pieces(face, lambda inner, bx=bx, by=by, spec=spec: slot(
                bx, by, spec.card_w, spec.card_h, Markup(box[0]) + inner + Markup(box[1])))
            placements.append({"card": face.id, "deck": face.deck, "sheet": number,
                               "front": [fx, fy], "back": [bx, by], "size": [spec.card_w, spec.card_h],
                               "paper": [spec.paper_w, spec.paper_h]})
        part_filled = len(chunk) < spec.per_sheet  # marks only beside the cards it holds
        for side, slots in (("fronts", fronts), ("backs", backs)):
            note = ui(f"sheet-{side}").format(n=number, total=total)  # how to print this sheet
            kind = f"{side} gutters" if bleed else side
            opening = str(Markup('<div class="sheet {}" style="{}">').format(kind, style))
            cut = str(marks(spec, len(chunk) if part_filled else None, mirrored=side == "backs"))
            pages.append((opening, *slots, cut, str(_note(spec, note)), "</div>"))
    return pages, placements


def _sheets_of(cards: list[CardFace], shared: SheetSpec, gutter: SheetSpec) -> list[tuple[list[CardFace], bool]]:
    """The cards of each sheet in order, and whether it keeps the mixed-backgrounds gutter: a
    sheet's worth of cards that differ in background takes as many as fit with the gutters."""
    sheets, start = [], 0
    while start < len(cards):
        chunk = cards[start:start + shared.per_sheet]
        mixed = gutter.gutter > 0 and len({_background(f) for f in chunk}) > 1
        chunk = chunk[:gutter.per_sheet] if mixed else chunk
        sheets.append((chunk, mixed))
        start += len(chunk)
    return sheets


def mixed_gutter(config: dict) -> float:
    return float(config.get("gutters", {}).get("cards_mixed", 0.0))


def _background(face: CardFace) -> tuple:
    """What a card's edges show: its back's design and its side's colour."""
    return face.back, face.extra.get("side_colour")


NOTE_ROOM = 6.0  # mm a two-line note takes below the grid


def _note(spec: SheetSpec, text: str) -> Markup:
    """How to print this sheet, inside the printable area: just below the card grid in the
    middle column (or the first, when an even number of columns puts a cut line in the
    middle); where the paper leaves too little room below (three poker rows on Letter), turned
    along the left margin beside the middle row, between the row's cut marks."""
    grid_b = spec.top + spec.grid_h + spec.gutter / 2  # below the cards' colour bled into a gutter's half
    if spec.paper_h - spec.printable - grid_b >= NOTE_ROOM:
        column = spec.cols // 2 if spec.cols % 2 else 0
        left = spec.left + column * (spec.card_w + spec.gutter) + 2
        return Markup('<p class="sheet-note" style="left:{}mm;top:{}mm;width:{}mm">{}</p>').format(
            round(left, 3), round(grid_b + 0.8, 3), round(spec.card_w - 4, 3), text)
    row = spec.rows // 2 if spec.rows % 2 else 0
    bottom = spec.top + row * (spec.card_h + spec.gutter) + spec.card_h - 4
    # turned a quarter about its top-left corner: it reads upwards, its lines stack rightwards;
    # the layout check sees it unturned, so it is checked for its glyphs only (data-overlay)
    return Markup('<p class="sheet-note turned" data-overlay style="left:{}mm;top:{}mm;width:{}mm">{}</p>').format(
        round(spec.printable + 0.5, 3), round(bottom, 3), round(spec.card_h - 8, 3), text)


def bleed_pages(ctx: BuildContext, faces: list[CardFace], config: dict, marks: bool = True
                ) -> list[tuple[str, ...]]:
    """One card face per page at trim size, its background, frame colour and art running
    `bleed` mm past the cut (bleed.py); with `marks`, crop marks outside the bleed."""
    macros = ctx.env.get_template("card.html.j2").module
    bleed = config["bleed"]
    backs_of = _Backs(ctx, macros, bleed)
    out = []
    for face in faces:
        w, h = face.mm
        style = f"width:{w}mm;height:{h}mm;page:card-{face.size_key}"
        opening = str(Markup('<div class="sheet bleed" style="{}">').format(style))
        cut = str(draw_marks(crop_marks(w, h, bleed, config["mark_gap"], config["mark_length"]))) if marks else ""
        out.append((opening + OPEN_BOX, str(macros.front(face, ctx.title, bleed)), CLOSE_BOX + cut, "</div>"))
        out.append((opening + OPEN_BOX, *backs_of.pieces(face, lambda inner: inner), CLOSE_BOX + cut, "</div>"))
    return out


def sheets_document(ctx: BuildContext, faces: list[CardFace], paper: str = "a4", bleed: bool = False,
                    marks: bool = True, config: dict | None = None) -> tuple[SheetsHtml, list[dict]]:
    """The card sheets (or bleed pages, with or without crop marks) for faces whose font sizes
    are already set, as pages kept in pieces (a deck of thousands of cards is never one
    string). `config`: sheets.yaml's settings, another bleed for a print shop."""
    config = config or sheets_config(ctx)
    page_rules = [f"@page {name} {{ size: {p['width']}mm {p['height']}mm; margin: 0 }}"
                  for name, p in config["papers"].items()]
    if bleed:
        page_rules += bleed_rules({f.size_key: f.mm for f in faces}, config, marks)
        pages, placements = bleed_pages(ctx, faces, config, marks), []
    else:
        page_rules += box_rules(mixed_gutter(config) / 2, ".sheet.gutters ") if mixed_gutter(config) else []
        pages, placements = sheet_pages(ctx, faces, paper, config)
    authors = ctx.authors
    author = f'<meta name="author" content="{Markup.escape(authors)}">' if authors else ""
    head = (f'<!DOCTYPE html><html lang="{Markup.escape(ctx.lang)}"><head><meta charset="utf-8">'
            f"<title>{Markup.escape(ctx.title)} — {ctx.env.globals['ui']('cards')}</title>{author}"
            f'<meta name="generator" content="Rulesmith"><style>{ctx.env.globals["fonts_css"]}\n'
            + "\n".join(page_rules) + "\n" + ctx.css("cards.css") + "</style></head><body>")
    return SheetsHtml(head, pages, "</body></html>"), placements


def cards_html(ctx: BuildContext, faces: list[CardFace], paper: str = "a4", bleed: bool = False
               ) -> tuple[str, list[dict]]:
    """The card sheets (or bleed pages) as one HTML string."""
    document, placements = sheets_document(ctx, faces, paper, bleed)
    return str(document), placements


def card_sheets(ctx: BuildContext, report: Report, paper: str = "a4", drafts: bool = True,
                out: Path | None = None, changed: tuple[set, str] = (set(), "")):
    """Fitted faces, sheet HTML, card placements, and None (the sheets are laid out when
    written); without `drafts`, cards marked incomplete are left out. The sheets are laid out
    a chunk at a time to find the long cards that still overflow there; with `out` (where the
    PDF goes), each chunk of the final layout is also checked and written then, for
    `write_sheets` to join, so that no sheet is laid out twice. `changed`: the (deck, id) of
    the faces that changed since an older version, and the mark they carry."""
    marked, mark = changed
    faces = [replace(f, version_mark=mark) if (f.deck, f.id) in marked else f
             for f in all_faces(ctx) if drafts or not f.draft]
    if not faces:
        return [], "", [], None
    from .fitting import fitted_faces, split_face
    from .sheets import discard_chunks

    # each card laid out once, then remembered; one too long even on cards that continue it is an error
    faces = fitted_faces(ctx, faces, report, split_long=True, unfit_code="E040")
    for round_ in range(3):
        faces = [replace(f, index=i) for i, f in enumerate(faces)]
        html, placements = sheets_document(ctx, faces, paper)
        # the sheets themselves: a long card that still overflows there continues on a second
        # card (remembered while the sheets' HTML is the same: see decisions.py)
        long = decided(ctx, f"cards-{paper}-{'drafts' if drafts else 'final'}-{round_}", html.digest(),
                       lambda: _long_cards(ctx, faces, html, out),
                       lambda d: all(type(i) is int and 0 <= i < len(faces) for i in d))
        if not long:
            break
        if out is not None:
            discard_chunks(out)
        for i in sorted(set(long), reverse=True):
            faces[i:i + 1] = fitted_faces(ctx, split_face(ctx, faces[i], faces[i].font_pt), report, split_long=True,
                                          unfit_code="E040")
    return faces, html, placements, None


def _long_cards(ctx: BuildContext, faces: list[CardFace], html, out: Path | None) -> tuple[list[int], set]:
    """The cards that overflow on the sheets though they could continue on a second card, and
    the files the layout read. With `out`, a large deck's chunks laid out by an earlier build
    are taken as they were (chunkstore.py), and those laid out now are kept for writing."""
    from .chunkstore import ChunkStore
    from .sheets import chunk_count, keep_chunk, kept_chunk, parts

    whole = chunk_count(html) == 1
    store = ChunkStore(ctx.project_root, out) if out is not None and not whole else None
    long: list[int] = []
    read: set = set()
    for first, part in parts(html):
        kept = kept_chunk(part, out, ctx.game.folder, store) if store is not None else None
        if kept is not None:
            found = kept.found
            read |= kept.read
        else:
            document, fetcher = render_document(part, ctx.game.folder, ctx.roots, keep=whole)
            found = sorted(overflows(document))
            read |= fetcher.read
            if store is not None:
                keep_chunk(part, first, out, ctx.game.folder, ctx.roots, document, fetcher, found, store)
            del document
        long += [i for i in found if i < len(faces) and len(faces[i].parts) > 1]
    return long, read


def write_placements(path: Path, placements: list[dict]) -> None:
    import json

    from .. import outputs

    outputs.write_text(path, json.dumps(placements, ensure_ascii=False, indent=1))
