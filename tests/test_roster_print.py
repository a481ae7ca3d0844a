"""`rulesmith roster print`: the army list as a PDF in the edition's language."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from .conftest import REPO, run_cli

LIST = """game: battle-rules
size: standard-battle
counted: second
name: Recon in force
units:
  - unit: scouts
    count: 6
  - unit: snipers
    count: 3
  - unit: sergeant
"""


def pdf_text(path: Path) -> str:
    return " ".join(subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> tuple[Path, Path]:
    """One project with the shipped battle-rules, and its list printed in English."""
    root = tmp_path_factory.mktemp("rosters")
    (root / "content").mkdir()
    (root / "content" / "battle-rules").symlink_to(REPO / "content" / "battle-rules")
    path = root / "recon.yaml"
    path.write_text(LIST, encoding="utf-8")
    result = run_cli("--root", str(root), "roster", "print", str(path), "--lang", "en")
    assert result.returncode == 0, result.stdout + result.stderr
    return root, root / "output" / "battle-rules" / "en" / "lists" / "recon.pdf"


def test_printed_list_has_units_datasheets_totals_and_the_rules_it_was_checked_against(printed):
    _root, pdf = printed
    text = pdf_text(pdf)
    from generator.core.diagnostics import Report
    from generator.project import Project
    from generator.roster.printed import data_version

    version = data_version(Project(REPO).load("battle-rules", Report(), checks=False))
    # which game, edition, data, size (with its limit) and reading the list is for
    assert text.startswith(f"Recon in force Army list · Additional Battle Rules · Edition: English · data {version} "
                           "Standard Battle: 16 · The list counts value number 2.")
    for row in ("Scouts 6 2 12", "Snipers 3 1 3", "Sergeant 1 0 0", "Total 15 / 16"):
        assert row in text, row
    # the rulebook's datasheet rows: the unit table's stats as the source writes them
    assert "Snipers 3 15 cm 30 cm 1+ 1+ / 0" in text
    # the roster rules, each with the source's sentence in the source's language
    assert "Standard Battle: 16 «Количество отрядов не должно превышать 16 командных очков" in text
    assert "the text does not say which of them a squad costs. The list counts value number 2." in text


def test_printed_list_explains_each_keyword_its_units_use_once(printed):
    text = pdf_text(printed[1])
    glossary = text.split("Glossary", 1)[1].split("Roster rules", 1)[0]
    assert glossary.count("The ability code AP in the Ability column") == 1
    assert "The ability code P in the Ability column" in glossary
    assert "The ability code A in the Ability column" not in glossary  # no chosen unit has A


def test_a_list_with_breaches_is_not_printed(printed, tmp_path):
    root, _pdf = printed
    path = tmp_path / "over.yaml"
    path.write_text(LIST.replace("count: 3", "count: 5"), encoding="utf-8")
    result = run_cli("--root", str(root), "roster", "print", str(path))
    assert result.returncode == 1 and "over the limit of 16" in result.stdout and "not printed" in result.stderr
    assert not (root / "output" / "battle-rules" / "ru" / "lists" / "over.pdf").exists()


def test_a_language_the_game_lacks_is_a_usage_error(printed):
    root, _pdf = printed
    result = run_cli("--root", str(root), "roster", "print", str(root / "recon.yaml"), "--lang", "de")
    assert result.returncode == 2 and "no language 'de'" in result.stderr and "Traceback" not in result.stderr


def test_printed_list_names_each_lines_options(tmp_path):
    from .test_rosters import demo

    ws = demo(tmp_path)
    path = ws.root / "patrol.yaml"
    path.write_text("game: demo\nsize: skirmish\nunits:\n  - unit: captain\n  - unit: scouts\n"
                    "  - unit: scouts\n    options: [long-rifles]\n", encoding="utf-8")
    result = ws.run("roster", "print", str(path), "--lang", "en")
    assert result.returncode == 0, result.stdout + result.stderr
    text = pdf_text(ws.root / "output" / "demo" / "en" / "lists" / "patrol.pdf")
    assert "Scouts 1 50 50 Scouts 1 60 60 Long rifles Total 150 / 150" in text  # the options under the unit


def test_a_limit_without_a_bound_is_written_in_words_and_its_type_in_the_editions_language():
    """Deadzone's "at least one Leader" (the most unstated): no "1–?‡", no Russian type name on the English page."""
    from generator.core.diagnostics import Report
    from generator.print.context import BuildContext
    from generator.project import Project
    from generator.roster.printed import rules_html

    game = Project(REPO).load("deadzone", Report(), checks=False)
    html = str(rules_html(BuildContext(game, "en", REPO), next(iter(game.section("rosters").values()))))
    assert "<li>Leader: at least 1 " in html and "Лидер:" not in html and "?‡" not in html


def test_the_edition_is_named_in_the_readers_language_not_by_its_code():
    from generator.core.diagnostics import Report
    from generator.print.context import BuildContext
    from generator.project import Project
    from generator.roster.printed import edition_language, edition_line

    game = Project(REPO).load("battle-rules", Report(), checks=False)
    assert "· Edition: English ·" in edition_line(BuildContext(game, "en", REPO))
    assert "· Издание: русский ·" in edition_line(BuildContext(game, "ru", REPO))
    assert (edition_language("en", "ru"), edition_language("ru", "en"), edition_language("pl", "pl")) == (
        "английский", "Russian", "polski")
    assert edition_language("x-klingon", "en") == "x-klingon"  # a code CLDR does not know prints as written
