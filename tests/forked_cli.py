"""`python -m generator` for the tests, without paying Python's start and Rulesmith's imports on
every run.

A test that runs the command line wants a process of its own: its exit code, its stdout and
stderr, a crash or a hang that cannot take the test run down, state that starts fresh. Starting
Python and importing Rulesmith (WeasyPrint, pydantic, fontTools, ...) costs 0.4 to 0.8 CPU-s a
run, and the suite runs the command hundreds of times. So each test process starts one server
(this module run as `python -m tests.forked_cli`) that imports every module of generator/ once
and then runs nothing; for each command it forks a child, which is a new process with the
state of a fresh interpreter that has imported Rulesmith: it takes the test's current folder and
environment, runs `generator.__main__.main()` with the arguments, and exits the way the
interpreter would (atexit handlers, a traceback and 1 for an uncaught exception), its stdout and
stderr captured as `subprocess.run(capture_output=True, text=True)` captures them.

What importing did to the environment (pdf.py sets SOURCE_DATE_EPOCH when it is not set) is done
again in each child, as a fresh process's imports would do it. The server also cuts the
shipped faces' web-font pieces, which a process keeps (generator/site/webfonts.py): a child's
site build finds them cut, as a second site build in one process does, and writes the same
bytes; cutting itself is tested in-process (tests/test_site.py). Likewise it reads the
hyphenation dictionaries of the tests' languages, which pyphen keeps per process.

A limit on address space (`memory_kb`) is set in the child as `ulimit -v` sets it
(tests/test_bad_input.py). What a fork cannot show is left to real `python -m generator` runs: the
interpreter's own start and the console script (tests/test_cli.py), Ctrl+C and `kill -9` of a
running build, `serve`, and runs under a command that changes what the process may do, such as
unshare (tests/test_faults_*.py and tests/test_serve.py start those processes themselves).
"""

from __future__ import annotations

import atexit
import json
import os
import resource
import select
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HYPHENATED = ("en", "ru", "de")  # the languages of the scaffold and the test games


# -- the server ---------------------------------------------------------------------------

def _serve() -> None:
    """Import everything, then fork one child per request line on stdin; answer each with the
    child's pid, then with its wait status."""
    import importlib
    import pkgutil

    import generator
    from generator.system.children import die_with_parent

    die_with_parent(os.getppid())
    before = dict(os.environ)
    for module in pkgutil.walk_packages(generator.__path__, "generator."):
        try:
            importlib.import_module(module.name)
        except Exception:  # left for the child to import, and fail on, as a fresh process would
            pass
    imported_env = {k: v for k, v in os.environ.items() if before.get(k) != v}
    from generator.site import webfonts

    for piece in webfonts.pieces():  # kept per process: a child's site build finds them cut
        webfonts.cut(piece)
    import pyphen

    for lang in HYPHENATED:  # pyphen keeps each dictionary it reads, per process
        pyphen.Pyphen(lang=lang)
    encoding = sys.stdout.encoding
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    requests = sys.stdin.buffer
    while True:
        line = requests.readline()
        if not line:
            return
        request = json.loads(line)
        answers.flush()
        pid = os.fork()
        if pid == 0:
            _child(request, imported_env, encoding, [requests.fileno(), answers.fileno()])
        answers.write(json.dumps({"pid": pid}) + "\n")
        answers.flush()
        _, status = os.waitpid(pid, 0)
        answers.write(json.dumps({"status": status}) + "\n")
        answers.flush()


