"""How far the build is above the floor: the cost of laying out each document's final HTML
once with WeasyPrint.

On a copy of the games (a temporary project), the PDF documents are built clean, as
`rulesmith build` builds them (fitting, layout checks, tagging, card images), on one core
and then with the default workers. The final HTML of every document (what the build wrote,
its layout decisions read back from the build's own stores) is then laid out once with
WeasyPrint and written as PDF, with no fitting and no checks: that is the floor, on one core
and with the same workers, longest first. Card images count their faces' documents laid out
once (rasterizing them is not WeasyPrint's and is left to the build's side).

The build lays out with two corrections to WeasyPrint's layout that take repeated work off it
(print/layoutwork.py); the floor is measured with them, and again with WeasyPrint's own layout
("stock floor"), the floor as it stood before them. The floor's workers set Python's garbage
collector as the build's workers do (generator/system/collector.py).

Printed, per kind of document and in total: CPU seconds of the build and of the floor and
their ratio; in total also wall seconds with one worker and with the default workers; and
the whole `rulesmith build` command (validation, the rules checker and the site included),
run clean in a child process, against the floor; and each of its runs against a run of the
floor right before it, the ratio of each pair and their median.

The machine may be shared: wall time then says more about the neighbours than about the
build, so CPU time (user + system of this process and its workers) is printed beside it.
Each figure is the median of --repeat runs.

Run: python bench/limit.py [--game G ...] [--repeat N] [--jobs N] [--no-command]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from generator.core.diagnostics import Report  # noqa: E402
from generator.print.documents import KINDS  # noqa: E402
from generator.print import layoutwork  # noqa: E402
from generator.print.jobs import Job, checked_examples, plan, run_jobs  # noqa: E402
from generator.project import Project  # noqa: E402
from generator.system.collector import for_layout  # noqa: E402

from incremental import rulesmith  # noqa: E402


def cpu_now() -> float:
    """CPU seconds (user + system) of this process and its finished children so far."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def copy_project(games: list[str]) -> Path:
    root = Path(tempfile.mkdtemp(prefix="rulesmith-limit-"))
    for game in games:
        shutil.copytree(ROOT / "content" / game, root / "content" / game)
    return root


def clean_stores(root: Path) -> None:
    """Forget every earlier build: its files and what its layouts found. The rules checker's
    probability tables are written again (untimed): the reference sheets print them, as they
    do after the `rulesmith build` steps that come before the documents."""
    from generator.checker.tables import write_tables

    shutil.rmtree(root / "output", ignore_errors=True)
    project = Project(root)
    for name in project.game_ids():
        game = project.load(name, Report(), checks=False)
        if game is not None and (game.folder / "procedures.py").exists():
            write_tables(game, project.output)


def the_jobs(root: Path, games: list[str]) -> list[Job]:
    project = Project(root)
    verified = {g: checked_examples(project.load(g, Report(), checks=False)) for g in games}
    return plan(project, games, None, KINDS, verified)


def build_documents(root: Path, jobs: list[Job], workers: int) -> tuple[float, float, dict[str, float]]:
    """(wall s, CPU s, CPU s per kind) of the documents built clean with `workers`."""
    clean_stores(root)
    Project(root).output.mkdir(parents=True, exist_ok=True)
    cpu, wall = cpu_now(), time.perf_counter()
    results = run_jobs(jobs, workers=workers)
    wall, cpu = time.perf_counter() - wall, cpu_now() - cpu
    failed = [r for r in results if r.error]
    if failed:
        sys.exit(f"build failed: {failed[0].job.label}: {failed[0].error}")
    per_kind: dict[str, float] = {}
    for result in results:
        per_kind[result.job.kind] = per_kind.get(result.job.kind, 0.0) + result.cpu
    return wall, cpu, per_kind


# -- the floor -------------------------------------------------------------------------------

def final_html(job: Job) -> list[str]:
    """The HTML of every WeasyPrint document `job` needs, as its last build decided it (the
    layout decisions and card text sizes are read from that build's stores)."""
    from generator.print.context import BuildContext

    project = Project(job.root)
    game = project.load(job.game, Report(), checks=False)
    ctx = BuildContext(game, job.lang, project.root, examples=dict(job.examples or ()))
    return globals()[f"_{job.kind}"](ctx, job)


