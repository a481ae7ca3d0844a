"""The build's own state (output/.rulesmith/, output/.lock) is data like any input: damaged,
replaced by a symlink or a folder, naming paths outside output/, it is discarded with a
one-line note and worked out again; no file outside output/ is ever deleted, truncated or
trusted because of it, and a build killed with `kill -9` leaves the lock free at once."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator import outputs

from .conftest import REPO, Workspace

VICTIM = b"not the build's to touch\n"


@pytest.fixture(autouse=True)
def fresh_notes():
    """A note is said once per process: each test here starts with none said."""
    outputs._noted.clear()


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The scaffold game's cards, built once; each test works on a copy."""
    root = tmp_path_factory.mktemp("state")
    result = Workspace(root).run("build", "--only", "cards")
    assert result.returncode == 0, result.stderr
    return root


@pytest.fixture
def copy(built: Path, tmp_path: Path) -> Workspace:
    shutil.copytree(built, tmp_path / "p", symlinks=True)
    ws = Workspace.__new__(Workspace)
    ws.root, ws.game = tmp_path / "p", tmp_path / "p" / "content" / "demo"
    return ws


def kept(ws: Workspace, name: str) -> Path:
    return ws.root / "output" / ".rulesmith" / name


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def build_cards(ws: Workspace, expect: int = 0) -> str:
    """Build the cards again; the one-line notes it printed (no traceback, the expected exit)."""
    result = ws.run("build", "--only", "cards")
    assert result.returncode == expect, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    return "\n".join(line for line in result.stderr.splitlines() if line.startswith("note:"))


def cards_pdf(ws: Workspace) -> bytes:
    return (ws.root / "output" / "demo" / "en" / "cards.pdf").read_bytes()


# -- the manifest ------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["content", "beside", "absolute"])
def test_a_manifest_naming_files_outside_output_deletes_none_of_them(copy: Workspace, tmp_path: Path, where: str):
    victim = {"content": copy.game / "game.yaml", "beside": copy.root / "victim.txt",
              "absolute": tmp_path / "elsewhere" / "victim.txt"}[where]
    if where != "content":
        victim.parent.mkdir(exist_ok=True)
        victim.write_bytes(VICTIM)
    before = victim.read_bytes()
    named = {"content": "../content/demo/game.yaml", "beside": "../victim.txt", "absolute": str(victim)}[where]

    def plant(data):
        entry = data["entries"]["cards:demo/en"]
        entry["files"][named] = [1, 1, "0" * 64]
        entry["inputs"] = "changed"  # the cards are made again: the files they made before are cleared away

    edit_json(kept(copy, "manifest.json"), plant)
    notes = build_cards(copy)
    assert victim.read_bytes() == before
    assert "output/.rulesmith/manifest.json is damaged" in notes and named in notes


def test_a_recorded_file_replaced_by_a_symlink_is_not_trusted(copy: Workspace, tmp_path: Path):
    pdf = copy.root / "output" / "demo" / "en" / "cards.pdf"
    twin = tmp_path / "twin.pdf"
    shutil.copy2(pdf, twin)  # same size and time: a stat through the link would find it intact
    pdf.unlink()
    pdf.symlink_to(twin)
    build_cards(copy)
    assert not pdf.is_symlink() and pdf.read_bytes() == twin.read_bytes()


@pytest.mark.parametrize("field, value", [("diagnostics", {"W001": "x"}), ("diagnostics", [["W001", 1]]),
                                          ("inputs", 7), ("pages", -1)])
def test_a_manifest_entry_with_a_wrong_value_is_a_note(copy: Workspace, field: str, value):
    edit_json(kept(copy, "manifest.json"),
              lambda data: [entry.__setitem__(field, value) for entry in data["entries"].values()])
    notes = build_cards(copy)
    assert "manifest.json is damaged" in notes and len(notes.splitlines()) == 1
    assert json.loads(kept(copy, "manifest.json").read_text(encoding="utf-8"))["entries"]["validate:demo"][
        "diagnostics"] == []  # rebuilt well formed
    assert build_cards(copy) == ""


