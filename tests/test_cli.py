"""The command line as a user meets it: exit codes, formats, --root, new, export, schema."""

from __future__ import annotations

import json
import os

from .conftest import Workspace, line_of, run_cli


def test_validate_clean_exit_0(ws: Workspace):
    result = ws.run("validate")
    assert result.returncode == 0, result.stderr
    assert "0 error(s)" in result.stderr


def test_validate_errors_exit_1_with_file_line(ws: Workspace):
    path = ws.edit("data/units.yaml", "quality: 4+", "quality: four")
    result = ws.run("validate")
    assert result.returncode == 1
    line = line_of(path, "quality: four")
    assert f"content/demo/data/units.yaml:{line}:" in result.stdout
    assert "error[E012]" in result.stdout and "hint:" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_all_problems_in_one_run(ws: Workspace):
    ws.edit("data/units.yaml", "quality: 4+", "quality: four")
    ws.edit("data/cards.yaml", "deck: orders\n    quantity: 3", "deck: order\n    quantity: 3")
    ws.edit("data/tables.yaml", "roll: 3-6", "roll: 4-6")
    result = ws.run("validate", "--format", "json")
    codes = {d["code"] for d in json.loads(result.stdout)["diagnostics"]}
    assert {"E012", "E007", "E010"} <= codes


def test_unknown_game_is_usage_error(ws: Workspace):
    result = ws.run("validate", "dmeo")
    assert result.returncode == 2 and "did you mean 'demo'" in result.stderr


def test_bad_option_is_usage_error(ws: Workspace):
    assert ws.run("validate", "--format", "xml").returncode == 2


def test_github_annotations(ws: Workspace):
    ws.edit("data/units.yaml", "quality: 4+", "quality: four")
    result = ws.run("validate", "--format", "github")
    assert result.returncode == 1
    assert result.stdout.startswith("::error file=content/demo/data/units.yaml,line=")
    assert ",col=" in result.stdout and "title=E012::" in result.stdout


def test_strict_fails_on_warnings(ws: Workspace):
    ws.edit("data/keywords.yaml", "        erratum: quick-for-fast\n", "")
    assert ws.run("validate").returncode == 0
    result = ws.run("validate", "--strict")
    assert result.returncode == 1 and "warning[W001]" in result.stdout


def test_root_defaults_to_enclosing_project(ws: Workspace):
    result = run_cli("validate", cwd=ws.game / "data")
    assert result.returncode == 0, result.stderr
    assert "1 game(s) validated" in result.stderr


