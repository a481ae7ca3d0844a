"""Errata in every edition: the summary and the reading are translated (the reading under its own
message context), the source stays a quote in the source language; the erratum mark (†) and
the marked blank of a value the source does not give (?‡) are two different signs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from generator.core.diagnostics import Report
from generator.i18n.messages import needs_translation
from generator.i18n.translate import Translator
from generator.print.context import BuildContext
from generator.print.fonts import shipped_font_files
from generator.print.rulebook import book_html, errata_html
from generator.project import Project
from generator.text.blocks import ERRATUM_MARK
from generator.values import UNSTATED_MARK, UNSTATED_SIGN


_CYRILLIC = re.compile("[а-яА-ЯёЁ]")
# (game, erratum, its reading in English, the reading as the Russian source writes it)
CHOSEN = [
    ("nuclear", "structures-list-missing", "no list of structures is given", "список сооружений отсутствует"),
    ("battle-rules", "series-two-definitions", "A series is all of one squad’s attacks on its targets; "
     "compensation follows it.", "Серия — все атаки одного отряда по его целям; компенсация следует за ней."),
    ("frames", "doomsday-ties-unstated", "Not stated; left open.", "Не указано; оставлено открытым."),
]



def _entry(html: str, erratum_id: str) -> str:
    """One erratum's entry in the rulebook's errata appendix."""
    return html.split(f'<dt id="erratum-{erratum_id}">', 1)[1].split("</dd>", 1)[0]


@pytest.mark.parametrize("game_id", ["battle-rules", "deadzone", "frames", "nuclear", "rock-n-roll"])
def test_every_erratum_has_its_summary_and_reading_translated(shipped: Path, game_id: str):
    game = Project(shipped).load(game_id, Report(), checks=False)
    tr = Translator.load(game, "en")
    assert game.errata
    for erratum in game.errata.values():
        for name in ("summary", "reading"):
            source = getattr(erratum, name)
            shown = tr.field(erratum, name)
            assert not tr.missing, f"{game_id}: erratum '{erratum.id}' has no English {name}: {tr.missing}"
            if needs_translation(source) and _CYRILLIC.search(source):
                assert shown != source, f"{game_id}: erratum '{erratum.id}': the English {name} is the Russian"
    # a reading is its own message: «Быстрый» as a reading is not the keyword's name
    if game_id == "nuclear":
        assert tr.contexts.context_of("erratum:fast-spelling.reading") == "erratum reading"
        assert tr.field(game.errata["fast-spelling"], "reading") == "«Быстрый» (Fast)"
        assert tr.text("Быстрый") == "Fast"


@pytest.mark.parametrize("game_id, erratum_id, english, russian", CHOSEN)
def test_rulebook_errata_print_the_reading_of_their_language(shipped: Path, game_id, erratum_id, english, russian):
    game = Project(shipped).load(game_id, Report(), checks=False)
    source = game.errata[erratum_id].source
    en = _entry(errata_html(BuildContext(game, "en", shipped)), erratum_id)
    assert f'Reading:</span> <span lang="en">{english}</span>' in en
    assert russian not in en
    if source:  # what the source writes stays a quote in Russian
        assert f'<span lang="ru">{source}</span>' in en
    ru = _entry(errata_html(BuildContext(game, "ru", shipped)), erratum_id)
    assert f'<span lang="ru">{russian}</span>' in ru and english not in ru


@pytest.mark.parametrize("game_id, erratum_id, english, russian", CHOSEN)
def test_site_errata_page_shows_the_reading_of_its_language(shipped_site: Path, game_id, erratum_id, english, russian):
    def row(lang: str) -> str:
        page = (shipped_site / game_id / lang / "errata.html").read_text(encoding="utf-8")
        return page.split(f'<tr id="erratum-{erratum_id}">', 1)[1].split("</tr>", 1)[0]

    en = row("en")
    assert f'<td lang="en">{english}</td>' in en.replace("\n", "") and russian not in en
    assert f'<td lang="ru">{russian}</td>' in row("ru").replace("\n", "")


def test_the_erratum_mark_and_the_marked_blank_are_different_signs_every_font_draws():
    assert ERRATUM_MARK != UNSTATED_SIGN and ERRATUM_MARK not in UNSTATED_MARK
    for path in shipped_font_files():
        cmap = TTFont(path).getBestCmap()
        assert ord(ERRATUM_MARK) in cmap and ord(UNSTATED_SIGN) in cmap, path.name


def test_print_uses_each_sign_for_its_own_meaning(shipped: Path):
    game = Project(shipped).load("nuclear", Report(), checks=False)
    for lang in ("ru", "en"):
        book = book_html(BuildContext(game, lang, shipped))
        marks = re.findall(r'class="erratum-mark"[^>]*>([^<]*)<', book)
        assert marks and set(marks) == {ERRATUM_MARK}
        blanks = re.findall(r"<td>(\?[^<]{1,2})</td>", book)  # the Exterminators' and Annihilators' models
        assert blanks and set(blanks) == {UNSTATED_MARK}
        notes = re.findall(r'<p class="unstated-note"[^>]*>(.)', book)
        assert notes and set(notes) == {UNSTATED_SIGN}
        assert "?" + ERRATUM_MARK not in book


def test_site_labels_the_marked_blank_and_keeps_the_erratum_mark(shipped_site: Path):
    units = shipped_site / "nuclear" / "en" / "units"
    page = (units / "leman-russ-exterminators.html").read_text(encoding="utf-8")
    assert ('<span class="unstated-mark" role="img" aria-label="not stated in the source" '
            f'title="not stated in the source">{UNSTATED_MARK}</span>') in page
    assert f"{UNSTATED_SIGN} Models: not stated in the source." in page
    riders = (units / "death-riders.html").read_text(encoding="utf-8")
    assert re.search(rf'class="erratum-mark"[^>]*>{ERRATUM_MARK}</a>', riders) and UNSTATED_SIGN not in riders
    ru = (shipped_site / "nuclear" / "ru" / "units" / "leman-russ-exterminators.html").read_text(encoding="utf-8")
    assert 'aria-label="в источнике не указано"' in ru
