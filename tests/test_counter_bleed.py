"""Counters for print shops: with --bleed every counter face on a page of its own, its colour
and band in the bleed, crop marks outside it, page boxes set, text outside the counter's safe
margin; with --print-shop the files of a printer's counter product (a PNG per face, or a PDF
per counter sheet), or a warning where the printer has none. Measured on the written files."""

from __future__ import annotations

import shutil

import pikepdf
import pypdfium2 as pdfium
import pytest

from generator.print.jobs import Job, run_job
from generator.print.preflight import MM, bleed_strips, page_boxes, png_face, raster_dpi, subset_names

from .conftest import REPO
from .test_print_shop import _words_near_a_trim

# the counters fixtures in their editions, and the counters each has (None: not counted)
EDITIONS = {("river-line", "en"): 44, ("river-line", "ru"): 44, ("bridgehead", "en"): None, ("bridgehead", "de"): None}
# The shipped presets, and two counter products a designer adds in the project's own
# print-shops.yaml for the fixture's half-inch and 5/8 in counters.
EXTENDED = {
    "thegamecrafter": 'sizes: {counter-3/4: [19.05, 19.05], counter-1: [25.4, 25.4], 1.5in: [38.1, 38.1]}',
    "drivethrucards": '''front: "{deck}.pdf"
    back: "{deck}.pdf"
    counters:
      sizes: {counter-1/2: [12.7, 12.7], counter-5/8: [15.875, 15.875]}
      bleed: 3.175
      format: pdf
      front: "{sheet}.pdf"
      back: "{sheet}.pdf"''',
}


def _project(tmp_path_factory, game: str, extended: bool = False):
    root = tmp_path_factory.mktemp(game)
    (root / "content").mkdir()
    (root / "content" / game).symlink_to(REPO / "tests/fixtures" / game)
    if extended:
        text = (REPO / "templates/print-shops.yaml").read_text(encoding="utf-8")
        text = text.replace(EXTENDED["thegamecrafter"],
                            "sizes: {counter-1/2: [12.7, 12.7], counter-5/8: [15.875, 15.875]}")
        text = text.replace('front: "{deck}.pdf"\n    back: "{deck}.pdf"', EXTENDED["drivethrucards"])
        (root / "templates").mkdir()
        (root / "templates" / "print-shops.yaml").write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def bled(tmp_path_factory):
    """counters-bleed.pdf of each counters fixture's editions, with the build's diagnostics."""
    built, roots = {}, {}
    for game, lang in EDITIONS:
        root = roots.setdefault(game, _project(tmp_path_factory, game))
        result = run_job(Job(root, game, lang, "counters", bleed=True, images=False))
        assert result.error is None, result.error
        built[(game, lang)] = (next(p for p in result.files if p.name == "counters-bleed.pdf"), result.diagnostics)
    return built


@pytest.mark.parametrize("edition", EDITIONS, ids="-".join)
def test_counter_bleed_pdf_passes_the_preflight(bled, edition):
    """The build preflights the file (E048) and checks its layout (E040, W040 for text in a
    counter's safe margin): nothing found; read again here, page boxes, bleed strips, fonts
    and pictures pass; one page per counter face."""
    path, diagnostics = bled[edition]
    assert not [d for d in diagnostics if d.code.startswith("E") or d.code in ("W040", "W041", "W043")], diagnostics
    assert page_boxes(path, 3) == [] and bleed_strips(path, 3) == [] and subset_names(path) == []
    assert raster_dpi(path) == []
    with pikepdf.Pdf.open(path) as pdf:
        if EDITIONS[edition]:
            assert len(pdf.pages) == 2 * EDITIONS[edition]
        trims = {tuple(round((float(b[i + 2]) - float(b[i])) / MM, 1) for i in (0, 1))
                 for b in (page.obj.TrimBox for page in pdf.pages)}
    assert trims <= {(12.7, 12.7), (15.9, 15.9)}  # half an inch, 5/8 in


