"""The site without a browser: every internal link resolves, HTML parses cleanly, content is
escaped, pages carry lang, landmarks and unique ids, and nothing points off-site."""

from __future__ import annotations

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

import html5lib
import pytest

from generator.core.diagnostics import Report
from generator.project import Project
from generator.site.build import build_site

from .conftest import Workspace

EVIL = "<script>alert('x')</script>"


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self.ids: list[str] = []
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if "id" in attrs:
            self.ids.append(attrs["id"])
        for key in ("href", "src"):
            if attrs.get(key):
                self.links.append((tag, attrs[key]))


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The scaffold game in two languages with hostile names and raw HTML, its site built once
    for the module's tests, which only read it."""
    ws = Workspace(tmp_path_factory.mktemp("site"))
    ws.edit("game.yaml", "languages: []", "languages: [ru]")
    ws.edit("data/units.yaml", "    name: Scouts", f"    name: Scouts {EVIL}")
    ws.write("rules/01-intro.md", f"# Introduction\n\nThe {{{{ unit:scouts }}}} are {{{{ keyword:fast }}}}.\n"
             f"Raw {EVIL} and [bad](javascript:alert(1)).\n\n## Moving\n\n{{{{ table:weather }}}}\n\n"
             "::: note\nA designer question.\n:::\n\n::: example fast-move\nThey move.\n:::\n")
    ws.write("rules/02-glossary.md", "# Glossary\n\nSee the glossary.\n")
    result = build_site(Project(ws.root), ["demo"], Report(), search=False)
    return result.root


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_every_game_language_has_pages(site: Path):
    for lang in ("en", "ru"):
        folder = site / "demo" / lang
        for name in ("index.html", "intro.html", "rules-glossary.html", "glossary.html", "units.html",
                     "units/scouts.html", "cards.html", "cards/advance.html", "tables.html", "reference.html",
                     "errata.html"):
            assert (folder / name).is_file(), f"{lang}/{name}"
    assert (site / "index.html").is_file()


def link_problems(site: Path) -> list[str]:
    problems = []
    anchors: dict[Path, set[str]] = {}
    for path in pages(site):
        for tag, url in parse(path).links:
            parsed = urlparse(url)
            assert parsed.scheme in ("", "data"), f"{path}: off-site {url}"
            if parsed.scheme == "data" or url.startswith("#") and not parsed.path:
                target = path
            else:
                assert not url.startswith("/"), f"{path}: absolute path {url} breaks sub-path hosting"
                target = (path.parent / unquote(parsed.path)).resolve()
            if "pagefind" in str(target):
                continue  # the search bundle is added by the indexer
            if not target.exists():
                problems.append(f"{path.relative_to(site)}: {url}")
            elif parsed.fragment and target.suffix == ".html":
                if target not in anchors:
                    anchors[target] = set(parse(target).ids)
                if parsed.fragment not in anchors[target]:
                    problems.append(f"{path.relative_to(site)}: {url} (no such anchor)")
    return problems


def test_internal_links_resolve(site: Path):
    problems = link_problems(site)
    assert not problems, "\n".join(problems[:20])


def test_shipped_site_links_and_html(shipped_site: Path):
    problems = link_problems(shipped_site)
    assert not problems, "\n".join(problems[:20])
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    count = 0
    for path in pages(shipped_site):
        if "pagefind" in path.parts:
            continue
        parser.parse(path.read_text(encoding="utf-8"))
        count += 1
    games = {p.name for p in shipped_site.iterdir() if (p / "en/index.html").exists() and (p / "ru/index.html").exists()}
    assert games == {"rock-n-roll", "battle-rules", "nuclear", "frames", "deadzone"} and count > 300


def test_html_parses_without_errors(site: Path):
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    for path in pages(site):
        parser.parse(path.read_text(encoding="utf-8"))  # raises on any parse error


