"""Counter sheets: every counter of a sheet at its size, fronts and their backs at the
mirrored slots for long-edge duplex, gutters and cut marks from sheets.yaml; and a check that
the laid-out counters keep their text legible and inside the counter."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from markupsafe import Markup

from .. import outputs
from ..core.diagnostics import Location, Report
from ..model import Counter, CounterSheet
from ..model.sizes import parse_size
from .sheetparts import marks, sheets_config, slot
from .context import BuildContext, source_mark
from .fonts import text_width
from .layout import sheet_spec, shelves
from .pdf import render_document
from .verify import LayoutRules
from .svg_symbols import unit_symbol
from ..values.colours import readable_on

PX_PER_PT = 96 / 72
PT_PER_MM = 72 / 25.4
TEXT_EM, TEXT_INSET = 0.8, 0.03  # a marker's text: its size and side inset (counters.css .t-marker .c-text)
FIT_SLACK = 0.97  # room kept for what shaping adds to the font's advance widths (kerning aside)
PAPER_COLOUR, INK = "#f4efe2", "#161616"


@dataclass
class Piece:
    """One printed counter (a counter with quantity 3 gives three pieces)."""

    counter: Counter
    sheet: CounterSheet
    front: dict[str, Any]
    back: dict[str, Any]
    location: Location | None


def counter_sheets(ctx: BuildContext) -> dict[str, CounterSheet]:
    return dict(ctx.game.section("countersheets"))  # type: ignore[arg-type]


def face(ctx: BuildContext, counter: Counter, sheet: CounterSheet, back: bool) -> dict[str, Any]:
    """What one side shows, resolved: a back takes from the front what it does not give."""
    given = counter.back.model_fields_set if back and counter.back is not None else set()

    def pick(name: str):
        return getattr(counter.back, name) if name in given else getattr(counter, name)

    def text(name: str) -> str | None:
        path = ("back", name) if name in given else (name,)
        return ctx.tr.field(counter, *path) or None

    sides = {s.id: s for s in ctx.game.manifest.sides}
    side = sides.get(pick("side") or "")
    template = pick("template") or sheet.template
    if back and counter.back is None:
        template = "blank"  # a one-sided counter: its back is its colour alone
    symbol = pick("symbol")
    colour = pick("colour") or (side.colour if side else PAPER_COLOUR)
    return {
        "template": template, "back": back, "band": pick("band"),
        "colour": colour,
        "text_colour": (side.text_colour if side else None) or (readable_on(colour) if colour != PAPER_COLOUR else INK),
        "symbol": unit_symbol(symbol, pick("echelon")) if symbol else None,
        "designation": text("designation"), "text": text("text"),
        "strength": pick("strength"), "movement": pick("movement"), "value": pick("value"),
        "image": pick("image"),
    }


def pieces(ctx: BuildContext) -> list[Piece]:
    sheets = counter_sheets(ctx)
    out = []
    for counter in ctx.game.section("counters").values():
        sheet = sheets.get(counter.sheet)
        if sheet is None:
            continue  # validation reports the unknown sheet
        try:
            location = ctx.game.origin(counter).location("id")
        except KeyError:
            location = None
        front, back = face(ctx, counter, sheet, False), face(ctx, counter, sheet, True)
        out.extend(Piece(counter, sheet, front, back, location) for _ in range(counter.quantity))
    return out


def marked(found: list[Piece], ids: set, mark: str) -> list[Piece]:
    """The pieces with `mark` on the front of each counter of `ids`."""
    if not ids:
        return found
    return [replace(p, front={**p.front, "version_mark": mark}) if p.counter.id in ids else p for p in found]


def font_pt(config: dict, size: tuple[float, float]) -> float:
    return round(config["counter"]["base_font_pt_per_mm"] * min(size), 2)


def text_em(text: str, size: tuple[float, float], config: dict) -> float:
    """The size of a marker's text, in em of its counter's font: TEXT_EM, or smaller so that
    its longest word fits the counter's width whole, down to the least legible size (only a
    word too long even then is hyphenated). Fitting by size first keeps a short marker word
    ("Przygwożdżony") from breaking in two on a small counter."""
    base = font_pt(config, size)
    inset = max(size[0] * TEXT_INSET, config.get("counter_safe", 0.0))
    room = (size[0] - 2 * inset) * PT_PER_MM * FIT_SLACK
    longest = max((text_width(word, base * TEXT_EM, bold=True) for word in text.split()), default=0.0)
    em = TEXT_EM if longest <= room else TEXT_EM * room / longest
    least = config["counter"]["min_font_pt"] / base if base else TEXT_EM
    return math.floor(max(em, min(least, TEXT_EM)) * 1000) / 1000


def unique_pieces(pieces: list[Piece]) -> list[Piece]:
    """Each counter once, however many copies the sheets print, in order of first appearance."""
    return list({p.counter.id: p for p in pieces}.values())


def layout_config(ctx: BuildContext) -> dict:
    """sheets.yaml's settings, and the safe margin (print.yaml's counter_safe_mm) that a
    counter's text keeps inside its cut, on home sheets as on a print shop's."""
    return {**sheets_config(ctx), "counter_safe": LayoutRules.load(ctx.roots).counter_safe_mm}


def counter_html(ctx: BuildContext, piece_face: dict, sheet: CounterSheet, size, config: dict, index: int,
                 src: str | None = None, cite: str | None = None) -> Markup:
    """One counter face. Its text keeps the safe margin (config's counter_safe, mm, as the
    CSS variable --safe that counters.css places text with; its colour and band run to the
    edge); with `src` (the record, as path:line), the layout check reports text inside that
    margin (W040 there); with `cite` alone, it only reports its other findings there."""
    draw = ctx.macro("counter.html.j2", piece_face["template"])  # the game's own, else the built-in
    if piece_face.get("text"):
        piece_face = {**piece_face, "text_em": text_em(piece_face["text"], size, config)}
    band = Markup('<div class="band"></div>') if piece_face["band"] else Markup("")
    safe = config.get("counter_safe", 0.0)
    keep = f";--safe:{safe:g}mm" if safe else ""  # counters.css keeps text and symbol this far inside
    checked = Markup(' data-card data-src="{}"').format(src) if src else \
        Markup(' data-src="{}"').format(cite) if cite else Markup("")
    mark = Markup('<span class="version-mark">{}</span>').format(piece_face["version_mark"]) \
        if piece_face.get("version_mark") else Markup("")
    return Markup('<div class="counter t-{} corners-{}" data-counter="{}"{} style="background:{};color:{};'
                  'font-size:{}pt{}">{}{}{}</div>').format(piece_face["template"], sheet.corners, index, checked,
                                                           piece_face["colour"], piece_face["text_colour"],
                                                           font_pt(config, size), keep, band, draw(piece_face), mark)


def counters_html(ctx: BuildContext, all_pieces: list[Piece], paper: str = "a4") -> tuple[str, list[dict]]:
    """Pages of fronts, each followed by its page of backs; and where every counter went."""
    config = layout_config(ctx)
    pages: list[Markup] = []
    placements: list[dict] = []
    by_sheet: dict[str, list[tuple[int, Piece]]] = {}
    for index, piece in enumerate(all_pieces):
        by_sheet.setdefault(piece.sheet.id, []).append((index, piece))
    groups = list(by_sheet.values())
    specs = [sheet_spec(config, paper, parse_size(g[0][1].sheet.size), gutter=g[0][1].sheet.gutter, kind="counters")
             for g in groups]
    # every kind of counter (units, markers...) packed onto as few sheets as their sizes allow
    for number, shelves_of_page in enumerate(shelves([(spec, len(g)) for spec, g in zip(specs, groups)]), start=1):
        fronts, backs, front_marks, back_marks = [], [], [], []
        for kind, spec, first, count in shelves_of_page:
            group = groups[kind]
            sheet = group[0][1].sheet
            size = parse_size(sheet.size)
            for k, (index, piece) in enumerate(group[first:first + count]):
                fx, fy = spec.front_slot(k)
                bx, by = spec.back_slot(k)
                cite = source_mark(ctx.game, piece.location) or None
                fronts.append(slot(fx, fy, spec.card_w, spec.card_h,
                                    counter_html(ctx, piece.front, sheet, size, config, index, cite=cite)))
                if sheet.backs:
                    backs.append(slot(bx, by, spec.card_w, spec.card_h,
                                       counter_html(ctx, piece.back, sheet, size, config, index, cite=cite)))
                placements.append({"counter": piece.counter.id, "countersheet": sheet.id, "sheet": number,
                                   "front": [round(fx, 3), round(fy, 3)],
                                   "back": [round(bx, 3), round(by, 3)] if sheet.backs else None,
                                   "size": [spec.card_w, spec.card_h], "paper": [spec.paper_w, spec.paper_h]})
            front_marks.append(marks(spec, count))
            if sheet.backs:
                back_marks.append(marks(spec, count, mirrored=True))
        style = f"width:{specs[0].paper_w}mm;height:{specs[0].paper_h}mm;page:{paper}"
        pages.append(Markup('<div class="sheet fronts" style="{}">{}{}</div>').format(
            style, Markup("").join(fronts), Markup("").join(front_marks)))
        if backs:
            pages.append(Markup('<div class="sheet backs" style="{}">{}{}</div>').format(
                style, Markup("").join(backs), Markup("").join(back_marks)))
    page_rules = [f"@page {name} {{ size: {p['width']}mm {p['height']}mm; margin: 0 }}"
                  for name, p in config["papers"].items()]
    return counters_document_html(ctx, page_rules, pages), placements


def counters_document_html(ctx: BuildContext, rules: list[str], pages: list) -> str:
    """A counters document: its title, the page rules `rules`, counters.css, and `pages`."""
    return (f'<!DOCTYPE html><html lang="{ctx.lang}"><head><meta charset="utf-8">'
            f"<title>{Markup.escape(ctx.title)} — {Markup.escape(ctx.env.globals['ui']('counters'))}</title>"
            f'<meta name="generator" content="Rulesmith"><style>{ctx.env.globals["fonts_css"]}\n'
            + "\n".join(rules) + "\n" + ctx.css("counters.css") + "</style></head><body>"
            + "".join(str(p) for p in pages) + "</body></html>")


def legibility(document, config: dict) -> dict[int, list[str]]:
    """Counter index -> problems: text smaller than the least legible size, or text running
    outside its counter."""
    least = config["counter"]["min_font_pt"]
    found: dict[int, list[str]] = {}
    for page in document.pages:
        stack: list[tuple[int, Any]] = []

        def visit(box, parent=None):
            element = getattr(box, "element", None)
            pushed = False
            if element is not None and element.get("data-counter") is not None and "counter" in (element.get("class") or ""):
                stack.append((int(element.get("data-counter")), box))
                pushed = True
            if stack and element is not None and str(getattr(element, "tag", "")).endswith("svg") \
                    and getattr(box, "width", None):
                for words, pt in svg_text_sizes(element, box.width, box.height):
                    if pt < least - 0.05:
                        found.setdefault(stack[-1][0], []).append(f"'{words}' at {pt:.2f} pt (least {least} pt)")
            text = getattr(box, "text", None)
            if text and text.strip() and stack:
                index, counter = stack[-1]
                pt = box.style["font_size"] / PX_PER_PT
                if pt < least - 0.05:
                    found.setdefault(index, []).append(f"'{text.strip()}' at {pt:.1f} pt (least {least} pt)")
                line = parent if parent is not None else box  # the line box: its height is the line's, not the font's
                left, top = counter.border_box_x(), counter.border_box_y()
                if (box.position_x < left - 0.5 or box.position_x + box.width > left + counter.border_width() + 0.5
                        or line.position_y < top - 0.5 or line.position_y + line.height > top + counter.border_height() + 0.5):
                    found.setdefault(index, []).append(f"'{text.strip()}' runs outside the counter")
            for child in getattr(box, "children", ()) or ():
                visit(child, box)
            if pushed:
                stack.pop()

        visit(page._page_box)
    return found


def svg_text_sizes(svg, width_px: float, height_px: float) -> list[tuple[str, float]]:
    """(text, printed size in pt) of each <text> of an inline SVG drawn `width_px` wide: its
    font-size is in the viewBox's units, which the drawing scales (keeping proportions)."""
    try:
        _x, _y, view_w, view_h = (float(v) for v in (svg.get("viewBox") or "").replace(",", " ").split())
    except ValueError:
        return []
    if view_w <= 0 or view_h <= 0:
        return []
    scale = min(width_px / view_w, height_px / view_h if height_px else width_px / view_w)
    sizes = []
    for node in svg.iter():
        if str(node.tag).endswith("text") and node.get("font-size"):
            try:
                size = float(str(node.get("font-size")).removesuffix("px"))
            except ValueError:
                continue
            words = " ".join("".join(node.itertext()).split())
            if words:
                sizes.append((words, size * scale / PX_PER_PT))
    return sizes


