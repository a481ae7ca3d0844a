"""The rulebook keeps the source: every sentence of each game's Russian rules text and every
source-language field of its records appears in the game's Russian rulebook PDF, the print
half of tests/test_faithful_site.py (whose sentence splitting and normalisation it reuses).

The PDF's text is read with pdftotext word boxes in the order the PDF draws them (the book's
reading order: its own layout analysis reads across the columns where two chapters' columns
are stacked on one page), leaving out the running header and the page number in the margins
(they would cut a sentence that runs across a page). Hyphenation,
soft hyphens, ligatures and the line breaks of justified text are normalised away.
KNOWN_MISSING lists what the rulebook does not print, each with its reason; the test fails
if anything else is lost, and also when one of those appears (so the list is kept true)."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from generator.core.diagnostics import Report
from generator.print.fonts import GLYPHS
from generator.print.jobs import Job, run_jobs
from generator.project import Project

from .conftest import REPO
from .test_faithful_site import GAMES, normal, pieces, sentences, source_fields

# Records printed by another document of the game, not by the rulebook.
ELSEWHERE = {
    "card": "cards.pdf",
    "counter": "counters.pdf",
    "countersheet": "counters.pdf",
    "map": "the map sheets",
    "roster": "army lists (rulesmith roster print) and the site's list builder, which quote each roster rule",
}

# (game, record kind, record id, field path): not in the rulebook, and why.
KNOWN_MISSING: dict[tuple[str, str, str, str], str] = {
}

MARGIN = 45.0  # points: the running header sits above, the page number below (20 / 22 mm margins)

_WORD = re.compile(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">(.*?)</word>')
_PAGE = re.compile(r'<page width="[\d.]+" height="([\d.]+)">(.*?)</page>', re.S)


def pdf_text(pdf: Path) -> str:
    """The text of the PDF's pages inside their margins, one line of text a line: once in the
    order the PDF draws it (columns in reading order; a list's numbers come after its items)
    and once in the order pdftotext's layout analysis reads it (numbers in place; it reads
    across two chapters' columns stacked on one page). A sentence is printed when either
    reading holds it whole."""
    drawn, read = (subprocess.run(["pdftotext", *mode, str(pdf), "-"], capture_output=True, text=True, check=True).stdout
                   for mode in (("-raw", "-bbox"), ("-bbox-layout",)))
    return text_inside_margins(drawn) + "\n\n" + text_inside_margins(read)


def text_inside_margins(boxes: str) -> str:
    """pdftotext's word boxes to text, leaving out the words in the top and bottom margins;
    a word on another line than the word before starts a new line."""
    lines: list[list[str]] = []
    for height, page in _PAGE.findall(boxes):
        last = None
        for top, bottom, word in _WORD.findall(page):
            if float(bottom) <= MARGIN or float(top) >= float(height) - MARGIN:
                continue
            if last is None or abs(float(top) - last) > 1:
                lines.append([])
            lines[-1].append(html.unescape(word))
            last = float(top)
    return "\n".join(" ".join(line) for line in lines)


def print_normal(text: str) -> str:
    """Like the site's normalisation, plus what print does to text: ligatures, a word
    hyphenated at a line's end, the typographer's "???" for a longer run of ? or !, and the
    characters the shipped fonts lack, drawn as pictures (→, ✓: no text in the PDF)."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(c for c in text if c not in GLYPHS)
    text = re.sub(r"([?!])\1{3,}", r"\1\1\1", text)
    return normal(text)


def _bare(text: str) -> str:
    """Without spaces and hyphens: where a line broke, a justified line spread out, or a
    word was hyphenated, the letters still follow each other."""
    return re.sub(r"[\s\-]", "", text)


class Corpus:
    def __init__(self, text: str):
        self.text = print_normal(text)
        self.bare = _bare(self.text)

    def __contains__(self, needle: str) -> bool:
        needle = print_normal(needle)
        return needle in self.text or _bare(needle) in self.bare


def lost(game_id: str, pdf: Path) -> tuple[list[tuple[str, str]], set[tuple[str, str, str, str]]]:
    corpus = Corpus(pdf_text(pdf))
    folder = REPO / "content" / game_id
    lost_sentences = [(md.name, s) for md in sorted((folder / "rules").glob("*.md"))
                      for s in sentences(md.read_text(encoding="utf-8")) if s not in corpus]
    game = Project(REPO).load(game_id, Report(), catalogs=False)
    lost_fields = {(game_id, record.kind, record.id, path)
                   for record in game.all_records() if record.kind not in ELSEWHERE
                   for path, text in source_fields(record.model_dump(mode="json"))
                   if not all(piece in corpus for piece in pieces(text))}
    return lost_sentences, lost_fields


@pytest.fixture(scope="module")
def russian_rulebooks(tmp_path_factory) -> dict[str, Path]:
    """The Russian rulebook of each shipped game, built once into a temporary project."""
    from generator import outputs

    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext (poppler-utils) is needed: .ci/run installs it")
    root = tmp_path_factory.mktemp("rulebooks")
    (root / "content").symlink_to(REPO / "content")
    outputs.confine_to(Project(root).output)
    try:  # two at a time: each job confines its writes to the project's output/
        results = run_jobs([Job(root, game_id, "ru", "rulebook", examples=()) for game_id in GAMES], workers=2)
    finally:
        outputs.confine_to(None)
    assert [r.error for r in results if r.error] == []
    return {r.job.game: r.files[0] for r in results}


@pytest.mark.slow  # prints the five shipped Russian rulebooks, each in full
@pytest.mark.parametrize("game_id", GAMES)
def test_rulebook_prints_every_sentence_and_record_field(game_id, russian_rulebooks):
    lost_sentences, lost_fields = lost(game_id, russian_rulebooks[game_id])
    assert lost_sentences == [], "sentences of the rules lost from the rulebook"
    known = {k for k in KNOWN_MISSING if k[0] == game_id}
    assert lost_fields - known == set(), "record fields lost from the rulebook"
    assert known - lost_fields == set(), "now printed: remove from KNOWN_MISSING"


def test_the_margins_and_line_breaks_do_not_hide_a_sentence():
    page = ('<page width="595" height="842"><flow><block>'
            '<line><word xMin="1" yMin="23" xMax="2" yMax="33">Фреймы</word></line>'
            '<line><word xMin="1" yMin="700" xMax="2" yMax="712">Первое</word>'
            '<word xMin="1" yMin="700" xMax="2" yMax="712">предло-</word></line>'
            '<line><word xMin="1" yMin="810" xMax="2" yMax="820">7</word>'
            '<word xMin="1" yMin="810" xMax="2" yMax="820">/</word>'
            '<word xMin="1" yMin="810" xMax="2" yMax="820">10</word></line>'
            '</block></flow></page><page width="595" height="842"><flow><block>'
            '<line><word xMin="1" yMin="60" xMax="2" yMax="72">жение</word>'
            '<word xMin="1" yMin="60" xMax="2" yMax="72">тут</word>'
            '<word xMin="1" yMin="60" xMax="2" yMax="72">стоит.</word></line></block></flow></page>')
    corpus = Corpus(text_inside_margins(page))
    assert "Первое предложение тут стоит." in corpus
    assert "Фреймы" not in corpus and "Второе предложение тут стоит." not in corpus
