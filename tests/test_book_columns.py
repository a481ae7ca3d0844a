"""Books that always lay out. WeasyPrint's multi-column layout does not support `column-span`
(its documentation says so), and a short two-column chapter with three spanning blocks makes
its page layout fail (tests/upstream/weasyprint-column-span.html, kept to report upstream). The
rulebook takes a wide table out of the columns instead (bookblocks.py), and a book whose
columns WeasyPrint still cannot lay out is laid out in one column with a warning (W045). A
hex-and-counter game of the shape that first failed (tests/fixtures/hexwar: six short chapters,
a combat results table, a terrain table, unit tables) builds in every book format. The
generated books of every kind of content are test_book_generated.py."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from weasyprint import HTML

from generator.print.bookblocks import spanning
from generator.print.jobs import Job, run_job
from generator.print.pdf import LayoutFailed, render_document

from .bad_input import columns_failing_template
from .conftest import REPO, Workspace

UPSTREAM = REPO / "tests" / "upstream" / "weasyprint-column-span.html"


@pytest.fixture(autouse=True)
def _release_output_confinement():
    yield
    from generator import outputs
    outputs.confine_to(None)


def test_weasyprint_still_fails_on_the_reported_page():
    """When this fails, WeasyPrint lays the reported page out: the upstream bug is fixed (say
    so in tests/upstream/, and the W045 fallback may then never be needed)."""
    with pytest.raises(AssertionError):
        HTML(filename=str(UPSTREAM)).render()


def test_the_reported_chapter_lays_out_with_its_tables_out_of_the_columns():
    """The reported page's chapter as the rulebook writes it (each table spanning the columns
    with the heading above it) lays out, with each table as wide as the page, none in a column."""
    rows = lambda n: "".join(f"<tr><td>{i}</td></tr>" for i in range(n))  # noqa: E731
    words = "Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod. "
    chapter = (f'<section class="chapter"><h1>Chapter</h1><h2>H</h2><table data-table="0">{rows(10)}</table>'
               f"<p>{words * 2}</p><p>{words}</p><p>{words * 2}</p><table data-table=\"1\">{rows(6)}</table>"
               f'<h2>H</h2><table data-table="2">{rows(9)}</table></section>')
    for number in "012":
        chapter = spanning(chapter, number)
    assert "column-span" not in chapter and chapter.count('<div class="span-columns">') == 3
    html = f"<style>.chapter {{ columns: 2; column-gap: 7mm }} table {{ width: 100% }}</style>{chapter}"
    document, _ = render_document(html, REPO, [REPO])
    page = document.pages[0]._page_box
    widths = [box.width for box in _boxes(page) if type(box).__name__ == "TableBox"]
    paragraphs = [box.width for box in _boxes(page) if getattr(box, "element_tag", "") == "p"]
    assert len(widths) == 3 and min(widths) > 1.9 * max(paragraphs)  # the page's width; the text in columns


def _boxes(box):
    yield box
    for child in getattr(box, "children", ()) or ():
        yield from _boxes(child)


def test_a_book_whose_columns_fail_is_laid_out_in_one_column(tmp_path):
    ws = Workspace(tmp_path)
    ws.write("templates/rulebook.html.j2", columns_failing_template())
    result = run_job(Job(ws.root, "demo", "en", "rulebook", images=False))
    assert result.error is None, result.error
    warnings = [d for d in result.diagnostics if d.code == "W045"]
    assert len(warnings) == 1 and "demo/en/rulebook.pdf (a4)" in warnings[0].message
    assert "AssertionError" in warnings[0].message and warnings[0].location.path == ws.game
    pdf = pdfium.PdfDocument(str(result.files[0]))
    page = pdf[0]
    text = page.get_textpage()
    middle = page.get_width() / 2
    across = [i for i in range(text.count_chars()) if text.get_text_range(i, 1).isalpha()
              and abs(sum(text.get_charbox(i)[::2]) / 2 - middle) < 3 * 72 / 25.4]
    assert across  # letters where two columns leave their gap: one column


def test_a_book_that_fails_in_one_column_too_is_an_error(tmp_path, monkeypatch):
    from generator.print import rulebook

    def fails(*_args, **_kwargs):
        raise LayoutFailed("AssertionError: forced")

    monkeypatch.setattr(rulebook, "render_document", fails)
    ws = Workspace(tmp_path)
    with pytest.raises(LayoutFailed, match="forced"):  # the build reports it as the document's error
        run_job(Job(ws.root, "demo", "en", "rulebook", images=False))
    assert not (ws.root / "output" / "demo" / "en" / "rulebook.pdf").exists()


def _hexwar(root: Path) -> Path:
    shutil.copytree(REPO / "tests" / "fixtures" / "hexwar", root / "content" / "hexwar")
    return root


def _built(root: Path, lang: str, book: str, booklet: bool = False):
    result = run_job(Job(root, "hexwar", lang, "rulebook", book=book, booklet=booklet, images=False))
    assert result.error is None, result.error
    assert [d for d in result.diagnostics if d.code.startswith("E") or d.code == "W045"] == []
    return result


def test_the_hex_and_counter_game_builds_in_two_columns(tmp_path):
    """The shape that first failed: the A4 book in two columns, its wide tables across them."""
    result = _built(_hexwar(tmp_path), "en", "a4")
    pdf = pdfium.PdfDocument(str(result.files[0]))
    assert len(pdf) == result.pages >= 3
    # the results table spans the page: its last column's heading is right of the page's middle
    page = next(p for p in pdf if "Combat results" in p.get_textpage().get_text_range())
    text = page.get_textpage()
    heading = text.get_text_range().index("6-1")
    assert text.get_charbox(heading)[0] > page.get_width() / 2


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_hex_and_counter_game_builds_in_every_book_format(tmp_path, lang):
    root = _hexwar(tmp_path)
    pages = {}
    for book in ("a4", "letter", "a5"):
        pages[book] = len(pdfium.PdfDocument(str(_built(root, lang, book, booklet=book == "a5").files[0])))
    booklet = root / "output" / "hexwar" / lang / "rulebook-booklet.pdf"
    assert booklet.is_file() and len(pdfium.PdfDocument(str(booklet))) == pages["a5"] // 2
    assert pages["a5"] % 4 == 0 and pages["a5"] > pages["a4"]
