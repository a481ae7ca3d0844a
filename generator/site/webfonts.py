"""The site's fonts: the shipped TrueType faces cut into WOFF2 pieces by script (Latin,
Cyrillic, and one for every other glyph the face has), each declared with its unicode-range,
so a browser fetches only the pieces a page's text uses: an English page the Latin piece, a
Russian page the Latin and the Cyrillic ones. Cutting takes a few seconds of CPU, so the pieces
are kept in output/.rulesmith/webfonts/ under a name made from the face's hash and the cut, and
cut again only when either changes; a process that builds several sites (`serve`, a test run)
cuts each piece once. Rulesmith ships the pieces of the faces it was released with, cut ahead
(fontpieces/, written by tools/webfonts.py), as mdBook ships its theme's fonts: a first build
takes them from there, and cuts only the pieces of a face whose bytes differ (another release
of the font package). A build cuts those beside its validation and checks (FontsAhead)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from io import BytesIO
from pathlib import Path

from ..system import folders
from .. import outputs
from ..outputs.layout import STATE
from ..print.fonts import FAMILIES, STYLES
from ..system.stamps import fixed as fixed_stamps

# Each piece's characters; "other" takes every glyph of the face that neither script has.
SCRIPTS = {
    # Western and Central European letters (en, de, fr, es, pl, ...), punctuation, signs
    "latin": "U+0000-017F,U+0192,U+02C6-02DD,U+2000-206F,U+20AC,U+20BD,U+2116,U+2122,U+2190-2195,U+2212,U+2248,"
             "U+2260-2265,U+FEFF,U+FFFD",
    # Russian, Ukrainian, Belarusian, Bulgarian, Serbian, Macedonian
    "cyrillic": "U+0400-045F,U+0490-0491",
}
CUT = "woff2-1"  # bump when the cut below changes: every kept piece is made again
SHIPPED = Path(__file__).parent / "fontpieces"  # the pieces cut ahead, named as output/ keeps them
FEATURES = ["kern", "liga", "calt", "ccmp", "locl", "mark", "mkmk", "lnum", "tnum"]
# Faces every page draws with (body text, the header and menu, headings): fetched before the
# first paint so the page is drawn once, in its own fonts.
PRELOAD = (("PT Serif", "Regular"), ("PT Sans", "Regular"), ("PT Sans", "Bold"))
FONTS = "fonts"  # under the site's assets/


@dataclass(frozen=True)
class Piece:
    family: str
    weight: str
    style: str
    suffix: str  # Regular, Bold, ...
    script: str  # latin, cyrillic, other
    name: str  # file name under assets/fonts/
    ranges: str  # the @font-face unicode-range


def _ranges(spec: str) -> list[tuple[int, int]]:
    out = []
    for part in spec.split(","):
        low, _, high = part.removeprefix("U+").partition("-")
        out.append((int(low, 16), int(high or low, 16)))
    return out


def _in(code: int, ranges: list[tuple[int, int]]) -> bool:
    return any(low <= code <= high for low, high in ranges)


def _spans(codes: list[int]) -> str:
    """unicode-range text for `codes` (sorted), runs joined."""
    runs: list[list[int]] = []
    for code in codes:
        if runs and code == runs[-1][1] + 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return ",".join(f"U+{a:X}" if a == b else f"U+{a:X}-{b:X}" for a, b in runs)


@lru_cache(maxsize=None)
def _split(path: Path) -> dict[str, tuple[int, ...]]:
    """The face's characters by piece."""
    from fontTools.ttLib import TTFont

    codes = sorted(TTFont(path, lazy=True).getBestCmap())
    scripts = {name: _ranges(spec) for name, spec in SCRIPTS.items()}
    out: dict[str, list[int]] = {name: [] for name in [*SCRIPTS, "other"]}
    for code in codes:
        out[next((name for name, ranges in scripts.items() if _in(code, ranges)), "other")].append(code)
    return {name: tuple(found) for name, found in out.items() if found}