def test_the_bleed_of_every_counter_face_is_painted(bled):
    """1.5 mm outside the cut on each side of every face: not paper white, and the colour the
    face has just inside its cut; no crop mark there."""
    path, _ = bled[("river-line", "en")]
    document, dpi = pdfium.PdfDocument(str(path)), 150
    with pikepdf.Pdf.open(path) as pdf:
        boxes = [([float(v) for v in p.mediabox], [float(v) for v in p.obj.TrimBox]) for p in pdf.pages]
    for number, (media, trim) in enumerate(boxes):
        image = document[number].render(scale=dpi / 72).to_pil().convert("RGB")

        def at(x_pt: float, y_pt: float):
            return image.getpixel((int((x_pt - media[0]) * dpi / 72), int((media[3] - y_pt) * dpi / 72)))

        middle_x, middle_y, out, inside = (trim[0] + trim[2]) / 2, (trim[1] + trim[3]) / 2, 1.5 * MM, 0.4 * MM
        for bleed, edge in [((trim[0] - out, middle_y + 2 * MM), (trim[0] + inside, middle_y + 2 * MM)),
                            ((trim[2] + out, middle_y + 2 * MM), (trim[2] - inside, middle_y + 2 * MM)),
                            ((middle_x, trim[3] + out), (middle_x, trim[3] - inside)),
                            ((middle_x, trim[1] - out), (middle_x, trim[1] + inside))]:
            colour = at(*bleed)
            assert min(colour) < 250, f"white bleed on page {number + 1}"
            assert all(abs(a - b) <= 12 for a, b in zip(colour, at(*edge))), (number + 1, colour, at(*edge))
    document.close()


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")
def test_no_counter_text_within_the_safe_margin(bled):
    pages, near = _words_near_a_trim(bled[("river-line", "en")][0], margin=1.0)
    assert pages == 88 and near == []


def test_crop_marks_sit_outside_the_bleed(bled):
    """The marks are drawn (ink outside the bleed box, on the cut lines' continuation), and
    none inside the bleed (its strips are the face's colour: see above)."""
    path, _ = bled[("river-line", "en")]
    document, dpi = pdfium.PdfDocument(str(path)), 300
    with pikepdf.Pdf.open(path) as pdf:
        media, trim, box = ([float(v) for v in pdf.pages[0].obj[k]] for k in ("/MediaBox", "/TrimBox", "/BleedBox"))
    image = document[0].render(scale=dpi / 72).to_pil().convert("L")
    x = int((trim[0] - media[0]) * dpi / 72)  # the left cut line, above the bleed box
    above = range(1, int((media[3] - box[3]) * dpi / 72) - 1)
    assert min(image.getpixel((x, y)) for y in above) < 100
    document.close()


def test_safe_margin_of_a_counter_is_its_own_and_reported_at_its_record(tmp_path):
    """Text 0.1 mm from a counter's cut: W040 at the counter's record (1 mm, print.yaml's
    counter_safe_mm); 1.2 mm: nothing, though a card would keep 3.2 mm."""
    from generator.print.fonts import font_face_css
    from generator.print.pdf import render_document
    from generator.print.verify import LayoutRules, verify_layout

    def found(inset: float) -> list:
        html = (f"<div data-card data-counter='0' data-src='data/counters.yaml:5' style='position: relative; "
                f"width: 15.875mm; height: 15.875mm; border: 3mm solid transparent'><p style='position: absolute; "
                f"top: {inset}mm; left: 4mm; margin: 0; font-size: 6pt; line-height: 1'>Turn</p></div>")
        document, _ = render_document(f"<html><head><style>{font_face_css()} body {{ margin: 0; font-family: "
                                      f"'PT Sans' }}</style></head><body>{html}</body></html>", tmp_path, [tmp_path])
        return [(d.code, d.location.line, "counter's safe area (1 mm" in d.message)
                for d in verify_layout(document, tmp_path, LayoutRules.load([REPO / "templates"]))]

    assert found(0.1) == [("W040", 5, True)]
    assert found(1.2) == []


def test_the_bleed_pages_tell_the_layout_check_each_counters_record(tmp_path):
    from generator.print.context import BuildContext
    from generator.print.counterbleed import bleed_html, counter_faces
    from generator.print.counters import pieces
    from generator.core.diagnostics import Report
    from generator.project import Project

    root = tmp_path
    (root / "content").mkdir()
    (root / "content" / "bridgehead").symlink_to(REPO / "tests/fixtures/bridgehead")
    ctx = BuildContext(Project(root).load("bridgehead", Report()), "en", root)
    html = bleed_html(ctx, counter_faces(pieces(ctx)), 3)
    assert 'data-card data-src="data/counters.yaml:4"' in html and "--safe:1mm" in html


# -- print-on-demand counter products ------------------------------------------------------

@pytest.fixture(scope="module")
def shops(tmp_path_factory):
    """river-line's counters for each shipped preset, and for two presets extended by the
    project (The Game Crafter's chits in its sizes, DriveThruCards with a PDF product)."""
    shipped = _project(tmp_path_factory, "river-line")
    extended = _project(tmp_path_factory, "river-line", extended=True)
    built = {}
    for root, presets in ((shipped, ("thegamecrafter", "makeplayingcards")),
                          (extended, ("thegamecrafter", "drivethrucards"))):
        for preset in presets:
            result = run_job(Job(root, "river-line", "en", "counters", print_shops=(preset,), images=False))
            assert result.error is None, result.error
            built[(root == extended, preset)] = (root / "output/river-line/en/print-shop" / f"{preset}-counters",
                                                 result)
    return built


