"""A note on a value the source does not give (‡ Models: not stated in the source.) is printed
once on a page: when several records on one page lack the same value for the same reason,
each keeps its mark ?‡ and the page prints the note under the first of them only.

Which notes a page repeats is known only once the document is laid out, so each note carries
a number (`numbered`), the layout names the repeats (`repeated`), and the document is written
without them (`left_out`); decisions.py remembers the numbers while the HTML stays the same.
"""

from __future__ import annotations

import re

from .boxtree import every_box

_OPEN = '<p class="unstated-note">'
_NOTE = re.compile(r'<p class="unstated-note" data-note="(\d+)">.*?</p>', re.DOTALL)


def numbered(html: str) -> str:
    """`html` with each note numbered in document order."""
    count = iter(range(1_000_000))
    return re.sub(re.escape(_OPEN), lambda m: f'<p class="unstated-note" data-note="{next(count)}">', html)


def left_out(html: str, numbers: set[str] | frozenset[str]) -> str:
    """`html` without the notes numbered in `numbers`."""
    if not numbers:
        return html
    return _NOTE.sub(lambda m: "" if m.group(1) in numbers else m.group(0), html)


def settle(document, html: str, render) -> set[str]:
    """The notes to leave out of `html`, whose layout is `document`: the repeats, then those a
    page repeats once the first were left out and the text moved up (at most three rounds).
    `render` lays out an HTML (keeping it for write_pdf)."""
    found: set[str] = set()
    for _round in range(3):
        more = repeated(document) - found
        if not more:
            break
        found |= more
        document = render(left_out(html, found))
    return found


def repeated(document) -> set[str]:
    """Numbers of the notes whose very words their page already printed higher up (a note
    split across two pages counts on the page it starts on)."""
    found = set()
    for page in document.pages:
        seen: set[str] = set()
        placed: set[str] = set()
        for box in every_box(page._page_box):
            element = getattr(box, "element", None)
            number = element.get("data-note") if element is not None and box.element_tag == "p" else None
            if number is None or number in placed:
                continue
            placed.add(number)
            words = " ".join("".join(element.itertext()).split())
            if words in seen:
                found.add(number)
            seen.add(words)
    return found
