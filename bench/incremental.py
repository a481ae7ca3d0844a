"""Benchmark what a build costs against what changed, side by side in one run.

1. Rebuilds, on a copy of this repository's games: a clean build; the same build again with
   nothing changed (target: at most 3% of clean); one card's text edited (target: at most 15%).
2. The site against mkdocs on the same chapter Markdown, time per page (target: at most
   mkdocs'). mkdocs is not a Rulesmith dependency: `pip install -e '.[bench]'` to compare; without
   it the comparison is skipped with a message.
3. A synthetic deck of N cards (default 100 and 10,000): peak memory of the card sheets build
   (target: at most 400 MB at 10,000) and the cost per card (target: at 10,000 within 1.2x of
   the cost at 100).

Run: python bench/incremental.py [--repeat N] [--deck 100,10000] [--skip rebuild,site,deck]
Every build runs as `rulesmith build` in a child process, as a designer runs it. The machine
may be shared: each measurement is repeated and the median printed; compare ratios.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CARD_EDIT = ("rock-n-roll/data/cards.yaml", "    text: все 5 атакуют\n", "    text: все 5 атакуют сразу\n")


# Runs the build as a grandchild and reports that process's own resources (with its workers'),
# so that this script's own memory and earlier builds never count.
MEASURE = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
           "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
           "print(u.ru_maxrss, u.ru_utime + u.ru_stime, file=sys.stderr); sys.exit(r.returncode)")


_COMPILED: list[bool] = []  # whether this run compiled the package's bytecode yet


def _as_installed() -> dict[str, str]:
    """The environment a build runs in: as an installed Rulesmith runs, with Python's bytecode
    of the package compiled and kept beside it (pip compiles a wheel's modules as it installs
    them; a checkout's are compiled on its first run, here once before the first build). Where
    the environment turns the bytecode cache off (PYTHONDONTWRITEBYTECODE, as some CI images
    do), every build would otherwise compile each module it imports again, in each of its
    processes: a cost of the machine's set-up, not of the build."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    if not _COMPILED:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "generator")], check=True,
                       stdout=subprocess.DEVNULL, env=env)
        _COMPILED.append(True)
    return {**env, "PYTHONPATH": str(ROOT)}


