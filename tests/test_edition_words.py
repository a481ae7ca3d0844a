"""The German edition of the `bridgehead` fixture (English source) prints no English word or
unit the catalogs could translate: its PDFs (rulebook, cards with their backs, reference sheet,
counters and markers, map sheets) and its site pages (the counters page and the map's page too)
are scanned for the source's words and the English interface's."""

from __future__ import annotations

import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests/fixtures/bridgehead"
UI = REPO / "generator/locale/ui"
# a value followed by an English unit word: "12 in", "3 paces"
ENGLISH_UNIT = re.compile(r"\d\s*(?:in|inch|inches|pace|paces)\b")


@pytest.fixture(scope="module")
def built(bridgehead_built) -> Path:
    """The German rulebook, cards, reference sheet, counters and maps, and the site."""
    return bridgehead_built


class _Visible(HTMLParser):
    """A page's words a reader sees or hears: its text and its titles, alt and aria labels."""

    def __init__(self):
        super().__init__()
        self.words: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        self._hidden += tag in ("script", "style")
        self.words += [value for name, value in attrs if name in ("title", "alt", "aria-label") and value]

    def handle_endtag(self, tag):
        self._hidden -= tag in ("script", "style")

    def handle_data(self, data):
        if not self._hidden:
            self.words.append(data)


def _page_words(page: Path) -> str:
    parser = _Visible()
    parser.feed(page.read_text(encoding="utf-8"))
    return " ".join(parser.words)


def _pdf_words(pdf: Path) -> str:
    return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def _whole(word: str) -> re.Pattern:
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")


def _english_words(game: Path) -> list[str]:
    """The words a German catalog translates (the game's source messages, the English interface
    words), less those German writes too ('in', 'Name') and messages with references."""
    catalog = polib.pofile(str(game / "locale/de.po"))
    german_ui = {e.msgid: e.msgstr for e in polib.pofile(str(UI / "de.po"))}
    english_ui = {e.msgid: e.msgstr or e.msgid for e in polib.pofile(str(UI / "en.po"))}
    german = " ".join([e.msgstr for e in catalog] + list(german_ui.values()))
    words = {e.msgid for e in catalog if e.msgstr and e.msgstr != e.msgid}
    words |= {english for key, english in english_ui.items() if german_ui.get(key) not in (None, "", english)}
    return sorted(w for w in words if "{" not in w and not _whole(w).search(german))


def _english_in(texts: dict[str, str], words: list[str]) -> list[tuple[str, str]]:
    found = [(name, word) for name, text in texts.items() for word in words if _whole(word).search(text)]
    return found + [(name, m.group(0)) for name, text in texts.items() for m in ENGLISH_UNIT.finditer(text)]


def test_the_german_pdfs_and_site_pages_print_no_english_word_the_catalogs_translate(built):
    words = _english_words(built / "content/bridgehead")
    # the scan looks for the game's words: cards, units of measure, markers, terrain, the map's
    assert {"paces", "Tired feet", "Flank march", "Control", "Blown", "Woods", "Hollin crossing",
            "Old bridge", "Rally roll"} <= set(words)
    pdfs = {pdf.name: _pdf_words(pdf) for pdf in sorted((built / "output/bridgehead/de").glob("*.pdf"))}
    assert set(pdfs) == {"rulebook.pdf", "cards.pdf", "reference.pdf", "counters.pdf", "maps.pdf", "maps-large.pdf"}
    site = built / "output/site/bridgehead/de"
    pages = {str(p.relative_to(site)): _page_words(p) for p in sorted(site.rglob("*.html"))}
    assert {"counters.html", "map-crossing.html", "campaign.html"} <= set(pages) and len(pages) > 20
    assert _english_in({**pdfs, **pages}, words) == []
    # what German prints instead: the game's own unit and the backs, in the catalog's words
    assert "3 Schritt" in pdfs["reference.pdf"].replace("\u00a0", " ") and "Müde Füße" in pdfs["cards.pdf"]
    assert "3\u00a0Schritt" in pages["units/cavalry.html"]
    # a stat referenced in the rules text prints in the catalog's word for the game's own unit
    # (rules/02-moving.md, «Moving», is at its German title's address; moving.html leads there)
    assert "url=bewegung.html" in (site / "moving.html").read_text(encoding="utf-8")
    for text in (pdfs["rulebook.pdf"], pages["bewegung.html"]):
        assert "Sturmangriff von 3 Schritt" in " ".join(text.split())  # any space, a no-break one too
    assert {"Kontrolle", "Gesprengt", "Gesammelt"} <= set(pdfs["counters.pdf"].split())
    assert "Übergang bei Hollin" in pdfs["maps.pdf"] and "Alte Brücke" in pages["map-crossing.html"]


def test_the_scan_finds_the_english_words_where_they_print(built):
    """The same scan over the English site finds the source's words and units: it can fail."""
    words = _english_words(built / "content/bridgehead")
    pages = {str(p.relative_to(built)): _page_words(p) for p in (built / "output/site/bridgehead/en").rglob("*.html")}
    found = {word for _name, word in _english_in(pages, words)}
    assert {"Flank march", "Tired feet", "Hollin crossing", "Control"} <= found
    assert any(re.match(r"3\s*paces", w) for w in found)
