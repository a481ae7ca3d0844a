"""The shipped translation catalogs: complete, well-formed, and alive to source edits."""

from __future__ import annotations

import shutil
import subprocess

import polib
import pytest

from .conftest import REPO, SHIPPED, run_cli


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext not installed")
@pytest.mark.parametrize("game", SHIPPED)
def test_msgfmt_check(game: str):
    for path in sorted((REPO / "content" / game / "locale").glob("*.po")):
        result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


def test_english_complete_for_every_game():
    result = run_cli("i18n", "status", "--lang", "en", "--min", "100", "--format", "json")
    assert result.returncode == 0, result.stdout + result.stderr
    import json
    rows = json.loads(result.stdout)
    assert {r["game"] for r in rows} == set(SHIPPED)
    assert all(r["fuzzy"] == 0 and r["untranslated"] == 0 and r["total"] > 100 for r in rows)


def test_editing_one_russian_paragraph_of_a_shipped_game(tmp_path):
    shutil.copytree(REPO / "content" / "nuclear", tmp_path / "content" / "nuclear")
    chapter = sorted((tmp_path / "content/nuclear/rules").glob("*.md"))[0]
    text = chapter.read_text(encoding="utf-8")
    paragraph = next(p for p in text.split("\n\n") if len(p) > 80 and not p.startswith(("#", ":::", "{{", "|", "-")))
    chapter.write_text(text.replace(paragraph, paragraph.rstrip(".") + ", как сказано выше.", 1), encoding="utf-8")
    result = run_cli("--root", str(tmp_path), "i18n", "update", "en", "nuclear")
    assert result.returncode == 0, result.stderr
    po = polib.pofile(str(tmp_path / "content/nuclear/locale/en.po"))
    fuzzy = [e for e in po if e.fuzzy and not e.obsolete]
    assert len(fuzzy) == 1 and fuzzy[0].msgid.endswith("как сказано выше.")
    status = run_cli("--root", str(tmp_path), "i18n", "status", "nuclear", "--format", "json")
    import json
    row = json.loads(status.stdout)[0]
    assert row["fuzzy"] == 1 and row["untranslated"] == 0


@pytest.mark.parametrize("game", SHIPPED)
def test_shipped_catalogs_hold_one_message_per_source_string(game: str):
    from generator.core.diagnostics import Report
    from generator.i18n.catalog import template
    from generator.project import Project

    loaded = Project(REPO).load(game, Report(), checks=False)
    keys = {(e.msgctxt, e.msgid) for e in template(loaded)}
    for path in sorted((REPO / "content" / game / "locale").glob("*.po")):
        if path.name.startswith("ui."):
            continue
        live = [(e.msgctxt, e.msgid) for e in polib.pofile(str(path)) if not e.obsolete]
        assert set(live) == keys and len(live) == len(keys), f"{path.name}: run 'rulesmith i18n migrate {game}'"