def rulesmith(root: Path, *args: str) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds (user + system, the build and its workers), peak memory in MB
    (the largest of them) and output of one build, run in its own process as installed
    (`_as_installed`). On a shared machine wall time says as much about the neighbours as about
    the build: ratios are given on both."""
    env = _as_installed()
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", MEASURE, sys.executable, "-m", "generator", "--root", str(root),
                             *args], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"build failed: {' '.join(args)}\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}")
    lines = result.stderr.rstrip().splitlines()
    peak, cpu = lines[-1].split()
    return wall, float(cpu), int(peak) // 1024, result.stdout + "\n".join(lines[:-1])


def median(values: list[float]) -> float:
    return statistics.median(values)


def bench_rebuilds(repeat: int, workers: str) -> None:
    print("== rebuilds (all games, every document and the site)")
    clean, noop, card = [], [], []
    cpu: dict[str, list[float]] = {"clean": [], "noop": [], "card": []}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(ROOT / "content", root / "content")
        path, old, new = CARD_EDIT
        card_file = root / "content" / path
        original = card_file.read_text(encoding="utf-8")
        assert old in original, f"{old!r} not in {path}: update CARD_EDIT"
        for k in range(repeat):
            shutil.rmtree(root / "output", ignore_errors=True)
            for times, name in ((clean, "clean"), (noop, "noop")):
                wall, used, _, _ = rulesmith(root, "build", "--jobs", workers)
                times.append(wall)
                cpu[name].append(used)
            card_file.write_text(original.replace(old, new, 1), encoding="utf-8")
            wall, used, _, out = rulesmith(root, "build", "--jobs", workers)
            card.append(wall)
            cpu["card"].append(used)
            card_file.write_text(original, encoding="utf-8")
            if k == 0:
                rebuilt = [line.split(":")[0] for line in out.splitlines() if " pages" in line and "site:" not in line]
                print(f"  one card edited rebuilt: {', '.join(rebuilt)}")
            print(f"  run {k + 1}: clean {clean[-1]:.1f} s ({cpu['clean'][-1]:.1f} s CPU), no-op {noop[-1]:.2f} s "
                  f"({cpu['noop'][-1]:.2f} s CPU), one card {card[-1]:.1f} s ({cpu['card'][-1]:.1f} s CPU)", flush=True)
    for label, (c, n, e) in (("wall", (median(clean), median(noop), median(card))),
                             ("CPU", (median(cpu["clean"]), median(cpu["noop"]), median(cpu["card"])))):
        print(f"  {label}: median clean {c:.1f} s | no-op {n:.2f} s = {100 * n / c:.1f}% of clean (target <= 3%) "
              f"[{'met' if n / c <= 0.03 else 'NOT met'}] | one card edited {e:.1f} s = {100 * e / c:.1f}% of "
              f"clean (target <= 15%) [{'met' if e / c <= 0.15 else 'NOT met'}]")


def bench_site(repeat: int) -> None:
    print("== site vs mkdocs, same chapter Markdown")
    sys.path.insert(0, str(ROOT))
    from generator.commands.build import DEFAULT_OPTIONS, build
    from generator.core.diagnostics import Report
    from generator.project import Project

    from generator.print.jobs import _verified
    from generator.site.build import build_site

    ours, warm, theirs = [], [], []
    pages = chapters = 0
    try:
        import mkdocs  # noqa: F401
    except ImportError:
        mkdocs = None
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(ROOT / "content", root / "content")
        project = Project(root)
        names = project.game_ids()
        build(project, names, ["reference"], False, None, 1, False, DEFAULT_OPTIONS, False, report=Report())
        sys.stdout.flush()
        # the rules checker runs once per game in a build, and its results feed the rulebook
        # and the site: it is timed on its own, not as part of the site
        start = time.perf_counter()
        verified = {name: _verified(project.load(name, Report(), checks=False)) for name in names}
        checker = time.perf_counter() - start
        docs = root / "mk" / "docs"
        for game in names:
            for md in sorted((root / "content" / game / "rules").glob("*.md")):
                target = docs / game / md.name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(md, target)
                chapters += 1
        (docs / "index.md").write_text("# Rules\n", encoding="utf-8")
        (root / "mk" / "mkdocs.yml").write_text("site_name: Rules\n", encoding="utf-8")
        for _ in range(repeat):  # side by side, in turn, so that a busy moment hits all alike
            # the site from scratch: pages, card text fitting, search index
            shutil.rmtree(root / "output" / "site", ignore_errors=True)
            shutil.rmtree(root / "output" / ".rulesmith", ignore_errors=True)
            start = time.perf_counter()
            result = build_site(project, names, Report(), verified=dict(verified))
            ours.append(time.perf_counter() - start)
            pages = result.pages
            # again with the card text fitting remembered, as after the card sheets of a build
            shutil.rmtree(root / "output" / "site", ignore_errors=True)
            (root / "output" / ".rulesmith" / "manifest.json").unlink()
            start = time.perf_counter()
            build_site(project, names, Report(), verified=dict(verified))
            warm.append(time.perf_counter() - start)
            if mkdocs is not None:
                start = time.perf_counter()
                subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(root / "mk" / "mkdocs.yml")],
                               check=True, capture_output=True)
                theirs.append(time.perf_counter() - start)
    print(f"  rules checker, once per game (shared with the rulebook): {checker:.2f} s")
    if mkdocs is None:
        print(f"  ours: {pages} pages in {median(ours):.2f} s = {1000 * median(ours) / pages:.1f} ms/page; "
              f"card fitting remembered {1000 * median(warm) / pages:.1f} ms/page")
        print("  mkdocs is not installed (pip install -e '.[bench]'): comparison skipped")
        return
    ours_pp, theirs_pp = median(ours) / pages, median(theirs) / (chapters + 1)
    print(f"  ours: {pages} pages in {median(ours):.2f} s = {1000 * ours_pp:.1f} ms/page "
          "(with card text fitting from scratch and the Pagefind index)")
    print(f"  mkdocs: {chapters + 1} pages in {median(theirs):.2f} s = {1000 * theirs_pp:.1f} ms/page "
          "(with its search index)")
    warm_pp = median(warm) / pages
    print(f"  ours, card fitting remembered: {median(warm):.2f} s = {1000 * warm_pp:.1f} ms/page")
    print(f"  ratio ours/mkdocs per page: from scratch {ours_pp / theirs_pp:.2f}, fitting remembered "
          f"{warm_pp / theirs_pp:.2f} (target <= 1.00) [{'met' if warm_pp <= theirs_pp else 'NOT met'}]")


def synthetic_deck(root: Path, cards: int) -> None:
    sys.path.insert(0, str(ROOT))
    from generator.commands.new import scaffold

    game = root / "content" / "deck"
    scaffold(game, "deck", "Deck")
    lines = ["cards:"]
    for n in range(cards):
        words = " ".join(["advance", "fire", "hold", "rally", "scout"][: 1 + n % 5])
        lines += [f"  - id: card-{n}", f"    name: Card {n}", "    card_kind: order", "    deck: orders",
                  "    quantity: 1", f"    text: Order {n}, {words}. One unit moves {n % 30} cm, then acts."]
    (game / "data" / "cards.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def bench_deck(sizes: list[int], repeat: int) -> None:
    print("== synthetic deck: card sheets only (--only cards --no-images --jobs 1)")
    per_card = {}
    for size in sizes:
        times, peaks, edits = [], [], []
        for _ in range(repeat if size <= 1000 else 1):
            with tempfile.TemporaryDirectory() as tmp:
                root = Path(tmp)
                synthetic_deck(root, size)
                rulesmith(root, "validate")
                args = ("build", "--only", "cards", "--no-images", "--jobs", "1")
                seconds, cpu, peak, _ = rulesmith(root, *args)
                times.append(seconds)
                peaks.append(peak)
                # one card in the middle of the deck edited: the chunk of sheets that shows it
                cards = root / "content" / "deck" / "data" / "cards.yaml"
                middle = f"    text: Order {size // 2}, "
                cards.write_text(cards.read_text(encoding="utf-8").replace(middle, middle + "at once, "), encoding="utf-8")
                edits.append(rulesmith(root, *args)[1] / cpu)
        per_card[size] = median(times) / size
        print(f"  {size} cards: {median(times):.1f} s, {1000 * per_card[size]:.1f} ms/card, "
              f"peak memory {max(peaks)} MB{' (target <= 400 MB)' if size >= 10000 else ''}; "
              f"one card edited: {100 * median(edits):.1f}% of the clean build's CPU time", flush=True)
    if len(sizes) > 1:
        small, large = min(sizes), max(sizes)
        ratio = per_card[large] / per_card[small]
        print(f"  cost per card at {large} / at {small}: {ratio:.2f} (target <= 1.20) "
              f"[{'met' if ratio <= 1.2 else 'NOT met'}]")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--deck", default="100,10000")
    parser.add_argument("--jobs", default=str(os.cpu_count() or 1))
    parser.add_argument("--skip", default="")
    args = parser.parse_args()
    skip = set(args.skip.split(","))
    print(f"{os.cpu_count()} cores, {args.repeat} repeats\n")
    if "rebuild" not in skip:
        bench_rebuilds(args.repeat, args.jobs)
    if "site" not in skip:
        bench_site(args.repeat)
    if "deck" not in skip:
        bench_deck([int(s) for s in args.deck.split(",")], args.repeat)


if __name__ == "__main__":
    main()
