"""Print-shop files: real bleed on every card face, crop marks outside the bleed, page boxes,
the safe zone, unique font subset names. Measured on the written PDFs, as a print shop's
preflight would: rendered bleed strips, page boxes, font names (pdffonts)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pikepdf
import pypdfium2 as pdfium
import pytest

from generator.print.jobs import Job, run_job
from generator.print.preflight import MM, bleed_strips, page_boxes, subset_names

from .conftest import Workspace

RED = (0xB3, 0x26, 0x1E)


def _deck_game(ws: Workspace) -> Workspace:
    """The scaffold with a side whose colour runs along the top of its cards, and a second
    deck with a dark back."""
    ws.edit("game.yaml", "source_language: en", "source_language: en\nsides:\n  - id: red\n    name: Red\n"
            "    colour: '#b3261e'")
    ws.edit("data/decks.yaml", "    size: poker", "    size: poker\n    side: red\n"
            "  - id: night\n    name: Night\n    back: stars\n    size: poker")
    ws.write("data/extra-cards.yaml", "cards:\n" + "".join(
        f"  - id: night-{n}\n    name: Night {n}\n    card_kind: order\n    deck: night\n    quantity: 1\n"
        f"    text: Card number {n} of the night deck.\n" for n in range(12)))
    return ws


@pytest.fixture(scope="module")
def bleed_pdf(tmp_path_factory):
    """cards-bleed.pdf of a small game of two decks, laid out in chunks of 8 pages (joined)."""
    import os

    ws = _deck_game(Workspace(tmp_path_factory.mktemp("bleed")))
    os.environ["RULESMITH_SHEETS_PER_CHUNK"] = "8"
    try:
        result = run_job(Job(ws.root, "demo", "en", "cards", bleed=True, images=False))
    finally:
        del os.environ["RULESMITH_SHEETS_PER_CHUNK"]
    assert result.error is None, result.error
    assert not [d for d in result.diagnostics if d.code.startswith(("E", "W04"))], result.diagnostics
    return next(f for f in result.files if f.name == "cards-bleed.pdf")


def test_bleed_page_boxes(bleed_pdf):
    with pikepdf.Pdf.open(bleed_pdf) as pdf:
        assert len(pdf.pages) == 2 * 14  # every card's front and back
        for page in pdf.pages:
            trim, bleed = [float(v) for v in page.obj.TrimBox], [float(v) for v in page.obj.BleedBox]
            media = [float(v) for v in page.mediabox]
            assert round((trim[2] - trim[0]) / MM, 1) == 63 and round((trim[3] - trim[1]) / MM, 1) == 88
            assert [round(v / MM, 2) for v in (trim[0] - bleed[0], trim[1] - bleed[1],
                                               bleed[2] - trim[2], bleed[3] - trim[3])] == [3.0] * 4
            assert media[0] < bleed[0] and media[2] > bleed[2]  # paper for the crop marks around the bleed
    assert page_boxes(bleed_pdf, 3) == []


def test_every_face_paints_its_bleed_and_no_mark_is_in_it(bleed_pdf):
    assert bleed_strips(bleed_pdf, 3) == []


def test_side_colour_and_back_art_reach_the_bleed_edge(bleed_pdf):
    document = pdfium.PdfDocument(str(bleed_pdf))
    with pikepdf.Pdf.open(bleed_pdf) as pdf:
        pages = [([float(v) for v in p.mediabox], [float(v) for v in p.obj.TrimBox]) for p in pdf.pages]
    scale = 150 / 72

    def at(number: int, x_mm: float, y_mm: float):
        """The colour x_mm right of the trim's left edge, y_mm below its top (negative: outside)."""
        media, trim = pages[number]
        image = document[number].render(scale=scale).to_pil().convert("RGB")
        return image.getpixel((int((trim[0] - media[0] + x_mm * MM) * scale),
                               int((media[3] - trim[3] + y_mm * MM) * scale)))

    front, back = 0, 1  # the first card is the red side's; its back is spades-diamonds
    assert all(abs(a - b) < 12 for a, b in zip(at(front, 30, -2.5), RED))  # the side's band runs into the bleed
    assert all(abs(a - b) < 12 for a, b in zip(at(front, -2.5, 40), (0xFF, 0xFD, 0xF7)))  # and the face's paper
    assert at(back, -2.5, 40) == at(back, 1, 40) != (255, 255, 255)
    night_back = 2 * 2 + 1  # the night deck's first card (orders has advance and ambush)
    assert at(night_back, 30, -2.8) == at(night_back, 30, 1) == (0x16, 0x32, 0x5C)
    document.close()


