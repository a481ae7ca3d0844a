"""The editor's text: a record's `editor:` lists the text fields that are this edition's words,
not the source's. Each prints marked («ред.» / "ed.") wherever it shows, with a one-line legend
on the document or page; a path that names no text field is E062; and every text field of the
shipped games is either the source's words, listed under `editor:`, or a short label."""

from __future__ import annotations

import re
import shutil

import pytest

from generator.core.diagnostics import Report
from generator.i18n.catalog import EDITORS_COMMENT, template
from generator.print.context import BuildContext
from generator.project import Project
from generator.text import editorial

from .conftest import GAMES, REPO, Workspace, line_of
from .source_audit import audit, audit_headings, is_label, is_source, normal

MARK = 'class="editor-mark"'
LEGEND = 'class="editor-legend"'


def _load(ws: Workspace):
    report = Report()
    game = Project(ws.root).load("demo", report)
    return game, report


def _mark_terrain_text(ws: Workspace) -> None:
    ws.edit("data/terrain.yaml", "    text: Blocks line of sight beyond 5 cm.",
            "    text: Blocks line of sight beyond 5 cm.\n    editor: [text]")


# --- E062 ---------------------------------------------------------------------------------

def test_a_path_that_names_no_text_field_is_e062_with_its_line(ws: Workspace):
    path = ws.edit("data/terrain.yaml", "    text: Blocks line of sight beyond 5 cm.",
                   "    text: Blocks line of sight beyond 5 cm.\n    editor: [txt]")
    _, report = _load(ws)
    [error] = [d for d in report.diagnostics if d.code == "E062"]
    assert error.message == "editor: of terrain 'woods' names 'txt', which is no text field of it"
    assert error.location.line == line_of(path, "editor: [txt]")
    assert error.hint == "did you mean 'text'?"


def test_a_field_that_is_not_text_is_e062(ws: Workspace):
    ws.edit("data/units.yaml", "    text: Eyes of the army.", "    text: Eyes of the army.\n    editor: [stats.cost]")
    _, report = _load(ws)
    assert [d.code for d in report.diagnostics] == ["E062"]


def test_a_path_listed_twice_is_e062(ws: Workspace):
    ws.edit("data/dice.yaml", "      - {value: 6, name: Any}", "      - {value: 6, name: Any}\n    editor: [faces.5.name, faces.5.name]")
    _, report = _load(ws)
    [error] = [d for d in report.diagnostics if d.code == "E062"]
    assert error.message == "die 'command' lists 'faces.5.name' under editor: twice"


def test_nested_paths_and_table_cells_are_text_fields(ws: Workspace):
    ws.edit("data/dice.yaml", "      - {value: 6, name: Any}", "      - {value: 6, name: Any}\n    editor: [faces.5.name]")
    ws.edit("data/tables.yaml", "      - {roll: 3-6, result: Clear skies.}",
            "      - {roll: 3-6, result: Clear skies.}\n    editor: [rows.1.result, columns.0.name]")
    game, report = _load(ws)
    assert not report.diagnostics, [d.message for d in report.diagnostics]
    assert game.tables["weather"].editor == ("rows.1.result", "columns.0.name")


# --- marks ---------------------------------------------------------------------------------

def _ctx(ws: Workspace) -> BuildContext:
    game, report = _load(ws)
    assert not report.diagnostics, [d.message for d in report.diagnostics]
    return BuildContext(game, "en", ws.root)


def _marked_near(html: str, text: str) -> bool:
    """Whether the mark follows `text` (within the same element or the one closing it)."""
    at = html.find(text)
    assert at >= 0, text
    return MARK in html[at:at + len(text) + 40]


def test_a_marked_field_shows_the_mark_in_the_rulebook_with_a_legend(ws: Workspace):
    from generator.print.rulebook import book_html

    plain = book_html(_ctx(ws))
    assert MARK not in plain and LEGEND not in plain  # an unmarked field shows none
    _mark_terrain_text(ws)
    html = book_html(_ctx(ws))
    assert _marked_near(html, "Blocks line of sight beyond 5 cm.")
    assert html.count(LEGEND) == 1
    assert "Editor’s text: not the source’s words" in html  # tooltip and accessible label


