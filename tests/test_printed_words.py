"""Every word a reader sees is the game's content or an interface word, in the edition's
language: roster option names, a roster limit's unit type, an enumeration's names, the dice
appendix's labels and the dice notation."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest

from generator.commands.new import scaffold_words
from generator.core.diagnostics import Report
from generator.i18n.catalog import po_path, template, update, write_catalog
from generator.i18n.translate import Translator
from generator.print.context import BuildContext
from generator.project import Project
from generator.roster.printed import rules_html
from generator.site.armybuilder import builder_data

from .conftest import Workspace, run_cli

UNITS = """
  - id: captain
    name: Captain
    type: leader
    stats: {quality: 3+, cost: 40}
"""
ROSTERS = """rosters:
  - id: army
    cost:
      stat: cost
      source: "Each unit costs the points its profile gives."
    limits:
      - type: leader
        min: 1
        max: 1
        source: "Every list has one leader."
    options:
      - id: long-rifles
        units: [scouts]
        name: Long rifles
        cost: 10
        max: 1
        source: "Scouts may carry long rifles for 10 points."
"""
POLISH = {"Long rifles": "Długie karabiny", "Leader": "Dowódca", "Infantry": "Piechota", "Captain": "Kapitan"}


def polish_edition(tmp_path: Path) -> Workspace:
    """The scaffold's English game with a captain of type `leader`, unit types named in an
    enumeration, a roster with a type limit and an option, and a Polish catalog."""
    ws = Workspace(tmp_path)
    ws.edit("game.yaml", "languages: []", "languages: [pl]")
    ws.edit("game.yaml", "stats:\n", "enums:\n  unit-type:\n    - {id: infantry, name: Infantry}\n"
                                     "    - {id: leader, name: Leader}\nstats:\n")
    ws.edit("data/units.yaml", "    text: Eyes of the army.\n", "    text: Eyes of the army.\n" + UNITS)
    ws.write("data/rosters.yaml", ROSTERS)
    game = Project(ws.root).load("demo", Report(), catalogs=False)
    catalog = update(game, "pl", template(game))
    for entry in catalog:
        entry.msgstr = POLISH.get(entry.msgid, "")
    write_catalog(po_path(game, "pl"), catalog)
    return ws


def test_extracted_messages_hold_option_and_enumeration_names_not_the_type_ids(tmp_path: Path):
    ws = polish_edition(tmp_path)
    game = Project(ws.root).load("demo", Report(), catalogs=False)
    msgids = {entry.msgid for entry in template(game)}
    assert {"Long rifles", "Leader", "Infantry"} <= msgids
    assert "leader" not in msgids and "infantry" not in msgids
    extracted = ws.run("i18n", "extract", "demo")
    assert extracted.returncode == 0, extracted.stderr
    pot = polib.pofile(str(ws.game / "locale" / "messages.pot"))
    assert {"Long rifles", "Leader"} <= {entry.msgid for entry in pot}


def test_a_unit_type_prints_its_enumeration_name_in_each_edition(tmp_path: Path):
    ws = polish_edition(tmp_path)
    report = Report()
    game = Project(ws.root).load("demo", report)
    assert not report.failed(), report.diagnostics
    captain = game.units["captain"]
    assert Translator.load(game, "en").field(captain, "type") == "Leader"
    assert Translator.load(game, "pl").field(captain, "type") == "Dowódca"
    assert Translator.load(game, "pl").field(game.units["scouts"], "type") == "Piechota"


def test_roster_option_and_type_limit_print_in_the_editions_language(tmp_path: Path):
    ws = polish_edition(tmp_path)
    game = Project(ws.root).load("demo", Report())
    roster = game.section("rosters")["army"]
    for lang, option, leader in (("pl", "Długie karabiny", "Dowódca"), ("en", "Long rifles", "Leader")):
        ctx = BuildContext(game, lang, ws.root)
        html = str(rules_html(ctx, roster))
        assert f"{option}: +10" in html and f"<li>{leader}: 1 " in html, html
        data = builder_data(ctx, roster)
        assert [o["name"] for o in data["options"]] == [option]
        assert [limit["name"] for limit in data["limits"]] == [leader]
    assert "Long rifles" not in str(rules_html(BuildContext(game, "pl", ws.root), roster))


def dice_game(tmp_path: Path, letter: str | None = None, notation: str | None = None):
    """The polish_edition game with a dice stat on the rifle (2D6), and optionally the game's
    own letter for Polish dice notation (locale/ui.pl.po) and its game.yaml dice_notation."""
    ws = polish_edition(tmp_path)
    if notation is not None:
        ws.edit("game.yaml", "languages: [pl]", f"languages: [pl]\ndice_notation: {notation}")
    ws.edit("game.yaml", "    applies_to: [weapon]\n", "    applies_to: [weapon]\n"
            "  - {id: damage, name: Damage, type: dice, applies_to: [weapon]}\n")
    ws.edit("data/weapons.yaml", "attacks: 1}", "attacks: 1, damage: 2D6}")
    if letter is not None:
        ws.write("locale/ui.pl.po", f'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                                    f'msgctxt "dice-letter"\nmsgid "d"\nmsgstr "{letter}"\n')
    report = Report()
    game = Project(ws.root).load("demo", report)
    assert not report.failed(), report.diagnostics
    return game


def test_the_dice_appendix_labels_are_interface_words(tmp_path: Path):
    from generator.text.blocks import records_html

    game = dice_game(tmp_path)
    polish = str(records_html(game, "dice", Translator.load(game, "pl"), lambda record: None))
    english = str(records_html(game, "dice", Translator.load(game, "en"), lambda record: None))
    assert "Liczba ścianek: 6" in polish and "Faces" not in polish
    assert "Faces: 6" in english


def test_dice_notation_is_the_editions_and_the_game_may_override_it(tmp_path: Path):
    from generator.text.blocks import stat_html, table_html

    game = dice_game(tmp_path)
    rifle, weather = game.weapons["rifle"], game.tables["weather"]
    polish, english = Translator.load(game, "pl"), Translator.load(game, "en")
    assert str(stat_html(game, polish, rifle, "damage")) == "2k6"
    assert str(stat_html(game, english, rifle, "damage")) == "2D6"  # the source's edition: as written
    assert "Rzut (k6)" in str(table_html(weather, polish)) and "Roll (d6)" in str(table_html(weather, english))

    game = dice_game(tmp_path / "override", letter="K")
    polish = Translator.load(game, "pl")
    assert str(stat_html(game, polish, game.weapons["rifle"], "damage")) == "2K6"
    assert "Rzut (K6)" in str(table_html(game.tables["weather"], polish))


def test_game_yaml_sets_the_dice_letter_of_each_language_source_included(tmp_path: Path):
    """dice_notation: in game.yaml wins over the interface word and a game's ui.LANG.po, and
    sets the source edition's letter too (its data may write any)."""
    from generator.text.blocks import stat_html, table_html

    game = dice_game(tmp_path, letter="K", notation="{PL: c, en: d}")
    assert game.manifest.dice_notation == {"pl": "c", "en": "d"}
    polish, english = Translator.load(game, "pl"), Translator.load(game, "en")
    assert str(stat_html(game, polish, game.weapons["rifle"], "damage")) == "2c6"
    assert str(stat_html(game, english, game.weapons["rifle"], "damage")) == "2d6"  # written 2D6
    assert "Rzut (c6)" in str(table_html(game.tables["weather"], polish))


