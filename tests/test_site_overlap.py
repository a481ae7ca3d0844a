"""The site is built while the documents are: each game-language folder's pages are made by a
worker of the build once the documents of that game and language are done, while other
documents are still being made; what needs the PDFs (the downloads) comes after them all, and
a PDF that changed is copied in again without making the pages again."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from generator import outputs
from generator.commands.build import DEFAULT_OPTIONS, build
from generator.core.diagnostics import Report
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
