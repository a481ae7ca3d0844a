"""The tests' command-line runs (tests/forked_cli.py) answer as a fresh `python -m generator`
does: the same exit code, stdout and stderr, the test's folder and environment, a time limit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from types import SimpleNamespace

import pytest

from . import forked_cli
from .conftest import REPO, Workspace


@pytest.fixture
def alarm():
    """A hang fails the test instead of the run."""
    def hung(signum, frame):
        raise AssertionError("no answer within 60 s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def test_a_failing_validate_answers_as_a_fresh_interpreter_does(ws: Workspace, alarm):
    ws.edit("data/units.yaml", "quality: 4+", "quality: four")
    for args in (["validate"], ["validate", "--format", "json"], ["export", "demo", "--json"]):
        fresh = subprocess.run([sys.executable, "-m", "generator", "--root", str(ws.root), *args],
                               capture_output=True, text=True, cwd=REPO)
        forked = forked_cli.run(["--root", str(ws.root), *args])
        assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert forked.returncode == 1 and "E012" in forked.stdout + forked.stderr


def test_two_answers_that_arrive_in_one_read_are_both_taken(alarm):
    """A command that ends at once may send its pid and its status in one read."""
    read, write = os.pipe()
    server = forked_cli._Server.__new__(forked_cli._Server)
    server.process, server.pending = SimpleNamespace(stdout=os.fdopen(read, "rb")), b""
    os.write(write, b'{"pid": 7}\n{"status": 256}\n')
    assert server._answer(5) == {"pid": 7}
    assert server._answer(5) == {"status": 256}
    assert server._answer(0.1) is None
    os.close(write)


def test_commands_that_end_at_once_answer_one_after_another(tmp_path, alarm):
    for _ in range(5):
        result = forked_cli.run(["build", "--booklet", "--book", "a4", "--only", "rulebook"], cwd=tmp_path)
        assert result.returncode == 2 and "A5" in result.stderr
        assert forked_cli.run(["--version"]).stdout.startswith("rulesmith, version")


def test_the_run_takes_the_tests_folder_and_environment(tmp_path, monkeypatch, alarm):
    Workspace(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    here = forked_cli.run(["validate"], cwd=tmp_path / "content" / "demo")  # the project found from the folder
    assert here.returncode == 0 and "1 game(s) validated" in here.stdout + here.stderr
    elsewhere = forked_cli.run(["validate"], cwd=tmp_path.parent, env={**os.environ, "HOME": str(tmp_path)})
    assert elsewhere.returncode == 2 and "Traceback" not in elsewhere.stderr


def test_a_run_past_its_time_is_killed(ws: Workspace, alarm):
    ws.write("procedures.py", "while True:\n    pass\n")
    env = {**os.environ, "RULESMITH_TIME_LIMIT": "120"}
    with pytest.raises(subprocess.TimeoutExpired):
        forked_cli.run(["--root", str(ws.root), "validate"], timeout=3, env=env)
    assert forked_cli.run(["--version"]).returncode == 0  # the server goes on
