"""The garbage collector in the processes that lay documents out (system/collector.py): a
pool worker starts with what it was forked with frozen and the layout thresholds, and still
collects cycles; a build run in this process keeps the default collector."""

from __future__ import annotations

import gc
import weakref
from dataclasses import dataclass, field
from pathlib import Path

from generator.print.jobs import run_jobs
from generator.system import collector


class _Node:
    def __init__(self):
        self.other = None


@dataclass
class _Seen:
    job: object
    threshold: tuple = ()
    frozen: int = 0
    cycle_collected: bool = False
    error: str | None = None
    fault: OSError | None = None
    files: list = field(default_factory=list)


@dataclass(frozen=True)
class _Look:
    """Later work for run_jobs that reports the collector of the process it runs in."""

    root: Path
    kind: str
    game: str = "demo"
    lang: str = "en"
    cost: float = 0.0

    @property
    def label(self) -> str:
        return f"demo/en/{self.kind}"

    def run(self) -> _Seen:
        first, second = _Node(), _Node()
        first.other, second.other = second, first  # a cycle only the collector frees
        alive = weakref.ref(first)
        del first, second
        kept = [[] for _ in range(3 * collector.THRESHOLDS[0])]  # enough new objects for a collection
        del kept
        return _Seen(self, gc.get_threshold(), gc.get_freeze_count(), alive() is None)


def test_a_pool_worker_lays_out_with_its_inherited_objects_frozen_and_fewer_collections(tmp_path: Path):
    results = run_jobs([], workers=2, later=[_Look(tmp_path, "one"), _Look(tmp_path, "two")])
    assert len(results) == 2
    for seen in results:
        assert seen.threshold == collector.THRESHOLDS
        assert seen.frozen > 10_000  # the modules and everything else it was forked with
        assert seen.cycle_collected  # fewer collections, not none


def test_a_build_in_this_process_keeps_the_default_collector(tmp_path: Path):
    """One worker runs in this process, whose collector stays as it is: the larger batches
    cost a 10,000-card deck built there about 60 MB of peak memory."""
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    [seen] = run_jobs([], workers=1, later=[_Look(tmp_path, "here")])
    assert seen.threshold == before and seen.frozen == frozen and seen.cycle_collected
