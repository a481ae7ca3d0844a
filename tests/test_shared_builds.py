"""tests/conftest.py's `shared_build`: a build several test files read is made once per run, and
one that failed half-way is made afresh, never handed out half-built."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import shared_build


def test_a_shared_build_is_made_once(tmp_path_factory):
    made: list[Path] = []

    def build(folder: Path) -> None:
        made.append(folder)
        (folder / "page.html").write_text("built", encoding="utf-8")

    first = shared_build(tmp_path_factory, "probe-once", build)
    again = shared_build(tmp_path_factory, "probe-once", build)
    assert first == again and made == [first]
    assert (again / "page.html").read_text(encoding="utf-8") == "built"


def test_a_build_that_failed_half_way_is_made_afresh(tmp_path_factory):
    def broken(folder: Path) -> None:
        (folder / "half.html").write_text("", encoding="utf-8")
        raise RuntimeError("the build stopped")

    with pytest.raises(RuntimeError, match="the build stopped"):
        shared_build(tmp_path_factory, "probe-broken", broken)
    folder = shared_build(tmp_path_factory, "probe-broken", lambda f: (f / "page.html").write_text("built"))
    assert sorted(p.name for p in folder.iterdir()) == ["page.html"]
