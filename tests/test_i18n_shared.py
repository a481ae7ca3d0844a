"""One message per source string: identical strings share a message, contexts.yaml keeps
apart what needs different translations, and migration keeps every old translation."""

from __future__ import annotations

import polib

from generator.core.diagnostics import Report
from generator.i18n.translate import Translator
from generator.project import Project

from .conftest import Workspace

UNITS = """units:
  - id: scouts
    name: Scouts
    type: infantry
    stats: {move: 15 cm, quality: 4+, cost: 50}
    text: Full strength.
  - id: rangers
    name: Rangers
    type: infantry
    stats: {move: 15 cm, quality: 4+, cost: 50}
    text: Full strength.
  - id: riders
    name: Riders
    type: infantry
    stats: {move: 25 cm, quality: 4+, cost: 60}
    text: Full strength.
"""


def _game(ws: Workspace) -> Workspace:
    ws.edit("game.yaml", "languages: []", "languages: [ru]")
    ws.write("data/units.yaml", UNITS)
    return ws


def _pot(ws: Workspace) -> polib.POFile:
    result = ws.run("i18n", "extract")
    assert result.returncode == 0, result.stderr
    return polib.pofile(str(ws.game / "locale/messages.pot"))


def _translator(ws: Workspace) -> tuple[Translator, object]:
    report = Report()
    game = Project(ws.root).load("demo", report)
    assert not report.errors, report.diagnostics
    return Translator.load(game, "ru"), game


def test_identical_strings_share_one_message_with_every_reference(ws: Workspace):
    pot = _pot(_game(ws))
    shared = [e for e in pot if e.msgid == "Full strength."]
    assert len(shared) == 1 and shared[0].msgctxt is None
    assert shared[0].occurrences == [("data/units.yaml", "6"), ("data/units.yaml", "11"), ("data/units.yaml", "16")]
    infantry = [e for e in pot if e.msgid == "infantry"]
    assert len(infantry) == 1 and len(infantry[0].occurrences) == 3
    # no contexts.yaml: only an erratum's reading has a context of its own, in every game
    assert all(e.msgctxt is None for e in pot if e.msgctxt != "erratum reading")
    assert [e.msgid for e in pot if e.msgctxt == "erratum reading"] == ["Fast"]


def test_translator_finds_the_shared_message(ws: Workspace):
    _game(ws).run("i18n", "update", "ru")
    catalog = polib.pofile(str(ws.game / "locale/ru.po"))
    catalog.find("Full strength.").msgstr = "Полный состав."
    catalog.save()
    tr, game = _translator(ws)
    assert {tr.field(u, "text") for u in game.units.values()} == {"Полный состав."}
    assert not tr.missing


def test_designer_forces_a_context(ws: Workspace):
    _game(ws)
    ws.write("locale/contexts.yaml", "contexts:\n  unit:riders.text: cavalry\n  unit:*.type:\n")
    pot = _pot(ws)
    texts = {(e.msgctxt, e.msgid) for e in pot}
    assert (None, "Full strength.") in texts and ("cavalry", "Full strength.") in texts
    assert {e.msgctxt for e in pot if e.msgid == "infantry"} == {f"unit:{u}.type" for u in ("scouts", "rangers", "riders")}
    assert not [d for d in ws.validate().diagnostics if d.code.startswith(("E", "W012"))]
    ws.run("i18n", "update", "ru")
    catalog = polib.pofile(str(ws.game / "locale/ru.po"))
    catalog.find("Full strength.", msgctxt=None).msgstr = "Полный состав."
    catalog.find("Full strength.", msgctxt="cavalry").msgstr = "Все всадники в строю."
    catalog.save()
    tr, game = _translator(ws)
    assert tr.field(game.units["riders"], "text") == "Все всадники в строю."
    assert tr.field(game.units["scouts"], "text") == "Полный состав."


def test_new_context_starts_from_the_shared_translation_as_fuzzy(ws: Workspace):
    _game(ws).run("i18n", "update", "ru")
    catalog = polib.pofile(str(ws.game / "locale/ru.po"))
    catalog.find("Full strength.").msgstr = "Полный состав."
    catalog.save()
    ws.write("locale/contexts.yaml", "contexts:\n  unit:riders.text: cavalry\n")
    ws.run("i18n", "update", "ru")
    entry = polib.pofile(str(ws.game / "locale/ru.po")).find("Full strength.", msgctxt="cavalry")
    assert entry.msgstr == "Полный состав." and entry.fuzzy


def test_stale_or_malformed_contexts_are_reported(ws: Workspace):
    _game(ws)
    ws.write("locale/contexts.yaml", "contexts:\n  unit:nobody.name: x\n")
    [warning] = [d for d in ws.validate().diagnostics if d.code == "W012"]
    assert warning.location.line == 2 and "unit:nobody.name" in warning.message
    ws.write("locale/contexts.yaml", "contexts:\n  just words: x\n")
    assert [d.code for d in ws.validate().diagnostics if d.code.startswith("E")] == ["E004"]


OLD_STYLE = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: ru\\n"

#: data/units.yaml:4
msgctxt "unit:scouts.name"
msgid "Scouts"
msgstr "Разведчики"

