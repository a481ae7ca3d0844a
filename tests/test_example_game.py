"""Zwiad (content/zwiad), Rulesmith's example game, does what issue 35 asks of a Polish-source
game with an English edition: it validates strictly and checks, its Polish number words bind
to their checks in every case they are written in, the measure `cal` prints in the form its
number takes in both editions' PDFs (1 cal, 2–4 cale, 5 cali, 22 cale, 2,5 cala; 1 inch, 2 inches,
2.5 inches), and
no Polish word of the game prints in the English edition, nor an English word in the Polish one."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest

from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import REPO, original_game, run_cli
from .test_printed_words import _edition_texts, _without_quotes, _words

GAME = "zwiad"
FOLDER = REPO / "content" / GAME
ARMY = "game: zwiad\nsize: patrol\nname: Patrol\nunits:\n  - unit: dowodca\n  - unit: strzelcy\n    count: 2\n" \
       "  - unit: zwiadowcy\n    options: [granaty]\n"
NB = "[\\s\u00a0\u202f]+"  # a value and its unit: a space, or a no-break one
FORMS = {  # the count, and the form it takes in each edition
    "pl": {1: "cal", 2: "cale", 4: "cale", 5: "cali", 22: "cale"},
    "en": {1: "inch", 2: "inches", 4: "inches", 5: "inches", 22: "inches"},
}


def test_the_example_game_is_original_and_validates_strictly():
    assert original_game(FOLDER)
    report = Report()
    game = Project(REPO).load(GAME, report)
    assert report.diagnostics == [], [d.format_text() for d in report.diagnostics]
    assert game.manifest.source_language == "pl" and game.manifest.languages == ("en",)
    assert len(list((FOLDER / "rules").glob("*.md"))) == 4 and len(game.units) == 4
    cards = list(game.cards.values())
    assert len(cards) == 24 and all(card.back and card.back.title and card.back.text for card in cards)
    assert all(card.stats for card in cards)
    counters = game.section("counters")
    assert len(counters) == 12 and all(counter.back is not None for counter in counters.values())
    result = run_cli("validate", "--strict", GAME)
    assert result.returncode == 0 and "1 game(s) validated: 0 error(s), 0 warning(s)" in result.stderr, result.stderr


def test_the_example_game_checks_and_its_polish_number_words_bind():
    result = run_cli("check", GAME, "--format", "json")
    data = json.loads(result.stdout)
    assert result.returncode == 0 and data["passed"], result.stdout[-2000:]
    assert data["games"][0]["claims"]["unbound"] == 0
    claims = {claim["text"]: claim for example in data["examples"] for claim in example["claims"]}
    # a numeral in the nominative, genitive, instrumental, masculine-personal forms, a die's noun
    for word, value in {"Czterech": "4", "czterema": "4", "trzy": "3", "trzech": "3", "sześcioma": "6",
                        "dwa": "2", "dwóch": "2", "dwoma": "2", "jeden": "1", "czwórka": "4"}.items():
        assert claims[word]["state"] == "bound" and claims[word]["verdict"] == "pass", claims[word]
        assert claims[word]["value"] == value, claims[word]


def test_a_wrong_number_word_fails_the_check(tmp_path: Path):
    shutil.copytree(FOLDER, tmp_path / "content" / GAME, ignore=shutil.ignore_patterns("__pycache__"))
    chapter = tmp_path / "content" / GAME / "rules" / "03-ruch-i-walka.md"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("[czterema]{result=kosci}", "[trzema]{result=kosci}"),
                       encoding="utf-8")
    result = run_cli("--root", str(tmp_path), "check", GAME)
    assert result.returncode == 1 and "the text says trzema, the rules give 4 (result=kosci)" in result.stdout


def test_an_original_games_own_words_carry_no_editors_mark():
    """The rulebook of a game that is its own source marks nothing as the editor's words: the
    title of its probability table is the designer's, like the rest."""
    from generator.print.context import BuildContext
    from generator.print.rulebook import book_html

    game = Project(REPO).load(GAME, Report())
    for lang in ("pl", "en"):
        html = str(book_html(BuildContext(game, lang, REPO)))
        assert 'class="computed-table"' in html or "computed-table" in html
        assert 'class="editor-mark' not in html and 'class="editor-legend' not in html, lang


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A project of the example game, built whole in both editions (no pictures), with an army
    list printed in each."""
    if shutil.which("pdftotext") is None:
        pytest.skip("needs pdftotext (poppler-utils)")
    root = tmp_path_factory.mktemp("zwiad")
    shutil.copytree(FOLDER, root / "content" / GAME, ignore=shutil.ignore_patterns("__pycache__"))
    build = run_cli("--root", str(root), "build", "--game", GAME, "--no-images", "--strict", "--jobs", "1")
    assert build.returncode == 0, build.stdout + build.stderr
    army = root / "lists" / "patrol.yaml"
    army.parent.mkdir()
    army.write_text(ARMY, encoding="utf-8")
    for lang in ("pl", "en"):
        printed = run_cli("--root", str(root), "roster", "print", str(army), "--lang", lang)
        assert printed.returncode == 0, printed.stdout + printed.stderr
    return root


def _pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_the_measure_prints_in_the_form_its_number_takes(built: Path, lang: str):
    folder = built / "output" / GAME / lang
    documents = {name: _pdf_text(folder / f"{name}.pdf") for name in ("rulebook", "cards")}
    everything = " ".join(documents.values())
    for count, form in FORMS[lang].items():
        assert re.search(rf"(?<![\d,.]){count}{NB}{form}\b", everything), (lang, count, form)
    for count in (1, 2, 5, 22):  # the cards alone: each card stat with its own form
        assert re.search(rf"(?<![\d,.]){count}{NB}{FORMS[lang][count]}\b", documents["cards"]), (lang, count)
    fraction = {"pl": "2,5", "en": "2.5"}[lang]  # a fraction: the language's decimal sign, CLDR's "other"
    assert re.search(rf"{re.escape(fraction)}{NB}{ {'pl': 'cala', 'en': 'inches'}[lang] }\b", everything), lang
    for count, form in FORMS[lang].items():  # and never another form after these counts
        for other in set(FORMS[lang].values()) - {form}:
            assert not re.search(rf"(?<![\d,.]){count}{NB}{other}\b", everything), (lang, count, other)


def _catalog_words(text: str) -> set[str]:
    """The words a message prints: its references, placeholders and bindings' markup left out."""
    text = re.sub(r"\{\{.*?\}\}", " ", text)
    text = re.sub(r"\]\{[^}]*\}|\{[a-z_]+\}", " ", text)
    return _words(text)


