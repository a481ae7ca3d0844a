"""Layout verification: one laid-out fixture per finding, each proven to fire, and a clean
page proven quiet."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.print.fonts import font_face_css, with_shipped_glyphs
from generator.print.pdf import render_document, write_pdf
from generator.print.verify import LayoutRules, verify_layout

PAGE = "@page { size: 100mm 100mm; margin: 10mm; } html { font: 10pt 'PT Sans'; }"


def page(body: str, css: str = "") -> str:
    return (f"<!DOCTYPE html><html lang='en'><head><style>{font_face_css()}\n{PAGE}\n{css}</style></head>"
            f"<body>{body}</body></html>")


def findings(tmp_path: Path, body: str, css: str = "", rules: LayoutRules | None = None):
    document, _ = render_document(page(body, css), tmp_path, [tmp_path])
    return verify_layout(document, tmp_path, rules)


def codes(found) -> list[str]:
    return sorted({d.code for d in found})



@pytest.fixture(autouse=True)
def free_writes(monkeypatch):
    """These tests write PDFs into their own tmp folders, not a project's output/."""
    from generator import outputs

    monkeypatch.setattr(outputs, "_root", None)

def test_clean_page_has_no_findings(tmp_path):
    body = ("<h2 data-src='rules/a.md:1'>Movement</h2><p data-src='rules/a.md:3'>A unit moves up to its speed.</p>"
            "<table><tr><td>1</td><td>2</td></tr></table>")
    assert findings(tmp_path, body) == []


@pytest.mark.parametrize("side, css", [
    ("right", ".box { width: 20mm; } .box p { width: 40mm; }"),
    ("left", ".box { width: 20mm; margin-left: 20mm; } .box p { margin-left: -12mm; }"),
])
def test_overflow_across_a_box(tmp_path, side, css):
    body = "<div class='box' data-card data-src='data/units.yaml:7'><p>Wide text here</p></div>"
    found = [d for d in findings(tmp_path, body, css) if d.code == "E040"]
    assert len(found) == 1 and f"past the {side}" in found[0].message
    assert found[0].location.path == tmp_path / "data/units.yaml" and found[0].location.line == 7


@pytest.mark.parametrize("side, css", [
    ("bottom", ".box { height: 8mm; overflow: hidden; }"),
    ("top", ".box { height: 30mm; overflow: hidden; margin-top: 20mm; } .box p { margin-top: -15mm; }"),
])
def test_overflow_down_and_up(tmp_path, side, css):
    body = "<div class='box' data-src='data/cards.yaml:3'><p>One</p><p>Two</p><p>Three</p><p>Four</p></div>"
    found = [d for d in findings(tmp_path, body, css) if d.code == "E040"]
    assert len(found) == 1 and f"past the {side}" in found[0].message


def test_overflow_of_a_table_cell(tmp_path):
    body = ("<table style='width: 30mm; table-layout: fixed' data-src='data/tables.yaml:5'>"
            "<tr><td>Supercalifragilistic</td><td>x</td></tr></table>")
    found = [d for d in findings(tmp_path, body) if d.code == "E040"]
    assert len(found) == 1 and "its cell" in found[0].message and "past the right" in found[0].message


def test_overflow_of_a_column(tmp_path):
    body = ("<main style='column-count: 2; column-gap: 4mm'><table style='width: 60mm' data-src='data/units.yaml:2'>"
            "<tr><td>a</td><td>b</td></tr></table><p>more</p></main>")
    found = [d for d in findings(tmp_path, body) if d.code == "E040"]
    assert found and "its column" in found[0].message


def test_overflow_of_the_page(tmp_path):
    found = findings(tmp_path, "<table style='width: 95mm'><tr><td>a</td><td>b</td></tr></table>")
    assert [d.code for d in found if d.code == "E040"] == ["E040"] and "its page" in found[0].message


def test_text_over_text(tmp_path):
    body = ("<p style='position: absolute; top: 20mm; left: 10mm' data-src='rules/a.md:4'>Overlapping words</p>"
            "<p style='position: absolute; top: 20.5mm; left: 14mm'>Other words</p>")
    assert codes(findings(tmp_path, body)) == ["E041"]