def test_a_chapter_reference_to_a_marked_field_shows_the_mark(ws: Workspace):
    from generator.print.rulebook import book_html

    ws.write("rules/09-woods.md", "# Woods\n\n{{ terrain:woods.text }}\n")
    _mark_terrain_text(ws)
    html = book_html(_ctx(ws))
    assert re.search(r'<span class="value"[^>]*>Blocks line of sight beyond 5 cm\.<span class="editor-mark"[^>]*>\u00a0', html)


def test_a_marked_table_cell_and_name_show_the_mark_on_the_reference_sheet(ws: Workspace):
    from generator.print.reference import sheet_html

    assert MARK not in sheet_html(_ctx(ws))
    ws.edit("data/tables.yaml", "      - {roll: 3-6, result: Clear skies.}",
            "      - {roll: 3-6, result: Clear skies.}\n    editor: [rows.1.result]")
    html = sheet_html(_ctx(ws))
    assert _marked_near(html, "Clear skies.")
    assert not _marked_near(html, "Rain: every Move is 5 cm shorter.")
    assert html.count(LEGEND) == 1


def test_a_marked_card_text_shows_the_mark_and_the_legend_on_its_face(ws: Workspace):
    from generator.print.cardfaces import deck_cards, with_legend

    ws.edit("data/cards.yaml", "    text: One unit moves and then attacks.",
            "    text: One unit moves and then attacks.\n    editor: [text, name]")
    faces = {f.id: with_legend(_ctx(ws), f) for f in deck_cards(_ctx(ws))}
    assert MARK in faces["advance"].body and LEGEND in faces["advance"].body
    assert MARK in faces["advance"].title_mark
    assert MARK not in faces["ambush"].body and LEGEND not in faces["ambush"].body


def test_a_marked_keyword_definition_shows_the_mark_in_its_tooltip(ws: Workspace):
    from generator.text.blocks import keyword_ref_html

    ws.edit("data/keywords.yaml", "    definition: The unit moves 5 cm further.",
            "    definition: The unit moves 5 cm further.\n    editor: [definition]")
    ctx = _ctx(ws)
    html = keyword_ref_html(ctx.game.keywords["fast"], "Fast", ctx.tr, lambda r: "#k")
    tip = re.search(r'<span class="kw-tip" role="tooltip">(.*?)</span></a>', str(html)).group(1)
    assert "The unit moves 5 cm further." in tip and MARK in tip
    other = keyword_ref_html(ctx.game.keywords["ap"], "AP", ctx.tr, lambda r: "#k")
    assert MARK not in other


def test_site_pages_show_the_mark_with_a_legend_and_search_skips_it(ws: Workspace):
    from generator.site.pages import game_pages

    _mark_terrain_text(ws)
    ws.edit("data/cards.yaml", "    text: One unit moves and then attacks.",
            "    text: One unit moves and then attacks.\n    editor: [text]")
    pages = {p.path: p for p in game_pages(_ctx(ws), Report())}
    reference = str(pages["reference.html"].body)
    assert _marked_near(reference, "Blocks line of sight beyond 5 cm.") and reference.count(LEGEND) == 1
    card = str(pages["cards/advance.html"].body)
    head = card[:card.find('<div class="card-preview"')]
    assert _marked_near(head, "One unit moves and then attacks.") and LEGEND in head
    assert MARK not in str(pages["cards/ambush.html"].body) and LEGEND not in str(pages["cards/ambush.html"].body)
    # the mark and the legend are the edition's words about the text: never what search finds
    for html in (reference, head):
        for tag in re.findall(r'<[^>]*class="editor-(?:mark|legend)"[^>]*>', html):
            assert "data-pagefind-ignore" in tag, tag


def test_the_catalog_tells_translators_a_message_is_the_editors(ws: Workspace):
    _mark_terrain_text(ws)
    game, _ = _load(ws)
    entries = {e.msgid: e for e in template(game)}
    assert entries["Blocks line of sight beyond 5 cm."].comment == EDITORS_COMMENT
    assert entries["Eyes of the army."].comment == ""


