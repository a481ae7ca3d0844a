"""A note on a value the source does not give (‡ Models: not stated in the source.) is printed
once on a page: when several records on one page lack the same value for the same reason,
each keeps its mark ?‡ and the page prints the note under the first of them only.

Which notes a page repeats is known only once the document is laid out, so each note carries
a number (`numbered`), the layout names the repeats (`repeated`), and the document is written
without them (`left_out`); decisions.py remembers the numbers while the HTML stays the same.

A second layout is mostly avoided: before the first one, the notes a page will most likely
repeat (the same words as a note a few lines above: `expected`) are left out, and that layout
is taken when it bears the guess out (`settle`): no page prints a note twice, and the text
each left-out note followed (its marks ?‡; the element before it carries `data-note-after`)
ends on the page that prints the same note. Where it does not, the notes are left out or put
back as that layout shows and the document is laid out again.
"""

from __future__ import annotations

import bisect
import re

from .bookblocks import TAG, VOID
from .boxtree import elements, every_box

_OPEN = '<p class="unstated-note">'
_NOTE = re.compile(r'<p class="unstated-note" data-note="(\d+)"[^>]*>(.*?)</p>', re.DOTALL)
_PLAIN = re.compile(r"<[^>]+>")
# a note whose twin stands less than this much text above it is expected on the same page: a
# fraction of what a column of the smallest book (A5) holds
NEAR = 600


def numbered(html: str) -> str:
    """`html` with each note numbered in document order, and the element right before each
    note marked `data-note-after="N"` (where its marks are read: `settle`)."""
    count = iter(range(1_000_000))
    html = re.sub(re.escape(_OPEN), lambda m: f'<p class="unstated-note" data-note="{next(count)}">', html)
    return _after_marked(html)


def _after_marked(html: str) -> str:
    """`html` with `data-note-after="N"` on the start tag of the element that ends right before
    note N (the one before a run of notes for all of them: "N M"; none where the note follows
    text or opens its parent)."""
    tags = list(TAG.finditer(html))
    ends = [tag.end() for tag in tags]
    notes = {m.start(): m.group(1) for m in _NOTE.finditer(html)}
    anchor: dict[int, int | None] = {}  # a note's start -> the index of its element's start tag
    marks: dict[int, list[str]] = {}
    for at, number in notes.items():
        k = _element_before(html, tags, ends, at)
        anchor[at] = anchor.get(tags[k].start()) if k is not None and tags[k].start() in notes else k
        if anchor[at] is not None:
            marks.setdefault(anchor[at], []).append(number)
    for k in sorted(marks, reverse=True):
        at = tags[k].end() - 1 - tags[k].group(0).endswith("/>")
        html = f'{html[:at]} data-note-after="{" ".join(marks[k])}"{html[at:]}'
    return html


def _element_before(html: str, tags: list, ends: list[int], at: int) -> int | None:
    """The index in `tags` of the start tag of the element that ends right before `at`."""
    k = bisect.bisect_right(ends, at) - 1
    if k < 0 or html[tags[k].end():at].strip():
        return None
    closing, name = tags[k].group(1), tags[k].group(2).lower()
    if not closing:
        return k if name in VOID or tags[k].group(0).endswith("/>") else None
    depth = 0
    for j in range(k, -1, -1):
        if tags[j].group(2).lower() in VOID or tags[j].group(0).endswith("/>"):
            continue
        depth += 1 if tags[j].group(1) else -1
        if depth == 0:
            return j
    return None


def left_out(html: str, numbers: set[str] | frozenset[str]) -> str:
    """`html` without the notes numbered in `numbers`."""
    if not numbers:
        return html
    return _NOTE.sub(lambda m: "" if m.group(1) in numbers else m.group(0), html)


def expected(html: str) -> frozenset[str]:
    """The notes a page will most likely repeat: those whose words a note less than NEAR
    characters of printed text above printed (the first of a run of them is kept; the notes
    left out between do not count)."""
    found: set[str] = set()
    kept: dict[str, int] = {}
    for note in _NOTE.finditer(html):
        words = _words(note.group(2))
        twin = kept.get(words)
        if twin is not None and _near(html[twin:note.start()], found):
            found.add(note.group(1))
        else:
            kept[words] = note.end()
    return frozenset(found)


def _near(between: str, left: set[str]) -> bool:
    """Whether the HTML between two notes prints less than NEAR characters of text, the notes
    of `left` not counted (a long stretch is not read through: it is far)."""
    return len(between) < 40 * NEAR and len(_PLAIN.sub("", left_out(between, left))) < NEAR


def _words(text: str) -> str:
    return " ".join(_PLAIN.sub("", text).split())


def settle(document, html: str, render, guess: frozenset[str] = frozenset()) -> set[str]:
    """The notes to leave out of `html` (the numbered document, every note in it). `document`
    is the layout of `html` without the notes of `guess`. The guess stands when that layout
    bears it out (see the module's text); else the notes are left out or put back as the
    layout shows, and laid out again (at most three rounds; then, from the whole document,
    the repeats, then those a page repeats once the first were left out and the text moved
    up). `render` lays out an HTML (keeping it for write_pdf)."""
    found = set(guess)
    for round_ in range(4):
        wrong, more = misplaced(document, html, found), repeated(document)
        if not wrong and not more:
            return found
        if round_ == 3:
            break
        found = (found - wrong) | more
        document = render(left_out(html, found))
    return _settled(render(html), html, render)


def _settled(document, html: str, render) -> set[str]:
    """The repeats of `document` (the layout of all of `html`), then those a page repeats once
    the first were left out (at most three rounds)."""
    found: set[str] = set()
    for _round in range(3):
        more = repeated(document) - found
        if not more:
            break
        found |= more
        document = render(left_out(html, found))
    return found


def misplaced(document, html: str, left: set[str]) -> set[str]:
    """The notes of `left` (left out of `document`, the layout of `html` without them) whose
    page would not print them: the text each followed ends on another page than the nearest
    note above with the same words that the page prints (a note put back prints where that
    text ends, for the notes after it), or either is not found."""
    if not left:
        return set()
    starts, ends = _pages(document)
    printed: dict[str, int | None] = {}  # words -> the page of the last note printed with them
    wrong = set()
    for note in _NOTE.finditer(html):
        words, number = _words(note.group(2)), note.group(1)
        if number not in left:
            printed[words] = starts.get(number)
        elif ends.get(number) is None or printed.get(words) != ends[number]:
            wrong.add(number)
            printed[words] = ends.get(number)
    return wrong


def _pages(document) -> tuple[dict[str, int], dict[str, int]]:
    """(the page each printed note starts on, the page on which the element before each note
    ends), by note number."""
    starts: dict[str, int] = {}
    ends: dict[str, int] = {}
    for n, box, element in elements(document):
        for after in (element.get("data-note-after") or "").split():
            ends[after] = n
        number = element.get("data-note")
        if number is not None and box.element_tag == "p":
            starts.setdefault(number, n)
    return starts, ends


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
