"""Benchmark the print build.

1. Overhead: for every document, the time Rulesmith takes (load, validate, render HTML, fit
   card text, write the PDF) against bare WeasyPrint writing a PDF from the same HTML.
   Target: at most 20% overhead.
2. Parallelism: all PDFs built with one worker, then with every core. Target: wall time at
   most 0.6x the serial time on 2 cores.

Run: python bench/build.py [--repeat N] [--game G ...]
Prints medians; timings on a shared machine are noisy, so compare ratios, not seconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from weasyprint import HTML

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.print.cards import card_sheets  # noqa: E402
from generator.print.context import BuildContext  # noqa: E402
from generator.print.jobs import Job, plan, run_job, run_jobs  # noqa: E402
from generator.print.reference import reference_html  # noqa: E402
from generator.print.rulebook import rulebook_html  # noqa: E402
from generator.core.diagnostics import Report  # noqa: E402
from generator.project import Project  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def html_for(job: Job) -> str:
    project = Project(job.root)
    game = project.load(job.game, Report())
    ctx = BuildContext(game, job.lang, project.root)
    if job.kind == "rulebook":
        return rulebook_html(ctx)
    if job.kind == "reference":
        return reference_html(ctx)
    return str(card_sheets(ctx, Report())[1])


def bare(html: str, base: Path) -> float:
    out = Path(tempfile.mkstemp(suffix=".pdf")[1])
    start = time.perf_counter()
    HTML(string=html, base_url=base.as_uri() + "/").write_pdf(out)
    elapsed = time.perf_counter() - start
    out.unlink()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--game", action="append")
    args = parser.parse_args()
    project = Project(ROOT)
    games = args.game or project.game_ids()
    from generator.print.jobs import _verified

    # the build runs the rules checker once per game, before the documents (not per document)
    verified = {g: _verified(project.load(g, Report(), checks=False)) for g in games}
    jobs = plan(project, games, None, ["rulebook", "cards", "reference"], verified, images=False)

    print(f"{len(jobs)} documents, {args.repeat} repeats, {os.cpu_count()} cores\n")
    print(f"{'document':32} {'pages':>5} {'cards':>5} {'ours s':>8} {'bare s':>8} {'overhead':>9}")
    total_ours = total_bare = 0.0
    pages = cards = 0
    per_kind: dict[str, list[float]] = {}
    for job in jobs:
        html = html_for(job)
        base = project.content / job.game
        ours_runs, bare_runs, result = [], [], None
        run_job(job)  # warm up: imports and font caches count for neither side
        bare(html, base)
        for k in range(args.repeat):
            if k % 2:  # alternate the order so neither side always runs on warmer caches
                bare_runs.append(bare(html, base))
                result = run_job(job)
            else:
                result = run_job(job)
                bare_runs.append(bare(html, base))
            ours_runs.append(result.seconds)
        ours, ref = statistics.median(ours_runs), statistics.median(bare_runs)
        total_ours += ours
        total_bare += ref
        pages += result.pages
        cards += result.cards
        per_kind.setdefault(job.kind, []).append(ours / ref - 1)
        print(f"{job.label:32} {result.pages:5} {result.cards:5} {ours:8.2f} {ref:8.2f} {100 * (ours / ref - 1):8.1f}%")
    print(f"\nall documents: ours {total_ours:.1f} s, bare WeasyPrint {total_bare:.1f} s, "
          f"overhead {100 * (total_ours / total_bare - 1):.1f}% (target <= 20%)")
    for kind, values in per_kind.items():
        print(f"  median overhead, {kind}: {100 * statistics.median(values):.1f}%")
    print(f"throughput: {pages / total_ours:.1f} pages/s, {cards / total_ours:.1f} cards/s "
          f"(bare: {pages / total_bare:.1f} pages/s)")

    serial, parallel = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        run_jobs(jobs, workers=1)
        serial.append(time.perf_counter() - start)
        start = time.perf_counter()
        run_jobs(jobs, workers=os.cpu_count())
        parallel.append(time.perf_counter() - start)
    s, p = statistics.median(serial), statistics.median(parallel)
    print(f"\nall PDFs: serial {s:.1f} s, parallel ({os.cpu_count()} workers) {p:.1f} s, "
          f"ratio {p / s:.2f} (target <= 0.60)")


if __name__ == "__main__":
    main()
