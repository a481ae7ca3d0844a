"""What one command-line run costs the test suite: a fresh `python -m generator` beside a forked
child of the tests' command-line server (tests/forked_cli.py), side by side in one run.

    python bench/cli_runs.py [--repeats N]

On a scaffolded game in a temporary project, each repeat runs `validate`, `build --only cards`
and `build --only site` both ways, each build on a fresh copy of the project (so it does the
whole work). Prints the median wall time of each and the ratio forked / fresh (run it on an
otherwise idle machine: each run is one process at a time).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = (("validate",), ("build", "--only", "cards"), ("build", "--only", "site"))


def _fresh(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True, text=True, cwd=ROOT)


def _timed(run, args: list[str]) -> float:
    """Wall seconds of one run, which must succeed."""
    start = time.perf_counter()
    result = run(args)
    wall = time.perf_counter() - start
    assert result.returncode == 0, result.stderr
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ["PYTHONPATH"] = str(ROOT)
    from generator.commands.new import scaffold
    from tests import forked_cli

    with tempfile.TemporaryDirectory() as folder:
        template = Path(folder) / "template"
        scaffold(template / "content" / "demo", "demo", "Demo")
        forked_cli.run(["--version"])  # the server starts (imports, fonts) before anything is timed
        rows = []
        for command in COMMANDS:
            walls: dict[str, list[float]] = {"fresh": [], "forked": []}
            for i in range(args.repeats):
                for way, run in (("fresh", _fresh), ("forked", forked_cli.run)):
                    project = Path(folder) / f"{way}-{i}"
                    shutil.copytree(template, project, symlinks=True)
                    wall = _timed(run, ["--root", str(project), *command])
                    walls[way].append(wall)
                    shutil.rmtree(project)
            fresh, forked = statistics.median(walls["fresh"]), statistics.median(walls["forked"])
            rows.append((" ".join(command), fresh, forked))
    print(f"{'command':<22} {'fresh s':>8} {'forked s':>9} {'forked/fresh':>13}   (median wall of {args.repeats})")
    for name, fresh, forked in rows:
        print(f"{name:<22} {fresh:8.3f} {forked:9.3f} {forked / fresh:13.2f}")


if __name__ == "__main__":
    main()