def test_a_png_counter_product_gets_one_image_per_face_at_trim_and_bleed(shops):
    from PIL import Image

    folder, result = shops[(True, "thegamecrafter")]
    assert not [d for d in result.diagnostics if d.code.startswith("E") or d.code == "W048"], result.diagnostics
    units = sorted(p.name for p in (folder / "units").iterdir())
    assert len(units) == 80 and units[:2] == ["001-n01.png", "002-n02.png"] and "back-001-n01.png" in units
    assert sorted(p.name for p in (folder / "markers").iterdir())[:2] == ["001-turn.png", "002-control-north.png"]
    with Image.open(folder / "units" / "back-001-n01.png") as image:
        assert image.size == (225, 225) and round(image.info["dpi"][0]) == 300  # (1/2 + 2 × 1/8) in at 300 dpi
    for path in [folder / "units" / "001-n01.png", folder / "markers" / "back-004-disrupted.png"]:
        size = (12.7, 12.7) if path.parent.name == "units" else (15.875, 15.875)
        assert png_face(path, size, 3.175, 300) == []


def test_a_pdf_counter_product_gets_a_file_per_counter_sheet(shops):
    folder, result = shops[(True, "drivethrucards")]
    assert not [d for d in result.diagnostics if d.code.startswith("E") or d.code in ("W040", "W048")]
    assert sorted(p.name for p in folder.iterdir()) == ["markers.pdf", "units.pdf"]
    units = folder / "units.pdf"
    with pikepdf.Pdf.open(units) as pdf:
        assert len(pdf.pages) == 80
        media, bleed = [float(v) for v in pdf.pages[0].mediabox], [float(v) for v in pdf.pages[0].obj.BleedBox]
    assert media == pytest.approx(bleed)  # no marks: the paper is the bleed
    assert page_boxes(units, 3.175) == [] and bleed_strips(units, 3.175) == [] and subset_names(units) == []


def test_a_printer_without_the_counters_product_or_size_is_told(shops):
    """The shipped presets: The Game Crafter has chits, none half an inch or 5/8 in;
    MakePlayingCards has no counter product. A W048 per counter sheet, at its first counter."""
    for preset, says in (("thegamecrafter", "takes no counters of size counter-1/2"),
                         ("makeplayingcards", "has no product for counters")):
        folder, result = shops[(False, preset)]
        warned = [d for d in result.diagnostics if d.code == "W048"]
        assert len(warned) == 2 and says in warned[0].message, warned
        assert [(d.location.path.name, d.location.line) for d in warned] == [("counters.yaml", 5),
                                                                              ("counters.yaml", 45)]
        assert not folder.exists() or not any(folder.rglob("*.png"))


def test_a_preset_edited_makes_its_counter_files_again(tmp_path_factory):
    """The counters' text is the same, the preset's bleed is not: the next build writes the
    printer's files again, with the new bleed."""
    from .conftest import run_cli

    root = _project(tmp_path_factory, "river-line", extended=True)
    build = ("--root", str(root), "build", "--only", "counters", "--lang", "en", "--no-images", "--jobs", "1",
             "--print-shop", "drivethrucards")
    assert run_cli(*build).returncode == 0
    presets = root / "templates" / "print-shops.yaml"
    presets.write_text(presets.read_text(encoding="utf-8").replace(
        "counter-5/8: [15.875, 15.875]}\n      bleed: 3.175", "counter-5/8: [15.875, 15.875]}\n      bleed: 2"),
        encoding="utf-8")
    result = run_cli(*build)
    assert result.returncode == 0, result.stderr
    units = root / "output/river-line/en/print-shop/drivethrucards-counters/units.pdf"
    with pikepdf.Pdf.open(units) as pdf:
        trim, bleed = [float(v) for v in pdf.pages[0].obj.TrimBox], [float(v) for v in pdf.pages[0].obj.BleedBox]
    assert round((trim[0] - bleed[0]) / MM, 2) == 2


def test_a_counter_product_names_its_files_with_fields_it_has():
    from pydantic import ValidationError

    from generator.model.printing import CounterProduct

    good = {"sizes": {"counter-1": [25.4, 25.4]}, "bleed": 3, "format": "png",
            "front": "{sheet}/{n}.png", "back": "{sheet}/back-{n}.png"}
    assert CounterProduct(**good).front == "{sheet}/{n}.png"
    for bad, says in [({"front": "{deck}/{n}.png"}, "names a field there is not"),
                      ({"back": "{sheet}/{n}.png"}, "name fronts and backs apart"),
                      ({"front": "../{n}.png"}, "leaves the preset's folder")]:
        with pytest.raises(ValidationError, match=says):
            CounterProduct(**{**good, **bad})
