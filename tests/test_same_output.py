"""tools/same_output.py, which tells whether two builds give a reader the same thing: a PNG is
the same when its pixels are within two levels of 255, however it is compressed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from PIL import Image

REPO = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("same_output", REPO / "tools" / "same_output.py")
same_output = importlib.util.module_from_spec(spec)
spec.loader.exec_module(same_output)


def _png(path: Path, level: int, size=(40, 30), compress: int = 6) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    image = Image.new("RGB", size, (200, 180, 160))
    image.putpixel((3, 4), (200 + level, 180, 160))
    image.save(path, format="PNG", compress_level=compress)


def test_pngs_compared_by_their_pixels(tmp_path):
    before, after = tmp_path / "before", tmp_path / "after"
    _png(before / "g/en/cards/a.png", 0)
    _png(after / "g/en/cards/a.png", 0, compress=1)  # other bytes, the same pixels
    _png(before / "g/en/cards/b.png", 0)
    _png(after / "g/en/cards/b.png", 2)  # within the tolerance
    _png(before / "g/en/cards/c.png", 0)
    _png(after / "g/en/cards/c.png", 3)  # beyond it
    _png(before / "g/en/cards/d.png", 0)
    _png(after / "g/en/cards/d.png", 0, size=(40, 31))
    assert same_output.differences(before, after) == ["pixels differ: g/en/cards/c.png (by 3 levels)",
                                                      "pixels differ: g/en/cards/d.png (another size)"]
