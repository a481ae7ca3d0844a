"""Each text is written once and printed once: a chapter that prints a record's paragraph by
referring to it ({{ action:move.text }}) gets no appendix repeating it, and links to the
record land on that paragraph."""

from __future__ import annotations

import html as htmllib
import re
from pathlib import Path

import pytest

from generator.core.diagnostics import Report
from generator.model import SECTIONS
from generator.print.context import BuildContext
from generator.print.rulebook import book_html
from generator.project import Project
from generator.text.refs import printed_by_reference

from .conftest import REPO, shipped_book


@pytest.fixture(scope="module")
def nuclear(shipped):
    return shipped_book(shipped, "nuclear")


def _plain(html: str) -> str:
    html = re.sub(r'<span class="kw-tip"[^>]*>.*?</span>', "", html)  # tooltips repeat definitions
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", "", html)).split())


def test_nuclear_prints_actions_and_properties_once(nuclear):
    ctx, html = nuclear
    assert {"actions", "keywords"} <= printed_by_reference(ctx.game, ctx.chapters)
    text = _plain(html)
    for record in [*ctx.game.actions.values(), *ctx.game.keywords.values()]:
        paragraph = " ".join((getattr(record, "text", None) or getattr(record, "definition", "") or "").split())
        if paragraph:
            assert text.count(paragraph) == 1, f"{record.kind} {record.id} printed {text.count(paragraph)} times"
    assert 'id="appendix-actions"' not in html and 'id="appendix-keywords"' not in html


def test_links_land_on_the_paragraph(nuclear):
    _ctx, html = nuclear
    ids = re.findall(r'id="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    assert 'id="action-march"' in html and 'id="keyword-fast"' in html and 'id="keyword-partial-cover"' in html
    assert not set(re.findall(r'href="#([^"]+)"', html)) - set(ids)


def test_a_record_the_chapters_leave_out_keeps_its_appendix(tmp_path: Path):
    import shutil

    shutil.copytree(REPO / "content" / "nuclear", tmp_path / "content" / "nuclear")
    chapter = tmp_path / "content" / "nuclear" / "rules" / "03-strategy.md"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace(
        "{{ action:shoot }} – {{ action:shoot.text }}\n\n", ""), encoding="utf-8")
    ctx = BuildContext(Project(tmp_path).load("nuclear", Report()), "ru", tmp_path)
    assert "actions" not in printed_by_reference(ctx.game, ctx.chapters)
    assert 'id="appendix-actions"' in book_html(ctx)


def test_site_links_each_record_to_the_chapter_that_prints_it(shipped_site: Path):
    ru = shipped_site / "nuclear" / "ru"
    assert not (ru / "glossary.html").exists()  # no second glossary beside the chapter
    page = (ru / "units" / "death-riders.html").read_text(encoding="utf-8")
    assert 'href="../rules-glossary.html#keyword-fast"' in page
    assert 'id="keyword-fast"' in (ru / "rules-glossary.html").read_text(encoding="utf-8")
    assert 'id="keyword-partial-cover"' in (ru / "terrain.html").read_text(encoding="utf-8")
    assert 'id="action-march"' in (ru / "strategy.html").read_text(encoding="utf-8")


def test_deadzone_prints_each_action_once_where_the_source_does(tmp_path_factory):
    root = tmp_path_factory.mktemp("once-dz")
    (root / "content").symlink_to(REPO / "content")
    ctx = BuildContext(Project(root).load("deadzone", Report()), "ru", root)
    html = book_html(ctx)
    assert "actions" in printed_by_reference(ctx.game, ctx.chapters)
    text = _plain(html)
    for action in ctx.game.actions.values():
        assert text.count(" ".join(action.text.split())) == 1, action.id
    # a record's text alone in its paragraph prints as a paragraph
    assert '<p><span class="value" id="action-sprint">' in html


def test_records_holding_more_than_their_text_keep_their_appendix(tmp_path_factory):
    """Rock'n'Roll's unit chapter prints each unit's text by reference, but a unit holds more
    (its abilities): the roster appendix stays."""
    root = tmp_path_factory.mktemp("once-rnr")
    (root / "content").symlink_to(REPO / "content")
    ctx = BuildContext(Project(root).load("rock-n-roll", Report()), "ru", root)
    assert "units" not in printed_by_reference(ctx.game, ctx.chapters)
    assert 'id="appendix-units"' in book_html(ctx)