@pytest.mark.parametrize("notation, found", [
    ("{de: W}", "'de', which is not a language of the game"),
    ("{pl: '2k'}", "'2k' is no dice letter"),
    ("{pl: k, PL: k}", "are the same language"),
    ("{'p l': k}", "dice_notation"),
])
def test_a_dice_notation_that_cannot_print_is_e017_at_its_line(tmp_path: Path, notation, found):
    ws = polish_edition(tmp_path)
    ws.edit("game.yaml", "languages: [pl]", f"languages: [pl]\ndice_notation: {notation}")
    line = ws.game.joinpath("game.yaml").read_text(encoding="utf-8").splitlines().index(f"dice_notation: {notation}") + 1
    report = Report()
    Project(ws.root).load("demo", report)
    (error,) = [d for d in report.errors if d.code == "E017"]
    assert found in error.message and error.location.line == line, error


# --- one game, two editions: no word of one language in the other ---------------------------

_LETTERS = re.compile(r"[^\W\d_]{3,}")


def _words(text: str) -> set[str]:
    return set(_LETTERS.findall(text))


def _without_quotes(text: str, quotes: list[str]) -> str:
    """`text` (whitespace made single spaces) without the source's sentences it quotes as
    written: roster rules' and errata's `source:`, printed in quotes marked with the source's
    language."""
    text = " ".join(text.split())
    for quote in sorted(quotes, key=len, reverse=True):
        text = text.replace(" ".join(quote.split()), " ")
    return text