def test_every_interface_language_has_the_mark_and_its_legend():
    from generator.i18n.ui import InterfaceWords, shipped_languages

    assert len(shipped_languages()) == 6
    for lang in shipped_languages():
        words = InterfaceWords.load(lang).words  # the language's own words, no English fallback
        assert words.get("editor-mark") and words.get("editor-mark-label"), lang
        assert words.get("editor-legend", "").count("{mark}") == 1, lang
    assert InterfaceWords.load("ru")("editor-mark") == "ред." and InterfaceWords.load("de")("editor-mark") == "Red."


# --- the audit of the shipped games --------------------------------------------------------

@pytest.mark.parametrize("game_id", GAMES)
def test_every_shipped_text_field_is_the_sources_words_marked_or_a_short_label(game_id):
    """The key test: no text of the edition passes for the source's. Each text field is found
    verbatim (up to typography) in the game's source text, or listed under `editor:`, or a
    short label by the documented rule; and nothing the source says is marked as the editor's."""
    found = audit(game_id, REPO)
    wrong = {key: text[:80] for key, (verdict, text) in found.items() if verdict in ("unmarked", "source-marked")}
    assert not wrong, wrong
    assert any(verdict == "source" for verdict, _ in found.values())
    headings = audit_headings(game_id, REPO)
    assert not {h: v for h, v in headings.items() if v in ("unmarked", "source-marked")}
    assert "source" in headings.values()


def test_the_audit_catches_a_paraphrase_left_unmarked(tmp_path):
    shutil.copytree(REPO / "content" / "frames", tmp_path / "content" / "frames")
    bands = tmp_path / "content" / "frames" / "data" / "bands.yaml"
    bands.write_text(bands.read_text(encoding="utf-8").replace("    editor: [text]\n", "", 1), encoding="utf-8")
    found = audit("frames", tmp_path)
    assert found[("band", "melee", "text")][0] == "unmarked"
    assert found[("band", "directed", "name")][0] in ("source", "label")


def test_a_heading_the_edition_wrote_is_marked_and_the_audit_sees_it(ws: Workspace, tmp_path):
    from generator.print.rulebook import book_html

    ws.write("rules/09-notes.md", "{.editor}\n# Notes\n\nThe designer's notes follow.\n")
    html = book_html(_ctx(ws))
    assert re.search(r'<h1 id="notes--notes"[^>]*>Notes<span class="editor-mark"[^>]*>[\s\u00a0]ed\.</span></h1>', html)
    assert 'class="editor"' not in html  # the heading's own attribute is gone: the mark says it
    assert html.count(LEGEND) == 1
    game, _ = _load(ws)
    entries = {e.msgid: e for e in template(game)}
    assert entries["Notes"].comment == EDITORS_COMMENT and entries["The designer's notes follow."].comment == ""
    shutil.copytree(REPO / "content" / "frames", tmp_path / "content" / "frames")
    footnotes = tmp_path / "content" / "frames" / "rules" / "04-footnotes.md"
    assert audit_headings("frames", tmp_path)[("04-footnotes.md", "Сноски")] == "editor"
    footnotes.write_text(footnotes.read_text(encoding="utf-8").replace("{.editor .unnumbered}\n", "{.unnumbered}\n", 1),
                         encoding="utf-8")
    assert audit_headings("frames", tmp_path)[("04-footnotes.md", "Сноски")] == "unmarked"


def test_the_audit_reads_the_source_up_to_typography():
    seed = normal("Фрейм стоит на месте. Урон — «4,5 или 6»; Поврежденияи так ")
    assert is_source("Фрейм стоит на месте.", seed)
    assert is_source('Урон - "4,5 или 6"', seed)
    assert is_source("Повреждения и так", seed)  # the source's extraction joined two words
    assert not is_source("Фрейм стоит на месте и ждёт.", seed)
    assert not is_source("месте", normal("на местечке"))  # one word is found as a whole word only
    assert is_label("name", "Фрейм", seed) and not is_label("text", "Фрейм", seed)
    assert not is_label("name", "Фрейм стоит на", seed)  # three words: no longer a short label


