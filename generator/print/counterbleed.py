"""Counters for print shops: every counter face on a page of its own at its trim, its
background, side colour and band running the bleed past the cut, crop marks (when wanted)
outside the bleed, TrimBox and BleedBox set (counters-bleed.pdf); and the files a print-on-
demand preset's counter product takes (print-shops.yaml `counters:`). Every file written is
preflighted (preflight.py), each finding at the counter's record."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from ..core.diagnostics import Report
from ..model.sizes import parse_size, size_key
from .bleed import CLOSE_BOX, OPEN_BOX, bleed_rules, counter_box_rules, crop_marks, set_bleed_box
from .context import BuildContext, source_mark
from .counters import Piece, counter_html, counters_document_html, layout_config, unique_pieces
from .sheetparts import draw_marks


@dataclass(frozen=True)
class CounterFace:
    """One side of a counter as a print shop takes it: at `trim` (mm), `n` its counter's
    number among the file's counters (1, 2, ...)."""

    piece: Piece
    side: str  # "front" or "back"
    trim: tuple[float, float]
    n: int

    @property
    def face(self) -> dict:
        return self.piece.front if self.side == "front" else self.piece.back


def counter_faces(pieces: list[Piece], trims: dict[tuple[float, float], tuple[float, float]] | None = None
                  ) -> list[CounterFace]:
    """Each counter once (however many copies it has), its front then its back (none for a
    sheet printed one-sided), at its own size or at `trims[size]` (a printer's trim for it,
    by our size in mm)."""
    faces = []
    for n, piece in enumerate(unique_pieces(pieces), start=1):
        size = parse_size(piece.sheet.size)
        trim = (trims or {}).get(size, size)
        sides = ("front", "back") if piece.sheet.backs else ("front",)
        faces += [CounterFace(piece, side, trim, n) for side in sides]
    return faces


def bleed_html(ctx: BuildContext, faces: list[CounterFace], bleed: float, marks: bool = True) -> str:
    """One counter face per page at its trim, `bleed` mm of its colour past the cut; with
    `marks`, crop marks outside the bleed."""
    config = {**layout_config(ctx), "bleed": bleed}
    sizes = {size_key(f"{w:g}x{h:g}mm"): (w, h) for w, h in {f.trim for f in faces}}
    pages = []
    for index, face in enumerate(faces):
        w, h = face.trim
        key = size_key(f"{w:g}x{h:g}mm")
        cut = draw_marks(crop_marks(w, h, bleed, config["mark_gap"], config["mark_length"])) if marks else ""
        drawn = counter_html(ctx, face.face, face.piece.sheet, face.trim, config, index,
                             src=source_mark(ctx.game, face.piece.location) or None)
        page = Markup('<div class="sheet bleed" style="width:{}mm;height:{}mm;page:card-{}">{}{}{}{}</div>')
        pages.append(page.format(w, h, key, Markup(OPEN_BOX), drawn, Markup(CLOSE_BOX), Markup(cut)))
    rules = bleed_rules(sizes, config, marks) + counter_box_rules(bleed)
    return counters_document_html(ctx, rules, pages)


def write_bleed_pdf(ctx: BuildContext, faces: list[CounterFace], path: Path, bleed: float, report: Report,
                    marks: bool = True) -> Path:
    """The faces as a bleed PDF (page boxes set), its layout checked (W040 for text in a
    counter's safe margin) and the file preflighted."""
    from .pdf import write_pdf
    from .preflight import preflight_pages

    result = write_pdf(bleed_html(ctx, faces, bleed, marks), path, ctx.game.folder, ctx.roots,
                       finish=lambda p: set_bleed_box(p, bleed))
    # a counter's least text size is its own (sheets.yaml counter.min_font_pt, W030 on the
    # counter sheets), not the documents' min_text_pt
    report.diagnostics += [d for d in result.diagnostics if d.code != "W041"]
    preflight_pages(result.path, bleed, [face.piece.location for face in faces], ctx, report)
    return result.path


__all__ = ["CounterFace", "bleed_html", "counter_faces", "write_bleed_pdf"]
