"""Build jobs: one document of one game in one language. Independent jobs run in parallel
across CPU cores; each writes its files atomically. Workers die with the build that started
them. The same workers take other work queued after the documents (the site's pages of each
game and language), each once the documents of its game and language are done. What each kind
of document is and reads lives in print/documents/."""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

from ..system.faults import Fault
from ..system.folders import files
from ..system.children import die_with_parent, interrupts_held, let_interrupts_through
from ..system.collector import for_layout
from ..system.memory import give_back
from ..core.diagnostics import Diagnostic, Report
from ..project import Project
from ..project.loaded import loaded
from .documents import KINDS, registry
from .sources import Source


@dataclass(frozen=True)
class Job:
    root: Path
    game: str
    lang: str
    kind: str
    paper: str = "a4"
    book: str = "a4"
    booklet: bool = False  # also the A5 rulebook imposed for folding (booklet.py)
    bleed: bool = False
    print_shops: tuple[str, ...] = ()  # presets of print-shops.yaml: the cards and counters as each printer takes them
    images: bool = True
    drafts: bool = True  # False: card sheets leave DRAFT cards out
    notes: bool = True  # False: the rulebook leaves `::: note` asides out
    changes_since: str | None = None  # the older version the errata sheet (changes.pdf) compares with
    older: Path | None = None  # a project folder holding the game at changes_since, read from git once per build
    # example id -> passed, from the rules checker; None: the job runs the checker itself
    examples: tuple[tuple[str, bool], ...] | None = None
    # what the files were last made from: the same source again writes nothing
    previous: Source = Source()
    cost: float = 0.0  # CPU seconds its last build took (0: not known): the longest are sent first

    @property
    def label(self) -> str:
        return f"{self.game}/{self.lang}/{self.kind}"


@dataclass
class JobResult:
    job: Job
    files: list[Path] = field(default_factory=list)
    pages: int = 0
    cards: int = 0
    seconds: float = 0.0
    cpu: float = 0.0  # CPU seconds of the process that made it (time.process_time), for benchmarks
    diagnostics: list[Diagnostic] = field(default_factory=list)
    error: str | None = None
    fault: OSError | None = None  # the machine's, not the document's (a full disk): ends the build
    source: str = ""
    reads: tuple[str, ...] = ()
    unchanged: bool = False  # made from the same HTML as last time: nothing written
    skipped: bool = False    # inputs unchanged: not even loaded


def run_job(job: Job) -> JobResult:
    from .. import outputs
    from ..i18n.translate import report_fallbacks
    from .context import BuildContext

    start, cpu = time.perf_counter(), time.process_time()
    result = JobResult(job)
    report = Report()
    project = Project(job.root)
    outputs.confine_to(project.output)
    game = loaded(project, job.game, report)  # `rulesmith build` validated it already
    if game is None or report.errors:
        result.error = f"{job.game} has content errors; run 'rulesmith validate {job.game}'"
        result.diagnostics = report.errors
        return result
    report = Report()  # warnings of loading were reported by validate; keep build warnings only
    document = registry()[job.kind]
    examples = {}
    if document.reads_examples:
        examples = dict(job.examples) if job.examples is not None else checked_examples(game)
    ctx = BuildContext(game, job.lang, project.root, examples=examples, older=job.older)
    rendered = document.render(ctx, job, report, job.previous)
    result.files, result.pages, result.cards = rendered.files, rendered.pages, rendered.cards
    result.source, result.reads, result.unchanged = rendered.source, rendered.reads, rendered.unchanged
    report_fallbacks(ctx.tr, report, f"{job.game} {job.kind} ({job.lang})")
    result.diagnostics = report.diagnostics
    result.seconds = time.perf_counter() - start
    result.cpu = time.process_time() - cpu
    return result


def checked_examples(game) -> dict[str, bool]:
    """Example id -> passed, from the rules checker where it is available."""
    return examples_started(game)()


def examples_started(game) -> Callable[[], dict[str, bool]]:
    """checked_examples started: the examples run in their bounded child while the caller goes
    on; calling what is returned waits for them. A failing checker must not stop printing
    (`rulesmith check` reports it): then no example counts as verified."""
    try:
        from ..checker.runner import start_verified

        wait = start_verified(game)
    except Exception:
        return dict

    def waited() -> dict[str, bool]:
        try:
            return wait()
        except Exception:
            return {}
    return waited


