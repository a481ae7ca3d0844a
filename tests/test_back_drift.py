"""Card backs survive a duplex drift: a back printed 2 mm off its front, in any direction, looks
the same, because nothing near its edges marks where the edge should be. Measured on the
rendered bleed file: the outer 6 mm band of each back compared with itself shifted by 2 mm."""

from __future__ import annotations

import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from generator.model.cards import BUILTIN_BACKS
from generator.print.jobs import Job, run_job
from generator.print.preflight import MM

from .conftest import Workspace

DPI = 100
BAND_MM = 6.0  # no frame or line within this of the trim
DRIFT_MM = 2.0  # what a home duplex printer may shift a back by
MOST = 5.0  # mean change of the band's pixels (of 255) under a drift that reads as the same back


@pytest.fixture(scope="module")
def backs(tmp_path_factory) -> dict[str, Image.Image]:
    """Each built-in back design rendered with its bleed: design → image of its bleed box."""
    ws = Workspace(tmp_path_factory.mktemp("backs"))
    ws.write("data/decks.yaml", "decks:\n" + "".join(
        f"  - id: deck-{design}\n    name: Deck of {design}\n    back: {design}\n    size: poker\n"
        for design in BUILTIN_BACKS))
    ws.write("data/cards.yaml", "cards:\n" + "".join(
        f"  - id: card-{design}\n    name: Card {design}\n    card_kind: order\n    deck: deck-{design}\n"
        f"    quantity: 1\n    text: A card.\n" for design in BUILTIN_BACKS))
    result = run_job(Job(ws.root, "demo", "en", "cards", bleed=True, images=False))
    assert result.error is None, result.error
    assert result.diagnostics == []  # the preflight finds each back's bleed painted as its edge
    path = next(f for f in result.files if f.name == "cards-bleed.pdf")
    document, scale = pdfium.PdfDocument(str(path)), DPI / 72
    with pikepdf.Pdf.open(path) as pdf:
        boxes = [([float(v) for v in p.mediabox], [float(v) for v in p.obj.BleedBox]) for p in pdf.pages]
    images = {}
    for number, design in zip(range(1, len(boxes), 2), BUILTIN_BACKS):  # in the decks' order
        media, bleed = boxes[number]
        image = document[number].render(scale=scale).to_pil().convert("RGB")
        images[design] = image.crop((round((bleed[0] - media[0]) * scale), round((media[3] - bleed[3]) * scale),
                                     round((bleed[2] - media[0]) * scale), round((media[3] - bleed[1]) * scale)))
    document.close()
    return images


def drift_change(image: Image.Image, bleed_mm: float = 3.0) -> float:
    """The most the outer band of the trimmed back changes, in mean pixel difference, when the
    back moves DRIFT_MM in any of the four directions."""
    px = DPI / 25.4
    bleed, band, drift = round(bleed_mm * px), round(BAND_MM * px), round(DRIFT_MM * px)
    trim = (bleed, bleed, image.width - bleed, image.height - bleed)
    mask = Image.new("L", image.size, 0)
    draw = ImageDraw.Draw(mask)
    draw.rectangle((trim[0], trim[1], trim[2] - 1, trim[3] - 1), fill=255)
    draw.rectangle((trim[0] + band, trim[1] + band, trim[2] - band - 1, trim[3] - band - 1), fill=0)
    worst = 0.0
    for dx, dy in ((drift, 0), (-drift, 0), (0, drift), (0, -drift)):
        moved = ImageChops.offset(image, dx, dy)
        change = ImageStat.Stat(ImageChops.difference(image, moved).convert("L"), mask).mean[0]
        worst = max(worst, change)
    return worst


@pytest.mark.parametrize("design", sorted(BUILTIN_BACKS))
def test_a_back_drifted_2_mm_looks_the_same_near_its_edges(backs, design):
    assert drift_change(backs[design]) < MOST


def test_a_frame_near_the_trim_is_a_change_the_measure_sees():
    """A flat back with a frame 3 mm inside its trim (the old designs) is seen; without it, not."""
    px = DPI / 25.4
    image = Image.new("RGB", (round(69 * px), round(94 * px)), (0x16, 0x32, 0x5C))
    assert drift_change(image) == 0
    ImageDraw.Draw(image).rectangle((round(6 * px), round(6 * px), round(63 * px), round(88 * px)),
                                    outline=(0xE8, 0xC5, 0x47), width=round(0.8 * px))
    assert drift_change(image) > MOST
