"""`rulesmith validate` of several games: their checks side by side (what the command does) beside
one game after another, in one run.

    python bench/validate_games.py [--root PATH] [--repeats N]

Each repeat validates every game of the project both ways, in turn, in this process (the
checks of a game with procedures.py run in a child either way). Prints the median wall time of
each way and their ratio, and stops if the two report different diagnostics.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from generator.checks.trial import checked_games
    from generator.core.diagnostics import Report
    from generator.project import Project

    def side_by_side(project: Project, names: list[str], report: Report) -> None:
        for _name, game_report, _game in checked_games(project, names):
            report.extend(game_report)

    def one_by_one(project: Project, names: list[str], report: Report) -> None:
        for name in names:
            project.load(name, report)

    ways = {"side by side": side_by_side, "one by one": one_by_one}
    times: dict[str, list[float]] = {way: [] for way in ways}
    for _ in range(args.repeats):
        found = {}
        for way, run in ways.items():
            project = Project(args.root)
            names, report = project.game_ids(), Report()
            start = time.perf_counter()
            run(project, names, report)
            times[way].append(time.perf_counter() - start)
            found[way] = [d.format_text(args.root) for d in report.diagnostics]
        if found["side by side"] != found["one by one"]:
            sys.exit("the two ways report different diagnostics")
    side, one = (statistics.median(times[way]) for way in ways)
    print(f"{len(names)} games, {len(found['one by one'])} diagnostics, median of {args.repeats}:")
    print(f"side by side {side:.3f} s, one by one {one:.3f} s: {side / one:.2f}×")


if __name__ == "__main__":
    main()
