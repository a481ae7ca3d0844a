"""Card images rasterized from the fitting's layout (print/facepages.py): a clean build lays
each card face out once for both its text size and its image; the image is within two levels
of 255 of the face laid out on a page of its own size, the same size in pixels; a face whose
text size came from fit.json (nothing laid out) is laid out for its image as before."""

from __future__ import annotations

from dataclasses import replace

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from generator.core.diagnostics import Report
from generator.print import fitting, images
from generator.print.cards import card_sheets
from generator.print.context import BuildContext
from generator.print.facepages import FacePages, face_key, raster
from generator.print.images import DPI, faces_html
from generator.print.jobs import Job, run_job
from generator.print.pdf import render_document
from generator.project import Project

from .conftest import Workspace

# long enough to be shrunk by the fitting, short enough to fit at a smaller size: its image
# comes from a later round's page than the first
SHRUNK = "Each model of the unit moves up to its Move and may then shoot at the nearest enemy. " * 12


@pytest.fixture
def demo(tmp_path) -> Workspace:
    """The demo game, nothing built: one of its cards long enough to be shrunk."""
    ws = Workspace(tmp_path)
    ws.edit("data/cards.yaml", "text: One unit moves and then attacks.", f"text: {SHRUNK}")
    return ws


def _difference(ours: Image.Image, theirs: Image.Image) -> tuple[int, float]:
    """(the largest difference of a channel in levels of 255, the share of pixels that differ
    at all) of two images of the same size."""
    diff = ImageChops.difference(ours.convert("RGB"), theirs.convert("RGB"))
    largest = max(high for _low, high in diff.getextrema())
    r, g, b = (band.point(lambda v: 255 if v else 0) for band in diff.split())
    differing = ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()[255]
    return largest, differing / (diff.width * diff.height)


def _context(ws: Workspace) -> BuildContext:
    """The demo game's English edition, as a build makes it."""
    project = Project(ws.root)
    return BuildContext(project.load("demo", Report(), checks=False), "en", project.root)


def _fronts_match_their_own_pages(ws: Workspace) -> list:
    """Every front of the demo game's sheets, each checked: its image from the fitting's taller
    page has the size in pixels of the face on a page of its own and pixels within two levels
    on fewer than 1% of them. The faces, fitted."""
    ctx = _context(ws)
    ctx.face_pages = FacePages()
    try:
        faces, *_ = card_sheets(ctx, Report())
        alone = [replace(face, index=0) for face in faces]
        own, _ = render_document(faces_html(ctx, [replace(f, index=n) for n, f in enumerate(faces)]),
                                 ctx.game.folder, ctx.roots)
        pdf = pdfium.PdfDocument(own.write_pdf())
        for n, face in enumerate(faces):
            page = ctx.face_pages.page(face_key(faces_html(ctx, [alone[n]])))
            assert page is not None, f"{face.id} was not kept from the fitting"
            assert page.get_size()[1] > pdf[n].get_size()[1] * 2, "not the fitting's taller page"
            ours, theirs = raster(page, DPI / 72, face.mm[1]).to_pil(), pdf[n].render(scale=DPI / 72).to_pil()
            assert ours.size == theirs.size, face.id
            largest, share = _difference(ours, theirs)
            assert largest <= 2 and share < 0.01, (face.id, largest, share)
        pdf.close()
        return faces
    finally:
        ctx.face_pages.close()


def test_every_front_is_rasterized_from_the_fitting_and_matches_its_own_page(demo):
    """A shrunk face from the round that fitted it."""
    faces = _fronts_match_their_own_pages(demo)
    base, _low = fitting._text_sizes(_context(demo))
    assert any(face.font_pt < base for face in faces), "no face was shrunk"


# Polish and Russian with their diacritics and hyphenation, not the demo's English
OTHER_SCRIPTS = ("Zażółć gęślą jaźń: każdy oddział rusza się o swój Ruch, potem strzela. "
                 "Отряд продвигается и атакует ближайшего противника. ") * 5


