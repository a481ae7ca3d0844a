"""The import graph of generator/: dependencies point one way, down the pipeline.

The layer contract (pyproject.toml, [tool.importlinter]) holds, no import cycle between
modules exists beyond KNOWN_CYCLES, which may only shrink, and no module imports another's
private name (`_x`). Each check is shown failing on a copy of generator/ with an import planted
in it."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# Cycles not yet broken, each with its upward edges in pyproject.toml's ignore_imports. Empty:
# keep it so (a cycle is two modules that are one concept, or lack a third module below both).
KNOWN_CYCLES: list[set[str]] = []

# Strongly connected components of the module graph (grimp reads the imports, runs nothing).
_CYCLES = """
import json, sys
import grimp
graph = grimp.build_graph("generator", cache_dir=None)
imports = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
index, low, stack, on, found = {}, {}, [], set(), []
for root in sorted(imports):
    if root in index:
        continue
    work = [(root, iter(imports[root]))]
    index[root] = low[root] = len(index); stack.append(root); on.add(root)
    while work:
        node, rest = work[-1]
        step = next(rest, None)
        if step is not None:
            if step not in index:
                index[step] = low[step] = len(index); stack.append(step); on.add(step)
                work.append((step, iter(imports[step])))
            elif step in on:
                low[node] = min(low[node], index[step])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[node])
        if low[node] == index[node]:
            part = []
            while True:
                member = stack.pop(); on.discard(member); part.append(member)
                if member == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))
json.dump(found, sys.stdout)
"""


def _run(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, *args], cwd=root, env=env, capture_output=True, text=True, timeout=300)


def cycles(root: Path) -> list[set[str]]:
    result = _run(root, "-c", _CYCLES)
    assert result.returncode == 0, result.stderr
    return [set(part) for part in json.loads(result.stdout)]


def lint(root: Path) -> subprocess.CompletedProcess:
    return _run(root, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                "sys.exit(lint_imports_command(['--no-cache', '--config', 'pyproject.toml']))")


def private_imports(root: Path) -> list[str]:
    """`file:line name` for each private name (`_x`, not `__x__`) imported from another module."""
    found = []
    for path in sorted((root / "generator").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [part for alias in node.names for part in alias.name.split(".")]
            else:
                continue
            found += [f"{path.relative_to(root)}:{node.lineno} {name}" for name in names
                      if name.startswith("_") and not name.startswith("__")]
    return found


def new_cycles(found: list[set[str]]) -> list[set[str]]:
    return [part for part in found if not any(part <= known for known in KNOWN_CYCLES)]


@pytest.fixture()
def planted(tmp_path: Path):
    """A copy of generator/ and pyproject.toml; plant(module, line) adds an import to it."""
    shutil.copytree(REPO / "generator", tmp_path / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")

    def plant(relpath: str, line: str) -> Path:
        path = tmp_path / "generator" / relpath
        path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
        return tmp_path

    return plant


def test_no_import_cycle_beyond_the_known_ones():
    assert new_cycles(cycles(REPO)) == []


def test_the_layer_contract_holds():
    result = lint(REPO)
    assert result.returncode == 0, result.stdout[result.stdout.find("Broken contracts"):] + result.stderr
    assert "1 kept, 0 broken" in result.stdout


def test_an_upward_import_breaks_the_layer_contract(planted):
    root = planted("values/__init__.py", "from ..commands import build  # planted")
    result = lint(root)
    assert result.returncode == 1
    assert "generator.values is not allowed to import generator.commands" in result.stdout


def test_two_modules_that_import_each_other_are_a_new_cycle(planted):
    root = planted("print/sheetparts.py", "from . import cards  # planted")
    (new,) = new_cycles(cycles(root))
    assert {"generator.print.cards", "generator.print.sheetparts"} <= new


def test_no_module_imports_a_private_name_of_another():
    assert private_imports(REPO) == []


def test_a_private_name_imported_from_another_module_is_found(planted):
    root = planted("print/sheetparts.py", "from .cards import _planted  # planted")
    (found,) = private_imports(root)
    assert found.startswith("generator/print/sheetparts.py:") and found.endswith(" _planted")
