"""Benchmark whole builds against the floor (bench/limit.py: every document's final HTML laid
out once with WeasyPrint).

For the five shipped games and for a generated large game (1,000 cards and a rulebook of
about 200 pages, written into a temporary folder), each in a temporary project:

- clean: `rulesmith build` with no output/ (validation, the rules checker, every document, the site);
- no-op: the same build again, nothing changed;
- one edit: one card's text changed, built again;

each as `rulesmith build` in a child process with the default workers, its wall time, CPU
time (user + system of the build and its workers) and peak memory (the largest resident set
of the build process and its workers), and each as a ratio to the floor (its CPU and wall
time with the same workers), the no-op and one-edit builds also as a ratio to the clean one
(wall and CPU: an edit's work spread over both cores shows in its wall time only).

The machine may be shared: compare ratios, and CPU rather than wall time. Each figure is the
median of --repeat runs.

Run: python bench/build.py [--repeat N] [--skip games,large] [--pages 200] [--cards 1000]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from incremental import CARD_EDIT, rulesmith, synthetic_deck  # noqa: E402
from limit import floor, floor_tasks, the_jobs  # noqa: E402

WORDS_PER_PAGE = 700  # of running text in the rulebook's two A4 columns, roughly
VOCABULARY = ("unit", "move", "fire", "range", "cover", "hit", "rally", "order", "turn", "player", "dice",
              "roll", "target", "charge", "close", "combat", "morale", "test", "scenario", "objective",
              "the", "a", "each", "its", "then", "when", "if", "and", "or", "with", "until", "after")


def large_game(root: Path, cards: int, pages: int) -> tuple[str, str, str]:
    """A generated game in `root`: a deck of `cards` cards and rules of about `pages` pages
    (chapters of sections of paragraphs, a table now and then). Returns the edit to make: a
    file inside content/ and the text to replace in it, and its replacement."""
    synthetic_deck(root, cards)  # the scaffold, its deck grown
    from generator.commands.new import scaffold

    game = root / "content" / "deck"
    scaffold(game / "scaffold", "deck", "Deck", complete=True)
    shutil.move(str(game / "scaffold" / "rules"), str(game / "rules"))
    shutil.move(str(game / "scaffold" / "procedures.py"), str(game / "procedures.py"))
    shutil.rmtree(game / "scaffold")
    rng = random.Random(36)
    words = pages * WORDS_PER_PAGE
    chapter = 0
    while words > 0:
        chapter += 1
        lines = [f"# Chapter {chapter}", ""]
        for section in range(1, 11):
            lines += [f"## Section {chapter}.{section}", ""]
            for _ in range(6):
                paragraph = [rng.choice(VOCABULARY) for _ in range(rng.randint(60, 140))]
                words -= len(paragraph)
                lines += [" ".join(paragraph).capitalize() + ".", ""]
            if section % 4 == 0:
                lines += ["| Roll | Result | Effect |", "|---|---|---|",
                          *[f"| {n} | {rng.choice(VOCABULARY)} | {' '.join(rng.choices(VOCABULARY, k=8))} |"
                            for n in range(1, 7)], ""]
        (game / "rules" / f"{10 + chapter:02d}-chapter.md").write_text("\n".join(lines), encoding="utf-8")
    middle = f"    text: Order {cards // 2}, "
    return "deck/data/cards.yaml", middle, middle + "at once, "


def shipped_games(root: Path) -> tuple[str, str, str]:
    shutil.copytree(ROOT / "content", root / "content")
    return CARD_EDIT


def measure(name: str, make, repeat: int, workers: int) -> None:
    runs: dict[str, list[tuple[float, float, int]]] = {"clean": [], "no-op": [], "one edit": []}
    pages = ""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        path, old, new = make(root)
        edited = root / "content" / path
        original = edited.read_text(encoding="utf-8")
        assert old in original, f"{old!r} not in {path}"
        for _ in range(repeat):
            edited.write_text(original, encoding="utf-8")
            shutil.rmtree(root / "output", ignore_errors=True)
            for step in ("clean", "no-op"):
                wall, cpu, peak, out = rulesmith(root, "build", "--jobs", str(workers))
                runs[step].append((wall, cpu, peak))
                pages = pages or "; ".join(line for line in out.splitlines() if "rulebook:" in line)
            edited.write_text(original.replace(old, new, 1), encoding="utf-8")
            runs["one edit"].append(rulesmith(root, "build", "--jobs", str(workers))[:3])
        games = sorted(p.name for p in (root / "content").iterdir() if p.is_dir())
        tasks = floor_tasks(the_jobs(root, games))
        floors = [floor(tasks, workers) for _ in range(repeat)]
    floor_wall = statistics.median(f[0] for f in floors)
    floor_cpu = statistics.median(f[1] for f in floors)
    print(f"== {name} ({pages})")
    print(f"   floor: {floor_wall:.1f} s wall, {floor_cpu:.1f} s CPU ({len(tasks)} HTML documents laid out once)")
    print(f"   {'build':9} {'wall s':>8} {'CPU s':>8} {'peak MB':>8} {'wall/floor':>11} {'CPU/floor':>10} "
          f"{'wall/clean':>11} {'CPU/clean':>10}")
    clean_wall = statistics.median(r[0] for r in runs["clean"])
    clean_cpu = statistics.median(r[1] for r in runs["clean"])
    for step, values in runs.items():
        wall = statistics.median(r[0] for r in values)
        cpu = statistics.median(r[1] for r in values)
        peak = max(r[2] for r in values)
        print(f"   {step:9} {wall:8.1f} {cpu:8.1f} {peak:8} {wall / floor_wall:11.2f} {cpu / floor_cpu:10.2f} "
              f"{wall / clean_wall:11.2f} {cpu / clean_cpu:10.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--skip", default="", help="games, large")
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--pages", type=int, default=200)
    args = parser.parse_args()
    skip = set(args.skip.split(","))
    print(f"{os.cpu_count()} cores, {args.jobs} workers, {args.repeat} run(s) each; "
          f"load average {os.getloadavg()[0]:.1f} at the start\n", flush=True)
    if "games" not in skip:
        measure("the five games", shipped_games, args.repeat, args.jobs)
    if "large" not in skip:
        measure(f"a generated game: {args.cards} cards, about {args.pages} pages of rules",
                lambda root: large_game(root, args.cards, args.pages), args.repeat, args.jobs)


if __name__ == "__main__":
    main()
