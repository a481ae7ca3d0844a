"""`{{ list:KIND }}` prints every field the source gives each record (names, texts, what a die
face does and when, stats, keywords, other spellings), in print and on the site, in the source
language and translated: each shipped use is rendered and each field looked for in it."""

from __future__ import annotations

import re

import pytest

from generator.core.diagnostics import Report
from generator.i18n.messages import is_translatable_path
from generator.i18n.translate import Translator
from generator.project import Project
from generator.text import blocks
from generator.text.chapters import load_chapters
from generator.text.render import RenderContext, render_chapter

from .conftest import REPO, original_game
from .test_faithful_print import KNOWN_MISSING, Corpus
from .test_faithful_site import page_text, source_fields

_LIST = re.compile(r"\{\{\s*list:([\w-]+)\s*\}\}")


def shipped_lists() -> list[tuple[str, str, str]]:
    """(game, chapter file, kind) of every `{{ list:KIND }}` in the rules of the games encoded
    from a seed (an original game has no source's fields to find)."""
    return [(md.parts[-3], md.name, kind) for md in sorted(REPO.glob("content/*/rules/*.md"))
            if not original_game(md.parents[1]) for kind in _LIST.findall(md.read_text(encoding="utf-8"))]


def _path(path: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in path.strip(".").split("."))


@pytest.fixture(scope="module")
def games():
    project = Project(REPO)
    return {name: project.load(name, Report(), checks=False) for name in {g for g, _, _ in shipped_lists()}}


def test_the_shipped_rules_use_lists():
    # actions and glossaries print record by record where the source prints them (each text
    # written once); tests/test_faithful_print.py finds their fields
    assert {kind for _, _, kind in shipped_lists()} >= {"dice", "units", "terrain", "decks"}


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("target", ["print", "site"])
@pytest.mark.parametrize("game_id,chapter_name,kind", shipped_lists())
def test_a_list_prints_every_field_of_its_records(games, game_id, chapter_name, kind, target, lang):
    game = games[game_id]
    tr = Translator.load(game, lang)
    chapter = next(c for c in load_chapters(game.folder) if c.path.name == chapter_name)
    html = render_chapter(chapter, RenderContext(game, tr, target, lambda record: None)).html
    corpus = Corpus(page_text(str(html)))
    section = next(s for s in ("keywords", "units", "dice", "actions", "terrain", "decks", "bands", "tables")
                   if s == kind)
    # a value written wrongly prints as read; the errata appendix quotes it as written
    quoted = {erratum.source for erratum in game.errata.values()}
    missing = []
    for record in game.section(section).values():
        for path, text in source_fields(record.model_dump(mode="json")):
            if (game_id, record.kind, record.id, path) in KNOWN_MISSING or text in quoted:
                continue
            if lang != game.manifest.source_language:
                if not is_translatable_path(record, _path(path)) or ".keywords." in path or ".aliases." in path:
                    continue  # a quotation of the source, a keyword use (prints as the keyword's name),
                    # a spelling of the source's language (printed in its own edition)
                text = tr.field(record, *_path(path))
            if text not in corpus:
                missing.append((record.id, path, text[:60]))
    assert missing == []


def test_die_faces_print_what_they_do_and_when():
    project = Project(REPO)
    game = project.load("deadzone", Report(), checks=False)
    html = str(blocks.records_html(game, "dice", Translator.load(game, "ru"), lambda record: None))
    face = html.split("+1 Кость")[1].split("</li>")[0]
    assert "<p>ЧТО: Добавляет 1 кость" in face and "<p>КОГДА: Во время прохождения" in face