#: data/units.yaml:6
msgctxt "unit:scouts.text"
msgid "Full strength."
msgstr "Полный состав."

#: data/units.yaml:11
msgctxt "unit:rangers.text"
msgid "Full strength."
msgstr "Полный состав."

#: data/units.yaml:16
msgctxt "unit:riders.text"
msgid "Full strength."
msgstr "Все всадники в строю."

#: data/units.yaml:5
msgctxt "unit:scouts.type"
msgid "infantry"
msgstr "пехота"

#: data/units.yaml:10
msgctxt "unit:rangers.type"
msgid "infantry"
msgstr "пехота"

#: data/units.yaml:15
msgctxt "unit:riders.type"
msgid "infantry"
msgstr "пехота"
"""


def test_migration_keeps_every_translation_and_reports_conflicts(ws: Workspace):
    _game(ws)
    ws.write("locale/ru.po", OLD_STYLE)
    result = ws.run("i18n", "migrate")
    assert result.returncode == 0, result.stderr
    assert "1 translation(s) kept apart" in result.stdout
    assert "unit:riders.text: 'Все всадники в строю.'" in result.stdout
    catalog = polib.pofile(str(ws.game / "locale/ru.po"))
    live = [e for e in catalog if not e.obsolete]
    assert catalog.find("Full strength.", msgctxt=None).msgstr == "Полный состав."  # the majority
    assert catalog.find("Full strength.", msgctxt="unit:riders.text").msgstr == "Все всадники в строю."
    assert catalog.find("infantry", msgctxt=None).msgstr == "пехота"
    assert catalog.find("Scouts", msgctxt=None).msgstr == "Разведчики"
    assert len([e for e in live if e.msgid == "infantry"]) == 1
    assert "unit:riders.text:" in (ws.game / "locale/contexts.yaml").read_text(encoding="utf-8")
    tr, game = _translator(ws)  # the built text is what the old catalog gave
    assert [tr.field(u, "text") for u in game.units.values()] == ["Полный состав."] * 2 + ["Все всадники в строю."]
    assert not [d for d in ws.validate().diagnostics if d.code.startswith(("E", "W012"))]
    before = (ws.game / "locale/ru.po").read_text(encoding="utf-8")
    again = ws.run("i18n", "migrate")  # re-running changes nothing
    assert again.returncode == 0 and "kept apart" not in again.stdout
    assert (ws.game / "locale/ru.po").read_text(encoding="utf-8") == before


def test_catalog_not_yet_migrated_still_builds_and_update_migrates_it(ws: Workspace):
    _game(ws)
    ws.write("locale/ru.po", OLD_STYLE)
    tr, game = _translator(ws)
    assert tr.field(game.units["riders"], "text") == "Все всадники в строю."
    assert tr.field(game.units["rangers"], "type") == "пехота"
    result = ws.run("i18n", "update", "ru")
    assert result.returncode == 0, result.stderr
    assert "kept apart" in result.stdout
    catalog = polib.pofile(str(ws.game / "locale/ru.po"))
    assert catalog.find("infantry", msgctxt=None).msgstr == "пехота"
    assert not [e for e in catalog if e.obsolete and e.msgstr]


def test_removing_a_context_after_migration_shares_the_message_again(ws: Workspace):
    _game(ws)
    ws.write("locale/ru.po", OLD_STYLE)
    ws.run("i18n", "migrate")
    ws.write("locale/contexts.yaml", "contexts: {}\n")
    result = ws.run("i18n", "update", "ru")
    assert result.returncode == 0 and "kept apart" not in result.stdout
    catalog = polib.pofile(str(ws.game / "locale/ru.po"))
    assert [e.msgctxt for e in catalog if e.msgid == "Full strength." and not e.obsolete] == [None]
    old = [e for e in catalog if e.obsolete and e.msgid == "Full strength."]
    assert old and old[0].msgstr == "Все всадники в строю."  # kept as obsolete, not lost


def test_a_catalog_is_parsed_once_while_its_text_is_the_same(ws: Workspace, monkeypatch):
    """A worker builds a game's documents one after the other, each loading its translator:
    the catalog is parsed the first time only, until its text changes (even to the same size:
    `serve` rebuilds after an edit in the same process)."""
    from generator.i18n import translate

    _game(ws).run("i18n", "update", "ru")
    catalog = polib.pofile(str(ws.game / "locale/ru.po"))
    catalog.find("Full strength.").msgstr = "Полный состав."
    catalog.save()
    parsed: list[object] = []
    real = translate.read_catalog
    monkeypatch.setattr(translate, "read_catalog", lambda path: parsed.append(path) or real(path))
    first, game = _translator(ws)
    again, _ = _translator(ws)
    assert len(parsed) == 1 and again.field(game.units["scouts"], "text") == "Полный состав."
    again.entries.clear()  # a translator's own: the next one is whole
    assert _translator(ws)[0].field(game.units["scouts"], "text") == "Полный состав."
    path = ws.game / "locale/ru.po"
    path.write_text(path.read_text(encoding="utf-8").replace("Полный состав.", "Неполный сост."), encoding="utf-8")
    edited, game = _translator(ws)
    assert edited.field(game.units["scouts"], "text") == "Неполный сост." and len(parsed) == 2
