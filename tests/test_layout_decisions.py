"""Layout decisions (rulebook landscape tables, reference-sheet spans) are remembered only
while what was laid out is the same: the HTML and every file its layout read."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from generator.print import memo
from generator.print.decisions import STORE
from generator.print.decisions import decided as decided_checked


def context(root: Path) -> SimpleNamespace:
    return SimpleNamespace(project_root=root, lang="en", game=SimpleNamespace(id="demo"))


def decided(ctx, document: str, html: str, decide) -> list:
    """A decision as decided.py keeps it, whatever its shape (the documents' own checks are
    tested with the build's state in test_faults_state.py)."""
    return decided_checked(ctx, document, html, decide, lambda decision: True)


def counting(root: Path, calls: list, decision: list, read: list[Path]):
    def decide():
        calls.append(1)
        return decision, set(read)
    return decide


def test_same_html_is_decided_once(tmp_path: Path):
    ctx, calls = context(tmp_path), []
    assert decided(ctx, "rulebook-a4", "<p>x</p>", counting(tmp_path, calls, ["3"], [])) == ["3"]
    assert decided(ctx, "rulebook-a4", "<p>x</p>", counting(tmp_path, calls, ["9"], [])) == ["3"]
    assert len(calls) == 1


def test_other_html_is_decided_again(tmp_path: Path):
    ctx, calls = context(tmp_path), []
    decided(ctx, "rulebook-a4", "<p>x</p>", counting(tmp_path, calls, ["3"], []))
    assert decided(ctx, "rulebook-a4", "<p>y</p>", counting(tmp_path, calls, [], [])) == []
    assert len(calls) == 2
    assert len(memo.load(memo.store(tmp_path, STORE), lambda entry: True)) == 1  # one entry per document, not per edit


def test_a_changed_file_the_layout_read_is_decided_again(tmp_path: Path):
    ctx, calls = context(tmp_path), []
    picture = tmp_path / "content" / "demo" / "board.png"
    picture.parent.mkdir(parents=True)
    picture.write_bytes(b"narrow")
    decided(ctx, "rulebook-a4", "<img src=board.png>", counting(tmp_path, calls, [], [picture]))
    decided(ctx, "rulebook-a4", "<img src=board.png>", counting(tmp_path, calls, [], [picture]))
    picture.write_bytes(b"a much wider picture")
    assert decided(ctx, "rulebook-a4", "<img src=board.png>", counting(tmp_path, calls, ["0"], [picture])) == ["0"]
    picture.unlink()
    decided(ctx, "rulebook-a4", "<img src=board.png>", counting(tmp_path, calls, [], [picture]))
    assert len(calls) == 3  # first, changed, removed


def test_a_damaged_store_is_decided_again(tmp_path: Path):
    ctx, calls = context(tmp_path), []
    decided(ctx, "reference", "<p>x</p>", counting(tmp_path, calls, [["a"], []], []))
    path = memo.store(tmp_path, STORE)
    for damage in ('{"reference:demo/en": {"state": 1', '[]', '{"reference:demo/en": {"decision": "x"}}'):
        path.write_text(damage, encoding="utf-8")
        assert decided(ctx, "reference", "<p>x</p>", counting(tmp_path, calls, [["a"], []], [])) == [["a"], []]
    assert len(calls) == 4