def plan(project: Project, games: Iterable[str], langs: Iterable[str] | None, kinds: Iterable[str],
         verified: dict[str, dict[str, bool]] | None = None, **options) -> list[Job]:
    from ..reading.loader import load_manifest

    jobs = []
    for name in games:
        loaded = load_manifest(project.content / name, Report())
        if loaded is None:
            continue
        manifest = loaded[0]
        available = [manifest.source_language, *manifest.languages]
        for lang in (langs or available):
            if lang not in available:
                continue
            for kind in kinds:
                examples = tuple(sorted(verified[name].items())) if verified and name in verified else None
                jobs.append(Job(project.root, name, lang, kind, examples=examples, **options))
    return jobs


def _die_with_parent() -> None:
    """Pool worker start: the worker dies with the build process, however it dies (Ctrl+C,
    kill, a crash), so no worker goes on writing into output/; its collector set for layout
    (system/collector.py)."""
    die_with_parent(os.getppid())
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to handle
    let_interrupts_through()  # held while the pool forked it
    for_layout()


def run_jobs(jobs: list[Job], workers: int | None = None,
             on_done: Callable[[JobResult], None] | None = None, later: Sequence = (),
             admit: Callable[[object], bool] | None = None) -> list[JobResult]:
    """Run jobs, in parallel when there is more than one core and more than one job; a job
    whose document comes after another of its game and language (Document.after: the errata
    sheet takes the rulebook's pages) starts once that one is done.

    `later` is other work for the same workers (the site's pages of a game in a language:
    anything with a root, game, lang, kind, label and cost, and a `run()` whose result has a
    `job`, `error` and `fault`), queued after every document, the longest first; each starts
    once the documents of its game and language are done (those it needs, where it has a
    `needs(job)`), so a worker takes it when it would otherwise wait. `admit(work)`, called
    in this process just before the work would start (after `on_done` of those documents), may
    leave it out: it is then not run nor reported."""
    workers = workers or os.cpu_count() or 1
    if workers == 1 or len(jobs) + len(later) == 1:
        return _run_here(jobs, later, on_done, admit)
    results = []
    pool = ProcessPoolExecutor(max_workers=min(workers, len(jobs) + len(later)), initializer=_die_with_parent)
    waiting = _waits(jobs, later)
    queued = _queue(jobs, later)
    running: dict = {}

    def start_ready() -> None:
        with interrupts_held():  # the pool forks its workers as jobs are submitted
            for item in [j for j in queued if not waiting.get(j)]:
                queued.remove(item)
                if _admitted(item, admit):
                    running[pool.submit(_safe, item)] = item

    try:
        start_ready()
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                results.append(future.result())  # a broken pool's: raised, the work still running
                item = running.pop(future)
                for first in waiting.values():
                    first.discard(item)
                if on_done:
                    on_done(results[-1])
            start_ready()
    except BrokenProcessPool as exc:
        ended = _exit_codes(_workers(pool))  # read before they are killed: how the dead one ended
        _stop(pool, Project([*jobs, *later][0].root))
        raise Fault(vanished(ended, sorted(item.label for item in running.values()))) from exc
    except BaseException:
        _stop(pool, Project([*jobs, *later][0].root))
        raise
    pool.shutdown()
    order = {item: i for i, item in enumerate([*jobs, *later])}
    return sorted(results, key=lambda r: order[r.job])


def _workers(pool: ProcessPoolExecutor) -> list:
    """The pool's worker processes."""
    return list((getattr(pool, "_processes", None) or {}).values())


def _stop(pool: ProcessPoolExecutor, project: Project) -> None:
    """Stop the pool's workers now, not after the documents they are writing are done, and
    remove the temporary files they leave."""
    processes = _workers(pool)
    for process in processes:
        process.kill()
    for process in processes:
        process.join(5)  # gone for good: the temporary files they were writing can go too
    pool.shutdown(wait=False, cancel_futures=True)
    from .. import outputs

    outputs.remove_stale_temps(project.output)


def _exit_codes(processes: list, within: float = 1.0) -> list[int | None]:
    """The exit codes of a broken pool's workers, once one is known: the pool's own thread may
    be reaping the dead worker at that moment, and its code reads as None until it has (for at
    most `within` s). Only for a pool that broke: with every worker alive it waits all of it."""
    deadline = time.monotonic() + within
    while True:
        codes = [process.exitcode for process in processes]
        if any(code not in (None, 0) for code in codes) or time.monotonic() > deadline:
            return codes
        time.sleep(0.02)


