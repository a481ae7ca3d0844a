"""OFL fonts with Cyrillic, shipped as Python packages, so output never depends on the
machine's system fonts."""

from __future__ import annotations

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
