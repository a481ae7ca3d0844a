"""Interface words ("Contents", "Example"…): shipped catalogs per language, a game's
overrides, and a warning where a language would print them in English."""

from __future__ import annotations

import re
import shutil
import subprocess

import polib
import pytest

from generator.core.diagnostics import Report
from generator.i18n.ui import TEMPLATE, UI_DIR, english
from generator.print.context import BuildContext
from generator.print.rulebook import rulebook_html
from generator.project import Project

from .conftest import REPO, Workspace

CHAPTER = """# Einleitung

Ein Absatz.

::: example first
Ein Beispiel.
:::
"""

OVERRIDE = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgctxt "rulebook"
msgid "Rulebook"
msgstr "Spielregel"
"""


def _game(ws: Workspace, langs: str, source: str = "en"):
    ws.edit("game.yaml", "languages: []", f"languages: [{langs}]")
    ws.edit("game.yaml", "source_language: en", f"source_language: {source}")
    ws.edit("game.yaml", "  en: Demo", f"  {source}: Demo")
    ws.write("rules/01-intro.md", CHAPTER)


def _rulebook(ws: Workspace, lang: str) -> str:
    report = Report()
    game = Project(ws.root).load("demo", report)
    assert not report.errors, report.diagnostics
    return rulebook_html(BuildContext(game, lang, ws.root))


def _visible(html: str) -> str:
    return re.sub(r"<style.*?</style>", "", html, flags=re.S)


def _codes(ws: Workspace) -> list[str]:
    return [d.code for d in ws.validate().diagnostics]


def test_german_game_gets_german_labels(ws: Workspace):
    _game(ws, "", source="de")
    html = _visible(_rulebook(ws, "de"))
    assert ">Inhalt<" in html and ">Regelheft<" in html and "Beispiel" in html
    assert "Contents" not in html and "Rulebook" not in html and ">Example<" not in html
    assert "W010" not in _codes(ws)


@pytest.mark.parametrize("lang, word", [("fr", "Sommaire"), ("es", "Índice"), ("pl", "Spis treści"),
                                        ("ru", "Содержание")])
def test_each_shipped_language_labels_an_edition(ws: Workspace, lang: str, word: str):
    _game(ws, lang)
    assert f">{word}<" in _visible(_rulebook(ws, lang))


def test_game_override_wins(ws: Workspace):
    _game(ws, "de")
    ws.write("locale/ui.de.po", OVERRIDE)
    html = _visible(_rulebook(ws, "de"))
    assert ">Spielregel<" in html and "Regelheft" not in html
    assert ">Inhalt<" in html  # words it does not override stay shipped
    assert ">Rulebook<" in _visible(_rulebook(ws, "en"))  # only for its own language
    assert not [c for c in _codes(ws) if c.startswith("W01") and c != "W013"]  # W013: 'de' has no catalog


def test_language_without_catalog_warns_and_prints_english(ws: Workspace):
    _game(ws, "it")
    report = ws.validate()
    warnings = [d for d in report.diagnostics if d.code == "W010"]
    assert len(warnings) == 1
    assert "'it'" in warnings[0].message and warnings[0].location.path.name == "game.yaml"
    assert warnings[0].location.line == 6
    assert "rulesmith i18n ui it demo" in warnings[0].hint
    assert ">Contents<" in _visible(_rulebook(ws, "it"))


def test_build_warns_too(ws: Workspace):
    _game(ws, "it")
    result = ws.run("build", "--lang", "it", "--only", "reference", "--strict")
    assert result.returncode == 1 and "W010" in result.stderr


def test_written_interface_catalog_silences_the_warning(ws: Workspace):
    _game(ws, "it")
    result = ws.run("i18n", "ui", "it", "demo")
    assert result.returncode == 0, result.stderr
    path = ws.game / "locale/ui.it.po"
    catalog = polib.pofile(str(path))
    assert len(catalog) == len(english()) and all(not e.msgstr for e in catalog)
    assert "W010" in _codes(ws)  # empty entries are still English
    for entry in catalog:
        entry.msgstr = "IT " + entry.msgid
    catalog.save()
    assert "W010" not in _codes(ws)
    assert ">IT Contents<" in _visible(_rulebook(ws, "it"))
    ws.run("i18n", "ui", "it", "demo")  # re-running keeps the game's own words
    assert polib.pofile(str(path)).find("Contents", msgctxt="contents").msgstr == "IT Contents"


def test_override_of_unknown_word_is_reported(ws: Workspace):
    _game(ws, "de")
    ws.write("locale/ui.de.po", OVERRIDE.replace('"rulebook"', '"rulebok"'))
    diagnostics = [d for d in ws.validate().diagnostics if d.code == "W011"]
    assert len(diagnostics) == 1 and "'rulebook'" in diagnostics[0].hint


def test_unreadable_override_is_e022(ws: Workspace):
    _game(ws, "de")
    ws.write("locale/ui.de.po", 'msgid "x"\nmsgstr "y"\nthis is not PO\n')
    assert "E022" in _codes(ws)


def test_shipped_catalogs_translate_every_word():
    words = english()
    for lang in ("en", "ru", "de", "fr", "es", "pl"):
        catalog = polib.pofile(str(UI_DIR / f"{lang}.po"))
        done = {e.msgctxt: e.msgstr for e in catalog if e.msgstr and not e.fuzzy}
        assert set(done) == set(words), lang
        assert all(e.msgid == words[e.msgctxt] for e in catalog), lang


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext not installed")
def test_shipped_catalogs_pass_msgfmt_check():
    for path in sorted(UI_DIR.glob("*.po")) + [TEMPLATE]:
        result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


def test_every_word_the_templates_and_code_ask_for_exists():
    used = set()
    for path in list((REPO / "templates").rglob("*.j2")) + list((REPO / "generator").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"\bui\(\s*[\"']([\w-]+)[\"']\s*\)", text))
    assert used and used <= set(english()), used - set(english())


def test_catalogs_ship_as_package_data():
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '"locale/ui/*.po"' in pyproject and '"locale/ui/*.pot"' in pyproject


def test_regional_tag_uses_its_language_words(ws: Workspace):
    _game(ws, "de-CH")
    assert ">Inhalt<" in _visible(_rulebook(ws, "de-CH"))
    assert "W010" not in _codes(ws)
