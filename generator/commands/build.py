"""`rulesmith build`: PDFs (rulebook, card sheets, reference sheet) and the site for every
game and language. Only what changed since the last build is made again (`--force`: all)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, nullcontext
from dataclasses import dataclass, field, replace

import click
from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn,
                           TimeRemainingColumn)
from rich.text import Text

from ..project import keptstate
from .. import outputs
from ..core.diagnostics import Report, render
from ..project.manifest import Manifest, digest, load_diagnostics, save_diagnostics
from ..outputs.layout import variant
from ..print.documents import KINDS, ON_REQUEST, registry
from ..print.jobs import Job, JobResult, plan, run_jobs
from ..print.sources import Source
from ..project import Project
from ..project.rebuild import Inputs
from . import LANGUAGE, output_held

ALL_KINDS = (*KINDS, "site")


def _kinds(value: str | None) -> list[str]:
    if value is None:
        return list(ALL_KINDS)
    kinds = [k.strip() for k in value.split(",") if k.strip()]
    if not kinds:
        raise click.BadParameter(f"names nothing to build; choose from {', '.join(ALL_KINDS)}, or leave "
                                 f"--only out for all", param_hint="--only")
    unknown = [k for k in kinds if k not in ALL_KINDS + ON_REQUEST]
    if unknown:
        raise click.BadParameter(f"unknown {', '.join(unknown)}; choose from {', '.join(ALL_KINDS)}",
                                 param_hint="--only")
    return kinds


@click.command("build")
@click.option("--game", "games", multiple=True, help="Only this game (repeatable). Default: all.")
@click.option("--lang", "langs", type=LANGUAGE, multiple=True,
              help="Only this language (repeatable). Default: all of each game.")
@click.option("--only", default=None, help="Comma-separated: rulebook,cards,reference,counters,maps,site "
              "(and changes, with --changes-since). Default: all.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="Paper for card sheets.")
@click.option("--book", type=click.Choice(["a4", "a5", "letter"]), default=None,
              help="Page size of the rulebook.  [default: a4; a5 with --booklet]")
@click.option("--booklet", is_flag=True,
              help="Also write rulebook-booklet.pdf: the A5 rulebook two pages up on A4, in order to fold and staple.")
@click.option("--bleed", is_flag=True, help="Also write cards-bleed.pdf and counters-bleed.pdf: one card or counter face "
                   "per page with 3 mm bleed.")
@click.option("--print-shop", "print_shops", metavar="PRESET", multiple=True,
              help="Also write the cards, and the counters where the printer has a product for them, as a "
                   "print-on-demand printer takes them (print-shops.yaml: "
                   "drivethrucards, thegamecrafter, makeplayingcards). Repeatable.")
@click.option("--no-drafts", is_flag=True, help="Leave cards marked incomplete (DRAFT) out of the card sheets.")
@click.option("--no-notes", is_flag=True, help="Leave the rules' notes (designer's, translator's, editor's) out of the rulebook.")
@click.option("--no-images", is_flag=True, help="Skip card PNGs and Tabletop Simulator sheets.")
@click.option("--jobs", "workers", type=click.IntRange(min=1), default=None,
              help="Parallel workers, 1 or more (default: CPU cores).")
@click.option("--strict", is_flag=True, help="Fail on warnings (e.g. card text that does not fit).")
@click.option("--force", is_flag=True, help="Rebuild everything asked for, even what has not changed since the last "
              "build (files made with other options stay; 'rulesmith clean' removes them).")
@click.option("--changes-since", "changes_since", metavar="REF", default=None,
              help="Also write changes.pdf, the errata sheet of what changed since REF (a git tag or revision), "
                   "in each language; bar the changes in the rulebook's margin, mark the changed cards and "
                   "counters with the version, and add the site's page of what changed.")
@click.option("--site-url", envvar="RULESMITH_SITE_URL", default="", metavar="URL",
              help="Where the site is published (https://...): pages get absolute canonical and language links.")
@click.option("--quiet", "-q", is_flag=True, help="Say only what needs the user: warnings, errors and files removed "
              "(no line per document, no progress bar).")
@click.pass_obj
def command(ctx, games, langs, only, paper, book, booklet, bleed, print_shops, no_drafts, no_notes, no_images, workers,
            strict, force, changes_since, site_url, quiet) -> None:
    """Build print-and-play PDFs and the site into output/."""
    project = ctx.project
    if booklet and book not in (None, "a5"):
        raise click.BadParameter(f"a booklet folds an A5 book in half on A4, not an {book.upper()} one; "
                                 "leave --book out or write --book a5", param_hint="'--booklet'")
    book = book or ("a5" if booklet else "a4")
    names = project.resolve_games(games)
    kinds = _with_changes(project, names, _kinds(only), changes_since)
    project.resolve_languages(names, langs)
    print_shops = tuple(sorted(set(print_shops)))
    for name in print_shops:
        _known_shop(project, name)
    with output_held(project.output):
        failed = build(project, names, kinds, bool(games), list(langs) or None, workers, force,
                       dict(paper=paper, book=book, booklet=booklet, bleed=bleed, print_shops=print_shops,
                            images=not no_images, drafts=not no_drafts,
                            notes=not no_notes, changes_since=changes_since), strict, site_url=site_url,
                       quiet=quiet)
    if failed:
        sys.exit(1)


def _with_changes(project, names, kinds: list[str], since: str | None) -> list[str]:
    """The kinds to build with the errata sheet when --changes-since names an older version
    (git must know it for every game built: a usage error otherwise)."""
    if since is None:
        if "changes" in kinds:
            raise click.BadParameter("changes (the errata sheet) needs the older version: add --changes-since REF",
                                     param_hint="--only")
        return kinds
    from ..changes.versions import revision

    for name in names:
        revision(project.root, name, since)
    return kinds if "changes" in kinds else [*kinds, "changes"]


def _known_shop(project, name: str) -> None:
    """A --print-shop that names no preset of the project's (or Rulesmith's) print-shops.yaml
    is a usage error."""
    from ..print.context import PACKAGE_TEMPLATES
    from ..print.printshop import presets

    try:
        known = presets([project.templates, PACKAGE_TEMPLATES])
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--print-shop")
    if name not in known:
        raise click.BadParameter(f"unknown preset '{name}'; choose from {', '.join(known) or 'none'} "
                                 f"(templates/print-shops.yaml)", param_hint="--print-shop")


DEFAULT_OPTIONS = dict(paper="a4", book="a4", booklet=False, bleed=False, print_shops=(), images=True, drafts=True,
                       notes=True, changes_since=None)


def build(project, names, kinds, partial, langs, workers, force, options, strict,
          report: Report | None = None, skip_invalid: bool = False, site_url: str = "", quiet: bool = False) -> bool:
    """The build itself, under the output lock. True if it failed. With `report` the caller
    prints the diagnostics; with `skip_invalid` games with errors are left as they were and
    the others built (what `serve` does)."""
    own_report = report is None
    report = Report() if report is None else report
    run = _Build(project, _prepared_output(project, force), Inputs(project), report, quiet=quiet)
    with _fonts_ahead(run, kinds):
        # the document modules (WeasyPrint with them) are imported while the first games validate
        valid = _validated(run, names, meanwhile=registry)
        if skip_invalid and valid != list(names):
            names, partial = valid, True
        elif report.errors:
            click.echo(render(report, "text", project.root), err=True)
            click.echo("error: content has errors; nothing built", err=True)
            return True
        # the rules checker runs once per game: its tables feed the reference sheets and the site,
        # its examples' verdicts the rulebook marks and the site
        if not _checked(run, names, tables=bool({"reference", "site"} & set(kinds)),
                        examples=bool({"rulebook", "site", "changes"} & set(kinds))):
            return True
        run.games.clear()  # the workers load what they lay out; forked, they would carry these too
        jobs, skipped = _planned(run, names, langs, kinds, options)
        _remove_gone(run, _Asked(names, partial, langs, kinds, options),
                     {job for job, _key, _state in jobs} | set(skipped))
        site = (_SiteRequest(names, partial, langs, site_url, bool(options.get("changes_since")))
                if "site" in kinds else None)
        with _older_read(run.project, jobs, options.get("changes_since")) as jobs:
            failed = _made(run, jobs, skipped, workers, site)
    run.manifest.save()
    if report.diagnostics and own_report:
        click.echo(render(report, "text", project.root), err=True)
    for result in failed:
        click.echo(f"error: {result.job.label}: {result.error}", err=True)
    return bool(failed) or report.failed(strict)


@contextmanager
def _fonts_ahead(run: "_Build", kinds) -> Iterator[None]:
    """The site's font pieces cut from the start, beside validation and the checks
    (webfonts.FontsAhead, as `run.fonts`); the child is stopped if the build ends before the
    site is finished."""
    if "site" not in kinds:
        yield
        return
    from ..site.webfonts import FontsAhead

    run.fonts = FontsAhead(run.project.output)
    try:
        yield
    finally:
        run.fonts.stop()


@contextmanager
def _older_read(project, jobs: list[tuple[Job, str, str]], ref: str | None) -> Iterator[list[tuple[Job, str, str]]]:
    """The jobs, each given its game as it was at --changes-since REF: read from git once per
    game for all the documents that mark what changed (the same commit for each), removed
    once they are made."""
    if ref is None or not jobs:
        yield jobs
        return
    from ..changes.versions import from_git

    with ExitStack() as stack:
        older = {game: stack.enter_context(from_git(project.root, game, ref))
                 for game in dict.fromkeys(job.game for job, _key, _state in jobs)}
        yield [(replace(job, older=older[job.game]), key, state) for job, key, state in jobs]


@dataclass
class _Build:
    """What the steps of one build share: the project, what the last build made (`manifest`),
    the inputs' hashes, the diagnostics so far, and the rules checker's results per game."""

    project: Project
    manifest: Manifest
    inputs: Inputs
    report: Report
    verified: dict[str, dict[str, bool]] = field(default_factory=dict)
    games: dict = field(default_factory=dict)  # each game as validation loaded it, for the steps after
    removed: list[str] = field(default_factory=list)  # a line for each file removed, not yet said
    fonts: object = None  # the site's font pieces being cut (webfonts.FontsAhead), when the site is built
    quiet: bool = False  # no line per document, no progress bar


@dataclass(frozen=True)
class _SiteRequest:
    """The site as the build was asked for it: these games (and with `partial` the others kept
    as they are), these languages, published at `site_url`."""

    names: list[str]
    partial: bool
    langs: list[str] | None
    site_url: str
    changes: bool = False  # --changes-since: each game's page of what changed


def _prepared_output(project, force: bool) -> Manifest:
    """output/ tidied for a build (writes kept inside it, half-written files of an interrupted
    build removed, each said) and what the last build made; with `force` nothing of that is
    taken as made but the files stay known (manifest.forced), and what earlier layouts found is
    forgotten."""
    outputs.confine_to(project.output)
    outputs.remove_stale_temps(project.output, tell)
    keptstate.tidy(project.output)
    if force:  # what earlier layouts found is worked out again too
        for kept in ("fit.json", "layout.json", "images.json", "pages.json", "chunks"):
            outputs.discard(keptstate.folder(project.output) / kept)
    manifest = Manifest.load(project.output)
    if manifest.damaged:
        keptstate.damaged(manifest.path, manifest.why, "building everything again")
    elif force:
        manifest.forced([*KINDS, "tables"])
    return manifest


def tell(line: str) -> None:
    """A line for the user beside those of the documents made (stderr on a terminal, where the
    progress bar is, else stdout)."""
    click.echo(line, err=Console(stderr=True).is_terminal)


def _validated(run: _Build, names, meanwhile: Callable[[], object] | None = None) -> list[str]:
    """The games whose content has no errors; validated first: never build from broken content.
    Each game's checks run in a child of their own (trial.py), the next games' started while
    the first is waited for, and this process does `meanwhile` (work for after validation)
    before it first waits for one (or at the end, when none runs); the diagnostics come in the
    games' order."""
    from ..checker.bounded import ahead

    valid = []
    for name, started in ahead(names, lambda name: _Validation.start(run.project, name, run.manifest, run.inputs)):
        if meanwhile is not None and started.pending is not None:
            meanwhile()
            meanwhile = None
        errors = len(run.report.errors)
        game = started.finish(run.manifest, run.report)
        if len(run.report.errors) == errors:
            valid.append(name)
            if game is not None:
                run.games[name] = game
    if meanwhile is not None:
        meanwhile()
    return valid


