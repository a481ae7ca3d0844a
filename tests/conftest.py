"""Fixtures: small content folders written in the test, on top of the `new` scaffold.

Builds shared by many modules (each made once per test run, read-only for the tests: a test that
changes one works on a copy):

- `shipped`: a project whose content/ links to the shipped games, nothing built;
- `shipped_site`: the site of the five shipped games (with search and probability tables);
- `river_line_site`: the site of the hex-and-counter test game tests/fixtures/river-line;
- `bridgehead_built`: tests/fixtures/bridgehead's English cards and its German edition (cards
  with their pictures, rulebook, reference sheet, counters, maps) and their site;
- `shared_build(tmp_path_factory, name, build)`: the helper behind them. The suite runs on
  pytest-xdist workers (pyproject's addopts), each with its own session; a build made with it is
  made once by the first worker that asks, under a file lock, and reused by the others. Use it
  for a new build that two modules read.
"""

from __future__ import annotations

import re
import fcntl
import os
import shutil
import subprocess
from pathlib import Path
from typing import Callable

import pytest

from generator.commands.new import scaffold
from generator.core.diagnostics import Report
from generator.project import Project

from . import forked_cli

REPO = Path(__file__).resolve().parents[1]
GAMES = ("rock-n-roll", "battle-rules", "nuclear", "frames", "deadzone")  # the games encoded from a seed
SHIPPED = tuple(sorted(path.parent.name for path in (REPO / "content").glob("*/game.yaml")))  # and the example game


def original_game(folder: Path) -> bool:
    """Whether a game folder's manifest declares the game its designer's own (game.yaml
    `original: true`, the example game content/zwiad): no seed stands behind its text, so a test
    that holds a game to its source text leaves it out."""
    import yaml

    return yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8")).get("original") is True


class Workspace:
    """A project folder with one scaffolded game 'demo' that tests break on purpose."""

    def __init__(self, root: Path):
        self.root = root
        self.game = root / "content" / "demo"
        scaffold(self.game, "demo", "Demo")

    def write(self, relpath: str, text: str) -> Path:
        path = self.game / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def edit(self, relpath: str, old: str, new: str) -> Path:
        path = self.game / relpath
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {relpath}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        return path

    def validate(self) -> Report:
        report = Report()
        Project(self.root).load("demo", report)
        return report

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return run_cli("--root", str(self.root), *args)


def run_cli(*args: str, cwd: Path | None = None, timeout: float | None = None) -> subprocess.CompletedProcess:
    """`python -m generator ARGS` in a process of its own (a forked child of the test process's
    command-line server, or with RULESMITH_TEST_FORK=0 a fresh interpreter: tests/forked_cli.py),
    captured as subprocess.run captures it."""
    return forked_cli.run(list(args), cwd, timeout)


# The files that take longest (seconds of one run on the 2-core test machine). They run first,
# so that the workers, which take a file at a time, end together instead of one waiting on the
# other's last long file (pyproject's addopts keep this order: --no-loadscope-reorder).
LONGEST = {"test_book_generated.py": 500, "test_browser.py": 50,  # the first: its 500 books in the slow run
           "test_incremental.py": 39, "test_bad_input.py": 37, "test_faults_os.py": 34,
           "test_site.py": 31, "test_typography.py": 29, "test_counter_bleed.py": 18, "test_build.py": 15,
           "test_a11y.py": 15, "test_prose_claims.py": 14, "test_faults_state.py": 14, "test_fuzz.py": 14,
           "test_i18n_ui.py": 13, "test_field_references.py": 13, "test_checker_nuclear.py": 13,
           "test_print_shop.py": 12, "test_pdfua.py": 12, "test_serve.py": 12,
           "test_living_rules.py": 90}


def pytest_collection_modifyitems(items):
    """The longest files first, the rest in their own order (each file's tests keep theirs)."""
    items.sort(key=lambda item: -LONGEST.get(item.path.name, 0))


@pytest.fixture(autouse=True)
def unconfined_outputs():
    """Each test starts with writes unconfined: a build earlier in the session confines them to
    its own project's output/ (a process-wide setting), which is not this test's."""
    from generator import outputs

    outputs.confine_to(None)
    yield
    outputs.confine_to(None)


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return Workspace(tmp_path)