def test_crop_marks_lie_outside_the_bleed(bleed_pdf):
    document = pdfium.PdfDocument(str(bleed_pdf))
    with pikepdf.Pdf.open(bleed_pdf) as pdf:
        media, trim = [float(v) for v in pdf.pages[0].mediabox], [float(v) for v in pdf.pages[0].obj.TrimBox]
    scale = 300 / 72
    image = document[0].render(scale=scale).to_pil().convert("L")
    x = int((trim[0] - media[0]) * scale)  # the left cut line, continued above the card
    column = [image.getpixel((x, y)) for y in range(int((media[3] - trim[3]) * scale))]
    dark = [y for y, v in enumerate(column) if v < 40]  # black, not the red band in the bleed
    top = (media[3] - trim[3]) * scale
    assert dark, "no crop mark on the continuation of the cut"
    assert top - max(dark) > 3 * MM * scale  # the nearest is further from the cut than the bleed
    document.close()


def test_preflight_finds_art_that_stops_at_the_trim(tmp_path):
    """A face painted only inside its trim, with crop marks in its bleed (as before)."""
    from weasyprint import HTML

    path = tmp_path / "old.pdf"
    HTML(string="<style>@page { size: 63mm 88mm; margin: 0; bleed: 3mm; marks: crop }"
                "body { margin: 0 } div { width: 63mm; height: 88mm; background: #16325c }</style><div></div>").write_pdf(path)
    found = bleed_strips(path, 3)
    assert len(found) == 1 and "top and bottom and left and right" in found[0].what


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="needs pdffonts (poppler-utils)")
def test_joined_chunks_name_every_subset_once(bleed_pdf):
    listing = subprocess.run(["pdffonts", str(bleed_pdf)], capture_output=True, text=True, check=True).stdout
    names = [line.split()[0] for line in listing.splitlines()[2:] if line.strip()]
    assert len(names) > 2 and len(set(names)) == len(names), listing  # chunks of 8 pages: several subsets
    assert subset_names(bleed_pdf) == []


def test_preflight_finds_a_subset_name_used_twice(bleed_pdf, tmp_path):
    with pikepdf.Pdf.open(bleed_pdf) as pdf:
        fonts = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Subtype") == "/Type0"]
        same = [f for f in fonts if str(f.BaseFont).endswith("+PT-Sans")]
        assert len(same) > 1
        same[1].BaseFont = same[0].BaseFont
        name = str(same[0].BaseFont).lstrip("/")
        pdf.save(tmp_path / "twice.pdf")
    assert [f.what for f in subset_names(tmp_path / "twice.pdf")] == [f"font name {name} stands for 2 different fonts"]


def _words_near_a_trim(path, margin: float = 3.2) -> tuple[int, list[tuple[str, float]]]:
    """The pages of a bleed PDF, and each word (pdftotext's boxes) closer than `margin` mm to
    its page's trim, with that distance in mm."""
    import re

    listing = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True,
                             check=True).stdout
    word = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)')
    with pikepdf.Pdf.open(path) as pdf:
        boxes = [([float(v) for v in p.mediabox], [float(v) for v in p.obj.TrimBox]) for p in pdf.pages]
    near = []
    for (media, trim), page in zip(boxes, listing.split("<page ")[1:]):
        left, top = trim[0] - media[0], media[3] - trim[3]  # the trim in the listing's coordinates
        right, bottom = trim[2] - media[0], media[3] - trim[1]
        for m in word.finditer(page):
            x0, y0, x1, y1 = map(float, m.groups()[:4])
            distance = min(x0 - left, y0 - top, right - x1, bottom - y1) / MM
            if distance < margin - 0.01:
                near.append((m.group(5), round(distance, 2)))
    return len(boxes), near


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")
def test_no_word_within_the_safe_margin_of_a_trim(bleed_pdf):
    assert _words_near_a_trim(bleed_pdf) == (28, [])


