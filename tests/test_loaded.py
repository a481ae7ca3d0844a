"""Games loaded once per process (project/loaded.py): a build's worker lays out several
documents of a game from one load of it. Kept while the game's files are the same; loaded
again when any of them changed, even to text of the same length; a game with errors is not
kept; one project's games at a time; and no document nor site page changes the game it is
given, so the next work of the same worker sees the game as its files say."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.core.diagnostics import Report
from generator.print.documents import KINDS
from generator.print.jobs import Job, plan, run_job
from generator.project import Project
from generator.project import loaded as kept_games
from generator.project.loaded import loaded
from generator.site.language import SiteLanguage

from .conftest import REPO, Workspace


def test_a_game_is_kept_while_its_files_are_the_same(tmp_path, monkeypatch):
    ws = Workspace(tmp_path)
    project = Project(ws.root)
    loads = []
    load = Project.load
    monkeypatch.setattr(Project, "load", lambda self, *a, **k: (loads.append(a[0]), load(self, *a, **k))[1])
    first = loaded(project, "demo", Report())
    assert loaded(Project(ws.root), "demo", Report()) is first and loads == ["demo"]

    ws.edit("data/cards.yaml", "One unit moves", "One unit waits")  # the same length
    again = loaded(project, "demo", Report())
    assert again is not first and loads == ["demo", "demo"]
    assert any("waits" in str(card.model_dump()) for card in again.section("cards").values())

    ws.edit("data/cards.yaml", "- id:", "- idd:")  # an error: loaded, not kept
    report = Report()
    assert loaded(project, "demo", report) is not None and report.errors
    assert loaded(project, "demo", Report()) is not None and loads.count("demo") == 4


def test_one_projects_games_are_kept_at_a_time(tmp_path):
    one, two = Workspace(tmp_path / "one"), Workspace(tmp_path / "two")
    first = loaded(Project(one.root), "demo", Report())
    loaded(Project(two.root), "demo", Report())
    assert [key[0] for key in kept_games._KEPT] == [Project(two.root).content]
    assert loaded(Project(one.root), "demo", Report()) is not first


def _snapshot(game) -> tuple:
    """What a document could change in a loaded game, in a comparable form."""
    return (game.manifest.model_dump(mode="json"),
            {section: {rid: record.model_dump(mode="json") for rid, record in records.items()}
             for section, records in game.records.items()},
            repr(sorted(game.values.items(), key=repr)), repr(sorted(game.dropped.items())),
            sorted(map(repr, game.origins)))


@pytest.mark.parametrize("fixture", ["bridgehead", "river-line"])
def test_no_document_changes_the_game_it_is_given(tmp_path, fixture):
    """Every document and the site's pages of a card game (two languages) and of a
    hex-and-counter game with maps, made one after another in one process from one load of
    the game."""
    shutil.copytree(REPO / "tests" / "fixtures" / fixture, tmp_path / "content" / fixture)
    project = Project(tmp_path)
    game = loaded(project, fixture, Report())
    before = _snapshot(game)
    jobs = plan(project, [fixture], None, KINDS)
    assert {job.kind for job in jobs} >= {"rulebook", "reference"}
    langs = tuple(dict.fromkeys(job.lang for job in jobs))
    work = [*jobs, *(SiteLanguage(tmp_path, fixture, lang, langs) for lang in langs)]
    for item in work:
        result = run_job(item) if isinstance(item, Job) else item.run()
        assert getattr(result, "error", None) is None, (item.label, result.error)
        assert loaded(project, fixture, Report()) is game
        assert _snapshot(game) == before, f"{item.label} changed the game"
