"""Nothing removed unasked: files made with other options (--bleed, each --print-shop preset,
--booklet, images) stay beside each other until `rulesmith clean`; a build removes only files
of outputs it was asked for whose content is gone, saying each with why, and leaves no empty
folder; half-written files of an interrupted build are cleared by the next one."""

from __future__ import annotations

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

CARDS = ("build", "--only", "cards,counters", "--no-images", "--jobs", "1")


def out(ws: Workspace) -> Path:
    return ws.root / "output" / "demo" / "en"


def built(ws: Workspace, *args: str) -> subprocess.CompletedProcess:
    result = ws.run(*CARDS, *args)
    assert result.returncode == 0, result.stderr
    return result


def empty_folders(root: Path) -> list[str]:
    return [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_dir() and not any(p.iterdir())]


def test_a_plain_build_after_bleed_and_print_shop_keeps_their_files(ws: Workspace):
    built(ws, "--bleed", "--print-shop", "drivethrucards")
    made = [out(ws) / "cards-bleed.pdf", out(ws) / "counters-bleed.pdf",
            out(ws) / "print-shop/drivethrucards/orders.pdf"]
    assert all(path.is_file() for path in made)
    result = built(ws)
    assert all(path.is_file() for path in made), result.stdout
    assert "removed" not in result.stdout
    assert "kept demo/en/cards-bleed.pdf and 1 more" in result.stdout  # said once, when they stop being made
    assert "kept" not in built(ws, "--force").stdout  # --force rebuilds what it is asked for, and keeps the rest
    assert all(path.is_file() for path in made)


def test_each_book_and_paper_size_and_the_booklet_have_files_of_their_own(ws: Workspace):
    first = ws.run("build", "--only", "rulebook,cards", "--no-images", "--jobs", "1", "--booklet", "--paper", "letter")
    assert first.returncode == 0, first.stderr
    made = {name: (out(ws) / name).read_bytes() for name in ("rulebook-a5.pdf", "rulebook-booklet.pdf",
                                                               "cards-letter.pdf", "cards-letter.json")}
    assert not (out(ws) / "rulebook.pdf").exists() and not (out(ws) / "cards.pdf").exists()
    result = ws.run("build", "--only", "rulebook,cards", "--no-images", "--jobs", "1")
    assert result.returncode == 0 and "removed" not in result.stdout, result.stdout + result.stderr
    assert {name: (out(ws) / name).read_bytes() for name in made} == made  # as they were
    assert (out(ws) / "rulebook.pdf").is_file() and (out(ws) / "cards.pdf").is_file()
    assert (out(ws) / "cards.json").read_bytes() != made["cards-letter.json"]  # each paper's placements


def test_two_presets_in_one_build_and_another_later_keep_each_others_files(ws: Workspace):
    built(ws, "--print-shop", "drivethrucards", "--print-shop", "makeplayingcards")
    shop = out(ws) / "print-shop"
    assert (shop / "drivethrucards/orders.pdf").is_file()
    assert sorted(p.name for p in (shop / "makeplayingcards/orders/front").iterdir()) == ["001.png", "002.png"]
    built(ws, "--print-shop", "thegamecrafter")
    assert (shop / "drivethrucards/orders.pdf").is_file()
    assert (shop / "makeplayingcards/orders/front/002.png").is_file()
    assert (shop / "thegamecrafter/orders/001-advance.png").is_file()


def test_a_file_whose_content_is_gone_is_removed_said_and_leaves_no_empty_folder(ws: Workspace):
    ws.edit("data/decks.yaml", "    size: poker", "    size: poker\n  - id: night\n    name: Night\n"
            "    back: stars\n    size: poker")
    ws.write("data/night-cards.yaml", "cards:\n  - id: owl\n    name: Owl\n    card_kind: order\n    deck: night\n"
             "    quantity: 1\n    text: Watch at night.\n")
    built(ws, "--print-shop", "thegamecrafter", "--bleed")
    night = out(ws) / "print-shop/thegamecrafter/night"
    assert (night / "001-owl.png").is_file()
    (ws.game / "data/night-cards.yaml").unlink()
    ws.edit("data/decks.yaml", "  - id: night\n    name: Night\n    back: stars\n    size: poker", "")
    result = built(ws, "--print-shop", "thegamecrafter")  # without --bleed: cards-bleed.pdf is not its to remove
    removed = [line for line in result.stdout.splitlines() if line.startswith("removed ")]
    assert sorted(removed) == [
        f"removed output/demo/en/print-shop/thegamecrafter/night/{name}.png: an earlier build made it; "
        f"demo/en/cards makes it no more" for name in ("001-owl", "back-001-owl")]
    assert not night.exists() and (out(ws) / "print-shop/thegamecrafter/orders/001-advance.png").is_file()
    assert (out(ws) / "cards-bleed.pdf").is_file()
    assert empty_folders(ws.root / "output") == []


def test_a_removed_game_takes_its_files_with_it_said(ws: Workspace):
    shutil.copytree(ws.game, ws.root / "content" / "other")
    (ws.root / "content/other/game.yaml").write_text(
        (ws.root / "content/other/game.yaml").read_text(encoding="utf-8").replace("id: demo", "id: other"),
        encoding="utf-8")
    built(ws)
    assert (ws.root / "output/other/en/cards.pdf").is_file()
    shutil.rmtree(ws.root / "content" / "other")
    assert built(ws, "--game", "demo").stdout.count("removed") == 0  # a build of one game leaves the others be
    result = built(ws)
    assert "removed output/other/en/cards.pdf: other is no longer in content/" in result.stdout
    assert not (ws.root / "output/other").exists()
    assert empty_folders(ws.root / "output") == []


