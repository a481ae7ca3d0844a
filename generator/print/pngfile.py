"""The build's PNG files (card and counter images, Tabletop Simulator sheets, maps), written
by pypng with every row unfiltered (the callers write the bytes with outputs.write_bytes or
write_if_changed). A page rasterized by pdfium is encoded from pdfium's buffer (`rendered`):
as a Pillow image its pixels were copied three times on the way (a third of the time a card's
image took).

Pillow's encoder tries four PNG filters on every row and keeps the one nearest zero (its
ZipEncode.c has no setting for that). On flat-coloured card art the trial costs more than the
compression it serves, and loses: a 300 dpi card written unfiltered is about 15% smaller, in
about half the time (bench figures in README.md). The pixels are the same either way."""

from __future__ import annotations

import io

import png
from PIL import Image

LEVEL = 3  # zlib's level: 6 writes files about 10% smaller in twice the time


def encoded(image: Image.Image) -> bytes:
    """`image` as the bytes of an 8-bit RGB PNG file."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    width, height = rgb.size
    return packed(rgb.tobytes(), width, height, width * 3)


def rendered(bitmap) -> bytes:
    """A pdfium bitmap of RGB pixels (rendered with `rev_byteorder`: pdfium's BGR, its bytes
    turned) as the bytes of an 8-bit RGB PNG file, read from pdfium's own buffer: no Pillow
    image is made and no copy of the pixels."""
    if bitmap.mode != "RGB":
        raise ValueError(f"a bitmap of RGB pixels is needed, not {bitmap.mode}")
    return packed(bitmap.buffer, bitmap.width, bitmap.height, bitmap.stride)


def packed(pixels, width: int, height: int, stride: int) -> bytes:
    """PNG bytes of `height` rows of `width` RGB pixels, each row `stride` bytes after the last."""
    rows = memoryview(pixels).cast("B")
    size = width * 3
    buffer = io.BytesIO()
    writer = png.Writer(width, height, greyscale=False, bitdepth=8, compression=LEVEL)
    writer.write_packed(buffer, (rows[top:top + size] for top in range(0, height * stride, stride)))
    return buffer.getvalue()
