"""No content error, whatever the input, ends in a traceback or a hang: mutate real content
files at random (seeded, bounded) and validate each result in-process; and mutate a shipped game
every way a file can break (special files and hostile procedures.py included) and run
`validate`, `check` and `build` on each mutant through the command line, under a time and
memory limit, checking that nothing outside output/ is written."""

from __future__ import annotations

import os
import random
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from generator.system import folders
from generator.core.diagnostics import Report
from generator.project import Project

from . import forked_cli
from .bad_input import place_special
from .conftest import REPO

MUTATIONS = 60
SNIPPETS = ["", ":", "- ", "{", "}", "[", "]", "'", '"', "\n  ", "\t", "&a ", "*a", "!!binary ", "? ",
            "{{ unit:", "}}", "::: example", ":::", "# ", "\x00", "~", "null", "-1", "1e999", "id: X",
            "stats: {", "quality: 9", "roll: 7-1", "keywords: [ББ]", "| a |", "\ufeff", "%YAML 1.1\n---\n"]


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        pos = rng.randrange(len(text) + 1)
        action = rng.random()
        if action < 0.4:
            text = text[:pos] + rng.choice(SNIPPETS) + text[pos:]
        elif action < 0.7:
            text = text[:pos] + text[pos + rng.randint(1, 40):]
        else:
            lines = text.splitlines(keepends=True)
            if lines:
                i = rng.randrange(len(lines))
                lines.insert(rng.randrange(len(lines) + 1), lines[i])
                text = "".join(lines)
    return text


@pytest.mark.parametrize("game", ["nuclear", "rock-n-roll"])
def test_mutated_content_never_crashes(game: str, tmp_path: Path):
    folder = tmp_path / "content" / game
    shutil.copytree(REPO / "content" / game, folder, ignore=shutil.ignore_patterns("procedures.py"))
    files = sorted(folder.glob("data/*.yaml")) + [folder / "game.yaml"] + sorted(folder.glob("rules/*.md"))[:3] \
        + sorted(folder.glob("locale/*.po"))
    rng = random.Random(f"{game}-fuzz")
    originals = {p: p.read_text(encoding="utf-8") for p in files}
    for _ in range(MUTATIONS):
        path = rng.choice(files)
        path.write_text(mutate(originals[path], rng), encoding="utf-8")
        report = Report()
        Project(tmp_path).load(game, report)  # must not raise
        for d in report.diagnostics:
            assert d.code and d.message and d.location.path.exists()
        path.write_text(originals[path], encoding="utf-8")


# -- the command-line fuzzer: mutants of the shipped content through validate, check and build --

COMMANDS = (("validate",), ("check",), ("build", "--lang", "en", "--only", "reference"))
COMMAND_SECONDS = 240   # a hang guard, not a speed target: a mutant that hangs fails here
MEMORY_KB = 3_000_000  # ulimit -v of each command
WRONG_TYPES = ["[1, 2]", "{a: 1}", "-1", "true", "~", "''", "1e999", "9" * 30, "[[[]]]", "!!binary aGk=", "*x", "&x [*x]"]
MARKUP = ["::: example x\n", ":::\n", "{{ unit:", "}}", "{{ unit:nobody }}", "[a](", "![x](nowhere.png)", "```\n",
          "```check\nprocedure: nothing\n```\n", "| a | b |\n|---|\n", "# \n", "{.new-page}", "<script>x</script>",
          "[^1]", "\u202e", "\x00", "{{ calc:roll(", "**", "> "]
SPECIAL = ("fifo", "socket", "zero", "dangling", "self")
HOSTILE = [
    "while True:\n    pass\n",
    "import os\nos._exit(3)\n",
    "raise SystemExit(0)\n",
    "def f():\n    return f()\nf()\n",
    "hog = bytearray(1 << 40)\n",
    "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nwhile True:\n    pass\n",
    "print('x' * 10_000_000)\n",
    "import sys\nsys.stdout.close()\nsys.stderr.close()\n",
    "raise KeyboardInterrupt\n",
    "this is not python\n",
    "import threading\nthreading.Thread(target=lambda: [0] * (1 << 34), daemon=True).start()\n",
]


def _lines_of(path: Path, rng: random.Random, action: str) -> bytes:
    data = path.read_bytes()
    lines = data.splitlines(keepends=True) or [b"\n"]
    i = rng.randrange(len(lines))
    if action == "delete-line":
        del lines[i]
    elif action == "duplicate-line":
        lines.insert(rng.randrange(len(lines) + 1), lines[i])
    elif action == "truncate":
        return data[: rng.randrange(len(data) + 1)]
    elif action == "wrong-type":
        text = lines[i].decode("utf-8", "replace")
        lines[i] = re.sub(r":\s+\S.*$", lambda m: ": " + rng.choice(WRONG_TYPES), text.rstrip("\n"), count=1).encode() + b"\n"
    elif action == "markup":
        at = rng.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:at] + rng.choice(MARKUP).encode() + lines[i][at:]
    return b"".join(lines)


