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

# In CI (the variable CI is set) a missing browser is a failure, never a quiet skip.
CI = bool(os.environ.get("CI"))
if CI:
    from playwright import sync_api as playwright
else:
    playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def need(thing: str, present: bool, install: str) -> None:
    """Skip a browser test when `thing` is missing on a developer's machine; fail it in CI."""
    if present:
        return
    if CI:
        pytest.fail(f"{thing} is missing and CI is set: {install}", pytrace=False)
    pytest.skip(f"no {thing}")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server(shipped_site):
    site = shipped_site
    assert site.joinpath("pagefind/pagefind.js").exists()
    handler = functools.partial(QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", site
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    need("Chromium", CHROMIUM is not None, "apt-get install chromium (.ci/run does)")
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


def search(page, base: str, path: str, query: str, all_games: bool = False) -> list[str]:
    page.goto(f"{base}/{path}")
    if all_games:
        page.locator(".search-all").check()
    page.locator(".search-input").fill(query)
    page.locator(".search-result").first.wait_for(timeout=15000)
    return page.locator(".search-result").evaluate_all("els => els.map(e => e.href.split(/[?#]/)[0])")  # the pages


@pytest.mark.parametrize("lang, query, entry", [("ru", "Регенерация", "rules-glossary.html"),
                                                 ("en", "Regeneration", "rules-glossary.html"),
                                                 ("en", "Gorgon", "units/gorgon.html")])
def test_search_finds_this_games_entry_first(page, server, lang, query, entry):
    base, _ = server
    hrefs = search(page, base, f"nuclear/{lang}/index.html", query)
    assert hrefs[0].endswith(f"/nuclear/{lang}/{entry}"), hrefs
    assert all(f"/nuclear/{lang}/" in h for h in hrefs), hrefs  # this game, this language only
    label = page.locator(".search-label-tag").first.inner_text()
    assert label == {"ru": "Термин · Nuclear", "en": "Keyword · Nuclear"}[lang] if "glossary" in entry else \
        label == "Unit · Nuclear", label
    assert page.console_errors == []


def test_search_finds_a_case_by_its_number(page, server):
    """Frames numbers its cases (numbering: cases): a case's number finds its section."""
    base, _ = server
    page.goto(f"{base}/frames/en/index.html")
    page.locator(".search-input").fill("5.3.4.1")
    page.locator(".search-result").first.wait_for(timeout=15000)
    first = page.locator(".search-result").first.get_attribute("href")
    assert first.startswith("frame-turn.html") or "/frames/en/frame-turn.html" in first, first
    assert first.endswith("#case-5.3.4.1"), first


def test_search_all_games_switch(page, server):
    base, _ = server
    scoped = search(page, base, "battle-rules/en/index.html", "damage")
    assert all("/battle-rules/en/" in h for h in scoped), scoped
    everywhere = search(page, base, "battle-rules/en/index.html", "damage", all_games=True)
    assert {h.split("/")[3] for h in everywhere} - {"battle-rules"}, everywhere
    assert all("/en/" in h for h in everywhere)


def test_draft_marks_are_not_indexed(page, server):
    """DRAFT badges and the card watermark say nothing about the rules: not found by search."""
    base, _ = server
    page.goto(f"{base}/deadzone/ru/index.html")
    page.locator(".search-all").check()
    page.locator(".search-input").fill("ЧЕРНОВИК")
    page.locator(".search-results > *").first.wait_for(timeout=15000)
    excerpts = page.locator(".search-excerpt").all_inner_texts()
    assert not [e for e in excerpts if "ЧЕРНОВИК" in e], excerpts  # the badge's capitals; the text may say it


def test_search_is_visible_on_a_phone(browser, server):
    base, _ = server
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{base}/nuclear/en/index.html")
    assert page.locator(".search-input").is_visible()  # not hidden inside the menu
    context.close()


def test_keyword_tooltip_shows_definition(page, server):
    base, site = server
    target = next(p for p in sorted((site / "nuclear/ru").glob("*.html"))  # the list builder's datasheets print only
                  if 'class="kw"' in p.read_text() and p.name != "army-list.html")
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


def test_card_preview_shows_the_whole_printed_card(page, server):
    """The preview draws the card in the printed card's face, so a card the sheets fill to the
    last line (Deadzone's Command die in English) is not cut off on screen."""
    base, _site = server
    page.goto(f"{base}/deadzone/en/cards/die-command.html")
    page.evaluate("document.fonts.ready.then(() => true)")
    body = page.locator(".card-preview .card-figure .card-body").first
    assert body.evaluate("e => getComputedStyle(e).fontFamily").startswith('"PT Sans"')
    assert body.evaluate("e => e.scrollHeight <= e.clientHeight + 1")


def test_language_switch_keeps_section(page, server):
    base, site = server
    chapter = next(p.name for p in sorted((site / "nuclear/ru").glob("*.html"))  # the builder keeps its list in the #
                   if "<h2 id=" in p.read_text() and p.name != "army-list.html")
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


def test_phone_reader_finds_unit_keywords_and_odds_in_three_taps(browser, server, tmp_path):
    """On a 375 px phone: the game's page -> Units -> a unit (datasheet with keyword tooltips)
    -> its odds, the calculator preset to the unit's Quality."""
    base, _ = server
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{base}/nuclear/en/index.html")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.locator("main a", has_text="Units").first.tap()  # 1
    page.wait_for_url("**/nuclear/en/units.html")
    page.locator("main table.roster a", has_text="Leman Russ Platoon").tap()  # 2
    page.wait_for_url("**/nuclear/en/units/leman-russ.html")
    sheet = page.locator("main .datasheet")
    assert sheet.locator("table.stats").is_visible()
    keyword = sheet.locator("a.kw").first
    assert keyword.is_visible() and keyword.locator(".kw-tip").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=str(tmp_path / "phone-unit.png"), full_page=True)
    page.locator("main a.odds-link").first.tap()  # 3
    page.wait_for_url("**/nuclear/en/tables.html?attacker=leman-russ*")
    calc = page.locator("form.calculator").first
    assert calc.locator("select[data-column=quality]").input_value() == "4+"
    assert calc.locator("select[data-side=attacker] option:checked").inner_text().startswith("Leman Russ Platoon")
    assert "%" in calc.locator("output").inner_text()
    assert calc.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    context.close()