@pytest.mark.parametrize("size", ["mini", "tarot", "2.5x3.5in", "88x63mm", "61.3x91.7mm"])
def test_cards_of_other_shapes_and_scripts_match_their_own_pages(tmp_path, size):
    """Cards of other sizes (a landscape one, one of fractional millimetres, the pixel rounding
    of each different) and text in other scripts: every front still within two levels."""
    ws = Workspace(tmp_path)
    ws.edit("data/decks.yaml", "size: poker", f"size: {size}")
    ws.edit("data/cards.yaml", "text: One unit moves and then attacks.", f"text: {OTHER_SCRIPTS}")
    _fronts_match_their_own_pages(ws)


def test_a_clean_build_lays_no_front_out_again_for_its_image(demo, monkeypatch):
    """Only the decks' backs are laid out for the images of a clean build; with fit.json kept
    and the images gone, the fronts are laid out for them as before, and come out the same."""
    laid = []
    real = images._faces_pdf
    monkeypatch.setattr(images, "_faces_pdf", lambda ctx, faces, backs=False: laid.append((len(faces), backs))
                        or real(ctx, faces, backs))
    result = run_job(Job(demo.root, "demo", "en", "cards"))
    assert result.error is None, result.error
    assert laid and all(backs for _count, backs in laid), laid
    pngs = sorted((demo.root / "output/demo/en/cards").glob("*.png"))
    assert pngs
    first = {p.name: Image.open(p).convert("RGB") for p in pngs}
    for path in pngs:
        path.unlink()
    laid.clear()
    result = run_job(Job(demo.root, "demo", "en", "cards"))  # sizes from fit.json: nothing fitted
    assert result.error is None, result.error
    fronts = sum(count for count, backs in laid if not backs)
    assert fronts == len(pngs), laid
    for path in pngs:
        again = Image.open(path)
        assert again.size == first[path.name].size and _difference(again, first[path.name])[0] <= 2, path.name


def test_a_sheets_cells_are_drawn_at_their_size_and_show_their_cards(demo):
    """A Tabletop Simulator sheet's cell is the card drawn at the cell's size, from the
    fitting's taller page (the shrunk card among them): each shows what the card's PNG shrunk
    to the cell shows, within three levels on average once both are blurred a little (the edges
    of letters are smoothed at the cell's size rather than the PNG's: unblurred, seven levels
    on the long card), in the card's proportions; drawn 2 px off, the long card is 5 levels off."""
    from PIL import ImageFilter, ImageStat

    def blurred(image: Image.Image) -> Image.Image:
        return image.filter(ImageFilter.GaussianBlur(1.5))

    result = run_job(Job(demo.root, "demo", "en", "cards"))
    assert result.error is None, result.error
    out = demo.root / "output/demo/en"
    faces = json_cards(out)
    sheet = Image.open(out / "tts" / "orders-1.png").convert("RGB")
    width, height = images.cell_size(Image.open(out / "cards" / f"orders-{faces[0]}.png").size)
    assert sheet.size == (min(len(faces), images.TTS_COLS) * width, -(-len(faces) // images.TTS_COLS) * height)
    for n, card in enumerate(faces):
        row, col = divmod(n, images.TTS_COLS)
        cell = sheet.crop((col * width, row * height, (col + 1) * width, (row + 1) * height))
        shrunk = Image.open(out / "cards" / f"orders-{card}.png").convert("RGB").resize(cell.size, Image.LANCZOS)
        mean = sum(ImageStat.Stat(ImageChops.difference(blurred(cell), blurred(shrunk))).mean) / 3
        assert mean < 3, (card, mean)


def json_cards(out) -> list[str]:
    """The ids of the orders deck's cards in the order its sheet shows them (images.json)."""
    import json

    kept = json.loads((out.parents[1] / ".rulesmith" / "images.json").read_text(encoding="utf-8"))
    cells = kept["output/demo/en/tts/orders-1.png#cells"]
    by_state = {state: key.rsplit("/", 1)[1].removeprefix("orders-").removesuffix(".png")
                for key, state in kept.items() if "/cards/orders-" in key}
    return [by_state[state] for state in cells]