def test_export_json_records_carry_kind_and_id(ws: Workspace):
    result = ws.run("export", "demo", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["game"]["kind"] == "game" and data["game"]["id"] == "demo"
    kinds = {(r["kind"], r["id"]) for r in data["records"]}
    assert {("unit", "scouts"), ("keyword", "ap"), ("card", "ambush"), ("table", "weather"),
            ("deck", "orders"), ("erratum", "quick-for-fast")} <= kinds
    scouts = next(r for r in data["records"] if r["id"] == "scouts")
    assert scouts["parsed_stats"]["quality"] == {"target": 4}
    assert scouts["parsed_stats"]["move"] == {"distance": 15, "unit": "cm"}


def test_export_refuses_broken_content(ws: Workspace):
    ws.edit("data/units.yaml", "quality: 4+", "quality: four")
    result = ws.run("export", "demo", "--json")
    assert result.returncode == 1 and result.stdout == "" and "E012" in result.stderr


def test_schema_written_and_referenced(ws: Workspace):
    result = ws.run("schema")
    assert result.returncode == 0
    folder = ws.root / "output" / "schema"
    units = json.loads((folder / "units.schema.json").read_text())
    unit_def = units["$defs"]["Unit"]
    assert unit_def["additionalProperties"] is False and "stats" in unit_def["properties"]
    assert (folder / "game.schema.json").exists()
    # every data file of the scaffold points at the schema of its section
    for path in (ws.game / "data").glob("*.yaml"):
        first = path.read_text().splitlines()[0]
        target = first.split("$schema=")[1]
        assert (path.parent / target).resolve() == (folder / f"{path.stem}.schema.json").resolve(), path


def test_schema_refuses_a_folder_outside_output(ws: Workspace, tmp_path):
    outside = tmp_path / "elsewhere"
    result = ws.run("schema", "--out", str(outside))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "outside" in result.stderr and "Hint:" in result.stderr and "--out" in result.stderr
    assert not outside.exists()
    inside = ws.root / "output" / "editor-schemas"
    assert ws.run("schema", "--out", str(inside)).returncode == 0
    assert (inside / "units.schema.json").exists()


def test_new_creates_a_game_that_validates(tmp_path):
    (tmp_path / "content").mkdir()
    result = run_cli("--root", str(tmp_path), "new", "my-game")
    assert result.returncode == 0, result.stderr
    kinds = {p.stem for p in (tmp_path / "content/my-game/data").glob("*.yaml")}
    from generator.model import SECTIONS
    assert kinds == set(SECTIONS)
    assert run_cli("--root", str(tmp_path), "validate", "my-game", "--strict").returncode == 0
    assert run_cli("--root", str(tmp_path), "new", "my-game").returncode == 2
    assert run_cli("--root", str(tmp_path), "new", "My Game").returncode == 2


def test_python_dash_m_and_console_script_agree(ws: Workspace):
    """`rulesmith` and `python -m generator` are one program: same output, same exit code."""
    import shutil
    import subprocess
    import sys

    import pytest

    from .conftest import REPO

    exe = shutil.which("rulesmith")
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("the rulesmith console script is not installed")
        pytest.skip("console script not installed")
    ws.edit("data/units.yaml", "quality: 4+", "quality: four")
    ws.edit("data/cards.yaml", "quantity: 3", "quantity: 5000")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for args in (["validate"], ["validate", "--format", "json"], ["check"]):
        script = subprocess.run([exe, "--root", str(ws.root), *args], capture_output=True, text=True, env=env)
        module = subprocess.run([sys.executable, "-m", "generator", "--root", str(ws.root), *args],
                                capture_output=True, text=True, env=env)
        assert (script.returncode, script.stdout, script.stderr) == (module.returncode, module.stdout, module.stderr)
        assert script.returncode == 1 and "E012" in script.stdout + script.stderr


def test_wheel_ships_templates_and_scaffold(tmp_path):
    """An installed Rulesmith (not a checkout) has its default templates and the scaffold."""
    import subprocess
    import sys
    import zipfile

    from .conftest import REPO

    result = subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "-q", "-w", str(tmp_path)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    names = zipfile.ZipFile(next(tmp_path.glob("*.whl"))).namelist()
    for needed in ("generator/templates/rulebook.html.j2", "generator/templates/sheets.yaml",
                   "generator/templates/site/page.html.j2", "generator/templates/backs/stars.svg.j2",
                   "generator/scaffold/game/game.yaml", "generator/print/jobs.py", "generator/site/build.py"):
        assert needed in names, needed


def test_validate_starts_every_games_checks_before_it_waits_for_one(tmp_path, monkeypatch):
    """The games are checked side by side; what they report is what loading them one after
    another reports, in the same order."""
    from click.testing import CliRunner

    from generator.checks import trial
    from generator.cli import cli
    from generator.commands.new import scaffold
    from generator.core.diagnostics import Report, render
    from generator.project import Project

    events = []

    class Recorded(trial.PendingChecks):
        def __init__(self, game, *args, **kwargs):
            events.append(("start", game.id))
            super().__init__(game, *args, **kwargs)

        def finish(self, report):
            events.append(("finish", self.game.id))
            return super().finish(report)

    for name in ("one", "two"):
        scaffold(tmp_path / "content" / name, name, name.title())
        units = tmp_path / "content" / name / "data" / "units.yaml"
        units.write_text(units.read_text(encoding="utf-8").replace("quality: 4+", "quality: four", 1), encoding="utf-8")
    one_by_one = Report()
    for name in ("one", "two"):
        Project(tmp_path).load(name, one_by_one)
    assert {d.code for d in one_by_one.errors} == {"E012"}
    monkeypatch.setattr(trial, "PendingChecks", Recorded)
    result = CliRunner().invoke(cli, ["--root", str(tmp_path), "validate", "--format", "json"])
    assert events == [("start", "one"), ("start", "two"), ("finish", "one"), ("finish", "two")]
    assert result.exit_code == 1
    assert json.loads(result.stdout) == json.loads(render(one_by_one, "json", tmp_path.resolve()))