def _planned(run: _Build, names, langs, kinds, options) -> tuple[list[tuple[Job, str, str]], list[Job]]:
    """(the documents to make, each with its manifest key and inputs' state; the documents as
    the last build made them, whose warnings are repeated)."""
    documents = registry()
    jobs, skipped = [], []
    for job in plan(run.project, names, langs, [k for k in kinds if k in documents], run.verified, **options):
        key = f"{job.kind}:{job.game}/{job.lang}"
        state = _job_state(run, documents[job.kind], job)
        entry = run.manifest.get(key)
        if run.manifest.fresh(key, state):
            load_diagnostics(entry.get("diagnostics", []), run.report)
            skipped.append(job)
            continue
        previous = Source.recorded(entry) if entry and run.manifest.intact(key) else Source()
        cost = (entry or {}).get("seconds", 0.0)  # kept state is data to check: a number of seconds, or unknown
        cost = float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) and cost >= 0 else 0.0
        jobs.append((job.__class__(**{**job.__dict__, "previous": previous, "cost": cost}), key, state))
    return jobs, skipped


@dataclass(frozen=True)
class _Asked:
    """The documents a build was asked for: of these games (with `partial`, only these; else
    every game of the project), these languages (None: all of each game), these kinds, with
    these options."""

    names: list[str]
    partial: bool
    langs: list[str] | None
    kinds: list[str]
    options: dict


