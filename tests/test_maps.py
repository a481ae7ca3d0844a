"""Maps: grid geometry, validation with file:line and hints, the SVG drawing, tiles on paper
with overlap and registration marks (checked on the rasterized PDF), one large page."""

from __future__ import annotations

import json

import pypdfium2 as pdfium
import pytest

from generator.core.diagnostics import Report
from generator.model.mapgrid import Grid
from generator.print.jobs import Job, run_job
from generator.project import Project

from .conftest import line_of
from .test_components_counters import make_project

MM = 72 / 25.4


@pytest.fixture(autouse=True)
def _release_output_confinement():
    """Builds run in-process confine writes to their project's output/; later tests write elsewhere."""
    yield
    from generator import outputs
    outputs.confine_to(None)


def test_hex_neighbours_flat_and_pointy():
    flat = Grid("hex-flat", 10, 12, 25.4)
    # odd columns sit high: (3,4) touches rows 3 and 4 of the columns beside it
    assert {(c, r) for c in range(1, 11) for r in range(1, 13) if flat.distance((3, 4), (c, r)) == 1} == {
        (3, 3), (3, 5), (2, 3), (2, 4), (4, 3), (4, 4)}
    assert flat.distance((2, 4), (3, 5)) == 1 and flat.distance((1, 1), (10, 12)) == 16
    pointy = Grid("hex-pointy", 10, 12, 25.4)
    assert {(c, r) for c in range(1, 11) for r in range(1, 13) if pointy.distance((3, 4), (c, r)) == 1} == {
        (2, 4), (4, 4), (3, 3), (4, 3), (3, 5), (4, 5)}
    w, h = flat.size
    assert w == pytest.approx(2 * flat.radius + 9 * 1.5 * flat.radius) and h == pytest.approx(12.5 * 25.4)
    a, b = flat.side((3, 4), (3, 5))
    assert a[1] == pytest.approx(b[1]) == pytest.approx(flat.centre(3, 4)[1] + 12.7)  # the flat bottom side
    square = Grid("square", 4, 4, 20)
    assert square.share_side((1, 1), (1, 2)) and not square.share_side((1, 1), (2, 2)) and square.distance((1, 1), (2, 2)) == 1


def _errors(root, edit=None):
    path = root / "content/river-line/data/maps.yaml"
    if edit:
        path.write_text(edit(path.read_text()))
    report = Report()
    Project(root).load("river-line", report)
    return path, report.errors


def test_map_validation(tmp_path):
    root = make_project(tmp_path)
    assert _errors(root)[1] == []
    path, errors = _errors(root, lambda t: t.replace("{terrain: marsh,", "{terrain: marshes,")
                           .replace('"0110", "0111"', '"0110", "1113"')
                           .replace('"0106/0107", ', '"0106/0108", ')
                           .replace('"0503", "0504", ', '"0503", ')
                           .replace('{at: "0310", text: Ashby}', '{at: 310, text: Ashby}')
                           .replace("    setup:", "    background: images/missing.png\n    setup:")
                           .replace("counter: s02}", "counter: s2}"))
    found = {(d.code, d.message, d.location.line): d.hint for d in errors}
    assert found == {
        ("E004", "labels.1.at: Value error, write cell numbers in quotes, e.g. '0310': unquoted, YAML reads them as numbers",
         line_of(path, "at: 310")): "check the value's type; write 'unstated' if the source does not give it",
    }
    # a record that fails its type check is left out; fix that one and the rest is reported
    path.write_text(path.read_text().replace("{at: 310,", '{at: "0310",'))
    found = {(d.code, d.message, d.location.line): d.hint for d in _errors(root)[1]}
    assert found == {
        ("E007", "unknown terrain 'marshes'", line_of(path, "marshes")): "did you mean 'marsh'?",
        ("E060", "cell '1113' is outside the 10×12 grid", line_of(path, '"1113"')):
            "columns run 01–10 and rows 01–12: a cell is written CCRR",
        ("E060", "'0106/0108': cells 0106 and 0108 share no side", line_of(path, "0106/0108")):
            "a hexside joins two neighbouring cells",
        ("E060", "path steps from 0503 to 0505, which are not neighbours", line_of(path, '"0503", "0505"')):
            "list every cell the path passes through, in order",
        ("E061", "no image 'images/missing.png' in the game folder", line_of(path, "background:")):
            "check the path: it is relative to the game folder",
        ("E007", "unknown counter 's2'", line_of(path, "counter: s2}")): "did you mean 's20'?",
    }