def mutate_game(folder: Path, rng: random.Random) -> str:
    """Break the game in `folder` one way, as a hand, a tool or a bad copy would; what was done."""
    from .test_catalog_syntax import mutate as mutate_catalog

    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in (".yaml", ".md", ".po", ".py"))
    kind = rng.choice(["delete-line", "duplicate-line", "truncate", "wrong-type", "markup", "catalog", "special",
                       "procedures"])
    if kind == "procedures":
        path = folder / "procedures.py"
        hostile = rng.choice(HOSTILE)  # at the end: it runs when the module is imported, its procedures defined
        path.write_text(path.read_text(encoding="utf-8") + "\n\n" + hostile, encoding="utf-8")
        return f"hostile procedures.py ({hostile.splitlines()[-1].strip()[:40]})"
    if kind == "catalog":
        path = folder / "locale" / "en.po"
        path.write_text(mutate_catalog(path.read_text(encoding="utf-8"), rng), encoding="utf-8")
        return "broken catalog locale/en.po"
    choices = {"wrong-type": [p for p in files if p.suffix == ".yaml"], "markup": [p for p in files if p.suffix == ".md"]}
    path = rng.choice(choices.get(kind) or files)
    if kind == "special":
        special = rng.choice(SPECIAL)
        place_special(path, special)
        return f"{special} in place of {path.relative_to(folder)}"
    path.write_bytes(_lines_of(path, rng, kind))
    return f"{kind} in {path.relative_to(folder)}"


def _state(root: Path) -> dict[str, tuple]:
    """Every path under `root` but output/, with what it is and holds: a write outside output/ changes it."""
    found = {}
    for path in folders.walk(root, skip=("output",)):
        mode = path.lstat()
        found[str(path.relative_to(root))] = (stat.S_IFMT(mode.st_mode), mode.st_size, mode.st_mtime_ns)
    return found


def run_mutant(root: Path, game: str, seed: str) -> tuple[str, list[str]]:
    """Mutate a fresh copy of `game` under `root` and run every command on it; what was done and
    what went wrong (a traceback, a hang, a crash, a write outside output/)."""
    folder = root / "content" / game
    if folder.exists():
        folders.remove(folder)
    shutil.copytree(REPO / "content" / game, folder, symlinks=True)
    done = mutate_game(folder, random.Random(seed))
    before = _state(root)
    env = {**os.environ, "RULESMITH_TIME_LIMIT": "2", "PYTHONPATH": str(REPO)}
    problems = []
    for command in COMMANDS:
        args = ["--root", str(root), *command[:1], *(("--game", game) if command[0] == "build" else (game,)),
                *command[1:]]
        try:
            result = forked_cli.run(args, REPO, COMMAND_SECONDS, env, memory_kb=MEMORY_KB)
        except subprocess.TimeoutExpired:
            problems.append(f"{command[0]}: no answer within {COMMAND_SECONDS} s")
            continue
        output = result.stdout + result.stderr
        if "Traceback" in output or result.returncode not in (0, 1):
            problems.append(f"{command[0]}: exit {result.returncode}\n{output[-3000:]}")
    after = _state(root)
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    if changed:
        problems.append(f"written outside output/: {changed[:5]}")
    return done, problems


FUZZ_GAMES = ("frames", "nuclear")


def test_a_few_mutants_of_the_shipped_content_end_in_diagnostics(tmp_path: Path):
    """The seeded, small version of the slow fuzzer below: three mutants, every command."""
    for n in range(3):
        done, problems = run_mutant(tmp_path, FUZZ_GAMES[n % 2], f"quick-{n}")
        assert problems == [], f"{done}: " + "\n".join(problems)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(3))
def test_mutants_of_the_shipped_content_end_in_diagnostics(tmp_path: Path, chunk: int):
    """Mutants of two shipped games (deleted, doubled and cut lines, wrong types, broken markup
    and catalogs, special files, hostile procedures.py) through validate, check and a build of
    the English reference sheet: no traceback, no hang, no write outside output/."""
    failures = []
    for n in range(chunk * 10, chunk * 10 + 10):
        done, problems = run_mutant(tmp_path, FUZZ_GAMES[n % 2], f"slow-{n}")
        if problems:
            failures.append(f"mutant slow-{n} ({done}): " + "\n".join(problems))
    assert failures == [], "\n\n".join(failures)


def _hostile(root: Path, source: str, *command: str) -> subprocess.CompletedProcess:
    folder = root / "content" / "frames"
    if not folder.exists():
        shutil.copytree(REPO / "content" / "frames", folder)
    shutil.copy(REPO / "content" / "frames" / "procedures.py", folder / "procedures.py")
    with open(folder / "procedures.py", "a", encoding="utf-8") as module:
        module.write("\n\n" + source)
    env = {**os.environ, "RULESMITH_TIME_LIMIT": "2", "PYTHONPATH": str(REPO)}
    args = [*command[:1], *(("--game", "frames") if command[0] == "build" else ("frames",)), *command[1:]]
    return forked_cli.run(["--root", str(root), *args], REPO, COMMAND_SECONDS, env, memory_kb=MEMORY_KB)


def test_a_thread_of_the_procedures_that_fails_is_one_line(tmp_path: Path):
    """Found by the fuzzer: a thread started by procedures.py that raised printed Python's
    traceback from the checking child."""
    result = _hostile(tmp_path, HOSTILE[-1], "validate")
    output = result.stdout + result.stderr
    assert "Traceback" not in output and result.returncode in (0, 1), output
    assert "note: a thread that procedures.py started ended in MemoryError" in output


@pytest.mark.slow
@pytest.mark.parametrize("source", HOSTILE, ids=[f"hostile-{i}" for i in range(len(HOSTILE))])
def test_each_hostile_procedures_module_ends_in_a_diagnostic(tmp_path: Path, source: str):
    for command in COMMANDS:
        result = _hostile(tmp_path, source, *command)
        output = result.stdout + result.stderr
        assert "Traceback" not in output and result.returncode in (0, 1), output
