"""A record whose text a chapter prints by reference, but whose name no chapter prints, keeps
its appendix entry: its name, and in place of its text a pointer to the paragraph (Frames'
rules and actions: the source prints their paragraphs without the names this edition gives)."""

from __future__ import annotations

import re

import pytest

from generator.text.refs import printed_by_reference

from .conftest import shipped_book
from .test_written_once import _plain


@pytest.fixture(scope="module")
def frames(shipped):
    return shipped_book(shipped, "frames")


def test_named_nowhere_keeps_the_appendix(frames):
    ctx, html = frames
    assert not {"rules", "actions"} & printed_by_reference(ctx.game, ctx.chapters)
    assert 'id="appendix-rules"' in html and 'id="appendix-actions"' in html
    text = _plain(re.sub(r'<dl class="errata">.*?</dl>', " ", html, flags=re.S))  # errata quote the source
    for record in [*ctx.game.rules.values(), *ctx.game.actions.values()]:
        printed = ctx.tr.field(record, "text")  # its references as words: {{ case:attack }} is 5.3.4.1
        assert text.count(" ".join(printed.split())) == 1, f"{record.kind} {record.id}"
        assert ctx.tr.field(record, "name") in text


def test_the_entry_points_at_the_paragraph(frames):
    _ctx, html = frames
    entry = re.search(r'<dt id="rule-bpd">.*?</dd>', html, re.S).group(0)
    # Frames numbers its cases: the entry names the case that prints the paragraph
    assert 'href="#rule-bpd--text"' in entry and "→ 5.3.4.1 Атака" in entry and 'data-page="с."' in entry
    assert html.count('id="rule-bpd--text"') == 1
    ids = re.findall(r'id="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    assert not set(re.findall(r'href="#([^"]+)"', html)) - set(ids)


def test_site_reference_page_points_at_the_paragraph(shipped_site):
    ru = shipped_site / "frames" / "ru"
    page = (ru / "reference.html").read_text(encoding="utf-8")
    assert 'href="frame-turn.html#rule-bpd--text"' in page and 'id="rule-bpd"' in page
    assert "Террейн имеют Защиту" not in page  # the text is on the chapter's page only
    assert 'id="rule-bpd--text"' in (ru / "frame-turn.html").read_text(encoding="utf-8")