# -- the card text sizes and layout decisions ---------------------------------------------

@pytest.mark.parametrize("size", ["0", "NaN", "-3", "1e308", "1.0", "true"])
def test_a_damaged_card_text_size_prints_the_cards_as_a_clean_build(copy: Workspace, size: str):
    clean = cards_pdf(copy)
    fit = kept(copy, "fit.json")
    fit.write_text(fit.read_text(encoding="utf-8").replace('"pt": 8.5', f'"pt": {size}'), encoding="utf-8")
    kept(copy, "manifest.json").unlink()  # the cards are laid out again, from what fit.json says
    notes = build_cards(copy)
    assert "output/.rulesmith/fit.json is damaged" in notes
    assert cards_pdf(copy) == clean
    assert '"pt": 8.5' in fit.read_text(encoding="utf-8")


@pytest.mark.parametrize("decision", [[["x"]], [99], "long"])
def test_a_malformed_layout_decision_is_laid_out_again(copy: Workspace, decision):
    clean = cards_pdf(copy)
    edit_json(kept(copy, "layout.json"),
              lambda data: [entry.__setitem__("decision", decision) for entry in data.values()])
    kept(copy, "manifest.json").unlink()
    notes = build_cards(copy)
    assert "output/.rulesmith/layout.json is damaged" in notes
    assert cards_pdf(copy) == clean


def test_kept_stores_that_are_not_json_are_worked_out_again(copy: Workspace):
    clean = cards_pdf(copy)
    for name in ("fit.json", "layout.json", "images.json"):
        kept(copy, name).write_bytes(b"\xff{")
    kept(copy, "manifest.json").unlink()
    notes = build_cards(copy)
    assert all(f"output/.rulesmith/{name} is damaged (not valid JSON)" in notes
               for name in ("fit.json", "layout.json", "images.json"))
    assert cards_pdf(copy) == clean


# -- symlinks, folders and files where the state goes ---------------------------------------

def test_a_state_file_that_is_a_symlink_is_removed_not_followed(copy: Workspace):
    game_yaml = copy.game / "game.yaml"
    before = game_yaml.read_bytes()
    for name in ("fit.json", "manifest.json"):
        kept(copy, name).unlink()
        kept(copy, name).symlink_to(game_yaml)
    notes = build_cards(copy)
    assert game_yaml.read_bytes() == before
    assert "output/.rulesmith/fit.json was a symlink; removed" in notes
    assert not kept(copy, "fit.json").is_symlink() and json.loads(kept(copy, "fit.json").read_text("utf-8"))


def test_the_state_folder_as_a_symlink_out_of_output_is_replaced(copy: Workspace, tmp_path: Path):
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(copy.root / "output" / ".rulesmith", elsewhere)
    before = {p.name: p.read_bytes() for p in elsewhere.iterdir()}
    shutil.rmtree(copy.root / "output" / ".rulesmith")
    (copy.root / "output" / ".rulesmith").symlink_to(elsewhere)
    (copy.root / "output" / "demo" / "en" / "cards.pdf").unlink()  # something to write
    notes = build_cards(copy)
    assert "output/.rulesmith was a symlink; replaced by a new folder" in notes
    assert {p.name: p.read_bytes() for p in elsewhere.iterdir()} == before
    assert (copy.root / "output" / ".rulesmith").is_dir() and not (copy.root / "output" / ".rulesmith").is_symlink()


@pytest.mark.parametrize("name, force", [("manifest.json", False), ("fit.json", False), ("manifest.json", True),
                                         ("layout.json", True), ("images.json", True), ("x", True)])
