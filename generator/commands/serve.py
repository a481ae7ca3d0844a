"""`rulesmith serve`: the site on a local server. It binds its port first and answers at once
(a "building…" page while the first build runs), prints diagnostics at start and on every
rebuild, shows the current build error over the page in the browser until the content is
valid again, rebuilds only what an edit touches, and reloads the page being read when it
changed."""

from __future__ import annotations

import errno
import queue
import sys
import threading
import time
from pathlib import Path

import click

from ..system import faults
from .devserver import LiveState, bind


def changed_games(changes, content: Path) -> set[str]:
    """Which games a set of changed paths touches (the first folder under content/)."""
    games = set()
    for _change, path in changes:
        try:
            games.add(Path(path).resolve().relative_to(content.resolve()).parts[0])
        except (ValueError, IndexError):
            continue
    return games


def sources_of(project):
    """What `serve` watches: the project folder, for edits under content/ and templates/ only.
    The folder above them is watched, so that a content folder replaced whole (a checkout, a
    sync that writes a new folder) is still seen; the output it writes itself is not an edit."""
    roots = [project.content.resolve(), project.templates.resolve()]

    def is_source(_change, path: str) -> bool:
        where = Path(path).resolve()
        return any(where == root or root in where.parents for root in roots)

    return project.root, is_source


def documents_to_refresh(project) -> list[str]:
    """The documents an earlier build wrote (their PDFs are the site's downloads): rebuilt with
    the site, so that a download never lags behind the page that offers it."""
    from ..site.downloads import DOWNLOADS
    from .build import KINDS

    return [kind for kind in DOWNLOADS if kind in KINDS and next(project.output.glob(f"*/*/{kind}.pdf"), None)]


def rebuild(project, state: LiveState, since: str | None = None) -> None:
    """Validate every game (unchanged ones cost nothing: the manifest remembers them), build the
    site of the valid ones, print the diagnostics, and tell the browser. `since`
    (--changes-since REF): the errata sheet too, for the site's page of what changed, and the
    documents it refreshes marked as `build --changes-since` marks them."""
    from ..core.diagnostics import Report, render
    from .. import outputs
    from .build import DEFAULT_OPTIONS, build

    state.building = True
    start = time.perf_counter()
    report = Report()
    try:
        with outputs.BuildLock(project.output, wait=True):
            kinds = [*documents_to_refresh(project), *(["changes"] if since else []), "site"]
            build(project, project.game_ids(), kinds, False, None, 1, False, {**DEFAULT_OPTIONS, "changes_since": since},
                  False, report=report, skip_invalid=True)
    except (OSError, faults.Fault) as exc:  # the machine's (a full disk): said as the CLI says it; serving goes on
        state.error = faults.message(exc)
        click.echo(f"error: {state.error}", err=True)
    except Exception as exc:  # a template or procedure bug: shown like a content error
        state.error = f"{type(exc).__name__}: {exc}"
        click.echo(f"error: build failed: {state.error}", err=True)
    else:
        if report.diagnostics:
            click.echo(render(report, "text", project.root), err=True)
        state.error = render(Report(report.errors), "text", project.root) if report.errors else None
        if report.errors:
            click.echo("not rebuilt: the games above have errors (shown in the browser too)", err=True)
        click.echo(f"done in {time.perf_counter() - start:.1f} s")
    finally:
        state.building = False
        state.version += 1


@click.command("serve")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to serve on, 0 to 65535 (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--changes-since", "changes_since", metavar="REF", default=None,
              help="Also show what changed since REF (a git tag or revision), as build --changes-since does: "
                   "the page of what changed, the errata sheet, change bars in the rulebook it offers.")
@click.pass_obj
def command(ctx, port: int, host: str, changes_since: str | None) -> None:
    """Serve output/site/ locally; rebuild what a change touches, and reload the page."""
    from watchfiles import watch

    project = ctx.project
    names = project.resolve_games([])  # no games: a usage error before anything else
    if changes_since is not None:  # a REF git does not know: a usage error before serving
        from ..changes.versions import revision

        for name in names:
            revision(project.root, name, changes_since)
    state = LiveState(project.output / "site")
    try:
        server = bind(host, port, state)
    except OSError as exc:
        reason = ("is in use (another server is running there?); choose another with --port"
                  if exc.errno == errno.EADDRINUSE else f"cannot be opened: {exc.strerror or exc}")
        click.echo(f"error: port {port} on {host} {reason}", err=True)
        sys.exit(2)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    click.echo(f"serving {state.root} at http://{host}:{server.server_address[1]}/ (Ctrl+C to stop); "
               "building the site…")
    changed: queue.Queue = queue.Queue()
    stop = threading.Event()

    def watcher() -> None:  # watching starts before the first build: no edit is missed
        folder, is_source = sources_of(project)
        for changes in watch(folder, watch_filter=is_source, stop_event=stop):
            changed.put(changes)

    threading.Thread(target=watcher, daemon=True).start()
    try:
        rebuild(project, state, changes_since)
        while True:
            try:
                changes = changed.get(timeout=0.5)
            except queue.Empty:
                continue
            while not changed.empty():
                changes |= changed.get()
            touched = changed_games(changes, project.content)
            click.echo(f"changed: {', '.join(sorted(touched)) or 'templates'}")
            rebuild(project, state, changes_since)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        server.shutdown()