def test_the_safe_margin_is_3_2_mm_at_the_records_line(tmp_path):
    from generator.print.fonts import font_face_css
    from generator.print.pdf import render_document
    from generator.print.verify import verify_layout

    def found(inset: float, border: float = 0) -> list:
        html = (f"<div data-card data-src='data/cards.yaml:7' style='position: relative; width: 63mm; "
                f"height: 88mm; box-sizing: border-box; border: {border}mm solid transparent'>"
                f"<p style='position: absolute; bottom: {inset}mm; left: 10mm; margin: 0; font-size: 6pt; "
                "line-height: 1'>Footer</p></div>")
        document, _ = render_document(f"<html><head><style>{font_face_css()} body {{ margin: 0; font-family: "
                                      f"'PT Sans' }}</style></head><body>{html}</body></html>", tmp_path, [tmp_path])
        return [(d.code, d.location.line) for d in verify_layout(document, tmp_path)]

    assert found(2.5) == [("W040", 7)]  # the old footer's place
    assert found(3.6) == []
    assert found(2.5, border=3) == [("W040", 7)]  # on a bleed page, measured from the trim, not the bleed


# -- print-on-demand presets -----------------------------------------------------------------

@pytest.fixture(scope="module")
def shops(tmp_path_factory):
    """The small two-deck game, its cards built once for each shipped preset; a third deck of
    tarot cards no preset takes."""
    ws = _deck_game(Workspace(tmp_path_factory.mktemp("shops")))
    ws.edit("data/decks.yaml", "    back: stars\n    size: poker", "    back: stars\n    size: poker\n"
            "  - id: big\n    name: Big\n    back: plain\n    size: tarot")
    ws.write("data/big-cards.yaml", "cards:\n  - id: giant\n    name: Giant\n    card_kind: order\n    deck: big\n"
             "    quantity: 1\n    text: A large card.\n")
    built = {}
    for preset in ("drivethrucards", "thegamecrafter", "makeplayingcards"):
        result = run_job(Job(ws.root, "demo", "en", "cards", print_shops=(preset,), images=False))
        assert result.error is None, result.error
        built[preset] = result
    return ws, built


def test_drivethrucards_takes_one_pdf_per_deck_front_then_back(shops):
    ws, built = shops
    folder = ws.root / "output" / "demo" / "en" / "print-shop" / "drivethrucards"
    assert sorted(p.name for p in folder.iterdir()) == ["night.pdf", "orders.pdf"]
    night = folder / "night.pdf"
    with pikepdf.Pdf.open(night) as pdf:
        assert len(pdf.pages) == 2 * 12
        page = pdf.pages[0]
        trim, bleed = [float(v) for v in page.obj.TrimBox], [float(v) for v in page.obj.BleedBox]
        assert (round((trim[2] - trim[0]) / 72, 3), round((trim[3] - trim[1]) / 72, 3)) == (2.5, 3.5)
        assert [float(v) for v in page.mediabox] == pytest.approx(bleed)  # no marks: the paper is the bleed
        assert round((trim[0] - bleed[0]) / 72, 3) == 0.125
    text = pdfium.PdfDocument(str(night))
    assert "Night 0" in text[0].get_textpage().get_text_range() and "Night 1" in text[2].get_textpage().get_text_range()
    text.close()
    assert page_boxes(night, 3.175) == [] and bleed_strips(night, 3.175) == [] and subset_names(night) == []


