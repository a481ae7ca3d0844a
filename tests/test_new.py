"""`rulesmith new` makes a small complete game that validates, checks and builds; `rulesmith
docs` prints the documentation an installed user has no repository for."""

from __future__ import annotations

import tomllib
from pathlib import Path

import polib

from generator.commands.build import page_count as pages

from .conftest import REPO, run_cli


def test_new_game_in_three_languages_validates_checks_and_builds(tmp_path: Path):
    result = run_cli("--root", str(tmp_path), "new", "skirmish", "--source-language", "en", "--languages", "ru,de")
    assert result.returncode == 0, result.stderr
    game = tmp_path / "content" / "skirmish"
    for relpath in ("rules/01-basics.md", "rules/02-glossary.md", "procedures.py", "data/decks.yaml",
                    "data/tables.yaml", "locale/ru.po", "locale/de.po"):
        assert (game / relpath).is_file(), relpath
    manifest = (game / "game.yaml").read_text(encoding="utf-8")
    assert "source_language: en" in manifest and "languages: [ru, de]" in manifest
    catalog = polib.pofile(str(game / "locale" / "de.po"))
    assert ("The Scouts fire [twice]{input=shots} and roll a [5]{die=1} and a [2]{die=2}: [one]{result=hits} hit."
            in {e.msgid for e in catalog})
    assert "{{ unit:scouts }}" in (game / "rules" / "01-basics.md").read_text(encoding="utf-8")

    validate = run_cli("--root", str(tmp_path), "validate")
    assert validate.returncode == 0 and "0 error(s)" in validate.stderr, validate.stdout + validate.stderr
    check = run_cli("--root", str(tmp_path), "check")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "PASS      content/skirmish/rules/01-basics.md" in check.stdout
    assert "skirmish: 1 example: 1 passed, 0 failed" in check.stderr
    build = run_cli("--root", str(tmp_path), "build", "--game", "skirmish", "--lang", "de", "--only", "rulebook")
    assert build.returncode == 0, build.stderr
    assert (tmp_path / "output" / "skirmish" / "de" / "rulebook.pdf").stat().st_size > 1000


def test_new_refuses_a_bad_language_code(tmp_path: Path):
    result = run_cli("--root", str(tmp_path), "new", "skirmish", "--languages", "ru,deutsch!")
    assert result.returncode != 0 and "not a language code" in result.stderr
    assert not (tmp_path / "content" / "skirmish").exists()


def test_docs_topics_and_one_topic():
    listing = run_cli("docs")
    assert listing.returncode == 0 and "checker" in listing.stdout and "content-format" in listing.stdout
    topic = run_cli("docs", "docs/checker.md")
    assert topic.stdout.startswith("# The rules checker")
    wrong = run_cli("docs", "chekcer")
    assert wrong.returncode == 2 and "did you mean 'checker'" in wrong.stderr


def test_docs_ship_inside_the_package():
    """docs/ is generator/docs in the package (tests/test_wheel.py finds every doc in the wheel)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert config["package-dir"]["generator.docs"] == "docs"
    assert config["package-data"]["generator.docs"] == ["**/*"]
    assert '"generator.docs"' in (REPO / "setup.py").read_text(encoding="utf-8")


def test_page_counts_are_plural_only_when_plural():
    assert (pages(1), pages(2), pages(0)) == ("1 page", "2 pages", "0 pages")
