"""Book typography, measured on the PDF: an A4 rulebook is set in two columns whose lines keep
a reader's measure (none over 80 characters) and whose pages are filled (none under 35 %
but the book's last), chapters run on unless one asks for a new page, and an A5 book has
mirrored margins, only portrait pages (a wide table turned on one) and a page count that
is a multiple of four. Settings per paper come from print.yaml (`books:`)."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest

from generator.print.jobs import Job, run_job
from generator.print.bookblocks import blocks, spanning, turning

MM = 72 / 25.4
TOP, BOTTOM = 20 * MM, 22 * MM  # the A4 book's margins (templates/print.yaml)


@pytest.fixture(autouse=True)
def _release_output_confinement():
    yield
    from generator import outputs
    outputs.confine_to(None)


def _build(root, game: str, lang: str, book: str):
    result = run_job(Job(root, game, lang, "rulebook", book=book, images=False))
    assert result.error is None, result.error
    assert [d for d in result.diagnostics if d.code.startswith("E")] == []
    return pdfium.PdfDocument(str(result.files[0]))


@pytest.fixture(scope="module", params=["rock-n-roll", "battle-rules"])
def a4(shipped, request):
    """Russian rulebooks on A4: rock-n-roll's, the longest book, with the most chapters, and
    battle-rules', whose unit table is wider than the page (it spans, then turns)."""
    return _build(shipped, request.param, "ru", "a4")


@pytest.fixture(scope="module")
def a5(shipped):
    """battle-rules' English rulebook on A5: its unit table is wider than an A5 page."""
    return _build(shipped, "battle-rules", "en", "a5")


def text_lines(page) -> list[tuple[str, float, float, float, float]]:
    """The page's lines of text as (text, left, bottom, right, top): characters on one
    baseline with no gap wider than a column gap between them. A contents leader's dots
    count as one space."""
    textpage = page.get_textpage()
    lines, line = [], []
    for i in range(textpage.count_chars()):
        char = textpage.get_text_range(i, 1)
        if not char.strip():
            if line:
                line.append((" ", *line[-1][1:]))
            continue
        left, bottom, right, top = textpage.get_charbox(i, loose=True)
        if line and (abs(bottom - line[-1][2]) > 3 or left - line[-1][3] > 8 or left < line[-1][1] - 1):
            lines.append(line)
            line = []
        line.append((char, left, bottom, right, top))
    lines.append(line) if line else None
    return [(re.sub(r"\.{3,}|\s{2,}", " ", "".join(c[0] for c in chars)).strip(),
             min(c[1] for c in chars), min(c[2] for c in chars), max(c[3] for c in chars), max(c[4] for c in chars))
            for chars in lines]


def body_lines(page):
    """The lines between the running head and the folio."""
    height = page.get_height()
    return [line for line in text_lines(page) if line[2] > 16 * MM and line[4] < height - 16 * MM]


def fill(page) -> float:
    """How far down the text area a page's text reaches (0–1); with two columns, the mean of
    the columns' depths."""
    lines = body_lines(page)
    if not lines:
        return 0.0
    top, bottom, middle = page.get_height() - TOP, BOTTOM, page.get_width() / 2
    depth = lambda group: (top - min(line[2] for line in group)) / (top - bottom) if group else 0.0  # noqa: E731
    left = [line for line in lines if line[3] <= middle + 2]
    right = [line for line in lines if line[1] >= middle - 2]
    if right and len(left) + len(right) == len(lines):
        return (depth(left) + depth(right)) / 2
    return depth(lines)


def test_a4_lines_keep_a_readers_measure(a4):
    longest = max((len(line[0]), n + 1, line[0]) for n in range(len(a4)) for line in body_lines(a4[n]))
    assert longest[0] <= 80, longest
    assert longest[0] >= 45  # a line of a column, not of a table's cell only


def test_a4_body_is_set_in_two_columns(a4):
    middle = a4[0].get_width() / 2
    two = [n for n in range(2, len(a4)) if any(line[3] < middle - 2 for line in body_lines(a4[n]))
           and any(line[1] > middle + 2 for line in body_lines(a4[n]))]
    assert len(two) >= len(a4) * 2 // 3


def test_a4_pages_are_filled(a4):
    """Chapters run on: no page is left under a third full but the last (no shipped chapter
    asks for a new page)."""
    under = [(n + 1, round(fill(a4[n]) * 100)) for n in range(1, len(a4) - 1) if fill(a4[n]) < 0.35]
    assert under == []


def test_a5_book_is_portrait_mirrored_and_folds(a5):
    sizes = {(round(a5[n].get_width()), round(a5[n].get_height())) for n in range(len(a5))}
    assert sizes == {(420, 595)}  # every page A5 portrait: a wide table is turned, not its page
    assert len(a5) % 4 == 0
    turned = [n for n in range(len(a5)) if _sideways(a5[n])]
    assert turned, "the unit table is wider than an A5 page: it prints turned"
    # inner margin 20 mm on the binding side, outer 14 mm: right pages (odd) start further right
    lefts = {n: min(line[1] for line in body_lines(a5[n])) / MM for n in range(2, 8) if n not in turned}
    for n, left in lefts.items():
        assert abs(left - (20 if n % 2 == 0 else 14)) < 1.5, (n + 1, left)


def _sideways(page) -> bool:
    """Most of the page's characters are taller than wide: its text runs up the page."""
    textpage = page.get_textpage()
    boxes = [textpage.get_charbox(i) for i in range(textpage.count_chars()) if textpage.get_text_range(i, 1).isalpha()]
    tall = [b for b in boxes if (b[3] - b[1]) > 1.3 * (b[2] - b[0])]
    return bool(boxes) and len(tall) > len(boxes) / 2