def test_png_presets_write_one_image_per_face_at_300_dpi(shops):
    from PIL import Image

    ws, _ = shops
    base = ws.root / "output" / "demo" / "en" / "print-shop"
    tgc = base / "thegamecrafter" / "night"
    assert sorted(p.name for p in tgc.iterdir())[:2] == ["001-night-0.png", "002-night-1.png"]
    assert len(list(tgc.iterdir())) == 2 * 12
    with Image.open(tgc / "back-001-night-0.png") as image:
        assert image.size == (825, 1125) and round(image.info["dpi"][0]) == 300  # 2.75 × 3.75 in
    mpc = base / "makeplayingcards" / "orders"
    assert sorted(p.name for p in (mpc / "front").iterdir()) == ["001.png", "002.png"]
    with Image.open(mpc / "back" / "001.png") as image:
        assert image.size == (815, 1110)  # (63 + 2 × 3) × (88 + 2 × 3) mm at 300 dpi


def test_a_deck_no_product_takes_is_left_out_with_a_warning(shops):
    ws, built = shops
    warned = [d for d in built["makeplayingcards"].diagnostics if d.code == "W048"]
    assert len(warned) == 1 and "tarot" in warned[0].message
    assert warned[0].location.path.name == "big-cards.yaml" and warned[0].location.line == 2
    assert not (ws.root / "output" / "demo" / "en" / "print-shop" / "makeplayingcards" / "big").exists()
    assert not [d for r in built.values() for d in r.diagnostics if d.severity.name == "ERROR"]


def test_an_unknown_preset_is_a_usage_error(ws: Workspace):
    result = ws.run("build", "--only", "cards", "--print-shop", "kinkos")
    assert result.returncode == 2
    assert "unknown preset 'kinkos'; choose from drivethrucards, thegamecrafter, makeplayingcards" in result.stderr


def test_preflight_in_the_build_names_the_card_whose_back_stops_at_the_trim(ws: Workspace):
    """A designer's back whose art is drawn only inside the card: E048 at the card's record."""
    ws.write("templates/backs/inside.svg.j2", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 63 88" '
             'class="back-art"><rect x="0" y="0" width="63" height="88" fill="#0f3b57"/></svg>\n')
    ws.edit("data/decks.yaml", "back: spades-diamonds", "back: inside")
    result = run_job(Job(ws.root, "demo", "en", "cards", bleed=True, images=False))
    found = [d for d in result.diagnostics if d.code == "E048"]
    assert found and all("is not the face's edge" in d.message for d in found)
    assert {(d.location.path.name, d.location.line) for d in found} == {("cards.yaml", 3), ("cards.yaml", 9)}
    assert {d.message.split(": ")[1] for d in found} == {"page 2", "page 4"}  # the backs, not the fronts


# -- home sheets -------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_marks_and_notes_stay_5_mm_inside_the_paper(ws: Workspace, paper: str):
    """Nothing is drawn within 5 mm of the paper's edge (what most printers cannot print),
    on a full sheet of fronts and its backs; the cut marks are there all the same."""
    _deck_game(ws)
    result = run_job(Job(ws.root, "demo", "en", "cards", paper=paper, images=False))
    assert result.error is None, result.error
    document = pdfium.PdfDocument(str(result.files[0]))
    dpi = 100
    edge = round(4.9 / 25.4 * dpi)
    for number in (0, 1):
        image = document[number].render(scale=dpi / 72).to_pil().convert("L")
        w, h = image.size
        band = [image.getpixel((x, y)) for x in range(w) for y in (*range(edge), *range(h - edge, h))] + \
               [image.getpixel((x, y)) for y in range(h) for x in (*range(edge), *range(w - edge, w))]
        assert min(band) > 245, f"ink within 5 mm of the edge of page {number + 1}"
    text = document[0].get_textpage().get_text_range()
    assert "double-sided" in " ".join(text.split())
    document.close()


