"""Reference cards from data: a card made from a data table (`table:`), a table printed by
`{{ table:ID }}` or written in Markdown in a card's text, a table cell referred to from a card,
and the generated reference and datasheet decks switched on or off in print.yaml. The test game
is tests/fixtures/bridgehead (English source, German edition) with a reference deck added."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator.core.diagnostics import Report
from generator.project import Project

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests/fixtures/bridgehead"
MM = 72 / 25.4

OUTCOMES = [("Steady", "Standhaft"), ("Shaken", "Erschüttert"), ("Wavering", "Wankend"), ("Routed", "Geflohen"),
            ("Rallied", "Gesammelt"), ("Pinned", "Niedergehalten"), ("Eager", "Begierig"), ("Tired", "Müde")]
ROWS = 28  # more than one card holds

CROSSING = "Roll when a unit enters the river.\n\n{{ table:crossing }}\n\nA gun never swims.\n"
RANKS = "Who leads:\n\n| Rank | Leads |\n|---|---|\n| Captain | {{ unit:infantry }} |\n| Major | {{ unit:cavalry }} |\n"
FORD = "At a ford: {{ table:crossing.rows.0.effect }} ({{ table:crossing.rows.0.modifier }})."

CARDS = """decks:
  - {id: reference, name: Reference, back: title, size: poker}
cards:
  - id: morale-card
    name: Morale
    card_kind: reference
    deck: reference
    table: morale
  - id: crossing-card
    name: Crossing the river
    card_kind: reference
    deck: reference
    text: |
      Roll when a unit enters the river.

      {{ table:crossing }}

      A gun never swims.
  - id: ranks-card
    name: Ranks
    card_kind: reference
    deck: reference
    text: |
      Who leads:

      | Rank | Leads |
      |---|---|
      | Captain | {{ unit:infantry }} |
      | Major | {{ unit:cavalry }} |
  - id: ford-card
    name: Ford
    card_kind: reference
    deck: reference
    text: "At a ford: {{ table:crossing.rows.0.effect }} ({{ table:crossing.rows.0.modifier }})."
"""


def _tables() -> str:
    rows = "\n".join(f'      - {{roll: {i + 3}, outcome: "{OUTCOMES[i % 8][0]} line {i + 1}", modifier: {i % 5 - 2}, '
                     f'who: "{{{{ unit:cavalry }}}} rallies"}}' for i in range(ROWS))
    return f"""tables:
  - id: morale
    name: Morale results
    columns:
      - {{id: roll, name: Roll}}
      - {{id: outcome, name: Outcome}}
      - {{id: modifier, name: Modifier, signed: true}}
      - {{id: who, name: Who}}
    rows:
{rows}
  - id: crossing
    name: River crossing
    columns:
      - {{id: ground, name: Ground}}
      - {{id: effect, name: Effect}}
      - {{id: modifier, name: Modifier, signed: true}}
    rows:
      - {{ground: Ford, effect: "The {{{{ unit:gun }}}} stops", modifier: 1}}
      - {{ground: Bridge, effect: Moves on, modifier: 0}}
      - {{ground: Deep water, effect: Turns back, modifier: -1}}
