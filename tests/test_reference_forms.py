"""References: an error points at the reference's own column; a reference may give its display
text (`{{ unit:gun | guns }}`), which the translator writes in the message."""

from __future__ import annotations

from generator.i18n.markup import mismatch
from generator.i18n.messages import needs_translation


def _chapter(ws, body: str):
    return ws.write("rules/09-extra.md", f"# Extra\n\nThe scouts and {body} move.\n")


def test_an_unknown_reference_in_a_chapter_is_reported_at_its_column(ws):
    path = _chapter(ws, "the {{ unit:scuots }} and the {{ unit:nosuch }}")
    found = sorted((d.location.line, d.location.col) for d in ws.validate().diagnostics
                   if d.code == "E007" and d.location.path == path)
    line = path.read_text().splitlines()[2]
    assert found == [(3, line.index("{{ unit:scuots") + 1), (3, line.index("{{ unit:nosuch") + 1)]


def test_a_display_form_prints_in_place_of_the_name(ws):
    from generator.core.diagnostics import Report
    from generator.project import Project
    from generator.text.refs import Ref, reference_words
    from generator.i18n.translate import Translator

    _chapter(ws, "{{ unit:scouts | the outriders }}")
    assert not [d for d in ws.validate().diagnostics if d.code in ("E007", "E019")]
    game = Project(ws.root).load("demo", Report())
    assert Ref.parse("unit:scouts | the  outriders").label == "the outriders"
    assert reference_words(Translator(game, "en"), "Both {{ unit:scouts | outriders }} and {{ unit:scouts }}.") \
        == "Both outriders and Scouts."


def test_a_display_form_must_have_words_and_name_a_record(ws):
    path = _chapter(ws, "{{ unit:scouts | }} or {{ param:victory-points | ten }}")
    found = [d for d in ws.validate().diagnostics if d.code == "E019" and d.location.path == path]
    assert [("no display text" in d.message, "only a record's" in d.message) for d in found] == \
        [(True, False), (False, True)]


def test_the_translator_writes_the_display_form():
    assert needs_translation("{{ unit:gun | guns }}") and not needs_translation("{{ unit:gun }}")
    assert mismatch("The {{ unit:gun | guns }} fire.", "Die {{ unit:gun | Geschütze }} feuern.") is None
    assert "drops" in mismatch("The {{ unit:gun | guns }} fire.", "Die {{ unit:cavalry | Reiter }} feuern.")


def test_a_reference_in_a_data_text_that_is_never_closed_is_reported_at_its_braces(ws):
    path = ws.edit("data/cards.yaml", "    text: One unit moves and then attacks.",
                   "    text: One {{ unit:scouts }} moves, then {{ unit:scouts attacks.")
    found = [d for d in ws.validate().diagnostics if d.code == "E019" and d.location.path == path]
    line = next(n for n, text in enumerate(path.read_text().splitlines(), start=1) if "then {{" in text)
    text = path.read_text().splitlines()[line - 1]
    assert [(d.location.line, d.location.col) for d in found] == [(line, text.index("{{ unit:scouts attacks") + 1)]
    assert "never closed" in found[0].message


def test_a_case_form_prints_the_records_own_name_in_that_case(ws):
    from generator.core.diagnostics import Report
    from generator.i18n.translate import Translator
    from generator.project import Project
    from generator.text.blocks import inline_refs_html
    from generator.text.refs import Ref, reference_words

    _chapter(ws, "{{ unit:scouts !lower }}")
    assert not [d for d in ws.validate().diagnostics if d.code in ("E007", "E019")]
    game = Project(ws.root).load("demo", Report())
    tr = Translator(game, "en")
    assert Ref.parse("unit:scouts !lower").case == "lower"
    assert Ref.parse("unit:scouts | outriders !capital") == Ref("unit", "scouts", None, label="outriders",
                                                                 case="capital")
    assert reference_words(tr, "All {{ unit:scouts !lower }}, {{ unit:scouts !upper }}, {{ unit:scouts }}, "
                               "{{ unit:scouts | outriders !capital }}.") == "All scouts, SCOUTS, Scouts, Outriders."
    assert str(inline_refs_html(game, tr, "the {{ unit:scouts !lower }}", lambda record: None)) == \
        'the <span class="ref ref-unit">scouts</span>'


def test_a_case_form_prints_in_the_rulebook(ws):
    from generator.core.diagnostics import Report
    from generator.i18n.translate import Translator
    from generator.project import Project
    from generator.text.render import RenderContext, _ref_html

    game = Project(ws.root).load("demo", Report())
    ctx = RenderContext(game, Translator(game, "en"), "print", lambda record: None)
    assert str(_ref_html(ctx, "unit:scouts !lower")) == '<span class="ref ref-unit">scouts</span>'
    assert str(_ref_html(ctx, "stat:move !upper")) == '<span class="stat-name">MOVE</span>'


def test_an_unknown_case_form_or_one_on_a_value_is_reported(ws):
    path = _chapter(ws, "{{ unit:scouts !lowr }} or {{ param:victory-points !lower }}")
    found = [d for d in ws.validate().diagnostics if d.code == "E019" and d.location.path == path]
    assert [d.message.split(": ", 1)[1] for d in found] == \
        ["unknown case form '!lowr'", "only a record's or a stat's name takes a case form"]
    assert found[0].hint == "did you mean 'lower'?"


def test_the_translator_may_give_another_case_form_or_none():
    assert mismatch("The {{ unit:gun !lower }} fire.", "Die {{ unit:gun }} feuern.") is None
    assert mismatch("The {{ unit:gun !lower }} fire.", "Les {{ unit:gun | canons !lower }} tirent.") is None
    assert "drops" in mismatch("The {{ unit:gun !lower }} fire.", "Die {{ unit:cavalry }} feuern.")