def counter_document(ctx: BuildContext, report: Report, paper: str = "a4", changed: tuple[set, str] = (set(), "")):
    """(HTML, placements, laid-out document) of the game's counter sheets; None if it has none.
    `changed`: the ids of the counters that changed since an older version, and the mark their
    fronts carry."""
    all_pieces = marked(pieces(ctx), *changed)
    if not all_pieces:
        return None
    html, placements = counters_html(ctx, all_pieces, paper)
    document, _ = render_document(html, ctx.game.folder, ctx.roots)
    seen = set()
    for index, problems in sorted(legibility(document, sheets_config(ctx)).items()):
        piece = all_pieces[index]
        if piece.counter.id in seen:
            continue
        seen.add(piece.counter.id)
        report.add("W030", f"counter '{piece.counter.id}' ({ctx.lang}): {'; '.join(dict.fromkeys(problems))}",
                   piece.location or Location(ctx.game.folder),
                   "shorten the text, or use a larger counter size")
    return html, placements, document, all_pieces


def write_counter_images(ctx: BuildContext, all_pieces: list[Piece], folder) -> list:
    """PNG of each counter's front and back (counters/ID-front.png, ID-back.png) and Tabletop
    Simulator sheets of fronts and of backs in the same order (tts/counters-SHEET-front-N.png)."""
    import pypdfium2 as pdfium

    from . import pngfile
    from .images import DPI, tts_sheets

    config = layout_config(ctx)
    unique = unique_pieces(all_pieces)
    pages = []
    for index, piece in enumerate(unique):
        w, h = parse_size(piece.sheet.size)
        for side in (piece.front, piece.back):
            inner = counter_html(ctx, side, piece.sheet, (w, h), config, index)
            pages.append(Markup('<div class="sheet" style="width:{}mm;height:{}mm;page:p{}">{}</div>').format(
                w, h, index, inner))
    rules = [f"@page p{i} {{ size: {parse_size(p.sheet.size)[0]}mm {parse_size(p.sheet.size)[1]}mm; margin: 0 }}"
             for i, p in enumerate(unique)]
    html = (f'<!DOCTYPE html><html lang="{ctx.lang}"><head><meta charset="utf-8"><style>{ctx.env.globals["fonts_css"]}\n'
            + "\n".join(rules) + "\n" + ctx.css("counters.css") + "</style></head><body>"
            + "".join(str(p) for p in pages) + "</body></html>")
    document, _ = render_document(html, ctx.game.folder, ctx.roots)
    pdf = pdfium.PdfDocument(document.write_pdf())
    out_dir, tts_dir = folder / "counters", folder / "tts"
    out_dir.mkdir(parents=True, exist_ok=True)
    tts_dir.mkdir(parents=True, exist_ok=True)
    written, by_sheet = [], {}
    for index, piece in enumerate(unique):
        for k, side in enumerate(("front", "back")):
            bitmap = pdf[2 * index + k].render(scale=DPI / 72, rev_byteorder=True)
            path = out_dir / f"{piece.counter.id}-{side}.png"
            outputs.write_bytes(path, pngfile.rendered(bitmap))
            written.append(path)
            by_sheet.setdefault((piece.sheet.id, side), []).append(bitmap.to_pil())
    for (sheet, side), images in by_sheet.items():
        written.extend(tts_sheets(f"counters-{sheet}-{side}", images, tts_dir))
    return written


__all__ = ["Piece", "counter_document", "counter_html", "counters_document_html", "counters_html", "face", "layout_config",
           "legibility", "pieces", "unique_pieces"]