"""


GERMAN = [(f"{en} line {i + 1}", f"{de} Linie {i + 1}") for i, (en, de) in
          ((i, OUTCOMES[i % 8]) for i in range(ROWS))] + [
    ("Morale results", "Moralergebnisse"), ("Roll", "Wurf"), ("Outcome", "Ergebnis"), ("Modifier", "Modifikator"),
    ("Who", "Wer"), ("{{ unit:cavalry }} rallies", "{{ unit:cavalry }} sammelt sich"),
    ("River crossing", "Flussübergang"), ("Ground", "Gelände"), ("Effect", "Wirkung"), ("Ford", "Furt"),
    ("The {{ unit:gun }} stops", "Das {{ unit:gun }} hält an"), ("Moves on", "Zieht weiter"),
    ("Deep water", "Tiefes Wasser"), ("Turns back", "Kehrt um"), ("Reference", "Übersicht"),
    ("Crossing the river", "Über den Fluss"),
    (CROSSING, "Würfelt, wenn eine Einheit den Fluss betritt.\n\n{{ table:crossing }}\n\nEin Geschütz schwimmt nie.\n"),
    ("Ranks", "Ränge"),
    (RANKS, "Wer führt:\n\n| Rang | Führt |\n|---|---|\n| Hauptmann | {{ unit:infantry }} |\n| Major | {{ unit:cavalry }} |\n"),
    (FORD, "An einer Furt: {{ table:crossing.rows.0.effect }} ({{ table:crossing.rows.0.modifier }})."),
]  # "Bridge" and "Morale" the fixture's catalog already translates


def make_game(root: Path, cards: str = CARDS) -> Path:
    """The fixture with the reference deck and its tables, in a project at `root`."""
    game = root / "content" / "bridgehead"
    shutil.copytree(FIXTURE, game)
    (game / "data/tables.yaml").write_text(_tables(), encoding="utf-8")
    (game / "data/refcards.yaml").write_text(cards, encoding="utf-8")
    with open(game / "locale/de.po", "a", encoding="utf-8") as po:
        for en, de in GERMAN:
            po.write(f"\nmsgid {json.dumps(en, ensure_ascii=False)}\nmsgstr {json.dumps(de, ensure_ascii=False)}\n")
    return game


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    from generator import outputs
    from generator.print.jobs import Job, run_job

    root = tmp_path_factory.mktemp("table-cards")
    make_game(root)
    try:
        for lang in ("en", "de"):
            result = run_job(Job(root, "bridgehead", lang, "cards", images=False))
            assert result.error is None, result.error
            # the layout check finds nothing on the tables' cards: no text cut off, none outside its card
            assert not [d for d in result.diagnostics if d.location and d.location.path.name in ("refcards.yaml",
                                                                                                 "tables.yaml")]
            assert (root / "output/bridgehead" / lang / "cards.pdf").is_file()
    finally:
        outputs.confine_to(None)
    return root / "output/bridgehead"


def card_texts(out: Path) -> dict[str, str]:
    """Each printed card's front text, by card id (continued cards as `ID-1`, `ID-2`)."""
    placements = json.loads((out / "cards.json").read_text(encoding="utf-8"))
    document = pdfium.PdfDocument(str(out / "cards.pdf"))
    texts = {}
    try:
        for p in placements:
            page = document[(p["sheet"] - 1) * 2]
            (x, y), (w, h) = p["front"], p["size"]
            height = p["paper"][1]
            text = page.get_textpage().get_text_bounded(x * MM, (height - y - h) * MM, (x + w) * MM, (height - y) * MM)
            for hyphen in ("\ufffe\r\n", "\ufffe", "\x02\r\n", "\x02"):  # words hyphenated at a line's end
                text = text.replace(hyphen, "")
            texts[p["card"]] = " ".join(text.split())
    finally:
        document.close()
    return texts


def test_a_table_card_continues_on_more_cards_each_with_the_header(built):
    for lang, header in (("en", ("Roll", "Outcome", "Modifier", "Who")), ("de", ("Wurf", "Ergebnis", "Modifikator", "Wer"))):
        texts = card_texts(built / lang)
        parts = sorted(k for k in texts if k.startswith("morale-card-"))
        assert len(parts) >= 2, (lang, sorted(texts))
        for part in parts:
            assert all(word in texts[part] for word in header), (lang, part, texts[part])
        everything = " ".join(texts[p] for p in parts)
        line = "line" if lang == "en" else "Linie"
        for i in range(ROWS):  # every row once, none left out
            assert len(re.findall(rf"{line} {i + 1}(?!\d)", everything)) == 1, (lang, i + 1, everything)


def test_the_german_cards_show_german_cells_and_no_english_one(built):
    texts = card_texts(built / "de")
    cards = " ".join(texts[k] for k in texts if k.startswith(("morale-card", "crossing-card", "ranks-card", "ford-card")))
    assert "Standhaft Linie 1" in cards and "Tiefes Wasser" in cards and "Hauptmann" in cards
    for en, _de in GERMAN[:ROWS] + [("Deep water", ""), ("Turns back", ""), ("rallies", ""), ("Captain", ""),
                                    ("Roll when", ""), ("At a ford", ""), ("stops", "")]:
        assert en not in cards, en


def test_a_reference_in_a_cell_prints_the_units_name_and_signed_values_keep_their_sign(built):
    for lang, cavalry, gun in (("en", "Cavalry rallies", "The Field gun stops (+1)"),
                               ("de", "Kavallerie sammelt sich", "Das Feldgeschütz hält an (+1)")):
        texts = card_texts(built / lang)
        morale = " ".join(texts[k] for k in texts if k.startswith("morale-card"))
        assert cavalry in morale and "{{" not in morale
        assert "+1" in morale and "+2" in morale and "-2" in morale
        assert gun in texts["ford-card"], texts["ford-card"]  # a cell referred to from a card's text
        crossing = texts["crossing-card"]
        assert "+1" in crossing and gun.rsplit(" (", 1)[0] in crossing and "{{" not in crossing


def test_a_markdown_table_in_a_cards_text_prints_as_a_table(built):
    for lang, words in (("en", ("Rank", "Captain", "Infantry", "Major", "Cavalry")),
                        ("de", ("Rang", "Hauptmann", "Infanterie", "Major", "Kavallerie"))):
        text = card_texts(built / lang)["ranks-card"]
        assert "|" not in text and "---" not in text, text
        assert all(word in text for word in words), text


