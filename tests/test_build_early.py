"""The documents that need nothing the build works out first (the cards, counters and maps
read neither the rules checker's tables nor its examples) are made on the workers while the
build works out the tables and the examples; a build that stops before its other documents
stops those too, and leaves no temporary file and no worker behind."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from generator import outputs
from generator.commands import build as command
from generator.commands.build import DEFAULT_OPTIONS, build
from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import Workspace

KINDS = ["rulebook", "cards", "reference", "site"]


def _build(root: Path, workers: int) -> tuple[bool, Report]:
    report = Report()
    project = Project(root)
    try:
        failed = build(project, project.game_ids(), KINDS, False, None, workers, False, dict(DEFAULT_OPTIONS),
                       False, report=report, quiet=True)
    finally:
        outputs.confine_to(None)
    return failed, report


def _held_tables(monkeypatch, marker: Path, answer: bool = True, patience: float = 60) -> list[str]:
    """The probability tables wait (up to `patience` seconds) for a card job to start; what
    they saw. With `answer` False they fail."""
    import generator.print.jobs as jobs

    run_job, tables, seen = jobs.run_job, command.probability_tables, []

    def marked(job):  # runs in a worker, forked after this was put in place
        if job.kind == "cards":
            marker.write_text(job.label)
            time.sleep(0.5)  # still at work when the build stops
        return run_job(job)

    def waiting(*args):
        deadline = time.monotonic() + patience
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        seen.append("cards started" if marker.exists() else "nothing")
        return tables(*args) and answer

    monkeypatch.setattr(jobs, "run_job", marked)
    monkeypatch.setattr(command, "probability_tables", waiting)
    return seen


def test_card_sheets_are_made_while_the_tables_are_worked_out(tmp_path: Path, monkeypatch):
    """Two workers: the tables wait until a card job has started. Only a build that starts
    the cards before it works out the tables lets them go on in time; the build then makes
    every document as before, its cards once."""
    Workspace(tmp_path)
    seen = _held_tables(monkeypatch, tmp_path / "cards-started")
    failed, report = _build(tmp_path, workers=2)
    assert not failed, report.diagnostics
    assert seen == ["cards started"]
    out = tmp_path / "output" / "demo" / "en"
    assert {"cards.pdf", "rulebook.pdf", "reference.pdf"} <= {p.name for p in out.iterdir()}
    manifest = (tmp_path / "output" / ".rulesmith" / "manifest.json").read_text(encoding="utf-8")
    assert '"cards:demo/en"' in manifest  # recorded, as any document made


def test_one_worker_starts_nothing_early(tmp_path: Path, monkeypatch):
    """One worker makes the documents one after the other, after the tables."""
    Workspace(tmp_path)
    seen = _held_tables(monkeypatch, tmp_path / "cards-started", patience=3)
    failed, _ = _build(tmp_path, workers=1)
    assert not failed and seen == ["nothing"]
    assert (tmp_path / "output" / "demo" / "en" / "cards.pdf").is_file()


def _gone(pid: int, patience: float = 5) -> bool:
    """The process has ended (a zombie not reaped yet counts: it runs nothing). Read from
    /proc, not from its Process object, which the pool's own thread may reap behind it."""
    deadline = time.monotonic() + patience
    while True:
        try:
            state = Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0]
        except (OSError, IndexError):
            return True
        if state in ("Z", "X"):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="processes read from /proc")
@pytest.mark.parametrize("how", ["tables fail", "interrupted"])
def test_a_build_that_stops_before_its_other_documents_stops_those_started(tmp_path: Path, monkeypatch, how: str):
    """The tables fail (or Ctrl+C comes) while a card job is at work: the build ends, its
    workers are killed before the cards are done, and output/ holds no temporary file."""
    Workspace(tmp_path)
    seen = _held_tables(monkeypatch, tmp_path / "cards-started", answer=False)
    workers: list = []  # the processes of what the build started early

    def started(*args):
        early = real_started(*args)
        workers.extend(early.pool._processes.values())  # forked as its jobs were sent
        return early

    real_started = command.Started
    monkeypatch.setattr(command, "Started", started)
    if how == "interrupted":
        monkeypatch.setattr(command, "verified_examples", lambda *a: (_ for _ in ()).throw(KeyboardInterrupt()))
        real = command.probability_tables
        monkeypatch.setattr(command, "probability_tables", lambda *a: real(*a) or True)
        with pytest.raises(KeyboardInterrupt):
            _build(tmp_path, workers=2)
    else:
        failed, _ = _build(tmp_path, workers=2)
        assert failed
    assert seen == ["cards started"]
    assert workers and not [process for process in workers if not _gone(process.pid)], workers
    time.sleep(3)  # long enough for a card job left running to finish its sheets
    assert not (tmp_path / "output" / "demo" / "en" / "cards.pdf").exists()  # stopped, not finished
    left = [p for p in (tmp_path / "output").rglob("*") if outputs.TEMP.fullmatch(p.name)]
    assert not left, left