def test_wide_table_keeps_its_first_column_on_a_phone(browser, server):
    base, _ = server
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{base}/battle-rules/en/tables.html")
    region = page.locator(".table-scroll:has(table.grid)").first
    assert "radial-gradient" in region.evaluate("r => getComputedStyle(r).backgroundImage")  # the edge's shadow
    region.focus()  # reachable by keyboard
    first = region.locator("tbody tr:nth-child(2) th[scope=row]").first  # the row's first name
    before = first.bounding_box()["x"]
    assert region.evaluate("r => { r.scrollLeft = 300; return r.scrollLeft; }") > 0
    page.wait_for_timeout(100)
    after = first.bounding_box()["x"]
    assert abs(after - region.bounding_box()["x"]) < 2 and after <= before + 1
    context.close()


def test_calculator_reads_the_grid(page, server):
    base, _ = server
    page.goto(f"{base}/nuclear/en/tables.html")
    calc = page.locator("form.calculator").first
    calc.locator("select[data-column=quality]").select_option("3+")
    calc.locator("select[data-column=defense]").select_option("4+")
    calc.locator("select.calc-outcome").select_option("AP 1")
    assert calc.locator("output").inner_text() == "44.4%"
    assert calc.locator(".calc-exact").inner_text() == "(4/9)"


def test_calculator_unit_against_target_by_keyboard(browser, server):
    """Choose the attacker and the target by keyboard on a 375 px phone: the inputs follow the
    units' data and the output shows the precomputed cell; setting an input by hand lets go of
    the unit it no longer matches."""
    base, _ = server
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{base}/nuclear/ru/tables.html?attacker=recruits&target=soldiers#prob-wounds-per-attack")
    calc = page.locator("form.calculator").first
    assert calc.locator("select[data-column=quality]").input_value() == "6+"
    assert calc.locator("select[data-column=defense]").input_value() == "4+"
    assert calc.locator("output").inner_text() == "8,3\u00a0%" and calc.locator(".calc-exact").inner_text() == "(1/12)"
    target = calc.locator("select[data-side=target]")
    target.focus()
    assert target.evaluate("s => document.activeElement === s")
    page.keyboard.press("ArrowUp")  # the list before: Батальон Новобранцев, Defence 5+
    assert target.locator("option:checked").inner_text() == "Батальон Новобранцев"
    assert calc.locator("select[data-column=defense]").input_value() == "5+"
    assert calc.locator("output").inner_text() == "11,1\u00a0%"  # 6+ hits 1/6, a 5+ save fails 2/3: 1/9
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.dataset.side") == "attacker"
    attacker = calc.locator("select[data-side=attacker]")
    attacker.select_option(label="Взвод Леман Руссов — Боевая пушка")
    quality, outcome = calc.locator("select[data-column=quality]").input_value(), calc.locator("select.calc-outcome")
    assert quality == "4+" and outcome.input_value() != "ББ 0"  # the cannon's AP picks the column
    cell = page.evaluate("""() => {
      const c = document.querySelector('form.calculator');
      const d = JSON.parse(c.querySelector('script[type="application/json"]').textContent);
      return d.cells['4+|5+'][c.querySelector('select.calc-outcome').selectedIndex][0]; }""")
    assert calc.locator("output").inner_text() == cell == "41,7\u00a0%"  # hit 1/2, AP 1: a 6+ save fails 5/6
    assert calc.locator(".calc-total").inner_text() == "Кубиков атаки у оружия: 2; в сумме: 0,83 (5/6)"
    calc.locator("select[data-column=defense]").select_option("2+")  # by hand
    assert target.input_value() == "" and attacker.input_value() != ""
    assert calc.locator(".calc-total").inner_text() != ""  # the attacker's data still holds
    calc.locator("select[data-column=quality]").select_option("2+")
    assert attacker.input_value() == "" and calc.locator(".calc-total").inner_text() == ""
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert errors == []
    context.close()


