"""`rulesmith build`: PDFs (rulebook, card sheets, reference sheet) for every game and language."""

from __future__ import annotations

import sys

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..print.jobs import KINDS, plan, run_jobs
from ..diagnostics import Report, render

ALL_KINDS = (*KINDS, "site")


def _kinds(value: str | None) -> list[str]:
    if not value:
        return list(ALL_KINDS)
    kinds = [k.strip() for k in value.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in ALL_KINDS]
    if unknown:
        raise click.BadParameter(f"unknown {', '.join(unknown)}; choose from {', '.join(ALL_KINDS)}",
                                 param_hint="--only")
    return kinds


@click.command("build")
@click.option("--game", "games", multiple=True, help="Only this game (repeatable). Default: all.")
@click.option("--lang", "langs", multiple=True, help="Only this language (repeatable). Default: all of each game.")
@click.option("--only", default=None, help="Comma-separated: rulebook,cards,reference,counters,maps,site. Default: all.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="Paper for card sheets.")
@click.option("--book", type=click.Choice(["a4", "a5", "letter"]), default="a4", show_default=True,
              help="Page size of the rulebook.")
@click.option("--bleed", is_flag=True, help="Also write cards-bleed.pdf: one card per page with 3 mm bleed.")
@click.option("--no-images", is_flag=True, help="Skip card PNGs and Tabletop Simulator sheets.")
@click.option("--jobs", "workers", type=int, default=None, help="Parallel workers (default: CPU cores).")
@click.option("--strict", is_flag=True, help="Fail on warnings (e.g. card text that does not fit).")
@click.pass_obj
def command(ctx, games, langs, only, paper, book, bleed, no_images, workers, strict) -> None:
    """Build print-and-play PDFs and the site into output/."""
    project = ctx.project
    names = project.resolve_games(games)
    kinds = _kinds(only)
    report = Report()
    for name in names:  # validate first: never build from broken content
        project.load(name, report)
    if report.errors:
        click.echo(render(report, "text", project.root), err=True)
        click.echo("error: content has errors; nothing built", err=True)
        sys.exit(1)
    if {"reference", "site"} & set(kinds):
        _write_probability_tables(project, names)
    pdf_kinds = [k for k in kinds if k in KINDS]
    verified = _verified(project, names) if "rulebook" in kinds else None  # once per game, not per document
    jobs = plan(project, names, list(langs) or None, pdf_kinds, verified, paper=paper, book=book, bleed=bleed,
                images=not no_images)
    console = Console(stderr=True)
    failed = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=not console.is_terminal) as progress:
        task = progress.add_task("building PDFs", total=len(jobs))

        def done(result):
            progress.advance(task)
            if result.error:
                failed.append(result)
            report.diagnostics.extend(result.diagnostics)

        results = run_jobs(jobs, workers, done) if jobs else []
    for result in results:
        if not result.error:
            pieces = "counters" if result.job.kind == "counters" else "cards"
            extra = f", {result.cards} {pieces}" if result.cards else ""
            click.echo(f"{result.job.label}: {result.pages} pages{extra} in {result.seconds:.1f} s")
    if "site" in kinds:
        from ..site.build import build_site

        partial = bool(games) and (project.output / "site").is_dir()  # --game: rebuild those games only
        site = build_site(project, project.game_ids() if partial else names, report,
                          only=set(names) if partial else None)
        click.echo(f"site: {site.pages} pages in {site.seconds:.1f} s -> {site.root.relative_to(project.root)}")
    if report.diagnostics:
        click.echo(render(report, "text", project.root), err=True)
    for result in failed:
        click.echo(f"error: {result.job.label}: {result.error}", err=True)
    if failed or report.failed(strict):
        sys.exit(1)


def _write_probability_tables(project, names) -> None:
    """The checker's probability tables, for the reference sheets and the site."""
    from ..checker.tables import write_tables

    for name in names:
        game = project.load(name, Report(), checks=False)
        if game is None or not (game.folder / "procedures.py").exists():
            continue
        try:
            write_tables(game, project.output)
        except Exception as exc:  # a procedure bug: `rulesmith check` shows the details
            click.echo(f"error: {name}: probability tables failed: {exc} (run 'rulesmith check {name} --tables')",
                       err=True)
            sys.exit(1)


def _verified(project, names) -> dict[str, dict[str, bool]]:
    from ..print.jobs import _verified as verified_examples

    out = {}
    for name in names:
        game = project.load(name, Report(), checks=False)
        if game is not None:
            out[name] = verified_examples(game)
    return out
