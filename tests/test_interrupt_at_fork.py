"""Ctrl+C that comes while the build forks (a bounded child for procedures.py): Python runs its
at-fork hooks then, in both processes, and an interrupt inside one printed 'Exception ignored'
with a traceback instead of the build's one line. The interrupt is held until the child is
ready for it, and then ends its run as any Ctrl+C does."""

from __future__ import annotations

import os
import signal

from generator.checker.bounded import run_bounded

_armed = False


def _interrupt_in_the_child() -> None:
    """An at-fork hook: Ctrl+C reaches the child while its hooks run (once, when armed)."""
    if _armed:
        os.kill(os.getpid(), signal.SIGINT)


os.register_at_fork(after_in_child=_interrupt_in_the_child)


def _answer() -> int:
    return 42


def test_ctrl_c_while_the_child_is_forked_ends_it_without_a_traceback(capfd):
    global _armed
    # Ctrl+C as a command has it: a test in this worker that ran a command to its interrupted
    # end (faults.interrupted) left SIGINT ignored, and the child would inherit that
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    _armed = True
    try:
        outcome = run_bounded(_answer, seconds=30)
    finally:
        _armed = False
        signal.signal(signal.SIGINT, previous)
    err = capfd.readouterr().err
    assert "Exception ignored" not in err and "Traceback" not in err, err
    assert outcome.ended and outcome.exit_code == "KeyboardInterrupt", outcome  # the child got it