def vanished(codes: Iterable[int | None], making: Sequence[str]) -> str:
    """The line for a worker that ended without a result (killed, or crashed inside a library)
    while the documents `making` were being made; `codes` the workers' exit codes."""
    signals = sorted({-code for code in codes if code is not None and code < 0})
    if len(signals) > 1 and signal.SIGTERM in signals:  # how the pool ends the others once one is gone
        signals.remove(signal.SIGTERM)
    how = ", ".join(_signal_name(number) for number in signals)
    if signal.SIGKILL in signals:
        how += "; the system may have run out of memory"
    where = f" while making {' or '.join(making)}" if making else ""
    return (f"a build worker ended abruptly{f' ({how})' if how else ''}{where}; nothing it was "
            f"writing was kept. Run again; if it happens again, build that document alone "
            f"with --jobs 1")


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _run_here(jobs: list[Job], later: Sequence, on_done, admit) -> list[JobResult]:
    """Run the jobs one after the other in this process, then the later work."""
    results = []
    for item in [*_in_order(jobs), *_longest_first_later(later)]:
        if not _admitted(item, admit):
            continue
        results.append(_safe(item))
        if on_done:
            on_done(results[-1])
    return results


def _queue(jobs: list[Job], later: Sequence) -> list:
    """The order the workers take the work in: the documents the longest first, then the later work."""
    return [*(_longest_first(jobs) if jobs else []), *_longest_first_later(later)]


def _waits(jobs: list[Job], later: Sequence) -> dict:
    """What each job or later work waits for: a document the one it comes after; a later work
    every document of its game and language that it needs (`needs(job)`, where it says)."""
    out: dict = {job: {first} for job, first in _prerequisites(jobs).items()}
    for item in later:
        needs = getattr(item, "needs", None)
        out[item] = {job for job in jobs
                     if (job.game, job.lang) == (item.game, item.lang) and (needs is None or needs(job))}
    return out


def _admitted(item, admit: Callable[[object], bool] | None) -> bool:
    """A document always starts; later work if `admit` lets it."""
    return isinstance(item, Job) or admit is None or admit(item)


def _longest_first_later(later: Sequence) -> list:
    """Later work, the longest first by what it cost last time (unknown: as listed)."""
    return sorted(later, key=lambda item: -item.cost)


def _longest_first(jobs: list[Job]) -> list[Job]:
    """The jobs, the longest first, so that no worker is left with a long one at the end: by
    what each cost last time when that is known for all, else by kind (the rulebooks first)
    and, within a kind, the game with the most content first."""
    if all(job.cost for job in jobs):
        return sorted(jobs, key=lambda j: -j.cost)
    documents = registry()
    sizes = {game: _content_size(jobs[0].root / "content" / game) for game in {j.game for j in jobs}}
    return sorted(jobs, key=lambda j: (documents[j.kind].weight if j.kind in documents else 9, -sizes[j.game]))


def _content_size(folder: Path) -> int:
    """Bytes of a game's rules and data: how long its documents take, roughly."""
    return sum(path.stat().st_size for name in ("rules", "data") for path in files(folder / name))


def _prerequisites(jobs: list[Job]) -> dict[Job, Job]:
    """Each job that waits for another of the list: the job it waits for."""
    documents = registry()
    by_place = {(job.game, job.lang, job.kind): job for job in jobs}
    out = {}
    for job in jobs:
        after = documents[job.kind].after if job.kind in documents else ""
        first = by_place.get((job.game, job.lang, after)) if after else None
        if first is not None:
            out[job] = first
    return out


def _in_order(jobs: list[Job]) -> list[Job]:
    """The jobs as listed, each after the job it waits for."""
    waits = _prerequisites(jobs)
    return [job for job in jobs if job not in waits] + [job for job in jobs if job in waits]


def _safe(job) -> JobResult:
    """A job's result (or later work's: its own `run()`), a failure given as its error; the
    memory it freed is given back before the worker takes the next (system/memory.py)."""
    try:
        return run_job(job) if isinstance(job, Job) else job.run()
    except OSError as exc:  # every other document would meet it too: the build stops and says so
        return JobResult(job, error=str(exc), fault=exc)
    except Exception as exc:  # reported per job; other documents still build
        return JobResult(job, error=f"{type(exc).__name__}: {exc}")
    finally:
        give_back()


__all__ = ["KINDS", "Job", "JobResult", "plan", "run_job", "run_jobs"]
