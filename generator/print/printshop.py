"""Print-on-demand exports (`build --print-shop NAME`): every card face, and every counter face
where the printer has a product for counters, at the printer's trim plus bleed, no marks, as
the printer takes it: one PDF page or one PNG per face, named as the preset in
templates/print-shops.yaml says. Each file written is preflighted (preflight.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from .. import outputs
from ..core.diagnostics import Location, Report
from ..outputs.layout import PRINT_SHOP
from ..model.sizes import parse_size
from .bleed import set_bleed_box
from .cardfaces import CardFace
from .cards import sheets_document
from .counterbleed import bleed_html, counter_faces, write_bleed_pdf
from .sheetparts import sheets_config
from .context import BuildContext
from .pdf import render_document
from .preflight import png_face, preflight_pages
from .sheets import FACE_PAGES_PER_CHUNK, write_sheets

FOLDER = PRINT_SHOP  # output/GAME/LANG/print-shop/PRESET/ (counters: PRESET-counters/)
PNG_CHUNK = 20  # cards laid out at once for PNG presets


def presets(folders: list[Path]) -> dict:
    """The presets of the first print-shops.yaml in the template folders."""
    from ..reading.loader import read_settings
    from ..model.printing import PrintShops

    for folder in folders:
        if (folder / "print-shops.yaml").is_file():
            return read_settings(folder / "print-shops.yaml", PrintShops)["presets"]
    return {}


def preset_state(ctx: BuildContext, name: str | None) -> str:
    """What a preset says (for a document's source: a preset edited in print-shops.yaml makes
    its files again); empty without one."""
    import json

    return json.dumps(presets(ctx.templates).get(name), sort_keys=True) if name else ""


def preset_faces(faces: list[CardFace], preset: dict, report: Report, fallback: Location
                 ) -> dict[str, list[CardFace]]:
    """The faces the printer takes, by deck, each at the printer's trim; a deck of a size the
    preset has no product for is left out with a warning at the card's record."""
    products = {parse_size(name): tuple(size) for name, size in preset["sizes"].items()}
    by_deck: dict[str, list[CardFace]] = {}
    told: set[str] = set()
    for face in faces:
        trim = products.get(face.mm)
        if trim is None:
            if face.deck not in told:
                told.add(face.deck)
                report.add("W048", f"{preset['name']} takes no cards of size {face.size} (deck '{face.deck}'): "
                           "left out of its files", face.location or fallback,
                           f"add the size to the preset in print-shops.yaml, or choose a size it has "
                           f"({', '.join(preset['sizes'])})")
            continue
        by_deck.setdefault(face.deck, []).append(replace(face, size=f"{trim[0]:g}x{trim[1]:g}mm"))
    return by_deck


def file_name(pattern: str, face: CardFace, n: int) -> str:
    return pattern.format(deck=face.deck, card=face.id, n=f"{n:03d}")


def write_print_shop(ctx: BuildContext, faces: list[CardFace], name: str, out: Path, report: Report,
                     broken: bool = False) -> list[Path]:
    """The preset's files for these (fitted) faces, under out/print-shop/NAME/; none while a
    card is too long for its card (E040): a card cut off is never sent to a printer."""
    preset = presets(ctx.templates)[name]
    folder = out / FOLDER / name  # files of cards no longer there are removed by the build (manifest.py)
    if broken:
        return []
    config = {**sheets_config(ctx), "bleed": preset["bleed"]}
    written: list[Path] = []
    for deck, cards in preset_faces(faces, preset, report, Location(ctx.game.folder / "game.yaml")).items():
        if preset["format"] == "pdf":
            html = sheets_document(ctx, cards, bleed=True, marks=False, config=config)[0]
            written += _pdf_files(ctx, html, cards, preset, folder, report)
        else:
            written += _png_files(ctx, cards, preset, config, folder, report)
    return written


def _pdf_files(ctx, html, cards, preset, folder: Path, report: Report) -> list[Path]:
    """The deck's faces as PDF pages, front then back of each card (one file when both
    patterns name the same file, as DriveThruCards takes them)."""
    path = folder / file_name(preset["front"], cards[0], 1)  # the same as the back's (PrintShop checks it)
    result = write_sheets(html, path, ctx.game.folder, ctx.roots, per_chunk=FACE_PAGES_PER_CHUNK,
                          finish=lambda p: set_bleed_box(p, preset["bleed"]))
    report.diagnostics += result.diagnostics
    preflight_pages(result.path, preset["bleed"], [face.location for face in cards for _side in (0, 1)], ctx, report)
    return [result.path]


