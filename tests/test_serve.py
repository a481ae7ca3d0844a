"""`rulesmith serve`: serves the site, rebuilds the game a content change touches, reloads."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from generator.commands.serve import changed_games

from .conftest import Workspace


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode("utf-8")


def _wait(predicate, seconds: float = 60) -> bool:
    end = time.time() + seconds
    while time.time() < end:
        try:
            if predicate():
                return True
        except OSError:
            pass
        time.sleep(0.3)
    return False


def test_changed_games_maps_paths_to_games(tmp_path: Path):
    content = tmp_path / "content"
    changes = {(1, str(content / "alpha/data/units.yaml")), (2, str(content / "beta/rules/01.md")),
               (1, str(tmp_path / "templates/site/site.css"))}
    assert changed_games(changes, content) == {"alpha", "beta"}


def test_serve_rebuilds_on_change_and_reloads(ws: Workspace):
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "generator", "--root", str(ws.root), "serve", "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        assert _wait(lambda: "Scouts" in _get(f"{base}/demo/en/units.html")), "site never came up"
        page = _get(f"{base}/demo/en/units.html")
        assert "/__version" in page  # the live-reload script is injected
        version = _get(f"{base}/__version")
        time.sleep(1.5)  # the watcher starts right after the server; give it a moment
        ws.edit("data/units.yaml", "    name: Scouts", "    name: Pathfinders")
        assert _wait(lambda: "Pathfinders" in _get(f"{base}/demo/en/units.html")), "no rebuild after the change"
        assert _wait(lambda: _get(f"{base}/__version") != version, 20), "pages were not told to reload"
    finally:
        process.terminate()
        process.wait(timeout=10)
