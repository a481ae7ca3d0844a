"""`rulesmith serve`: serves the site, rebuilds the game a content change touches, reloads."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from generator.commands.serve import changed_games, documents_to_refresh, sources_of
from generator.project import Project

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


def test_serve_refreshes_the_documents_an_earlier_build_wrote(ws: Workspace):
    project = Project(ws.root)
    assert documents_to_refresh(project) == []
    for name in ("cards.pdf", "rulebook.pdf", "cards.json"):
        (ws.root / "output/demo/en").mkdir(parents=True, exist_ok=True)
        (ws.root / "output/demo/en" / name).write_bytes(b"%PDF-1.7")
    assert documents_to_refresh(project) == ["rulebook", "cards"]


def test_serve_keeps_watching_a_content_folder_replaced_whole(ws: Workspace):
    from watchfiles import watch

    folder, is_source = sources_of(Project(ws.root))
    (ws.root / "output/site").mkdir(parents=True)
    seen: list[str] = []
    stop = threading.Event()

    def watcher():
        for changes in watch(folder, watch_filter=is_source, stop_event=stop, rust_timeout=200):
            seen.extend(path for _change, path in changes)

    thread = threading.Thread(target=watcher, daemon=True)
    thread.start()
    time.sleep(1)  # the watch is set up
    (ws.root / "content").rename(ws.root / "old-content")
    (ws.root / "content/demo").mkdir(parents=True)
    time.sleep(0.5)
    (ws.root / "output/site/index.html").write_text("built", encoding="utf-8")
    (ws.root / "content/demo/game.yaml").write_text("id: demo\n", encoding="utf-8")
    try:
        assert _wait(lambda: any(p.endswith("content/demo/game.yaml") for p in seen), 20), seen
    finally:
        stop.set()
        thread.join(5)
    assert not [p for p in seen if "/output/" in p or "old-content" in p]


def test_serve_rebuilds_on_change_and_reloads(ws: Workspace):
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "generator", "--root", str(ws.root), "serve", "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        assert _wait(lambda: "Scouts" in _get(f"{base}/demo/en/units.html")), "site never came up"
        page = _get(f"{base}/demo/en/units.html")
        assert "/__status" in page  # the live-reload script is injected
        version = _get(f"{base}/__version")
        time.sleep(1.5)  # the watcher starts right after the server; give it a moment
        ws.edit("data/units.yaml", "    name: Scouts", "    name: Pathfinders")
        assert _wait(lambda: "Pathfinders" in _get(f"{base}/demo/en/units.html")), "no rebuild after the change"
        assert _wait(lambda: _get(f"{base}/__version") != version, 20), "pages were not told to reload"
        stamp = json.loads(_get(f"{base}/__status?page=/demo/en/units.html"))["page"]
        other = json.loads(_get(f"{base}/__status?page=/demo/en/index.html"))["page"]
        ws.edit("data/units.yaml", "    name: Pathfinders", "    name: Rangers")
        assert _wait(lambda: json.loads(_get(f"{base}/__status?page=/demo/en/units.html"))["page"] != stamp), \
            "the page being read was not told it changed"
        assert json.loads(_get(f"{base}/__status?page=/demo/en/index.html"))["page"] == other  # untouched page stays
    finally:
        process.terminate()
        process.wait(timeout=10)


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_busy_port_is_a_clear_error_before_any_build(ws: Workspace):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = ws.run("serve", "--port", str(port))
    assert result.returncode == 2
    assert f"port {port}" in result.stderr and "in use" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert not (ws.root / "output" / "site").exists()  # nothing was built first


def test_hostile_paths_answer_400_or_404_never_files_outside_the_site(tmp_path: Path):
    from generator.commands.devserver import LiveState, bind

    site = tmp_path / "output" / "site"
    site.mkdir(parents=True)
    (site / "index.html").write_text("<html><body>home</body></html>", encoding="utf-8")
    (tmp_path / "output" / "secret.txt").write_text("secret", encoding="utf-8")
    (site / "link").symlink_to(tmp_path / "output")
    server = bind("127.0.0.1", 0, LiveState(site, version=1))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        assert _status(f"{base}/index.html") == 200
        assert _status(f"{base}/index.html%00") == 400
        assert _status(f"{base}/%2e%2e/secret.txt") in (400, 404)
        assert _status(f"{base}/..%2fsecret.txt") in (400, 404)
        assert _status(f"{base}/link/secret.txt") == 404
        assert _status(f"{base}/%ff%fe") in (400, 404)
        assert _status(f"{base}/nothing.html") == 404
    finally:
        server.shutdown()


def test_building_page_then_error_overlay_until_fixed(ws: Workspace):
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "generator", "--root", str(ws.root), "serve", "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        assert _wait(lambda: _status(f"{base}/__version") == 200, 30), "port not bound"
        first = _get(f"{base}/demo/en/units.html")
        assert "Building the site" in first or "Scouts" in first  # answered at once, whatever the build's state
        assert _wait(lambda: "Scouts" in _get(f"{base}/demo/en/units.html")), "site never came up"
        assert "rulesmith-error" in _get(f"{base}/demo/en/units.html")  # the overlay script is in every page
        time.sleep(1.5)
        ws.edit("data/units.yaml", "weapon: rifle", "weapon: nosuchgun")
        status = lambda: json.loads(_get(f"{base}/__status?page=/demo/en/units.html"))  # noqa: E731
        assert _wait(lambda: status()["error"] and "nosuchgun" in status()["error"], 30), "error not shown"
        assert "units.yaml" in status()["error"] and "E007" in status()["error"]
        ws.edit("data/units.yaml", "weapon: nosuchgun", "weapon: rifle")
        assert _wait(lambda: status()["error"] is None, 30), "error stayed after the fix"
    finally:
        process.terminate()
        output = process.communicate(timeout=10)[0]
    assert "E007" in output and "Traceback" not in output  # diagnostics printed in the terminal too


def test_serve_changes_since_adds_the_page_of_what_changed(ws: Workspace):
    from generator.commands.devserver import LiveState
    from generator.commands.serve import rebuild

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(ws.root), "-c", "user.name=D", "-c", "user.email=d@example.org", *args],
                       check=True, capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "v1")
    ws.edit("data/actions.yaml", "text: The unit moves up to its Move.", "text: The unit moves up to twice its Move.")
    unknown = ws.run("serve", "--changes-since", "no-such-tag", "--port", str(_free_port()))
    assert unknown.returncode == 2 and "unknown revision 'no-such-tag'" in unknown.stderr
    state = LiveState(ws.root / "output" / "site")
    rebuild(Project(ws.root), state, "HEAD")
    assert state.error is None
    page = (ws.root / "output/site/demo/en/changes.html").read_text(encoding="utf-8")
    assert "The unit moves up to twice its Move." in page
    assert 'href="changes.html"' in (ws.root / "output/site/demo/en/index.html").read_text(encoding="utf-8")
