"""The site is built while the documents are: each game-language folder's pages are made by a
worker of the build once the documents of that game and language are done, while other
documents are still being made; what needs the PDFs (the downloads) comes after them all, and
a PDF that changed is copied in again without making the pages again. A document made again
over its PDF does not hold its pages back, nor the search index made after them."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from generator import outputs
from generator.commands.build import DEFAULT_OPTIONS, build
from generator.core.diagnostics import Report
from generator.outputs.layout import SITE_SEARCH_NEW
from generator.project import Project
from generator.commands.new import scaffold

from .conftest import Workspace


def _build(root: Path, kinds: list[str], workers: int, **options) -> Report:
    report = Report()
    project = Project(root)
    failed = build(project, project.game_ids(), kinds, False, None, workers, False, {**DEFAULT_OPTIONS, **options},
                   False, report=report, quiet=True)
    outputs.confine_to(None)
    assert not failed, report.diagnostics
    return report


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_ino, stat.st_mtime_ns


def test_a_games_pages_are_made_by_a_worker_while_another_games_document_waits(tmp_path: Path, monkeypatch):
    """Two games, two workers: the other game's rulebook waits (up to a minute) until demo's
    pages are being made. Only a build that makes a game's pages once its own documents are
    done, on a worker, while the other documents are still at work, lets it go on in time. The
    site's font pieces are cut beside it too, in a child of their own (webfonts.FontsAhead)."""
    import generator.print.jobs as jobs
    import generator.site.language as language
    import generator.site.webfonts as webfonts

    Workspace(tmp_path)
    scaffold(tmp_path / "content" / "other", "other", "Other")
    started, seen = tmp_path / "demo-site-started", tmp_path / "other-rulebook-saw"
    run_job, make_pages = jobs.run_job, language.make_pages

    def held(job):  # runs in a worker, forked after this was put in place
        if job.game == "other":
            deadline = time.monotonic() + 60
            while not started.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            seen.write_text("site" if started.exists() else "nothing")
        return run_job(job)

    def marked(work, game, *args):
        if work.game == "demo":
            started.write_text(str(os.getpid()))
        return make_pages(work, game, *args)

    cut, cutters = webfonts.cut, tmp_path / "font-cutters"

    def noted(piece):
        with cutters.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return cut(piece)

    monkeypatch.setattr(jobs, "run_job", held)
    monkeypatch.setattr(language, "make_pages", marked)
    monkeypatch.setattr(webfonts, "cut", noted)
    monkeypatch.setattr(webfonts, "_CUT", {})  # none held by this process nor shipped: they are cut
    monkeypatch.setattr(webfonts, "SHIPPED", tmp_path / "none shipped")
    _build(tmp_path, ["rulebook", "site"], workers=2)
    assert seen.read_text() == "site"  # demo's pages were under way while other's rulebook was still to make
    assert int(started.read_text()) != os.getpid()  # on a worker, not in the build's own process
    assert {int(pid) for pid in cutters.read_text().split()} - {os.getpid()}  # the font pieces too
    assert str(os.getpid()) not in cutters.read_text().split()
    site = tmp_path / "output" / "site"
    for game in ("demo", "other"):
        assert 'href="downloads/rulebook.pdf"' in (site / game / "en" / "index.html").read_text(encoding="utf-8")
        assert (site / game / "en" / "downloads" / "rulebook.pdf").read_bytes() == \
            (tmp_path / "output" / game / "en" / "rulebook.pdf").read_bytes()