def test_text_outside_the_page(tmp_path):
    found = findings(tmp_path, "<p style='position: absolute; top: 20mm; left: -25mm'>Gone</p>")
    assert "W040" in codes(found) and "outside page" in [d for d in found if d.code == "W040"][0].message


def test_text_cut_off_by_a_cards_positioned_body(tmp_path):
    """A card's body is absolutely positioned and clips what runs past its foot (cards.css):
    text it cuts off is E040, though the text is still inside the card."""
    card = ("<div data-card data-src='data/cards.yaml:4' style='position: relative; width: 60mm; height: 80mm'>"
            "<div style='position: absolute; left: 4mm; right: 4mm; top: 4mm; bottom: 20mm; overflow: hidden'>"
            "{}</div></div>")
    found = [d for d in findings(tmp_path, card.format("<p>Line</p>" * 12)) if d.code == "E040"]
    assert len(found) == 1 and "past the bottom" in found[0].message and found[0].location.line == 4
    assert findings(tmp_path, card.format("<p>Line</p>" * 2)) == []


def test_positioned_art_may_run_into_the_bleed(tmp_path):
    """A back's art placed past the cut on purpose (the colour bled into a gutter) is no finding."""
    body = ("<div data-card style='position: relative; width: 60mm; height: 80mm'>"
            "<svg style='position: absolute; left: -1.5mm; top: -1.5mm; width: 63mm; height: 83mm'></svg></div>")
    assert findings(tmp_path, body) == []


def test_text_outside_a_cards_safe_area(tmp_path):
    body = ("<div data-card style='position: relative; width: 60mm; height: 60mm'>"
            "<p style='position: absolute; top: 0.5mm; left: 5mm; margin: 0'>Near the cut</p></div>")
    found = findings(tmp_path, body)
    assert codes(found) == ["W040"] and "safe area" in found[0].message
    assert findings(tmp_path, body, rules=LayoutRules(card_safe_mm=0)) == []


def test_text_below_the_minimum_size(tmp_path):
    found = findings(tmp_path, "<p style='font-size: 5pt'>Tiny footer</p>")
    assert codes(found) == ["W041"]
    assert findings(tmp_path, "<p style='font-size: 5pt'>Tiny footer</p>", rules=LayoutRules(min_text_pt=4.5)) == []


def test_heading_alone_at_the_bottom(tmp_path):
    body = ("<div style='height: 62mm'></div><h2 data-src='rules/a.md:9'>Shooting</h2>"
            "<p style='break-inside: avoid'>" + "Words. " * 60 + "</p>")
    found = findings(tmp_path, body, "h2 { break-after: auto; }")
    assert codes(found) == ["W042"] and found[0].location.line == 9
    assert findings(tmp_path, "<h2>Shooting</h2><p>" + "Words. " * 60 + "</p>") == []


def test_glyph_from_a_font_not_shipped(tmp_path):
    found = findings(tmp_path, "<p data-src='rules/a.md:2'>Rated ★</p>")
    assert codes(found) == ["W043"] and "U+2605" in found[0].message


def test_text_is_shaped_again_only_for_characters_its_style_has_not_drawn(tmp_path, monkeypatch):
    """The check remembers, per font style and language, the characters drawn with shipped
    fonts: a paragraph of those is not shaped again; a new character, another style or
    another language is, and a character drawn with a system font is found every time."""
    from weasyprint.text.line_break import Layout

    shaped = []
    reactivate = Layout.reactivate
    monkeypatch.setattr(Layout, "reactivate", lambda self, style: (shaped.append(self.text), reactivate(self, style))[1])
    body = ("<p data-src='rules/a.md:1'>Rated</p><p data-src='rules/a.md:2'>Rated</p>"
            "<p data-src='rules/a.md:3'>Rated ★</p><p data-src='rules/a.md:4'>Rated ★</p>"
            "<p data-src='rules/a.md:5'><b>Rated</b></p><p lang='ru' data-src='rules/a.md:6'>Rated</p>")
    found = findings(tmp_path, body)
    assert codes(found) == ["W043"] and "U+2605" in found[0].message
    assert shaped.count("Rated") == 3  # the first, the bold one and the Russian one
    assert shaped.count("Rated ★") == 2


