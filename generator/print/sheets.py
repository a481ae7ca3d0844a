"""Large documents laid out in chunks: WeasyPrint holds a whole document's layout in memory,
so a deck of thousands of cards is rendered a few dozen sheets at a time and the parts are
joined with pypdf. Small documents are rendered whole, as before."""

from __future__ import annotations

import io
import re
from pathlib import Path

from .. import outputs
from .pdf import PdfResult, render_document, write_pdf

SHEETS_PER_CHUNK = 40  # pages (fronts and backs) laid out at once
PAGE = re.compile(r'(?=<div class="sheet[ "])')


def split_pages(html: str) -> tuple[str, list[str], str]:
    """(head, page divs, tail) of a document whose body is a run of `<div class="sheet ...">`."""
    start = html.index("<body>") + len("<body>")
    end = html.rindex("</body>")
    pages = [p for p in PAGE.split(html[start:end]) if p]
    return html[:start], pages, html[end:]


def write_sheets(html: str, out: Path, base_url: Path, roots: list[Path], per_chunk: int = SHEETS_PER_CHUNK
                 ) -> PdfResult:
    head, pages, tail = split_pages(html)
    if len(pages) <= per_chunk:
        return write_pdf(html, out, base_url, roots)
    from pypdf import PdfReader, PdfWriter

    from .pdf import identifier

    writer = PdfWriter()
    refused: list[str] = []
    first = None
    for start in range(0, len(pages), per_chunk):
        part = head + "".join(pages[start:start + per_chunk]) + tail
        document, fetcher = render_document(part, base_url, roots)
        refused += fetcher.refused
        data = document.write_pdf(pdf_identifier=identifier(part))
        del document
        reader = PdfReader(io.BytesIO(data))
        first = first or reader
        writer.append(reader)
    writer.add_metadata({k: v for k, v in (first.metadata or {}).items()})
    lang = first.trailer["/Root"].get("/Lang")
    if lang is not None:
        from pypdf.generic import NameObject

        writer._root_object[NameObject("/Lang")] = lang
    outputs.write_with(out, lambda tmp: writer.write(str(tmp)))
    return PdfResult(out, len(pages), refused)