def test_a_language_the_game_no_longer_has_takes_its_files_with_it_said(tmp_path: Path):
    from generator.commands.new import scaffold

    scaffold(tmp_path / "content" / "demo", "demo", "Demo", languages=("ru",))
    ws = Workspace.__new__(Workspace)
    ws.root, ws.game = tmp_path, tmp_path / "content" / "demo"
    cards = ("build", "--only", "cards", "--no-images", "--jobs", "1")
    assert ws.run(*cards, "--bleed").returncode == 0
    assert (tmp_path / "output/demo/ru/cards.pdf").is_file()
    ws.edit("game.yaml", "languages: [ru]", "languages: []")
    result = ws.run(*cards)
    assert result.returncode == 0, result.stderr
    assert "removed output/demo/ru/cards.pdf: ru is no longer a language of demo" in result.stdout
    assert (tmp_path / "output/demo/ru/cards-bleed.pdf").is_file()  # --bleed's: not asked for, kept
    assert not (tmp_path / "output/demo/ru/cards.json").exists() and (out(ws) / "cards.pdf").is_file()
    assert empty_folders(tmp_path / "output") == []
    assert ws.run("clean").returncode == 0 and not (tmp_path / "output/demo").exists()  # the kept ones too


def test_clean_removes_what_builds_made_and_keeps_the_rest(ws: Workspace):
    built(ws, "--bleed", "--print-shop", "drivethrucards")
    mine = out(ws) / "lists" / "mine.pdf"
    mine.parent.mkdir()
    mine.write_bytes(b"a list the designer printed")
    result = ws.run("clean", "demo")
    assert result.returncode == 0, result.stderr
    assert "demo: removed" in result.stdout and "kept output/demo/en/lists/mine.pdf" in result.stdout
    assert sorted(p.relative_to(ws.root / "output").as_posix() for p in (ws.root / "output/demo").rglob("*")) == [
        "demo/en", "demo/en/lists", "demo/en/lists/mine.pdf"]
    assert (ws.root / "output/.rulesmith/manifest.json").is_file()  # with a game: the other games' state stays
    built(ws)  # everything is made again, nothing said removed
    assert (out(ws) / "cards.pdf").is_file()
    result = ws.run("clean")
    assert result.returncode == 0, result.stderr
    assert not (ws.root / "output/.rulesmith").exists() and mine.is_file() and not (out(ws) / "cards.pdf").exists()
    assert empty_folders(ws.root / "output") == []


def test_clean_waits_for_no_build_and_touches_nothing_while_one_runs(ws: Workspace):
    built(ws)
    with outputs.BuildLock(ws.root / "output"):
        result = ws.run("clean")
    assert result.returncode == 2 and f"pid {os.getpid()}" in result.stderr
    assert (out(ws) / "cards.pdf").is_file()
    assert ws.run("clean", "../content").returncode == 2  # never a path outside output/
    assert (ws.game / "game.yaml").is_file()


def test_temporaries_of_an_interrupted_build_are_removed_by_the_next(ws: Workspace):
    """Under the lock every temporary is stale: its pid may name a zombie or another process
    (here: this test's own, alive)."""
    folder = out(ws)
    folder.mkdir(parents=True)
    planted = [folder / f".rulebook.pdf.{os.getpid()}-0123abcd.tmp", folder / "deep/.x.png.1-89abcdef.tmp"]
    for path in planted:
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(b"half a fi")
    notes = folder / ".notes.tmp"  # not a name a build gives
    notes.write_text("mine", encoding="utf-8")
    result = ws.run("build", "--only", "reference")
    assert result.returncode == 0, result.stderr
    assert not any(path.exists() for path in planted) and notes.is_file()
    assert (f"removed output/demo/en/.rulebook.pdf.{os.getpid()}-0123abcd.tmp: left half-written by a build "
            "that was stopped") in result.stdout
    assert not (folder / "deep").exists()


@pytest.mark.slow
def test_a_build_killed_while_writing_leaves_a_temporary_the_next_removes(ws: Workspace):
    """A real kill -9 of the build (its workers die with it) while a PDF is being written."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    found: list[Path] = []
    for _attempt in range(5):
        build = subprocess.Popen([sys.executable, "-m", "generator", "--root", str(ws.root), "build", "--only",
                                  "rulebook,cards", "--force"], env=env, start_new_session=True,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while build.poll() is None and time.monotonic() < deadline and not found:
            found = [p for p in (ws.root / "output").rglob("*.tmp") if outputs.TEMP.fullmatch(p.name)]
            time.sleep(0.005)
        os.killpg(build.pid, signal.SIGKILL)
        build.wait()
        if found:
            break
    time.sleep(0.5)  # the workers go with the build
    left = [p for p in found if p.exists()]
    if not left:
        pytest.skip("the build finished its temporaries before it could be killed")
    result = ws.run("build", "--only", "reference")
    assert result.returncode == 0, result.stderr
    assert not any(p.exists() for p in left)
    assert f"removed {left[0].relative_to(ws.root).as_posix()}: left half-written" in result.stdout
