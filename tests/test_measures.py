"""Units of measure are content: a game declares its own (game.yaml measures:), a distance stat
and a value name it in its words, an edition prints it in the catalog's words, and a unit that
is neither built in nor declared is an error where it is written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.core.diagnostics import Report
from generator.i18n.translate import Translator
from generator.project import Project
from generator.values import Distance, DistanceUnit, StatType, format_value, parse_value

from .conftest import line_of

FIXTURE = Path(__file__).resolve().parents[1] / "tests/fixtures/bridgehead"
PACES = {"pace": "pace", "paces": "pace", "schritt": "pace"}


@pytest.fixture
def game_dir(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "content" / "bridgehead")
    return tmp_path / "content" / "bridgehead"


def _load(game_dir: Path, report: Report | None = None):
    return Project(game_dir.parents[1]).load("bridgehead", report or Report())


def test_a_value_names_a_unit_of_the_games_own_in_its_words():
    assert parse_value("12 paces", StatType.DISTANCE, "pace", PACES) == Distance(12, "pace")
    assert parse_value("12 Paces.", StatType.DISTANCE, None, PACES) == Distance(12, "pace")
    assert parse_value("12", StatType.DISTANCE, "pace", PACES) == Distance(12, "pace")
    assert parse_value("12 in", StatType.DISTANCE, None, PACES) == Distance(12, DistanceUnit.INCH)  # built-ins stay
    with pytest.raises(ValueError, match="'12 in' is in inch, this stat is in pace"):
        parse_value("12 in", StatType.DISTANCE, "pace", PACES)
    with pytest.raises(ValueError, match="unknown distance unit 'pacse'.*known: UE, cm, cube, hex, inch, pace;.*"
                                         "did you mean 'pace"):
        parse_value("12 pacse", StatType.DISTANCE, None, PACES)


def test_a_unit_prints_in_the_words_given_else_its_id():
    assert format_value(Distance(3, "pace"), "de", {"pace": "Schritt"}) == "3\u00a0Schritt"
    assert format_value(Distance(3, "pace"), "de") == "3\u00a0pace"
    assert format_value(Distance(3, DistanceUnit.INCH), "de") == "3\u00a0Zoll"


def test_a_fraction_prints_with_its_languages_decimal_sign():
    """CLDR's decimal sign (through Babel): a comma in Polish, German, Russian, a point in English."""
    assert format_value(Distance(2.5, DistanceUnit.CM), "pl") == "2,5\u00a0cm"
    assert format_value(Distance(2.5, DistanceUnit.INCH), "de") == "2,5\u00a0Zoll"
    assert format_value(Distance(2.5, DistanceUnit.CM), "en") == "2.5\u00a0cm"
    assert format_value(1.5, "ru") == "1,5" and format_value(1.5, "en") == "1.5" and format_value(1.5, "fr") == "1,5"
    assert format_value(Distance(12, DistanceUnit.CM), "pl") == "12\u00a0cm"  # a whole number has no sign
    assert format_value(0.5, "pt-BR") == "0,5" and format_value(0.5, "tlh") == "0.5"  # unknown to CLDR: a point


def test_the_games_own_unit_prints_in_the_editions_words(game_dir):
    from generator.text.blocks import stat_html

    game = _load(game_dir)
    assert game.values[("units", "cavalry", "charge")] == Distance(3, "pace")
    assert str(stat_html(game, Translator.load(game, "de"), game.units["cavalry"], "charge")) == "3\u00a0Schritt"
    assert str(stat_html(game, Translator.load(game, "en"), game.units["cavalry"], "charge")) == "3\u00a0paces"


