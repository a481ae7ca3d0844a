"""Full-text search with Pagefind (its PyPI package): one index per language, found by the
pages' lang attributes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def index_site(site: Path, into: Path | None = None) -> bool:
    """Index the site (into `into`, else site/pagefind); False if Pagefind is not installed."""
    try:
        import pagefind  # noqa: F401
    except ImportError:
        return False
    command = [sys.executable, "-m", "pagefind", "--site", str(site), "--quiet"]
    if into is not None:
        command += ["--output-path", str(into)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"pagefind failed: {result.stderr.strip() or result.stdout.strip()}")
    return True
