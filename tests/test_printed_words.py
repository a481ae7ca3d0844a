"""Every word a reader sees is the game's content or an interface word, in the edition's
language: roster option names, a roster limit's unit type, an enumeration's names, the dice
appendix's labels and the dice notation."""

from __future__ import annotations

from pathlib import Path

import polib

from generator.diagnostics import Report
from generator.i18n.catalog import po_path, template, update, write_catalog
from generator.i18n.translate import Translator
from generator.print.context import BuildContext
from generator.project import Project
from generator.roster.printed import rules_html
from generator.site.armybuilder import builder_data

from .conftest import Workspace

UNITS = """
  - id: captain
    name: Captain
    type: leader
    stats: {quality: 3+, cost: 40}
"""
ROSTERS = """rosters:
  - id: army
    cost:
      stat: cost
      source: "Each unit costs the points its profile gives."
    limits:
      - type: leader
        min: 1
        max: 1
        source: "Every list has one leader."
    options:
      - id: long-rifles
        units: [scouts]
        name: Long rifles
        cost: 10
        max: 1
        source: "Scouts may carry long rifles for 10 points."
"""
POLISH = {"Long rifles": "Długie karabiny", "Leader": "Dowódca", "Infantry": "Piechota", "Captain": "Kapitan"}


def polish_edition(tmp_path: Path) -> Workspace:
    """The scaffold's English game with a captain of type `leader`, unit types named in an
    enumeration, a roster with a type limit and an option, and a Polish catalog."""
    ws = Workspace(tmp_path)
    ws.edit("game.yaml", "languages: []", "languages: [pl]")
    ws.edit("game.yaml", "stats:\n", "enums:\n  unit-type:\n    - {id: infantry, name: Infantry}\n"
                                     "    - {id: leader, name: Leader}\nstats:\n")
    ws.edit("data/units.yaml", "    text: Eyes of the army.\n", "    text: Eyes of the army.\n" + UNITS)
    ws.write("data/rosters.yaml", ROSTERS)
    game = Project(ws.root).load("demo", Report(), catalogs=False)
    catalog = update(game, "pl", template(game))
    for entry in catalog:
        entry.msgstr = POLISH.get(entry.msgid, "")
    write_catalog(po_path(game, "pl"), catalog)
    return ws


def test_extracted_messages_hold_option_and_enumeration_names_not_the_type_ids(tmp_path: Path):
    ws = polish_edition(tmp_path)
    game = Project(ws.root).load("demo", Report(), catalogs=False)
    msgids = {entry.msgid for entry in template(game)}
    assert {"Long rifles", "Leader", "Infantry"} <= msgids
    assert "leader" not in msgids and "infantry" not in msgids
    extracted = ws.run("i18n", "extract", "demo")
    assert extracted.returncode == 0, extracted.stderr
    pot = polib.pofile(str(ws.game / "locale" / "messages.pot"))
    assert {"Long rifles", "Leader"} <= {entry.msgid for entry in pot}


def test_a_unit_type_prints_its_enumeration_name_in_each_edition(tmp_path: Path):
    ws = polish_edition(tmp_path)
    report = Report()
    game = Project(ws.root).load("demo", report)
    assert not report.failed(), report.diagnostics
    captain = game.units["captain"]
    assert Translator.load(game, "en").field(captain, "type") == "Leader"
    assert Translator.load(game, "pl").field(captain, "type") == "Dowódca"
    assert Translator.load(game, "pl").field(game.units["scouts"], "type") == "Piechota"


def test_roster_option_and_type_limit_print_in_the_editions_language(tmp_path: Path):
    ws = polish_edition(tmp_path)
    game = Project(ws.root).load("demo", Report())
    roster = game.section("rosters")["army"]
    for lang, option, leader in (("pl", "Długie karabiny", "Dowódca"), ("en", "Long rifles", "Leader")):
        ctx = BuildContext(game, lang, ws.root)
        html = str(rules_html(ctx, roster))
        assert f"{option}: +10" in html and f"{leader}: 1–1" in html, html
        data = builder_data(ctx, roster)
        assert [o["name"] for o in data["options"]] == [option]
        assert [limit["name"] for limit in data["limits"]] == [leader]
    assert "Long rifles" not in str(rules_html(BuildContext(game, "pl", ws.root), roster))


def dice_game(tmp_path: Path, letter: str | None = None):
    """The polish_edition game with a dice stat on the rifle (2D6), and optionally the game's
    own letter for Polish dice notation (locale/ui.pl.po)."""
    ws = polish_edition(tmp_path)
    ws.edit("game.yaml", "    applies_to: [weapon]\n", "    applies_to: [weapon]\n"
            "  - {id: damage, name: Damage, type: dice, applies_to: [weapon]}\n")
    ws.edit("data/weapons.yaml", "attacks: 1}", "attacks: 1, damage: 2D6}")
    if letter is not None:
        ws.write("locale/ui.pl.po", f'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                                    f'msgctxt "dice-letter"\nmsgid "d"\nmsgstr "{letter}"\n')
    report = Report()
    game = Project(ws.root).load("demo", report)
    assert not report.failed(), report.diagnostics
    return game


def test_the_dice_appendix_labels_are_interface_words(tmp_path: Path):
    from generator.text.blocks import records_html

    game = dice_game(tmp_path)
    polish = str(records_html(game, "dice", Translator.load(game, "pl"), lambda record: None))
    english = str(records_html(game, "dice", Translator.load(game, "en"), lambda record: None))
    assert "Liczba ścianek: 6" in polish and "Faces" not in polish
    assert "Faces: 6" in english


def test_dice_notation_is_the_editions_and_the_game_may_override_it(tmp_path: Path):
    from generator.text.blocks import stat_html, table_html

    game = dice_game(tmp_path)
    rifle, weather = game.weapons["rifle"], game.tables["weather"]
    polish, english = Translator.load(game, "pl"), Translator.load(game, "en")
    assert str(stat_html(game, polish, rifle, "damage")) == "2k6"
    assert str(stat_html(game, english, rifle, "damage")) == "2D6"  # the source's edition: as written
    assert "Rzut (k6)" in str(table_html(weather, polish)) and "Roll (d6)" in str(table_html(weather, english))

    game = dice_game(tmp_path / "override", letter="K")
    polish = Translator.load(game, "pl")
    assert str(stat_html(game, polish, game.weapons["rifle"], "damage")) == "2K6"
    assert "Rzut (K6)" in str(table_html(game.tables["weather"], polish))
