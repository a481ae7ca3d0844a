"""The top-level blocks of the rulebook's chapters (the children of a chapter's <section>,
which the book lays out in columns): the block that holds a wide table spans the columns, or
leaves them to be turned on pages of its own — placed, as a book places a float, where a
page of the text around it ends, so that no page before it is left half empty.

Either way the block leaves its chapter's columns: the section closes before it and goes on
after it (`continued`). WeasyPrint's multi-column layout does not support `column-span`
(its documentation says so, and a short chapter with three spanning tables fails its page
layout: tests/upstream/weasyprint-column-span.html), so nothing spans inside the columns."""

from __future__ import annotations

import re

# a start or end tag: (/ or nothing, the name); the elements that have no end tag
TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>")
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
_CHAPTER = re.compile(r'<section class="chapter\b')
TURNED_AFTER = re.compile(r"(\d+)@(\d+)")  # a decision: table N turned, placed before block J


def blocks(html: str) -> list[tuple[int, int]]:
    """(start, end) in `html` of every top-level block of every chapter, in order."""
    found = []
    for section in _CHAPTER.finditer(html):
        depth, start = 0, 0
        for tag in TAG.finditer(html, section.start()):
            if tag.group(2).lower() in VOID or tag.group(0).endswith("/>"):
                if depth == 1:
                    found.append((tag.start(), tag.end()))
            elif tag.group(1):
                depth -= 1
                if depth == 1:
                    found.append((start, tag.end()))
                elif depth == 0:
                    break
            else:
                depth += 1
                if depth == 2:
                    start = tag.start()
    return found


def holding(html: str, number: str) -> int | None:
    """The index of the block that holds the table `number` (the table, or a rule around it)."""
    at = html.find(f'<table data-table="{number}"')
    return next((k for k, (start, end) in enumerate(blocks(html)) if start <= at < end), None) if at >= 0 else None


def headed(html: str, k: int, found: list[tuple[int, int]] | None = None) -> int:
    """The index of the first of the headings right before block `k` (or `k`): they go
    where it goes, since a heading left above a block that moves or spans would stand alone."""
    found = blocks(html) if found is None else found
    while k > 0 and _HEADING.match(html, found[k - 1][0]) and not html[found[k - 1][1]:found[k][0]].strip():
        k -= 1
    return k


_HEADING = re.compile(r"<h[1-6]\b")


def spanning(html: str, number: str) -> str:
    """The block holding the table `number` inside a block that spans the page's columns:
    WeasyPrint spans a child of the columns, not a table nor anything deeper."""
    k = holding(html, number)
    if k is None:
        return html
    found = blocks(html)
    return _out_of_columns(html, found[headed(html, k, found)][0], found[k][1], "span-columns")


def turning(html: str, number: str, before: int | None = None) -> str:
    """The block holding the table `number` out of the columns, to be turned on pages of its
    own: its chapter's section closes before it and goes on after it (WeasyPrint changes
    pages only outside columns). With `before` (a block's index), it is placed before that
    later block instead of where it stands."""
    k = holding(html, number)
    if k is None:
        return html
    found = blocks(html)
    if before is None or not k < before < len(found):  # in place: with the headings above it
        return _out_of_columns(html, found[headed(html, k, found)][0], found[k][1], "turned")
    # moved as a float: the text, headings and all, stays as it stands
    start, end = found[k]
    block = html[start:end]
    at = found[before][0]
    opening = html.rfind("<section", 0, at)
    if not html[html.index(">", opening) + 1:at].strip():  # the first block of its chapter: before the chapter
        return f'{html[:start]}{html[end:opening]}<div class="turned">{block}</div>{html[opening:]}'
    moved = f"{html[:start]}{html[end:at]}{block}{html[at:]}"
    return _out_of_columns(moved, at - (end - start), at, "turned")


def _out_of_columns(html: str, start: int, end: int, kind: str) -> str:
    """`html` with html[start:end] (top-level blocks of one chapter) out of the chapter's
    columns, in a <div class="KIND">: the chapter's section closes before it and goes on after
    it as a `continued` section with the same `data-src`. A section left with nothing before
    the block stays (empty: it carries the chapter's page break and its space above); none is
    opened for nothing after it."""
    opening = [m for m in _CHAPTER.finditer(html, 0, start)][-1]
    tag = html[opening.start():html.index(">", opening.start()) + 1]
    src = re.search(r'\sdata-src="[^"]*"', tag)
    rest = html[end:]
    closing = re.match(r"\s*</section>", rest)
    reopened = "" if closing else f'<section class="chapter continued"{src.group(0) if src else ""}>'
    after = rest[closing.end():] if closing else rest
    return f'{html[:start]}</section><div class="{kind}">{html[start:end]}</div>{reopened}{after}'