def test_background_image_stays_in_the_game_folder(tmp_path):
    root = make_project(tmp_path)
    (tmp_path / "secret.png").write_bytes(b"\x89PNG")
    path, errors = _errors(root, lambda t: t.replace("    setup:", "    background: ../../../secret.png\n    setup:"))
    assert [(d.code, d.message) for d in errors] == [("E061", "image '../../../secret.png' is outside the game folder")]
    path.write_text(path.read_text().replace("../../../secret.png", "rules/01-play.md"))
    assert [(d.code, d.message) for d in _errors(root)[1]] == [("E061", "image 'rules/01-play.md' is not PNG, SVG or JPEG")]


@pytest.fixture(scope="module")
def maps_built(tmp_path_factory):
    root = make_project(tmp_path_factory.mktemp("maps"))
    from PIL import Image
    art = root / "content/river-line/images"
    art.mkdir(exist_ok=True)
    Image.new("RGB", (40, 40), (200, 30, 30)).save(art / "field.png")
    path = root / "content/river-line/data/maps.yaml"
    path.write_text(path.read_text() + EXTRA_MAP)
    results = {lang: run_job(Job(root, "river-line", lang, "maps")) for lang in ("en", "ru")}
    for result in results.values():
        # only the added map's name is untranslated
        assert result.error is None and all(d.code == "W005" for d in result.diagnostics), result.diagnostics
    return root, results


EXTRA_MAP = """\
  - id: field
    name: Field
    grid: square
    columns: 3
    rows: 2
    cell: 20
    background: images/field.png
    numbers: false
"""


def test_map_tiled_over_a4_with_overlap_and_registration_marks(maps_built):
    root, results = maps_built
    out = root / "output/river-line/en"
    tiles = [t for t in json.loads((out / "maps.json").read_text()) if t["map"] == "valley"]
    pdf = pdfium.PdfDocument(str(out / "maps.pdf"))
    assert len(pdf) == len(tiles) + 1 == results["en"].pages and len(tiles) >= 2
    mw, mh = tiles[0]["map_size"]
    assert mw > 210 and mh > 297  # the 10×12 map of one-inch hexes needs more than one A4 page
    for t in tiles:
        pw, ph = t["paper"]
        assert {round(pw), round(ph)} == {210, 297}
        page = pdf[t["page"] - 1]
        assert (round(page.get_width() / MM), round(page.get_height() / MM)) == (round(pw), round(ph))
    # the windows cover the whole map, neighbours overlap by the configured overlap
    xs = sorted({t["window"][0] for t in tiles})
    ys = sorted({t["window"][1] for t in tiles})
    w, h = tiles[0]["window"][2:]
    assert xs[0] == ys[0] == 0 and xs[-1] + w >= mw and ys[-1] + h >= mh
    for a, b in zip(ys, ys[1:]):
        assert a + h - b == pytest.approx(12)
    # a registration mark in the shared overlap prints on both tiles, at the same map point
    first, second = tiles[0], next(t for t in tiles if t["window"][1] > 0 and t["window"][0] == 0)
    mark_y = second["window"][1] + 6  # middle of the overlap
    dpi = 150
    for t in (first, second):
        image = pdf[t["page"] - 1].render(scale=dpi / 72).to_pil().convert("L")
        page_y = 8 + mark_y - t["window"][1]
        page_x = 8 + 12 * 1.5  # first mark: 1.5 overlaps from the tile's left edge
        px, py = int(page_x / 25.4 * dpi), int(page_y / 25.4 * dpi)
        # the mark's horizontal stroke: dark pixels along its line, on both tiles
        dark = sum(1 for dx in range(-8, 9) if image.getpixel((px + dx, py)) < 90)
        assert dark >= 12, (t["page"], dark)


