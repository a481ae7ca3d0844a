"""The processes a build forks (its pool workers, the bounded runs of a game's procedures.py)
end when the build ends, however it ends (Ctrl+C, `kill -9`, a crash): none goes on writing
into output/ or running content code for a build that is gone."""

from __future__ import annotations

import os
import signal
import threading
import time
from contextlib import contextmanager

PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Call first thing in a forked child of process `parent`: the kernel kills the child when
    the parent dies (Linux); elsewhere a watcher thread ends it within a second of that."""
    try:
        import ctypes

        if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL) != 0:
            raise OSError(ctypes.get_errno(), "prctl")
    except (OSError, AttributeError):  # not Linux
        threading.Thread(target=_watch, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before the kernel was told
        os._exit(70)


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(70)


HELD = {signal.SIGINT}


@contextmanager
def interrupts_held():
    """Ctrl+C held back while the block forks. Python runs its at-fork hooks (logging's lock
    among them) in the parent and in the child, and an interrupt inside one prints 'Exception
    ignored' with a traceback instead of the build's one line. An interrupt that comes
    meanwhile is delivered when the block ends, in the parent, and when the child calls
    `let_interrupts_through`."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def let_interrupts_through() -> None:
    """In a child forked under `interrupts_held`, once it is ready for Ctrl+C."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)
