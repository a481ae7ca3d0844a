"""Tables: every row gives every column; references in cells are checked and printed; rules text
places the checker's probability tables and names stats; a block reference inside a sentence
is an error."""

from __future__ import annotations

import re

from generator.core.diagnostics import Report
from generator.i18n.translate import Translator
from generator.project import Project
from generator.text.blocks import table_html
from generator.text.chapters import load_chapter
from generator.text.render import RenderContext, render_chapter

from .conftest import Workspace, line_of


def load(ws: Workspace):
    report = Report()
    game = Project(ws.root).load("demo", report)
    return game, report


def codes(report: Report) -> list[str]:
    return [d.code for d in report.diagnostics]


def test_a_row_missing_a_column_names_its_line(ws: Workspace):
    path = ws.edit("data/tables.yaml", "      - {roll: 3-6, result: Clear skies.}", "      - {roll: 3-6}")
    _, report = load(ws)
    [error] = report.diagnostics
    assert error.code == "E051" and "row 2 of table 'weather' has no 'result'" in error.message
    assert error.location.line == line_of(path, "{roll: 3-6}")


def test_unstated_or_dash_fills_a_cell(ws: Workspace):
    ws.edit("data/tables.yaml", "result: Clear skies.", "result: unstated")
    assert not load(ws)[1].diagnostics


def test_a_reference_in_a_cell_is_checked_on_the_cell_line(ws: Workspace):
    path = ws.edit("data/tables.yaml", "result: Clear skies.}", "result: \"Clear; {{ terrain:wods }} burn.\"}")
    _, report = load(ws)
    [error] = report.diagnostics
    assert error.code == "E007" and "unknown terrain 'wods'" in error.message and "woods" in error.hint
    assert error.location.line == line_of(path, "terrain:wods")


def test_a_reference_in_a_cell_prints_the_record(ws: Workspace):
    ws.edit("data/tables.yaml", "result: Clear skies.}", "result: \"Clear; {{ terrain:woods }} burn ({{ stat:quality }}).\"}")
    game, report = load(ws)
    assert not report.diagnostics
    html = table_html(game.tables["weather"], Translator.load(game, "en"), lambda r: f"#{r.kind}-{r.id}")
    assert '<a class="ref ref-terrain" href="#terrain-woods">Woods</a> burn (Quality)' in html
    assert "{{" not in html


def test_a_whole_table_cannot_stand_in_a_cell(ws: Workspace):
    ws.edit("data/tables.yaml", "result: Clear skies.}", "result: \"{{ list:units }}\"}")
    assert codes(load(ws)[1]) == ["E052"]


PROCEDURES = '''\
from generator.checker import exact, procedure, table


@procedure("shoot")
def shoot(game, dice, unit) -> dict:
    return {"hits": dice.successes(1, game.stat(game.units[unit], "quality"))}


@table("hit-chances", title={"en": "Hit chances"}, columns={"unit": "Unit", "hit": "P(hit)"})
def hit_chances(game):
    return [{"unit": u, "hit": exact(shoot, game, {"unit": u.id}).probability("hits == 1")}
            for u in game.units.values()]
'''


def _render(game, path):
    ctx = RenderContext(game, Translator.load(game, "en"), "site", lambda r: None)
    return render_chapter(load_chapter(path), ctx).html


def test_rules_text_places_a_probability_table_and_names_a_stat(ws: Workspace):
    ws.write("procedures.py", PROCEDURES)
    path = ws.write("rules/01-odds.md", "# Odds\n\nScouts hit on their {{ stat:quality }}.\n\n{{ table:hit-chances }}\n")
    game, report = load(ws)
    assert not report.diagnostics, [d.message for d in report.diagnostics]
    html = _render(game, path)
    # the edition titles the table the checker computes: the title carries the editor's mark
    assert re.search('<caption>Hit chances<span class="editor-mark"[^>]*>\u00a0', html) and "<td>Scouts</td><td>50" in html
    assert "hit on their <span class=\"stat-name\">Quality</span>" in html


