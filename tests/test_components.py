"""Components of any size: sizes as written, sheet layout with gutters for any size and
paper, duplex backs at the mirrored slot, decks of custom sizes and corners."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from generator.model.sizes import PRESETS, parse_size
from generator.print.jobs import Job, run_job
from generator.print.layout import load_sheets, sheet_spec

from .conftest import REPO, Workspace

SHEETS = load_sheets(REPO / "templates/sheets.yaml")
MM = 72 / 25.4


@pytest.fixture(autouse=True)
def _release_output_confinement():
    """Builds run in-process confine writes to their project's output/; later tests write elsewhere."""
    yield
    from generator import outputs
    outputs.confine_to(None)


def test_sizes_as_written():
    assert parse_size("poker") == (63.0, 88.0) and parse_size("mini") == (44.0, 67.0)
    assert parse_size("counter-1/2") == (12.7, 12.7) and parse_size("counter-1") == (25.4, 25.4)
    assert parse_size("60x90mm") == (60.0, 90.0)
    assert parse_size("2.5x3.5in") == (63.5, 88.9)
    assert parse_size("5/8in") == (15.875, 15.875)
    assert parse_size("16 mm") == (16.0, 16.0)
    for bad in ("huge", "12", "0mm", "3x", "1/0in"):
        with pytest.raises((ValueError, ZeroDivisionError)):
            parse_size(bad)


