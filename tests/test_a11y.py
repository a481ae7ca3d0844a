"""Accessibility of the shipped site, checked by axe-core (its npm package, injected into Debian's
Chromium): no critical or serious violation on any page, in each of four variants: desktop
light, desktop dark, 375 px phone light, 375 px phone dark. The five shipped games and the
hex-and-counter test game (its counters and map pages) are checked.

One browser and two tabs do it all (axe runs in both at once). Each page is loaded once at the
phone's width (the menu closed, as the page's HTML has it) and checked in the
phone's light and dark schemes, then widened to the desktop (where the site's script opens the
menu, as on a desktop load) and checked in both schemes there. axe runs with the WCAG 2.0/2.1 A
and AA rules and best practices, and reports violations only. `.ci/run` installs the axe-core
release tests/axe/package-lock.json pins into tests/axe/ with npm ci, then runs the fast checks
again with the newest release (RULESMITH_AXE names its axe.min.js).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from .test_browser import browser, need, server  # noqa: F401  (fixtures)

PINNED = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
AXE = Path(os.environ.get("RULESMITH_AXE") or PINNED)  # another release's axe.min.js: .ci/run's newest
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
FAILING = ("critical", "serious")
PHONE, DESKTOP = {"width": 375, "height": 740}, {"width": 1280, "height": 900}
VARIANTS = (("phone-light", PHONE, "light"), ("phone-dark", PHONE, "dark"),
            ("desktop-light", DESKTOP, "light"), ("desktop-dark", DESKTOP, "dark"))
RUN = """() => axe.run(document, {runOnly: {type: 'tag', values: %s}, resultTypes: ['violations']})
  .then(r => r.violations.filter(v => %s.includes(v.impact)).map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => n.target.join(' ') + ' — ' + n.failureSummary.split('\\n').slice(1, 2).join('').trim())})))"""
SCRIPT = RUN % (json.dumps(TAGS), json.dumps(list(FAILING)))
# A frame later: a resize's media query changes have been reported to the page's listeners.
NEXT_FRAME = "() => new Promise(done => requestAnimationFrame(() => done()))"


def all_pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


TABS = 2  # pages checked side by side: each tab's renderer runs its axe on its own core


@pytest.fixture(scope="module")
def axe_tabs(browser):  # noqa: F811
    need("axe-core", AXE.exists(), "npm install --prefix tests/axe (.ci/run does)")
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(path=str(AXE))
    tabs = [context.new_page() for _ in range(TABS)]
    yield tabs
    context.close()


@pytest.fixture
def axe_page(axe_tabs):
    return axe_tabs[0]


def check_all_variants(tabs, base: str, paths: list[str]) -> dict[str, list[str]]:
    """{variant: problems} over `paths`, each page loaded once, `len(tabs)` pages at a time."""
    problems: dict[str, list[str]] = {name: [] for name, _v, _s in VARIANTS}
    start = "() => { window.__axe = (%s)(); }" % SCRIPT
    for i in range(0, len(paths), len(tabs)):
        batch = list(zip(tabs, paths[i:i + len(tabs)]))
        for tab, path in batch:
            tab.set_viewport_size(PHONE)
            tab.emulate_media(color_scheme="light")
            tab.goto(f"{base}/{path}", wait_until="load")
        for name, viewport, scheme in VARIANTS:
            for tab, _path in batch:
                if tab.viewport_size != viewport:
                    tab.set_viewport_size(viewport)  # the site's script opens the menu on a desktop,
                    tab.evaluate(NEXT_FRAME)         # when the media query's change is reported
                tab.emulate_media(color_scheme=scheme)
                tab.evaluate(start)  # axe runs in every tab at once
            for tab, path in batch:
                for v in tab.evaluate("() => window.__axe"):
                    shown = "\n      ".join(v["nodes"][:5])
                    more = f" (+{len(v['nodes']) - 5} more)" if len(v["nodes"]) > 5 else ""
                    problems[name].append(f"{path}: {v['impact']} {v['id']} ({v['help']}){more}\n      {shown}")
    return problems


def _report(problems: dict[str, list[str]]) -> str:
    return "\n".join(f"{name}: {len(found)} violations\n" + "\n".join(found[:25])
                     for name, found in problems.items() if found)


@pytest.mark.slow  # axe on every page of the shipped site in four variants: minutes
def test_no_serious_accessibility_violations_in_any_variant(axe_tabs, server):  # noqa: F811
    base, site = server
    paths = all_pages(site)
    assert len(paths) > 300
    started = time.perf_counter()
    problems = check_all_variants(axe_tabs, base, paths)
    seconds = time.perf_counter() - started
    print(f"\naxe: {len(paths)} pages × {len(VARIANTS)} variants in {seconds:.0f} s")
    assert not any(problems.values()), _report(problems)


@pytest.fixture(scope="module")
def counter_game_site(river_line_site):
    """The hex-and-counter test game's site (counters page, map page), served."""
    import functools
    import http.server
    import threading

    from .test_browser import QuietHandler

    site = river_line_site
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", site
    httpd.shutdown()


def test_counter_game_pages_in_every_variant(axe_tabs, counter_game_site):
    base, site = counter_game_site
    paths = all_pages(site)
    assert "river-line/ru/counters.html" in paths and "river-line/en/map-valley.html" in paths
    problems = check_all_variants(axe_tabs, base, paths)
    assert not any(problems.values()), _report(problems)


