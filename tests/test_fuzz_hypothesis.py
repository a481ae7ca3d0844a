"""Property-based fuzzing (Hypothesis, seeded and bounded): the YAML loader, the reference
resolver, the Markdown renderer and the translation-markup comparison never raise anything
but their own errors, whatever the text, and never let markup or Python internals through."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.core.diagnostics import Report
from generator.i18n.markup import mismatch
from generator.project import Project
from generator.reading.yamlsource import load_yaml

from .conftest import Workspace

FUZZ = settings(derandomize=True, max_examples=80, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

YAML_BITS = st.sampled_from(["a", "b: ", ": ", "- ", "[", "]", "{", "}", ",", "&x ", "*x", "<<: ", "!!binary ",
                             "!tag ", "'", '"', "\\", "\n", "\n  ", "\t", "#", "?", "|", ">", "yes", "6:1", "010",
                             ".nan", "9" * 120, "\x00", "\x07", "~", "%YAML 1.1", "---", "..."])
MARKDOWN_BITS = st.sampled_from(["# ", "\n", "\n\n", "*", "**", "_", "`", "```", "```check\n", "::: note", "::: example x",
                                 ":::", "{{ ", "}}", "unit:scouts", "unit:scouts.name", ".__class__", "param:victory-points",
                                 "list:units", "[a](", ")", "![i](", "http://127.0.0.1/x.png", "<script>", "&amp;",
                                 "| a | b |", "|---|---|", "[a](x.html)", "[b](y.html)", "[^1]", "> ", "1. ", "- ", "\x00", "Scouts", "Fast"])


def texts(bits) -> st.SearchStrategy[str]:
    return st.lists(st.one_of(bits, st.text(max_size=5)), max_size=30).map("".join)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    ws = Workspace(tmp_path_factory.mktemp("fuzz"))
    game = Project(ws.root).load("demo", Report())
    assert game is not None
    return game


@FUZZ
@given(texts(YAML_BITS))
def test_loader_never_raises(text: str):
    report = Report()
    doc = load_yaml(Path("fuzz.yaml"), report, text=text)
    assert all(d.location.line >= 0 for d in report.diagnostics)
    if doc is not None:
        _plain(doc.data)


def _plain(value, depth=0):
    assert depth <= 101
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, (str, int, float, bool))
            _plain(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _plain(item, depth + 1)
    else:
        assert value is None or isinstance(value, (str, int, float, bool))


@FUZZ
@given(st.one_of(texts(MARKDOWN_BITS), st.sampled_from(["unit:scouts", "unit:scouts.stats.quality", "param:victory-points",
                                                         "unit:scouts.weapons.0.weapon", "keyword:fast"])
                 .flatmap(lambda base: texts(st.sampled_from([".", "0", "name", "__class__", "__dict__", "_", "stats",
                                                               "weapons", "__globals__", "-", "count"]))
                          .map(lambda tail: base + tail))))
def test_reference_resolver_never_leaks(demo, text: str):
    from generator.text.refs import Ref, RefError, resolve

    try:
        resolved = resolve(demo, Ref.parse(text))
    except RefError:
        return
    shown = resolved.text("en")
    assert "<class" not in shown and "environ" not in shown and "object at 0x" not in shown


@FUZZ
@given(texts(MARKDOWN_BITS))
def test_markdown_renderer_escapes_and_never_raises(demo, text: str):
    from generator.i18n.translate import Translator
    from generator.text.chapters import load_chapter
    from generator.text.render import RenderContext, render_chapter

    chapter = load_chapter(demo.folder / "rules" / "fuzz.md", text="# Fuzz\n\n" + text)
    ctx = RenderContext(demo, Translator.load(demo, "en"), "site", lambda record: None, {})
    try:
        html = str(render_chapter(chapter, ctx).html)
    except ValueError:  # RefError and kin: what validate reports as diagnostics
        return
    assert "<script>" not in html
    assert "\x00" not in html


@FUZZ
@given(texts(MARKDOWN_BITS), texts(MARKDOWN_BITS))
def test_translation_markup_comparison_never_raises(source: str, translation: str):
    assert mismatch(source, source) is None
    found = mismatch(source, translation)
    assert found is None or isinstance(found, str) and found