def test_glyphs_the_fonts_lack_are_drawn_without_them(tmp_path):
    """✓, →, the hyphen U+2010 and ◦ are swapped for pictures or characters PT fonts have."""
    body = "<p title='a → b'>Checked ✓, 2+ → 3+, co‐op</p><ul><li>a<ul><li>nested</li></ul></li></ul>"
    assert findings(tmp_path, body, 'ul ul { list-style-type: "–\\2002"; }') == []
    assert "title='a → b'" in with_shipped_glyphs(page(body))


def test_layout_rules_are_data(tmp_path):
    (tmp_path / "print.yaml").write_text("min_text_pt: 7\n", encoding="utf-8")
    assert LayoutRules.load([tmp_path]).min_text_pt == 7
    assert LayoutRules.load([tmp_path / "missing"]) == LayoutRules()


def test_a_broken_layout_is_not_written_as_fine(tmp_path):
    out = tmp_path / "output" / "en" / "rulebook.pdf"
    out.parent.mkdir(parents=True)
    out.write_bytes(b"stale")
    result = write_pdf(page("<table style='width: 95mm'><tr><td>a</td></tr></table>"), out, tmp_path, [tmp_path])
    assert [d.code for d in result.diagnostics] == ["E040"] and "en/rulebook.pdf" in result.diagnostics[0].message
    assert result.path.name == "rulebook.layout-errors.pdf" and result.path.exists() and not out.exists()
    fixed = write_pdf(page("<p>Fine</p>"), out, tmp_path, [tmp_path])
    assert fixed.path == out and out.exists() and fixed.diagnostics == []
    assert not (out.parent / "rulebook.layout-errors.pdf").exists()


@pytest.mark.parametrize("body, expected", [
    ("<p data-src='rules/a.md:3' style='color: #999999'>Pale words</p>", "2.8:1"),        # grey on paper
    ("<div style='background: #1a1a1a'><p data-src='rules/a.md:3'>Black on black</p></div>", "1."),
    ("<div style='background: #c0392b'><p data-src='rules/a.md:3' style='color: #000000'>Dark red</p></div>", "4."),
])
def test_text_without_contrast_on_its_background_is_reported(tmp_path, body, expected):
    found = [d for d in findings(tmp_path, body) if d.code == "W044"]
    assert len(found) == 1 and expected in found[0].message, found
    assert found[0].location.line == 3


@pytest.mark.parametrize("body", [
    "<div style='background: #1a1a1a'><p style='color: #ffffff'>White on black</p></div>",
    "<p style='color: #767676'>The palest grey that passes 4.5:1 on white</p>",
    "<h1 style='font-size: 18pt; color: #949494'>Large text needs 3:1</h1>",
    "<div style='background: url(data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==)'>"
    "<p style='color: #ffffff'>Over a picture: not measured</p></div>",
])
def test_text_with_enough_contrast_is_quiet(tmp_path, body):
    assert [d for d in findings(tmp_path, body) if d.code == "W044"] == []


def test_one_colour_on_two_backgrounds_is_measured_on_each(tmp_path):
    """The checks remember each colour laid over each background: a pair seen before must not
    answer for the same text colour on another background, nor for one of another alpha."""
    body = ("<div style='background: #ffffff'><p data-src='rules/a.md:3' style='color: #777777'>Grey on white</p></div>"
            "<div style='background: #1a1a1a'><p data-src='rules/a.md:5' style='color: #777777'>Grey on black</p></div>"
            "<div style='background: #1a1a1a'><p data-src='rules/a.md:7' style='color: rgba(119, 119, 119, 0.5)'>"
            "Half grey on black</p></div>")
    found = sorted((d.location.line, d.message.split(" on its")[0]) for d in findings(tmp_path, body) if d.code == "W044")
    assert found == [(3, "text of contrast 4.5:1"), (5, "text of contrast 3.9:1"), (7, "text of contrast 1.9:1")], found


