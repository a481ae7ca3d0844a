"""Full-text search with Pagefind (its PyPI package): one index per language, found by the
pages' lang attributes."""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from ..system import faults, folders


def index_site(site: Path, into: Path | None = None) -> bool:
    """Index the site (into `into`, else site/pagefind); False if Pagefind is not installed."""
    indexing = Indexing.start(site, into)
    return indexing is not None and indexing.finish()


class Indexing:
    """Pagefind at work on a site, started (`start`) while the build goes on, and waited for
    and checked (`finish`); `stop` ends it unfinished."""

    def __init__(self, site: Path, into: Path | None, process: subprocess.Popen, said):
        self.site, self.into, self.process, self.said = site, into, process, said

    @classmethod
    def start(cls, site: Path, into: Path | None = None) -> "Indexing | None":
        """Pagefind started on `site`; None if it is not installed."""
        try:
            from pagefind.service import get_executable
        except ImportError:
            return None
        # Pagefind's binary itself: `python -m pagefind` starts an interpreter only to find it
        binary = get_executable()
        command = [str(binary)] if binary is not None else [sys.executable, "-m", "pagefind"]
        command += ["--site", str(site), "--quiet"]
        if into is not None:
            command += ["--output-path", str(into)]
            into.mkdir(parents=True, exist_ok=True)  # a folder we cannot write is said by the OS, not by a panic
        # what it says goes to files, not pipes: nobody reads a pipe while the build goes on
        said = tempfile.TemporaryFile()
        return cls(site, into, subprocess.Popen(command, stdout=said, stderr=subprocess.STDOUT), said)

    def finish(self) -> bool:
        """Wait for Pagefind; True once its index is whole (a failure is raised: OSError, Fault)."""
        site, into = self.site, self.into
        self.process.wait()
        self.said.seek(0)
        said = self.said.read().decode("utf-8", errors="replace").strip()
        self.said.close()
        if self.process.returncode != 0:
            code = re.search(r"Os \{ code: (\d+)", said)  # Pagefind's own OS errors end in a Rust panic
            if code:
                raise OSError(int(code.group(1)), os.strerror(int(code.group(1))), str(site / "pagefind"))
            raise faults.Fault(f"cannot write {faults.shown(site / 'pagefind')}: Pagefind failed: "
                               f"{said.splitlines()[0] if said else f'exit {self.process.returncode}'}")
        check_index(into or site / "pagefind", site / "pagefind")
        drop_ui_bundles(into or site / "pagefind")
        return True

    def stop(self) -> None:
        """End Pagefind now (its index is not wanted)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.said.close()


# Pagefind's ready-made search interfaces: the site draws its own results (site.js) and loads
# only pagefind.js, its worker, the wasm and the index.
UI_BUNDLES = ("pagefind-ui.js", "pagefind-ui.css", "pagefind-modular-ui.js", "pagefind-modular-ui.css",
              "pagefind-component-ui.js", "pagefind-component-ui.css", "pagefind-highlight.js")


def drop_ui_bundles(folder: Path) -> None:
    for name in UI_BUNDLES:
        (folder / name).unlink(missing_ok=True)


_WORD = re.compile(r"[^\W\d_]{4,}")
_TAG = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.S)  # a script's data (ids) is no word of the page


def game_terms(pages, lang: str | None = None) -> list[str]:
    """The words of a game's pages in one language `lang` (4 letters or more, lower case), the
    most used first: a search word not among them is offered the nearest one ("artilery" ->
    "artillery"), the more used winning a tie. A quote in another language (a roster rule's
    source sentence in an English edition) gives none."""
    counts: dict[str, int] = {}
    foreign = re.compile(r'<q lang="(?!' + re.escape(lang or "") + r'")[^"]*">.*?</q>', re.S)
    for page in pages:
        for text in (page.title, _TAG.sub(" ", foreign.sub(" ", str(page.body)))):
            for word in _WORD.findall(text):
                word = word.lower()
                counts[word] = counts.get(word, 0) + 1
    return sorted(counts, key=lambda w: (-counts[w], w))


def check_index(folder: Path, final: Path) -> None:
    """Pagefind ends with exit 0 when the disk fills up under it, leaving empty and cut files: a
    disk left full, an empty file or an unreadable pagefind-entry.json is a failed index."""
    if os.statvfs(folder).f_bavail == 0:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(final))
    entry = folder / "pagefind-entry.json"
    broken = [path for path in folders.files(folder) if path.stat().st_size == 0]
    try:
        json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        broken.append(entry)
    if broken:
        raise faults.Fault(f"cannot write {faults.shown(final)}: Pagefind left {broken[0].name} in the search index "
                           "empty or unreadable (a full disk?); free some space and run again")