def test_an_appendix_points_to_the_page_a_chapter_prints_a_text_on(tmp_path_factory):
    """Rock'n'Roll's chapters print its terms, named rules and units' abilities by reference but
    never name the rules, and the glossary and roster hold more: the appendix keeps each entry
    with its name, and in place of the text the page the chapter prints it on."""
    root = tmp_path_factory.mktemp("once-rnr-pages")
    (root / "content").symlink_to(REPO / "content")
    ctx = BuildContext(Project(root).load("rock-n-roll", Report()), "ru", root)
    html = book_html(ctx)
    # every action's text is printed by reference, but no chapter names the action: its name stays in the appendix
    assert not {"rules", "keywords", "units", "actions"} & printed_by_reference(ctx.game, ctx.chapters)
    assert 'id="appendix-actions"' in html and 'class="printed-at" href="#action-reroll--text"' in html
    for anchor in ("keyword-allies--definition", "rule-catch-up--text", "unit-mai--abilities-0-text"):
        assert html.count(f'id="{anchor}"') == 1 and f'class="printed-at" href="#{anchor}"' in html
    appendix = html[html.index('id="appendix-rules"'):html.index('id="appendix-errata"')]
    assert 'id="rule-catch-up"' in appendix and ctx.game.rules["catch-up"].text not in appendix
    # no chapter prints this one: the appendix does, with why the source gives no text for it
    team_play = ctx.game.rules["team-play"]
    assert team_play.text is None and team_play.name in appendix and team_play.incomplete in appendix
    ids = re.findall(r'id="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    assert not set(re.findall(r'href="#([^"]+)"', html)) - set(ids)


# Sentences of records' own text that the rulebook still prints more than once (a chapter
# paraphrases or repeats a record it could refer to), per game. Each is to be printed once, where
# the source prints it, and the count here brought to 0; the test fails when the count changes
# either way, so it stays true.
STILL_TWICE: dict[str, int] = {}

# (game, start of a sentence): the source itself prints this sentence more than once.
REPEATED_IN_SOURCE: dict[tuple[str, str], str] = {
    ("deadzone", "В активацию модели можно потратить только один такой куб."):
        "seed 004 lines 125, 131, 137, 145: the КОГДА of the Движение, Стрельба, Рукопашная and "
        "Спец.свойство армии faces each end with it",
    ("deadzone", "КОГДА: Перед совершением действия, после короткого или длинного действия модели (см.далее)."):
        "seed 004 lines 131, 137: the КОГДА of the Стрельба and Рукопашная faces both begin with it",
    ("rock-n-roll", "В конце раунда на поле боя должен оставаться хотя бы 1 юнит стороны."):
        "9. Ход игры и новшества: «В конце раунда на поле боя должен оставаться хотя бы 1 юнит стороны. "
        "В противном случае, сторона не имеющая юнитов…»; Deathmatch: «В конце раунда на поле боя должен "
        "оставаться хотя бы 1 юнит стороны. В противном случае, она потеряет 2 юнита…»",
}


def printed_twice(game: str, root: Path) -> list[str]:
    """Sentences (5+ words) of the game's records' source-language text that its Russian
    rulebook prints more than once, unless the source repeats them itself."""
    from .test_faithful_site import normal, source_fields

    ctx = BuildContext(Project(root).load(game, Report()), "ru", root)
    book = re.sub(r'<dl class="errata">.*?</dl>', " ", book_html(ctx), flags=re.S)  # errata quote the source
    text = normal(_plain(book))
    found = []
    for section in SECTIONS:
        for record in ctx.game.section(section).values():
            for path, value in source_fields(record.model_dump(mode="json")):
                if path.rsplit(".", 1)[-1] not in ("text", "definition", "summary", "effect", "what", "when"):
                    continue
                for sentence in re.split(r"(?<=[.!?…])\s+", re.sub(r"\{\{.*?\}\}", " ", " ".join(value.split()))):
                    sentence = normal(sentence)
                    repeated = any(sentence.startswith(normal(start)) for g, start in REPEATED_IN_SOURCE if g == game)
                    if len(sentence.split()) >= 5 and not repeated and text.count(sentence) > 1:
                        found.append(f"{section}/{record.id}{path}: {sentence[:80]}")
    return found


@pytest.mark.parametrize("game", ["battle-rules", "deadzone", "frames", "nuclear", "rock-n-roll"])
def test_no_record_text_printed_twice(game, tmp_path_factory):
    root = tmp_path_factory.mktemp("twice")
    (root / "content").symlink_to(REPO / "content")
    twice = printed_twice(game, root)
    assert len(twice) == STILL_TWICE.get(game, 0), "\n".join(twice)
