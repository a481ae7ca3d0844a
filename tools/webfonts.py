"""Cut the site's font pieces ahead, into generator/site/fontpieces/, from the faces installed
now (the font packages Rulesmith is released with): a first build then takes them from there
instead of cutting them (generator/site/webfonts.py). Run it after a font package or the cut
(webfonts.CUT, FEATURES, SCRIPTS) changes; tests/test_webfonts.py fails until it is run.

Run: python tools/webfonts.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.site import webfonts  # noqa: E402


def main() -> None:
    folder = webfonts.SHIPPED
    folder.mkdir(exist_ok=True)
    wanted = {webfonts._name(piece): piece for piece in webfonts.pieces()}
    for old in folder.glob("*.woff2"):
        if old.name not in wanted:
            old.unlink()
    for name, piece in wanted.items():
        (folder / name).write_bytes(webfonts._cut(*webfonts._key(piece)))
    total = sum((folder / name).stat().st_size for name in wanted)
    print(f"{len(wanted)} pieces, {total // 1024} KB, in {folder.relative_to(Path.cwd()) if folder.is_relative_to(Path.cwd()) else folder}")


if __name__ == "__main__":
    main()
