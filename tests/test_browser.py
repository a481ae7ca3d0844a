"""The site in a real browser (Playwright driving Chromium): search in Russian and English,
keyword tooltips, the language switch keeping the section, no console errors, a 375 px phone."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"), reason="no chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def server(shipped_site):
    site = shipped_site
    assert site.joinpath("pagefind/pagefind-ui.js").exists()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *args: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", site
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda m: page.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))
    yield page
    context.close()


def search(page, base: str, path: str, query: str) -> list[str]:
    page.goto(f"{base}/{path}")
    box = page.locator(".pagefind-ui__search-input")
    box.fill(query)
    page.locator(".pagefind-ui__result-link").first.wait_for(timeout=15000)
    return page.locator(".pagefind-ui__result-link").evaluate_all("els => els.map(e => e.href)")


def test_russian_search_finds_the_page(page, server):
    base, _ = server
    hrefs = search(page, base, "nuclear/ru/index.html", "Регенерация")
    assert any("/nuclear/ru/" in h for h in hrefs), hrefs
    assert not any("/en/" in h for h in hrefs)
    assert page.console_errors == []


def test_english_search_finds_the_page(page, server):
    base, _ = server
    hrefs = search(page, base, "nuclear/en/index.html", "Regeneration")
    assert any("/nuclear/en/" in h for h in hrefs), hrefs
    assert not any("/ru/" in h for h in hrefs)


def test_keyword_tooltip_shows_definition(page, server):
    base, site = server
    target = next(p for p in sorted((site / "nuclear/ru").glob("*.html")) if 'class="kw"' in p.read_text())
    page.goto(f"{base}/nuclear/ru/{target.name}")
    link = page.locator("main a.kw").first
    tip = link.locator(".kw-tip")
    assert not tip.is_visible()
    link.hover()
    tip.wait_for(state="visible")
    assert len(tip.inner_text()) > 10
    page.mouse.move(0, 0)
    link.focus()  # keyboard users get it too
    assert tip.is_visible()


def test_language_switch_keeps_section(page, server):
    base, site = server
    chapter = next(p.name for p in sorted((site / "nuclear/ru").glob("*.html")) if "<h2 id=" in p.read_text())
    page.goto(f"{base}/nuclear/ru/{chapter}")
    anchor = page.locator("main h2[id]").last.get_attribute("id")
    page.goto(f"{base}/nuclear/ru/{chapter}#{anchor}")
    page.locator("a.lang[hreflang=en]").click()
    page.wait_for_url(f"**/nuclear/en/{chapter}#{anchor}")
    assert page.locator(f"[id='{anchor}']").is_visible()
    assert page.evaluate("document.documentElement.lang") == "en"


@pytest.mark.parametrize("path", ["index.html", "rock-n-roll/ru/index.html", "deadzone/en/actions.html",
                                  "frames/en/tables.html", "battle-rules/ru/units.html", "nuclear/en/rules-glossary.html"])
def test_no_console_errors(page, server, path):
    base, site = server
    if not (site / path).exists():
        path = next(p.relative_to(site).as_posix() for p in (site / Path(path).parent).glob("*.html"))
    page.goto(f"{base}/{path}")
    page.wait_for_load_state("networkidle")
    assert page.console_errors == [], page.console_errors


def test_phone_reader_finds_unit_and_keyword(browser, server, tmp_path):
    base, _ = server
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{base}/nuclear/en/index.html")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.locator("summary", has_text="Menu").click()
    page.locator(".sidebar a", has_text="Units").click()
    page.locator("main a.ref-unit, main table.roster th a, main table.roster th").first.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.goto(f"{base}/nuclear/en/rules-glossary.html")
    assert page.locator("dt", has_text="Regeneration").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=str(tmp_path / "phone-glossary.png"))
    context.close()


def test_works_from_file_url(page, shipped_site):
    page.goto((shipped_site / "nuclear/en/rules-glossary.html").as_uri())
    assert page.locator("dt", has_text="Regeneration").is_visible()
    assert page.evaluate("getComputedStyle(document.querySelector('.top')).display") == "flex"  # CSS loaded
    assert "served over HTTP" in page.locator(".search-offline").inner_text()
    page.locator(".sidebar a", has_text="Units").click()
    page.wait_for_url("**/nuclear/en/units.html")
    assert page.console_errors == []
