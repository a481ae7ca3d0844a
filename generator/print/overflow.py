"""Measuring laid-out card sheets: the card bodies whose content runs past them, taller
(`overflows`) or wider (`too_wide`) than the body. Card fitting and the card sheets use it."""

from __future__ import annotations

from .boxtree import every_box

PX_PER_MM = 96 / 25.4


def too_wide(document) -> set[int]:
    """Card bodies with content wider than the body (a stats row with too many columns)."""
    found = set()
    for page in document.pages:
        for box in every_box(page._page_box):
            element = getattr(box, "element", None)
            if element is None or box.element_tag != "div" or element.get("data-face") is None:
                continue
            right = box.content_box_x() + box.width
            if any(d.position_x + d.width > right + 0.5 for d in every_box(box) if isinstance(d.width, (int, float))):
                found.add(int(element.get("data-face")))
    return found


def overflows(document) -> dict[int, tuple[float, float]]:
    """Card bodies whose content is taller than the body: face index -> (needed, available) mm."""
    found: dict[int, tuple[float, float]] = {}
    for page in document.pages:
        for box in every_box(page._page_box):
            element = getattr(box, "element", None)
            if element is None or box.element_tag != "div" or element.get("data-face") is None:
                continue
            children = [c for c in getattr(box, "children", ()) if hasattr(c, "margin_height")]
            if not children:
                continue
            bottom = max(c.position_y + c.margin_height() for c in children)
            needed = (bottom - box.content_box_y()) / PX_PER_MM
            available = box.height / PX_PER_MM
            if needed > available + 0.2:
                found[int(element.get("data-face"))] = (needed, available)
    return found