@lru_cache(maxsize=None)
def _hash(path: Path) -> str:
    return hashlib.sha1(path.read_bytes() + CUT.encode()).hexdigest()[:10]


def pieces() -> list[Piece]:
    """Every piece of every shipped face, in a stable order."""
    return list(_pieces())


@lru_cache(maxsize=None)
def _pieces() -> tuple[Piece, ...]:
    """The pieces, worked out once per process (every page of the site names those it preloads;
    a face's characters are taken to stay the same while it runs, as `_split` takes them)."""
    out = []
    for family, (folder, prefix) in FAMILIES.items():
        for (weight, style), suffix in STYLES.items():
            path = folder / f"{prefix}-{suffix}.ttf"
            for script, codes in _split(path).items():
                out.append(Piece(family, weight, style, suffix, script, f"{prefix}-{suffix}.{script}.woff2",
                                 _spans(list(codes))))
    return tuple(out)


# Each piece's WOFF2 bytes once cut in this process (or handed over by the child that cut
# them: FontsAhead), by face and characters: a face's bytes are taken to stay the same while
# the process runs, as `_hash` takes them.
_CUT: dict[tuple[Path, tuple[int, ...]], bytes] = {}


def _cut(path: Path, codes: tuple[int, ...]) -> bytes:
    """The WOFF2 piece of the face at `path` holding `codes` (stamped with stamps.EPOCH: a
    piece cut again is the same bytes)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    fixed_stamps()

    options = subset.Options()
    options.flavor = "woff2"
    options.hinting = False  # screens at phone densities do not need it; a third of the bytes
    options.desubroutinize = True
    options.layout_features = FEATURES
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]  # the licence's copyright and the names; the rest is not drawn
    font = TTFont(path)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=codes)
    subsetter.subset(font)
    font.flavor = "woff2"  # (the options' flavor is only for fontTools' own command line)
    out = BytesIO()
    font.save(out)
    return out.getvalue()


def _face(piece: Piece) -> Path:
    folder, prefix = FAMILIES[piece.family]
    return folder / f"{prefix}-{piece.suffix}.ttf"


def _key(piece: Piece) -> tuple[Path, tuple[int, ...]]:
    source = _face(piece)
    return source, _split(source)[piece.script]


def cut(piece: Piece) -> bytes:
    """The piece's WOFF2 bytes: as shipped cut ahead, or cut from its face (once per process)."""
    key = _key(piece)
    if key not in _CUT:
        ahead = _ahead(piece)
        _CUT[key] = ahead if ahead is not None else _cut(*key)
    return _CUT[key]


def _name(piece: Piece) -> str:
    """The file name a piece is kept under: the face's hash and the cut, and the piece's script."""
    return f"{_hash(_face(piece))}-{piece.script}.woff2"


def _kept(output: Path, piece: Piece) -> Path:
    """Where the piece is kept: output/.rulesmith/webfonts/."""
    return output / STATE / "webfonts" / _name(piece)


def _shipped(piece: Piece) -> Path:
    """Where the piece is shipped cut ahead, when it was cut from a face of the same bytes
    (the name says so)."""
    return SHIPPED / _name(piece)


def _ahead(piece: Piece) -> bytes | None:
    """The piece as shipped cut ahead; None when not shipped for this face."""
    try:
        return _shipped(piece).read_bytes()
    except OSError:
        return None


def _at_hand(piece: Piece) -> bool:
    """Whether the piece needs no cutting: held by this process, or shipped cut ahead."""
    return _key(piece) in _CUT or _shipped(piece).is_file()


def keep_pieces(output: Path) -> list[Path]:
    """Cut every piece not kept yet, and keep it; where each is kept."""
    out = []
    for piece in pieces():
        cached = _kept(output, piece)
        if not cached.is_file():
            outputs.write_bytes(cached, cut(piece))
        out.append(cached)
    return out