def test_a_changed_pdf_is_copied_in_again_without_making_the_pages(tmp_path: Path, monkeypatch):
    import generator.site.language as language

    from generator.print.context import PACKAGE_TEMPLATES

    Workspace(tmp_path)
    (tmp_path / "templates").mkdir()  # the project's own templates (none yet)
    _build(tmp_path, ["rulebook", "site"], workers=1)
    out = tmp_path / "output"
    folder = out / "site" / "demo" / "en"
    index, download = folder / "index.html", folder / "downloads" / "rulebook.pdf"
    before = _stamp(index), download.read_bytes()
    made: list[str] = []
    real = language.game_pages
    monkeypatch.setattr(language, "game_pages", lambda ctx, *a, **k: made.append(ctx.lang) or real(ctx, *a, **k))

    styled = tmp_path / "templates" / "rulebook.css"  # the rulebook's own style: the site's pages are as they were
    styled.write_text((PACKAGE_TEMPLATES / "rulebook.css").read_text(encoding="utf-8") + "\nh1 { color: #123456; }\n",
                      encoding="utf-8")
    _build(tmp_path, ["rulebook", "site"], workers=1)
    assert made == []  # the pages were not made again
    assert _stamp(index) == before[0]
    assert download.read_bytes() == (out / "demo" / "en" / "rulebook.pdf").read_bytes() != before[1]
    entry = json.loads((out / ".rulesmith" / "manifest.json").read_text(encoding="utf-8"))["entries"]["site:demo/en"]
    assert "site/demo/en/downloads/rulebook.pdf" in entry["files"] and "site/demo/en/index.html" in entry["files"]

    stamp = _stamp(download)
    _build(tmp_path, ["rulebook", "site"], workers=1)  # nothing changed: nothing written
    assert made == [] and _stamp(download) == stamp


def test_the_landing_page_lists_the_documents_the_build_made(tmp_path: Path):
    """A site built before any document offers none; a build that makes the rulebook makes its
    language's pages again once the rulebook is done, and they offer it (two workers: the
    pages wait for the document of their game and language)."""
    Workspace(tmp_path)
    _build(tmp_path, ["site"], workers=2)
    index = tmp_path / "output" / "site" / "demo" / "en" / "index.html"
    assert "downloads/" not in index.read_text(encoding="utf-8")
    _build(tmp_path, ["rulebook", "site"], workers=2)
    assert 'href="downloads/rulebook.pdf"' in index.read_text(encoding="utf-8")
    assert (index.parent / "downloads" / "rulebook.pdf").is_file()


def _held_until(marker: Path, seen: Path, game: str, kind: str):
    """A run_job that holds `game`'s `kind` document (in its worker) until `marker` exists (up to
    a minute), writing to `seen` whether it did."""
    import generator.print.jobs as jobs

    run_job = jobs.run_job

    def held(job):
        if (job.game, job.kind) == (game, kind):
            deadline = time.monotonic() + 60
            while not marker.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            seen.write_text("yes" if marker.exists() else "no")
        return run_job(job)
    return held


