"""Colours and contrast (WCAG 2.2), and the default text colour of a side's pieces."""

from __future__ import annotations

import pytest

from generator.model.game import Side
from generator.values.colours import BLACK, WHITE, contrast, readable_on, required_ratio, rgb


def test_contrast_ratios_match_wcag():
    assert contrast(rgb(BLACK), rgb(WHITE)) == pytest.approx(21.0)
    assert contrast(rgb("#767676"), rgb(WHITE)) == pytest.approx(4.54, abs=0.01)  # WCAG's own example grey
    assert contrast(rgb("#c0392b"), rgb("#c0392b")) == pytest.approx(1.0)


@pytest.mark.parametrize("background, text", [
    ("#1a1a1a", WHITE), ("#2c3e50", WHITE), ("#8b0000", WHITE), ("#f0e68c", BLACK), ("#ffffff", BLACK),
    ("#c0392b", WHITE), ("#3498db", BLACK),
])
def test_text_on_a_colour_is_black_or_white_whichever_reads_better(background, text):
    assert readable_on(background) == text
    other = BLACK if text == WHITE else WHITE
    assert contrast(rgb(text), rgb(background)) >= contrast(rgb(other), rgb(background))


def test_large_and_bold_text_need_less_contrast():
    assert required_ratio(10, False) == 4.5 and required_ratio(18, False) == 3.0
    assert required_ratio(14, True) == 3.0 and required_ratio(14, False) == 4.5


def test_a_side_without_a_text_colour_prints_in_the_readable_one():
    dark = Side(id="axis", name="Axis", colour="#1f2a1f")
    assert dark.text_colour is None and dark.ink == WHITE
    assert Side(id="allies", name="Allies", colour="#e8d8a0").ink == BLACK
    assert Side(id="axis", name="Axis", colour="#1f2a1f", text_colour="#FFD700").ink == "#ffd700"
