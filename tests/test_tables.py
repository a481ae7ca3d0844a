"""Tables: every row gives every column; references in cells are checked and printed; rules text
places the checker's probability tables and names stats; a block reference inside a sentence
is an error."""

from __future__ import annotations

from generator.diagnostics import Report
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
    assert "<caption>Hit chances</caption>" in html and "<td>Scouts</td><td>50" in html
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
