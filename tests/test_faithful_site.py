"""The site keeps the source: every sentence of each game's Russian rules text and every
source-language field of its records appears in the game's Russian pages.

Text is compared after tags are stripped (keyword tooltips removed: they repeat definitions
inside a sentence) and quotes, dashes and whitespace are normalised. A rules sentence is
checked piece by piece between its `{{ references }}`, which render as names or numbers.
`incomplete` is not checked: it is Rulesmith's note on a record, not the source's text.
KNOWN_MISSING lists what the site does not show yet; the test fails if anything else is
lost, and also when one of those is fixed (so the list is kept true)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from generator.core.diagnostics import Report
from generator.project import Project
from generator.text.claims import plain

from .conftest import REPO

GAMES = ("battle-rules", "deadzone", "frames", "nuclear", "rock-n-roll")
NOT_SOURCE = {"incomplete"}

# (game, record kind, record id, field path): not on the site yet.
KNOWN_MISSING = {
}


def normal(text: str) -> str:
    text = html.unescape(text).replace("\u00a0", " ").replace("\u00ad", "")
    text = re.sub(r"[«»“”„\"]", '"', text)
    text = re.sub(r"[’‘']", "'", text)
    text = re.sub(r"\.{2,}", "…", re.sub(r"[—–]", "-", text))  # the site sets typographic quotes, dashes, ellipses
    return re.sub(r"\s+", " ", text).strip().casefold()


def page_text(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r'<span class="kw-tip"[^>]*>.*?</span>', "", page, flags=re.S)
    page = re.sub(r"</?(a|span|em|strong|b|i|abbr|mark|code|sup|sub)\b[^>]*>", "", page)
    return re.sub(r"<[^>]+>", " ", page)


def site_text(folder: Path) -> str:
    return normal(" ".join(page_text(p.read_text(encoding="utf-8")) for p in sorted(folder.rglob("*.html"))))


def sentences(markdown: str) -> list[str]:
    """The prose of a rules chapter: sentences (3+ words) cut at references, outside check blocks."""
    markdown = re.sub(r"```.*?```", " ", markdown, flags=re.S)
    found = []
    for line in markdown.splitlines():
        line = line.strip()
        if not line or line.startswith(":::") or re.fullmatch(r"\{[^{}]*\}", line):
            continue  # a block's attributes ({number="5.3"}, {#id}) are no prose
        line = re.sub(r"^#+\s*", "", line)
        line = re.sub(r"^([-*+]|\d+[.)])\s+", "", line)
        line = plain(line)  # a worked example's bound numbers print as their words
        line = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", line)
        line = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|])", r"\1", line)
        line = re.sub(r"[*_`]+", "", line)
        for cell in line.split("|"):
            for piece in re.split(r"\{\{.*?\}\}", cell):
                for sentence in re.split(r"(?<=[.!?…;:])\s+", piece):
                    sentence = sentence.strip(" ,;:()")
                    if len(re.findall(r"\w+", sentence)) >= 3:
                        found.append(sentence)
    return found


def found_in(text: str, corpus: str) -> bool:
    needle = normal(text)
    return needle in corpus or needle.replace(" ", "") in corpus.replace(" ", "")


def source_fields(value, path=""):
    """(path, text) of every string with Cyrillic letters in a record's fields."""
    if isinstance(value, str):
        if re.search("[а-яё]", value, re.I):
            yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in NOT_SOURCE:
                yield from source_fields(item, f"{path}.{key}")
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from source_fields(item, f"{path}.{i}")


def lost(game_id: str, site: Path) -> tuple[list[tuple[str, str]], set[tuple[str, str, str, str]]]:
    corpus = site_text(site / game_id / "ru")
    folder = REPO / "content" / game_id
    lost_sentences = [(md.name, s) for md in sorted((folder / "rules").glob("*.md"))
                      for s in sentences(md.read_text(encoding="utf-8")) if not found_in(s, corpus)]
    report = Report()
    game = Project(REPO).load(game_id, report, catalogs=False)
    lost_fields = {(game_id, record.kind, record.id, path)
                   for record in game.all_records()
                   for path, text in source_fields(record.model_dump(mode="json"))
                   if not all(found_in(piece, corpus) for piece in pieces(text))}
    return lost_sentences, lost_fields


def pieces(text: str) -> list[str]:
    """A field's text between its `{{ references }}` (which print as names or numbers: a
    `{{ case:attack }}` as 5.3.4.1), each with words in it."""
    return [piece.strip(" ,;:()") for piece in re.split(r"\{\{.*?\}\}", text) if re.search(r"\w", piece)]


@pytest.mark.parametrize("game_id", GAMES)
def test_site_shows_every_sentence_and_record_field(game_id, shipped_site: Path):
    lost_sentences, lost_fields = lost(game_id, shipped_site)
    assert lost_sentences == []
    known = {k for k in KNOWN_MISSING if k[0] == game_id}
    assert lost_fields - known == set(), "lost from the site"
    assert known - lost_fields == set(), "now shown: remove from KNOWN_MISSING"


def test_a_sentence_left_out_is_caught():
    chapter = "# Бой\n\nПервое предложение тут. Второе {{ param:x }} предложение здесь стоит!\n"
    shown = normal("Бой Первое предложение тут. Второе 3 предложение здесь стоит!")
    assert all(found_in(s, shown) for s in sentences(chapter))
    shown_without = normal("Бой Второе 3 предложение здесь стоит!")
    assert [s for s in sentences(chapter) if not found_in(s, shown_without)] == ["Первое предложение тут."]


def test_tooltips_do_not_hide_a_sentence():
    page = ('<p>Модель в состоянии <a class="kw" href="g.html">Лежит<span class="kw-tip" role="tooltip">'
            "Определение.</span></a>, и встаёт.</p>")
    assert found_in("Модель в состоянии Лежит, и встаёт.", normal(page_text(page)))
