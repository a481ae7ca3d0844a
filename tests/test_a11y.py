"""Accessibility of the shipped site, checked by axe-core (its npm package, injected into Debian's
Chromium): no critical or serious violation on any page.

Every page is checked on a desktop screen in the light scheme. The dark scheme, the 375 px phone
and the dark phone are checked on a sample: for every game, one page of each kind (landing,
chapter, glossary, roster, unit, cards, card, tables, reference, errata; the longest chapter),
in English for the dark scheme and in Russian for the light phone. Pages of a kind share one
template and one stylesheet, so the sample covers every layout in an eighth of the time.
`.ci/run` installs axe-core into tests/axe/ with npm.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .test_browser import browser, need, server  # noqa: F401  (fixtures)

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
FAILING = ("critical", "serious")
VARIANTS = {  # viewport, colour scheme, language of the sample (None: every page)
    "desktop-light": ({"width": 1280, "height": 900}, "light", None),
    "desktop-dark": ({"width": 1280, "height": 900}, "dark", "en"),
    "phone-light": ({"width": 375, "height": 740}, "light", "ru"),
    "phone-dark": ({"width": 375, "height": 740}, "dark", "en"),
}
RUN = """() => axe.run(document, {runOnly: {type: 'tag', values: %s}, resultTypes: ['violations']})
  .then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => n.target.join(' ') + ' — ' + n.failureSummary.split('\\n').slice(1, 2).join('').trim())})))"""


def all_pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def sample_pages(site: Path, lang: str) -> list[str]:
    """One page of each kind per game in `lang` (the longest chapter), and the games' index."""
    chosen: dict[tuple[str, str], tuple[int, str]] = {}
    for path in all_pages(site):
        parts = path.split("/")
        if len(parts) > 2 and parts[1] != lang:
            continue
        text = (site / path).read_text(encoding="utf-8")
        kind = re.search(r'<body class="page-([\w-]+)', text)
        key = (parts[0], kind.group(1) if kind else "index")
        size = len(text) if key[1] == "chapter" else -len(path)
        if key not in chosen or size > chosen[key][0]:
            chosen[key] = (size, path)
    return sorted(path for _size, path in chosen.values())


@pytest.fixture(scope="module")
def axe_page(browser):  # noqa: F811
    need("axe-core", AXE.exists(), "npm install --prefix tests/axe (.ci/run does)")
    context = browser.new_context()
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    yield page
    context.close()


def check(page, base: str, paths: list[str]) -> list[str]:
    problems = []
    for path in paths:
        page.goto(f"{base}/{path}")
        for v in page.evaluate(RUN % json.dumps(TAGS)):
            if v["impact"] in FAILING:
                shown = "\n      ".join(v["nodes"][:5])
                more = f" (+{len(v['nodes']) - 5} more)" if len(v["nodes"]) > 5 else ""
                problems.append(f"{path}: {v['impact']} {v['id']} ({v['help']}){more}\n      {shown}")
    return problems


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_no_serious_accessibility_violations(axe_page, server, variant):  # noqa: F811
    base, site = server
    viewport, scheme, lang = VARIANTS[variant]
    axe_page.set_viewport_size(viewport)
    axe_page.emulate_media(color_scheme=scheme)
    paths = sample_pages(site, lang) if lang else all_pages(site)
    assert len(paths) > (300 if lang is None else 35)
    problems = check(axe_page, base, paths)
    assert not problems, f"{len(problems)} pages with serious accessibility violations ({variant}):\n" + \
        "\n".join(problems[:40])


def test_axe_catches_a_violation(axe_page, server):  # noqa: F811
    """The check itself works: a page with an unlabelled input fails."""
    base, _site = server
    axe_page.goto(f"{base}/index.html")
    axe_page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', '<input type=text>')")
    ids = {v["id"] for v in axe_page.evaluate(RUN % json.dumps(TAGS)) if v["impact"] in FAILING}
    assert "label" in ids