def _rulebook(ctx, job: Job) -> list[str]:
    from generator.print.rulebook import rulebook_html

    return [rulebook_html(ctx, job.book, notes=job.notes)]


def _reference(ctx, job: Job) -> list[str]:
    from generator.print.reference import reference_html

    return [reference_html(ctx)]


def _cards(ctx, job: Job) -> list[str]:
    from generator.print.cards import card_sheets
    from generator.print.images import CHUNK, faces_html
    from generator.print.sheets import parts

    faces, html, _, _ = card_sheets(ctx, Report(), paper=job.paper, drafts=job.drafts)
    if not faces:
        return []
    out = [part for _, part in parts(html)]
    if job.images:  # each face, then the decks' backs, once
        faces = [replace(f, index=i) for i, f in enumerate(faces)]
        out += [faces_html(ctx, faces[k:k + CHUNK]) for k in range(0, len(faces), CHUNK)]
        decks = list(dict.fromkeys(f.deck for f in faces))
        out.append(faces_html(ctx, [next(f for f in faces if f.deck == d) for d in decks], backs=True))
    return out


def _counters(ctx, job: Job) -> list[str]:
    from generator.print.counters import counters_html, pieces

    found = pieces(ctx)
    return [counters_html(ctx, found, job.paper)[0]] if found else []


def _maps(ctx, job: Job) -> list[str]:
    from generator.print.maps import large_html, tiled_html

    if not ctx.game.section("maps"):
        return []
    return [tiled_html(ctx, job.paper)[0], large_html(ctx)]


def lay_out_once(task: tuple[str, str, Path, list[Path]]) -> tuple[str, float]:
    """(kind, CPU s) of laying one HTML out with WeasyPrint and writing it as PDF."""
    from generator.print.pdf import identifier, render_document
    from generator.print.tagging import variant

    kind, html, base, roots = task
    start = time.process_time()
    document, _ = render_document(html, base, roots)
    document.write_pdf(pdf_identifier=identifier(html), **variant())
    return kind, time.process_time() - start


def floor_tasks(jobs: list[Job]) -> list[tuple[str, str, Path, list[Path]]]:
    from generator.print.context import template_dirs

    tasks = []
    for job in jobs:
        project = Project(job.root)
        folder = project.content / job.game
        game = project.load(job.game, Report(), checks=False)
        roots = [folder, *template_dirs(game, project.root)]
        tasks += [(job.kind, html, folder, roots) for html in final_html(job)]
    return sorted(tasks, key=lambda t: -len(t[1]))  # the longest first, as the build sends them


def floor(tasks, workers: int) -> tuple[float, float, dict[str, float]]:
    """(wall s, CPU s, CPU s per kind) of laying every task out once with `workers`."""
    cpu, wall = cpu_now(), time.perf_counter()
    if workers == 1:
        done = [lay_out_once(t) for t in tasks]
    else:
        with ProcessPoolExecutor(max_workers=workers, initializer=for_layout) as pool:
            done = list(pool.map(lay_out_once, tasks))
    wall, cpu = time.perf_counter() - wall, cpu_now() - cpu
    per_kind: dict[str, float] = {}
    for kind, seconds in done:
        per_kind[kind] = per_kind.get(kind, 0.0) + seconds
    return wall, cpu, per_kind


# -- the report ------------------------------------------------------------------------------

def median_runs(runs: list[tuple[float, float, dict[str, float]]]) -> tuple[float, float, dict[str, float]]:
    kinds = {k for _, _, per in runs for k in per}
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs),
            {k: statistics.median(r[2].get(k, 0.0) for r in runs) for k in kinds})