def _remove_gone(run: _Build, asked: _Asked, planned: set[Job]) -> None:
    """The files earlier builds made of a document asked for whose content is gone (a game no
    longer in content/, a language the game no longer has) are removed, each said; only those
    of the outputs this build's options ask for (the others stay until `rulesmith clean`)."""
    made = {f"{job.kind}:{job.game}/{job.lang}" for job in planned}
    games = set(run.project.game_ids())
    for key in list(run.manifest.entries):
        kind, _, where = key.partition(":")
        game, _, lang = where.partition("/")
        if kind not in asked.kinds or kind not in KINDS or not lang or key in made:
            continue
        if game in games and (game not in asked.names or (asked.langs and lang not in asked.langs)):
            continue  # not asked for
        if game not in games and asked.partial:
            continue
        why = f"{lang} is no longer a language of {game}" if game in games else f"{game} is no longer in content/"
        job = Job(run.project.root, game, lang, kind, **asked.options)
        removed, kept = run.manifest.remove_left(key, [], asked_for(run.manifest, job))
        run.removed += [f"removed {outputs.shown(path)}: {why}" for path in removed]
        if kept:
            run.manifest.entries[key] = {"inputs": "", "files": {}, "kept": kept}
        else:
            run.manifest.forget(key)
    for line in run.removed:
        tell(line)
    run.removed.clear()


