"""The corrections that take repeated work off WeasyPrint's layout (print/layoutwork.py): each
lays out the same pages as WeasyPrint alone, box for box, with fewer layouts, and each is left
out where WeasyPrint's function is not the one it was written against."""

from __future__ import annotations

import pytest
import weasyprint
from weasyprint.css.targets import TargetCollector
from weasyprint.layout import block, page

from generator.print import layoutwork

REFERENCES = """<html><head><style>
@page { size: 120mm 90mm; margin: 10mm; }
section { break-before: page; }
a.ref::after { content: " " target-counter(attr(href), page); }
</style></head><body>
<nav><a class="ref" href="#one">One</a> <a class="ref" href="#two">Two</a> <a class="ref" href="#three">Three</a></nav>
<section id="one"><h1>One</h1><p>Text.</p></section>
<section id="two"><h1>Two</h1><p>Text.</p></section>
<section id="three"><h1>Three</h1><p>Back to <a class="ref" href="#one">one</a>.</p></section>
</body></html>"""

# chapters in two columns that begin with a block too tall to split: balancing the columns
# starts at half the chapter's height, where the block does not fit, and grows the height one
# pixel at a time until it does
COLUMNS = """<html><head><style>
@page { size: 150mm 200mm; margin: 10mm; }
.chapter { columns: 2; column-gap: 5mm; }
.box { height: 60mm; break-inside: avoid; border: 1px solid; }
p { margin: 0 0 2mm; }
</style></head><body>
<div class="chapter"><div class="box">A tall block.</div><p>One line.</p><p>Another line.</p></div>
<div class="chapter"><div class="box">Another tall block.</div><p>After.</p></div>
</body></html>"""


def boxes(document) -> list[list[tuple]]:
    """Every text box of every page with its place, rounded to a hundredth of a pixel."""
    pages = []
    for laid_out in document.pages:
        found = []

        def walk(box):
            if getattr(box, "text", None):
                found.append((round(box.position_x, 2), round(box.position_y, 2), box.text))
            for child in getattr(box, "children", []):
                walk(child)

        walk(laid_out._page_box)
        pages.append(found)
    return pages


@pytest.fixture
def both(monkeypatch):
    """both(html): the HTML laid out with WeasyPrint's own layout, then with the corrections
    over it, the page layouts and column layouts of each counted; asserts the same boxes and
    gives (boxes, WeasyPrint's counts, the corrected counts)."""
    counts = {"pages": 0, "columns": 0}
    with layoutwork.stock():
        remake, lay_out = page.remake_page, block.block_box_layout
        collect = TargetCollector.collect_missing_counters

        def remake_page(*args, **named):
            counts["pages"] += 1
            return remake(*args, **named)

        def block_box_layout(context, box, *args, **named):
            counts["columns"] += bool(getattr(box, "is_column", False))
            return lay_out(context, box, *args, **named)

        monkeypatch.setattr(page, "remake_page", remake_page)
        monkeypatch.setattr(block, "block_box_layout", block_box_layout)

        def correct():
            monkeypatch.setattr(TargetCollector, "cache_target_page_counters", layoutwork.cache_target_page_counters)
            monkeypatch.setattr(TargetCollector, "collect_missing_counters", layoutwork._filed(collect))
            monkeypatch.setattr(block, "block_box_layout", layoutwork._first_box(block_box_layout))

        def render(html: str):
            counts.update(pages=0, columns=0)
            document = weasyprint.HTML(string=html).render()
            return boxes(document), dict(counts)

        def laid_out_both_ways(html: str):
            stock, stock_counts = render(html)
            correct()
            ours, our_counts = render(html)
            assert ours == stock
            return ours, stock_counts, our_counts

        yield laid_out_both_ways


def test_written_against_this_weasyprint():
    from weasyprint.formatting_structure import build
    from weasyprint.layout import column

    references = all(layoutwork.known(name, function) for name, function in (
        ("cache_target_page_counters", layoutwork._STOCK.get("cache_target_page_counters",
                                                             TargetCollector.cache_target_page_counters)),
        ("collect_missing_counters", layoutwork._STOCK.get("collect_missing_counters",
                                                           TargetCollector.collect_missing_counters)),
        ("compute_content_list", build.compute_content_list), ("make_page", page.make_page)))
    columns = all(layoutwork.known(name, function) for name, function in (
        ("columns_layout", column.columns_layout),
        ("block_box_layout", layoutwork._STOCK.get("block_box_layout", block.block_box_layout))))
    assert layoutwork.apply() == (references, columns)
    assert not layoutwork.known("columns_layout", lambda: None)  # another source: left alone


def test_page_references_laid_out_again_only_when_their_numbers_change(both):
    ours, stock_counts, our_counts = both(REFERENCES)
    contents = [text for _, _, text in ours[0]]
    assert contents[contents.index("One") + 1].strip() == "2" and contents[-1].strip() == "4"
    assert [text for _, _, text in ours[3]][-2].strip() == "2"  # "Back to one 2." on page 4
    # four pages; the contents and the back reference each laid out once more, not twice more
    assert stock_counts["pages"] == 4 + 2 + 2
    assert our_counts["pages"] == 4 + 2


def test_a_column_that_cannot_take_its_first_box_grows_in_steps(both):
    _, stock_counts, our_counts = both(COLUMNS)
    assert our_counts["columns"] * 3 < stock_counts["columns"], (our_counts, stock_counts)


def test_stock_puts_weasyprint_back():
    layoutwork.apply()
    corrected = block.block_box_layout
    with layoutwork.stock():
        assert not getattr(block.block_box_layout, "lighter", False)
        assert layoutwork.apply() == (False, False)
    assert block.block_box_layout is corrected or getattr(block.block_box_layout, "lighter", False)
