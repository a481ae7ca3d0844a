"""How long the whole `rulesmith check` takes, in-process: load, validate and check every game.

    python bench/check.py [--root PATH] [--repeats N] [GAME...]

Each repeat runs the command as a user would (`rulesmith check --format json`), after
forgetting loaded procedure modules and computed results, so every repeat does the full
work. Prints each run, the median wall time and examples per second. Target: under 2 s.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 2.0


def run_once(root: Path, games: list[str]) -> tuple[float, dict]:
    from generator.checker import procedures
    from generator.checker.dice import _outcomes, _single_die
    from generator.cli import cli

    procedures.clear_cache()
    _outcomes.cache_clear()
    _single_die.cache_clear()
    out = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            cli.main(["--root", str(root), "check", "--format", "json", *games], standalone_mode=False)
        except SystemExit:
            pass  # exit 1 when an example fails: still a complete run
    seconds = time.perf_counter() - start
    return seconds, json.loads(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))

    times = []
    report: dict = {}
    for i in range(args.repeats):
        seconds, report = run_once(args.root, args.games)
        times.append(seconds)
        print(f"run {i + 1}: {seconds:.3f} s")
    summary = report["summary"]
    checked = summary["examples"] - summary["unchecked"]
    checks = sum(len(e["checks"]) for e in report["examples"])
    median = statistics.median(times)
    print(f"games: {len(report['games'])}; examples: {summary['examples']} ({checked} checked, "
          f"{checks} check blocks, {summary['rules']} consistency rules); passed: {report['passed']}")
    print(f"median wall time: {median:.3f} s (min {min(times):.3f}, max {max(times):.3f}, {len(times)} runs)")
    print(f"examples/second: {summary['examples'] / median:.1f} listed, {checked / median:.1f} checked, "
          f"{checks / median:.1f} check blocks")
    print(f"target {TARGET_SECONDS:.0f} s: {'met' if median < TARGET_SECONDS else 'MISSED'}")


if __name__ == "__main__":
    main()
