"""A note on a value the source does not give is printed once on a page (print/notes.py): the
notes a page most likely repeats are left out before the first layout, and that layout is
taken when it bears the guess out, so that a book is not laid out twice for its notes."""

from __future__ import annotations

import re

import pytest

from generator.print import notes
from generator.print.pdf import render_document

from .conftest import shipped_book

_RECORD = '<p class="record-facts">Size: ?‡</p><p class="unstated-note">‡ Size: not stated in the source.</p>'


def _page(records: str) -> str:
    return notes.numbered('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><style>@page { size: A6 }'
                          '</style></head><body>' + records + "</body></html>")


def _counted(tmp_path):
    calls = []

    def render(html):
        calls.append(html)
        return render_document(html, tmp_path, [tmp_path])[0]
    return render, calls


def test_the_element_before_each_note_is_marked():
    html = _page('<p>Text</p>' + _RECORD + '<table><tr><td>1</td></tr></table>'
                 '<p class="unstated-note">‡ A.</p><p class="unstated-note">‡ B.</p><div>lead <p class="unstated-note">‡ C.</p></div>')
    assert '<p class="record-facts" data-note-after="0">' in html
    assert '<table data-note-after="1 2">' in html  # a run of notes reads its marks where the run starts
    assert 'data-note-after="3"' not in html  # a note that follows text has nothing before it to read


def test_near_twins_are_expected_to_repeat_and_far_ones_not():
    near = _page(_RECORD * 4)
    assert notes.expected(near) == {"1", "2", "3"}
    far = _page(_RECORD + f"<p>{'word ' * notes.NEAR}</p>" + _RECORD)
    assert notes.expected(far) == set()


def test_a_guess_the_layout_bears_out_takes_no_second_layout(tmp_path):
    html = _page(_RECORD * 4)
    guess = notes.expected(html)
    render, calls = _counted(tmp_path)
    document = render(notes.left_out(html, guess))
    assert notes.settle(document, html, render, guess) == {"1", "2", "3"}
    assert len(calls) == 1


def test_a_guess_a_page_break_proves_wrong_is_put_right(tmp_path):
    """Two records on each page: the third record's note is the first its page prints, so it
    is put back; the fourth's is left out (its twin is the third's, on its page). The answer
    is the one a layout of the whole book gives."""
    html = _page(_RECORD * 2 + '<div style="break-after: page"></div>' + _RECORD * 2)
    guess = notes.expected(html)
    assert guess == {"1", "2", "3"}
    render, calls = _counted(tmp_path)
    settled = notes.settle(render(notes.left_out(html, guess)), html, render, guess)
    assert settled == {"1", "3"} and len(calls) == 2
    assert notes._settled(render(html), html, render) == settled
    final = render(notes.left_out(html, settled))
    assert not notes.repeated(final) and not notes.misplaced(final, html, settled)


@pytest.mark.parametrize(("game", "lang", "left"), [("frames", "ru", 4), ("rock-n-roll", "en", 5)])
def test_a_shipped_book_is_laid_out_once_for_its_notes(shipped, monkeypatch, game, lang, left):
    """frames and rock-n-roll print runs of records that lack the same value on one page: the
    book is laid out once (besides the small layout of its tables), not again for the notes."""
    from generator import outputs
    from generator.print import rulebook

    layouts = []
    real = rulebook.render_document

    def counting(html, *args, **kwargs):
        layouts.append(len(html))
        return real(html, *args, **kwargs)

    monkeypatch.setattr(rulebook, "render_document", counting)
    ctx, book = shipped_book(shipped, game, lang)
    try:
        fitted = rulebook._fit(ctx, book, 2)[0]
    finally:
        outputs.confine_to(None)
    assert len([n for n in fitted if n.startswith("note-")]) == left
    whole = [n for n in layouts if n > len(book) / 2]
    assert len(whole) == 1, layouts
