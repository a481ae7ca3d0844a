"""OFL fonts with Cyrillic, shipped as Python packages, so output never depends on the
machine's system fonts."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import fontpkg_pt_sans
import fontpkg_pt_serif

# family name -> (package root, file prefix)
FAMILIES = {
    "PT Sans": (Path(fontpkg_pt_sans.__file__).parent / "files", "PT_Sans-Web"),
    "PT Serif": (Path(fontpkg_pt_serif.__file__).parent / "files", "PT_Serif-Web"),
}
STYLES = {("normal", "normal"): "Regular", ("bold", "normal"): "Bold",
          ("normal", "italic"): "Italic", ("bold", "italic"): "BoldItalic"}


def font_dirs() -> list[Path]:
    return [folder for folder, _ in FAMILIES.values()]


@lru_cache(maxsize=1)
def font_face_css() -> str:
    rules = []
    for family, (folder, prefix) in FAMILIES.items():
        for (weight, style), suffix in STYLES.items():
            path = folder / f"{prefix}-{suffix}.ttf"
            rules.append(
                f'@font-face {{ font-family: "{family}"; font-weight: {weight}; font-style: {style}; '
                f'src: url("{path.as_uri()}"); }}'
            )
    return "\n".join(rules)


def shipped_font_files() -> list[Path]:
    """Every font file Rulesmith ships: glyphs from any other file are a fallback."""
    return [folder / f"{prefix}-{suffix}.ttf" for folder, prefix in FAMILIES.values() for suffix in STYLES.values()]


# Characters the shipped fonts lack, drawn instead as small inline pictures (or a character
# they have), so no glyph ever comes from the build machine's fonts.
_STROKE = ('<svg class="glyph" viewBox="0 0 10 10" width="0.85em" height="0.85em" role="img" aria-label="{label}" '
           'style="vertical-align: -0.05em"><path d="{path}" fill="none" stroke="currentColor" stroke-width="1.1" '
           'stroke-linecap="round" stroke-linejoin="round"/></svg>')
GLYPHS = {
    "\u2192": _STROKE.format(label="→", path="M1 5H8.5M5.5 2 8.5 5 5.5 8"),
    "\u2713": _STROKE.format(label="✓", path="M1.5 5.5 4 8 8.5 2"),
    "\u2010": "-",
    "\u25e6": "–",
}
_TEXT = re.compile(r">([^<]+)<")
_MISSING = re.compile("[" + "".join(GLYPHS) + "]")


def with_shipped_glyphs(html: str) -> str:
    """HTML whose text uses only characters the shipped fonts have (see GLYPHS)."""
    if not _MISSING.search(html):
        return html
    return _TEXT.sub(lambda m: ">" + _MISSING.sub(lambda c: GLYPHS[c.group(0)], m.group(1)) + "<", html)


@lru_cache(maxsize=8)
def _advances(bold: bool) -> tuple[dict[int, int], int]:
    from fontTools.ttLib import TTFont

    folder, prefix = FAMILIES["PT Sans"]
    font = TTFont(folder / f"{prefix}-{'Bold' if bold else 'Regular'}.ttf")
    widths = font["hmtx"].metrics
    return {code: widths[name][0] for code, name in font.getBestCmap().items()}, font["head"].unitsPerEm


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width of `text` set in PT Sans at `size` (in the same unit as size), from the font's
    own advance widths: what SVG text on a card back will take."""
    advances, em = _advances(bold)
    return sum(advances.get(ord(c), em // 2) for c in text) * size / em


def fit_text(text: str, size: float, width: float, bold: bool = False, smallest: float = 0.0) -> dict:
    """Lines and size for `text` to fit `width`: one line, shrunk if needed; when that would
    go below `smallest`, two lines broken at the space nearest the middle."""
    one = min(size, size * width / max(text_width(text, size, bold), 1e-6))
    if one >= smallest or " " not in text:
        return {"lines": [text], "size": _down(one)}
    spaces = [i for i, c in enumerate(text) if c == " "]
    cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
    lines = [text[:cut], text[cut + 1:]]
    two = min(size, *(size * width / max(text_width(line, size, bold), 1e-6) for line in lines))
    return {"lines": lines, "size": _down(two)}


def _down(size: float) -> float:
    return int(size * 100) / 100
