"""Incremental builds: each kind of input change rebuilds what it must and nothing else, an
incremental build gives the same files as a clean one, the manifest is never trusted when
damaged; outputs are written atomically, inside output/, one build at a time."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator import outputs
from generator.commands.build import DEFAULT_OPTIONS, build
from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import Workspace

KINDS = ["rulebook", "cards", "reference", "site"]
BOOKKEEPING = {".rulesmith", ".lock"}


def run_build(root: Path, force: bool = False, **options) -> Report:
    report = Report()
    project = Project(root)
    build(project, project.game_ids(), KINDS, False, None, 1, force, {**DEFAULT_OPTIONS, **options}, False,
          report=report)
    outputs.confine_to(None)
    return report


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every output file -> (inode, mtime): an atomic rewrite gives a new inode."""
    out = {}
    for path in sorted((root / "output").rglob("*")):
        rel = path.relative_to(root / "output")
        if path.is_file() and rel.parts[0] not in BOOKKEEPING:
            stat = path.stat()
            out[rel.as_posix()] = (stat.st_ino, stat.st_mtime_ns)
    return out


def rewritten(before: dict, after: dict) -> set[str]:
    return {p for p in after if before.get(p) != after[p]}


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root / "output").as_posix(): p.read_bytes()
            for p in sorted((root / "output").rglob("*"))
            if p.is_file() and p.relative_to(root / "output").parts[0] not in BOOKKEEPING}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The scaffold game, built once; each test works on a copy."""
    root = tmp_path_factory.mktemp("built")
    Workspace(root)
    assert not run_build(root).errors
    return root


@pytest.fixture
def copy(built: Path, tmp_path: Path) -> Workspace:
    shutil.copytree(built, tmp_path / "p")
    ws = Workspace.__new__(Workspace)
    ws.root, ws.game = tmp_path / "p", tmp_path / "p" / "content" / "demo"
    return ws


def test_nothing_changed_writes_nothing(copy: Workspace):
    before = snapshot(copy.root)
    assert "demo/en/cards.pdf" in before and "site/pagefind/pagefind-entry.json" in before
    run_build(copy.root)
    assert rewritten(before, snapshot(copy.root)) == set()


def test_card_text_rebuilds_the_card_outputs_only_and_matches_a_clean_build(copy: Workspace, tmp_path: Path):
    before = snapshot(copy.root)
    copy.edit("data/cards.yaml", "One unit moves and then attacks.", "One unit moves, then fights.")
    run_build(copy.root)
    changed = rewritten(before, snapshot(copy.root))
    assert {"demo/en/cards.pdf", "demo/en/cards/orders-advance.png", "site/demo/en/cards/advance.html"} <= changed
    assert "demo/en/rulebook.pdf" not in changed and "demo/en/reference.pdf" not in changed
    assert "site/demo/en/units.html" not in changed
    others = {p for p in before if p.startswith("demo/en/cards/") and p != "demo/en/cards/orders-advance.png"}
    assert others and not others & changed  # the other cards' PNGs are kept
    clean = tmp_path / "clean"
    shutil.copytree(copy.root / "content", clean / "content")
    run_build(clean)
    assert tree(clean) == tree(copy.root)  # incremental == clean, byte for byte


@pytest.fixture
def laid_out(monkeypatch) -> list[str]:
    """The HTML of every document WeasyPrint lays out from now on."""
    import generator.print.pdf as pdf

    seen: list[str] = []
    real = pdf.HTML

    def spy(*args, **kwargs):
        seen.append(kwargs.get("string", ""))
        return real(*args, **kwargs)

    monkeypatch.setattr(pdf, "HTML", spy)
    return seen


def test_card_text_lays_out_no_other_document(copy: Workspace, laid_out: list[str]):
    """The rulebook and the reference sheet are laid out to fit them (landscape tables,
    sections spanning the sheet); an edit they do not show must not lay them out again."""
    copy.edit("data/cards.yaml", "One unit moves and then attacks.", "One unit moves, then fights.")
    run_build(copy.root)
    assert any("One unit moves, then fights." in html for html in laid_out)  # the card sheets were
    assert not [html for html in laid_out if '<section class="cover"' in html or 'class="ref-head"' in html]


def _opened(monkeypatch) -> list[str]:
    """The names of the images opened from now on (given the opened file: folders.open_file)."""
    from PIL import Image

    opened: list[str] = []
    real = Image.open
    monkeypatch.setattr(Image, "open", lambda path, *a, **k: opened.append(str(getattr(path, "name", path)))
                        or real(path, *a, **k))
    return opened


def _events_deck(copy: Workspace) -> None:
    copy.edit("data/decks.yaml", "    size: poker\n", "    size: poker\n  - id: events\n    name: Events\n"
              "    back: spades-diamonds\n    size: poker\n")
    copy.edit("data/cards.yaml", "cards:\n", "cards:\n  - id: storm\n    name: Storm\n    card_kind: event\n"
              "    deck: events\n    quantity: 1\n    text: Nobody moves this turn.\n")


def _same_as_clean(copy: Workspace, tmp_path: Path) -> None:
    clean = tmp_path / "clean"
    shutil.copytree(copy.root / "content", clean / "content")
    run_build(clean)
    assert tree(clean) == tree(copy.root)  # incremental == clean, byte for byte


def test_card_text_pastes_its_card_into_the_kept_sheet(copy: Workspace, monkeypatch, tmp_path: Path):
    """A card's edit renders that card and pastes it into its deck's Tabletop Simulator sheet
    as the last build left it: neither the deck's other PNGs nor another deck's are read, and
    the sheet is the one a clean build makes."""
    _events_deck(copy)
    run_build(copy.root)
    before = snapshot(copy.root)
    opened = _opened(monkeypatch)
    copy.edit("data/cards.yaml", "One unit moves and then attacks.", "One unit moves, then fights.")
    run_build(copy.root)
    changed = rewritten(before, snapshot(copy.root))
    assert {"demo/en/cards/orders-advance.png", "demo/en/tts/orders-1.png"} <= changed
    assert not {"demo/en/cards/events-storm.png", "demo/en/tts/events-1.png", "demo/en/cards/orders-ambush.png"} & changed
    assert [p for p in opened if p.endswith("orders-1.png")]  # the sheet as it was
    assert not [p for p in opened if "cards/" in p or "events-" in p]  # no card read back
    monkeypatch.undo()
    _same_as_clean(copy, tmp_path)


ALARM = ("cards:\n  - id: alarm\n    name: Alarm\n    card_kind: order\n    deck: orders\n    quantity: 1\n"
         "    text: Every unit wakes.\n")  # data/alarm.yaml: a card read before cards.yaml's, theirs unchanged


@pytest.mark.parametrize("how", ["cells moved", "cells unknown", "sheet resized"])
def test_a_sheet_whose_cells_changed_or_are_unknown_is_made_right(copy: Workspace, monkeypatch, tmp_path: Path,
                                                                   laid_out: list[str], how: str):
    """A card added at the front of a deck moves the others' cells on its sheet (`cells
    moved`): a cell that showed another card when last made is cut from the sheet as it was
    (images.json says which card each cell showed), the moved cards not laid out again. When
    images.json does not say (a store of an older build), or the sheet left is too small to
    hold the cell, the card is laid out again. No card's PNG is read back (a cell is drawn at
    its own size, not shrunk from it), and each gives the sheet a clean build makes."""
    import json

    store = copy.root / "output" / ".rulesmith" / "images.json"
    sheet = copy.root / "output" / "demo" / "en" / "tts" / "orders-1.png"
    kept = json.loads(store.read_text(encoding="utf-8"))
    cells = [key for key in kept if key.endswith("#cells")]
    assert cells
    if how == "cells unknown":
        kept = {k: v for k, v in kept.items() if k not in cells}
    store.write_text(json.dumps(kept), encoding="utf-8")
    if how == "sheet resized":  # the sheet left is read as half its width
        from generator.print import images

        real = images._read_png
        monkeypatch.setattr(images, "_read_png", lambda path: (lambda image: image.crop(
            (0, 0, image.width // 2, image.height)))(real(path)) if path.name == sheet.name else real(path))
    opened = _opened(monkeypatch)
    if how == "cells moved":
        copy.write("data/alarm.yaml", ALARM)
    else:
        copy.edit("data/cards.yaml", "One unit moves and then attacks.", "One unit moves, then fights.")
    assert not run_build(copy.root).errors
    assert not [p for p in opened if "cards/" in p]  # no card's PNG read back
    assert bool([p for p in opened if p.endswith("orders-1.png")]) == (how != "cells unknown")  # the sheet as it was
    again = [html for html in laid_out if "Ambush" in html and "page:face-" in html]  # Ambush's face laid out
    assert bool(again) == (how != "cells moved")
    monkeypatch.undo()
    _same_as_clean(copy, tmp_path)


def test_a_card_moved_to_the_next_sheet_is_laid_out_again(copy: Workspace, tmp_path: Path, laid_out: list[str]):
    """A card added at the front of a deck of two sheets moves the first sheet's last card
    onto the second: the first sheet is written by then, so that card alone is laid out again;
    every other moved cell is cut from the sheet it was on. The sheets are those a clean build
    makes."""
    extra = "".join(f"  - id: drill-{k}\n    name: Drill {k}\n    card_kind: order\n    deck: orders\n"
                    f"    quantity: 1\n    text: Drill number {k} moves one unit.\n" for k in range(70))
    copy.edit("data/cards.yaml", "  - id: ambush", extra + "  - id: ambush")
    assert not run_build(copy.root).errors
    assert (copy.root / "output" / "demo" / "en" / "tts" / "orders-2.png").is_file()
    laid_out.clear()
    copy.write("data/alarm.yaml", ALARM)
    assert not run_build(copy.root).errors
    faces = [html for html in laid_out if "page:face-" in html and "Drill number" in html]
    assert len(faces) == 1 and faces[0].count('class="card card-') == 1  # one Drill card, alone
    _same_as_clean(copy, tmp_path)


def test_card_text_lays_out_the_one_chunk_of_sheets_that_shows_it(copy: Workspace, monkeypatch, tmp_path: Path,
                                                                   laid_out: list[str]):
    """A large deck's sheets are laid out a chunk at a time; editing a card lays out the chunk
    that prints it and joins the others as the last build left them, to the same bytes as a
    clean build."""
    monkeypatch.setenv("RULESMITH_SHEETS_PER_CHUNK", "2")  # a sheet of fronts and its backs
    extra = "".join(f"  - id: drill-{k}\n    name: Drill {k}\n    card_kind: order\n    deck: orders\n"
                    f"    quantity: 1\n    text: Drill number {k} moves one unit.\n" for k in range(24))
    copy.edit("data/cards.yaml", "cards:\n", "cards:\n" + extra)
    run_build(copy.root, images=False)
    store = copy.root / "output" / ".rulesmith" / "chunks" / "demo" / "en" / "cards"
    kept = sorted(p.name for p in store.glob("*.pdf"))
    assert len(kept) >= 3
    laid_out.clear()
    copy.edit("data/cards.yaml", "Drill number 23 moves", "Drill number 23 turns")
    run_build(copy.root, images=False)
    sheets = [html for html in laid_out if "Drill number" in html]
    assert sheets and all("Drill number 0 " not in html for html in sheets)  # the first chunk was kept
    now = sorted(p.name for p in store.glob("*.pdf"))
    assert len(now) == len(kept) and len(set(now) - set(kept)) == 1  # the edited chunk replaced its old self
    # a kept chunk damaged: laid out again, never joined
    (store / sorted(set(now) & set(kept))[0]).write_bytes(b"%PDF-1.7 damaged")
    copy.edit("data/cards.yaml", "Drill number 23 turns", "Drill number 23 waits")
    assert not run_build(copy.root, images=False).errors
    clean = tmp_path / "clean"
    shutil.copytree(copy.root / "content", clean / "content")
    run_build(clean, images=False)
    kept = {rel for rel in tree(copy.root) if rel not in tree(clean)}  # made with images, kept by a build without
    assert kept and all(rel.endswith(".png") for rel in kept)
    assert tree(clean) == {rel: data for rel, data in tree(copy.root).items() if rel not in kept}


def test_card_text_keeps_the_probability_tables(copy: Workspace):
    """The tables are computed again when the game changes, and a table that comes out the
    same is not written again."""
    copy.write("procedures.py", "from generator.checker import table\n\n\n"
               "@table(\"hits\", title=\"Hits on a six-sided die\")\n"
               "def hits(game):\n    return [{\"target\": t, \"chance\": (7 - t) / 6} for t in range(2, 7)]\n")
    run_build(copy.root)
    before = snapshot(copy.root)
    assert {"demo/tables/hits.csv", "demo/tables/hits.json"} <= set(before)
    copy.edit("data/cards.yaml", "One unit moves and then attacks.", "One unit moves, then fights.")
    run_build(copy.root)
    assert not {"demo/tables/hits.csv", "demo/tables/hits.json"} & rewritten(before, snapshot(copy.root))


def test_rules_text_lays_out_no_card(copy: Workspace, laid_out: list[str]):
    """The card sheets are laid out to find long cards that must continue on a second card;
    an edit no card shows must not lay the sheets (or any card) out again."""
    copy.edit("data/rules.yaml", "Play four rounds", "Play five rounds")
    run_build(copy.root)
    assert any("Play five rounds" in html for html in laid_out)  # the rulebook was
    assert not [html for html in laid_out if 'class="sheet' in html]


def test_a_picture_the_rules_show_rebuilds_the_rulebook(copy: Workspace):
    """A redrawn picture changes no HTML: the rulebook still has to be made again."""
    from PIL import Image

    copy.write("rules/09-board.md", "# The board\n\n![The board](board.png)\n")
    Image.new("RGB", (40, 20), "red").save(copy.game / "board.png")
    run_build(copy.root)
    before = snapshot(copy.root)
    Image.new("RGB", (40, 20), "blue").save(copy.game / "board.png")
    run_build(copy.root)
    changed = rewritten(before, snapshot(copy.root))
    assert "demo/en/rulebook.pdf" in changed
    assert not {"demo/en/reference.pdf", "demo/en/cards.pdf"} & changed
    blue = (copy.root / "output" / "demo" / "en" / "rulebook.pdf").read_bytes()
    run_build(copy.root, force=True)
    assert (copy.root / "output" / "demo" / "en" / "rulebook.pdf").read_bytes() == blue  # == a clean build


def test_template_change_rebuilds_the_documents_that_use_it(copy: Workspace):
    from generator.print.context import PACKAGE_TEMPLATES

    before = snapshot(copy.root)
    (copy.root / "templates").mkdir()
    css = (PACKAGE_TEMPLATES / "reference.css").read_text(encoding="utf-8")
    (copy.root / "templates" / "reference.css").write_text(css + "\nh1 { letter-spacing: 1pt; }\n", encoding="utf-8")
    run_build(copy.root)
    changed = rewritten(before, snapshot(copy.root))
    assert "demo/en/reference.pdf" in changed
    assert not {"demo/en/rulebook.pdf", "demo/en/cards.pdf"} & changed


def test_option_change_rebuilds_that_document_only(copy: Workspace):
    before = snapshot(copy.root)
    run_build(copy.root, book="a5")
    changed = rewritten(before, snapshot(copy.root))
    assert "demo/en/rulebook-a5.pdf" in changed  # beside the A4 book, which stays as it was
    assert not {"demo/en/rulebook.pdf", "demo/en/reference.pdf", "demo/en/cards.pdf", "demo/en/cards.json"} & changed


def test_no_notes_is_an_option_of_the_rulebook(copy: Workspace):
    copy.write("rules/09-notes.md", "# Open questions\n\n::: note designer\nStill to decide.\n:::\n")
    run_build(copy.root)
    before = snapshot(copy.root)
    run_build(copy.root, notes=False)
    changed = rewritten(before, snapshot(copy.root))
    assert "demo/en/rulebook.pdf" in changed
    assert not {"demo/en/reference.pdf", "demo/en/cards.pdf", "site/demo/en/index.html"} & changed


@pytest.mark.parametrize("what", ["fonts_hash", "rulesmith_version"])
def test_font_or_version_change_rebuilds_every_document(copy: Workspace, monkeypatch, what: str):
    import generator.print.fitting as fitting
    import generator.print.sources as sources
    import generator.project.rebuild as rebuild

    monkeypatch.setattr(rebuild, what, lambda: "changed")
    monkeypatch.setattr(fitting, what, lambda: "changed")
    monkeypatch.setattr(sources, "renderer", lambda: "changed")
    before = snapshot(copy.root)
    run_build(copy.root)
    changed = rewritten(before, snapshot(copy.root))
    assert {"demo/en/rulebook.pdf", "demo/en/reference.pdf", "demo/en/cards.pdf"} <= changed


def test_damaged_manifest_is_not_trusted(copy: Workspace):
    (copy.root / "output" / "demo" / "en" / "reference.pdf").write_bytes(b"%PDF-1.7 truncated")
    (copy.root / "output" / ".rulesmith" / "manifest.json").write_text('{"format": 1, "entries": {"x"', "utf-8")
    result = copy.run("build", "--only", "reference")
    assert result.returncode == 0, result.stderr
    assert "damaged" in result.stderr and "Traceback" not in result.stderr
    assert (copy.root / "output" / "demo" / "en" / "reference.pdf").stat().st_size > 1000


def test_a_changed_output_file_is_rebuilt(copy: Workspace):
    (copy.root / "output" / "demo" / "en" / "cards.json").write_text("[]", encoding="utf-8")
    run_build(copy.root)
    assert len((copy.root / "output" / "demo" / "en" / "cards.json").read_text(encoding="utf-8")) > 10


def test_force_rebuilds_everything_to_the_same_bytes(copy: Workspace):
    before, files = snapshot(copy.root), tree(copy.root)
    run_build(copy.root, force=True)
    assert "demo/en/rulebook.pdf" in rewritten(before, snapshot(copy.root))
    assert tree(copy.root) == files  # run to run, pagefind-entry.json included


def test_second_build_refuses_while_one_holds_the_lock(ws: Workspace):
    with outputs.BuildLock(ws.root / "output"):
        result = ws.run("build", "--only", "reference")
    assert result.returncode == 2
    assert f"pid {os.getpid()}" in result.stderr and "Traceback" not in result.stderr
    assert not (ws.root / "output" / "demo").exists()


def test_a_lock_left_by_a_dead_build_is_taken_over(tmp_path: Path):
    output = tmp_path / "output"
    output.mkdir()
    (output / ".lock").write_text("999999\n", encoding="ascii")  # its process is gone: no flock held
    with outputs.BuildLock(output) as lock:
        assert lock.owner() == os.getpid()


def test_a_writer_that_dies_leaves_the_old_file_and_no_temporary(tmp_path: Path):
    target = tmp_path / "output" / "cards.png"
    outputs.write_bytes(target, b"old")

    def dies(tmp: Path) -> None:
        tmp.write_bytes(b"half a fi")
        raise RuntimeError("killed")

    with pytest.raises(RuntimeError):
        outputs.write_with(target, dies)
    assert target.read_bytes() == b"old"
    assert [p.name for p in target.parent.iterdir()] == ["cards.png"]


def test_writes_outside_output_are_refused(tmp_path: Path):
    outputs.confine_to(tmp_path / "output")
    try:
        with pytest.raises(outputs.OutsideOutput):
            outputs.write_text(tmp_path / "output" / ".." / "escaped.txt", "x")
        outputs.write_text(tmp_path / "output" / "en" / "ok.txt", "x")
    finally:
        outputs.confine_to(None)
    assert not (tmp_path / "escaped.txt").exists()


def test_pool_workers_die_with_the_build(tmp_path: Path):
    import signal
    import subprocess
    import sys
    import time

    script = (
        "import os, sys, time\n"
        "from concurrent.futures import ProcessPoolExecutor\n"
        "from generator.print.jobs import _die_with_parent\n"
        "pool = ProcessPoolExecutor(1, initializer=_die_with_parent)\n"
        "print(pool.submit(os.getpid).result(), flush=True)\n"
        "pool.submit(time.sleep, 60)\n"
        "time.sleep(60)\n")
    build_process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                                     cwd=Path(__file__).resolve().parents[1])
    worker = int(build_process.stdout.readline())
    os.kill(build_process.pid, signal.SIGKILL)  # the build dies without a chance to clean up
    build_process.wait()
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(worker, signal.SIGKILL)
    pytest.fail("the pool worker outlived the build")


def test_a_file_recorded_again_unchanged_is_not_read_again(tmp_path: Path, monkeypatch):
    """A document's files are recorded after every build of it; those of the same size and time
    as their last record keep its hash unread (a deck's thousand card images, most of them
    not written again), one written again is read."""
    from generator.project import manifest

    output = tmp_path / "output"
    image = output / "demo" / "en" / "cards" / "a.png"
    image.parent.mkdir(parents=True)
    image.write_bytes(b"one" * 10)
    kept = manifest.Manifest(output)
    kept.record("cards:demo/en", "before", [image])
    first = kept.get("cards:demo/en")["files"]["demo/en/cards/a.png"]
    read, hashed = [], manifest.file_hash
    monkeypatch.setattr(manifest, "file_hash", lambda path: read.append(path) or hashed(path))
    kept.record("cards:demo/en", "after", [image])
    assert read == [] and kept.get("cards:demo/en")["files"]["demo/en/cards/a.png"] == first
    image.write_bytes(b"two" * 10)  # the same size, written again
    os.utime(image, ns=(first[1] + 10**9, first[1] + 10**9))
    kept.record("cards:demo/en", "again", [image])
    assert read == [image]
    assert kept.get("cards:demo/en")["files"]["demo/en/cards/a.png"][2] == hashed(image) != first[2]
    assert kept.intact("cards:demo/en")