def test_a_chapter_asks_for_a_new_page(tmp_path):
    """`{.new-page}` before a chapter's heading starts it on a page of its own; a chapter
    without it runs on after the one before."""
    from generator.commands.new import scaffold

    scaffold(tmp_path / "content" / "demo", "demo", "Demo")
    rules = tmp_path / "content" / "demo" / "rules"
    rules.mkdir(exist_ok=True)
    for name in list(rules.iterdir()):
        name.unlink()
    (rules / "01-one.md").write_text("# Alpha\n\nThe first chapter.\n", encoding="utf-8")
    (rules / "02-two.md").write_text("# Beta\n\nThe second chapter runs on.\n", encoding="utf-8")
    (rules / "03-three.md").write_text("{.new-page}\n# Gamma\n\nThe third starts a page.\n", encoding="utf-8")
    book = _build(tmp_path, "demo", "en", "a4")
    starts = {title: n for n in range(len(book)) for line in body_lines(book[n])
              for title in ("Alpha", "Beta", "Gamma") if line[0] == title}
    assert starts["Alpha"] == starts["Beta"] and starts["Gamma"] > starts["Beta"]
    assert max(line[4] for line in body_lines(book[starts["Gamma"]])) == max(
        line[4] for line in body_lines(book[starts["Gamma"]]) if line[0] == "Gamma")


def test_a_table_spans_the_columns_with_the_block_that_holds_it():
    """The block leaves the columns: the chapter's section closes before it and goes on after
    it (WeasyPrint's columns support no column-span)."""
    html = ('<section class="chapter"><p>a</p><div class="rule"><p>b<br></p>'
            '<table data-table="0"><tr><td><table data-table="1"></table></td></tr></table></div><p>c</p></section>')
    assert spanning(html, "0") == ('<section class="chapter"><p>a</p></section><div class="span-columns"><div class="rule">'
                                    '<p>b<br></p><table data-table="0"><tr><td><table data-table="1"></table></td>'
                                    '</tr></table></div></div><section class="chapter continued"><p>c</p></section>')
    # a heading right above it spans with it: left in the columns above it, it would stand alone;
    # last in its chapter, no empty section is opened after it
    headed = '<section class="chapter"><p>a</p><h2>T</h2><table data-table="0"></table></section>'
    assert spanning(headed, "0") == ('<section class="chapter"><p>a</p></section><div class="span-columns"><h2>T</h2>'
                                     '<table data-table="0"></table></div>')
    # first in its chapter: the chapter's own section stays before it (its page break, its space
    # above); the part after it keeps the chapter's source for the layout check
    first = ('<section class="chapter appendix new-page" data-src="data/t.yaml:1"><h1>T</h1>'
             '<table data-table="0"></table>\n<p>b</p>\n</section>')
    assert spanning(first, "0") == ('<section class="chapter appendix new-page" data-src="data/t.yaml:1"></section>'
                                    '<div class="span-columns"><h1>T</h1><table data-table="0"></table></div>'
                                    '<section class="chapter continued" data-src="data/t.yaml:1">\n<p>b</p>\n</section>')


def test_a_turned_table_goes_where_a_page_ends():
    html = ('<section class="chapter"><h1>A</h1><div class="rule"><table data-table="0"></table></div>'
            '<p>b</p><p>c</p></section><section class="chapter"><h1>D</h1><p>e</p></section>')
    assert [html[s:e] for s, e in blocks(html)] == ["<h1>A</h1>", '<div class="rule"><table data-table="0"></table></div>',
                                                   "<p>b</p>", "<p>c</p>", "<h1>D</h1>", "<p>e</p>"]
    # before block 3 (<p>c</p>): the chapter's section closes round the turned block
    assert turning(html, "0", 3) == ('<section class="chapter"><h1>A</h1><p>b</p></section><div class="turned">'
                                     '<div class="rule"><table data-table="0"></table></div></div>'
                                     '<section class="chapter continued"><p>c</p></section>'
                                     '<section class="chapter"><h1>D</h1><p>e</p></section>')
    # before the next chapter's first block: between the chapters, no empty section
    assert turning(html, "0", 4) == ('<section class="chapter"><h1>A</h1><p>b</p><p>c</p></section>'
                                     '<div class="turned"><div class="rule"><table data-table="0"></table></div></div>'
                                     '<section class="chapter"><h1>D</h1><p>e</p></section>')


def test_a_game_sets_a_paper_its_own_way(tmp_path):
    from generator.print.bookpages import book_layout, page_css
    from generator.print.context import PACKAGE_TEMPLATES

    (tmp_path / "print.yaml").write_text("books:\n  a4: {columns: 1, inner: 25, outer: 15, mirrored: true}\n")
    mine, shipped_a5 = book_layout([tmp_path, PACKAGE_TEMPLATES], "a4"), book_layout([tmp_path, PACKAGE_TEMPLATES], "a5")
    assert (mine.columns, mine.pad_to) == (1, 1) and shipped_a5.pad_to == 4 and shipped_a5.mirrored
    css = page_css(mine)
    assert "@page :left { margin-left: 15.0mm; margin-right: 25.0mm; }" in css and "columns:" not in css
    assert ".chapter { columns: 2; column-gap: 7.0mm; }" in page_css(book_layout([PACKAGE_TEMPLATES], "letter"))


def test_book_settings_are_checked(ws):
    ws.write("print.yaml", "books:\n  a4: {columns: 3}\n")
    errors = [d for d in ws.validate().diagnostics if d.code.startswith("E")]
    assert errors and "print.yaml" in str(errors[0].location.path) and errors[0].location.line == 2
