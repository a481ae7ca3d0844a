"""The rulebook is laid out whole as few times as its decisions allow: which tables are too
wide for their column is told by a layout of the blocks holding tables only
(bookblocks.tables_apart); the whole book is laid out with them spanning and without the
notes a page most likely repeats (print/notes.py), and again only where that guess was wrong.
A table that layout finds too wide after all sends the book through the whole-book fitting,
with the same decision."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.core.diagnostics import Report
from generator.print import bookblocks, rulebook
from generator.print.context import BuildContext
from generator.project import Project

from .conftest import REPO

# frames/en: a table spans the columns and four notes a page repeats are left out
FRAMES_EN = ["span-0", "note-1", "note-2", "note-3", "note-4"]


@pytest.fixture(autouse=True)
def _release_output_confinement():
    yield
    from generator import outputs
    outputs.confine_to(None)


def _context(root: Path, game: str = "frames", lang: str = "en") -> BuildContext:
    shutil.copytree(REPO / "content" / game, root / "content" / game)
    loaded = Project(root).load(game, Report(), checks=False)
    return BuildContext(loaded, lang, root)


def test_tables_apart_hold_every_table_and_nothing_else(tmp_path):
    html = rulebook.book_html(_context(tmp_path, "nuclear", "ru"))
    apart = bookblocks.tables_apart(html)
    tables = re.findall(r'<table data-table="(\d+)"', html)
    assert tables and re.findall(r'<table data-table="(\d+)"', apart) == tables
    assert 'class="cover"' not in apart and 'class="toc"' not in apart
    head = html.index("</head>")
    # the book's own styles and page rules, its columns filled one after the other
    assert apart.startswith(html[:head] + bookblocks.UNBALANCED + html[head:html.index("<body>")])
    # every block of the small document holds a table or is a heading right above one
    found = bookblocks.blocks(apart)
    assert all("<table" in apart[start:end] or re.match(r"<h[1-6]", apart[start:end]) for start, end in found)
    assert len(found) < len(bookblocks.blocks(html)) / 2
    assert bookblocks.tables_apart(html.replace("<table", "<div").replace("</table>", "</div>")) is None


def test_the_tables_apart_fill_their_columns_unbalanced_and_tell_the_same_tables(tmp_path):
    """Balancing the columns of each section of the tables apart would lay it out several times
    over; a column is as wide however full it is, so the same tables are too wide for it."""
    from generator.print.pdf import render_document

    ctx = _context(tmp_path, "deadzone", "ru")
    html = rulebook.book_html(ctx)
    many = {n for n, count in bookblocks.columns(html).items() if count >= 4}
    apart = bookblocks.tables_apart(html, many)
    # a line too long for a column in one of the tables: that table is too wide for it
    cell = re.search(r'<table data-table="(\d+)".*?<td>', apart, re.DOTALL)
    apart = (apart[:cell.end()] + '<span style="white-space: nowrap">' + "слово " * 40 + "</span>"
             + apart[cell.end():])
    found = []
    for probe in (apart, apart.replace(bookblocks.UNBALANCED, "")):
        laid_out = render_document(probe, ctx.game.folder, ctx.roots)[0]
        found.append(rulebook._wide_tables(laid_out, 4))
    assert found[0] == found[1] == {cell.group(1)}


def _whole_layouts(monkeypatch) -> list[str]:
    """The HTML of every layout of the whole book (with its contents) from now on."""
    laid_out: list[str] = []
    render = rulebook.render_document

    def counting(html, *args, **kwargs):
        if 'class="toc"' in html:
            laid_out.append(html)
        return render(html, *args, **kwargs)

    monkeypatch.setattr(rulebook, "render_document", counting)
    return laid_out


def test_the_book_is_laid_out_whole_once_per_decision_that_needs_it(tmp_path, monkeypatch):
    ctx = _context(tmp_path)
    laid_out = _whole_layouts(monkeypatch)
    html = rulebook.rulebook_html(ctx)
    # the book with its table spanning and without the notes a page repeats: once
    assert len(laid_out) == 1
    assert rulebook._fitted(rulebook.book_html(ctx), FRAMES_EN) == html


def test_a_table_the_tables_apart_miss_sends_the_book_through_the_whole_fitting(tmp_path, monkeypatch):
    ctx = _context(tmp_path)
    monkeypatch.setattr(rulebook, "_crowded", lambda *args: set())
    laid_out = _whole_layouts(monkeypatch)
    html = rulebook.rulebook_html(ctx)
    assert rulebook._fitted(rulebook.book_html(ctx), FRAMES_EN) == html
    assert len(laid_out) == 3  # the book without spans twice, then with its span


def test_a_table_of_many_columns_spans_without_being_laid_out_apart(tmp_path, monkeypatch):
    """A table of `spanning` columns or more spans whatever its width: its columns are counted
    in the HTML (the widest row, colspans included), and only the other tables are laid out
    apart. nuclear's 3-column tables stand in the rows of its 6-column roster and span with
    it, so its book needs no layout of its tables apart."""
    html = ('<table data-table="0"><tr><th colspan="3">a</th></tr><tr><td>1</td><td>2'
            '<table data-table="1"><tr><td>x</td></tr></table></td></tr></table>'
            '<table data-table="2"><tr><td>1</td></tr><tr><td>1</td><td>2</td><td>3</td><td>4</td></tr></table>')
    assert bookblocks.columns(html) == {"0": 3, "1": 1, "2": 4}
    assert bookblocks.without_tables(html, {"0"}).startswith('<table data-table="2"')
    ctx = _context(tmp_path, "nuclear", "ru")
    book = rulebook.book_html(ctx)
    many = {n for n, count in bookblocks.columns(book).items() if count >= 4}
    assert {"0", "1"} <= many
    apart = []
    real = rulebook.render_document
    monkeypatch.setattr(rulebook, "render_document", lambda h, *a, **k: apart.append(h) or real(h, *a, **k))
    crowded = rulebook._crowded(ctx, book, 4)
    assert apart == [] and crowded == many
