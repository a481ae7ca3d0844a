"""What `build` tells the user while it works: on a terminal one progress bar (documents done,
pages per second, time left) with a line per document above it; in a log or a pipe a plain
line per document; with --quiet neither, only problems and files removed."""

from __future__ import annotations

import os
from pathlib import Path

from . import forked_cli
from .conftest import run_cli


def _demo(tmp_path: Path) -> Path:
    assert run_cli("--root", str(tmp_path), "new", "demo").returncode == 0
    return tmp_path


def _build(root: Path, *args: str, terminal: bool):
    env = {k: v for k, v in os.environ.items() if k not in ("TTY_COMPATIBLE", "FORCE_COLOR", "CI")}
    env["TTY_COMPATIBLE"] = "1" if terminal else "0"  # rich's switch: a terminal or not
    return forked_cli.run(["--root", str(root), "build", "--only", "rulebook", "--force", *args], root, 600, env)


def test_a_terminal_shows_one_progress_bar_a_log_a_line_per_document(tmp_path):
    root = _demo(tmp_path)
    terminal = _build(root, terminal=True)
    assert terminal.returncode == 0, terminal.stderr
    assert "documents" in terminal.stderr and "pages/s" in terminal.stderr, terminal.stderr[-1500:]
    assert "demo/en/rulebook: " in terminal.stderr  # the document's own line, above the bar
    log = _build(root, terminal=False)
    assert log.returncode == 0, log.stderr
    assert "pages/s" not in log.stdout + log.stderr and "\x1b[" not in log.stdout + log.stderr
    assert "demo/en/rulebook: " in log.stdout


def test_quiet_says_only_what_needs_the_user(tmp_path):
    root = _demo(tmp_path)
    for terminal in (True, False):
        quiet = _build(root, "--quiet", terminal=terminal)
        assert quiet.returncode == 0, quiet.stderr
        assert "demo/en/rulebook" not in quiet.stdout + quiet.stderr
        assert "pages/s" not in quiet.stderr
    assert (root / "output/demo/en/rulebook.pdf").is_file()