def _faces(root: Path, print_yaml: str | None, without_cards: bool = False) -> dict[str, int]:
    from generator.print.cardfaces import all_faces
    from generator.print.context import BuildContext

    game = root / "content/bridgehead"
    if print_yaml is not None:
        (game / "print.yaml").write_text(print_yaml, encoding="utf-8")
    if without_cards:
        for name in ("cards.yaml", "refcards.yaml"):
            (game / "data" / name).unlink()
    ctx = BuildContext(Project(root).load("bridgehead", Report()), "en", root)
    decks: dict[str, int] = {}
    for face in all_faces(ctx):
        decks[face.deck] = decks.get(face.deck, 0) + 1
    return decks


def test_generated_decks_are_switched_in_print_yaml(tmp_path):
    for name, print_yaml, without_cards, reference, datasheets in (
            ("default", None, False, 0, 0),  # a game with cards: neither, as before
            ("on", "reference_deck: true\ndatasheet_deck: true\n", False, 2, 3),
            ("off", "reference_deck: false\ndatasheet_deck: false\n", False, 0, 0),
            ("no-cards", None, True, 0, 3),  # a game with units and no cards: their datasheets, as before
            ("no-cards-off", "datasheet_deck: false\n", True, 0, 0)):
        root = tmp_path / name
        make_game(root)
        decks = _faces(root, print_yaml, without_cards)
        assert decks.get("reference", 0) == reference + (0 if without_cards else 4), (name, decks)
        assert decks.get("datasheets", 0) == datasheets, (name, decks)


def _diagnostics(root: Path) -> list:
    report = Report()
    Project(root).load("bridgehead", report)
    return report.diagnostics


def test_an_unknown_table_is_reported_at_its_line_with_the_nearest(tmp_path):
    make_game(tmp_path, CARDS.replace("table: morale", "table: moral"))
    found = [d for d in _diagnostics(tmp_path) if d.code == "E007" and "moral'" in d.message]
    assert found, _diagnostics(tmp_path)
    text = (tmp_path / "content/bridgehead/data/refcards.yaml").read_text().splitlines()
    assert found[0].location.path.name == "refcards.yaml"
    assert text[found[0].location.line - 1].strip() == "table: moral"
    assert "morale" in found[0].hint


def test_a_table_inside_a_sentence_of_a_card_is_still_e052(tmp_path):
    make_game(tmp_path)
    assert not [d for d in _diagnostics(tmp_path) if d.code == "E052"]
    game = tmp_path / "content/bridgehead"
    cards = game / "data/refcards.yaml"
    cards.write_text(CARDS.replace("At a ford: {{", "At a ford {{ table:crossing }}: {{"), encoding="utf-8")
    assert [d for d in _diagnostics(tmp_path) if d.code == "E052" and d.location.path.name == "refcards.yaml"]


def test_a_cell_referred_to_reads_as_plain_words_in_each_language(tmp_path):
    from generator.print.context import BuildContext

    make_game(tmp_path)
    game = Project(tmp_path).load("bridgehead", Report())
    ref = "{{ table:crossing.rows.0.effect }} ({{ table:crossing.rows.0.modifier }}), {{ table:morale.rows.3.who }}"
    assert BuildContext(game, "en", tmp_path).tr.references(ref) == "The Field gun stops (+1), Cavalry rallies"
    assert BuildContext(game, "de", tmp_path).tr.references(ref) == "Das Feldgeschütz hält an (+1), Kavallerie sammelt sich"


def test_a_cell_referred_to_in_the_rules_prints_as_its_table_prints_it(tmp_path):
    from generator.i18n.translate import Translator
    from generator.text.chapters import load_chapter
    from generator.text.render import RenderContext, render_chapter

    make_game(tmp_path)
    game = Project(tmp_path).load("bridgehead", Report())
    path = tmp_path / "ford.md"
    path.write_text("# Ford\n\n" + FORD + "\n", encoding="utf-8")
    html = str(render_chapter(load_chapter(path), RenderContext(game, Translator.load(game, "en"), "site",
                                                                 lambda record: None)).html)
    assert "Field gun" in html and "+1" in html and "{{" not in html, html


def test_a_card_of_a_deck_named_reference_has_its_own_page_on_the_site(tmp_path):
    from generator.print.cardfaces import all_faces
    from generator.print.context import BuildContext
    from generator.site.datasheet import card_sheet

    make_game(tmp_path)
    ctx = BuildContext(Project(tmp_path).load("bridgehead", Report()), "de", tmp_path)
    face = next(f for f in all_faces(ctx) if f.id == "morale-card")
    html = str(card_sheet(ctx, face, lambda record: None))
    assert 'class="card-kind"' in html and "Moralergebnisse" in html and "Standhaft Linie 28" not in html
    assert "Geflohen Linie 28" in html
