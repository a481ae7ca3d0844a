"""Whether two builds give a reader the same thing: run on the output/ of a build before a
change and of one after it (e.g. a change meant to make the build faster).

- every PDF's text, as pdftotext reads it (-layout), is the same in both, page for page;
- every PNG (card, counter and map images, Tabletop Simulator sheets) is the same size and its
  pixels the same within PIXELS levels of 255 in a channel, whatever its compression (the card
  images are rasterized from the fitting's taller pages: print/facepages.py);
- every other file of the site is byte for byte the same;
- the diagnostics the builds recorded (the layout checks' findings among them) are the same;
- no file is in one and not in the other (outside output/.rulesmith/, the build's own state).

Pagefind (the site's search index) writes its metadata and filters in another order on each
run, under names hashed from that order, even from the same pages: those files are compared
by name without the hash and by their bytes in any order, except the metadata, which names
those hashes (the pages' fragments and the index itself, byte for byte).

Run: python tools/same_output.py BEFORE/output AFTER/output
Exit 0 when they are the same, 1 (with what differs) when not.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

STATE = ".rulesmith"
PIXELS = 2


_UNORDERED = re.compile(r"(site/pagefind/(?:filter/)?(?:pagefind\.)?[a-z-]+)_[0-9a-f]+(\.pf_(?:meta|filter))$")


def files(root: Path) -> dict[str, Path]:
    """Each file by its name inside output/ (pagefind's order-hashed names without the hash)."""
    return {_UNORDERED.sub(r"\1_#\2", str(p.relative_to(root))): p for p in root.rglob("*")
            if p.is_file() and p.relative_to(root).parts[0] != STATE and ".chunks" not in p.parent.name}


def unordered(name: str, path: Path) -> bytes:
    """What a file of pagefind's holds, whatever order it was written in."""
    if name.endswith(".pf_meta"):
        return b""  # the hashes of the other files in the order of this run
    if name.endswith("pagefind-entry.json"):
        return re.sub(rb'"hash":"[^"]*"', b"", path.read_bytes())
    return bytes(sorted(gzip.decompress(path.read_bytes())))


def pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def png_difference(a: Path, b: Path) -> int | None:
    """The largest difference of a channel between two images in levels of 255 (None: not
    the same size)."""
    from PIL import Image, ImageChops

    with Image.open(a) as one, Image.open(b) as two:
        if one.size != two.size:
            return None
        diff = ImageChops.difference(one.convert("RGBA"), two.convert("RGBA"))
        return max(high for _low, high in diff.getextrema())


def diagnostics(root: Path) -> dict[str, list]:
    manifest = root / STATE / "manifest.json"
    if not manifest.is_file():
        return {}
    entries = json.loads(manifest.read_text(encoding="utf-8")).get("entries", {})
    return {key: sorted(json.dumps(d, sort_keys=True) for d in entry.get("diagnostics", []))
            for key, entry in entries.items() if entry.get("diagnostics")}


def differences(before: Path, after: Path) -> list[str]:
    out = []
    old, new = files(before), files(after)
    out += [f"only before: {name}" for name in sorted(set(old) - set(new))]
    out += [f"only after: {name}" for name in sorted(set(new) - set(old))]
    for name in sorted(set(old) & set(new)):
        a, b = old[name], new[name]
        if "_#." in name or name.endswith("pagefind-entry.json"):
            if unordered(name, a) != unordered(name, b):
                out.append(f"content differs: {name}")
        elif name.endswith(".pdf"):
            if pdf_text(a) != pdf_text(b):
                out.append(f"text differs: {name}")
        elif name.endswith(".png"):
            if a.read_bytes() != b.read_bytes() and ((level := png_difference(a, b)) is None or level > PIXELS):
                out.append(f"pixels differ: {name} ({'another size' if level is None else f'by {level} levels'})")
        elif a.read_bytes() != b.read_bytes():
            out.append(f"content differs: {name}")
    old_d, new_d = diagnostics(before), diagnostics(after)
    for key in sorted(set(old_d) | set(new_d)):
        if old_d.get(key, []) != new_d.get(key, []):
            out.append(f"diagnostics differ: {key}: {old_d.get(key, [])} -> {new_d.get(key, [])}")
    return out


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    found = differences(Path(sys.argv[1]), Path(sys.argv[2]))
    for line in found:
        print(line)
    pdfs = sum(1 for name in files(Path(sys.argv[2])) if name.endswith(".pdf"))
    pngs = sum(1 for name in files(Path(sys.argv[2])) if name.endswith(".png"))
    print(f"{'different' if found else 'the same'}: {pdfs} PDFs compared by their text, {pngs} PNGs by their pixels "
          f"(within {PIXELS} levels), the other files byte for byte")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
