"""A home booklet: the A5 rulebook imposed two pages up on A4 landscape in saddle-stitch order,
to print on both sides (flipping on the short edge), fold in half as one stack and staple on
the fold. Its first sheet says so under the pages.

The pages of the book are placed as they are (A5 is half of A4: no scaling); a book whose page
count is not a multiple of 4 gets blank pages at the end. The booklet is for printing: its
pages are drawn as artifacts, and what a screen reader finds in it is the instruction, which
names rulebook.pdf as the book to read on screen.
"""

from __future__ import annotations

from pathlib import Path

import pikepdf
from markupsafe import escape

from .. import outputs
from .pdf import identifier, render_document, write_tagged
from .pdfsave import save

A4_LANDSCAPE = (841.89, 595.28)  # points


def sheet_sides(pages: int) -> list[tuple[int | None, int | None]]:
    """The book's pages (0-based; None for a blank) on each side of each sheet, left then
    right, in printing order: sheet 1 front, sheet 1 back, sheet 2 front… For 8 pages:
    (7, 0), (1, 6), (5, 2), (3, 4)."""
    total = -(-pages // 4) * 4
    shown = lambda n: n if n < pages else None  # noqa: E731 (a blank past the book's end)
    sides = []
    for sheet in range(total // 4):
        sides.append((shown(total - 1 - 2 * sheet), shown(2 * sheet)))
        sides.append((shown(2 * sheet + 1), shown(total - 2 - 2 * sheet)))
    return sides


def instruction_html(ctx, pages: int) -> str:
    """The first sheet's page, with the instruction along its bottom edge (under the pages)."""
    ui = ctx.env.globals["ui"]
    words = escape(ui("booklet-instruction").format(sheets=-(-pages // 4)))
    title = escape(f"{ctx.title} — {ui('rulebook')} ({ui('booklet')})")
    return (f'<!DOCTYPE html><html lang="{ctx.lang}"><head><meta charset="utf-8">'
            f"<title>{title}</title><style>"
            f'{ctx.env.globals["fonts_css"]}\n@page {{ size: A4 landscape; margin: 0 }}'
            " body { margin: 0; font: 6.5pt 'PT Sans'; color: #444 }"
            " p { position: absolute; left: 10mm; right: 10mm; bottom: 1.2mm; margin: 0; text-align: center }"
            f"</style></head><body><p>{words}</p></body></html>")


def impose(ctx, book: Path, out: Path) -> int:
    """Write the booklet of the PDF `book` to `out`; the number of sheets of paper."""
    with pikepdf.open(book) as source:
        pages = len(source.pages)
    html = instruction_html(ctx, pages)
    document, _fetcher = render_document(html, ctx.game.folder, ctx.roots)
    outputs.write_with(out, lambda tmp: _write(document, html, book, Path(tmp)))
    return -(-pages // 4)


def _write(document, html: str, book: Path, path: Path) -> None:
    write_tagged(document, path, identifier(html))
    with pikepdf.open(path, allow_overwriting_input=True) as pdf, pikepdf.open(book) as source:
        first = pdf.pages[0]
        # the instruction page's own drawing leaves its transformation (WeasyPrint flips the
        # y axis) in force: kept inside q…Q, the book's pages are placed in plain page space
        first.contents_add(pikepdf.Stream(pdf, b"q\n"), prepend=True)
        first.contents_add(pikepdf.Stream(pdf, b"\nQ\n"))
        sides = sheet_sides(len(source.pages))
        forms: dict[int, pikepdf.Object] = {}
        for n, side in enumerate(sides):
            page = first if n == 0 else pdf.add_blank_page(page_size=A4_LANDSCAPE)
            for slot, number in enumerate(side):
                if number is None:
                    continue
                if number not in forms:
                    forms[number] = pdf.copy_foreign(source.pages[number].as_form_xobject())
                _place(pdf, page, forms[number], slot)
        save(pdf, path)


def _place(pdf: pikepdf.Pdf, page: pikepdf.Page, form, slot: int) -> None:
    """Draw `form` (an A5 page) on the left (slot 0) or right (1) half of `page`, as an
    artifact: the booklet's reading content is its instruction."""
    name = page.add_resource(form, pikepdf.Name.XObject, prefix="Bk")
    width = A4_LANDSCAPE[0] / 2
    x0, y0, x1, y1 = (float(v) for v in form.BBox)
    scale = min(width / (x1 - x0), A4_LANDSCAPE[1] / (y1 - y0))
    dx = slot * width + (width - (x1 - x0) * scale) / 2 - x0 * scale
    dy = (A4_LANDSCAPE[1] - (y1 - y0) * scale) / 2 - y0 * scale
    drawn = f"/Artifact BMC q {scale:.5f} 0 0 {scale:.5f} {dx:.3f} {dy:.3f} cm {name} Do Q EMC\n"
    page.contents_add(pikepdf.Stream(pdf, drawn.encode()), prepend=False)
