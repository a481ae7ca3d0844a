"""Bad input of every file kind gets a clean diagnostic: code, file:line, no traceback, no hang.

Every case of the corpus (tests/bad_input.py) runs in-process under a time limit and a memory
limit; the cases marked `cli` also run through `python -m generator` in a process of their own
(tests/forked_cli.py) under a time limit and a limit on address space (as `ulimit -v`).
"""

from __future__ import annotations

import mmap
import os
import resource
import signal
import subprocess

import pytest

from .bad_input import CASES, TIME_LIMIT, Case, expected_line, matches, run_case
from . import forked_cli
from .conftest import REPO, Workspace

MEMORY_KB = 2_000_000     # ulimit -v for command-line runs
SECONDS = 60              # no case may take longer than this (a hang guard, not a speed target)


class Hung(Exception):
    pass


def _alarm(signum, frame):
    raise Hung(f"no answer within {SECONDS} s")


def _address_space() -> int:
    """This process's virtual memory now, in bytes (VmSize)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


class memory_limit:
    """At most `MEMORY_KB` more virtual memory for the block, as `ulimit -v` gives the command-line
    runs: a memory bomb becomes a MemoryError here instead of exhausting the machine."""

    def __enter__(self):
        self.previous = resource.getrlimit(resource.RLIMIT_AS)
        cap = _address_space() + MEMORY_KB * 1024
        hard = self.previous[1]
        resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))

    def __exit__(self, *exc):
        resource.setrlimit(resource.RLIMIT_AS, self.previous)


def test_corpus_is_large_and_unique():
    assert len(CASES) >= 120
    assert len({c.id for c in CASES}) == len(CASES)


IN_PROCESS = ("validate", "check", "roster")  # the runners of the cases run in-process here, each for its code


@pytest.mark.parametrize("case", [c for c in CASES if c.runner in IN_PROCESS], ids=lambda c: c.id)
def test_bad_input_in_process(case: Case, ws: Workspace, monkeypatch):
    monkeypatch.setenv("RULESMITH_TIME_LIMIT", TIME_LIMIT)
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(SECONDS)
    try:
        with memory_limit():
            found = run_case(ws, case)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert any(matches(ws, case, d) for d in found), (
        f"expected {case.code} at {case.file}:{expected_line(ws, case)}, got "
        + "\n".join(d.format_text(ws.root) for d in found))
    assert any(d.hint for d in found if matches(ws, case, d))


def _cli(ws: Workspace, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "RULESMITH_TIME_LIMIT": TIME_LIMIT, "PYTHONPATH": str(REPO)}
    return forked_cli.run(["--root", str(ws.root), *args], REPO, SECONDS, env, memory_kb=MEMORY_KB)


@pytest.mark.parametrize("case", [c for c in CASES if c.cli], ids=lambda c: c.id)
def test_bad_input_command_line(case: Case, ws: Workspace):
    case.setup(ws)
    result = _cli(ws, case.runner if case.runner == "check" else "validate")
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    warning = case.code.startswith("W")
    assert result.returncode == (0 if warning else 1), output
    path = os.path.abspath(ws.game / case.file) if case.file else os.path.abspath(ws.game)
    where = os.path.relpath(path, os.path.abspath(ws.root))
    line = expected_line(ws, case)
    head = f"{where}:{line}:" if line else f"{where}: "
    kind = "warning" if warning else "error"
    assert any(l.startswith(head) and f"{kind}[{case.code}]" in l for l in output.splitlines()), output


def test_yaml_reads_the_1_2_way(ws: Workspace):
    from pathlib import Path

    from generator.core.diagnostics import Report
    from generator.reading.yamlsource import load_yaml

    report = Report()
    doc = load_yaml(Path("x.yaml"), report, text="a: 6:1\nb: no\nc: 010\nd: 0o10\ne: true\nf: 1_000\ng: '3:1'\n")
    assert doc.data == {"a": "6:1", "b": "no", "c": 10, "d": 8, "e": True, "f": "1_000", "g": "3:1"}
    assert sorted(d.location.line for d in report.diagnostics if d.code == "W006") == [1, 2, 3, 4, 6]


HOSTILE = '"><script>alert(1)</script>'


def test_every_template_escapes_what_it_prints():
    """Every shipped template autoescapes, and `| safe` marks only Rulesmith's own CSS."""
    from generator.print.context import environment

    templates = REPO / "templates"
    env = environment([templates])
    names = [p.relative_to(templates).as_posix() for p in templates.rglob("*.j2")]
    assert names and all(env.autoescape(name) for name in names)
    for path in templates.rglob("*.j2"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if "| safe" in line or "|safe" in line:
                assert "fonts_css" in line, f"{path.name}: {line.strip()}"


def test_hostile_values_render_escaped_in_attributes():
    from markupsafe import Markup

    from generator.print.context import environment

    env = environment([REPO / "templates"])
    env.globals.update(ui=lambda key, lang="en": key)
    html = env.get_template("site/index.html.j2").render(
        games=[{"id": HOSTILE, "langs": [(HOSTILE, HOSTILE, HOSTILE)]}], Markup=Markup, preloads=[])
    assert "<script>" not in html
    assert 'lang="&#34;&gt;&lt;script&gt;' in html and 'href="&#34;&gt;&lt;script&gt;' in html


def test_untranslated_span_escapes_its_language(ws: Workspace):
    """The one attribute written by hand in the renderer (lang= on untranslated text) is escaped."""
    from generator.i18n.translate import Translator
    from generator.project import Project
    from generator.core.diagnostics import Report
    from generator.text.chapters import load_chapter
    from generator.text.render import RenderContext, render_chapter

    ws.edit("game.yaml", "languages: []", "languages: [ru]")
    game = Project(ws.root).load("demo", Report())
    object.__setattr__(game.manifest, "source_language", HOSTILE)  # past validation, as if it had slipped through
    chapter = load_chapter(ws.game / "rules" / "x.md", text="# Title\n\nScouts move.\n")
    html = str(render_chapter(chapter, RenderContext(game, Translator(game, "ru"), "site", lambda r: None, {})).html)
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_looping_table_is_stopped_and_named(ws: Workspace):
    from .bad_input import EXAMPLE, PROCEDURES

    source = PROCEDURES.replace("import consistency, procedure", "import consistency, procedure, table") + (
        '\n\n@table("forever", title="Forever")\ndef forever(game):\n    while True:\n        pass\n')
    ws.write("procedures.py", source)
    ws.write("rules/01-rules.md", EXAMPLE)
    result = _cli(ws, "check", "--tables")
    output = result.stdout + result.stderr
    line = source.splitlines().index("    while True:") + 1
    assert result.returncode == 1 and "Traceback" not in output
    assert f"content/demo/procedures.py:{line}: error: demo: a table could not be computed" in output, output
    assert f"did not finish within {TIME_LIMIT} s" in output


def test_memory_hungry_procedure_fails_its_example(ws: Workspace):
    """A procedure that allocates without bound meets the child's memory limit: its example
    errors with MemoryError; the machine keeps its memory."""
    from .bad_input import EXAMPLE, PROCEDURES

    ws.write("procedures.py", PROCEDURES.replace('    return {"hits"', '    hog = [0] * (16 << 30)\n    return {"hits"'))
    ws.write("rules/01-rules.md", EXAMPLE)
    result = _cli(ws, "check")
    output = result.stdout + result.stderr
    assert result.returncode == 1 and "Traceback" not in output
    assert "raised MemoryError" in output and "content/demo/procedures.py:6" in output, output


def test_in_process_memory_limit_holds():
    with pytest.raises(MemoryError):
        with memory_limit():
            bytearray(MEMORY_KB * 1024 * 2)
    mmap.mmap(-1, MEMORY_KB * 1024 * 2).close()  # and is lifted afterwards (the space reserved, not written)
