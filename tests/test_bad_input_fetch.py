"""Printing fetches nothing from outside the game: a real server on 127.0.0.1 sees no request,
and every refused address is reported (W008 at its line; the fetcher's refused list)."""

from __future__ import annotations

import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from .conftest import Workspace


class _Recorder(BaseHTTPRequestHandler):
    seen: list[str] = []

    def do_GET(self):  # noqa: N802 - the http.server name
        self.seen.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    _Recorder.seen = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def test_content_cannot_fetch_from_a_local_server(ws: Workspace, server, tmp_path):
    from generator.print.jobs import Job, run_job
    from generator.print.pdf import render_document

    port = server.server_address[1]
    secret = tmp_path.parent / "secret.png"
    urls = [f"http://127.0.0.1:{port}/map.png", f"http://localhost:{port}/key.png", f"file://{secret}",
            "../../../../etc/passwd"]
    path = ws.write("rules/01-evil.md", "# Evil\n\n" + "\n\n".join(f"![x{i}]({u})" for i, u in enumerate(urls)) + "\n")
    report = ws.validate()
    reported = sorted((d.location.line, d.message) for d in report.diagnostics if d.code == "W008")
    # (a file: URL is not even an image to the Markdown parser: it stays text)
    assert [line for line, _ in reported] == [3, 5, 9]
    assert all(d.location.path == path for d in report.diagnostics if d.code == "W008")
    assert all(u in m for u, (_, m) in zip([urls[0], urls[1], urls[3]], reported))

    result = run_job(Job(ws.root, "demo", "en", "rulebook"))
    assert result.error is None and result.files[0].exists()
    html = "".join(f'<img src="{u}">' for u in urls[:3])
    _, fetcher = render_document(f"<html><body>{html}</body></html>", ws.game, [ws.game])
    assert set(urls[:3]) <= set(fetcher.refused)
    assert server.RequestHandlerClass.seen == []  # the server saw no request from printing

    with urllib.request.urlopen(urls[0], timeout=5):  # and it does answer requests: the check can fail
        pass
    assert server.RequestHandlerClass.seen == ["/map.png"]
