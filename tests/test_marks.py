"""Every mark a book shows is explained in that book's legend, no internal id is printed, and
a translation marks an erratum only where its text shows what the erratum is about."""

from __future__ import annotations

import re

import pytest

from .conftest import shipped_book


@pytest.fixture(scope="module")
def books(shipped):
    return {lang: shipped_book(shipped, "rock-n-roll", lang) for lang in ("ru", "en")}


def _legend(html: str) -> str:
    return " ".join(re.findall(r'<p class="(?:mark|editor)-legend"[^>]*>(.*?)</p>', html))


def test_each_mark_shown_has_its_legend_line(books):
    _ctx, ru = books["ru"]
    body = ru.split('<nav class="toc"', 1)[1].split("</nav>", 1)[1]
    legend = _legend(ru)
    assert 'class="erratum-mark"' in body and "†</span> стоит после слова" in legend
    assert "‡" in body and "?‡ — значение, которого источник не даёт" in legend
    assert 'class="draft"' in body and "ЧЕРНОВИК</span> — запись" in legend and "«Неполно: …»" in legend
    assert 'class="editor-mark"' in body and "текст редактора" in legend


def test_english_marks_only_what_the_english_shows(books):
    """«С hi» (a Cyrillic С and a space) is the Russian's misspelling: the English prints Chi,
    so no erratum mark follows it there, and the English legend has no line for a mark it
    does not show."""
    _ctx, ru = books["ru"]
    _ctx, en = books["en"]
    assert 'class="erratum-mark" href="#erratum-chi-spelling"' in ru
    assert 'class="erratum-mark" href="#erratum-chi-spelling"' not in en
    assert ('class="erratum-mark"' in en) == ("erratum-sample" in _legend(en))


def test_errata_appendix_prints_no_ids(books):
    for _ctx, html in books.values():
        errata = html.split('id="appendix-errata"', 1)[1]
        text = re.sub(r"<[^>]+>", " ", errata)
        assert "chi-spelling" not in text and "erratum-id" not in errata
        assert 'id="erratum-chi-spelling"' in errata  # still the links' target


@pytest.mark.parametrize(("document", "lang"), [("rulebook", "ru"), ("reference", "en")])
def test_a_page_prints_a_repeated_note_once(shipped, document, lang):
    """nuclear's roster gives two units without a number of models: the same ‡ note, which
    a page prints once (the marks ‡ stay on both units). The edition is one whose page holds
    both notes (in the English rulebook they now fall on different pages, so none is left out)."""
    from generator import outputs
    from generator.print.notes import repeated
    from generator.print.pdf import render_document
    from generator.print.reference import reference_html, sheet_html
    from generator.print.rulebook import rulebook_html

    ctx, book = shipped_book(shipped, "nuclear", lang)
    try:
        html = book if document == "rulebook" else sheet_html(ctx)
        fitted = rulebook_html(ctx) if document == "rulebook" else reference_html(ctx)
        layout, _ = render_document(fitted, ctx.game.folder, ctx.roots)  # the layout the fitting kept
    finally:
        outputs.confine_to(None)
    unfitted = html.count('class="unstated-note"')
    assert fitted.count('class="unstated-note"') < unfitted and fitted.count("?‡") == html.count("?‡")
    assert not repeated(layout)


def test_a_misspelt_name_is_marked_where_another_text_repeats_it(books):
    """«…из разделов Mai и С hi»: min-veteran's incomplete note repeats Chi's misspelling (an
    erratum on Chi's name); the Russian marks it there, the English (which writes Chi) does not."""
    _ctx, ru = books["ru"]
    _ctx, en = books["en"]
    reason = re.search(r'<p class="incomplete-reason">[^<]*из разделов Mai и С hi\.(.*?)</p>', ru)
    assert reason and 'href="#erratum-chi-spelling"' in reason.group(1)
    english = re.search(r'<p class="incomplete-reason">[^<]*Mai and Chi\.(.*?)</p>', en)
    assert english and "erratum-mark" not in english.group(1)


def test_a_card_explains_its_marks_and_says_why_it_is_a_draft(books):
    """A card is read cut out: a draft card prints why (its stamp is a watermark) and a legend
    line for the stamp; a card with an erratum's † has the † line."""
    from generator.print.cardfaces import all_faces

    ctx, _html = books["ru"]
    faces = all_faces(ctx)
    drafts = [f for f in faces if f.draft]
    assert drafts and all('class="incomplete-reason"' in f.body and 'class="draft-sample"' in f.body for f in drafts)
    marked = [f for f in faces if 'class="erratum-mark"' in f.body]
    assert marked and all("erratum-sample" in f.body for f in marked)
    assert not [f for f in faces if "erratum-sample" in f.body and 'class="erratum-mark"' not in f.body]
