"""Counters: the test game's 40 two-sided half-inch counters and its markers on one A4
front/back pair, each back behind its front (read off the printed PDF), legible, in the side's colours; sides as
references; unit symbols; markers; images of every counter face."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator.core.diagnostics import Report
from generator.model.components import UNIT_SYMBOLS
from generator.print.jobs import Job, run_job
from generator.print.layout import sheet_spec
from generator.print.svg_symbols import SYMBOLS, unit_symbol
from generator.project import Project

from .conftest import REPO, line_of

FIXTURE = REPO / "tests/fixtures/river-line"
MM = 72 / 25.4


@pytest.fixture(autouse=True)
def _release_output_confinement():
    """Builds run in-process confine writes to their project's output/; later tests write elsewhere."""
    yield
    from generator import outputs
    outputs.confine_to(None)


def make_project(root: Path) -> Path:
    shutil.copytree(FIXTURE, root / "content" / "river-line")
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = make_project(tmp_path_factory.mktemp("river"))
    results = {lang: run_job(Job(root, "river-line", lang, "counters", images=(lang == "en"))) for lang in ("en", "ru")}
    for result in results.values():
        assert result.error is None, result.error
    return root, results


def _text_in(page, x: float, y: float, w: float, h: float) -> str:
    """The text printed inside a box given in mm from the page's top-left corner."""
    height = page.get_height()
    text = page.get_textpage()
    return text.get_text_bounded(left=x * MM, bottom=height - (y + h) * MM, right=(x + w) * MM, top=height - y * MM).strip()


def test_forty_unit_counters_on_one_a4_pair_backs_behind_fronts(built):
    root, results = built
    out = root / "output/river-line/en"
    placements = json.loads((out / "counters.json").read_text())
    units = [p for p in placements if p["countersheet"] == "units"]
    assert len(units) == 40 and {p["sheet"] for p in units} == {1}
    assert {tuple(p["size"]) for p in units} == {(12.7, 12.7)}
    assert not results["en"].diagnostics, [d.message for d in results["en"].diagnostics]
    pdf = pdfium.PdfDocument(str(out / "counters.pdf"))
    assert len(pdf) == 2  # one front/back pair: the markers packed below the units
    assert {p["sheet"] for p in placements} == {1} and len(placements) == 44
    assert (round(pdf[0].get_width() / MM), round(pdf[0].get_height() / MM)) == (210, 297)
    data = {c["id"]: c for c in _counters()}
    front, back = pdf[0], pdf[1]
    for p in units:
        counter = data[p["counter"]]
        (fx, fy), (bx, by), (w, h) = p["front"], p["back"], p["size"]
        assert by == fy and abs((bx + w / 2) - (210 - (fx + w / 2))) < 0.01
        # full strength on the front, half strength on the back, at the mirrored slot
        assert f"{counter['strength']}-{counter['movement']}" in _text_in(front, fx, fy, w, h)
        assert f"{counter['back']['strength']}-{counter['movement']}" in _text_in(back, bx, by, w, h)
        assert counter["designation"] in _text_in(back, bx, by, w, h)


def _counters() -> list[dict]:
    import yaml

    return yaml.safe_load((FIXTURE / "data/counters.yaml").read_text())["counters"]


def test_counters_take_their_side_colour(built):
    root, _ = built
    out = root / "output/river-line/en"
    placements = json.loads((out / "counters.json").read_text())
    pdf = pdfium.PdfDocument(str(out / "counters.pdf"))
    dpi = 100
    front = pdf[0].render(scale=dpi / 72).to_pil().convert("RGB")
    back = pdf[1].render(scale=dpi / 72).to_pil().convert("RGB")
    colours = {"n": (0xa9, 0xc4, 0xe2), "s": (0xe6, 0xb4, 0x9a)}
    for p in placements:
        if p["countersheet"] != "units":
            continue
        want = colours[p["counter"][0]]
        for image, (x, y) in ((front, p["front"]), (back, p["back"])):
            got = image.getpixel((int((x + 1.2) / 25.4 * dpi), int((y + 11.5) / 25.4 * dpi)))
            assert all(abs(a - b) < 12 for a, b in zip(got, want)), (p["counter"], got, want)


def test_counter_text_is_legible(built):
    """No text below 5 pt, none outside its counter (in the laid-out document)."""
    root, results = built
    from generator.print.sheetparts import sheets_config
    from generator.print.context import BuildContext
    from generator.print.counters import counter_document, legibility

    game = Project(root).load("river-line", Report(), checks=False)
    for lang in ("en", "ru"):
        assert not results[lang].diagnostics
        ctx = BuildContext(game, lang, root)
        _html, _placements, document, _pieces = counter_document(ctx, Report())
        config = sheets_config(ctx)
        assert config["counter"]["min_font_pt"] >= 5
        assert legibility(document, config) == {}
        stricter = {**config, "counter": {**config["counter"], "min_font_pt": 6}}
        assert legibility(document, stricter), "the check sees the 5.5 pt designations"


