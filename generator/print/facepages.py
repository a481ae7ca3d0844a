"""Card faces the fitting laid out, kept as PDF pages for the card images. The fitting lays
every face out, one per page, at the text size it ends with (fitting.py: a face shrunk is
laid out again at its smaller size); a card image is rasterized from that layout instead of
laying the face out a second time.

The fitting's pages are MEASURE_PAGES times as tall as the card, the card at their top laid
out exactly as on a page of its own size (the same boxes). Rasterized with the scale a page
of the card's size gets, its pixels differ from that page's by at most two levels of 255 in a
channel, on a fraction of a percent of them: pdfium rounds the taller page's matrix a little
differently where it smooths edges (tests/test_facepages.py holds that bound)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from ..project.manifest import digest

PT_PER_MM = 72 / 25.4


def face_key(html: str) -> str:
    """What a face's page is found by: the hash of the HTML of the face alone (images.py)."""
    return digest(html)


class FacePages:
    """The faces laid out so far in this document's build, by face_key: each layout written
    as PDF once; a face laid out again (at a smaller text size) is then found on its later page.
    The PDFs are held in memory until the images are made: about 70 KB per 100 plain faces,
    7 MB for a deck of 10,000 cards."""

    def __init__(self) -> None:
        self._pages: dict[str, tuple[pdfium.PdfDocument, int]] = {}
        self._documents: list[pdfium.PdfDocument] = []

    def keep(self, document, keys: list[str | None]) -> None:
        """A WeasyPrint document of faces, one per page; page n holds the face keyed keys[n]
        (None: a face laid out again later, its page not written)."""
        kept = [n for n, key in enumerate(keys) if key is not None]
        if not kept:
            return
        pdf = pdfium.PdfDocument(document.copy([document.pages[n] for n in kept]).write_pdf())
        self._documents.append(pdf)
        for page, n in enumerate(kept):
            self._pages[keys[n]] = (pdf, page)

    def page(self, key: str):
        """The page the face keyed `key` was laid out on, or None (not laid out by this build:
        its text size came from fit.json)."""
        found = self._pages.get(key)
        return found[0][found[1]] if found else None

    def close(self) -> None:
        for pdf in self._documents:
            pdf.close()
        self._documents.clear()
        self._pages.clear()


@contextmanager
def kept_faces(ctx, wanted: bool) -> Iterator[None]:
    """While a card document is made: with `wanted` (it makes card images), the faces the
    fitting lays out are kept on `ctx.face_pages`; closed and forgotten after."""
    ctx.face_pages = FacePages() if wanted else None
    try:
        yield
    finally:
        if ctx.face_pages is not None:
            ctx.face_pages.close()
        ctx.face_pages = None


def raster_to(page, size: tuple[int, int], height_mm: float) -> Image.Image:
    """The page as an RGB image of `size` pixels, cut to a card `height_mm` tall: a page of
    the card's size whole, or the top of a taller page of the fitting's (a Tabletop Simulator
    sheet's cell, images.py: drawn at its own size rather than shrunk from the card's PNG)."""
    return _bitmap(page, size, height_mm).to_pil()


def raster(page, scale: float, height_mm: float):
    """The page as a pdfium bitmap of RGB pixels (pngfile.rendered) at `scale` pixels per
    point, cut to a card `height_mm` tall: a page of the card's size whole, or the top of a
    taller page of the fitting's, with the scale a page of the card's size gets."""
    if _tall(page, height_mm) == 1:
        return page.render(scale=scale, rev_byteorder=True)
    width, height = page.get_size()
    return _bitmap(page, (math.ceil(width * scale), math.ceil(height / _tall(page, height_mm) * scale)), height_mm)


def _tall(page, height_mm: float) -> int:
    """How many cards `height_mm` tall the page's height is (1, or the fitting's MEASURE_PAGES)."""
    return max(1, round(page.get_size()[1] / (height_mm * PT_PER_MM)))


def _bitmap(page, size: tuple[int, int], height_mm: float):
    """The top of the page, a card `height_mm` tall, drawn into a bitmap of `size` RGB pixels."""
    w, h = size
    bitmap = pdfium.PdfBitmap.new_native(w, h, pdfium_c.FPDFBitmap_BGR, rev_byteorder=True)
    pdfium_c.FPDFBitmap_FillRect(bitmap, 0, 0, w, h, 0xFFFFFFFF)
    pdfium_c.FPDF_RenderPageBitmap(bitmap, page, 0, 0, w, h * _tall(page, height_mm), 0,
                                   pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER)
    return bitmap