def _job_state(run: _Build, document, job: Job) -> str:
    """What a document is made from: the game's files in its language, its templates and
    options, and the checker's tables and examples if it shows them."""
    return digest(Inputs.common(), Inputs.weasyprint(), job.kind, document.options(job),
                  run.inputs.game(job.game, job.lang), run.inputs.templates(job.game, document.templates),
                  run.inputs.tables(job.game) if document.reads_tables else "",
                  sorted((run.verified.get(job.game) or {}).items()) if document.reads_examples else "")


def _made(run: _Build, jobs, skipped: list[Job], workers, site: _SiteRequest | None) -> list:
    """Make the documents and, on the same workers, each game-language folder of the site once
    the documents of its game and language are done; then the rest of the site (its downloads,
    what the games share, the search index). Each told to the user (a progress bar on a
    terminal); the jobs that failed."""
    console = Console(stderr=True)
    failed: list = []
    states = {job: (key, state) for job, key, state in jobs}
    built = _site_build(run, site) if site else None
    languages = built.languages() if built else []  # the site's work for the workers

    def say(line: str) -> None:
        console.print(line, highlight=False, markup=False) if console.is_terminal else click.echo(line)

    def tell_removed() -> None:  # said even with --quiet: files of the user's that went
        for line in run.removed:
            say(line)
        run.removed.clear()

    # the search index made beside the last documents, once the pages are
    with built.indexing_ahead() if built is not None else nullcontext(), \
            Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("documents"),
                     PagesPerSecond(), TimeRemainingColumn(), TimeElapsedColumn(),
                     console=console, transient=True, disable=run.quiet or not console.is_terminal) as progress:
        task = progress.add_task("building", total=len(jobs) + len(languages) + (1 if site else 0), pages=0)

        def done(result) -> None:
            if not isinstance(result.job, Job):  # the site's work: a game-language folder
                progress.update(task, advance=1, description=result.job.label)
                if result.fault is not None:
                    raise result.fault
                if not built.take(result):
                    failed.append(result)
                return
            pages = progress.tasks[0].fields["pages"] + (result.pages or 0)
            progress.update(task, advance=1, pages=pages, description=result.job.label)
            if _finished(run, result, states[result.job]):
                if not run.quiet:
                    say(_made_line(result))
            else:
                failed.append(result)
            tell_removed()

        def admit(work) -> bool:  # a folder as the last build made it counts as done
            if built.admit(work):
                return True
            progress.advance(task)
            return False

        if built is not None:
            built.on_page = None if run.quiet else _page_line(say)
        if jobs or languages:
            run_jobs([job for job, _key, _state in jobs], workers, done, later=languages, admit=admit)
        if skipped and not run.quiet:
            say(f"unchanged: {len(skipped)} document{'s' if len(skipped) != 1 else ''}")
        if built is not None:
            progress.update(task, description="site")
            if run.fonts is not None:
                run.fonts.wait()  # the font pieces, cut beside validation: finish() copies them in
            _finish_site(run, built, (lambda line: None) if run.quiet else say)
            progress.advance(task)
    return failed


