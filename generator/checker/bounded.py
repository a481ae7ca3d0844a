"""Content code runs bounded: a game's procedures.py runs in a child process with a time limit.

procedures.py is the designer's Python. It may loop forever, call `sys.exit`, or end the
process; none of that may hang or silently end `validate`, `check` or `build`. So every
check that runs it (the examples, the `{{ calc:... }}` numbers, the consistency rules) runs
in one forked child per game. The child answers with plain data; when it overruns its time
(RULESMITH_TIME_LIMIT seconds, default 60) or ends on its own, the game gets an E035 naming
the line of procedures.py it was running, and the parent never runs that module itself.
"""

from __future__ import annotations

import gc
import os
import pickle
import select
import signal
import sys
import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, TypeVar

from ..system.children import die_with_parent, interrupts_held, let_interrupts_through

T, S = TypeVar("T"), TypeVar("S")  # what `ahead` takes and starts

TIME_LIMIT_ENV = "RULESMITH_TIME_LIMIT"
DEFAULT_SECONDS = 60.0
MEMORY = 2 << 30  # bytes the child may allocate beyond what it inherits (MemoryError past that)
GRACE = 2.0  # after the limit, the child gets this long to say where it was before it is killed


def time_limit() -> float:
    """Seconds one game's procedures may run: RULESMITH_TIME_LIMIT, else DEFAULT_SECONDS."""
    try:
        value = float(os.environ.get(TIME_LIMIT_ENV, DEFAULT_SECONDS))
    except ValueError:
        return DEFAULT_SECONDS
    return value if value > 0 else DEFAULT_SECONDS


class Overtime(BaseException):
    """Raised in the child when its time is up (a BaseException: `except Exception` in content
    code does not swallow it)."""


@dataclass
class Outcome:
    """What a bounded run came to: a value, or why there is none."""

    value: Any = None
    overtime: bool = False
    ended: bool = False          # the child ended without answering (os._exit, a signal, sys.exit)
    exit_code: Any = None
    frames: list[tuple[str, int]] = field(default_factory=list)  # where it was: (file, line), innermost last

    @property
    def ok(self) -> bool:
        return not (self.overtime or self.ended)

    def line_in(self, path: Path | None) -> int:
        """The deepest line of `path` the child was running, 0 if unknown."""
        if path is None:
            return 0
        lines = [line for name, line in self.frames if Path(name) == path]
        return lines[-1] if lines else 0


class ChildFailed(RuntimeError):
    """Rulesmith's own code failed in the child: the parent raises it with the child's traceback."""


def _frames(exc: BaseException) -> list[tuple[str, int]]:
    return [(f.filename, f.lineno or 0) for f in traceback.extract_tb(exc.__traceback__)]


def _on_alarm(signum, frame) -> None:
    raise Overtime()


def _limit_memory() -> None:
    try:
        import resource

        with open("/proc/self/statm") as statm:
            inherited = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = inherited + MEMORY
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        if soft == resource.RLIM_INFINITY or limit < soft:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):  # pragma: no cover - not Linux
        pass


def _thread_failed(args: Any) -> None:
    """A thread the content code started ended in an exception: one line, not Python's traceback."""
    if args.exc_type is not SystemExit:
        sys.stderr.write(f"note: a thread that procedures.py started ended in {args.exc_type.__name__}"
                         f"{': ' + str(args.exc_value)[:200] if str(args.exc_value) else ''}\n")


def _child(fn: Callable[..., Any], args: tuple, seconds: float, write: int) -> None:
    status = 0
    gc.freeze()  # the parent's objects stay as they are: collections would copy their pages for nothing
    threading.excepthook = _thread_failed
    try:
        _limit_memory()
        signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            let_interrupts_through()  # a Ctrl+C from here on ends the content code as below
            payload: tuple[str, Any] = ("value", fn(*args))
        except Overtime as exc:
            payload = ("overtime", _frames(exc))
        except SystemExit as exc:
            payload = ("exit", (exc.code if isinstance(exc.code, (int, str, type(None))) else str(exc.code),
                                _frames(exc)))
        except Exception as exc:  # noqa: BLE001 - Rulesmith's own failure: the parent raises it
            payload = ("error", "".join(traceback.format_exception(exc)))
        except BaseException as exc:  # noqa: BLE001 - KeyboardInterrupt and kin raised by content code
            payload = ("exit", (type(exc).__name__, _frames(exc)))
        signal.setitimer(signal.ITIMER_REAL, 0)
        data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(data)
        while view:
            view = view[os.write(write, view):]
    except BaseException:  # noqa: BLE001 - cannot answer: the parent sees the child end
        status = 70
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001
                pass
        os._exit(status)


