"""Every field of a card is content: backs written as faces (translated, printed at the mirrored
slot, on the site, per card in PNG and Tabletop Simulator), card stats and references printed.
One build of the `bridgehead` fixture (English source, German edition) serves every test."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from generator.core.diagnostics import Report
from generator.i18n.messages import data_messages
from generator.print.jobs import Job, run_job
from generator.project import Project
from generator.site.build import build_site

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests/fixtures/bridgehead"


@pytest.fixture(scope="module")
def built(bridgehead_built) -> Path:
    """The English cards, the German ones with their pictures, and the site."""
    return bridgehead_built


def page_text(pdf: Path, index: int) -> str:
    document = pdfium.PdfDocument(str(pdf))
    try:
        text = document[index].get_textpage().get_text_range()
        return text.replace("\ufffe\r\n", "").replace("\ufffe", "").replace("\r\n", " ")  # words hyphenated
    finally:
        document.close()




def test_back_strings_are_messages(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "content" / "bridgehead")
    game = Project(tmp_path).load("bridgehead", Report())
    places = {m.place: m.msgid for m in data_messages(game)}
    assert places["card:flank-march.back.title"] == "Flank march spent"
    assert places["card:barrage.back.text"] == "No {{ unit:gun }} fires next turn."


def test_german_backs_print_translated_at_the_mirrored_slot(built):
    out = built / "output/bridgehead/de"
    placements = {p["card"]: p for p in json.loads((out / "cards.json").read_text())}
    front, back = placements["flank-march"]["front"], placements["flank-march"]["back"]
    size, paper = placements["flank-march"]["size"], placements["flank-march"]["paper"]
    assert back[0] == pytest.approx(paper[0] - front[0] - size[0], abs=0.01)  # long-edge duplex: mirrored
    backs = page_text(out / "cards.pdf", 1)
    assert "Flankenmarsch verbraucht" in backs and "Rohre kühlen ab" in backs
    assert "Kavallerie" in backs and "Feldgeschütz" in backs  # the references, in German
    assert "{{" not in backs and "Flank march" not in backs and "cavalry" not in backs
    assert "Brückenkopf" in backs  # the deck's own back (title design) still prints for the third card


def test_card_stats_and_references_print_on_the_front(built):
    fronts = page_text(built / "output/bridgehead/de/cards.pdf", 0)
    assert "Kosten" in fronts and "Reichweite" in fronts  # the stats' German names
    words = fronts.replace("\xa0", " ")
    assert "12 Zoll" in words and "12 in" not in words  # the edition's unit word
    assert "Eine Einheit Kavallerie zieht erneut" in fronts
    assert "{{" not in fronts


def test_each_back_written_as_content_has_its_png_and_the_deck_its_back_sheet(built):
    out = built / "output/bridgehead/de"
    own = out / "cards/events-flank-march-back.png"
    assert own.is_file() and not (out / "cards/events-bridge-holds-back.png").exists()
    with Image.open(out / "tts/events-back-1.png") as sheet, Image.open(own) as card:
        assert sheet.size[0] > sheet.size[1] > 0 and card.size[1] > card.size[0]  # one row of three upright backs
        w = sheet.size[0] // 3
        cells = [sheet.crop((k * w, 0, (k + 1) * w, sheet.size[1])).convert("RGB") for k in range(3)]
    assert all(ImageChops.difference(cells[a], cells[b]).getbbox() for a, b in ((0, 1), (1, 2), (0, 2)))


def test_card_page_shows_back_stats_and_linked_references(built):
    page = (built / "output/site/bridgehead/de/cards/flank-march.html").read_text(encoding="utf-8")
    sheet = page[page.index('<section class="datasheet">'):page.index('<div class="card-preview"')]
    assert "Rückseite" in sheet and "Flankenmarsch verbraucht" in sheet
    assert 'href="../units/cavalry.html"' in sheet and "Kavallerie" in sheet
    assert "Befehlskosten" in sheet or "Kosten" in sheet
    assert "{{" not in page
    assert page.count('class="card-figure"') == 2  # the front and its back


def test_a_reference_prints_its_display_form_translated_with_its_message(built):
    site = built / "output/site/bridgehead"
    assert '<a class="ref ref-unit" href="units/gun.html">guns</a> fire last' in (site / "en/play.html").read_text()
    assert '<a class="ref ref-unit" href="units/gun.html">Geschütze</a> feuern' in (site / "de/play.html").read_text()


BACK = """    back:
      title: Spent
      text: Turn it over.
      stats: {{{stats}}}
      image: {image}
      template: {template}