def tables_apart(html: str, leave: frozenset[str] | set[str] = frozenset()) -> str | None:
    """The book's HTML with only the chapters' blocks that hold a table (with the headings
    right above them), each in a section of its own opened as its chapter's is: a table is
    as wide in a column as the table and the column's width make it, wherever the column is,
    so this small document tells which tables are too wide for their column without laying
    the whole book out. The tables numbered in `leave` (known to span: what they hold spans
    with them) are left out, and the blocks left with no table. Its columns are filled one
    after the other (`UNBALANCED`). None for a book without other tables."""
    found = blocks(html)
    kept = {}
    for k, (start, end) in enumerate(found):
        held = without_tables(html[start:end], leave) if '<table data-table="' in html[start:end] else ""
        if '<table data-table="' in held:
            kept[k] = held
    if not kept:
        return None
    head, body, end = html.index("</head>"), html.index("<body>") + len("<body>"), html.rindex("</body>")
    openings = [(m.start(), html[m.start():html.index(">", m.start()) + 1]) for m in _CHAPTER.finditer(html)]
    pieces = [html[:head], UNBALANCED, html[head:body]]
    for k, held in kept.items():
        start = found[headed(html, k, found)][0]
        tag = [tag for at, tag in openings if at < start][-1]
        pieces.append(f"{tag}{html[start:found[k][0]]}{held}</section>")
    pieces.append(html[end:])
    return "".join(pieces)


# The tables apart fill their columns one after the other: a column is as wide however full
# it is, and balancing the columns of each section lays it out several times over.
UNBALANCED = "<style>.chapter { column-fill: auto; }</style>"

_ROW = re.compile(r"<(/?)(table|tr|td|th)\b([^>]*)>", re.IGNORECASE)
_COLSPAN = re.compile(r'\bcolspan="?(\d+)')


def without_tables(html: str, numbers: frozenset[str] | set[str]) -> str:
    """`html` without the tables numbered in `numbers` (and what they hold)."""
    cut: list[tuple[int, int]] = []
    opened: list[tuple[str | None, int]] = []
    for tag in re.finditer(r'<(/?)table\b([^>]*)>', html, re.IGNORECASE):
        if not tag.group(1):
            number = re.search(r'data-table="(\d+)"', tag.group(2))
            opened.append((number.group(1) if number else None, tag.start()))
        elif opened:
            number, start = opened.pop()
            if number in numbers and not any(a <= start < b for a, b in cut):
                cut = [(a, b) for a, b in cut if not start <= a < tag.end()] + [(start, tag.end())]
    for start, end in sorted(cut, reverse=True):
        html = html[:start] + html[end:]
    return html


def columns(html: str) -> dict[str, int]:
    """Each numbered table's columns as its widest row counts them (cells and their colspans;
    a table nested in a cell counts apart): at least as many as the table lays out."""
    out: dict[str, int] = {}
    stack: list[list] = []  # per open table: [number, cells in the row, widest row]
    for tag in _ROW.finditer(html):
        closing, name, attributes = tag.group(1), tag.group(2).lower(), tag.group(3)
        if name == "table":
            if closing and stack:
                number, cells, widest = stack.pop()
                if number is not None:
                    out[number] = max(widest, cells)
            elif not closing:
                number = re.search(r'data-table="(\d+)"', attributes)
                stack.append([number.group(1) if number else None, 0, 0])
        elif stack and name == "tr" and not closing:
            stack[-1][2], stack[-1][1] = max(stack[-1][2], stack[-1][1]), 0
        elif stack and name in ("td", "th") and not closing:
            span = _COLSPAN.search(attributes)
            stack[-1][1] += int(span.group(1)) if span else 1
    return out


def numbered(html: str) -> str:
    """`html` with `data-block="K"` on each block's start tag, for a layout to tell where each is."""
    for k, (start, _end) in reversed(list(enumerate(blocks(html)))):
        tag = TAG.match(html, start)
        html = f'{html[:tag.end(2)]} data-block="{k}"{html[tag.end(2):]}'
    return html


def without(html: str, k: int) -> str:
    start, end = blocks(html)[k]
    return html[:start] + html[end:]


def pages_of_blocks(document) -> dict[int, tuple[int, int]]:
    """The first and last page (0-based) each numbered block is laid out on."""
    found: dict[int, tuple[int, int]] = {}

    def walk(box, page: int) -> None:
        element = getattr(box, "element", None)
        number = element.get("data-block") if element is not None else None
        if number is not None and number.isdigit():
            first, _last = found.get(int(number), (page, page))
            found[int(number)] = (first, page)
            return
        for child in getattr(box, "children", ()) or ():
            walk(child, page)

    for n, page in enumerate(document.pages):
        walk(page._page_box, n)
    return found


def float_place(document, k: int) -> int | None:
    """Where block `k` (left out of the layout `document` of the numbered book) goes to start
    on a new page: before the first later block that starts after the page on which the
    block before it ends. None where it may stay."""
    pages = pages_of_blocks(document)
    if k - 1 not in pages:
        return None
    ends = pages[k - 1][1]
    later = sorted(j for j, (first, _last) in pages.items() if j > k and first > ends)
    return later[0] if later and later[0] > k + 1 else None