class PagesPerSecond(ProgressColumn):
    """Pages laid out per second so far, across every worker."""

    def render(self, task) -> Text:
        elapsed = task.elapsed or 0
        pages = task.fields.get("pages", 0)
        return Text(f"{pages / elapsed:.1f} pages/s" if elapsed > 0.5 and pages else "– pages/s", style="progress.data.speed")


def _finished(run: _Build, result: JobResult, key_state: tuple[str, str]) -> bool:
    """Take in a job's result: its diagnostics, and what it made, remembered. False if the job
    failed; a fault of the machine (a full disk) ends the build."""
    run.report.diagnostics.extend(result.diagnostics)
    if result.fault is not None:
        raise result.fault  # the CLI says it in one line; the pool's other workers stop
    if result.error:
        return False
    run.removed += record(run.manifest, *key_state, result)
    return True


def _made_line(result: JobResult) -> str:
    """What the user is told of a document made: its pages and cards (or counters), or that it
    is the same as before."""
    if result.unchanged:
        return f"{result.job.label}: same as before ({result.seconds:.1f} s)"
    pieces = "counters" if result.job.kind == "counters" else "cards"
    extra = f", {result.cards} {pieces}" if result.cards else ""
    return f"{result.job.label}: {page_count(result.pages)}{extra} in {result.seconds:.1f} s"