# A paragraph whose second line holds three words: a no-break run too wide for the rest of it
# pushes the words after them to the next line (W046); the same words free to break fill it.
SHORT_LINE = ("<p data-src='rules/a.md:{line}' lang='en' style='text-align: justify; width: 60mm'>So the totals are "
              "<span style='white-space: {space}'>equal at 13 and more words here than fit</span> and more words "
              "follow here to end it.</p>")


def test_a_line_far_shorter_than_its_measure_is_reported(tmp_path):
    found = [d for d in findings(tmp_path, SHORT_LINE.format(line=7, space="nowrap")) if d.code == "W046"]
    assert len(found) == 1 and "So the totals are" in found[0].message, found
    assert found[0].location.path == tmp_path / "rules/a.md" and found[0].location.line == 7


@pytest.mark.parametrize("body", [
    SHORT_LINE.format(line=7, space="normal"),
    # a forced break, the paragraph's last line, a heading, a measure narrower than 40 mm
    "<p lang='en' style='width: 60mm'>Short<br>then a line that runs on and on past the measure of it</p>",
    "<p lang='en' style='width: 60mm'>A line that runs on and on past the measure of the paragraph. End.</p>",
    "<h2 lang='en' style='width: 60mm'>So the <span style='white-space: nowrap'>totals are equal at 13 and more</span></h2>",
    "<p lang='en' style='width: 30mm'>So <span style='white-space: nowrap'>totals are equal at 13</span></p>",
])
def test_lines_that_may_be_short_are_quiet(tmp_path, body):
    assert [d for d in findings(tmp_path, body) if d.code == "W046"] == []


# A short label in ragged text: the second word fits whole on the next line, so a hyphen is
# not needed there (W047); set with hyphens: manual, it goes down whole.
LABEL = ("<div data-src='data/counters.yaml:{line}' lang='pl' style='width: 26mm; text-align: center; font-weight: bold; "
         "hyphens: {hyphens}; hyphenate-character: \"-\"'><p>{text}</p></div>")


def test_a_word_hyphenated_although_it_fits_below_is_reported(tmp_path):
    found = [d for d in findings(tmp_path, LABEL.format(line=4, hyphens="auto", text="Jest Przygwożdżony"))
             if d.code == "W047"]
    assert len(found) == 1 and "Przygwożdżony" in found[0].message, found
    assert found[0].location.path == tmp_path / "data/counters.yaml" and found[0].location.line == 4


@pytest.mark.parametrize("hyphens, text, css", [
    ("manual", "Jest Przygwożdżony", ""),
    ("auto", "Jest dwu-ręczny oddział", ""),                   # a hyphen the word is written with
    ("auto", "Jest Przygwoż\u00addżony", ""),                 # a soft hyphen: the text asks for it
    ("auto", "Jest Przygwożdżony", "div { text-align: justify !important; }"),  # justified text hyphenates to fill
])
def test_hyphens_that_are_needed_or_asked_for_are_quiet(tmp_path, hyphens, text, css):
    assert [d for d in findings(tmp_path, LABEL.format(line=4, hyphens=hyphens, text=text), css)
            if d.code == "W047"] == []


class _Words:
    """Interface words for the editor's mark outside a game."""

    def ui(self, key: str) -> str:
        return {"editor-mark": "ed.", "editor-mark-label": "Editor's text"}.get(key, key)


def test_the_editors_mark_after_a_name_leaves_no_word_alone_on_a_line(tmp_path):
    """A name that fits its cell but not with its mark: the mark goes down with the name's last
    word. Its no-break space inside the mark (editorial.trailing_mark) is what keeps WeasyPrint
    from breaking after the first word ("Distance / from a Deployment Zone ... Points ed."),
    which the same text with the space outside the mark shows, as W046."""
    from generator.text.editorial import mark, trailing_mark

    name = "Distance from a Deployment Zone within which there are no Key Points"
    cell = "<p data-src='game.yaml:35' lang='en' style='width: 292px; font-size: 7pt'>{}</p>"
    css = ".editor-mark { font-size: 6.5pt; white-space: nowrap; }"
    assert [d for d in findings(tmp_path, cell.format(name + trailing_mark(_Words())), css) if d.code == "W046"] == []
    apart = [d for d in findings(tmp_path, cell.format(name + "\u00a0" + mark(_Words())), css) if d.code == "W046"]
    assert len(apart) == 1 and "“Distance”" in apart[0].message and apart[0].location.line == 35


