"""A worker gives back the memory a finished job freed: the next document's peak does not come
on top of the last one's."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from generator.system import memory

# A child that frees a large heap of small objects (as a layout leaves) and reports its resident
# memory before and after `give_back`.
CHILD = textwrap.dedent("""
    import sys
    from generator.system import memory

    def rss():
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) // 1024 for line in f if line.startswith("VmRSS"))

    heap = [bytes(2000) + bytes([i % 256]) for i in range(150_000)]  # about 300 MB in blocks malloc gives
    keep = heap[::1000]
    del heap
    before = rss()
    given = memory.give_back()
    print(before, rss(), given)
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="resident memory read from /proc")
def test_memory_a_job_freed_is_given_back():
    """Without give_back the freed blocks stay with the process (glibc keeps them); with it the
    resident memory falls by most of them. Where glibc's malloc_trim exists (this machine, CI),
    give_back must say it worked."""
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True).stdout.split()
    before, after, given = int(out[0]), int(out[1]), out[2] == "True"
    assert given
    assert before - after > 100, (before, after)


def test_give_back_is_called_after_every_job(monkeypatch):
    """Each job (and later work) ends with give_back, whether it made its document or failed."""
    from generator.print import jobs

    calls = []
    monkeypatch.setattr(jobs, "give_back", lambda: calls.append(1) or True)

    class Work:
        def run(self):
            raise ValueError("broken")

    result = jobs._safe(Work())
    assert result.error == "ValueError: broken" and calls == [1]


def test_without_malloc_trim_nothing_is_done(monkeypatch):
    monkeypatch.setattr(memory, "_trim", lambda: None)
    assert memory.give_back() is False
