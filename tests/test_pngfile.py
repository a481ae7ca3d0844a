"""The build's PNG files (print/pngfile.py): the pixels given, every row unfiltered, smaller
than Pillow's adaptively filtered file on a card rendered from a real game; and the build's
card, counter and TTS images are written that way."""

from __future__ import annotations

import io
import zlib

import pypdfium2 as pdfium
import pytest
from PIL import Image

from generator.core.diagnostics import Report
from generator.print import pngfile
from generator.print.context import BuildContext
from generator.print.images import DPI, _faces_pdf
from generator.print.cards import card_sheets
from generator.project import Project

from .conftest import Workspace


def _rows_filters(data: bytes) -> set[int]:
    """The filter type byte of every row of an 8-bit RGB PNG's image data."""
    stream = io.BytesIO(data)
    stream.read(8)
    idat, width, height = b"", 0, 0
    while True:
        length = int.from_bytes(stream.read(4), "big")
        kind, body = stream.read(4), stream.read(length)
        stream.read(4)
        if kind == b"IHDR":
            width, height = int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big")
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = 1 + width * 3
    assert len(raw) == stride * height
    return {raw[row * stride] for row in range(height)}


def _card(tmp_path) -> Image.Image:
    """The demo game's first card face rendered at the build's resolution."""
    ws = Workspace(tmp_path)
    game = Project(ws.root).load("demo", Report(), checks=False)
    ctx = BuildContext(game, "en", ws.root)
    faces, *_ = card_sheets(ctx, Report())
    pdf = _faces_pdf(ctx, faces[:1])
    image = pdf[0].render(scale=DPI / 72).to_pil().convert("RGB")
    pdf.close()
    return image


def test_a_card_is_written_with_its_pixels_unfiltered_and_smaller_than_pillows(tmp_path):
    card = _card(tmp_path)
    ours = pngfile.encoded(card)
    with Image.open(io.BytesIO(ours)) as back:
        assert back.mode == "RGB" and back.size == card.size
        assert back.tobytes() == card.tobytes()
    assert _rows_filters(ours) == {0}
    pillows = io.BytesIO()
    card.save(pillows, format="PNG", compress_level=pngfile.LEVEL)
    assert len(ours) < len(pillows.getvalue())


def test_a_page_is_written_from_pdfiums_buffer_as_from_its_image(tmp_path):
    """A page rendered with its bytes turned to RGB and written from pdfium's own buffer gives
    the very bytes its Pillow image gives; a bitmap of pdfium's BGR order is refused, not
    written with its colours swapped."""
    ws = Workspace(tmp_path)
    game = Project(ws.root).load("demo", Report(), checks=False)
    ctx = BuildContext(game, "en", ws.root)
    faces, *_ = card_sheets(ctx, Report())
    pdf = _faces_pdf(ctx, faces[:2], backs=False)
    try:
        for page in (pdf[0], pdf[1]):
            image = page.render(scale=DPI / 72).to_pil().convert("RGB")
            bitmap = page.render(scale=DPI / 72, rev_byteorder=True)
            assert pngfile.rendered(bitmap) == pngfile.encoded(image)
        with pytest.raises(ValueError, match="RGB pixels"):
            pngfile.rendered(pdf[0].render(scale=1))
    finally:
        pdf.close()


def test_rows_are_read_a_stride_apart():
    """Rows padded past their pixels (as pdfium pads a bitmap's rows to four bytes) are read
    a stride apart, the padding left out."""
    width, height, stride = 3, 2, 12
    pixels = bytes(range(9)) + b"\xee\xee\xee" + bytes(range(100, 109)) + b"\xee\xee\xee"
    with Image.open(io.BytesIO(pngfile.packed(pixels, width, height, stride))) as back:
        assert back.tobytes() == bytes(range(9)) + bytes(range(100, 109))


def test_other_modes_are_written_as_rgb(tmp_path):
    grey = Image.linear_gradient("L").resize((37, 11))
    with Image.open(io.BytesIO(pngfile.encoded(grey))) as back:
        assert back.mode == "RGB" and back.tobytes() == grey.convert("RGB").tobytes()


def test_the_builds_images_are_written_unfiltered(tmp_path):
    ws = Workspace(tmp_path)
    result = ws.run("build", "--game", "demo", "--only", "cards,counters")
    assert result.returncode == 0, result.stderr
    pngs = sorted((ws.root / "output" / "demo" / "en").rglob("*.png"))
    assert any(p.parent.name == "cards" for p in pngs) and any(p.parent.name == "tts" for p in pngs)
    for path in pngs:
        assert _rows_filters(path.read_bytes()) == {0}, path