def test_large_page_and_background_image(maps_built):
    root, _ = maps_built
    out = root / "output/river-line/en"
    pdf = pdfium.PdfDocument(str(out / "maps-large.pdf"))
    assert len(pdf) == 2
    tiles = json.loads((out / "maps.json").read_text())
    mw, mh = tiles[0]["map_size"]
    trim, bleed, media = (pdf[0].get_trimbox(), pdf[0].get_bleedbox(), pdf[0].get_mediabox())
    assert (trim[2] - trim[0]) / MM == pytest.approx(mw, abs=0.1) and (trim[3] - trim[1]) / MM == pytest.approx(mh, abs=0.1)
    assert (trim[0] - bleed[0]) / MM == pytest.approx(3, abs=0.01) and media[0] < bleed[0]  # a print shop's bleed, marks outside
    from generator.print.preflight import bleed_strips, page_boxes

    assert page_boxes(out / "maps-large.pdf", 3) == [] and bleed_strips(out / "maps-large.pdf", 3) == []
    # the field map shows its background picture (red) under the grid
    image = pdf[1].render(scale=100 / 72).to_pil().convert("RGB")
    left, top = pdf[1].get_trimbox()[0] - pdf[1].get_mediabox()[0], pdf[1].get_mediabox()[3] - pdf[1].get_trimbox()[3]
    r, g, b = image.getpixel((int((left / MM + 16) / 25.4 * 100), int((top / MM + 16) / 25.4 * 100)))
    assert r > 150 and g < 90 and b < 90


def test_map_labels_translated(maps_built):
    root, _ = maps_built
    text = pdfium.PdfDocument(str(root / "output/river-line/ru/maps-large.pdf"))[0].get_textpage().get_text_range()
    assert "Милфорд" in text and "Millford" not in text and "0506" in text


def test_site_page_per_map_and_side_colours(maps_built):
    root, _ = maps_built
    from generator.site.build import build_site

    site = build_site(Project(root), ["river-line"], Report()).root
    for lang, name, terrain in (("en", "The Valley", "Woods"), ("ru", "Долина", "Лес")):
        page = (site / "river-line" / lang / "map-valley.html").read_text()
        assert "<h1" in page and name in page and "<svg" in page and 'data-cell="1012"' in page
        assert terrain in page.split('id="legend"')[1]
        assert name in (site / "river-line" / lang / "index.html").read_text()
    field = (site / "river-line/en/map-field.html").read_text()
    assert 'href="data:image/png;base64,' in field  # the picture travels with the page
    card = (site / "river-line/ru/cards/bridge-blown.html").read_text()
    assert 'class="side-badge"' in card and "#a9c4e2" in card and "Северная лига" in card


def test_printed_cards_wear_their_side_colour(tmp_path):
    root = make_project(tmp_path)
    result = run_job(Job(root, "river-line", "en", "cards", images=False))
    assert result.error is None
    placements = json.loads((result.files[0].parent / "cards.json").read_text())
    image = pdfium.PdfDocument(str(result.files[0]))[0].render(scale=100 / 72).to_pil().convert("RGB")
    colours = {"bridge-blown": (0xa9, 0xc4, 0xe2), "night-march": (0xe6, 0xb4, 0x9a)}
    for p in placements:
        x, y = p["front"]
        got = image.getpixel((int((x + 28) / 25.4 * 100), int((y + 0.8) / 25.4 * 100)))
        assert all(abs(a - b) < 12 for a, b in zip(got, colours[p["card"]])), (p["card"], got)
        assert p["size"] == [57.0, 89.0]


def test_map_board_image(maps_built):
    root, results = maps_built
    from PIL import Image
    png = root / "output/river-line/en/tts/map-valley.png"
    assert png in results["en"].files
    mw, mh = json.loads((root / "output/river-line/en/maps.json").read_text())[0]["map_size"]
    w, h = Image.open(png).size
    assert abs(w - mw / 25.4 * 150) <= 2 and abs(h - mh / 25.4 * 150) <= 2