def test_a_parameter_in_a_unit_of_the_games_own_prints_in_the_editions_words(game_dir):
    from generator.text.blocks import parameter_value

    manifest = game_dir / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "value: 6, unit: turns}", "value: 6, unit: turns}\n  - {id: deploy, name: Deployment, value: 10, unit: paces}"),
        encoding="utf-8")
    game = _load(game_dir)
    deploy = game.manifest.parameters[1]
    assert parameter_value(deploy, "de", game, Translator.load(game, "de").measure_words()) == "10\u00a0Schritt"
    assert parameter_value(game.manifest.parameters[0], "de", game) == "6"  # turns: not a unit of measure


def test_an_unknown_unit_of_a_stat_is_an_error_at_its_line_with_did_you_mean(game_dir):
    manifest = game_dir / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("unit: pace, min: 0", "unit: paec, min: 0"),
                        encoding="utf-8")
    report = Report()
    _load(game_dir, report)
    found = [d for d in report.diagnostics if d.code == "E072"]
    assert len(found) == 1
    assert found[0].location.line == line_of(manifest, "unit: paec")
    assert found[0].message == "stat 'charge' is in unknown unit of measure 'paec'"
    assert found[0].hint.startswith("did you mean 'pace'?")


def test_a_unit_declared_twice_is_an_error(game_dir):
    manifest = game_dir / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "  - {id: pace, name: paces, abbr: paces, one: pace}",
        "  - {id: pace, name: paces, abbr: paces, one: pace}\n  - {id: pace, name: steps}"),
        encoding="utf-8")
    report = Report()
    _load(game_dir, report)
    found = [d for d in report.diagnostics if d.code == "E072"]
    assert [d.location.line for d in found] == [line_of(manifest, "name: steps")]
    assert "declared twice" in found[0].message


def test_a_value_in_an_unknown_unit_is_an_error_at_the_value(game_dir):
    units = game_dir / "data/units.yaml"
    units.write_text(units.read_text(encoding="utf-8").replace("charge: 3 paces", "charge: 3 pacse"), encoding="utf-8")
    report = Report()
    _load(game_dir, report)
    found = [d for d in report.diagnostics if d.code == "E012"]
    assert len(found) == 1 and found[0].location.line == line_of(units, "3 pacse")
    assert "unknown distance unit 'pacse'" in found[0].message and "did you mean 'pace" in found[0].message


def test_the_games_unit_words_are_messages_of_the_catalogs(game_dir):
    from generator.i18n.messages import data_messages

    game = _load(game_dir)
    assert {"inches", "in", "paces"} <= {m.msgid for m in data_messages(game)}


def test_a_unit_word_holding_a_reference_still_reads_and_prints_without_looping(game_dir):
    from generator.text.blocks import stat_html

    manifest = game_dir / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "{id: pace, name: paces, abbr: paces, one: pace}",
        "{id: pace, name: paces, abbr: 'paces ({{ unit:cavalry.charge }})'}"),
        encoding="utf-8")
    report = Report()
    game = _load(game_dir, report)
    assert game.manifest.unit_words()["paces"] == "pace"
    assert not [d for d in report.diagnostics if d.code == "E012"]
    shown = str(stat_html(game, Translator.load(game, "de"), game.units["cavalry"], "charge"))
    assert shown == "3\u00a0paces (3\u00a0pace)"  # untranslated: the source words; the value inside them with the id


def test_a_distance_band_in_a_unit_of_the_games_own_prints_in_the_editions_words(game_dir):
    from generator.text.blocks import records_html

    bands = game_dir / "data/bands.yaml"
    bands.write_text("bands:\n  - {id: close, name: Close, min: 0, max: 2, unit: pace}\n"
                     "  - {id: far, name: Far, min: 3, unit: pacse}\n", encoding="utf-8")
    report = Report()
    game = _load(game_dir, report)
    found = [d for d in report.diagnostics if d.code == "E072"]
    assert [(d.message, d.location.line) for d in found] == [("band 'far' is in unknown unit of measure 'pacse'", 3)]
    assert found[0].hint.startswith("did you mean 'pace'?")
    html = str(records_html(game, "bands", Translator.load(game, "de"), lambda record: None))
    assert "0–2\u00a0Schritt" in html