def paired(pairs: list[tuple[float, float, float, float]]) -> str:
    """The whole command against the floor laid out right before it, run by run: (wall,
    CPU, floor wall, floor CPU) each. A ratio taken within a pair does not drift with the
    machine's neighbours from one block of runs to the next as the medians above may."""
    walls = [w / fw for w, _c, fw, _fc in pairs]
    cpus = [c / fc for _w, c, _fw, fc in pairs]
    each = ", ".join(f"{w:.1f}/{fw:.1f} s" for w, _c, fw, _fc in pairs)
    return (f"{'  each beside its own floor':28} median {statistics.median(walls):.2f}x wall, "
            f"{statistics.median(cpus):.2f}x CPU ({each})")


def ratio(ours: float, base: float) -> str:
    return f"{ours / base:5.2f}x" if base > 0 else "    –"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="only these games (default: all five)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each measurement; the median is printed")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="the default workers (every core)")
    parser.add_argument("--no-command", action="store_true", help="skip the whole `rulesmith build` command")
    args = parser.parse_args()
    games = args.game or Project(ROOT).game_ids()
    root = copy_project(games)
    try:
        jobs = the_jobs(root, games)
        print(f"{len(jobs)} documents of {len(games)} games, {args.repeat} run(s) each, {os.cpu_count()} cores, "
              f"default workers {args.jobs}; load average {os.getloadavg()[0]:.1f} at the start\n")
        serial = median_runs([build_documents(root, jobs, 1) for _ in range(args.repeat)])
        parallel = median_runs([build_documents(root, jobs, args.jobs) for _ in range(args.repeat)])
        tasks = floor_tasks(jobs)  # the last build's decisions, its tables beside them
        floor1 = median_runs([floor(tasks, 1) for _ in range(args.repeat)])
        floorn = median_runs([floor(tasks, args.jobs) for _ in range(args.repeat)])
        with layoutwork.stock():  # the floor of WeasyPrint's own layout, without its corrections
            stock1 = median_runs([floor(tasks, 1) for _ in range(args.repeat)])
            stockn = median_runs([floor(tasks, args.jobs) for _ in range(args.repeat)])
        print(f"{'kind':12} {'documents':>9} {'build CPU s':>12} {'floor CPU s':>12} {'over floor':>10}"
              f"   {'stock floor':>11} {'over it':>8}")
        for kind in KINDS:
            count = sum(1 for t in tasks if t[0] == kind)
            ours, base, own = serial[2].get(kind, 0.0), floor1[2].get(kind, 0.0), stock1[2].get(kind, 0.0)
            print(f"{kind:12} {count:9} {ours:12.1f} {base:12.1f} {ratio(ours, base):>10}"
                  f"   {own:11.1f} {ratio(ours, own):>8}")
        print(f"\n{'all documents':28} {'build wall s':>12} {'floor wall s':>12} {'over floor':>10}   "
              f"{'build CPU s':>11} {'floor CPU s':>11} {'over floor':>10}")
        for name, ours, base in (("one worker", serial, floor1), (f"{args.jobs} workers", parallel, floorn),
                                 ("  stock floor, one worker", serial, stock1),
                                 (f"  stock floor, {args.jobs} workers", parallel, stockn)):
            print(f"{name:28} {ours[0]:12.1f} {base[0]:12.1f} {ratio(ours[0], base[0]):>10}   "
                  f"{ours[1]:11.1f} {base[1]:11.1f} {ratio(ours[1], base[1]):>10}")
        if not args.no_command:
            walls, cpus, pairs = [], [], []
            for _ in range(args.repeat):
                beside = floor(tasks, args.jobs)  # the floor again, right before the command: a pair
                shutil.rmtree(root / "output", ignore_errors=True)  # nothing kept: the command writes its tables
                wall, cpu, _, _ = rulesmith(root, "build", "--jobs", str(args.jobs))
                walls.append(wall)
                cpus.append(cpu)
                pairs.append((wall, cpu, beside[0], beside[1]))
            wall, cpu = statistics.median(walls), statistics.median(cpus)
            for name, base in (("rulesmith build (all of it)", floorn), ("  against the stock floor", stockn)):
                print(f"{name:28} {wall:12.1f} {base[0]:12.1f} {ratio(wall, base[0]):>10}   "
                      f"{cpu:11.1f} {base[1]:11.1f} {ratio(cpu, base[1]):>10}")
            print(paired(pairs))
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