def _languages_words(*catalogs: Path) -> tuple[set[str], set[str]]:
    """The words of the catalogs' sources and of their translations."""
    sources, translations = set(), set()
    for path in catalogs:
        for entry in polib.pofile(str(path)):
            sources |= _catalog_words(entry.msgid + " " + (entry.msgid_plural or ""))
            translations |= _catalog_words(entry.msgstr or " ".join(entry.msgstr_plural.values()))
    return sources, translations


def test_no_word_of_one_edition_prints_in_the_other(built: Path):
    """The game's texts (its catalog: Polish sources, English translations) and Rulesmith's
    interface words (the Polish interface catalog: English sources, Polish translations): the
    English edition prints none of the Polish words, the Polish edition none of the English ones,
    in its PDFs, army list, site pages and search words. A word both languages write (Rulesmith,
    Patrol) is no finding; the roster rules' sentences are quoted as written."""
    polish, english = _languages_words(FOLDER / "locale" / "en.po")
    english_ui, polish_ui = _languages_words(REPO / "generator" / "locale" / "ui" / "pl.po")
    polish, english = polish | polish_ui, english | english_ui
    proper = polish & english
    game = Project(built).load(GAME, Report(), checks=False)
    quotes = [rule.source for roster in game.section("rosters").values()
              for rule in (roster.cost, *roster.sizes, *roster.limits, *roster.options) if rule.source]
    for lang, foreign in (("en", polish - proper), ("pl", english - proper)):
        found = {}
        for where, text in _edition_texts(built, GAME, lang):  # PDFs, army list, site pages, search words
            words = sorted(_words(_without_quotes(text, quotes)) & foreign)
            if words:
                found[str(where)] = words
        assert found == {}, (lang, found)
    for lang in ("pl", "en"):
        assert (built / "output" / GAME / lang / "lists" / "patrol.pdf").is_file()


# --- `rulesmith new GAME --example`: the example written into a designer's project -------------

def test_new_example_writes_the_example_game_under_the_designers_id(tmp_path: Path):
    """The command copies content/zwiad itself (every file, no hand-kept second copy), renames the
    game where its files name it by id, and the copy validates strictly and checks."""
    result = run_cli("new", "recon", "--example", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    target = tmp_path / "content" / "recon"
    source_files = {p.relative_to(FOLDER).as_posix() for p in FOLDER.rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts}
    assert {p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()} == source_files
    manifest = (target / "game.yaml").read_text(encoding="utf-8")
    assert re.search(r"^id: recon$", manifest, re.MULTILINE) and "id: zwiad" not in manifest
    for name in ("rules/03-ruch-i-walka.md", "data/units.yaml"):  # the game's own words are kept
        assert (target / name).read_text(encoding="utf-8") == (FOLDER / name).read_text(encoding="utf-8")
    catalog = polib.pofile(str(target / "locale" / "en.po"))
    assert catalog.metadata["Project-Id-Version"] == "recon"
    assert {e.msgid: e.msgstr for e in catalog} == {e.msgid: e.msgstr for e in polib.pofile(str(FOLDER / "locale" / "en.po"))}
    assert "rulesmith check recon" in (target / "procedures.py").read_text(encoding="utf-8")

    strict = run_cli("validate", "--strict", "recon", cwd=tmp_path)
    assert strict.returncode == 0, strict.stdout + strict.stderr
    checked = run_cli("check", "recon", cwd=tmp_path)
    assert checked.returncode == 0 and "7 passed, 0 failed, 0 unchecked" in checked.stderr, checked.stdout + checked.stderr

    again = run_cli("new", "recon", "--example", cwd=tmp_path)
    assert again.returncode == 2 and "already exists" in again.stderr
    mixed = run_cli("new", "other", "--example", "--languages", "de", cwd=tmp_path)
    assert mixed.returncode == 2 and "--languages" in mixed.stderr and not (tmp_path / "content" / "other").exists()


def test_new_example_without_the_example_says_so(tmp_path: Path, monkeypatch):
    """An installation that lost the example's package data gets a message, not a traceback."""
    import click

    from generator.commands import example

    monkeypatch.setattr(example, "example_folder", lambda: tmp_path / "nowhere")
    with pytest.raises(click.ClickException, match="no example game"):
        example.write_example(tmp_path / "content" / "recon", "recon")
    assert not (tmp_path / "content").exists()