def test_a_text_that_overflows_by_its_trailing_space_before_an_element_breaks_at_its_last_break(tmp_path):
    """WeasyPrint broke a text that overflows its line by less than its trailing space, before
    an inline element, at its first break ("пор," alone on a line: deadzone's rule
    exploding-eight); corrected (linebreak.py), the line ends at "отличен" and nothing is short."""
    body = ("<p data-src='rules/03-tests.md:95' lang='ru' style='width: 315.6px; font: 10.5pt \"PT Serif\"; "
            "text-align: justify'>пор, пока выпавший результат будет отличен от <span>8</span>.</p>")
    assert [d for d in findings(tmp_path, body) if d.code == "W046"] == []
    document, _ = render_document(page(body), tmp_path, [tmp_path])
    from weasyprint.formatting_structure import boxes

    def texts(box):
        if isinstance(box, boxes.TextBox):
            yield box.text
        for child in getattr(box, "children", ()) or ():
            yield from texts(child)

    assert next(texts(document.pages[0]._page_box)) == "пор, пока выпавший результат будет отличен"


def test_an_element_whose_first_line_is_a_rounding_too_wide_starts_on_its_line(tmp_path):
    """Pango split the reading a fraction of a pixel wider than the room after its label, and
    WeasyPrint moved it whole to the next line ("Прочтение:" alone, frames' errata); corrected
    (linebreak.py), the reading starts beside its label and nothing is short."""
    body = ("<p data-src='data/errata.yaml:3' lang='ru' style='width: 296.7px; font: 10.5pt/1.42 \"PT Serif\"; "
            "hyphens: auto; hyphenate-limit-zone: 100%'><span style='font: bold 8.5pt \"PT Sans\"'>Прочтение:</span> "
            "<span>5 повреждает защищающий Фрейм, 6 — цель; 4 и меньше — промах (кости меньше нужного результата "
            "отбрасываются первыми).</span> Ещё одна строка текста, чтобы абзац не кончался сразу.</p>")
    assert [d for d in findings(tmp_path, body) if d.code == "W046"] == []


def test_an_element_inside_a_line_of_ragged_text_goes_down_whole_rather_than_hyphenate(tmp_path):
    """A keyword that starts inside a line of ragged text (hyphenate-limit-zone: 100%) and does
    not fit the rest of it goes down whole; WeasyPrint hyphenated it ("Взрыв-ное", nuclear's
    cards), which the layout check reports as W047."""
    body = ("<p data-src='data/units.yaml:77' lang='ru' style='width: 20mm; font: 8pt \"PT Sans\"; hyphens: auto; "
            "hyphenate-limit-zone: 100%; hyphenate-character: \"-\"'>ББ (1), <span>Взрывное (3)</span></p>")
    assert [d for d in findings(tmp_path, body) if d.code == "W047"] == []
    document, _ = render_document(page(body), tmp_path, [tmp_path])
    assert "Взрывное (3)" in [box.text for box in _text_boxes(document.pages[0]._page_box)]


def _text_boxes(box):
    from weasyprint.formatting_structure import boxes

    if isinstance(box, boxes.TextBox):
        yield box
    for child in getattr(box, "children", ()) or ():
        yield from _text_boxes(child)


def test_the_line_breaking_correction_stays_out_of_a_weasyprint_whose_function_differs(monkeypatch):
    """The correction wraps WeasyPrint's internal split_first_line; a WeasyPrint whose function
    takes other parameters is left with its own line breaking instead of being called wrongly."""
    from weasyprint.layout import inline

    from generator.print import linebreak

    assert linebreak.apply() and inline.split_first_line.corrected  # this WeasyPrint: corrected

    def other(text, style, context, max_width, justification_spacing, is_line_start=True, minimum=False, more=0):
        return None

    monkeypatch.setattr(inline, "split_first_line", other)
    assert linebreak.apply() is False and inline.split_first_line is other