def _edition_texts(root: Path, game: str, lang: str):
    """(file, text a reader sees) of every PDF (pdftotext), army list and site page of an edition."""
    for pdf in sorted((root / "output" / game / lang).rglob("*.pdf")):
        yield pdf, subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    for page in sorted((root / "output" / "site" / game / lang).rglob("*.html")):
        source = page.read_text(encoding="utf-8")
        source = re.sub(r"<(script|style)\b.*?</\1>", " ", source, flags=re.S)
        source = re.sub(r'<q lang="[^"]+">.*?</q>', " ", source, flags=re.S)
        shown = " ".join(re.findall(r'(?:title|alt|aria-label|placeholder)="([^"]*)"', source))
        yield page, html.unescape(re.sub(r"<[^>]+>", " ", source) + " " + shown)
    yield "terms.json", " ".join(json.loads((root / "output" / "site" / game / lang / "terms.json").read_text()))


def _foreign_words(root: Path, game: str, lang: str, other: str, proper: set[str]) -> dict[str, list[str]]:
    """The words of the scaffold's `other`-language texts (and no `lang` text) that `lang`'s
    edition prints, by file; the quotes of the source and the names in `proper` aside."""
    own = set().union(*(_words(text) for text in scaffold_words(lang).values()))
    foreign = set().union(*(_words(text) for text in scaffold_words(other).values())) - own - proper
    quotes = [scaffold_words("pl")[key] for key in ("roster-cost-source", "roster-size-source", "quick")]
    found = {}
    for where, text in _edition_texts(root, game, lang):
        words = sorted(_words(_without_quotes(text, quotes)) & foreign)
        if words:
            found[str(where)] = words
    return found


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")
def test_a_polish_game_prints_no_polish_word_in_english_and_no_english_word_in_polish(tmp_path: Path):
    """`new --source-language pl --languages en`, built whole in both languages with an army
    list: the English edition's PDFs, army list, site pages and search words hold no word of
    the Polish texts, and the Polish edition none of the English ones. A proper name (one the
    catalog translates as itself) is the same in both and is no finding."""
    made = run_cli("--root", str(tmp_path), "new", "potyczka", "--source-language", "pl", "--languages", "en")
    assert made.returncode == 0, made.stderr
    catalog = tmp_path / "content" / "potyczka" / "locale" / "en.po"
    proper = {e.msgid for e in polib.pofile(str(catalog)) if e.msgstr == e.msgid}
    army = tmp_path / "lists" / "armia.yaml"
    army.parent.mkdir()
    army.write_text("game: potyczka\nsize: last-stand\nunits:\n  - unit: scouts\n", encoding="utf-8")
    build = run_cli("--root", str(tmp_path), "build", "--game", "potyczka")
    assert build.returncode == 0, build.stderr
    for lang in ("en", "pl"):
        printed = run_cli("--root", str(tmp_path), "roster", "print", str(army), "--lang", lang)
        assert printed.returncode == 0, printed.stderr
        assert (tmp_path / "output" / "potyczka" / lang / "lists" / "armia.pdf").is_file()
    assert _foreign_words(tmp_path, "potyczka", "en", "pl", proper) == {}
    assert _foreign_words(tmp_path, "potyczka", "pl", "en", proper) == {}
    english_site = (tmp_path / "output" / "site" / "potyczka" / "en" / "army-list.html").read_text(encoding="utf-8")
    assert "Each unit costs" not in english_site and '<q lang="pl">' in english_site  # the quote, as written
    site = tmp_path / "output" / "site" / "potyczka"
    basics = (site / "en" / "basics.html").read_text(encoding="utf-8")
    assert "data-pagefind-body" in basics and 'href="../pl/basics.html"' in basics  # the language switch
    assert 'url=podstawy.html' in (site / "pl" / "basics.html").read_text(encoding="utf-8")  # ... lands there
    alias = (site / "en" / "podstawy.html").read_text(encoding="utf-8")  # the source's address leads on
    assert 'rel="canonical" href="basics.html"' in alias and "data-pagefind-body" not in alias
    assert 'url=basics.html' in alias
    kept = json.loads((site / "offline.json").read_text(encoding="utf-8"))["files"]  # what the offline copy keeps
    assert {"en/basics.html", "en/podstawy.html", "pl/podstawy.html", "pl/basics.html"} <= set(kept), kept