def test_symbol_text_below_the_limit_is_reported(tmp_path):
    """Text inside a unit symbol (an SVG) is measured at its printed size: W030 below 5 pt."""
    root = make_project(tmp_path)
    (root / "content/river-line/templates").mkdir()
    (root / "content/river-line/templates/sheets.yaml").write_text(
        (REPO / "templates/sheets.yaml").read_text().replace("  min_font_pt: 5\n", "  min_font_pt: 5.4\n"))
    result = run_job(Job(root, "river-line", "en", "counters", images=False))
    warnings = {d.message for d in result.diagnostics if d.code == "W030"}
    assert "counter 'n01' (en): 'XX' at 5.27 pt (least 5.4 pt)" in warnings  # a division's echelon mark


def test_text_that_does_not_fit_is_reported(tmp_path):
    root = make_project(tmp_path)
    path = root / "content/river-line/data/counters.yaml"
    path.write_text(path.read_text().replace("text: Disrupted,", "text: Disrupted and thoroughly demoralised by relentless artillery fire,"))
    result = run_job(Job(root, "river-line", "en", "counters", images=False))
    warnings = [d for d in result.diagnostics if d.code == "W030"]
    assert len(warnings) == 1 and "disrupted" in warnings[0].message and "outside" in warnings[0].message
    assert warnings[0].location.line == line_of(path, "id: disrupted")


def test_translated_counters(built):
    root, _ = built
    pdf = pdfium.PdfDocument(str(root / "output/river-line/ru/counters.pdf"))
    text = pdf[0].get_textpage().get_text_range() + pdf[1].get_textpage().get_text_range()
    assert "Контроль" in text and "Ход" in text and "Control" not in text


def test_counter_images_front_and_back(built):
    root, results = built
    files = {p.relative_to(root / "output/river-line/en").as_posix() for p in results["en"].files}
    assert {"counters/n01-front.png", "counters/n01-back.png", "counters/turn-back.png"} <= files
    assert {"tts/counters-units-front-1.png", "tts/counters-units-back-1.png"} <= files
    from PIL import Image
    assert Image.open(root / "output/river-line/en/counters/n01-front.png").size == (150, 150)


def test_sides_are_references(tmp_path):
    root = make_project(tmp_path)
    path = root / "content/river-line/data/counters.yaml"
    path.write_text(path.read_text().replace("id: n03, sheet: units, side: north", "id: n03, sheet: units, side: nort"))
    report = Report()
    Project(root).load("river-line", report)
    (d,) = report.errors
    assert d.code == "E007" and "unknown side 'nort'" in d.message and "did you mean 'north'" in d.hint
    assert d.location.path == path and d.location.line == line_of(path, "side: nort,")


def test_unknown_counter_sheet_and_template(tmp_path):
    root = make_project(tmp_path)
    path = root / "content/river-line/data/counters.yaml"
    text = path.read_text().replace("id: n04, sheet: units,", "id: n04, sheet: unit,")
    path.write_text(text.replace("id: turn, sheet: markers,", "id: turn, sheet: markers, template: markr,"))
    report = Report()
    Project(root).load("river-line", report)
    messages = {d.message: d.hint for d in report.errors}
    assert messages == {"unknown counter sheet 'unit'": "did you mean 'units'?",
                        "unknown counter template 'markr'": "did you mean 'marker'?"}


def test_every_unit_symbol_is_drawn():
    assert set(UNIT_SYMBOLS) == set(SYMBOLS)
    drawn = {name: str(unit_symbol(name, "division")) for name in UNIT_SYMBOLS}
    assert all(d.startswith("<svg") and "XX" in d for d in drawn.values())
    signs = {name: SYMBOLS[name]() for name in UNIT_SYMBOLS if name not in ("recon", "none")}
    assert len(set(signs.values())) == len(signs), "two unit types share a drawing"


def test_letter_paper(tmp_path):
    root = make_project(tmp_path)
    result = run_job(Job(root, "river-line", "en", "counters", paper="letter", images=False))
    assert result.error is None and not result.diagnostics
    placements = json.loads((root / "output/river-line/en/counters-letter.json").read_text())
    assert {tuple(p["paper"]) for p in placements} == {(215.9, 279.4)}
    assert {p["sheet"] for p in placements if p["countersheet"] == "units"} == {1}
    for p in placements:
        (fx, _), (bx, _), (w, _) = p["front"], p["back"], p["size"]
        assert abs((bx + w / 2) - (215.9 - (fx + w / 2))) < 0.01
    maps = run_job(Job(root, "river-line", "en", "maps", paper="letter", images=False))
    tiles = json.loads((root / "output/river-line/en/maps-letter.json").read_text())
    assert maps.error is None and {tuple(sorted(t["paper"])) for t in tiles} == {(215.9, 279.4)}


