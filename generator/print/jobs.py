"""Build jobs: one document of one game in one language. Independent jobs run in parallel
across CPU cores; each writes its files atomically."""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from ..diagnostics import Diagnostic, Report
from ..project import Project

KINDS = ("rulebook", "cards", "reference", "counters", "maps")


@dataclass(frozen=True)
class Job:
    root: Path
    game: str
    lang: str
    kind: str
    paper: str = "a4"
    book: str = "a4"
    bleed: bool = False
    images: bool = True
    # example id -> passed, from the rules checker; None: the job runs the checker itself
    examples: tuple[tuple[str, bool], ...] | None = None

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
    diagnostics: list[Diagnostic] = field(default_factory=list)
    error: str | None = None


def run_job(job: Job) -> JobResult:
    from .cards import card_sheets, cards_html, write_placements
    from .context import BuildContext
    from .images import write_card_images
    from .pdf import write_pdf
    from .reference import reference_html
    from .rulebook import rulebook_html

    start = time.perf_counter()
    result = JobResult(job)
    report = Report()
    project = Project(job.root)
    game = project.load(job.game, report, checks=False)  # `rulesmith build` validated it already
    if game is None or report.errors:
        result.error = f"{job.game} has content errors; run 'rulesmith validate {job.game}'"
        result.diagnostics = report.errors
        return result
    report = Report()  # warnings of loading were reported by validate; keep build warnings only
    examples = {}
    if job.kind == "rulebook":
        examples = dict(job.examples) if job.examples is not None else _verified(game)
    ctx = BuildContext(game, job.lang, project.root, examples=examples)
    out = ctx.output_dir()
    if job.kind == "rulebook":
        res = write_pdf(rulebook_html(ctx, job.book), out / "rulebook.pdf", game.folder, ctx.roots)
        result.files.append(res.path)
        result.pages = res.pages
    elif job.kind == "reference":
        res = write_pdf(reference_html(ctx), out / "reference.pdf", game.folder, ctx.roots)
        result.files.append(res.path)
        result.pages = res.pages
    elif job.kind == "cards":
        faces, html, placements, document = card_sheets(ctx, report, paper=job.paper)
        if faces:
            res = write_pdf(html, out / "cards.pdf", game.folder, ctx.roots, document=document)
            write_placements(out / "cards.json", placements)
            result.files += [res.path, out / "cards.json"]
            result.pages = res.pages
            result.cards = len(placements)
            if job.bleed:
                bleed_html, _ = cards_html(ctx, faces, bleed=True)
                res = write_pdf(bleed_html, out / "cards-bleed.pdf", game.folder, ctx.roots)
                result.files.append(res.path)
            if job.images:
                result.files += write_card_images(ctx, faces, out)
    elif job.kind == "counters":
        from .counters import counter_document, write_counter_images

        made = counter_document(ctx, report, paper=job.paper)
        if made is not None:
            html, placements, document, pieces = made
            res = write_pdf(html, out / "counters.pdf", game.folder, ctx.roots, document=document)
            write_placements(out / "counters.json", placements)
            result.files += [res.path, out / "counters.json"]
            result.pages = res.pages
            result.cards = len(placements)
            if job.images:
                result.files += write_counter_images(ctx, pieces, out)
    elif job.kind == "maps":
        from .maps import write_maps

        files, pages = write_maps(ctx, report, paper=job.paper, images=job.images)
        result.files += files
        result.pages = pages
    else:  # pragma: no cover - the CLI only offers known kinds
        raise ValueError(job.kind)
    from ..i18n.translate import report_fallbacks

    report_fallbacks(ctx.tr, report, f"{job.game} {job.kind} ({job.lang})")
    result.diagnostics = report.diagnostics
    result.seconds = time.perf_counter() - start
    return result


def _verified(game) -> dict[str, bool]:
    """Example id -> passed, from the rules checker where it is available."""
    try:
        from ..checker import verified_examples  # type: ignore[attr-defined]
    except ImportError:
        return {}
    try:
        return verified_examples(game)
    except Exception:  # a failing checker must not stop printing; `rulesmith check` reports it
        return {}


def plan(project: Project, games: Iterable[str], langs: Iterable[str] | None, kinds: Iterable[str],
         verified: dict[str, dict[str, bool]] | None = None, **options) -> list[Job]:
    from ..loader import load_manifest

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


def run_jobs(jobs: list[Job], workers: int | None = None,
             on_done: Callable[[JobResult], None] | None = None) -> list[JobResult]:
    """Run jobs, in parallel when there is more than one core and more than one job."""
    workers = workers or os.cpu_count() or 1
    results = []
    if workers == 1 or len(jobs) == 1:
        for job in jobs:
            result = _safe(job)
            results.append(result)
            if on_done:
                on_done(result)
        return results
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(_safe, job): job for job in _longest_first(jobs)}
        for future in as_completed(futures):
            result = future.result()
            results.append(result)
            if on_done:
                on_done(result)
    order = {job: i for i, job in enumerate(jobs)}
    return sorted(results, key=lambda r: order[r.job])


def _longest_first(jobs: list[Job]) -> list[Job]:
    weight = {"rulebook": 0, "cards": 1, "reference": 2}
    return sorted(jobs, key=lambda j: weight.get(j.kind, 3))


def _safe(job: Job) -> JobResult:
    try:
        return run_job(job)
    except Exception as exc:  # reported per job; other documents still build
        return JobResult(job, error=f"{type(exc).__name__}: {exc}")