def _site_build(run: _Build, site: _SiteRequest):
    """The site as asked for; with `partial` the games not asked for keep their folders."""
    from ..site.build import SiteBuild

    project = run.project
    return SiteBuild.of(project, project.game_ids() if site.partial else site.names, run.report,
                        only=set(site.names) if site.partial else None, manifest=run.manifest, inputs=run.inputs,
                        verified=run.verified, langs=site.langs, site_url=site.site_url, changes=site.changes)


def _page_line(say: Callable[[str], None]) -> Callable[[str, int, float], None]:
    """What the user is told of a game-language folder of the site made."""
    return lambda label, pages, seconds: say(f"{label}: {page_count(pages)} in {seconds:.1f} s")


def _finish_site(run: _Build, built, say: Callable[[str], None]) -> None:
    """The site's downloads (the documents are done), what the games share, the search index."""
    result = built.finish()
    say(f"site: {page_count(result.pages)} ({len(result.rebuilt or [])} folders rebuilt) in {result.seconds:.1f} s"
        f" -> {result.root.relative_to(run.project.root)}")


def record(manifest: Manifest, key: str, state: str, result: JobResult) -> list[str]:
    """Remember what the job made. Of the files earlier builds made that this one did not,
    those of the outputs it was asked for are removed (what they were made from is gone: a
    deck, a card, a preset's product) and the others kept (files of other options: --bleed,
    another --print-shop...). A line for the user per file removed."""
    before = manifest.get(key) or {"files": {}}
    if result.unchanged:
        files = [manifest.output / rel for rel in before["files"]]
        pages, cards = before.get("pages", 0), before.get("cards", 0)
    else:
        files, pages, cards = result.files, result.pages, result.cards
    removed, kept = manifest.remove_left(key, files, asked_for(manifest, result.job))
    seconds = before.get("seconds", 0.0) if result.unchanged else round(result.cpu, 2)  # what it costs to make
    manifest.record(key, state, files, source=result.source, reads=list(result.reads), pages=pages, cards=cards,
                    seconds=seconds,
                    diagnostics=save_diagnostics(Report(list(result.diagnostics))), **({"kept": kept} if kept else {}))
    manifest.save()
    lines = [f"removed {outputs.shown(path)}: an earlier build made it; {result.job.label} makes it no more"
             for path in removed]
    newly = sorted(set(kept) - set(before.get("kept", {})))
    if newly:  # said once, when they stop being brought up to date
        more = f" and {len(newly) - 1} more" if len(newly) > 1 else ""
        lines.append(f"{result.job.label}: kept {newly[0]}{more}, made with other options and not made again "
                     f"by this build ('rulesmith clean {result.job.game}' removes them)")
    return lines


def asked_for(manifest: Manifest, job: Job) -> Callable[[str], bool]:
    """Whether a file an earlier build made (its path inside output/) belongs to an output
    `job` makes: the document itself or one its options ask for (output_layout.variant)."""
    variants = registry()[job.kind].variants(job)
    folder = f"{job.game}/{job.lang}/"
    return lambda rel: not rel.startswith(folder) or variant(rel[len(folder):]) in variants


SETTINGS = ("print.yaml", "sheets.yaml")


def validate(project, name: str, manifest: Manifest, inputs: Inputs, report: Report):
    """Validate a game, unless its files are those the last build validated (then its
    warnings are repeated from then). The game as loaded, or None (not loaded)."""
    return _Validation.start(project, name, manifest, inputs).finish(manifest, report)