def test_counter_sheet_layout_from_sheets_yaml():
    spec = sheet_spec(SHEETS, "a4", parse_size("counter-1/2"), kind="counters")
    gutter = SHEETS["gutters"]["counters"]
    assert spec.gutter == gutter > 0
    # as many as fit inside the margins, gutters between them
    assert spec.cols == int((210 - 2 * SHEETS["min_margin"] + gutter) // (12.7 + gutter))
    assert spec.grid_w <= 210 - 2 * SHEETS["min_margin"] < spec.grid_w + 12.7 + gutter
    assert spec.per_sheet >= 40
    x0, _ = spec.front_slot(0)
    x1, _ = spec.front_slot(1)
    assert abs(x1 - x0 - (12.7 + gutter)) < 1e-9
    # a cut line at both edges of every counter: two per gutter
    assert len(spec.cut_xs()) == 2 * spec.cols
    cards = sheet_spec(SHEETS, "a4", (63, 88))
    assert cards.gutter == 0 and len(cards.cut_xs()) == cards.cols + 1 and cards.per_sheet == 9


def test_a_part_filled_sheet_has_cut_marks_only_beside_its_pieces():
    spec = sheet_spec(SHEETS, "a4", parse_size("counter-1/2"), kind="counters")
    full_rows = len(spec.cut_ys())
    count = spec.cols + 1  # one full row and one counter in the next
    assert len(spec.cut_ys(count)) == 4 < full_rows
    bottom = spec.front_slot(count - 1)[1] + spec.card_h
    assert max(max(y1, y2) for x1, y1, x2, y2 in spec.cut_marks(count) if x1 == x2) < bottom + spec.mark_gap + spec.mark_length + 0.01
    # a single part-filled row: the fronts' columns, and on the backs their mirror image
    fronts, backs = spec.cut_xs(3), spec.cut_xs(3, mirrored=True)
    assert len(fronts) == len(backs) == 6
    assert fronts[0] == round(spec.front_slot(0)[0], 4) and backs[-1] == round(spec.back_slot(0)[0] + spec.card_w, 4)


@settings(max_examples=60, deadline=None)
@given(w=st.floats(8, 180), h=st.floats(8, 250), paper=st.sampled_from(["a4", "letter"]),
       gutter=st.floats(0, 6))
def test_backs_mirror_fronts_for_any_size(w, h, paper, gutter):
    spec = sheet_spec(SHEETS, paper, (w, h), gutter=gutter)
    for k in range(spec.per_sheet):
        (fx, fy), (bx, by) = spec.front_slot(k), spec.back_slot(k)
        assert by == fy and abs((bx + w / 2) - (spec.paper_w - (fx + w / 2))) < 1e-6
        assert spec.min_margin - 1e-6 <= fx and fx + w <= spec.paper_w - spec.min_margin + 1e-6
        assert fy + h <= spec.paper_h - spec.min_margin + 1e-6


def test_every_preset_fits_a4_and_letter():
    for name, size in PRESETS.items():
        for paper in ("a4", "letter"):
            assert sheet_spec(SHEETS, paper, size).per_sheet >= 1, name


def test_deck_of_any_size_with_rounded_corners_and_a_card_back(ws: Workspace):
    ws.edit("data/decks.yaml", "size: poker", "size: 2x3in\n    corners: rounded")
    ws.edit("data/cards.yaml", "    quantity: 3\n", "    quantity: 3\n    back: plain\n")
    assert not ws.validate().errors
    result = run_job(Job(ws.root, "demo", "en", "cards", images=True))
    assert result.error is None, result.error
    placements = json.loads((result.files[0].parent / "cards.json").read_text())
    assert {tuple(p["size"]) for p in placements} == {(50.8, 76.2)}
    # the plain back among the deck's spades-diamonds backs: the sheet keeps its mixed-backgrounds gutter
    spec = sheet_spec(SHEETS, "a4", (50.8, 76.2), gutter=SHEETS["gutters"]["cards_mixed"])
    assert spec.gutter == 3
    assert [tuple(p["front"]) for p in placements] == [pytest.approx(spec.front_slot(k)) for k in range(len(placements))]
    page = PdfReader(result.files[0]).pages[0]
    assert (round(float(page.mediabox.width) / MM), round(float(page.mediabox.height) / MM)) == (210, 297)
    from PIL import Image
    png = next(p for p in result.files if p.suffix == ".png" and p.parent.name == "cards")
    w, h = Image.open(png).size
    assert abs(w - 600) <= 1 and abs(h - 900) <= 1
    # the card's own back replaces the deck's behind that card only
    from generator.core.diagnostics import Report
    from generator.print.cardfaces import all_faces
    from generator.print.cards import cards_html
    from generator.print.context import BuildContext
    from generator.project import Project
    project = Project(ws.root)
    ctx = BuildContext(project.load("demo", Report(), checks=False), "en", ws.root)
    faces = all_faces(ctx)
    assert {f.id: f.back for f in faces}["advance"] == "plain" and {f.back for f in faces} == {"plain", "spades-diamonds"}
    html, _ = cards_html(ctx, faces)
    assert html.count("back-plain") == 3 and "corners-rounded" in html


def test_unknown_size_is_a_diagnostic(ws: Workspace):
    ws.edit("data/decks.yaml", "size: poker", "size: pokr")
    errors = [d for d in ws.validate().errors if d.code == "E004"]
    assert len(errors) == 1 and "preset" in errors[0].message
    assert errors[0].location.path.name == "decks.yaml" and errors[0].location.line == 6


def test_new_counter_game_validates_and_builds(tmp_path):
    from generator.commands.new import scaffold
    from generator.core.diagnostics import Report
    from generator.project import Project

    scaffold(tmp_path / "content" / "hexes", "hexes", "Hexes", kind="counters")
    report = Report()
    game = Project(tmp_path).load("hexes", report)
    assert not report.diagnostics, [d.message for d in report.diagnostics]
    assert [s.id for s in game.manifest.sides] == ["blue", "red"]
    assert set(game.section("counters")) and set(game.section("maps")) == {"map"}
    for kind in ("counters", "maps"):
        result = run_job(Job(tmp_path, "hexes", "en", kind, images=False))
        assert result.error is None and not result.diagnostics and result.pages >= 1


def test_card_backs_as_images(ws: Workspace):
    """One back image per deck; a deck whose cards have their own backs gets back sheets in card order."""
    from PIL import Image

    result = run_job(Job(ws.root, "demo", "en", "cards"))
    names = {p.name for p in result.files if p.parent.name == "tts"}
    assert "orders-back.png" in names and not any(n.startswith("orders-back-") for n in names)
    ws.edit("data/cards.yaml", "    quantity: 3\n", "    quantity: 3\n    back: plain\n")
    result = run_job(Job(ws.root, "demo", "en", "cards"))
    tts = {p.name: p for p in result.files if p.parent.name == "tts"}
    assert "orders-back-1.png" in tts and "orders-back.png" not in tts
    fronts, backs = Image.open(tts["orders-1.png"]), Image.open(tts["orders-back-1.png"])
    assert fronts.size == backs.size
    # the first card (advance) has the plain back: dark red, the others the deck's design
    first = backs.getpixel((10, backs.size[1] // 2))
    assert first[0] > first[1] + 40 and first[0] < 120


def test_a_games_own_back_template(ws: Workspace):
    """A back of the game's own, drawn from the card's data; a misspelt design is reported."""
    ws.write("templates/backs/orders-back.svg.j2",
             '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 63 88" class="back-art">'
             '<rect width="63" height="88" fill="#123456"/><text x="5" y="40" font-size="5" fill="#fff">'
             '{{ card.title }}</text></svg>\n')
    ws.edit("data/cards.yaml", "    quantity: 3\n", "    quantity: 3\n    back: orders-back\n")
    assert not ws.validate().diagnostics
    result = run_job(Job(ws.root, "demo", "en", "cards", images=False))
    import pypdfium2 as pdfium
    back = pdfium.PdfDocument(str(result.files[0]))[1]
    assert "Advance" in back.get_textpage().get_text_range()
    ws.edit("data/cards.yaml", "back: orders-back", "back: orders-bak")
    (d,) = ws.validate().errors
    assert d.code == "E007" and d.message == "unknown card back design 'orders-bak'" and d.hint == "did you mean 'orders-back'?"


def test_a_games_own_counter_template_adds_macros_and_keeps_the_built_in_ones(tmp_path):
    from generator.commands.new import scaffold
    from generator.core.diagnostics import Report
    from generator.print.context import BuildContext
    from generator.print.counters import counters_html, pieces
    from generator.project import Project

    folder = tmp_path / "content" / "hexes"
    scaffold(folder, "hexes", "Hexes", kind="counters")
    (folder / "templates").mkdir(exist_ok=True)
    (folder / "templates" / "counter.html.j2").write_text(
        "{% macro supply(face) %}<p class=\"c-supply\">SUPPLY {{ face.text }}</p>{% endmacro %}\n", encoding="utf-8")
    path = folder / "data" / "counters.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "  - {id: turn, sheet: markers, text: Turn, value: 1}",
        "  - {id: turn, sheet: markers, text: Turn, value: 1}\n"
        "  - {id: dump, sheet: markers, template: supply, text: Dump}"), encoding="utf-8")
    report = Report()
    game = Project(tmp_path).load("hexes", report)
    assert not report.diagnostics, [d.message for d in report.diagnostics]
    html, _ = counters_html(BuildContext(game, "en", tmp_path), pieces(BuildContext(game, "en", tmp_path)))
    assert "SUPPLY Dump" in html          # the game's own macro
    assert 'class="c-values">6-4' in html  # the built-in unit macro, not copied into the game
    result = run_job(Job(tmp_path, "hexes", "en", "counters", images=False))
    assert result.error is None and not result.diagnostics
