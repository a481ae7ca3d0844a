"""Benchmark how the card sheets build scales with the size of the deck.

Builds generated decks (default 100, 1,000 and 10,000 cards) in a temporary project, each
with `rulesmith build --only cards` in a child process as a designer runs it, and prints:
cards, wall time, CPU time, cards per second, the cost per card against the smallest deck,
and the peak memory (RSS) of the build process.

Targets: peak memory at most 400 MB at 10,000 cards; cost per card at 10,000 within 1.2x of
the cost at 100. The machine may be shared by other work: wall time then says more about the
neighbours than about the build, so the ratio is taken on CPU time (user + system of the
build process); both are printed.

Card PNGs and Tabletop Simulator sheets are left out by default (--no-images); pass --images
to count them too, or --images-only to measure them apart.

Run: python bench/scale.py [--cards 100,1000,10000] [--repeat N] [--images] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from incremental import rulesmith as build, synthetic_deck  # noqa: E402

def measure(cards: int, repeat: int, images: str, keep: Path | None) -> dict:
    walls, cpus, peaks = [], [], []
    pages = ""
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            synthetic_deck(root, cards)
            build(root, "validate")
            flags = {"none": ["--no-images"], "with": []}[images]
            wall, cpu, peak, out = build(root, "build", "--only", "cards", *flags, "--jobs", "1")
            walls.append(wall)
            cpus.append(cpu)
            peaks.append(peak)
            pages = next((line.split(":", 1)[1].strip() for line in out.splitlines() if "/cards:" in line), "")
            if keep is not None:
                import shutil

                shutil.copytree(root / "output", keep / f"deck-{cards}", dirs_exist_ok=True)
    return {"cards": cards, "wall": statistics.median(walls), "cpu": statistics.median(cpus),
            "peak": max(peaks), "pages": pages}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cards", default="100,1000,10000")
    parser.add_argument("--repeat", type=int, default=1, help="runs per deck size (the largest runs once)")
    parser.add_argument("--images", action="store_true", help="count card PNGs and TTS sheets too")
    parser.add_argument("--keep", type=Path, help="copy each build's output/ here")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.cards.split(","))
    images = "with" if args.images else "none"
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; card sheets "
          f"{'with' if args.images else 'without'} card images; median of {args.repeat}\n", flush=True)
    rows = []
    for size in sizes:
        row = measure(size, args.repeat if size < max(sizes) or len(sizes) == 1 else 1, images, args.keep)
        rows.append(row)
        print(f"  {size} cards done: {row['pages']}, {row['wall']:.1f} s wall, {row['cpu']:.1f} s CPU, "
              f"{row['peak']} MB", flush=True)
    base = rows[0]
    print(f"\n{'cards':>6} {'wall s':>8} {'CPU s':>8} {'cards/s':>8} {'ms/card':>8} {'vs ' + str(base['cards']):>8} "
          f"{'peak MB':>8}")
    for row in rows:
        ratio = (row["cpu"] / row["cards"]) / (base["cpu"] / base["cards"])
        print(f"{row['cards']:>6} {row['wall']:>8.1f} {row['cpu']:>8.1f} {row['cards'] / row['wall']:>8.1f} "
              f"{1000 * row['cpu'] / row['cards']:>8.1f} {ratio:>8.2f} {row['peak']:>8}")
    top = rows[-1]
    ratio = (top["cpu"] / top["cards"]) / (base["cpu"] / base["cards"])
    print(f"\ncost per card (CPU) at {top['cards']} / at {base['cards']}: {ratio:.2f} (target <= 1.20) "
          f"[{'met' if ratio <= 1.2 else 'NOT met'}]")
    print(f"peak memory at {top['cards']}: {top['peak']} MB (target <= 400 MB at 10,000) "
          f"[{'met' if top['peak'] <= 400 else 'NOT met'}]")
    print(f"load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
