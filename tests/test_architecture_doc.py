"""docs/architecture.md's diagram is the import graph of generator/ as it is: tools/architecture.py
draws it, and a block that differs from what it would draw now fails with the command to run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TOOL = REPO / "tools" / "architecture.py"
REDRAW = "python3 tools/architecture.py"


def draw(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, str(TOOL), "--root", str(root), *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_diagram_is_the_import_graph():
    result = draw(REPO, "--check")
    assert result.returncode == 0, result.stderr


def test_a_new_import_makes_the_diagram_stale_until_it_is_redrawn(tmp_path: Path):
    shutil.copytree(REPO / "generator", tmp_path / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "docs").mkdir()
    shutil.copy(REPO / "docs" / "architecture.md", tmp_path / "docs" / "architecture.md")
    values = tmp_path / "generator" / "values" / "__init__.py"
    values.write_text(values.read_text(encoding="utf-8") + "\nfrom ..commands import build  # planted\n",
                      encoding="utf-8")

    stale = draw(tmp_path, "--check")
    assert stale.returncode == 1
    assert "docs/architecture.md: the diagram differs from the import graph" in stale.stderr
    assert f"run '{REDRAW}'" in stale.stderr

    assert draw(tmp_path).returncode == 0
    doc = (tmp_path / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert "    values -. up .-> commands\n" in doc
    assert "| `values` | commands (up), core |" in doc
    assert draw(tmp_path, "--check").returncode == 0


def test_a_document_without_the_block_says_which_markers_are_missing(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "architecture.md").write_text("# Architecture\n", encoding="utf-8")
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    result = draw(tmp_path, "--check")
    assert result.returncode == 1
    assert "docs/architecture.md has no block between '<!-- architecture:begin" in result.stderr