def test_game_reads_offline_after_the_first_visit(browser, server):
    """One page of a game opened: the worker keeps every page of that game in every language and
    the site's home; offline, search says it needs a connection."""
    base, _ = server
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{base}/nuclear/en/index.html")
    page.wait_for_function("document.documentElement.dataset.offline === 'kept'", timeout=30000)
    context.set_offline(True)
    page.goto(f"{base}/nuclear/en/units/gorgon.html")  # never visited
    assert page.locator("main h1").inner_text().startswith("Gorgon")
    assert page.evaluate("getComputedStyle(document.querySelector('.top')).display") == "flex"  # CSS cached too
    assert page.evaluate("document.fonts.ready.then(() => document.fonts.check('16px \"PT Serif\"'))")
    page.goto(f"{base}/nuclear/ru/units/gorgon.html")  # the other language
    assert page.evaluate("document.documentElement.lang") == "ru" and page.locator("main h1").is_visible()
    page.goto(f"{base}/nuclear/en/")  # a folder address, never visited as such
    assert page.locator("main h1").is_visible() and page.evaluate("document.documentElement.lang") == "en"
    page.goto(f"{base}/index.html")  # the site's home
    assert page.locator("a[href='nuclear/en/index.html']").is_visible()
    page.goto(f"{base}/nuclear/ru/tables.html")
    page.locator(".search-input").fill("артиллерия")
    page.locator(".search-offline").wait_for(timeout=15000)
    assert "сеть" in page.locator(".search-offline").inner_text()
    context.set_offline(False)
    manifest = page.evaluate("fetch('manifest.webmanifest').then(r => r.json())")
    assert manifest["start_url"] == "index.html"
    context.close()


CLS = """() => new Promise(done => { let sum = 0;
  new PerformanceObserver(list => { for (const e of list.getEntries()) { if (!e.hadRecentInput) sum += e.value; } })
    .observe({type: 'layout-shift', buffered: true});
  setTimeout(() => done(sum), 800); })"""


@pytest.mark.parametrize("script", [True, False])
def test_first_paint_is_the_final_layout_on_a_phone(browser, server, script):
    """No layout shift on a phone, with or without JavaScript: the menu is closed in the HTML,
    the fonts are there by the first paint, and the text starts on the first screen."""
    base, _ = server
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  java_script_enabled=script)
    page = context.new_page()
    for path in ("nuclear/ru/combat.html", "deadzone/en/cards/action-fight.html", "nuclear/en/tables.html"):
        page.goto(f"{base}/{path}")
        if script:
            assert page.evaluate(CLS) < 0.01, path
        assert not page.locator(".sidebar details.menu").evaluate("d => d.open")
        assert not page.locator(".sidebar ol").is_visible()
        assert page.locator("main h1:visible").first.bounding_box()["y"] < 844 / 3, path
    context.close()


def test_desktop_menu_is_open_without_script(browser, server):
    base, _ = server
    context = browser.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base}/nuclear/en/combat.html")
    assert page.locator(".sidebar ol a", has_text="Units").is_visible()
    assert not page.locator(".menu-link").is_visible()
    context.close()


def test_header_stays_in_reach_on_a_long_page(browser, server):
    """A compact header that stays at the top: search and the menu one tap away at the page's end."""
    base, _ = server
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{base}/nuclear/en/rules-glossary.html")
    assert page.locator(".top").bounding_box()["height"] <= 90
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(100)
    assert page.locator(".top").bounding_box()["y"] == 0
    assert page.locator(".search-input").is_visible()
    page.locator(".menu-link").tap()
    assert page.locator(".sidebar ol a", has_text="Units").is_visible()
    context.close()


def test_search_result_opens_the_section_and_marks_the_words(page, server):
    base, _ = server
    page.goto(f"{base}/nuclear/en/index.html")
    page.locator(".search-input").fill("regeneration")
    page.locator(".search-result").first.wait_for(timeout=15000)
    page.locator(".search-input").press("ArrowDown")
    assert page.locator(".search-list li").first.evaluate("li => li.classList.contains('chosen')")
    page.locator(".search-input").press("Enter")
    page.wait_for_url("**/nuclear/en/rules-glossary.html?hl=regeneration*")
    mark = page.locator("main mark.hit").first
    mark.wait_for()
    page.wait_for_timeout(200)
    box = mark.bounding_box()
    assert 0 < box["y"] < 900 and mark.inner_text().lower() == "regeneration"  # brought into view