def _png_files(ctx, cards, preset, config, folder: Path, report: Report) -> list[Path]:
    """One PNG per face at the preset's dpi, the page being the trim plus the bleed; laid out
    a chunk of cards at a time, so a large deck's memory stays flat."""
    import pypdfium2 as pdfium

    written = []
    for start in range(0, len(cards), PNG_CHUNK):
        chunk = cards[start:start + PNG_CHUNK]
        html = str(sheets_document(ctx, chunk, bleed=True, marks=False, config=config)[0])
        document, _ = render_document(html, ctx.game.folder, ctx.roots)
        pdf = pdfium.PdfDocument(document.write_pdf())
        try:
            for i, face in enumerate(chunk):
                for side, pattern in ((0, preset["front"]), (1, preset["back"])):
                    path = folder / file_name(pattern, face, start + i + 1)
                    written.append(_png(pdf[2 * i + side], face.mm, preset, path))
                    _png_preflight(ctx, path, face.mm, preset, face.location, report)
        finally:
            pdf.close()
    return written


def _png(page, mm: tuple[float, float], preset: dict, path: Path) -> Path:
    image = page.render(scale=preset["dpi"] / 72).to_pil().convert("RGB")
    size = tuple(round((v + 2 * preset["bleed"]) / 25.4 * preset["dpi"]) for v in mm)
    if image.size != size:  # a pixel more or less from rounding the page's points
        image = image.resize(size)
    return outputs.write_with(path, lambda tmp: image.save(tmp, "PNG", dpi=(preset["dpi"],) * 2))


def _png_preflight(ctx, path: Path, mm: tuple[float, float], preset: dict, location: Location | None,
                   report: Report) -> None:
    """Preflight a face's PNG: each finding an E048 at the face's record."""
    for finding in png_face(path, mm, preset["bleed"], preset["dpi"]):
        report.add("E048", f"{ctx.lang}/{path.relative_to(ctx.output_dir()).as_posix()}: {finding.what}",
                   location or Location(ctx.game.folder / "game.yaml"), finding.hint)


def write_counter_shop(ctx: BuildContext, pieces: list, name: str, out: Path, report: Report) -> list[Path]:
    """The files of the preset's counter product for the game's counters, under
    out/print-shop/NAME-counters/: a PDF of each counter sheet (each counter's front, then
    its back) or a PNG per face. A preset with no counter product, or none for a sheet's
    size, writes nothing for it and says so (W048 at the sheet's first counter)."""
    preset = presets(ctx.templates)[name]
    folder = out / FOLDER / f"{name}-counters"  # files of counters no longer there: as for the cards
    product = preset.get("counters")
    trims = {parse_size(size): tuple(trim) for size, trim in product["sizes"].items()} if product else {}
    written: list[Path] = []
    for members in _counter_sheets(pieces, product, trims, preset, report, ctx).values():
        faces = counter_faces(members, trims)
        if product["format"] == "pdf":
            written.append(_counter_pdf(ctx, faces, product, folder, report))
        else:
            written += _counter_pngs(ctx, faces, product, folder, report)
    return written


def _counter_sheets(pieces: list, product: dict | None, trims: dict, preset: dict, report: Report, ctx
                    ) -> dict[str, list]:
    """The counters the product takes (its `trims`: our size in mm -> the printer's), by
    counter sheet; a W048 for each sheet it does not take."""
    by_sheet: dict[str, list] = {}
    for piece in pieces:
        by_sheet.setdefault(piece.sheet.id, []).append(piece)
    taken = {}
    for sheet, members in by_sheet.items():
        size = members[0].sheet.size
        if parse_size(size) in trims:
            taken[sheet] = members
            continue
        what = (f"takes no counters of size {size}" if product is not None else "has no product for counters")
        hint = (f"add the size to the preset's counters in print-shops.yaml, or choose a size it has "
                f"({', '.join(product['sizes'])})" if product is not None
                else "add a counters: product to the preset in print-shops.yaml, or choose a preset that has one")
        report.add("W048", f"{preset['name']} {what} (counter sheet '{sheet}'): left out of its files",
                   members[0].location or Location(ctx.game.folder / "game.yaml"), hint)
    return taken


def _counter_file(pattern: str, face) -> str:
    return pattern.format(sheet=face.piece.sheet.id, counter=face.piece.counter.id, n=f"{face.n:03d}")


def _counter_pdf(ctx, faces: list, product: dict, folder: Path, report: Report) -> Path:
    path = folder / _counter_file(product["front"], faces[0])
    return write_bleed_pdf(ctx, faces, path, product["bleed"], report, marks=False)


def _counter_pngs(ctx, faces: list, product: dict, folder: Path, report: Report) -> list[Path]:
    """One PNG per counter face at the product's dpi, the trim plus the bleed."""
    import pypdfium2 as pdfium

    document, _ = render_document(bleed_html(ctx, faces, product["bleed"], marks=False), ctx.game.folder, ctx.roots)
    pdf = pdfium.PdfDocument(document.write_pdf())
    written = []
    try:
        for index, face in enumerate(faces):
            path = folder / _counter_file(product[face.side], face)
            written.append(_png(pdf[index], face.trim, product, path))
            _png_preflight(ctx, path, face.trim, product, face.piece.location, report)
    finally:
        pdf.close()
    return written
