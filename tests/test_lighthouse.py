"""Lighthouse 12 (npm, mobile, its defaults) on Debian's Chromium, against the built site served
from 127.0.0.1: one page of each kind (the site's home, a game's landing page, a chapter, a
unit, a card, the tables with their calculator, and a chapter with search open) must score
performance >= 95, 100 for accessibility, best practices and SEO, shift its layout by less than
0.05 and transfer under 300 KB with its assets (performance: the median of three runs when the
first is under 95). `.ci/run` installs Lighthouse into
tests/lighthouse/ with npm; run.mjs runs it on every page in one browser."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .test_browser import CHROMIUM, need, server  # noqa: F401  (fixture)

HERE = Path(__file__).parent / "lighthouse"
LIGHTHOUSE = HERE / "node_modules" / "lighthouse" / "package.json"
PAGES = {  # kind: page (Nuclear for the game's kinds; Deadzone has the card pages)
    "home": "index.html",
    "landing": "nuclear/en/index.html",
    "chapter": "nuclear/ru/combat.html",
    "unit": "nuclear/ru/units/gorgon.html",
    "card": "deadzone/ru/cards/action-fight.html",
    "tables": "nuclear/en/tables.html",
    "search": "nuclear/ru/rules-glossary.html?q=%D0%B0%D1%80%D1%82%D0%B8%D0%BB%D0%B5%D1%80%D0%B8%D1%8F",
}
BUDGET = 300 * 1024
PERFORMANCE = 95  # the least performance score of a page (the median of three runs when the first is lower)
pytestmark = pytest.mark.slow  # a Lighthouse run per page, each a browser's full page load and audit


@pytest.fixture(scope="module")
def scores(server):  # noqa: F811
    need("Chromium", CHROMIUM is not None, "apt-get install chromium (.ci/run does)")
    need("Lighthouse", LIGHTHOUSE.exists() and shutil.which("node") is not None,
         "npm ci --prefix tests/lighthouse (.ci/run does)")
    base, _site = server
    urls = {kind: f"{base}/{path}" for kind, path in PAGES.items()}
    found = _audit(list(urls.values()))
    # Performance is timed, so it varies from run to run (more on a busy machine); Lighthouse's
    # guide to variability advises the median of several runs. A page under its mark is run
    # twice more and the median of its three runs kept.
    again = [url for url in urls.values() if found[url]["scores"]["performance"] < PERFORMANCE]
    if again:
        runs = [_audit(again) for _ in range(2)]
        for url in again:
            three = sorted([found[url], *(run[url] for run in runs)], key=lambda got: got["scores"]["performance"])
            found[url] = three[1]
    return {kind: found[url] for kind, url in urls.items()}


def _audit(urls: list[str]) -> dict[str, dict]:
    """run.mjs's findings for each URL, audited one after another in one browser."""
    result = subprocess.run(["node", str(HERE / "run.mjs"), *urls], capture_output=True, text=True,
                            env={**os.environ, "CHROME_PATH": CHROMIUM}, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout)


@pytest.mark.parametrize("kind", list(PAGES))
def test_lighthouse_mobile(scores, kind):
    got = scores[kind]
    assert got["error"] is None, got["error"]
    wanted = {"performance": PERFORMANCE, "accessibility": 100, "best-practices": 100, "seo": 100}
    low = {name: got["scores"][name] for name, least in wanted.items() if got["scores"][name] < least}
    assert not low, (low, got["failing"])
    assert got["cls"] < 0.05, got
    assert got["bytes"] < BUDGET, got