"""


def _back(ws, stats="", image="images/none.svg", template="stars"):
    path = ws.edit("data/cards.yaml", "    text: One unit moves and then attacks.\n",
                   "    text: One unit moves and then attacks.\n"
                   + BACK.format(stats=stats, image=image, template=template))
    return path


def test_a_back_written_as_content_is_checked_where_it_is_written(ws):
    from .conftest import line_of

    path = _back(ws, stats="rang: 2", template="starz")
    found = {d.code: d for d in ws.validate().diagnostics if d.code in ("E007", "E013", "E061")}
    assert found["E007"].location.line == line_of(path, "template: starz") and "did you mean 'stars'" in found["E007"].hint
    assert found["E013"].location.line == line_of(path, "rang: 2") and "unknown card stat 'rang'" in found["E013"].message
    assert found["E061"].location.line == line_of(path, "image: images/none.svg")


def test_a_back_without_errors_validates(ws):
    ws.edit("game.yaml", "    applies_to: [weapon]\n", "    applies_to: [weapon, card]\n")
    ws.write("images/spent.svg", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>')
    _back(ws, stats="range: 12 cm", image="images/spent.svg")
    assert [d.format_text() for d in ws.validate().diagnostics if d.severity.value == "error"] == []


def test_a_unit_of_measure_prints_in_the_words_the_catalog_gives(tmp_path):
    from generator.i18n.translate import Translator
    from generator.text.blocks import stat_html

    game_dir = tmp_path / "content" / "bridgehead"
    shutil.copytree(FIXTURE, game_dir)

    def reach(lang: str) -> str:
        game = Project(tmp_path).load("bridgehead", Report())
        return str(stat_html(game, Translator.load(game, lang), game.cards["flank-march"], "reach"))

    assert reach("de") == "12\u00a0Zoll"
    catalog = game_dir / "locale/de.po"
    catalog.write_text(catalog.read_text(encoding="utf-8").replace('msgid "in"\nmsgstr "Zoll"',
                                                                    'msgid "in"\nmsgstr "Zoll (2,54 cm)"'),
                       encoding="utf-8")
    assert reach("de") == "12\u00a0Zoll (2,54 cm)"  # the game's word, translated by its catalog
    manifest = game_dir / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("abbr: in}", "abbr: inches}"), encoding="utf-8")
    assert reach("de") == "12\u00a0Zoll" and reach("en") == "12 in"  # the source prints as written


def test_a_back_face_with_an_unknown_field_gets_one_error_naming_the_back_fields(ws):
    _back(ws, image="images/none.svg")
    ws.edit("data/cards.yaml", "      template: stars\n", "      template: stars\n      colour: red\n")
    found = [d for d in ws.validate().diagnostics if d.code in ("E003", "E004") and "cards.yaml" in str(d.location.path)]
    assert [(d.code, d.message) for d in found] == [("E003", "unknown field 'colour'")]
    assert found[0].hint == "known fields: title, text, stats, image, template"


def _long_back(ws, times: int):
    ws.edit("data/cards.yaml", "    text: One unit moves and then attacks.\n",
            "    text: One unit moves and then attacks.\n    back:\n      title: Spent\n"
            f"      text: {'Turn it over when the unit has moved and attacked. ' * times}\n")


def _fitted_advance(ws):
    from generator.print.cardfaces import deck_cards
    from generator.print.sheetparts import sheets_config
    from generator.print.context import BuildContext
    from generator.print.fitting import fitted_faces

    ctx = BuildContext(Project(ws.root).load("demo", Report()), "en", ws.root)
    card = sheets_config(ctx)["card"]
    face = next(f for f in fitted_faces(ctx, deck_cards(ctx), Report(), cache=False) if f.id == "advance")
    return face, card["base_font_pt"], card["min_font_pt"]


def test_a_long_back_shrinks_to_fit_like_a_front_and_the_sheets_are_written(ws):
    _long_back(ws, 22)
    face, base, low = _fitted_advance(ws)
    assert face.font_pt == base and low <= face.reverse.font_pt < base  # the back on its own, the front unchanged
    result = ws.run("build", "--only", "cards", "--no-images", "--jobs", "1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "E040" not in result.stdout + result.stderr
    sheet = (ws.root / "output/demo/en/cards.pdf")
    assert sheet.is_file()


def test_a_back_too_long_at_the_minimum_size_is_an_error(ws):
    _long_back(ws, 120)
    face, _base, low = _fitted_advance(ws)
    assert face.reverse.font_pt == low
    result = ws.run("build", "--only", "cards", "--no-images", "--jobs", "1")
    assert result.returncode == 1 and "error[E040]" in result.stdout + result.stderr
    assert not (ws.root / "output/demo/en/cards.pdf").exists()


def test_backs_written_as_content_fill_the_bleed_and_pass_the_preflight(tmp_path):
    """A back written as content, plain or on a back design, runs its colour and band into the
    bleed like a front, with no keyline on the cut: the preflight of cards-bleed.pdf finds
    nothing, and the text keeps the safe margin (no W040)."""
    root = tmp_path / "project"
    shutil.copytree(FIXTURE, root / "content" / "bridgehead")
    result = run_job(Job(root, "bridgehead", "en", "cards", bleed=True, images=False))
    assert result.error is None, result.error
    found = [d for d in result.diagnostics if d.code in ("E040", "E048", "W040")]
    assert not found, "\n".join(f"{d.code} {d.message}" for d in found)