def test_the_search_index_has_the_marked_text_but_not_the_mark(ws: Workspace):
    import gzip

    pytest.importorskip("pagefind")
    _mark_terrain_text(ws)
    result = ws.run("build", "--only", "site")
    assert result.returncode == 0, result.stderr
    fragments = [gzip.decompress(p.read_bytes()).decode("utf-8")
                 for p in (ws.root / "output" / "site" / "pagefind" / "fragment").glob("*.pf_fragment")]
    indexed = "\n".join(fragments)
    assert "Blocks line of sight beyond 5 cm." in indexed
    assert "Editor’s text" not in indexed and "marks the editor’s text" not in indexed
    assert not re.search(r"5 cm\.\s*ed\.", indexed)


def test_every_kind_of_file_accepts_editor_in_its_schema():
    from generator.model.schema import schemas

    for name, schema in schemas().items():
        if name != "game.schema.json":
            item = next(iter(schema["properties"].values()))["items"]
            record = schema["$defs"][item["$ref"].split("/")[-1]] if "$ref" in item else item
            assert "editor" in record["properties"], name


def test_a_marked_keyword_name_is_marked_where_a_unit_lists_it(ws: Workspace):
    from generator.text.blocks import keyword_uses_html

    ws.edit("data/keywords.yaml", "    definition: The target's save roll gets -X.",
            "    definition: The target's save roll gets -X.\n    editor: [name]")
    ctx = _ctx(ws)
    html = str(keyword_uses_html(ctx.game, ctx.tr, ["AP (1)", "Fast"], lambda r: None))
    assert re.search(r'AP \(1\)<span class="editor-mark"[^>]*>\u00a0', html) and html.count(MARK) == 1


def test_a_parameter_names_its_editors_fields_and_prints_them_marked(ws: Workspace):
    from generator.print.reference import sheet_html

    path = ws.edit("game.yaml", "    name: Victory points needed to win\n",
                   "    name: Victory points needed to win\n    editor: [name, nme]\n")
    _, report = _load(ws)
    [error] = report.diagnostics
    assert (error.code, error.location.line) == ("E062", line_of(path, "editor: [name, nme]"))
    assert "parameter 'victory-points'" in error.message and error.hint == "did you mean 'name'?"
    ws.edit("game.yaml", "editor: [name, nme]", "editor: [name]")
    html = sheet_html(_ctx(ws))
    assert _marked_near(html, "Victory points needed to win") and html.count(LEGEND) == 1
    game, _ = _load(ws)
    assert {e.msgid: e for e in template(game)}["Victory points needed to win"].comment == EDITORS_COMMENT


def test_a_component_the_editor_names_is_marked_on_the_landing_page(ws: Workspace):
    from generator.site.pages import game_pages

    ws.edit("game.yaml", "    name: six-sided dice\n", "    name: six-sided dice\n    editor: [name]\n")
    pages = {p.path: p for p in game_pages(_ctx(ws), Report())}
    landing = str(pages["index.html"].body)
    assert re.search(r"six-sided dice × 10<span class=\"editor-mark\"[^>]*>\u00a0", landing) and LEGEND in landing


def test_a_summary_the_editor_wrote_is_marked_on_the_cover_and_the_landing_page(ws: Workspace):
    from generator.print.rulebook import book_html
    from generator.site.pages import game_pages

    path = ws.edit("game.yaml", "summary: A skirmish game for two players.\n",
                   "summary: A skirmish game for two players.\neditor: [summary, sumary]\n")
    _, report = _load(ws)
    assert [(d.code, d.location.line) for d in report.diagnostics] == [("E062", line_of(path, "editor: [summary"))]
    ws.edit("game.yaml", "editor: [summary, sumary]", "editor: [summary]")
    html = book_html(_ctx(ws))
    assert re.search(r'cover-summary">A skirmish game for two players\.<span class="editor-mark"[^>]*>\u00a0', html)
    assert html.count(LEGEND) == 1
    landing = str({p.path: p for p in game_pages(_ctx(ws), Report())}["index.html"].body)
    assert _marked_near(landing, "A skirmish game for two players.") and LEGEND in landing