def test_designer_pictures_in_rules_cards_and_counters(maps_built, tmp_path):
    root, _ = maps_built
    from generator.site.build import build_site

    site = build_site(Project(root), ["river-line"], Report()).root
    chapter = (site / "river-line/ru/play.html").read_text()
    assert '<img src="images/bridge.svg" alt="Мост в Милфорде"' in chapter
    assert (site / "river-line/ru/images/bridge.svg").read_bytes() == (root / "content/river-line/images/bridge.svg").read_bytes()
    card = (site / "river-line/en/cards/bridge-blown.html").read_text()
    assert '<img src="data:image/svg+xml;base64,' in card  # shows on a page one folder down too
    # a picture that is not there is reported where it is named
    other = make_project(tmp_path)
    path = other / "content/river-line/data/counters.yaml"
    path.write_text(path.read_text().replace("id: turn, sheet: markers,", "id: turn, sheet: markers, image: images/turn.png,"))
    cards = other / "content/river-line/data/cards.yaml"
    cards.write_text(cards.read_text().replace("images/bridge.svg", "images/bridge.svf"))
    report = Report()
    Project(other).load("river-line", report)
    found = sorted((d.code, d.message, d.location.path.name) for d in report.errors)
    assert found == [("E061", "image 'images/bridge.svf' is not PNG, SVG or JPEG", "cards.yaml"),
                     ("E061", "no image 'images/turn.png' in the game folder", "counters.yaml")]


def test_image_typo_gets_the_right_path(tmp_path):
    root = make_project(tmp_path)
    path, errors = _errors(root, lambda t: t.replace("    setup:", "    background: pictures/bridge.svg\n    setup:"))
    assert [(d.code, d.hint) for d in errors] == [("E061", "did you mean 'images/bridge.svg'?")]


@pytest.mark.skipif(__import__("shutil").which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")
def test_each_tile_prints_only_the_text_that_lies_on_it(maps_built):
    """A word of the map outside a tile's window would be in the tile's PDF, clipped: text a
    reader's search, a screen reader or a print shop's preflight finds off the paper."""
    import re
    import subprocess

    root, _ = maps_built
    out = root / "output/river-line/en"
    tiles = json.loads((out / "maps.json").read_text())
    listing = subprocess.run(["pdftotext", "-bbox", str(out / "maps.pdf"), "-"], capture_output=True, text=True,
                             check=True).stdout.split("<page ")[1:]
    margin = 8  # sheets.yaml maps.page_margin
    for tile in tiles:
        _x, _y, w, h = tile["window"]
        words = re.findall(r'<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)',
                           listing[tile["page"] - 1])
        centres = [((float(a) + float(c)) / 2 / MM, (float(b) + float(d)) / 2 / MM, word) for a, b, c, d, word in words]
        in_window = [word for x, y, word in centres if margin - 1 < x < margin + w + 1 and margin - 1 < y < margin + h + 1]
        caption = [word for x, y, word in centres if margin + h < y < margin + h + 8]  # the line under the tile
        assert len(in_window) + len(caption) == len(words), (tile["page"], len(words))


def test_every_printed_map_has_a_key_in_the_editions_language(maps_built):
    root, _ = maps_built
    for lang, words in (("en", ["Terrain", "Woods", "River", "Road"]), ("ru", ["Местность", "Лес", "Река", "Дорога"])):
        out = root / f"output/river-line/{lang}"
        large = pdfium.PdfDocument(str(out / "maps-large.pdf"))
        text = " ".join(large[0].get_textpage().get_text_range().split())
        assert all(word in text for word in words), (lang, text[-200:])
        tiled = pdfium.PdfDocument(str(out / "maps.pdf"))
        last_tile = max(t["page"] for t in json.loads((out / "maps.json").read_text()) if t["map"] == "valley")
        assert words[0] in tiled[last_tile - 1].get_textpage().get_text_range()  # the key's tile
