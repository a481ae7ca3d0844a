"""The HTTP side of `rulesmith serve`: files of output/site only, hostile paths refused with
400/404 (never a traceback), a "building…" page while there is nothing to show yet, and a
script in every page that reloads it when it changed and shows the build error over it."""

from __future__ import annotations

import html
import http.server
import json
import mimetypes
import posixpath
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from ..system import folders

LIVE_JS = """<script>(function(){
var seen=null,box=null;
function overlay(text){
  if(!text){if(box){box.remove();box=null}return}
  if(!box){box=document.createElement('div');box.id='rulesmith-error';
    box.setAttribute('style','position:fixed;inset:0;z-index:99999;background:rgba(24,4,4,.96);color:#fee;'+
      'font:14px/1.45 monospace;padding:2em;overflow:auto;white-space:pre-wrap');
    document.body.appendChild(box)}
  box.textContent='Build error — fix it and save; this page reloads by itself.\\n\\n'+text}
function poll(){
  fetch('/__status?page='+encodeURIComponent(location.pathname),{cache:'no-store'})
  .then(function(r){return r.json()}).then(function(s){
    overlay(s.error);
    if(seen!==null&&s.page!==seen){location.reload();return}
    seen=s.page}).catch(function(){})}
poll();setInterval(poll,1000)})();</script>"""

BUILDING = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Building…</title>
<style>body{font:16px/1.5 sans-serif;margin:4em auto;max-width:36em;color:#333}</style></head>
<body><h1>Building the site…</h1><p>This page reloads by itself when it is ready.</p></body></html>"""

NOT_FOUND = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Not found</title></head>
<body><h1>Not found</h1><p>{path} is not in the site.</p></body></html>"""


@dataclass
class LiveState:
    root: Path  # output/site
    version: int = 0
    building: bool = False
    error: str | None = None

    def resolve(self, url_path: str) -> Path | None:
        """The file under the site for a decoded URL path, or None when it is not one."""
        if "\x00" in url_path or "\\" in url_path:
            raise ValueError(url_path)
        parts = [p for p in posixpath.normpath("/" + url_path).split("/") if p]
        if any(p in (".", "..") for p in parts):
            raise ValueError(url_path)
        try:
            root = self.root.resolve()
            path = root.joinpath(*parts).resolve()
            path.relative_to(root)  # a symlink out of the site is not the site
            if path.is_dir():
                path = path / "index.html"
            return path if path.is_file() else None
        except (OSError, ValueError):
            return None

    def stamp(self, url_path: str) -> str:
        try:
            path = self.resolve(url_path)
        except ValueError:
            return ""
        if path is None:
            return "building" if self.building and self.version == 0 else "missing"
        return str(path.stat().st_mtime_ns)


def handler(state: LiveState):
    class Handler(http.server.BaseHTTPRequestHandler):
        server_version = "rulesmith"

        def log_message(self, *args):  # keep the terminal for build messages
            pass

        def _send(self, code: int, body: bytes, kind: str, head_only: bool = False) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if not head_only:
                self.wfile.write(body)

        def do_HEAD(self):
            self.do_GET(head_only=True)

        def do_GET(self, head_only: bool = False):
            url = urlsplit(self.path)
            try:
                path_text = unquote(url.path, errors="strict")
            except UnicodeDecodeError:
                return self._send(400, b"bad request\n", "text/plain", head_only)
            if path_text == "/__version":
                return self._send(200, str(state.version).encode(), "text/plain", head_only)
            if path_text == "/__status":
                page = (parse_qs(url.query).get("page") or ["/"])[0]
                body = json.dumps({"version": state.version, "building": state.building, "error": state.error,
                                   "page": state.stamp(page)})
                return self._send(200, body.encode(), "application/json", head_only)
            try:
                path = state.resolve(path_text)
            except ValueError:
                return self._send(400, b"bad request\n", "text/plain", head_only)
            html_page = path_text.endswith((".html", "/")) or "." not in posixpath.basename(path_text)
            if path is None:
                if state.building and state.version == 0 and html_page:
                    body = BUILDING.replace("</body>", LIVE_JS + "</body>").encode()
                    return self._send(200, body, "text/html; charset=utf-8", head_only)
                body = NOT_FOUND.format(path=html.escape(path_text))
                return self._send(404, body.replace("</body>", LIVE_JS + "</body>").encode(),
                                  "text/html; charset=utf-8", head_only)
            try:
                body = folders.read_bytes(path, limit=folders.OUTPUT_BYTES)
            except OSError:
                return self._send(404, b"not found\n", "text/plain", head_only)
            if path.suffix == ".html":
                return self._send(200, body.replace(b"</body>", LIVE_JS.encode() + b"</body>"),
                                  "text/html; charset=utf-8", head_only)
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            self._send(200, body, kind, head_only)

    return Handler


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    # The listen queue: a browser opening a page with its assets, or a burst of readers, waits
    # in it; socketserver's default of 5 drops the rest, and a dropped connection is retried
    # only after a second or more (the kernel caps this at net.core.somaxconn).
    request_queue_size = 1024

    def handle_error(self, request, client_address):  # a dropped connection is not news
        pass


def bind(host: str, port: int, state: LiveState) -> Server:
    """Open the port (OSError when it is taken) before anything is built."""
    return Server((host, port), handler(state))