def test_a_state_file_that_is_a_folder_is_replaced(copy: Workspace, name: str, force: bool):
    clean = cards_pdf(copy)
    kept(copy, name).unlink(missing_ok=True)
    (kept(copy, name) / "inner").mkdir(parents=True)
    result = copy.run("build", "--only", "cards", *(["--force"] if force else []))
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    if name != "x":  # a folder of ours the build does not know stays
        assert not kept(copy, name).is_dir()
        assert f"note: output/.rulesmith/{name} was a folder; removed" in result.stderr
    assert cards_pdf(copy) == clean


@pytest.mark.parametrize("name", [".rulesmith", ".rulesmith/chunks"])
def test_a_state_folder_that_is_a_file_is_replaced(copy: Workspace, name: str):
    clean = cards_pdf(copy)
    path = copy.root / "output" / name
    shutil.rmtree(path, ignore_errors=True)
    path.write_text("{}", encoding="utf-8")
    notes = build_cards(copy)
    assert f"note: output/{name} was a file; " in notes
    assert cards_pdf(copy) == clean
    assert (copy.root / "output" / ".rulesmith" / "manifest.json").is_file()


# -- the lock -----------------------------------------------------------------------------------

@pytest.mark.parametrize("link", ["symlink", "hardlink"])
def test_a_lock_linked_to_content_leaves_the_content_untouched(copy: Workspace, link: str):
    game_yaml = copy.game / "game.yaml"
    before = game_yaml.read_bytes()
    lock = copy.root / "output" / ".lock"
    lock.unlink(missing_ok=True)
    lock.symlink_to(game_yaml) if link == "symlink" else os.link(game_yaml, lock)
    notes = build_cards(copy)
    assert game_yaml.read_bytes() == before
    assert "output/.lock was a" in notes and "replaced by a new lock file" in notes
    assert lock.is_file() and not lock.is_symlink() and lock.stat().st_nlink == 1


def test_a_lock_that_is_a_folder_is_replaced(copy: Workspace):
    lock = copy.root / "output" / ".lock"
    lock.unlink(missing_ok=True)
    (lock / "inner").mkdir(parents=True)
    notes = build_cards(copy)
    assert "output/.lock was a folder; replaced by a new lock file" in notes
    assert lock.is_file()