def _child(request: dict, imported_env: dict[str, str], encoding: str, server_fds: list[int]) -> None:
    """Run one command in this forked child and end the process; never returns."""
    code = 1
    try:
        for fd in server_fds:
            os.close(fd)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        for key, value in imported_env.items():
            os.environ.setdefault(key, value)
        _redirect(0, os.devnull, os.O_RDONLY)
        _redirect(1, request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        _redirect(2, request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        sys.stdin = open(0, encoding=encoding, closefd=False)
        sys.stdout = open(1, "w", encoding=encoding, closefd=False)
        sys.stderr = open(2, "w", buffering=1, encoding=encoding, errors="backslashreplace", closefd=False)
        if request.get("memory_kb"):  # as `ulimit -v` gives a process
            limit = request["memory_kb"] * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        sys.argv = [str(REPO / "generator" / "__main__.py"), *request["args"]]
        code = _main()
        atexit._run_exitfuncs()
    except BaseException:  # the harness itself failed: say so on the child's stderr
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(code)


def _redirect(fd: int, path: str, flags: int) -> None:
    opened = os.open(path, flags, 0o644)
    if opened != fd:
        os.dup2(opened, fd)
        os.close(opened)


def _main() -> int:
    """`python -m generator`'s main, and the exit status the interpreter would give it."""
    from generator.__main__ import main

    try:
        main()
    except SystemExit as exc:
        if exc.code is None:
            return 0
        if isinstance(exc.code, int):
            return exc.code & 0xFF
        print(exc.code, file=sys.stderr)
        return 1
    except BaseException:
        traceback.print_exc()
        return 1
    return 0


# -- the client ---------------------------------------------------------------------------

class _Server:
    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="rulesmith-cli-"))
        self.process = subprocess.Popen([sys.executable, "-m", "tests.forked_cli"], cwd=REPO, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)
        self.pending = b""  # answers read and not yet taken (two can arrive in one read)
        self.runs = 0

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if self.alive():
            self.process.stdin.close()
            self.process.wait(timeout=30)
        for path in self.folder.iterdir():
            path.unlink()
        self.folder.rmdir()

    def _answer(self, timeout: float | None) -> dict | None:
        """The server's next answer line; None when none comes within `timeout` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                raise RuntimeError("the command-line server ended")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return json.loads(line)

    def run(self, args: list[str], cwd: Path, timeout: float | None, env: dict[str, str],
            memory_kb: int | None) -> subprocess.CompletedProcess:
        self.runs += 1
        out, err = self.folder / f"{self.runs}.out", self.folder / f"{self.runs}.err"
        request = {"args": args, "cwd": str(cwd), "env": env, "stdout": str(out), "stderr": str(err),
                   "memory_kb": memory_kb}
        self.process.stdin.write(json.dumps(request).encode("utf-8") + b"\n")
        self.process.stdin.flush()
        pid = self._answer(60)["pid"]
        answer = self._answer(timeout)
        if answer is None:
            os.kill(pid, signal.SIGKILL)
            self._answer(None)
        stdout, stderr = (p.read_text(encoding="utf-8", errors="replace") for p in (out, err))
        out.unlink()
        err.unlink()
        command = [sys.executable, "-m", "generator", *args]
        if answer is None:
            raise subprocess.TimeoutExpired(command, timeout, stdout, stderr)
        return subprocess.CompletedProcess(command, os.waitstatus_to_exitcode(answer["status"]), stdout, stderr)


_server: _Server | None = None


def run(args: list[str], cwd: Path | None = None, timeout: float | None = None, env: dict[str, str] | None = None,
        memory_kb: int | None = None) -> subprocess.CompletedProcess:
    """`subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True, text=True,
    cwd=cwd, timeout=timeout, env=env)`, run in a forked child of this test process's server;
    with `memory_kb`, under that much address space (`ulimit -v`). With RULESMITH_TEST_FORK=0 in
    the environment, a fresh interpreter each time instead."""
    global _server
    if os.environ.get("RULESMITH_TEST_FORK") == "0":
        return _fresh([str(a) for a in args], cwd or REPO, timeout, env, memory_kb)
    if _server is None or not _server.alive():
        _server = _Server()
        atexit.register(_server.stop)
    return _server.run([str(a) for a in args], cwd or REPO, timeout, dict(os.environ if env is None else env), memory_kb)


def _fresh(args: list[str], cwd: Path, timeout: float | None, env: dict[str, str] | None,
           memory_kb: int | None) -> subprocess.CompletedProcess:
    def limited() -> None:
        if memory_kb:
            resource.setrlimit(resource.RLIMIT_AS, (memory_kb * 1024, memory_kb * 1024))

    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=timeout, env=env, preexec_fn=limited)


if __name__ == "__main__":
    _serve()
