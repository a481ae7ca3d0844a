"""Rulesmith as users install it: the wheel, not the editable checkout every other test runs.

The default test builds the wheel and finds in it every module, template, interface catalog,
scaffold file and doc of the source tree. The slow test builds the sdist and the wheel from it
(pypa/build, as a publisher would), installs the wheel into a fresh virtual environment (not
editable, its dependencies from the package index), and runs every command from a folder outside
the checkout: an installed Rulesmith has no checkout's templates/, docs/ or content/ to fall back
on. `rulesmith new GAME --example` writes the example game from the wheel's own copy of it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# What the wheel is built from (tests/ and content/ are not part of it, but for the example game).
SOURCE = ["generator", "templates", "docs", "content/zwiad", "pyproject.toml", "setup.py", "README.md"]
# Source folder -> where its files sit inside the installed package.
SHIPPED = {"generator": "generator", "templates": "generator/templates", "docs": "generator/docs",
           "content/zwiad": "generator/examples/zwiad"}


def _copy_source(target: Path) -> Path:
    """The files a wheel is built from, copied so the build writes nothing into the checkout."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SOURCE:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, target / name, ignore=ignore)
        else:
            shutil.copy2(path, target / name)
    return target


def expected_files() -> set[str]:
    """Every file of the source tree that an installed Rulesmith needs, as its wheel names it."""
    expected = set()
    for folder, inside in SHIPPED.items():
        for path in (REPO / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                expected.add(f"{inside}/{path.relative_to(REPO / folder).as_posix()}")
    return expected


def wheel_files(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return {name for name in archive.namelist() if ".dist-info/" not in name}


def _pip_wheel(source: Path, out: Path) -> Path:
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q",
                             "--disable-pip-version-check", "-w", str(out)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    (wheel,) = out.glob("rulesmith-*.whl")
    return wheel


def test_the_wheel_holds_every_module_template_catalog_and_doc(tmp_path: Path):
    wheel = _pip_wheel(_copy_source(tmp_path / "src"), tmp_path / "dist")
    files = wheel_files(wheel)
    missing = sorted(expected_files() - files)
    assert not missing, f"{len(missing)} files of the source tree are not in the wheel: {missing[:20]}"
    # the regression that shipped: a package left out of a hand-kept list
    assert "generator/roster/armylist.py" in files and "generator/locale/ui/ru.po" in files
    # the example game `rulesmith new GAME --example` writes, its rules, catalog and procedures among it
    assert {"generator/examples/zwiad/game.yaml", "generator/examples/zwiad/locale/en.po",
            "generator/examples/zwiad/procedures.py", "generator/examples/zwiad/rules/02-tura.md"} <= files


def test_a_package_the_wheel_misses_is_found(tmp_path: Path):
    """The check above has teeth: a package folder without __init__.py is left out of the wheel
    by package discovery, and the comparison names its files."""
    source = _copy_source(tmp_path / "src")
    (source / "generator" / "roster" / "__init__.py").unlink()
    files = wheel_files(_pip_wheel(source, tmp_path / "dist"))
    assert "generator/roster/armylist.py" not in files
    assert "generator/roster/armylist.py" in expected_files() - files


# --- the installed wheel, every command ---------------------------------------------------------

def _venv(tmp: Path) -> tuple[Path, dict]:
    """A fresh virtual environment with the wheel built (via the sdist) and installed."""
    source = _copy_source(tmp / "src")
    dist = tmp / "dist"
    built = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)],
                           capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (sdist,) = dist.glob("rulesmith-*.tar.gz")
    (wheel,) = dist.glob("rulesmith-*.whl")
    assert expected_files() <= wheel_files(wheel), sorted(expected_files() - wheel_files(wheel))[:20]
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    installed = subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                                str(wheel)], capture_output=True, text=True, timeout=1800)
    assert installed.returncode == 0, installed.stderr[-3000:]
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    assert sdist.stat().st_size > 0
    return venv, env


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow
def test_the_installed_wheel_runs_every_command_outside_the_checkout(tmp_path: Path):
    venv, env = _venv(tmp_path)
    project = tmp_path / "my-game"  # a folder outside the checkout: no content/, templates/ or docs/ of ours
    project.mkdir()
    rulesmith = str(venv / "bin" / "rulesmith")

    def run(*args: str, ok: bool = True, timeout: float = 900, cwd: Path = project) -> subprocess.CompletedProcess:
        result = subprocess.run([rulesmith, *args], cwd=cwd, env=env, capture_output=True, text=True,
                                timeout=timeout)
        assert "Traceback" not in result.stderr, (args, result.stderr[-3000:])
        if ok:
            assert result.returncode == 0, (args, result.stdout[-2000:], result.stderr[-3000:])
        return result

    # the module really is the installed one, not this checkout
    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import generator; print(generator.__file__)"],
                           cwd=project, env=env, capture_output=True, text=True, timeout=60)
    assert str(venv) in where.stdout and str(REPO) not in where.stdout, where.stdout + where.stderr

    assert "validate" in run("--help").stdout
    module = subprocess.run([str(venv / "bin" / "python"), "-m", "generator", "--help"], cwd=project, env=env,
                            capture_output=True, text=True, timeout=120)
    assert module.returncode == 0 and "validate" in module.stdout
    topics = run("docs").stdout
    assert "checker" in topics and "content-format" in topics
    assert "procedure" in run("docs", "checker").stdout

    # the example game, from the wheel's copy: written under the designer's id, strict, checked, built
    example = tmp_path / "from-example"
    example.mkdir()
    run("new", "recon", "--example", cwd=example)
    assert (example / "content" / "recon" / "locale" / "en.po").is_file()
    run("validate", "--strict", "recon", cwd=example)
    assert "0 failed" in run("check", "recon", cwd=example).stderr
    run("build", "--game", "recon", cwd=example)
    for lang in ("pl", "en"):
        assert (example / "output" / "recon" / lang / "rulebook.pdf").stat().st_size > 1000, lang
        assert (example / "output" / "recon" / lang / "cards.pdf").stat().st_size > 1000, lang

    run("new", "skirmish", "--languages", "ru")
    run("new", "hexes", "--kind", "counters", "--languages", "ru")
    run("validate")
    same = run("changes", "skirmish", "--since-dir", str(project / "content" / "skirmish"), "--format", "json")
    assert json.loads(same.stdout)["changes"] == [], same.stdout[-2000:]
    checked = run("check")
    assert "0 failed" in checked.stdout + checked.stderr, checked.stdout[-2000:]
    run("schema")
    assert any((project / "output" / "schema").glob("*.schema.json"))
    run("i18n", "extract")
    run("i18n", "update", "ru")
    assert "ru" in run("i18n", "status").stdout

    run("build")
    out = project / "output" / "skirmish" / "en"
    for name in ("rulebook.pdf", "cards.pdf", "reference.pdf"):
        assert (out / name).stat().st_size > 1000, name
    assert (project / "output" / "hexes" / "en" / "counters.pdf").is_file()
    assert (project / "output" / "site" / "index.html").is_file()
    run("build", "--bleed", "--game", "skirmish", "--lang", "en", "--only", "cards")
    assert (out / "cards-bleed.pdf").is_file()
    run("build", "--print-shop", "drivethrucards", "--game", "skirmish", "--lang", "en", "--only", "cards")
    assert any((out).rglob("*drivethrucards*")) or any((project / "output").rglob("*drivethrucards*"))
    run("build", "--booklet", "--game", "skirmish", "--lang", "en", "--only", "rulebook")
    assert (out / "rulebook-booklet.pdf").is_file()

    army = project / "my-list.yaml"
    army.write_text(_scaffold_list(project), encoding="utf-8")
    checked = run("roster", "check", str(army), ok=False)
    assert checked.returncode in (0, 1), checked.stderr
    assert "total" in checked.stdout.lower(), checked.stdout
    run("roster", "print", str(army))
    assert any((out / "lists").glob("*.pdf"))

    port = _free_port()
    server = subprocess.Popen([rulesmith, "serve", "--port", str(port)], cwd=project, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        page = ""
        for _ in range(240):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    page = response.read().decode("utf-8")
                break
            except OSError:
                time.sleep(0.5)
        assert "<html" in page.lower()
    finally:
        server.send_signal(signal.SIGINT)
        try:
            _, err = server.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            _, err = server.communicate()
    assert server.returncode is not None and "Traceback" not in err, err[-3000:]


def _scaffold_list(project: Path) -> str:
    """A player's list for the scaffolded skirmish game: its roster's first size and first unit."""
    import yaml
    rosters = yaml.safe_load((project / "content" / "skirmish" / "data" / "rosters.yaml").read_text(encoding="utf-8"))
    units = yaml.safe_load((project / "content" / "skirmish" / "data" / "units.yaml").read_text(encoding="utf-8"))
    size = rosters["rosters"][0]["sizes"][0]["id"]
    unit = units["units"][0]["id"]
    return f"game: skirmish\nsize: {size}\nunits:\n  - {{unit: {unit}, count: 1}}\n"