HANGING = '''
import os, pathlib, signal, time
ROOT = pathlib.Path(__file__).resolve().parents[2]
if (ROOT / "hang").exists():  # once: this run ignores its time limit and waits
    (ROOT / "hang").rename(ROOT / "hanging")
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    (ROOT / "child.pid").write_text(str(os.getpid()))
    while (ROOT / "hanging").exists():
        time.sleep(0.05)
'''


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def _until(condition, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not hasattr(os, "fork"), reason="procedures run in a forked child where there is fork")
def test_a_build_killed_while_its_procedures_run_leaves_the_lock_free(ws: Workspace):
    ws.write("procedures.py", HANGING)
    (ws.root / "hang").touch()
    build = subprocess.Popen([sys.executable, "-m", "generator", "--root", str(ws.root), "build", "--only", "cards"],
                             cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    child = None
    try:
        assert _until(lambda: (ws.root / "child.pid").is_file() and (ws.root / "child.pid").read_text()), \
            "the procedures never ran"
        child = int((ws.root / "child.pid").read_text())
        os.kill(build.pid, signal.SIGKILL)
        build.wait()
        result = ws.run("build", "--only", "cards")  # the content's own child may still be ending
        assert result.returncode == 0, result.stderr
        assert "another build" not in result.stderr
        assert _until(lambda: not _running(child), 10), "the procedures outlived their build"
    finally:
        (ws.root / "hanging").unlink(missing_ok=True)
        if build.poll() is None:
            build.kill()
            build.wait()
        if child is not None and _running(child):
            os.kill(child, signal.SIGKILL)


def test_a_forked_child_does_not_keep_the_lock(tmp_path: Path):
    """The lock's descriptor is closed in a forked child: the child ending last does not hold
    the lock once its parent let it go."""
    lock = outputs.BuildLock(tmp_path / "output")
    lock.acquire()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        os.write(write, b"1")
        time.sleep(30)
        os._exit(0)
    os.close(write)
    try:
        assert os.read(read, 1) == b"1"
        lock.release()
        with outputs.BuildLock(tmp_path / "output") as again:  # another process would take it as well
            assert again.owner() == os.getpid()
    finally:
        os.close(read)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


# -- the one place paths from the state are confined ----------------------------------------------

@pytest.mark.parametrize("rel, inside", [("demo/en/cards.pdf", True), ("../victim.txt", False),
                                         ("demo/../../victim.txt", False), ("/etc/passwd", False), ("", False),
                                         ("demo\\..\\..\\x", False), ("./demo", False), (7, False),
                                         ("linked/x.pdf", False)])
def test_paths_named_by_the_state_stay_inside_output(tmp_path: Path, rel, inside: bool):
    output = tmp_path / "output"
    output.mkdir()
    (output / "linked").symlink_to(tmp_path)
    assert (outputs.within(output, rel) is not None) == inside
    folders: dict = {}  # the folders resolved once for many paths: the same answers
    assert [outputs.within(output, r, folders) is not None for r in (rel, "demo/x.pdf", rel)] == [inside, True, inside]


@pytest.mark.parametrize("text", ['{"a": 1e999}', '{"a": NaN}', '{"a": -Infinity}', "[" * 100_000, '{"a": 1'])
def test_kept_json_that_is_not_finite_json_is_damaged(tmp_path: Path, text: str):
    from generator.project.keptstate import Damaged, read_json

    path = tmp_path / "fit.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(Damaged, match="not valid JSON"):
        read_json(path)


def test_a_store_keeps_only_the_entries_its_reader_finds_well_formed(tmp_path: Path, capsys):
    from generator.print import memo

    path = tmp_path / "output" / ".rulesmith" / "images.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"good": "state", "bad": [1], "worse": null}', encoding="utf-8")
    assert memo.load(path, lambda entry: isinstance(entry, str)) == {"good": "state"}
    assert "images.json is damaged (2 entries not well formed)" in capsys.readouterr().err


def test_a_lock_that_is_a_pipe_is_replaced(tmp_path: Path, capsys):
    output = tmp_path / "output"
    output.mkdir()
    os.mkfifo(output / ".lock")
    outputs.confine_to(output)
    with outputs.BuildLock(output) as lock:
        assert lock.owner() == os.getpid() and (output / ".lock").is_file()
    assert "output/.lock was not a plain file; replaced by a new lock file" in capsys.readouterr().err


def test_symlinks_in_the_kept_chunks_are_removed_not_followed(tmp_path: Path, capsys):
    from generator.project.keptstate import tidy

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "index.json").write_bytes(VICTIM)
    chunks = tmp_path / "output" / ".rulesmith" / "chunks" / "demo" / "en"
    chunks.mkdir(parents=True)
    (chunks / "cards").symlink_to(elsewhere)
    (chunks / "kept.pdf").write_bytes(b"%PDF")
    outputs.confine_to(tmp_path / "output")
    tidy(tmp_path / "output")
    assert not (chunks / "cards").exists() and (chunks / "kept.pdf").is_file()
    assert (elsewhere / "index.json").read_bytes() == VICTIM
    assert "output/.rulesmith/chunks/demo/en/cards was a symlink; removed" in capsys.readouterr().err


def test_a_write_replaces_a_symlink_instead_of_writing_through_it(tmp_path: Path):
    victim = tmp_path / "game.yaml"
    victim.write_bytes(VICTIM)
    store = tmp_path / "output" / ".rulesmith" / "fit.json"
    store.parent.mkdir(parents=True)
    store.symlink_to(victim)
    outputs.confine_to(tmp_path / "output")
    outputs.write_text(store, "{}")
    assert victim.read_bytes() == VICTIM and not store.is_symlink() and store.read_text(encoding="utf-8") == "{}"