def line_of(path: Path, needle: str) -> int:
    """1-based line of the first line containing `needle`."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


@pytest.fixture(scope="session")
def shipped(tmp_path_factory) -> Path:
    """A temporary project whose content is the shipped games' (linked, not copied), for tests
    that read or lay out what they hold without writing into it."""
    root = tmp_path_factory.mktemp("shipped-content")
    (root / "content").symlink_to(REPO / "content")
    return root


def shipped_book(root: Path, game: str, lang: str = "ru"):
    """The build context and rulebook HTML of one game of `root` in one language."""
    from generator.print.context import BuildContext
    from generator.print.rulebook import book_html

    ctx = BuildContext(Project(root).load(game, Report()), lang, root)
    return ctx, book_html(ctx)


def shared_build(tmp_path_factory, name: str, build: Callable[[Path], None]) -> Path:
    """The folder `name`, filled by `build(folder)` once per test run: under pytest-xdist the
    workers share it (the first to ask builds it while the others wait on a lock; xdist's
    documented pattern). A build that failed half-way is started afresh by the next to ask."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's temporary folder, above each worker's own
    folder, done = base / name, base / f"{name}.built"
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            build(folder)
            done.touch()
    return folder


def _build_shipped_site(root: Path) -> None:
    from generator.site.build import build_site

    from generator import outputs
    from generator.checker.tables import write_tables

    (root / "content").symlink_to(REPO / "content")
    project = Project(root)
    outputs.confine_to(project.output)
    try:
        for name in project.game_ids():  # the checker's probability tables, as `rulesmith build` writes them
            write_tables(project.load(name, Report(), checks=False), project.output)
        build_site(project, project.game_ids(), Report())
    finally:
        outputs.confine_to(None)


@pytest.fixture(scope="session")
def shipped_site(tmp_path_factory) -> Path:
    """The site of the five shipped games, built once per test run into a temporary project."""
    return shared_build(tmp_path_factory, "shipped", _build_shipped_site) / "output" / "site"


def _build_river_line_site(root: Path) -> None:
    from generator.site.build import build_site

    from generator import outputs

    shutil.copytree(REPO / "tests/fixtures/river-line", root / "content" / "river-line")
    report = Report()
    try:
        build_site(Project(root), ["river-line"], report, search=False)
    finally:
        outputs.confine_to(None)
    assert not [d for d in report.diagnostics if d.severity == "error"], report.diagnostics


@pytest.fixture(scope="session")
def river_line_site(tmp_path_factory) -> Path:
    """The site of the hex-and-counter test game (counters and map pages), built once, no search."""
    return shared_build(tmp_path_factory, "river-line-site", _build_river_line_site) / "output" / "site"


def _build_bridgehead(root: Path) -> None:
    from generator.print.jobs import Job, run_job
    from generator.site.build import build_site

    from generator import outputs

    shutil.copytree(REPO / "tests/fixtures/bridgehead", root / "content" / "bridgehead")
    jobs = [Job(root, "bridgehead", "en", "cards", images=False), Job(root, "bridgehead", "de", "cards"),
            *(Job(root, "bridgehead", "de", kind, images=False) for kind in ("rulebook", "reference", "counters", "maps"))]
    try:
        for job in jobs:
            result = run_job(job)
            assert result.error is None, result.error
        build_site(Project(root), ["bridgehead"], Report(), search=False)
    finally:
        outputs.confine_to(None)


@pytest.fixture(scope="session")
def bridgehead_built(tmp_path_factory) -> Path:
    """A project of tests/fixtures/bridgehead (English source, German edition), built once: the
    English cards, the German cards with their pictures (PNG, Tabletop Simulator), rulebook,
    reference sheet, counters and maps, and the site (no search)."""
    return shared_build(tmp_path_factory, "bridgehead", _build_bridgehead)


def edition_page(folder: Path, name: str) -> str:
    """A chapter page as the edition prints it: the source's address leads to the edition's own
    (a chapter's address is its title in each edition's words)."""
    html = (folder / name).read_text(encoding="utf-8")
    moved = re.search(r'location\.replace\("([^"#]+)"', html)
    return (folder / moved.group(1)).read_text(encoding="utf-8") if moved else html
