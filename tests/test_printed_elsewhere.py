"""A record whose text a chapter prints by reference, in a section that keeps its appendix (the
chapters do not print its name, or it holds more than its text): the appendix keeps the
record's name and other fields and gives the page of its text instead of printing it again."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from generator.core.diagnostics import Report
from generator.print.context import BuildContext
from generator.print.rulebook import book_html
from generator.project import Project
from generator.text.refs import printed_by_reference, printed_fields

from .conftest import REPO
from .test_written_once import _plain


def _book(root: Path, game: str = "battle-rules", lang: str = "ru"):
    ctx = BuildContext(Project(root).load(game, Report()), lang, root)
    return ctx, book_html(ctx)


def _linked(tmp_path: Path) -> Path:
    (tmp_path / "content").symlink_to(REPO / "content")
    return tmp_path


def test_the_appendix_gives_the_page_of_a_text_the_chapters_print(tmp_path):
    ctx, html = _book(_linked(tmp_path))
    assert ("terrain", "fortification", "text") in printed_fields(ctx.game, ctx.chapters)
    # the chapter's text carries its own anchor; the appendix entry points to it, with the page
    assert '<span class="value" id="terrain-fortification--text">' in html
    appendix = html[html.index('id="appendix-terrain"'):]
    assert re.search(r'<a class="printed-at" href="#terrain-fortification--text" data-page="с.">→ [^<]+</a>', appendix)
    assert "Укрепления" in appendix and 'id="terrain-fortification"' in appendix
    assert "Текст не приводит сценариев." in appendix  # a draft with no text says why, in print too
    text = _plain(html)
    assert text.count(" ".join(ctx.game.terrain["fortification"].text.split())) == 1
    ids = re.findall(r'id="([^"]+)"', html)
    assert len(ids) == len(set(ids))  # `::: rule save-roll` leaves the anchor rule-save-roll to the rule's text
    assert not set(re.findall(r'href="#([^"]+)"', html)) - set(ids)


def test_names_the_chapters_do_not_print_keep_their_appendix(tmp_path):
    """The chapters print the support actions' texts, but not their names (the source lists them
    in a sentence): the actions keep their appendix, which names each and gives its page."""
    ctx, html = _book(_linked(tmp_path))
    assert "actions" not in printed_by_reference(ctx.game, ctx.chapters)
    assert 'id="appendix-actions"' in html
    assert 'id="action-rearm"' in html[html.index('id="appendix-actions"'):]
    assert '<span class="value" id="action-rearm--text">' in html and 'href="#action-rearm--text"' in html


def test_a_text_no_chapter_prints_stays_in_the_appendix(tmp_path):
    shutil.copytree(REPO / "content" / "battle-rules", tmp_path / "content" / "battle-rules")
    chapter = tmp_path / "content" / "battle-rules" / "rules" / "03-phases.md"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("{{ terrain:vehicle-cover.text }}\n\n", ""),
                       encoding="utf-8")
    ctx, html = _book(tmp_path)
    assert ("terrain", "vehicle-cover", "text") not in printed_fields(ctx.game, ctx.chapters)
    appendix = html[html.index('id="appendix-terrain"'):]
    assert 'id="terrain-vehicle-cover"' in appendix and 'href="#terrain-vehicle-cover--text"' not in appendix
    assert "Отряд, установленный за техникой, также считается в укрытии." in appendix


def test_the_english_appendix_says_it_in_english(tmp_path):
    _ctx, html = _book(_linked(tmp_path), lang="en")
    assert re.search(r'<a class="printed-at" href="#rule-deployment--text" data-page="p.">→ [^<]+</a>', html)
