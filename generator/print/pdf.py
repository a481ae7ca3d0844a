"""HTML to PDF with WeasyPrint: confined fetching, fixed identifier, shipped fonts."""

from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from weasyprint import HTML

from .. import outputs
from .fetcher import ConfinedFetcher
from .fonts import font_dirs

# fontTools stamps embedded font subsets with the current time unless SOURCE_DATE_EPOCH is
# set; a fixed stamp keeps two builds of the same input byte-identical.
os.environ.setdefault("SOURCE_DATE_EPOCH", "946684800")

logging.getLogger("weasyprint").setLevel(logging.ERROR)
logging.getLogger("fontTools").setLevel(logging.ERROR)


@dataclass
class PdfResult:
    path: Path
    pages: int
    refused: list[str]


def render_document(html: str, base_url: Path, roots: list[Path]):
    fetcher = ConfinedFetcher([*roots, *font_dirs()])
    document = HTML(string=html, base_url=base_url.resolve().as_uri() + "/", url_fetcher=fetcher).render()
    return document, fetcher


def identifier(html: str) -> bytes:
    """The PDF identifier: a hash of the input, so the same input gives the same bytes."""
    return hashlib.sha256(html.encode("utf-8")).hexdigest()[:32].encode("ascii")


def write_pdf(html: str, out: Path, base_url: Path, roots: list[Path], document=None) -> PdfResult:
    """Render (unless `document` is the layout of `html` already) and write atomically: a
    failed build never leaves a half-written PDF. The PDF identifier is a hash of the input,
    so the same input gives the same bytes."""
    refused: list[str] = []
    if document is None:
        document, fetcher = render_document(html, base_url, roots)
        refused = fetcher.refused
    identifier_ = identifier(html)
    outputs.write_with(out, lambda tmp: document.write_pdf(tmp, pdf_identifier=identifier_))
    return PdfResult(out, len(document.pages), refused)
