"""The site's font pieces shipped cut ahead (generator/site/fontpieces/, tools/webfonts.py): one
for every piece of the faces installed, each what cutting its face gives, taken by a first
build instead of cutting; a face of other bytes (another release of its font package) is cut
as before. Cutting and keeping themselves: tests/test_site.py."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from generator.site import webfonts


def test_every_piece_of_the_installed_faces_is_shipped_and_nothing_else():
    shipped = {path.name for path in webfonts.SHIPPED.glob("*")}
    wanted = {webfonts._name(piece) for piece in webfonts.pieces()}
    assert shipped == wanted, ("the shipped pieces are not those of the installed faces: run "
                               f"python tools/webfonts.py (missing {sorted(wanted - shipped)[:3]}, "
                               f"stale {sorted(shipped - wanted)[:3]})")


def _substance(data: bytes) -> tuple:
    """What a piece draws: its characters, glyphs, tables and layout features."""
    font = TTFont(BytesIO(data))
    features = sorted({record.FeatureTag for table in ("GSUB", "GPOS") if table in font
                       for record in font[table].table.FeatureList.FeatureRecord})
    return (font.flavor, dict(font.getBestCmap()), font.getGlyphOrder(), sorted(font.keys()), features,
            font["head"].modified)


@pytest.mark.parametrize("script", ["latin", "cyrillic", "other"])
def test_each_shipped_piece_is_what_cutting_its_face_gives(script: str):
    for piece in (p for p in webfonts.pieces() if p.script == script):
        ahead = webfonts._shipped(piece).read_bytes()
        cut = webfonts._cut(*webfonts._key(piece))
        assert _substance(ahead) == _substance(cut), piece.name
        assert set(_substance(ahead)[1]) == set(webfonts._key(piece)[1])  # exactly the piece's characters


def test_a_first_build_takes_the_shipped_pieces_and_cuts_nothing(tmp_path: Path, monkeypatch):
    def no_cutting(*_args):
        raise AssertionError("a shipped piece was cut")

    monkeypatch.setattr(webfonts, "_CUT", {})
    monkeypatch.setattr(webfonts, "_cut", no_cutting)
    ahead = webfonts.FontsAhead(tmp_path / "output")
    assert ahead.child is None  # every piece at hand: no child started
    kept = webfonts.keep_pieces(tmp_path / "output")
    assert [path.read_bytes() for path in kept] == \
        [webfonts._shipped(piece).read_bytes() for piece in webfonts.pieces()]
    site = tmp_path / "site"
    written = webfonts.write_fonts(tmp_path / "output", site)
    assert {path.name for path in written} == {piece.name for piece in webfonts.pieces()}


def test_a_face_of_other_bytes_than_the_shipped_pieces_is_cut(tmp_path: Path, monkeypatch):
    """Another release of a font package: its face hashes to another name, no shipped piece
    has it, and the piece is cut from the face installed, in a child beside the checks."""
    cuts = []
    monkeypatch.setattr(webfonts, "_CUT", {})
    monkeypatch.setattr(webfonts, "_hash", lambda path: "0123456789")
    monkeypatch.setattr(webfonts, "_cut", lambda path, codes: (cuts.append(path), b"cut now")[1])
    piece = webfonts.pieces()[0]
    assert webfonts._ahead(piece) is None and not webfonts._at_hand(piece)
    assert webfonts.cut(piece) == b"cut now" and cuts == [webfonts._face(piece)]