def _kept_and_cut(output: Path) -> dict[tuple[Path, tuple[int, ...]], bytes]:
    """keep_pieces, in FontsAhead's child: the pieces' bytes, for its parent to hold as well."""
    keep_pieces(output)
    return dict(_CUT)


CUT_SECONDS = 600.0  # far more than cutting takes: past it the child is stopped and finish() cuts what is left


class FontsAhead:
    """The pieces not kept yet and not at hand (held by this process, or shipped cut ahead),
    cut in a child process of its own from the start of a build: the build's validation and
    checks leave a core idle much of the time, and the pieces wait for nothing. When every
    missing piece is at hand, they are kept at once, with no child; those a child cuts are
    handed back to this process (`serve` and a test run build many sites). `wait()` before
    the site is finished (its finish() cuts whatever the child did not keep); `stop()` when
    the build ends otherwise."""

    def __init__(self, output: Path):
        from ..checker.bounded import start_bounded

        self.output, self.child = output, None
        missing = [piece for piece in pieces() if not _kept(output, piece).is_file()]
        if all(_at_hand(piece) for piece in missing):
            keep_pieces(output)
        else:
            self.child = start_bounded(_kept_and_cut, output, seconds=CUT_SECONDS)

    def wait(self) -> None:
        """Wait for the child, and hold the pieces it cut; a piece it failed to keep is cut
        again by the site's finish()."""
        from ..checker.bounded import ChildFailed

        child, self.child = self.child, None
        if child is None:
            return
        try:
            outcome = child.wait()
        except ChildFailed:
            return
        if outcome.ok and isinstance(outcome.value, dict):
            _CUT.update(outcome.value)

    def stop(self) -> None:
        """End the child now, and remove the temporary file of a piece it was writing."""
        child, self.child = self.child, None
        if child is not None:
            child.stop()
            outputs.remove_stale_temps(self.output / STATE / "webfonts")


def write_fonts(output: Path, assets: Path) -> list[Path]:
    """Write every piece under assets/fonts/ (cut once, then copied from output/.rulesmith/webfonts/);
    their paths."""
    kept = output / STATE / "webfonts"
    written, cached_files = [], keep_pieces(output)
    for piece, cached in zip(pieces(), cached_files):
        target = assets / FONTS / piece.name
        outputs.write_if_changed(target, cached.read_bytes())
        written.append(target)
    for old in folders.files(kept):  # an earlier cut's pieces
        if old not in cached_files:
            old.unlink()
    return written


def font_face_css() -> str:
    """@font-face rules for every piece. `optional`: a face not there by the first paint is
    not swapped in later (the page never jumps); the faces every page uses are preloaded."""
    return "\n".join(
        f'@font-face {{ font-family: "{p.family}"; font-weight: {p.weight}; font-style: {p.style}; '
        f'font-display: optional; src: url("fonts/{p.name}") format("woff2"); unicode-range: {p.ranges}; }}'
        for p in pieces())


def preloads(lang_scripts: tuple[str, ...]) -> list[str]:
    """File names under assets/fonts/ to preload on a page whose text is in `lang_scripts`."""
    wanted = {(family, suffix) for family, suffix in PRELOAD}
    return [p.name for p in pieces() if (p.family, p.suffix) in wanted and p.script in lang_scripts]


CYRILLIC_LANGUAGES = {"ru", "uk", "be", "bg", "sr", "mk", "kk", "ky", "tg", "mn"}


def scripts_of(lang: str) -> tuple[str, ...]:
    """The pieces a page in `lang` draws its text from: digits and punctuation are Latin."""
    return ("latin", "cyrillic") if lang.split("-")[0] in CYRILLIC_LANGUAGES else ("latin",)


def font_files() -> list[str]:
    """Every piece's path under the site's assets/ (for the offline copy)."""
    return [f"{FONTS}/{p.name}" for p in pieces()]