def test_search_suggestions_hold_the_editions_words_not_data_or_foreign_quotes():
    from types import SimpleNamespace

    from generator.site.search import game_terms

    body = ('<p>Infantry moves</p><q lang="pl">Każdy oddział kosztuje</q><q lang="en">Every unit</q>'
            '<script type="application/json">{"type": "piechota", "roster": "army"}</script>')
    terms = game_terms([SimpleNamespace(title="Basics", body=body)], "en")
    assert {"infantry", "moves", "basics", "every", "unit"} <= set(terms)
    assert not {"każdy", "oddział", "kosztuje", "piechota", "army", "roster", "type"} & set(terms)
    assert "oddział" in game_terms([SimpleNamespace(title="Podstawy", body=body)], "pl")


def test_a_chapter_has_its_address_in_each_edition_and_keeps_the_sources(tmp_path: Path):
    from generator.print.context import BuildContext
    from generator.site.pages import chapter_aliases, chapter_pages

    made = run_cli("--root", str(tmp_path), "new", "potyczka", "--source-language", "pl", "--languages", "en,ru")
    assert made.returncode == 0, made.stderr
    game = Project(tmp_path).load("potyczka", Report())
    chapters = BuildContext(game, "pl", tmp_path).chapters
    assert [c.path.name for c in chapters] == ["01-podstawy.md", "02-slowniczek.md"]
    pages = {lang: sorted(chapter_pages(chapters, Translator.load(game, lang)).values()) for lang in ("pl", "en", "ru")}
    assert pages == {"pl": ["podstawy.html", "slowniczek.html"], "en": ["basics.html", "rules-glossary.html"],
                     "ru": ["podstawy.html", "slowniczek.html"]}  # Cyrillic titles: the source's addresses
    english = BuildContext(game, "en", tmp_path)
    assert chapter_aliases(english, ["pl", "en", "ru"]) == {"podstawy.html": "basics.html",
                                                           "slowniczek.html": "rules-glossary.html"}
    assert chapter_aliases(BuildContext(game, "pl", tmp_path), ["pl", "en"]) == {
        "basics.html": "podstawy.html", "rules-glossary.html": "slowniczek.html"}