@dataclass
class _Validation:
    """A game's validation under way: its checks started (`PendingChecks`), or its warnings
    as the last build found them when its files are those that build validated (`game` None)."""

    key: str
    state: str
    report: Report
    fresh: bool = False  # validated by the last build: nothing runs
    game: object = None
    pending: object = None  # checks/trial.py's PendingChecks

    @classmethod
    def start(cls, project, name: str, manifest: Manifest, inputs: Inputs) -> "_Validation":
        # the project's print.yaml and sheets.yaml are validated with each game
        started = cls(f"validate:{name}", digest(Inputs.common(), inputs.game(name), inputs.templates(name, SETTINGS)),
                      Report())
        if manifest.fresh(started.key, started.state):
            load_diagnostics(manifest.get(started.key)["diagnostics"], started.report)
            started.fresh = True
            return started
        from ..checks.trial import PendingChecks

        started.game = project.read(name, started.report)
        if started.game is not None:
            started.pending = PendingChecks(started.game)
        return started

    def finish(self, manifest: Manifest, report: Report):
        """Wait for the checks; the diagnostics go to `report`, the verdict to the manifest.
        The game as loaded, or None (not loaded)."""
        if self.pending is not None:
            self.game.check_result = self.pending.finish(self.report)
        report.diagnostics.extend(self.report.diagnostics)
        if self.fresh:
            return None
        if self.report.errors:
            manifest.forget(self.key)
        else:
            manifest.record(self.key, self.state, [], diagnostics=save_diagnostics(self.report))
        return self.game


def _loaded(project, name: str, games: dict):
    """The game as this build loaded it already, else loaded now (and kept for the next step):
    a large game is read once, not once for each step before its documents."""
    if name not in games:
        games[name] = project.load(name, Report(), checks=False)
    return games[name]


def _checked(run: _Build, names, tables: bool, examples: bool) -> bool:
    """The checker's probability tables (`tables`) and the examples' verdicts (`examples`,
    into run.verified) of each game, each kept while the game's files are the same. A game's
    tables and its examples each run in a bounded child of their own, started side by side
    and ahead (bounded.py: as many games ahead as there are cores), then waited for in the
    games' order. False if a procedure failed."""
    from ..checker.bounded import ahead

    failed = False

    def started(name: str):
        return (_tables_started(run, name) if tables and not failed else None,
                _examples_started(run, name) if examples else None)

    for name, (written, verdicts) in ahead(names, started):
        if written is not None and not written():
            failed = True
        if verdicts is not None:  # waited for even after a failure: no child is left behind
            run.verified[name] = verdicts()
    return not failed


def _examples_started(run: _Build, name: str) -> Callable[[], dict[str, bool]] | None:
    """The game's examples' verdicts: as the last build found them while its files are the
    same, else started now (see jobs.examples_started); calling the result waits for them
    and records them. None: the game could not be loaded."""
    from ..print.jobs import examples_started

    key, state = f"examples:{name}", digest(Inputs.common(), "examples", run.inputs.game(name))
    if run.manifest.fresh(key, state):
        kept = run.manifest.get(key)["examples"]
        return lambda: kept
    started = time.perf_counter()
    game = _loaded(run.project, name, run.games)
    if game is None:
        return None
    wait = examples_started(game)

    def verdicts() -> dict[str, bool]:
        found = wait()
        run.manifest.record(key, state, [], examples=found, seconds=round(time.perf_counter() - started, 3))
        return found
    return verdicts


def _tables_started(run: _Build, name: str) -> Callable[[], bool]:
    """The game's probability tables, for the reference sheets and the site: kept while its
    files are the same, else started now (checker.tables.tables_started); calling the result
    waits for them and records them. False: a procedure failed (said on stderr)."""
    from ..checker.tables import tables_started

    key, state = f"tables:{name}", digest(Inputs.common(), "tables", run.inputs.game(name))
    if run.manifest.fresh(key, state):
        return lambda: True
    game = _loaded(run.project, name, run.games)
    if game is None or not (game.folder / "procedures.py").exists():
        run.manifest.record(key, state, [])
        return lambda: True
    wait = tables_started(game, run.project.output)

    def written() -> bool:
        try:
            files = wait()
        except OSError:  # the disk, not the procedure: the CLI says what to do
            raise
        except Exception as exc:  # a procedure bug: `rulesmith check` shows the details
            click.echo(f"error: {name}: probability tables failed: {exc} (run 'rulesmith check {name} --tables')",
                       err=True)
            return False
        run.manifest.remove_left(key, files)
        run.manifest.record(key, state, files)
        return True
    return written


def page_count(n: int) -> str:
    """'1 page', '19 pages'."""
    return f"{n} page" if n == 1 else f"{n} pages"