class Child:
    """A bounded run under way; `wait()` collects its outcome."""

    def __init__(self, fn: Callable[..., Any], args: tuple, seconds: float):
        self.seconds = seconds
        self.read, write = os.pipe()
        parent = os.getpid()
        with interrupts_held():
            self.pid = os.fork()
            if self.pid == 0:  # pragma: no cover - the child
                die_with_parent(parent)  # content that ignores its time limit still ends with the build
                os.close(self.read)
                _child(fn, args, seconds, write)
        os.close(write)
        self.deadline = time.monotonic() + seconds + GRACE

    def wait(self) -> Outcome:
        chunks: list[bytes] = []
        try:
            while True:
                left = self.deadline - time.monotonic()
                if left <= 0:
                    os.kill(self.pid, signal.SIGKILL)
                    os.waitpid(self.pid, 0)
                    return Outcome(overtime=True)
                ready, _, _ = select.select([self.read], [], [], left)
                if ready:
                    chunk = os.read(self.read, 1 << 16)
                    if not chunk:
                        break
                    chunks.append(chunk)
                    self.deadline = max(self.deadline, time.monotonic() + GRACE)  # answering, not stuck
        finally:
            os.close(self.read)
        _, status = os.waitpid(self.pid, 0)
        if not chunks:
            return Outcome(ended=True, exit_code=os.waitstatus_to_exitcode(status))
        kind, value = pickle.loads(b"".join(chunks))
        if kind == "value":
            return Outcome(value)
        if kind == "overtime":
            return Outcome(overtime=True, frames=value)
        if kind == "exit":
            return Outcome(ended=True, exit_code=value[0], frames=value[1])
        raise ChildFailed(value)

    def stop(self) -> None:
        """End the run now, its outcome unwanted (the build it was for stopped)."""
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.read)


class _Done:
    def __init__(self, outcome: Outcome):
        self.outcome = outcome

    def wait(self) -> Outcome:
        return self.outcome

    def stop(self) -> None:
        pass


def start_bounded(fn: Callable[..., Any], *args: Any, seconds: float | None = None) -> Child | _Done:
    """Start `fn(*args)` in a forked child with a time limit; its return value must pickle.
    Where fork is missing, it runs here, unbounded."""
    seconds = time_limit() if seconds is None else seconds
    if not hasattr(os, "fork"):  # pragma: no cover - Windows
        return _Done(Outcome(fn(*args)))
    return Child(fn, args, seconds)


def run_bounded(fn: Callable[..., Any], *args: Any, seconds: float | None = None) -> Outcome:
    """`fn(*args)` in a child with a time limit, waited for."""
    return start_bounded(fn, *args, seconds=seconds).wait()


def ahead(items: Iterable[T], start: Callable[[T], S], width: int | None = None) -> Iterator[tuple[T, S]]:
    """(item, start(item)) for each item in order, each started up to `width` items (the
    machine's cores) before it is taken: the bounded runs of several games go on side by side
    while the caller waits for the first, and no more of them share the cores at once than
    there are cores, so none is slowed towards its time limit by a crowd of others."""
    width = max(1, width if width is not None else (os.cpu_count() or 1))
    started: deque[tuple[T, S]] = deque()
    for item in items:
        started.append((item, start(item)))
        if len(started) >= width:
            yield started.popleft()
    while started:
        yield started.popleft()


__all__ = ["Child", "ChildFailed", "ahead", "start_bounded", "DEFAULT_SECONDS", "Outcome", "Overtime", "TIME_LIMIT_ENV", "run_bounded", "time_limit"]