def test_crop_marks_start_3_mm_from_the_cut_where_the_paper_has_room():
    from generator.print.layout import load_sheets, sheet_spec

    from .conftest import REPO

    config = load_sheets(REPO / "templates/sheets.yaml")
    a4 = sheet_spec(config, "a4", (63, 88))
    for x1, y1, x2, y2 in a4.cut_marks():
        near = min(abs(y1 - a4.top), abs(y2 - a4.top), abs(y1 - a4.top - a4.grid_h), abs(y2 - a4.top - a4.grid_h)) \
            if x1 == x2 else min(abs(x1 - a4.left), abs(x2 - a4.left), abs(x1 - a4.left - a4.grid_w),
                                 abs(x2 - a4.left - a4.grid_w))
        assert near == pytest.approx(3.0)
    letter = sheet_spec(config, "letter", (63, 88))  # 7.7 mm above and below three rows of poker cards
    tops = [min(y1, y2) for x1, y1, x2, y2 in letter.cut_marks() if x1 == x2]
    assert tops and min(tops) >= 5.0


def test_preflight_finds_a_picture_below_300_dpi(tmp_path):
    from PIL import Image
    from weasyprint import HTML

    from generator.print.preflight import raster_dpi

    Image.new("RGB", (120, 120), (200, 30, 30)).save(tmp_path / "small.png")
    Image.new("RGB", (600, 600), (30, 30, 200)).save(tmp_path / "large.png")
    path = tmp_path / "pictures.pdf"
    HTML(string="<style>@page { size: 80mm 80mm; margin: 5mm }</style>"
                "<img src='small.png' style='width: 25.4mm'><div style='break-before: page'>"
                "<img src='large.png' style='width: 40mm'></div>", base_url=str(tmp_path) + "/").write_pdf(path)
    found = raster_dpi(path)
    assert [(f.page, f.what) for f in found] == [(1, "a 120×120 px picture printed 25.4×25.4 mm: 120 dpi, below 300")]


SHIPPED = ["battle-rules", "deadzone", "frames", "nuclear", "rock-n-roll"]


@pytest.fixture(scope="module")
def games(shipped, tmp_path_factory):
    """The shipped games (the example game among them) and the counters fixture (river-line), each in
    a project of its own."""
    from .conftest import REPO

    fixture = tmp_path_factory.mktemp("river-line")
    (fixture / "content").mkdir()
    (fixture / "content" / "river-line").symlink_to(REPO / "tests/fixtures/river-line")
    return {**{name: shipped for name in SHIPPED}, "zwiad": shipped, "river-line": fixture}


@pytest.mark.slow  # the cards of every shipped game in both editions, built with bleed and preflighted
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")
@pytest.mark.parametrize("game, lang", [(g, lang) for g in SHIPPED for lang in ("ru", "en")]
                         + [("zwiad", "pl"), ("zwiad", "en"), ("river-line", "en")])  # and the example game
def test_a_shipped_game_passes_the_preflight(games, game, lang):
    """A game's cards in each edition with --bleed and --print-shop drivethrucards: the build preflights both
    (page boxes, bleed strips of every face, font names, pictures) and finds nothing; no word
    lies within 3.2 mm of a trim. A deck of a size the printer does not take is only left out
    of its files (W048: the tarot reference cards, river-line's bridge-size events)."""
    result = run_job(Job(games[game], game, lang, "cards", bleed=True, print_shops=("drivethrucards",),
                         images=False))
    assert result.error is None, result.error
    assert not [d for d in result.diagnostics if d.code in ("E048", "W040") or d.code.startswith("E")], \
        result.diagnostics
    assert all("takes no cards of size" in d.message for d in result.diagnostics if d.code == "W048")
    bleed = next(p for p in result.files if p.name == "cards-bleed.pdf")
    pages, near = _words_near_a_trim(bleed)
    assert pages > 0 and near == []
    written = any(p.parent.name == "drivethrucards" for p in result.files)
    assert written or any(d.code == "W048" for d in result.diagnostics)  # files, or why there are none


