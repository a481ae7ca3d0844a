"""Walking a laid-out WeasyPrint box tree: the one walk the layout readers share."""

from __future__ import annotations


def every_box(box):
    """`box` and every box under it, in document order, without recursion (a deep tree of a
    long table does not reach Python's recursion limit)."""
    stack = [box]
    while stack:
        item = stack.pop()
        yield item
        stack.extend(reversed(getattr(item, "children", None) or ()))


def elements(document):
    """(page index, box, element) for every box of a laid-out document that comes from an HTML
    element, page by page in document order."""
    for index, page in enumerate(document.pages):
        for box in every_box(page._page_box):
            element = getattr(box, "element", None)
            if element is not None:
                yield index, box, element
