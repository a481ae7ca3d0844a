"""The home booklet (`rulesmith build --booklet`): the A5 rulebook two pages up on A4, in
saddle-stitch order, blanks to a multiple of four, the instruction on the first sheet."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest
from pdfua import Severity, validate

from generator.print.booklet import sheet_sides
from generator.print.jobs import Job, run_job

MM = 72 / 25.4


def test_saddle_stitch_order():
    # one sheet folded: its front carries the last and first pages, its back the second and third
    assert sheet_sides(4) == [(3, 0), (1, 2)]
    assert sheet_sides(8) == [(7, 0), (1, 6), (5, 2), (3, 4)]
    # 6 pages fill 8 slots: the two blanks are the last pages of the book, inside the back cover
    assert sheet_sides(6) == [(None, 0), (1, None), (5, 2), (3, 4)]
    for pages in range(1, 30):
        placed = [p for side in sheet_sides(pages) for p in side]
        assert len(placed) % 4 == 0 and sorted(p for p in placed if p is not None) == list(range(pages))
        total = len(placed)
        full = sheet_sides(total)  # the same sheets with every slot a page: facing slots sum to total-1
        assert all(a + b == total - 1 for a, b in full)
        assert [tuple(p if p < pages else None for p in side) for side in full] == sheet_sides(pages)


@pytest.fixture(scope="module")
def booklet(tmp_path_factory):
    from generator.commands.new import scaffold

    root = tmp_path_factory.mktemp("booklet")
    scaffold(root / "content" / "demo", "demo", "Demo")
    result = run_job(Job(root, "demo", "en", "rulebook", book="a5", booklet=True, images=False))
    assert result.error is None, result.error
    from generator import outputs
    outputs.confine_to(None)
    return root / "output/demo/en"


def _number(page, left: bool) -> int | None:
    """The page number printed at the foot of the left or right A5 page ("3 / 8")."""
    width, height = page.get_width(), page.get_height()
    text = page.get_textpage().get_text_bounded(left=0 if left else width / 2, right=width / 2 if left else width,
                                                bottom=8 * MM, top=height)
    found = re.findall(r"(\d+) / (\d+)", text)
    return int(found[-1][0]) if found else None


def test_booklet_pages_come_in_folding_order(booklet):
    book = pdfium.PdfDocument(str(booklet / "rulebook-a5.pdf"))
    imposed = pdfium.PdfDocument(str(booklet / "rulebook-booklet.pdf"))
    pages = len(book)
    assert pages > 4 and len(imposed) == 2 * -(-pages // 4)
    assert (round(imposed[0].get_width() / MM), round(imposed[0].get_height() / MM)) == (297, 210)
    numbered = int(re.findall(r"\d+ / (\d+)", book[1].get_textpage().get_text_range())[0])
    assert pages % 4 == 0 and pages - 4 < numbered <= pages  # the A5 book comes padded to fold
    for n, side in enumerate(sheet_sides(pages)):
        shown = (_number(imposed[n], True), _number(imposed[n], False))
        # a blank (the book's own or the booklet's) and the cover print no number; any other page its own
        expected = tuple(None if p is None or p == 0 or p >= numbered else p + 1 for p in side)
        assert shown == expected, (n, shown, expected)
    first = imposed[0].get_textpage().get_text_range()
    assert "flipping on the short edge" in first and "staple on the fold" in first
    assert [f.rule_id for f in validate(str(booklet / "rulebook-booklet.pdf")).findings
            if f.severity is Severity.ERROR] == []


def test_booklet_is_an_a5_book(tmp_path):
    from .conftest import run_cli

    result = run_cli("build", "--booklet", "--book", "a4", "--only", "rulebook", cwd=tmp_path)
    assert result.returncode == 2 and "A5" in result.stderr and "Traceback" not in result.stderr