def test_ids_unique_lang_landmarks(site: Path):
    for path in pages(site):
        page = parse(path)
        duplicates = {i for i in page.ids if page.ids.count(i) > 1}
        assert not duplicates, f"{path}: {duplicates}"
        html = dict(page.tags)["html"]
        assert html.get("lang") in ("en", "ru"), path
        tags = {t for t, _ in page.tags}
        assert {"main", "header", "footer"} <= tags, path
        for tag, attrs in page.tags:
            if tag == "img":
                assert "alt" in attrs, path


def test_content_is_escaped(site: Path):
    for path in pages(site):
        text = path.read_text(encoding="utf-8")
        assert "<script>alert" not in text, path
        assert "href=\"javascript:" not in text, path
    unit = (site / "demo/en/units/scouts.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;" in unit


def test_designer_notes_behind_toggle_and_examples_boxed(site: Path):
    text = (site / "demo/en/intro.html").read_text(encoding="utf-8")
    assert re.search(r'<details class="designer-note">\s*<summary>Designer note</summary>', text)
    assert '<aside class="example" id="example-fast-move"' in text


def test_keyword_links_carry_definition(site: Path):
    text = (site / "demo/en/intro.html").read_text(encoding="utf-8")
    match = re.search(r'<a class="kw" href="([^"]+)">Fast<span class="kw-tip" role="tooltip"(?: data-pagefind-ignore)?>([^<]+)</span>', text)
    assert match and match.group(1) == "glossary.html#keyword-fast"
    assert match.group(2) == "The unit moves 5 cm further."


def test_language_switcher_points_to_same_page(site: Path):
    text = (site / "demo/en/units/scouts.html").read_text(encoding="utf-8")
    assert 'href="../../ru/units/scouts.html"' in text
    ru = (site / "demo/ru/intro.html").read_text(encoding="utf-8")
    en = (site / "demo/en/intro.html").read_text(encoding="utf-8")
    ids = lambda t: re.findall(r'<h2 id="([^"]+)"', t)  # noqa: E731
    assert ids(ru) == ids(en) and ids(en)


def test_untranslated_text_is_marked_in_html(site: Path):
    text = (site / "demo/ru/intro.html").read_text(encoding="utf-8")
    assert '<span class="untranslated" lang="en" title="Ещё не переведено">' in text


def test_card_page_uses_card_template(site: Path):
    text = (site / "demo/en/cards/ambush.html").read_text(encoding="utf-8")
    assert 'class="card card-poker deck-orders is-draft"' in text and "DRAFT" in text


def test_plain_keyword_mentions_link_to_definition(ws: Workspace):
    ws.write("rules/01-intro.md", "# Intro\n\nA unit that is Fast moves further. Fast again; AP hurts.\n\n## Fast units\n")
    site = build_site(Project(ws.root), ["demo"], Report(), search=False).root
    text = (site / "demo/en/intro.html").read_text(encoding="utf-8")
    assert text.count('<a class="kw" href="glossary.html#keyword-fast">Fast<span class="kw-tip"') == 1  # first use only
    assert '<a class="kw" href="glossary.html#keyword-ap">AP<span' in text
    assert '<h2 id="fast-units">Fast units</h2>' in text  # headings stay plain
    assert 'href="glossary.html#keyword-fast">A' not in text


def test_unit_and_card_pages_one_datasheet_and_a_hidden_preview(site: Path):
    unit = (site / "demo/en/units/scouts.html").read_text(encoding="utf-8")
    assert unit.count('<section class="datasheet">') == 1
    assert '<caption>Profile</caption>' in unit and 'class="unit-keywords"' in unit
    card = (site / "demo/en/cards/ambush.html").read_text(encoding="utf-8")
    assert card.count('<section class="datasheet">') == 1 and card.count('class="card-figure"') == 1
    preview = card[card.index('<div class="card-preview"'):]
    assert 'data-pagefind-ignore="all"' in preview[:80] and '<figure class="card-figure" aria-hidden="true"' in preview
    assert card.index('<section class="datasheet">') < card.index('<div class="card-preview"')


def test_tables_scroll_in_named_keyboard_regions(site: Path):
    text = (site / "demo/en/units.html").read_text(encoding="utf-8")
    regions = re.findall(r'<div class="table-scroll" role="region" tabindex="0" aria-label="([^"]+)"><table', text)
    assert regions and len(set(regions)) == len(regions)
    assert text.count("<table") > len(regions)  # nested tables stay inside their region
    assert "<th scope=\"col\"></th>" not in text


def test_no_words_glued_for_search(site: Path):
    for name in ("units.html", "tables.html", "glossary.html", "units/scouts.html"):
        text = (site / "demo/en" / name).read_text(encoding="utf-8")
        assert not re.search(r"</(td|th|dt|dd|li)><", text), name


def test_search_scoped_by_game_and_labelled(site: Path):
    unit = (site / "demo/en/units/scouts.html").read_text(encoding="utf-8")
    assert '<span hidden data-pagefind-filter="game:demo"></span>' in unit
    assert '<span hidden data-pagefind-meta="kind:Unit"></span>' in unit
    assert re.search(r'<h1 class="page-title" data-pagefind-meta="title" data-pagefind-weight="10">', unit)
    glossary = (site / "demo/ru/glossary.html").read_text(encoding="utf-8")
    assert 'data-pagefind-meta="kind:Термин"' in glossary and '<dt data-pagefind-weight="7"' in glossary
    cards = (site / "demo/en/cards.html").read_text(encoding="utf-8")
    assert '<span class="draft" data-pagefind-ignore>' in cards
    for path in pages(site):
        text = path.read_text(encoding="utf-8").split('<div class="card-preview" data-pagefind-ignore="all">')[0]
        assert not re.search(r'<span class="draft"(?! data-pagefind-ignore)', text), path
    index = (site / "demo/en/index.html").read_text(encoding="utf-8")
    header = index[index.index("<header"):index.index("</header>")]  # on every screen, not in the menu
    assert '<label class="search-label" for="search-input">' in header


def test_navigation_landmarks_have_distinct_names(site: Path):
    for path in pages(site):
        names = re.findall(r'<nav [^>]*aria-label="([^"]+)"', path.read_text(encoding="utf-8"))
        assert len(names) == len(set(names)), (path, names)


def test_contents_list_under_the_title(site: Path):
    text = (site / "demo/en/intro.html").read_text(encoding="utf-8")
    assert text.index('<nav class="toc"') > text.index("Introduction</h1>")


def test_sidebar_lists_each_page_once(shipped_site: Path):
    for path in shipped_site.glob("*/*/index.html"):
        text = path.read_text(encoding="utf-8")
        sidebar = text[text.index('<nav class="sidebar"'):text.index("</nav>", text.index('<nav class="sidebar"'))]
        hrefs = re.findall(r'href="([^"]+)"', sidebar)
        assert len(hrefs) == len(set(hrefs)), (path, hrefs)
        labels = re.findall(r'<a [^>]*>([^<]+)</a>', sidebar)  # and no two entries read the same
        assert len(labels) == len(set(labels)), (path, labels)


def test_bare_section_numbers_get_their_words_in_contents(shipped_site: Path):
    text = (shipped_site / "frames/en/frame-turn.html").read_text(encoding="utf-8")
    toc = text[text.index('<nav class="toc"'):text.index("</nav>", text.index('<nav class="toc"'))]
    assert re.search(r'href="#case-5\.3\.1">5\.3\.1 — The player', toc), toc[:300]  # not the checker's tick


def test_russian_quotations_in_english_pages_carry_lang(shipped_site: Path):
    text = (shipped_site / "rock-n-roll/en/units/johny.html").read_text(encoding="utf-8")
    assert '“<span lang="ru">Джонни</span>”' in text
    ru = (shipped_site / "rock-n-roll/ru/units/johny.html").read_text(encoding="utf-8")
    assert '<span lang="ru">' not in ru[ru.index("<main"):]  # a Russian page needs no marks


def test_probability_tables_are_grids_with_a_calculator(shipped_site: Path):
    text = (shipped_site / "nuclear/en/tables.html").read_text(encoding="utf-8")
    grid = text[text.index('<table class="data-table grid"'):]
    assert '<tr class="group-start"><th scope="row">3+</th>\n<th scope="row">2+</th>' in grid
    assert '<th scope="col">AP 1</th>' in grid
    assert re.search(r'<td style="--p:0\.444" title="4/9">44\.4%</td>', grid)
    calc = text[text.index('<form class="calculator"'):text.index("</form>", text.index('<form class="calculator"'))]
    assert 'aria-labelledby="calc-wounds-per-attack-title prob-wounds-per-attack"' in calc  # one name per calculator
    data = json.loads(re.search(r'<script type="application/json">(.*?)</script>', calc).group(1))
    assert data["cells"]["3+|4+"][1] == ["44.4%", "4/9"]
    unit = (shipped_site / "nuclear/en/units/leman-russ.html").read_text(encoding="utf-8")
    assert 'href="../tables.html?attacker=leman-russ#prob-wounds-per-attack"' in unit
    assert 'href="../tables.html?target=leman-russ#prob-wounds-per-attack"' in unit


def _calculator(path: Path, table: str) -> tuple[str, dict]:
    text = path.read_text(encoding="utf-8")
    start = text.index(f'aria-labelledby="calc-{table}-title')
    calc = text[start:text.index("</form>", start)]
    return calc, json.loads(re.search(r'<script type="application/json">(.*?)</script>', calc).group(1))


@pytest.mark.parametrize("lang, attacker, target", [
    ("ru", "Рота ветеранов — Лазвинтовка", "Батальон солдат"),
    ("en", "Veteran Company — Lasgun", "Line Battalion")])
def test_calculator_offers_units_by_name_in_the_page_language(shipped_site: Path, lang, attacker, target):
    """Nuclear: the attacker (unit and weapon) sets Quality and the AP column, the target its
    Defence; the cell those pick is the one the procedure computed."""
    calc, data = _calculator(shipped_site / f"nuclear/{lang}/tables.html", "wounds-per-attack")
    options = re.findall(r'<option value="(\d+)" data-unit="([\w-]+)">([^<]+)</option>', calc)
    chosen = next(int(i) for i, unit, label in options if label == attacker and unit == "veterans")
    aimed = next(int(i) for i, unit, label in options if label == target and unit == "soldiers")
    assert '<label>' in calc and ('Атакующий' if lang == "ru" else 'Attacker') in calc
    reading, target_reading = data["attacker"][chosen], data["target"][aimed]
    assert reading["inputs"] == {"quality": "4+"} and reading["outcome"] == 0  # lasgun: no AP
    assert reading["times"] == 5  # five veterans, one attack each: the weapon's expected wounds add up
    assert reading["totals"]["4+|4+"] == ["1,25" if lang == "ru" else "1.25", "5/4"]
    assert target_reading == {"inputs": {"defense": "4+"}, "outcome": -1}
    exact = json.loads((shipped_site.parent / "nuclear/tables/wounds-per-attack.json").read_text(encoding="utf-8"))
    row = next(r for r in exact["exact"] if r["quality"] == "4+" and r["defense"] == "4+")
    assert data["cells"]["4+|4+"][0][1] == row["ap0"] == "1/4"


def test_calculator_reads_battle_rules_units(shipped_site: Path):
    """Battle rules: Accuracy and Damage from the attacker, the Save column from the target;
    snipers' «1+ / 0» gives one reading (erratum snipers-damage-zero), a unit without Accuracy none."""
    calc, data = _calculator(shipped_site / "battle-rules/en/tables.html", "kill-chance")
    options = re.findall(r'<option value="(\d+)" data-unit="([\w-]+)">([^<]+)</option>', calc)
    attackers = [(int(i), unit) for i, unit, _label in options[:len(data["attacker"])]]
    snipers = [i for i, unit in attackers if unit == "snipers"]
    assert len(snipers) == 1 and data["attacker"][snipers[0]]["inputs"] == {"accuracy": "1+", "damage": "1+"}
    targets = options[len(data["attacker"]):]
    scouts = next(int(i) for i, unit, _label in targets if unit == "scouts")
    assert data["target"][scouts] == {"inputs": {}, "outcome": 3}  # Save 4+


def test_assumptions_are_in_the_page_language(shipped_site: Path):
    """Each probability table states its assumptions in the page's language: never the
    procedure's English docstring or English text on a Russian page."""
    from generator.checker.procedures import load_procedures

    for game in ("nuclear", "battle-rules", "deadzone", "frames", "rock-n-roll"):
        ru = (shipped_site / f"{game}/ru/tables.html").read_text(encoding="utf-8")
        en = (shipped_site / f"{game}/en/tables.html").read_text(encoding="utf-8")
        tables = load_procedures(Path(__file__).parents[1] / "content" / game).tables
        assert tables
        for declared in tables.values():
            doc = " ".join((declared.fn.__doc__ or "").split())
            assumes = declared.extra["assumes"]
            assert doc[:40] not in ru and doc[:40] not in en
            assert assumes["en"][:40] not in ru, (game, declared.id)
            assert assumes["ru"][:40] in ru and assumes["en"][:40] in en
            assert re.search(r"[а-яё]", assumes["ru"]) and not re.search(r"[а-яё]", assumes["en"][:40])


def test_offline_files_and_install_manifest(shipped_site: Path):
    folder = shipped_site / "nuclear/en"
    manifest = json.loads((folder / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["start_url"] == "index.html" and {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}
    # "any" and "maskable" apart (not "any maskable"); one app per game, both languages in its scope
    assert sorted(i["purpose"] for i in manifest["icons"]) == ["any", "any", "maskable", "maskable"]
    assert (manifest["scope"], manifest["id"]) == ("../", "nuclear/")
    for icon in manifest["icons"]:
        assert (folder / icon["src"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (folder / "sw.js").exists()  # one worker, at the site's root, for every game
    assert "caches.open(name)" in (shipped_site / "sw.js").read_text(encoding="utf-8")
    # the game's list: every page and picture in both languages, the site's home, every asset
    listed = json.loads((shipped_site / "nuclear/offline.json").read_text(encoding="utf-8"))
    game = shipped_site / "nuclear"
    for name in listed["files"]:
        assert (game / name).resolve().is_file(), name
    pages = {p.relative_to(game).as_posix() for p in game.rglob("*.html")}
    assert pages <= set(listed["files"]) and {"en/units/leman-russ.html", "ru/units/leman-russ.html"} <= pages
    fonts = {p.name for p in (shipped_site / "assets/fonts").iterdir()}
    assert {"../index.html", "../assets/site.css", "../assets/site.js"} | {f"../assets/fonts/{f}" for f in fonts} \
        <= set(listed["files"])
    assert listed["game"] == "nuclear" and re.fullmatch(r"[0-9a-f]{12}", listed["version"])
    script = (shipped_site / "assets/site.js").read_text(encoding="utf-8")
    assert 'window.location.protocol === "http:"' in script  # never registered from file://


def test_web_app_names_are_short_titles(shipped_site: Path):
    names = {lang: json.loads((shipped_site / f"battle-rules/{lang}/manifest.webmanifest").read_text(encoding="utf-8"))
             for lang in ("ru", "en")}
    assert names["ru"]["short_name"] == "Сражения" and names["en"]["short_name"] == "Battle Rules"
    assert names["en"]["name"] == "Additional Battle Rules"
    nuclear = json.loads((shipped_site / "nuclear/en/manifest.webmanifest").read_text(encoding="utf-8"))
    assert nuclear["short_name"] == "Nuclear"  # no short title: the title, never a word cut short


def test_fonts_ship_as_woff2_pieces_by_script(shipped_site: Path):
    fonts = sorted((shipped_site / "assets/fonts").iterdir())
    assert fonts and all(f.name.endswith(".woff2") and f.read_bytes()[:4] == b"wOF2" for f in fonts)
    assert max(f.stat().st_size for f in fonts) < 25_000
    assert {f.name.split(".")[1] for f in fonts} == {"latin", "cyrillic", "other"}
    css = (shipped_site / "assets/site.css").read_text(encoding="utf-8")
    assert ".ttf" not in css and css.count("unicode-range: U+") == len(fonts)
    latin = re.search(r'PT_Serif-Web-Regular\.latin\.woff2"\) format\("woff2"\); unicode-range: ([^;]+);', css).group(1)
    spans = [[int(n, 16) for n in part.removeprefix("U+").split("-")] for part in latin.split(",")]
    assert spans[0][0] <= ord("A") <= spans[0][-1]
    assert not [s for s in spans if 0x400 <= s[0] <= 0x4FF]  # Cyrillic is a piece of its own
    ru = (shipped_site / "nuclear/ru/combat.html").read_text(encoding="utf-8")
    en = (shipped_site / "nuclear/en/combat.html").read_text(encoding="utf-8")
    preload = re.compile(r'<link rel="preload" href="[./]*assets/fonts/([^"]+)" as="font" type="font/woff2" '
                         r'crossorigin>')
    assert set(preload.findall(ru)) == {"PT_Serif-Web-Regular.latin.woff2", "PT_Serif-Web-Regular.cyrillic.woff2",
                                        "PT_Sans-Web-Regular.latin.woff2", "PT_Sans-Web-Regular.cyrillic.woff2",
                                        "PT_Sans-Web-Bold.latin.woff2", "PT_Sans-Web-Bold.cyrillic.woff2"}
    assert {f for f in preload.findall(en)} == {f for f in preload.findall(ru) if ".latin." in f}
    for font in preload.findall(ru):
        assert (shipped_site / "assets/fonts" / font).is_file()


def test_search_ships_no_unused_bundles(shipped_site: Path):
    search = shipped_site / "pagefind"
    assert (search / "pagefind.js").is_file() and (search / "pagefind-worker.js").is_file()
    assert not [p.name for p in search.iterdir() if "-ui." in p.name or "highlight" in p.name]


def test_the_search_index_runs_pagefinds_binary_not_an_interpreter_for_it(tmp_path: Path, monkeypatch):
    """Pagefind is run as its own binary: `python -m pagefind` started an interpreter only to
    find it (0.1 s of CPU a build). The index it makes is whole."""
    import subprocess

    from generator.site import search

    ran = []
    real = subprocess.Popen
    monkeypatch.setattr(search.subprocess, "Popen", lambda command, **kw: ran.append(command) or real(command, **kw))
    site = tmp_path / "site"
    (site / "demo").mkdir(parents=True)
    (site / "demo" / "index.html").write_text('<!DOCTYPE html><html lang="en"><head><title>Demo</title></head>'
                                               "<body><main data-pagefind-body><p>Scouts move first.</p></main>"
                                               "</body></html>", encoding="utf-8")
    assert search.index_site(site)
    assert len(ran) == 1 and Path(ran[0][0]).name.startswith("pagefind") and "-m" not in ran[0][:3]
    assert (site / "pagefind" / "pagefind.js").is_file() and list((site / "pagefind").glob("pagefind-entry.json"))


def test_pages_have_descriptions_and_no_relative_language_links(shipped_site: Path):
    page = (shipped_site / "nuclear/en/combat.html").read_text(encoding="utf-8")
    description = re.search(r'<meta name="description" content="([^"]*)">', page).group(1)
    assert 40 <= len(description) <= 160 and "<" not in description
    assert '<link rel="alternate"' not in page  # no site_url: no relative hreflang for the audit to refuse
    home = (shipped_site / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<meta name="description" content="[^"]*Nuclear[^"]*">', home)


def test_search_labels_only_glossaries_as_keywords(shipped_site: Path):
    def kind(path: str) -> str:
        text = (shipped_site / path).read_text(encoding="utf-8")
        return re.search(r'data-pagefind-meta="kind:([^"]*)"', text).group(1)

    assert kind("nuclear/en/rules-glossary.html") == "Keyword" and kind("deadzone/ru/glossary.html") == "Термин"
    for chapter in ("deadzone/en/actions.html", "deadzone/en/turn.html", "deadzone/en/damage.html",
                    "nuclear/en/terrain.html"):  # they define a few keywords on the way
        assert kind(chapter) == "Rule", chapter


def test_site_url_makes_language_links_absolute(ws: Workspace):
    result = ws.run("build", "--only", "site", "--site-url", "https://rules.example.org/games")
    assert result.returncode == 0, result.stderr
    page = (ws.root / "output/site/demo/en/index.html").read_text(encoding="utf-8")
    assert '<link rel="canonical" href="https://rules.example.org/games/demo/en/index.html">' in page
    assert '<link rel="alternate" hreflang="en" href="https://rules.example.org/games/demo/en/index.html">' in page


def test_a_card_the_sheets_continue_shows_both_printed_cards(tmp_path: Path):
    # the Command die's six faces are too long for one card even at the smallest text (its text
    # runs far past the card: the fitting measures all of it, not what one card's page holds):
    # the sheets print it on two cards, and the site's preview shows those two, every face on one
    import shutil

    from generator.print.context import BuildContext
    from generator.site.pages import game_pages

    from .conftest import REPO

    def preview(root: Path) -> str:
        ctx = BuildContext(Project(root).load("deadzone", Report()), "ru", root)
        page = next(p for p in game_pages(ctx, Report()) if p.path == "cards/die-command.html")
        return page.body[page.body.index('<div class="card-preview"'):]

    shutil.copytree(REPO / "content" / "deadzone", tmp_path / "content" / "deadzone",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shipped = preview(tmp_path)
    assert shipped.count('<figure class="card-figure"') == 2
    for face in ("+1 Модель", "Стрельба", "Рукопашная", "Спец.свойство армии"):
        assert f"<strong>{face}</strong>" in shipped, face
    # three faces fit on one card
    dice = tmp_path / "content" / "deadzone" / "data" / "dice.yaml"
    text = dice.read_text(encoding="utf-8")
    start = text.index("      - name: Стрельба")
    end = text.index("  - id:", start) if "  - id:" in text[start:] else len(text)
    dice.write_text(text[:start] + text[end:], encoding="utf-8")
    assert preview(tmp_path).count('<figure class="card-figure"') == 1


def test_font_pieces_are_cut_once_and_kept(ws: Workspace, tmp_path: Path, monkeypatch):
    from fontTools.subset import Subsetter

    from generator.site import webfonts

    project = Project(ws.root)
    site = build_site(project, ["demo"], Report(), search=False).root
    first = {p.name: p.read_bytes() for p in (site / "assets/fonts").iterdir()}
    kept = sorted((project.output / ".rulesmith/webfonts").iterdir())
    assert len(kept) == len(first) and all(p.suffix == ".woff2" for p in kept)

    # a second project built by the same process (`serve`, a test run) gets the same pieces uncut
    subset, cuts = Subsetter.subset, []
    monkeypatch.setattr(Subsetter, "subset", lambda self, font: (cuts.append(font), subset(self, font))[1])
    other = build_site(Project(Workspace(tmp_path / "other").root), ["demo"], Report(), search=False).root
    assert {p.name: p.read_bytes() for p in (other / "assets/fonts").iterdir()} == first
    assert cuts == []

    def cut_again(*_args):
        raise AssertionError("a kept piece was cut again")

    monkeypatch.setattr(webfonts, "_cut", cut_again)
    (site / "assets/fonts" / next(iter(first))).unlink()  # a piece lost from the site comes back from the kept one
    build_site(project, ["demo"], Report(), search=False)
    assert {p.name: p.read_bytes() for p in (site / "assets/fonts").iterdir()} == first



def test_a_build_cuts_the_font_pieces_in_a_child_and_holds_what_it_cut(tmp_path: Path, monkeypatch):
    """FontsAhead cuts the pieces beside the build's validation, in a child: this process
    does not cut them, keeps them all once it has waited, and holds their bytes so that the
    next site it builds (`serve`, a test run) starts no child."""
    from fontTools.misc.timeTools import epoch_diff
    from fontTools.ttLib import TTFont

    from generator.site import webfonts
    from generator.system import stamps

    monkeypatch.setattr(webfonts, "_CUT", {})
    monkeypatch.setattr(webfonts, "SHIPPED", tmp_path / "none shipped")  # faces other than those shipped cut
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)  # a build that has not laid a PDF out yet
    first = webfonts.FontsAhead(tmp_path / "one")
    assert first.child is not None

    def cut_here(*_args):
        raise AssertionError("the build's own process cut a piece")

    monkeypatch.setattr(webfonts, "_cut", cut_here)  # the child, forked already, cuts as before
    first.wait()
    kept = sorted((tmp_path / "one/.rulesmith/webfonts").iterdir())
    assert len(kept) == len(webfonts.pieces()) and all(path.stat().st_size > 1000 for path in kept)
    assert {webfonts._key(piece) for piece in webfonts.pieces()} <= set(webfonts._CUT)
    # stamped with the fixed time, not the time it was cut: the same bytes build after build
    assert {TTFont(path)["head"].modified for path in kept} == {stamps.EPOCH - epoch_diff}

    second = webfonts.FontsAhead(tmp_path / "two")
    assert second.child is None  # kept at once from what this process holds
    assert [path.read_bytes() for path in sorted((tmp_path / "two/.rulesmith/webfonts").iterdir())] == \
        [path.read_bytes() for path in kept]


def test_a_build_that_ends_early_stops_cutting_the_font_pieces_and_leaves_no_temporary_file(tmp_path: Path,
                                                                                            monkeypatch):
    """Stopped halfway (the content had errors, the user pressed Ctrl+C), the child ends at
    once and leaves whole pieces only: the one it was writing goes with its temporary file."""
    import time

    from fontTools.ttLib import TTFont

    from generator.outputs import TEMP
    from generator.site import webfonts

    monkeypatch.setattr(webfonts, "_CUT", {})
    monkeypatch.setattr(webfonts, "SHIPPED", tmp_path / "none shipped")  # faces other than those shipped cut
    ahead = webfonts.FontsAhead(tmp_path)
    child, folder = ahead.child, tmp_path / ".rulesmith/webfonts"
    deadline = time.monotonic() + 60
    while not (folder.is_dir() and any(folder.glob("*.woff2"))) and time.monotonic() < deadline:
        time.sleep(0.02)
    ahead.stop()
    assert ahead.child is None
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)  # ended and reaped: nothing writes on after the build
    kept = list(folder.iterdir())
    assert 1 <= len(kept) < len(webfonts.pieces())  # stopped halfway
    assert not [path for path in kept if TEMP.fullmatch(path.name)]
    for path in kept:
        assert TTFont(path).flavor == "woff2"  # whole


def test_the_font_pieces_are_worked_out_once_and_handed_out_as_copies():
    """Every page names the pieces it preloads: they are worked out once per process, and a
    caller that changes its list changes no other caller's."""
    from generator.site import webfonts

    first = webfonts.pieces()
    first.clear()
    again = webfonts.pieces()
    assert again and again == webfonts.pieces()
    assert webfonts._pieces.cache_info().misses == 1
    assert webfonts.preloads(("latin",)) and all(p.endswith(".latin.woff2") for p in webfonts.preloads(("latin",)))