def test_a_document_made_again_over_its_pdf_has_its_pages_and_the_search_index_made_beside_it(
        tmp_path: Path, monkeypatch):
    """The rulebook and the site, then a summary edited: both are made again. The rulebook was
    made before, so the pages (which only list the downloads there are) need not wait for it:
    the rulebook is held until the search index, made after the last pages, has started, and
    goes on in time only where the pages and the index are made beside it. The index is whole
    and swapped in; nothing of the index under way is left."""
    import generator.print.jobs as jobs
    from generator.site import search

    ws = Workspace(tmp_path)
    _build(tmp_path, ["rulebook", "site"], workers=2)
    site = tmp_path / "output" / "site"
    entry = (site / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8")
    started, seen = tmp_path / "index-started", tmp_path / "rulebook-saw"
    real = search.Indexing.start.__func__

    def marked(cls, site, into=None):
        indexing = real(cls, site, into)
        started.write_text("started")
        return indexing

    monkeypatch.setattr(jobs, "run_job", _held_until(started, seen, "demo", "rulebook"))
    monkeypatch.setattr(search.Indexing, "start", classmethod(marked))
    ws.edit("game.yaml", "summary: A skirmish game for two players.", "summary: A skirmish game for two sides.")
    _build(tmp_path, ["rulebook", "site"], workers=2)
    assert seen.read_text() == "yes"  # the index was under way while the rulebook was still to make
    index = (site / "demo" / "en" / "index.html").read_text(encoding="utf-8")
    assert "two sides" in index and 'href="downloads/rulebook.pdf"' in index
    assert (site / "demo" / "en" / "downloads" / "rulebook.pdf").read_bytes() == \
        (tmp_path / "output" / "demo" / "en" / "rulebook.pdf").read_bytes()
    assert (site / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8") != entry  # indexed again
    assert list((site / "pagefind").glob("pagefind.js")) and not (site / SITE_SEARCH_NEW).exists()


def test_pages_made_beside_a_document_whose_pdf_then_goes_are_made_again(tmp_path: Path, monkeypatch):
    """The pages start beside the rulebook made again over its PDF; that layout then finds an
    error, so the rulebook goes to rulebook.layout-errors.pdf and rulebook.pdf is removed. The
    pages, made while it was there, are made again once the documents are done: the landing
    page offers no rulebook and the site has no copy of it."""
    import generator.print.jobs as jobs
    import generator.print.pdf as pdf
    from generator.core.diagnostics import Diagnostic, Location
    import generator.site.language as language

    ws = Workspace(tmp_path)
    _build(tmp_path, ["rulebook", "site"], workers=2)
    started, seen = tmp_path / "pages-started", tmp_path / "rulebook-saw"
    make_pages = language.make_pages

    def marked(work, game, *args):
        if not started.exists():
            started.write_text(str(os.getpid()))
        return make_pages(work, game, *args)

    def broken(document, root, *args, **named):
        return [Diagnostic("E041", "text overlaps", Location(root / "game.yaml"))]

    monkeypatch.setattr(jobs, "run_job", _held_until(started, seen, "demo", "rulebook"))
    monkeypatch.setattr(language, "make_pages", marked)
    monkeypatch.setattr(pdf, "verify_layout", broken)
    ws.edit("game.yaml", "summary: A skirmish game for two players.", "summary: A skirmish game for two sides.")
    report = Report()
    project = Project(tmp_path)
    build(project, ["demo"], ["rulebook", "site"], False, None, 2, False, dict(DEFAULT_OPTIONS), False,
          report=report, quiet=True)
    outputs.confine_to(None)
    assert seen.read_text() == "yes"  # the pages were started while the rulebook was still to make
    assert int(started.read_text()) != os.getpid()  # on a worker: made beside the rulebook
    out = tmp_path / "output"
    assert (out / "demo" / "en" / "rulebook.layout-errors.pdf").is_file()
    assert not (out / "demo" / "en" / "rulebook.pdf").exists()
    index = (out / "site" / "demo" / "en" / "index.html").read_text(encoding="utf-8")
    assert "two sides" in index and "downloads/rulebook.pdf" not in index
    assert not (out / "site" / "demo" / "en" / "downloads" / "rulebook.pdf").exists()


def test_an_index_started_ahead_of_a_build_that_stops_is_ended_and_removed(tmp_path: Path, monkeypatch):
    """The search index starts beside the rulebook; the rulebook then meets a full disk, which
    stops the build. Pagefind is ended, and its half-made folder removed."""
    import errno

    import generator.print.jobs as jobs
    from generator.site import search

    ws = Workspace(tmp_path)
    _build(tmp_path, ["rulebook", "site"], workers=2)
    started, seen = tmp_path / "index-started", tmp_path / "rulebook-saw"
    real, ran = search.Indexing.start.__func__, []

    def marked(cls, site, into=None):
        ran.append(real(cls, site, into))
        started.write_text("started")
        return ran[-1]

    held = _held_until(started, seen, "demo", "rulebook")

    def full(job):
        held(job)
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "output"))

    monkeypatch.setattr(jobs, "run_job", full)
    monkeypatch.setattr(search.Indexing, "start", classmethod(marked))
    ws.edit("game.yaml", "summary: A skirmish game for two players.", "summary: A skirmish game for two sides.")
    project = Project(tmp_path)
    try:
        build(project, ["demo"], ["rulebook", "site"], False, None, 2, False, dict(DEFAULT_OPTIONS), False,
              report=Report(), quiet=True)
    except OSError as error:
        assert error.errno == errno.ENOSPC
    else:
        raise AssertionError("the build went on after a full disk")
    finally:
        outputs.confine_to(None)
    assert seen.read_text() == "yes" and len(ran) == 1
    assert ran[0].process.poll() is not None  # Pagefind ended, not left running
    assert not (tmp_path / "output" / "site" / SITE_SEARCH_NEW).exists()
