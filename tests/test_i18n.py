"""Translation workflow: extract, update with msgmerge semantics, status, markup checks."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
import polib

from .conftest import Workspace

CHAPTER = """# Introduction

The {{ unit:scouts }} move **fast**
and far.

- first item
- second item

| Term | Value |
|---|---|
| cell one | 4+ |

::: example fast-move
Scouts with {{ keyword:fast }} move further.
:::
"""


@pytest.fixture
def tws(ws: Workspace) -> Workspace:
    ws.edit("game.yaml", "languages: []", "languages: [ru]")
    ws.write("rules/01-intro.md", CHAPTER)
    return ws


def po(ws: Workspace) -> polib.POFile:
    return polib.pofile(str(ws.game / "locale/ru.po"))


def translate_all(ws: Workspace, fn=lambda msgid: "ПЕРЕВОД " + msgid) -> None:
    catalog = po(ws)
    catalog.wrapwidth = 0
    for entry in catalog:
        entry.msgstr = fn(entry.msgid)
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
    catalog.save()


def status(ws: Workspace) -> dict:
    result = ws.run("i18n", "status", "--format", "json")
    return json.loads(result.stdout)[0]


def test_extract_one_message_per_block_with_references(tws: Workspace):
    assert tws.run("i18n", "extract").returncode == 0
    pot = polib.pofile(str(tws.game / "locale/messages.pot"))
    ids = {m.msgid: m for m in pot}
    assert ids["The {{ unit:scouts }} move **fast** and far."].occurrences == [("rules/01-intro.md", "3")]
    for msgid in ("Introduction", "first item", "second item", "Term", "cell one",
                  "Scouts with {{ keyword:fast }} move further."):
        assert msgid in ids, msgid
    assert "4+" not in ids  # nothing to translate
    scouts = pot.find("Scouts", msgctxt=None)  # identical strings share one message, without context
    assert scouts is not None and scouts.occurrences[0][0] == "data/units.yaml"
    assert pot.find("Weather", msgctxt=None) is not None
    assert pot.find("Clear skies.", msgctxt=None) is not None


def test_update_round_trip_is_stable(tws: Workspace):
    assert tws.run("i18n", "update", "ru").returncode == 0
    translate_all(tws)
    first = (tws.game / "locale/ru.po").read_bytes()
    assert tws.run("i18n", "update", "ru").returncode == 0
    assert (tws.game / "locale/ru.po").read_bytes() == first
    assert status(tws)["percent"] == 100.0


def test_editing_one_paragraph_makes_exactly_that_entry_fuzzy(tws: Workspace):
    tws.run("i18n", "update", "ru")
    translate_all(tws)
    tws.edit("rules/01-intro.md", "move **fast**\nand far.", "move **fast**\nand very far.")
    tws.run("i18n", "update", "ru")
    fuzzy = [m for m in po(tws) if m.fuzzy and not m.obsolete]
    assert [m.msgid for m in fuzzy] == ["The {{ unit:scouts }} move **fast** and very far."]
    assert fuzzy[0].previous_msgid == "The {{ unit:scouts }} move **fast** and far."
    assert fuzzy[0].msgstr == "ПЕРЕВОД The {{ unit:scouts }} move **fast** and far."
    # a second update keeps the entry fuzzy and keeps what it replaced
    tws.run("i18n", "update", "ru")
    again = [m for m in po(tws) if m.fuzzy and not m.obsolete]
    assert [m.previous_msgid for m in again] == [fuzzy[0].previous_msgid]
    st = status(tws)
    assert st["fuzzy"] == 1 and st["untranslated"] == 0 and st["translated"] == st["total"] - 1
    assert tws.run("i18n", "status", "--min", "100").returncode == 1


def test_removed_message_becomes_obsolete(tws: Workspace):
    tws.run("i18n", "update", "ru")
    translate_all(tws)
    tws.edit("rules/01-intro.md", "- second item\n", "")
    tws.run("i18n", "update", "ru")
    catalog = po(tws)
    assert [e.msgid for e in catalog.obsolete_entries()] == ["second item"]
    assert "#~ msgid \"second item\"" in (tws.game / "locale/ru.po").read_text()


def test_status_counts_and_min(tws: Workspace):
    tws.run("i18n", "update", "ru")
    st = status(tws)
    assert st["translated"] == 0 and st["untranslated"] == st["total"] > 10
    assert tws.run("i18n", "status", "--min", "0").returncode == 0
    result = tws.run("i18n", "status")
    assert "demo" in result.stdout and "0.0%" in result.stdout


def test_markup_mismatch_names_the_po_line(tws: Workspace):
    tws.run("i18n", "update", "ru")
    translate_all(tws, lambda msgid: msgid.replace("{{ unit:scouts }}", "разведчики").replace("**fast**", "**быстро"))
    report = tws.validate()
    errors = [d for d in report.errors if d.code == "E023"]
    assert len(errors) == 1
    text = (tws.game / "locale/ru.po").read_text().splitlines()
    assert text[errors[0].location.line - 1].startswith('msgstr "The разведчики')
    assert "{{ unit:scouts }}" in text[errors[0].location.line - 2]
    assert "drops {{ unit:scouts }}" in errors[0].message and "bold" in errors[0].message


def test_unbalanced_emphasis_is_an_error(tws: Workspace):
    tws.run("i18n", "update", "ru")
    translate_all(tws, lambda msgid: msgid.replace("**fast**", "**быстро*"))
    assert [d.code for d in tws.validate().errors] == ["E023"]


def test_e022_unreadable_catalog(tws: Workspace):
    tws.run("i18n", "update", "ru")
    path = tws.game / "locale/ru.po"
    lines = path.read_text().splitlines()
    lines.insert(len(lines) - 1, 'msgstr garbage "x"')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    errors = [d for d in tws.validate().errors if d.code == "E022"]
    assert errors and errors[0].location.path == path


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext not installed")
def test_written_catalogs_pass_msgfmt_check(tws: Workspace):
    tws.run("i18n", "update", "ru")
    translate_all(tws)
    for path in (tws.game / "locale/ru.po", tws.game / "locale/messages.pot"):
        result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


def test_update_refuses_unknown_language(tws: Workspace):
    assert tws.run("i18n", "update", "de").returncode == 2


def test_w002_term_list_enforces_one_term(tws: Workspace):
    tws.run("i18n", "update", "ru")
    tws.write("locale/ru.terms.yaml", "terms:\n  - source: ['\\bscouts?\\b']\n    target: разведчик\n")
    translate_all(tws)  # 'ПЕРЕВОД <english>' never uses the Russian term
    warnings = [d for d in tws.validate().warnings if d.code == "W002"]
    assert warnings and all(d.location.path.name == "ru.po" for d in warnings)
    translate_all(tws, lambda msgid: "ПЕРЕВОД разведчик " + msgid)
    assert not [d for d in tws.validate().warnings if d.code == "W002"]


def test_bad_term_list_is_reported(tws: Workspace):
    tws.run("i18n", "update", "ru")
    tws.write("locale/ru.terms.yaml", "terms:\n  - source: ['(unclosed']\n    target: x\n")
    errors = tws.validate().errors
    assert errors and errors[0].location.path.name == "ru.terms.yaml" and errors[0].code == "E004"


def test_optional_text_fields_are_extracted(tws: Workspace):
    tws.run("i18n", "extract")
    pot = polib.pofile(str(tws.game / "locale/messages.pot"))
    # Unit.text and Card.incomplete are optional (Text | None) fields
    assert pot.find("Eyes of the army.") is not None
    assert pot.find("The playtest notes do not give this card's text yet.") is not None


def test_untranslated_text_warns_in_builds(tws: Workspace):
    from generator.print.jobs import Job, run_job

    tws.run("i18n", "update", "ru")
    result = run_job(Job(tws.root, "demo", "ru", "reference"))
    warnings = [d for d in result.diagnostics if d.code == "W005"]
    assert warnings and warnings[0].location.path.name == "ru.po"
    translate_all(tws)
    result = run_job(Job(tws.root, "demo", "ru", "reference"))
    assert not [d for d in result.diagnostics if d.code == "W005"]


def test_build_strict_fails_on_fallback(tws: Workspace):
    tws.run("i18n", "update", "ru")
    result = tws.run("build", "--only", "reference", "--lang", "ru", "--strict", "--no-images")
    assert result.returncode == 1 and "W005" in result.stderr
    assert tws.run("build", "--only", "reference", "--lang", "ru", "--no-images").returncode == 0
