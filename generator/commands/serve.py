"""`rulesmith serve`: the site on a local server, rebuilt when content changes, with live reload."""

from __future__ import annotations

import functools
import http.server
import threading
import time
from pathlib import Path

import click

from ..diagnostics import Report, render

RELOAD_JS = b"""<script>(function(){var v=null;setInterval(function(){fetch('/__version').then(function(r){return r.text()})
.then(function(t){if(v!==null&&t!==v){location.reload()}v=t}).catch(function(){})},1000)})();</script>"""


class _State:
    version = str(time.time())


def _handler(root: Path):
    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(root), **kwargs)

        def log_message(self, *args):  # keep the terminal for build messages
            pass

        def do_GET(self):
            if self.path == "/__version":
                body = _State.version.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)
                return
            path = Path(self.translate_path(self.path))
            if path.is_dir():
                path = path / "index.html"
            if path.suffix == ".html" and path.is_file():
                body = path.read_bytes().replace(b"</body>", RELOAD_JS + b"</body>")
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)
                return
            super().do_GET()

    return Handler


def changed_games(changes, content: Path) -> set[str]:
    """Which games a set of changed paths touches (the first folder under content/)."""
    games = set()
    for _change, path in changes:
        try:
            games.add(Path(path).resolve().relative_to(content.resolve()).parts[0])
        except (ValueError, IndexError):
            continue
    return games


@click.command("serve")
@click.option("--port", default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.pass_obj
def command(ctx, port: int, host: str) -> None:
    """Serve output/site/ locally; rebuild the games a content change touches, and reload the page."""
    from watchfiles import watch

    from ..site.build import build_site

    project = ctx.project
    games = project.resolve_games([])
    report = Report()
    result = build_site(project, games, report)
    server = http.server.ThreadingHTTPServer((host, port), _handler(result.root))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    click.echo(f"serving {result.root} at http://{host}:{port}/ (Ctrl+C to stop)")
    try:
        watched = [p for p in (project.content, project.root / "templates") if p.is_dir()]
        for changes in watch(*watched):
            touched = changed_games(changes, project.content) or set(games)
            report = Report()
            for name in sorted(touched):
                project.load(name, report)
            if report.errors:
                click.echo(render(report, "text", project.root), err=True)
                click.echo("not rebuilt: fix the errors above", err=True)
                continue
            start = time.perf_counter()
            build_site(project, games, report, only=touched)
            _State.version = str(time.time())
            click.echo(f"rebuilt ({', '.join(sorted(touched))}) in {time.perf_counter() - start:.1f} s")
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
