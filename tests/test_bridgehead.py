"""The `bridgehead` fixture is a test game of the shape issue 23 names: an English-source
miniatures game with a German edition, three unit types, 14 two-sided event cards of bridge
size, 20 two-sided counters, a hex map and 10 worked examples. It validates with `--strict`
(every German message translated, every number of an example bound), and `check` passes
every example against its procedures.py; a change to the data fails the examples that rely on
it. (tests/test_edition_words.py scans its German PDFs and site pages.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import REPO, run_cli

FIXTURE = REPO / "tests/fixtures/bridgehead"


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("bridgehead")
    shutil.copytree(FIXTURE, root / "content" / "bridgehead")
    return root


def test_the_fixture_has_the_shape_the_issue_names(project):
    game = Project(project).load("bridgehead", Report())
    assert (game.manifest.source_language, list(game.manifest.languages)) == ("en", ["de"])
    assert len(game.units) == 3
    cards = list(game.cards.values())
    assert len(cards) == 14 and {game.decks[c.deck].size for c in cards} == {"bridge"}
    assert sum(c.back is not None for c in cards) == 13  # one keeps the deck's back design
    counters = list(game.section("counters").values())
    assert len(counters) == 20 and all(c.back is not None for c in counters)
    assert {c.sheet for c in counters} == {"units", "markers"}
    assert [m.grid for m in game.section("maps").values()] == ["hex-flat"]


def test_the_fixture_validates_with_strict(project):
    result = run_cli("validate", "--strict", "bridgehead", cwd=project)
    said = result.stdout + result.stderr
    assert result.returncode == 0, said
    assert "0 error(s), 0 warning(s)" in said


def test_check_passes_all_ten_examples_with_every_number_bound(project):
    result = run_cli("check", "bridgehead", "--format", "json", cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["summary"]["examples"] == 10 and report["summary"]["pass"] == 10
    assert [g["claims"] for g in report["games"]] == [{"bound": 43, "free": 0, "unbound": 0}]
    procedures = {check["procedure"] for example in report["examples"] for check in example["checks"]}
    assert procedures == {"move", "charge", "shoot", "melee", "morale", "march", "step-loss", "demolition"}


def test_a_change_to_the_data_fails_the_examples_that_rely_on_it(tmp_path):
    game = tmp_path / "content" / "bridgehead"
    shutil.copytree(FIXTURE, game)
    units = game / "data/units.yaml"
    units.write_text(units.read_text(encoding="utf-8").replace("move: 12 in", "move: 10 in"), encoding="utf-8")
    maps = game / "data/maps.yaml"
    maps.write_text(maps.read_text(encoding="utf-8").replace('"0403", "0404", ', '"0403", "0304", "0404", '),
                    encoding="utf-8")  # the road no longer crosses the river at the old bridge
    result = run_cli("check", "bridgehead", "--format", "json", cwd=tmp_path)
    assert result.returncode == 1
    failed = {e["id"]: e for e in json.loads(result.stdout)["examples"] if e["result"] != "pass"}
    assert set(failed) == {"cavalry-in-the-rain", "blue-cavalry-look-for-a-ford"}
    claims = [c for c in failed["cavalry-in-the-rain"]["claims"] if c["verdict"] == "fail"]
    assert [(c["text"], c["bound_result"]) for c in claims] == [("12", "10"), ("6", "5")]
