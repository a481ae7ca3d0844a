"""The counters page of a hex-and-counter game (tests/fixtures/river-line) in both its languages:
every counter's front and back from the printed sheet's faces, grouped under each side's
translated name and colour, linked from the game's navigation; whole at desktop and 375 px."""

from __future__ import annotations

import re
from pathlib import Path

import html5lib
import pytest
import yaml

from .conftest import REPO

FIXTURE = REPO / "tests/fixtures/river-line"


@pytest.fixture(scope="module")
def river_site(river_line_site) -> Path:
    return river_line_site / "river-line"


def _counters() -> list[dict]:
    return yaml.safe_load((FIXTURE / "data/counters.yaml").read_text(encoding="utf-8"))["counters"]


@pytest.mark.parametrize("lang, north, south, markers, front", [
    ("en", "Northern League", "Southern Union", "Markers", "Front"),
    ("ru", "Северная лига", "Южный союз", "Маркеры", "Лицевая сторона")])
def test_counters_page_by_side_in_each_language(river_site: Path, lang, north, south, markers, front):
    text = (river_site / lang / "counters.html").read_text(encoding="utf-8")
    html5lib.HTMLParser(strict=True).parse(text)
    main = text[text.index("<main"):]
    assert re.search(r'<h2 id="side-north"><span class="side-swatch" style="background:#a9c4e2"></span> '
                     + re.escape(north) + "</h2>", main)
    assert re.search(r'<h2 id="side-south"><span class="side-swatch" style="background:#e6b49a"></span> '
                     + re.escape(south) + "</h2>", main)
    assert f'<h2 id="markers">{markers}</h2>' in main
    counters = _counters()
    assert len(counters) == 44
    for counter in counters:  # each counter once, front and back, drawn with the printed template
        item = re.search(rf'<li class="counter-item" id="counter-{counter["id"]}">(.*?)</li>', main, re.S)
        assert item, counter["id"]
        assert item.group(1).count('<div class="counter t-') == 2
        assert item.group(1).count(f'<p class="counter-side">{front}') == 1
    north_part = main[main.index('id="side-north"'):main.index('id="side-south"')]
    assert north_part.count('class="counter-item"') == 21  # 20 units and the northern Control marker
    assert "background:#a9c4e2" in north_part and "background:#e6b49a" in north_part  # Control's back is south's
    sides = re.findall(r'<p class="counter-side">([^<]*)</p>', main[main.index('id="counter-n01"'):])
    assert sides[:2] == [f"{front}: 6-4", ("Back" if lang == "en" else "Оборотная сторона") + ": 3-4"]
    control = main[main.index('id="counter-control-north"'):]
    assert re.findall(r'<p class="counter-side">([^<]*)</p>', control)[1].endswith(south + " " + (
        "Control" if lang == "en" else re.search(r'<p class="c-text"[^>]*>([^<]*)</p>', control).group(1)))
    nav = text[text.index('<nav class="sidebar"'):text.index("</nav>", text.index('<nav class="sidebar"'))]
    assert 'href="counters.html"' in nav and 'href="map-valley.html"' in nav
    index = (river_site / lang / "index.html").read_text(encoding="utf-8")
    assert 'href="counters.html"' in index


def test_counter_faces_are_whole_on_desktop_and_phone(river_site: Path):
    """No counter is cut by the page: each drawing lies inside its box, the page does not
    scroll sideways at 375 px, and no text overflows a counter."""
    from .test_browser import ARGS, CHROMIUM, need, playwright

    need("Chromium", CHROMIUM is not None, "apt-get install chromium (.ci/run does)")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for width in (1280, 375):
            page = browser.new_page(viewport={"width": width, "height": 800})
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto((river_site / "ru" / "counters.html").as_uri())
            problems = page.evaluate("""() => Array.from(document.querySelectorAll('.counter-box')).flatMap(box => {
                const b = box.getBoundingClientRect(), c = box.querySelector('.counter').getBoundingClientRect();
                const out = [];
                if (c.width < 30 || c.left < b.left - 1 || c.right > b.right + 1 || c.bottom > b.bottom + 1) out.push('cut');
                box.querySelectorAll('.counter p').forEach(p => { if (p.scrollWidth > p.clientWidth + 1) out.push('text'); });
                return out; })""")
            assert problems == []
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            assert errors == []
            page.close()
        browser.close()


def test_counter_game_links_resolve_and_pages_parse(river_site: Path):
    from .test_site import link_problems

    problems = link_problems(river_site.parent)
    assert not problems, "\n".join(problems[:20])
    for path in river_site.rglob("*.html"):
        html5lib.HTMLParser(strict=True).parse(path.read_text(encoding="utf-8"))
