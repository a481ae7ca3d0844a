"""The edition prints what the source writes (the seeds in the source audit): a ranged attack
at "more than 2 cm", the Russian unit table's Russian headings, the source's own range
notation and dice word in the English nuclear, deadzone's "+2 кости"."""

from __future__ import annotations

import re

import pytest

from generator.core.diagnostics import Report
from generator.print.context import BuildContext
from generator.project import Project
from generator.text import blocks


@pytest.fixture(scope="module")
def contexts(shipped):
    games = {}

    def ctx(game: str, lang: str) -> BuildContext:
        if game not in games:
            games[game] = Project(shipped).load(game, Report())
        return BuildContext(games[game], lang, shipped)
    return ctx


def test_ranged_combat_is_more_than_two_cm(contexts):
    """«…только при условии, что до вражеской боевой единицы больше 2 см»: 2 cm itself is not
    ranged, so the band prints > 2, not 2+ (which reads "2 or more")."""
    ctx = contexts("battle-rules", "ru")
    band = ctx.game.bands["ranged"]
    assert band.above and blocks.band_span(band) == "> 2"
    assert blocks.band_span(ctx.game.bands["melee"]) == "≤ 1"
    html = blocks.records_html(ctx.game, "bands", ctx.tr, lambda record: None, {})
    assert "&gt; 2\u00a0" in html and "2+" not in html, html


@pytest.mark.parametrize("lang, heads, absent", [
    ("ru", ["Дист. движения", "Мораль/броня", "Командные очки"], ["Movement", "Save"]),
    ("en", ["Movement", "Save"], ["Мораль/броня"]),
])
def test_unit_table_heads_in_the_books_language(contexts, lang, heads, absent):
    ctx = contexts("battle-rules", lang)
    html = str(blocks.roster_html(ctx.game, ctx.tr, lambda record: None))
    head = re.search(r"<thead>(.*?)</thead>", html).group(1)
    assert all(f">{h}<" in head for h in heads), head
    assert not any(f">{h}<" in head for h in absent), head


def test_nuclear_english_writes_range_and_dice_as_its_rules_do(contexts):
    """The rules give weapons as "Lasgun (R3; A1)": the roster writes R3, not "3 hex"; and a
    die is "a D6" throughout, not once "1d6"."""
    en, ru = contexts("nuclear", "en"), contexts("nuclear", "ru")
    lasgun = en.game.weapons["lasgun"]
    assert str(blocks.stat_html(en.game, en.tr, lasgun, "range")) == "R3"
    assert str(blocks.stat_html(ru.game, ru.tr, lasgun, "range")) == "Н3"
    import polib

    catalog = polib.pofile(str(en.game.folder / "locale/en.po"))
    rolls = [m.msgstr for m in catalog if re.search(r"\brolls? (a |)1?d6\b", m.msgstr)]
    assert rolls == [], rolls


def test_deadzone_modifiers_keep_their_plus(contexts):
    """«Чистый выстрел: … +2 кости к броску»; «Дружеский огонь: … -2 кости к броску»."""
    ctx = contexts("deadzone", "ru")
    html = str(blocks.table_html(ctx.game.tables["shooting-modifiers"], ctx.tr))
    cells = re.findall(r"<td>([+-]?\d+)</td>", html)
    assert cells == ["+2", "-2", "+1", "+1"]
    assert re.findall(r"<td>([+-]?\d+)</td>", str(blocks.table_html(ctx.game.tables["fight-modifiers"], ctx.tr))) \
        == ["+1"] * 5


def test_labels_the_edition_made_are_marked(contexts):
    """Names the source does not give print with the editor's mark: rock-n-roll's «Правило 4:4»
    and «Ветеран Min», battle-rules' «шт.» column, the titles of the tables the checker computes."""
    from generator.text.editorial import MARK_CLASS

    rnr = contexts("rock-n-roll", "ru")
    assert str(blocks.field_html(rnr.game.rules["four-four"], rnr.tr, "name")).count(MARK_CLASS) == 1
    assert str(blocks.field_html(rnr.game.units["min-veteran"], rnr.tr, "name")).count(MARK_CLASS) == 1
    battle = contexts("battle-rules", "ru")
    head = re.search(r"<thead>(.*?)</thead>", str(blocks.roster_html(battle.game, battle.tr, lambda r: None))).group(1)
    assert re.search(r">шт\.<span class=\"" + MARK_CLASS + r"\"[^>]*>\u00a0", head), head
    from types import SimpleNamespace

    table = SimpleNamespace(id="odds", title={"ru": "Шансы"}, columns=[{"id": "n", "name": {"ru": "Кубы"}}],
                            printed_rows=lambda tr: [{"n": 2}])
    html = str(blocks.computed_table_html(table, battle.tr))
    assert re.search(r"<caption>Шансы<span class=\"" + MARK_CLASS + r"\"[^>]*>\u00a0", html), html
