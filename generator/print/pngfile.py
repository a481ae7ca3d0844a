"""The build's PNG files (card and counter images, Tabletop Simulator sheets, maps), written
by pypng with every row unfiltered (the callers write the bytes with outputs.write_bytes or
write_if_changed).

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
    pixels = memoryview(rgb.tobytes())
    stride = width * 3
    buffer = io.BytesIO()
    writer = png.Writer(width, height, greyscale=False, bitdepth=8, compression=LEVEL)
    writer.write_packed(buffer, (pixels[top:top + stride] for top in range(0, height * stride, stride)))
    return buffer.getvalue()