def test_symbol_text_legible_at_half_inch():
    """Echelon marks and 'HQ' inside the symbol: at 1/2" the symbol is 60% of the counter
    inside its 0.15 mm border (12.4 mm)."""
    import re

    svg = str(unit_symbol("headquarters", "corps"))
    view_w = float(re.search(r'viewBox="0 0 ([\d.]+)', svg).group(1))
    mm_per_unit = 0.6 * (12.7 - 2 * 0.15) / view_w
    sizes = [float(s) * mm_per_unit * 72 / 25.4 for s in re.findall(r'font-size="([\d.]+)"', svg)]
    assert len(sizes) == 2 and min(sizes) >= 5.0, sizes


def test_sheet_without_backs(tmp_path):
    root = make_project(tmp_path)
    path = root / "content/river-line/data/counters.yaml"
    path.write_text(path.read_text().replace("size: counter-5/8, template: marker}", "size: counter-5/8, template: marker, backs: false}"))
    result = run_job(Job(root, "river-line", "en", "counters", images=False))
    assert result.error is None and result.pages == 2
    placements = json.loads((root / "output/river-line/en/counters.json").read_text())
    assert all(p["back"] is None for p in placements if p["countersheet"] == "markers")


def test_counters_of_several_sizes_share_sheets_with_room_for_their_marks():
    from generator.print.layout import load_sheets, shelves

    config = load_sheets(REPO / "templates/sheets.yaml")
    half, five_eighths = sheet_spec(config, "a4", (12.7, 12.7), kind="counters"), \
        sheet_spec(config, "a4", (15.875, 15.875), kind="counters")
    pages = shelves([(half, 300), (five_eighths, 4), (half, 20)])
    assert [[(kind, n) for kind, _spec, _first, n in page] for page in pages] == [
        [(0, 247)], [(0, 53), (1, 4), (2, 20)]]  # a full sheet, then the rest of every kind on one
    for page in pages:
        spans = [(spec.top, spec.top + spec.block_height(spec.used_rows(n))) for _k, spec, _f, n in page]
        assert spans[0][0] >= half.min_margin and spans[-1][1] <= half.paper_h - half.min_margin
        assert all(b[0] - a[1] >= half.shelf_gap - 1e-9 for a, b in zip(spans, spans[1:]))


def test_a_dark_side_gets_light_text_and_no_contrast_finding(tmp_path):
    """A side's counters print in black or white, whichever reads better on its colour, when
    the side names no text colour; the layout check (W044) finds nothing on them."""
    from generator.print.context import BuildContext
    from generator.print.counters import face

    root = make_project(tmp_path)
    manifest = root / "content/river-line/game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('colour: "#a9c4e2"', 'colour: "#1f2a44"'),
                        encoding="utf-8")
    game = Project(root).load("river-line", Report(), checks=False)
    ctx = BuildContext(game, "en", root)
    sheets = game.section("countersheets")
    inks = {}
    for counter in game.section("counters").values():
        sheet = sheets[counter.sheet]
        inks.setdefault(counter.side, face(ctx, counter, sheet, False)["text_colour"])
    assert inks["north"] == "#ffffff" and inks["south"] == "#000000", inks
    result = run_job(Job(root, "river-line", "en", "counters"))
    assert result.error is None, result.error
    assert not [d for d in result.diagnostics if d.code == "W044"], result.diagnostics


def test_a_marker_word_too_wide_for_its_counter_shrinks_before_it_hyphenates(tmp_path):
    """A marker's one long word on a one-inch counter ("Counterattacking", "Przygwożdżony") is set
    smaller until it fits whole, instead of breaking in two at the counter's text size; the
    layout check finds no needless hyphen (W047) and the counter stays legible (W030)."""
    from generator.print.context import BuildContext
    from generator.print.counters import TEXT_EM, layout_config, text_em
    from generator.print.fonts import text_width

    root = make_project(tmp_path)
    path = root / "content/river-line/data/counters.yaml"
    path.write_text(path.read_text().replace("size: counter-5/8, template: marker", "size: counter-1, template: marker")
                    .replace("text: Disrupted,", "text: Counterattacking,"))
    result = run_job(Job(root, "river-line", "en", "counters", images=False))
    assert result.error is None, result.error
    assert not [d for d in result.diagnostics if d.code in ("W030", "W047", "E040")], result.diagnostics
    pdf = pdfium.PdfDocument(str(result.files[0]))
    text = " ".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert "Counterattacking" in text and "Counter-" not in text, text
    game = Project(root).load("river-line", Report(), checks=False)
    size, base = (25.4, 25.4), 0.6 * 25.4
    config = layout_config(BuildContext(game, "en", root))
    em = text_em("Counterattacking", size, config)
    assert em < TEXT_EM and text_width("Counterattacking", base * em, bold=True) <= (25.4 - 2 * 1.0) * 72 / 25.4
    assert text_em("Turn", size, config) == TEXT_EM