def test_axe_catches_a_violation(axe_page, server):  # noqa: F811
    """The check itself works: a page with an unlabelled input fails, and a text too faint to
    read fails in the dark scheme only."""
    base, _site = server
    axe_page.goto(f"{base}/index.html")
    axe_page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', '<input type=text>')")
    ids = {v["id"] for v in axe_page.evaluate(SCRIPT)}
    assert "label" in ids
    axe_page.goto(f"{base}/index.html")
    axe_page.evaluate("""document.querySelector('main').insertAdjacentHTML('beforeend',
        '<style>@media (prefers-color-scheme: dark) { .faint { color: #222 !important; } }</style><p class=faint>Faint</p>')""")
    axe_page.emulate_media(color_scheme="light")
    light = {v["id"] for v in axe_page.evaluate(SCRIPT)}
    axe_page.emulate_media(color_scheme="dark")
    dark = {v["id"] for v in axe_page.evaluate(SCRIPT)}
    assert "color-contrast" in dark and "color-contrast" not in light


def test_each_variant_is_checked_in_its_own_width_and_scheme(axe_tabs, server):  # noqa: F811
    """A text too faint only in the dark scheme fails both dark variants; one too faint only on a
    light phone fails that variant alone."""
    base, site = server
    probe = (site / "nuclear/en/index.html").read_text(encoding="utf-8").replace("</main>", """
<style>@media (prefers-color-scheme: dark) { .dark-faint { color: #222 !important; } }
@media (max-width: 40em) and (prefers-color-scheme: light) { .phone-faint { color: #eee !important; } }</style>
<p class="dark-faint">Faint in the dark</p><p class="phone-faint">Faint on a light phone</p></main>""")
    context = axe_tabs[0].context
    context.route("**/nuclear/en/probe.html", lambda route: route.fulfill(body=probe, content_type="text/html"))
    try:
        problems = check_all_variants(axe_tabs, base, ["nuclear/en/probe.html"])
    finally:
        context.unroute("**/nuclear/en/probe.html")
    failing = {name: " ".join(found) for name, found in problems.items()}
    assert ".dark-faint" in failing["desktop-dark"] and ".dark-faint" in failing["phone-dark"]
    assert ".phone-faint" in failing["phone-light"]
    assert failing["desktop-light"] == ""


def test_the_axe_that_runs_is_the_release_the_lock_pins(axe_page, server):  # noqa: F811
    """The tests check with the release tests/axe/package-lock.json pins (a stale node_modules
    fails here), at least the one package.json asks for; RULESMITH_AXE: the release it names."""
    base, _site = server
    axe_page.goto(f"{base}/index.html")
    running = axe_page.evaluate("() => axe.version")
    folder = Path(__file__).parent / "axe"
    if AXE == PINNED:
        lock = json.loads((folder / "package-lock.json").read_text(encoding="utf-8"))
        assert running == lock["packages"]["node_modules/axe-core"]["version"]
    declared = json.loads((folder / "package.json").read_text(encoding="utf-8"))["dependencies"]["axe-core"]
    assert [int(n) for n in running.split(".")[:3]] >= [int(n) for n in declared.lstrip("^~").split(".")]


LONG = "rock-n-roll/ru/victory.html"  # a chapter of the game with the most chapters


def _long_sidebar(site: Path) -> str:
    """LONG with its chapter list three times over: a sidebar that scrolls on any desktop."""
    html = (site / LONG).read_text(encoding="utf-8")
    head, rest = html.split('<ol id="chapters">', 1)
    items, tail = rest.split("</ol>", 1)
    again = items.replace(' class="active"', "").replace(' aria-current="page"', "")
    return f'{head}<ol id="chapters">{items}{again}{again}</ol>{tail}'


def test_a_long_chapter_list_scrolls_in_a_sidebar_the_keyboard_reaches(axe_page, server):  # noqa: F811
    """On a desktop the sidebar of a long chapter list scrolls; the menu is open there, so its
    links are no collapsed content: axe finds the region focusable, and tabbing to the last
    chapter scrolls the sidebar to it. Left closed (as the HTML has it), axe finds it serious."""
    base, site = server
    url = f"{base}/{LONG.replace('victory', 'long-sidebar')}"
    context = axe_page.context
    context.route(url, lambda route: route.fulfill(body=_long_sidebar(site), content_type="text/html"))
    try:
        axe_page.set_viewport_size(DESKTOP)
        axe_page.emulate_media(color_scheme="light")
        axe_page.goto(url, wait_until="load")
        sidebar, menu = axe_page.locator(".sidebar"), axe_page.locator(".sidebar details.menu")
        assert sidebar.evaluate("s => s.scrollHeight > s.clientHeight + 100 && getComputedStyle(s).overflowY == 'auto'")
        assert menu.evaluate("d => d.open")
        assert not axe_page.evaluate(SCRIPT)
        links = axe_page.locator(".sidebar ol a").count()
        for _press in range(links + 20):  # the header's links and search come first
            axe_page.keyboard.press("Tab")
            if axe_page.evaluate("() => document.activeElement === [...document.querySelectorAll('.sidebar ol a')].pop()"):
                break
        else:
            raise AssertionError("Tab never reached the sidebar's last chapter")
        assert sidebar.evaluate("""s => { const a = document.activeElement.getBoundingClientRect(),
            box = s.getBoundingClientRect(); return s.scrollTop > 0 && a.top >= box.top && a.bottom <= box.bottom; }""")
        axe_page.set_viewport_size(PHONE)
        axe_page.evaluate(NEXT_FRAME)
        assert not menu.evaluate("d => d.open")  # a phone: closed again, as the HTML has it
        axe_page.set_viewport_size(DESKTOP)
        axe_page.evaluate(NEXT_FRAME)
        assert menu.evaluate("d => d.open")
        menu.evaluate("d => { d.open = false; }")  # what a desktop load left before: the list shown by CSS alone
        assert "scrollable-region-focusable" in {v["id"] for v in axe_page.evaluate(SCRIPT)}
    finally:
        context.unroute(url)
        axe_page.set_viewport_size(PHONE)