def test_unknown_probability_table_and_stat_are_e007_with_did_you_mean(ws: Workspace):
    ws.write("procedures.py", PROCEDURES)
    ws.write("rules/01-odds.md", "# Odds\n\nOn {{ stat:qualty }}.\n\n{{ table:hit-chance }}\n")
    _, report = load(ws)
    errors = {d.message: d for d in report.diagnostics}
    assert "hit-chances" in errors["unknown table 'hit-chance'"].hint
    assert "quality" in errors["unknown stat 'qualty'"].hint


def test_a_block_reference_inside_a_sentence_is_an_error(ws: Workspace):
    path = ws.write("rules/01-weather.md", "# Weather\n\n- Roll on {{ table:weather }} each turn.\n- Or not.\n\n"
                    "{{ table:weather }}\n")
    _, report = load(ws)
    [error] = report.diagnostics
    assert error.code == "E052" and error.location.line == line_of(path, "Roll on")


CODED = ("      - {id: result, name: Result}\n",
         "      - {id: result, name: Result}\n      - id: sky\n        name: Sky\n        values:\n"
         "          - {id: wet, name: Wet weather}\n          - {id: dry, name: Dry weather}\n")


def _coded(ws: Workspace) -> None:
    ws.edit("data/tables.yaml", *CODED)
    ws.edit("data/tables.yaml", 'shorter."}', 'shorter.", sky: wet}')
    ws.edit("data/tables.yaml", "result: Clear skies.}", "result: Clear skies., sky: \"wet, dry\"}")


def test_a_coded_column_prints_its_values_names_never_the_ids(ws: Workspace):
    _coded(ws)
    game, report = load(ws)
    assert not report.diagnostics, [d.message for d in report.diagnostics]
    html = table_html(game.tables["weather"], Translator.load(game, "en"))
    assert "<td>Wet weather</td>" in html and "<td>Wet weather, Dry weather</td>" in html
    assert ">wet<" not in html and "dry<" not in html


def test_a_computed_table_names_coded_values_from_a_data_table(ws: Workspace, tmp_path):
    import json

    from generator.checker.procedures import load_procedures
    from generator.checker.tables import compute, write

    _coded(ws)
    ws.write("procedures.py", '''\
from generator.checker import table


@table("skies", columns={"sky": "Sky", "n": "Count"}, values={"sky": "weather.sky"})
def skies(game):
    return [{"sky": "wet", "n": 1}, {"sky": "dry", "n": 2}]
''')
    game, report = load(ws)
    assert not report.diagnostics
    declared = load_procedures(game.folder).tables["skies"]
    write(compute(game, declared), tmp_path, game)
    data = json.loads((tmp_path / "skies.json").read_text())
    assert [r["sky"] for r in data["localized"]["en"]] == ["Wet weather", "Dry weather"]
    assert [r["sky"] for r in data["exact"]] == ["wet", "dry"]  # the CSV and exact rows keep the ids


def test_a_computed_table_naming_a_column_without_values_is_refused(ws: Workspace):
    from generator.checker.procedures import load_procedures
    from generator.checker.tables import compute

    ws.write("procedures.py", '''\
from generator.checker import table


@table("skies", values={"sky": "weather.result"})
def skies(game):
    return [{"sky": "wet"}]
''')
    game, _ = load(ws)
    try:
        compute(game, load_procedures(game.folder).tables["skies"])
    except ValueError as exc:
        assert "weather.result" in str(exc)
    else:
        raise AssertionError("a column without values was accepted")


def test_a_parameter_the_game_leaves_open_prints_a_dash_and_its_note(ws: Workspace):
    from generator.text.blocks import parameters_html

    ws.edit("game.yaml", "    value: 10\n    unit: points\n",
            "    value: null\n    unit: points\n    note: Agreed before play.\n")
    game, report = load(ws)
    assert not report.diagnostics
    html = parameters_html(game, Translator.load(game, "en"))
    assert "None" not in html and "—" in html and "Agreed before play." in html