def test_asking_for_a_print_shop_after_a_build_writes_its_files(ws: Workspace):
    assert ws.run("build", "--only", "cards", "--no-images").returncode == 0
    result = ws.run("build", "--only", "cards", "--no-images", "--print-shop", "drivethrucards")
    assert result.returncode == 0, result.stderr
    assert (ws.root / "output/demo/en/print-shop/drivethrucards/orders.pdf").is_file()


def test_an_edited_preset_makes_the_card_files_again(ws: Workspace):
    from .conftest import REPO

    build = ("build", "--only", "cards", "--no-images", "--print-shop", "drivethrucards")
    assert ws.run(*build).returncode == 0
    (ws.root / "templates").mkdir(exist_ok=True)
    text = (REPO / "templates/print-shops.yaml").read_text(encoding="utf-8")
    (ws.root / "templates/print-shops.yaml").write_text(
        text.replace("bleed: 3.175                     # 1/8 in\n    format: pdf", "bleed: 2\n    format: pdf"),
        encoding="utf-8")
    result = ws.run(*build)
    assert result.returncode == 0, result.stderr
    with pikepdf.Pdf.open(ws.root / "output/demo/en/print-shop/drivethrucards/orders.pdf") as pdf:
        trim, bleed = [float(v) for v in pdf.pages[0].obj.TrimBox], [float(v) for v in pdf.pages[0].obj.BleedBox]
    assert round((trim[0] - bleed[0]) / MM, 2) == 2


@pytest.mark.parametrize("paper, width, held", [("a4", 210, 9), ("letter", 215.9, 6)])
def test_different_backgrounds_on_a_sheet_get_a_gutter_of_their_own_colours(ws: Workspace, paper, width, held):
    """Sheet 1 holds the red orders and the blue night cards: a 3 mm gutter between all its
    cards, each card's colour in its half (on Letter 3×2 cards, as 3×3 leave no room for the
    gutters); sheet 2, night cards only, shares its cut lines."""
    _deck_game(ws)
    result = run_job(Job(ws.root, "demo", "en", "cards", paper=paper, images=False))
    assert result.error is None, result.error
    placements = json.loads(result.files[0].with_suffix(".json").read_text())
    first = [p for p in placements if p["sheet"] == 1]
    second = [p for p in placements if p["sheet"] == 2]
    assert {p["deck"] for p in first} == {"orders", "night"} and {p["deck"] for p in second} == {"night"}
    assert len(first) == held
    assert first[1]["front"][0] - first[0]["front"][0] == pytest.approx(63 + 3)
    assert first[3]["front"][1] - first[0]["front"][1] == pytest.approx(88 + 3)
    assert second[1]["front"][0] - second[0]["front"][0] == pytest.approx(63)
    for p in placements:  # duplex: each back exactly behind its front, gutters or not
        assert p["back"][1] == p["front"][1] and p["back"][0] + 63 == pytest.approx(width - p["front"][0])
    document, dpi = pdfium.PdfDocument(str(result.files[0])), 150
    backs = document[1].render(scale=dpi / 72).to_pil().convert("RGB")

    def at(x: float, y: float):
        return backs.getpixel((int(x / 25.4 * dpi), int(y / 25.4 * dpi)))

    blue, beige = (0x16, 0x32, 0x5C), (0xF4, 0xEF, 0xE4)
    for p in first:  # 1.2 mm outside each back's left and right cut: still its own colour
        (x, y), colour = p["back"], beige if p["deck"] == "orders" else blue
        for side in (x - 1.2, x + 63 + 1.2):
            assert all(abs(a - b) < 12 for a, b in zip(at(side, y + 44), colour)), (p["card"], side)
    text = document[1].get_textpage()
    index, _ = text.search("the back of sheet").get_next()
    note_top = (document[1].get_height() - text.get_charbox(index)[3]) / MM  # mm below the paper's top
    grid_bottom = max(p["back"][1] for p in first) + 88
    assert note_top > grid_bottom + 1.5  # the printing note below the colour bled into the gutter's half
    document.close()
