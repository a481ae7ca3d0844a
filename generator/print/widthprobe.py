"""A first look at which tables are too wide, before the document is laid out: a table cut
to its head and, for each column, the row with the column's longest word (and the one with
its longest word of other characters than letters, which hyphenation does not break) (`cut`)
lays out in a fraction of the time.

A table's narrowest width is that of its widest cells, column by column: fewer rows can only
make it narrower. So a table too wide cut is too wide whole. The reference sheet cut to its
sections' tables (`narrowed`) tells the sections that span the sheet from its first layout
(reference.fit_reference); the rulebook's tables of many columns cut tell those wider than
the page, turned from its first layout (rulebook._surely_turned). What the cut misses (a long
word in a row left out, or outside a table) is found by that layout, as before."""

from __future__ import annotations

import re

from .bookblocks import TAG, VOID

_SECTION = re.compile(r'<section class="ref-section\b')
_PART = re.compile(r"<(/?)(table|thead|tr)\b[^>]*>", re.IGNORECASE)
_CELL_PART = re.compile(r"<(/?)(table|td|th)\b[^>]*>", re.IGNORECASE)
_MARKUP = re.compile(r"<[^>]+>")
_NUMBERED = re.compile(r'<table data-table="(\d+)"')


def narrowed(html: str) -> str | None:
    """The sheet's HTML (reference.sheet_html) with each section holding only its tables, each
    cut to its head and widest row, and the sections without a table left out. None for a
    sheet without tables."""
    pieces, at, found = [], 0, False
    for section in _SECTION.finditer(html):
        if section.start() < at:  # inside one already cut
            continue
        opening_end = html.index(">", section.start()) + 1
        end = element_end(html, section.start())
        tables = [_cut(table) for table in _tables(html[opening_end:end - len("</section>")])]
        pieces.append(html[at:section.start()])
        if tables:
            found = True
            pieces.append(html[section.start():opening_end] + "".join(tables) + "</section>")
        at = end
    pieces.append(html[at:])
    return "".join(pieces) if found else None


def cut(html: str, numbers: set[str] | frozenset[str]) -> str:
    """`html` (the rulebook's, its tables numbered) with each table numbered in `numbers` cut
    to its head and widest rows."""
    pieces, at = [], 0
    for table in _NUMBERED.finditer(html):
        if table.start() < at or table.group(1) not in numbers:
            continue
        end = element_end(html, table.start())
        pieces += [html[at:table.start()], _cut(html[table.start():end])]
        at = end
    return "".join(pieces) + html[at:]


def element_end(html: str, start: int) -> int:
    """The end of the element that starts at `start` (after its end tag)."""
    depth = 0
    for tag in TAG.finditer(html, start):
        if tag.group(2).lower() in VOID or tag.group(0).endswith("/>"):
            continue
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return tag.end()
    return len(html)


def _tables(html: str) -> list[str]:
    """The tables of `html` that no other table holds, in order."""
    out, depth, start = [], 0, 0
    for tag in _PART.finditer(html):
        if tag.group(2).lower() != "table":
            continue
        if not tag.group(1):
            depth += 1
            if depth == 1:
                start = tag.start()
        elif depth:
            depth -= 1
            if depth == 0:
                out.append(html[start:tag.end()])
    return out


def _cut(table: str) -> str:
    """The table with its head rows (or its first row, without a head) and, for each column,
    the first row whose cell there holds the column's longest word, and the first whose cell
    holds its longest word with other characters than letters (`_longest_words`)."""
    rows = _rows(table)
    head = [row for row in rows if row[2]] or rows[:1]
    body = [row for row in rows if row not in head]
    if len(body) < 2:
        return table
    words = [[_longest_words(cell) for cell in _cells(table[start:end])] for start, end, _head in body]
    kept = set()
    for column in range(max(map(len, words))):
        for kind in (0, 1):
            length = [row[column][kind] if column < len(row) else 0 for row in words]
            if max(length):
                kept.add(length.index(max(length)))
    pieces, at = [], 0
    for n, row in enumerate(body):
        pieces.append(table[at:row[1]] if n in kept else table[at:row[0]])
        at = row[1]
    return "".join(pieces) + table[at:]


def _rows(table: str) -> list[tuple[int, int, bool]]:
    """(start, end, in its head) of each row of `table`, not of the tables nested in it."""
    rows, depth, start, head = [], 0, -1, False
    for tag in _PART.finditer(table):
        closing, name = tag.group(1), tag.group(2).lower()
        if name == "table":
            depth += -1 if closing else 1
        elif depth == 1 and name == "thead":
            head = not closing
        elif depth == 1 and name == "tr":
            if not closing:
                start = tag.start()
            elif start >= 0:
                rows.append((start, tag.end(), head))
                start = -1
    return rows


def _cells(row: str) -> list[str]:
    """The row's own cells (a table nested in one is part of it)."""
    cells, depth, start = [], 0, -1
    for tag in _CELL_PART.finditer(row):
        closing, name = tag.group(1), tag.group(2).lower()
        if name == "table":
            depth += -1 if closing else 1
        elif depth == 0 and not closing:
            start = tag.start()
        elif depth == 0 and start >= 0:
            cells.append(row[start:tag.end()])
            start = -1
    return cells


def _longest_words(cell: str) -> tuple[int, int]:
    """The length of the cell's longest word, and of its longest word with a character other
    than a letter (a dice roll, a range: no hyphenation breaks it, so it may be the widest)."""
    words = _MARKUP.sub(" ", cell).split()
    return (max((len(word) for word in words), default=0),
            max((len(word) for word in words if not word.isalpha()), default=0))