@pytest.mark.parametrize("lang, typo, word", [("en", "artilery", "artillery"),
                                              ("ru", "артилерия", "артиллерия")])
def test_search_offers_the_games_own_word_for_a_typo(page, server, lang, typo, word):
    base, _ = server
    page.goto(f"{base}/nuclear/{lang}/index.html")
    page.locator(".search-input").fill(typo)
    suggestion = page.locator(".search-suggest")
    suggestion.wait_for(timeout=15000)
    assert suggestion.inner_text() == word
    suggestion.click()
    assert page.locator(".search-input").input_value() == word
    page.locator(".search-result").first.wait_for(timeout=15000)
    page.locator(".search-input").press("Escape")
    assert page.locator(".search-results").inner_text() == "" and page.locator(".search-input").input_value() == ""
    assert page.console_errors == []


def test_works_from_file_url(page, shipped_site):
    page.goto((shipped_site / "nuclear/en/rules-glossary.html").as_uri())
    assert page.locator("#keyword-regeneration").is_visible()
    assert page.evaluate("getComputedStyle(document.querySelector('.top')).display") == "flex"  # CSS loaded
    assert "served over HTTP" in page.locator(".search-offline").inner_text()
    # the note stands in the header, not over the page's text
    note, main = page.locator(".search-offline").bounding_box(), page.locator("main").bounding_box()
    assert note["y"] + note["height"] <= main["y"] + 1, (note, main)
    assert page.evaluate("navigator.serviceWorker ? navigator.serviceWorker.controller : null") is None
    page.locator(".sidebar a", has_text="Units").click()
    page.wait_for_url("**/nuclear/en/units.html")
    # the fonts' preloads are fetched with CORS, which file:// refuses; the @font-face rules
    # load the same fonts, so the page is drawn in them all the same
    assert page.evaluate("document.fonts.ready.then(() => document.fonts.check('16px \"PT Serif\"'))")
    refused = "Failed to load resource: net::ERR_FAILED"
    assert [e for e in page.console_errors if "assets/fonts/" not in e and e != refused] == []


def test_missing_browser_fails_under_ci(monkeypatch):
    import sys

    module = sys.modules[__name__]
    monkeypatch.setattr(module, "CI", True)
    with pytest.raises(pytest.fail.Exception, match="Chromium is missing and CI is set"):
        need("Chromium", False, "apt-get install chromium")
    monkeypatch.setattr(module, "CI", False)
    with pytest.raises(pytest.skip.Exception):
        need("Chromium", False, "apt-get install chromium")


def test_text_keeps_a_margin_from_the_window_edge(browser, shipped_site):
    """At a width where the sidebar sits beside the text, the text does not touch the window's
    right edge, and a draft badge keeps a space from the word before it."""
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    page.goto((shipped_site / "deadzone/ru/reference.html").as_uri())
    right = page.evaluate("Math.max(...[...document.querySelectorAll('main p, main dd')]"
                          ".map(e => e.getBoundingClientRect().right))")
    assert right <= 1100 - 12, right
    page.goto((shipped_site / "rock-n-roll/ru/units.html").as_uri())
    gap = page.evaluate("""(() => { const b = document.querySelector('th .draft');
        const r = document.createRange(); r.selectNodeContents(b.parentNode.firstChild);
        return b.getBoundingClientRect().left - r.getBoundingClientRect().right; })()""")
    assert gap >= 3, gap
    context.close()


@pytest.mark.slow  # loads every unit and card page of the shipped site, one by one
def test_no_card_preview_hides_its_text(page, shipped_site):
    """Every unit and card page: the printed card's preview shows all its text, or lets it
    scroll (a browser without the print's hyphenation may need a line more); never cut off."""
    paths = sorted([*shipped_site.glob("*/*/units/*.html"), *shipped_site.glob("*/*/cards/*.html")])
    assert len(paths) > 150
    hidden = []
    for path in paths:
        page.goto(path.as_uri())
        found = page.evaluate("""[...document.querySelectorAll('.card-figure .card-body')].map(e => {
            const s = getComputedStyle(e), reach = v => v === 'auto' || v === 'scroll';
            return (e.scrollHeight > e.clientHeight + 1 && !reach(s.overflowY))
                || (e.scrollWidth > e.clientWidth + 1 && !reach(s.overflowX)); })""")
        if any(found):
            hidden.append(path.relative_to(shipped_site).as_posix())
    assert hidden == []
