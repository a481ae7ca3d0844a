"""HTML to PDF with WeasyPrint: confined fetching, fixed identifier, shipped fonts."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable

from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration

from .. import outputs
from ..core.diagnostics import Diagnostic, Severity
from ..system.stamps import fixed as fixed_stamps
from .fetcher import ConfinedFetcher
from .fonts import font_dirs, with_shipped_glyphs
from .linebreak import apply as correct_line_breaking
from .layoutwork import apply as lighten_layout
from .tagging import honest, variant
from .verify import LayoutRules, verify_layout

fixed_stamps()  # two builds of the same input: the same bytes, embedded fonts and all

logging.getLogger("weasyprint").setLevel(logging.ERROR)
logging.getLogger("fontTools").setLevel(logging.ERROR)


@dataclass
class PdfResult:
    path: Path
    pages: int
    refused: list[str]
    # layout findings; with an overflow or overlap the PDF is written as NAME.layout-errors.pdf
    diagnostics: list[Diagnostic] = field(default_factory=list)
    read: set[Path] = field(default_factory=set)  # the local files the layout read


# The last layout a renderer kept (keep=True), so that write_pdf does not lay the same HTML
# out twice when a renderer had to lay it out to fit it.
_kept: dict[tuple[str, str], tuple] = {}


@lru_cache(maxsize=1)
def font_config() -> FontConfiguration:
    """One font configuration for every document this process lays out: the shipped fonts'
    @font-face rules are then loaded once, not once per document (a 10,000-card deck is laid
    out in hundreds of chunks, and each fresh configuration left fontconfig's memory larger)."""
    return FontConfiguration()


class LayoutFailed(Exception):
    """WeasyPrint's layout itself failed on a document (an assertion or an error inside its
    layout code, not a fault of the content it reports): the caller may lay the document out
    another way (the rulebook: in one column)."""


def render_document(html: str, base_url: Path, roots: list[Path], keep: bool = False):
    key = (hashlib.sha256(html.encode("utf-8")).hexdigest(), str(base_url))
    if key in _kept:
        return _kept.pop(key)
    fetcher = ConfinedFetcher([*roots, *font_dirs()])
    correct_line_breaking()
    lighten_layout()
    try:
        document = HTML(string=with_shipped_glyphs(html), base_url=base_url.resolve().as_uri() + "/",
                        url_fetcher=fetcher).render(font_config=font_config())
    except (MemoryError, RecursionError, OSError):  # the machine's, not the layout's
        raise
    except Exception as error:  # e.g. WeasyPrint 70's `assert not page_is_empty` in columns
        raise LayoutFailed(f"{type(error).__name__}: {error}".rstrip(": ")) from error
    if keep:
        _kept.clear()
        _kept[key] = (document, fetcher)
    return document, fetcher


def finishing(_written, path: Path, finish: Callable[[Path], None] | None) -> None:
    """Run `finish` on a file just written (its writer's result is ignored)."""
    if finish is not None:
        finish(path)


def identifier(html: str) -> bytes:
    """The PDF identifier: a hash of the input, so the same input gives the same bytes."""
    return hashlib.sha256(html.encode("utf-8")).hexdigest()[:32].encode("ascii")


def write_tagged(document, path: Path, identifier_: bytes, finish: Callable[[Path], None] | None = None) -> None:
    """Write a laid-out document as tagged PDF/UA-1 (structure tree, language, title, XMP),
    claiming conformance only where it conforms (tagging.py); then `finish` runs on the file
    (a print shop's page boxes and preflight)."""
    document.write_pdf(path, pdf_identifier=identifier_, **variant())
    honest(path)
    finishing(None, path, finish)


def _then(first: Callable[[Path], None], then: Callable[[Path], None] | None) -> Callable[[Path], None]:
    def both(path: Path) -> None:
        first(path)
        finishing(None, path, then)
    return both


def write_pdf(html: str, out: Path, base_url: Path, roots: list[Path], document=None,
              finish: Callable[[Path], None] | None = None, broken: bool = False,
              marks: Callable[[object], Callable[[Path], None]] | None = None) -> PdfResult:
    """Render (unless `document` is the layout of `html` already), verify the layout, and
    write atomically: a failed build never leaves a half-written PDF. A document whose
    content overflows or overlaps is not written as if fine: it goes to NAME.layout-errors.pdf
    (for the designer to look at) and any earlier NAME.pdf is removed. The PDF identifier is a
    hash of the input, so the same input gives the same bytes. `finish` edits the written
    file before it takes its name (page boxes, font names; the rulebook's turned pages and blank
    pages). `broken`: the document is known to be broken before it is laid out (a card too
    long for its card, print/fitting.py): written as NAME.layout-errors.pdf whatever the check finds.
    `marks(document)`: a step drawn from the laid-out document (the rulebook's change bars,
    changebars.py), run on the written file before `finish`."""
    refused: list[str] = []
    read: set[Path] = set()
    if document is None:
        document, fetcher = render_document(html, base_url, roots)
        refused, read = fetcher.refused, fetcher.read
    findings = verify_layout(document, base_url, LayoutRules.load(roots), label=f"{out.parent.name}/{out.name}")
    broken = broken or any(d.severity is Severity.ERROR for d in findings)
    target = out.with_name(out.stem + ".layout-errors.pdf") if broken else out
    stale = out if broken else out.with_name(out.stem + ".layout-errors.pdf")
    identifier_ = identifier(html)
    if marks is not None:
        finish = _then(marks(document), finish)
    outputs.write_with(target, lambda tmp: write_tagged(document, tmp, identifier_, finish))
    outputs.check_inside(stale)
    stale.unlink(missing_ok=True)
    return PdfResult(target, len(document.pages), refused, findings, read)
