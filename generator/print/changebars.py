"""Change bars: the rulebook of a build with `--changes-since REF` marks every block that
changed (`data-changed`, living.py) with a bar in the page's outer margin, the right one on a
right-hand (odd) page, the left one on a left-hand (even) page, as living rules are printed.

The bars are found in the laid-out book (each box of a marked element, by page) and drawn
onto the written PDF as artifacts (decoration, outside the structure tree: PDF/UA keeps them
out of what a screen reader reads). A walk of the same boxes gives the page of each block,
for the errata sheet's "p. 12" (changepages.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pikepdf
from weasyprint.formatting_structure import boxes

from .boxtree import every_box
from .living import CHANGED
from .pdfsave import save

PX = 0.75  # a CSS pixel in PDF points
MM = 72 / 25.4  # a millimetre in PDF points
WIDTH = 1.2 * MM  # the bar
GAP = 3.5 * MM  # from the text's edge to the bar
COLOUR = (0.0, 0.0, 0.0)  # black: it prints on any printer


@dataclass(frozen=True)
class Bar:
    """One bar on one page (0-based), in PDF points from the page's bottom left."""

    page: int
    x: float
    y: float
    height: float


def _marked(box) -> bool:
    element = getattr(box, "element", None)
    return (element is not None and element.get(CHANGED) is not None
            and isinstance(box, (boxes.BlockBox, boxes.TableRowBox)) and box.element_tag != "html")


def _spans(page) -> list[tuple[float, float]]:
    """The vertical extents (CSS px from the page's top) of the marked blocks on a page,
    overlapping ones merged."""
    found = sorted((box.border_box_y(), box.border_box_y() + box.border_height())
                   for box in every_box(page._page_box) if _marked(box) and box.border_height() > 0)
    merged: list[tuple[float, float]] = []
    for top, bottom in found:
        if merged and top <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], bottom))
        else:
            merged.append((top, bottom))
    return merged


def bars(document) -> list[Bar]:
    """The bars of a laid-out book: beside each marked block, in the outer margin."""
    out = []
    for index, page in enumerate(document.pages):
        spans = _spans(page)
        if not spans:
            continue
        box = page._page_box
        left, right = box.content_box_x() * PX, (box.content_box_x() + box.width) * PX
        height = page.height * PX
        right_hand = index % 2 == 0  # page 1 is a right-hand page
        x = right + GAP if right_hand else left - GAP - WIDTH
        for top, bottom in spans:
            out.append(Bar(index, x, height - bottom * PX, (bottom - top) * PX))
    return out


def draw(path: Path, found: list[Bar]) -> None:
    """Draw the bars onto the written PDF, each page's as one artifact."""
    if not found:
        return
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        for number in sorted({bar.page for bar in found}):
            rects = "".join(f"{bar.x:.2f} {bar.y:.2f} {WIDTH:.2f} {bar.height:.2f} re\n"
                            for bar in found if bar.page == number)
            colour = " ".join(f"{c:g}" for c in COLOUR)
            stream = f"\nQ\n/Artifact <</Type /Layout>> BDC\nq\n{colour} rg\n{rects}f\nQ\nEMC\n".encode("ascii")
            page = pdf.pages[number]  # the page's own drawing (and the transform it leaves) kept apart
            page.contents_add(pikepdf.Stream(pdf, b"q\n"), prepend=True)
            page.contents_add(pikepdf.Stream(pdf, stream))
        save(pdf, path)
