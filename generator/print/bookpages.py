"""The rulebook's pages as a book designer sets them, per paper (`books:` in print.yaml): the
columns and margins as CSS, and the finished PDF's pages — a table too wide for the page,
laid out on a landscape page, turned onto a portrait page of the book's size (a book printer
takes one page size), and blank pages to the multiple of pages a folded book needs."""

from __future__ import annotations

from pathlib import Path

import pikepdf

from ..reading.loader import read_settings
from ..model.printing import BookLayout, PrintConfig
from .pdfsave import save


def book_layout(folders: list[Path], paper: str) -> BookLayout:
    """The layout for `paper` from the first print.yaml (the game's, then the templates')
    that sets one; Rulesmith's defaults where none does."""
    for folder in folders:
        path = folder / "print.yaml"
        if path.is_file():
            books = read_settings(path, PrintConfig).get("books") or {}
            if paper in books:
                return BookLayout.model_validate(books[paper])
    return BookLayout()


def page_css(layout: BookLayout) -> str:
    """Margins (mirrored on a bound book's left and right pages), the columns of the chapters,
    and the landscape page a wide table is laid out on before it is turned."""
    inner, outer, top, bottom = layout.inner, layout.outer, layout.top, layout.bottom
    # the comment makes a change of pad_to or spanning_table a change of the book's HTML (a rebuild)
    css = [f"/* pages padded to a multiple of {layout.pad_to}; a table of {layout.spanning_table} columns spans */",
           f"@page {{ margin: {top}mm {outer}mm {bottom}mm {inner}mm; }}"]
    if layout.mirrored:
        css.append(f"@page :left {{ margin-left: {outer}mm; margin-right: {inner}mm; }}")
        css.append(f"@page :right {{ margin-left: {inner}mm; margin-right: {outer}mm; }}")
    # turned a quarter left, the landscape page's top edge is the portrait page's left one:
    # its top and bottom margins are the portrait page's sides (either may be the binding
    # side); a turned page has no running head or folio, so its ends keep the outer margin
    side = max(inner, outer)
    css.append(f"@page landscape {{ margin: {side}mm {outer}mm {side}mm {outer}mm;"
               " @top-left { content: none; } @top-right { content: none; } @bottom-center { content: none; } }")
    if layout.columns > 1:
        css.append(f".chapter {{ columns: {layout.columns}; column-gap: {layout.column_gap}mm; }}")
    return "\n".join(css)


def finish(path: Path, layout: BookLayout) -> None:
    """Turn every landscape page of a portrait book onto a portrait page, and end the book
    with blank pages at a multiple of `layout.pad_to` pages."""
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        width, height = _size(pdf.pages[0])
        if width < height:
            for page in pdf.pages:
                if _size(page)[0] > _size(page)[1]:
                    _turn(pdf, page)
        while len(pdf.pages) % layout.pad_to:
            pdf.add_blank_page(page_size=(width, height))
        save(pdf, path)


def _size(page: pikepdf.Page) -> tuple[float, float]:
    x0, y0, x1, y1 = (float(v) for v in page.mediabox)
    return x1 - x0, y1 - y0


def _turn(pdf: pikepdf.Pdf, page: pikepdf.Page) -> None:
    """A landscape page (W × H) drawn a quarter turn anticlockwise on a portrait page (H × W):
    the table's top towards the left edge, as books print a turned table. A point (x, y)
    goes to (H − y, x); the links' rectangles with it."""
    width, height = _size(page)
    page.contents_add(pikepdf.Stream(pdf, f"q 0 1 -1 0 {height:.4f} 0 cm\n".encode()), prepend=True)
    page.contents_add(pikepdf.Stream(pdf, b"\nQ\n"))
    for box in ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox", "/ArtBox"):
        if box in page.obj:
            page.obj[box] = pikepdf.Array([0, 0, height, width])
    for annot in page.obj.get("/Annots", ()):
        if "/Rect" in annot:
            x0, y0, x1, y1 = (float(v) for v in annot.Rect)
            annot.Rect = pikepdf.Array([height - y1, x0, height - y0, x1])
        if "/QuadPoints" in annot:
            points = [float(v) for v in annot.QuadPoints]
            annot.QuadPoints = pikepdf.Array([v for x, y in zip(points[::2], points[1::2]) for v in (height - y, x)])
