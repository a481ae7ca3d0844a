"""Fixtures: small content folders written in the test, on top of the `new` scaffold."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from generator.commands.new import scaffold
from generator.diagnostics import Report
from generator.project import Project

REPO = Path(__file__).resolve().parents[1]
GAMES = ("rock-n-roll", "battle-rules", "nuclear", "frames", "deadzone")


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


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True, text=True,
                          cwd=cwd or REPO)


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


@pytest.fixture(scope="session")
def shipped_site(tmp_path_factory) -> Path:
    """The site of the five shipped games, built once per test session into a temporary project."""
    from generator.site.build import build_site

    from generator import outputs
    from generator.checker.tables import write_tables

    root = tmp_path_factory.mktemp("shipped")
    (root / "content").symlink_to(REPO / "content")
    project = Project(root)
    outputs.confine_to(project.output)
    for name in project.game_ids():  # the checker's probability tables, as `rulesmith build` writes them
        write_tables(project.load(name, Report(), checks=False), project.output)
    return build_site(project, project.game_ids(), Report()).root
