"""Numbered cases (`numbering: cases`, text/numbering.py): chapters and headings numbered from
the source's structure, the same in every edition; `{{ case:ID }}` prints the number and links
to it in the PDF and on the site; the site's anchors, contents and search index carry the
numbers; a game without the key prints as before."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.core.diagnostics import Report
from generator.print.context import BuildContext
from generator.print.rulebook import book_html
from generator.project import Project
from generator.text.chapters import load_chapter
from generator.text.numbering import number_chapters

from .conftest import REPO, run_cli, shipped_book


def numbers(*texts: str) -> list[list[str | None]]:
    chapters = [load_chapter(Path(f"/rules/{i:02}-c{i}.md"), text) for i, text in enumerate(texts, 1)]
    numbering = number_chapters(chapters, True)
    assert not numbering.problems, numbering.problems
    return [[case.number if case else None for case in numbering.headings[ch.path]] for ch in chapters]


def test_numbers_follow_the_structure():
    assert numbers("# A\n## B\n### C\n### D\n## E\n", "# F\n### G\n") == [
        ["1", "1.1", "1.1.1", "1.1.2", "1.2"], ["2", "2.1"]]  # G sits under F: nesting, not the tag, counts


def test_a_declared_number_starts_the_count_and_unnumbered_headings_take_none():
    assert numbers('{.unnumbered}\n# Opening\n## Under it\n',
                   '{number="5.3"}\n# Turn\n##\n##\n### A\n{number="5.3.2.4"}\n### B\n## C\n',
                   "# Capture\n", "{.unnumbered}\n# Notes\n") == [
        [None, None], ["5.3", "5.3.1", "5.3.2", "5.3.2.1", "5.3.2.4", "5.3.3"], ["5.4"], [None]]


def test_frames_prints_the_numbers_its_seed_prints(shipped):
    """Every section number the seed prints at the head of a section is the number the edition
    generates there; the one more, 5.3.4.1, is the section the seed cites by it (erratum
    attack-section-unnumbered). Both editions print them all, in the same places."""
    seed = (REPO / "tests/fixtures/seeds/frames.txt").read_text(encoding="utf-8")
    printed = {m.rstrip(".") for m in re.findall(r"^\s*(\d+(?:\.\d+)+)\.", seed, re.M)}
    assert printed == {"5.3", "5.3.1", "5.3.2", "5.3.3", "5.3.4", "5.3.4.2", "5.3.5", "5.4"}
    heads = {}
    for lang in ("ru", "en"):
        _ctx, html = shipped_book(shipped, "frames", lang)
        heads[lang] = re.findall(r'<h[1-6] id="case-([\d.]+)"[^>]*><span class="case-number">([\d.]+)</span>', html)
        assert all(anchor == number for anchor, number in heads[lang])
        assert '<a class="ref ref-case" href="#case-5.3.1">5.3.1</a>' in html  # «см. пункт 5.3.1»
        assert '<a class="ref ref-case" href="#case-5.3.4.1">5.3.4.1</a>' in html  # in Highlight's text: «пункте 5.3.4.1»
    assert heads["ru"] == heads["en"]
    assert {number for number, _ in heads["ru"]} == printed | {"5.3.4.1"}


def test_paragraphs_count_on_with_the_subsections():
    """`numbering: paragraphs` (SPI): a numbered section's paragraphs, list items and rule boxes'
    paragraphs take its next numbers, shared with its subsections; notes, examples and a whole
    table do not."""
    chapter = load_chapter(Path("/rules/01-a.md"), "# A\n\nOne.\n\n{#two}\nTwo.\n\n- a\n- b\n\n## B\n\n::: rule r\nRuled.\n"
                                                     ":::\n\n::: note\nAside.\n:::\n\n::: example e\nWorked.\n:::\n\n"
                                                     "{{ table:t }}\n\n{{ rule:r.text }}\n")
    numbering = number_chapters([chapter], True, paragraphs=True)
    assert [c.number for c in numbering.headings[chapter.path]] == ["1", "1.5"]
    assert [c.number for c in numbering.paragraphs[chapter.path].values()] == ["1.1", "1.2", "1.3", "1.4", "1.5.1",
                                                                              "1.5.2"]
    assert numbering.keys["two"].number == "1.2"
    assert number_chapters([chapter], True).paragraphs == {}  # `numbering: cases` numbers headings only


def test_numbered_paragraphs_print_their_numbers_in_both_editions(tmp_path):
    root = numbered_game(tmp_path, kind="paragraphs")
    for lang, words in (("en", "Each player fields"), ("ru", "Каждый игрок выставляет")):
        html = _book(root, lang)
        assert re.search(rf'<p [^>]*id="case-1\.1"><b class="case-number">1\.1</b> {words}', html)
        assert re.search(r'<h2 id="case-1\.2"[^>]*><span class="case-number">1\.2</span> ', html)  # after 1.1
        assert '<a class="ref ref-case" href="#case-1.3">1.3</a>' in html  # Shooting: 1.3 now


# A scaffolded game in two languages, numbered, one heading named and referred to.
REFERENCE = "A shot is resolved as in {{ case:shooting }}."


def numbered_game(root: Path, numbered: bool = True, reference: bool = True, kind: str = "cases") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    made = run_cli("--root", str(root), "new", "demo", "--languages", "ru")  # the catalog translated too
    assert made.returncode == 0, made.stdout + made.stderr
    game = root / "content" / "demo"
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("languages: [ru]", f"numbering: {kind}\nlanguages: [ru]") if numbered else text,
                        encoding="utf-8")
    chapter = game / "rules" / "01-basics.md"
    text = chapter.read_text(encoding="utf-8").replace("## Shooting", "{#shooting}\n## Shooting")
    chapter.write_text(text + (f"\n{REFERENCE}\n" if reference else ""), encoding="utf-8")
    if reference:
        with (game / "locale" / "ru.po").open("a", encoding="utf-8") as po:
            po.write(f'\nmsgid "{REFERENCE}"\nmsgstr "Выстрел разрешается как в {{{{ case:shooting }}}}."\n')
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = numbered_game(tmp_path_factory.mktemp("numbered"))
    result = run_cli("--root", str(root), "build", "--game", "demo", "--only", "rulebook,site")
    assert result.returncode == 0, result.stdout + result.stderr
    return root


HEADINGS = {"en": ["1 Basics", "1.1 Units", "1.2 Shooting", "1.3 Weather", "2 Glossary"],
            "ru": ["1 Основы", "1.1 Отряды", "1.2 Стрельба", "1.3 Погода", "2 Глоссарий"]}


def test_every_heading_of_the_pdf_carries_its_number_in_both_editions(built):
    for lang, expected in HEADINGS.items():
        reader = PdfReader(built / "output" / "demo" / lang / "rulebook.pdf")
        lines = [" ".join(line.split()) for page in reader.pages for line in page.extract_text().splitlines()]
        for heading in expected:
            assert heading in lines, (lang, heading)
        outline = [item.title for item in _flat(reader.outline)]
        assert [t for t in outline if re.match(r"\d", t)] == expected, outline  # the bookmarks too
        assert {d for d in reader.named_destinations if d.startswith("case-")} == {
            "case-1", "case-1.1", "case-1.2", "case-1.3", "case-2"}


def _flat(outline):
    for item in outline:
        if isinstance(item, list):
            yield from _flat(item)
        else:
            yield item


def test_a_case_reference_prints_its_number_and_links_to_it_in_the_pdf(built):
    for lang, words in (("en", "A shot is resolved as in 1.2."), ("ru", "Выстрел разрешается как в 1.2.")):
        reader = PdfReader(built / "output" / "demo" / lang / "rulebook.pdf")
        page = next(p for p in reader.pages if words in " ".join(p.extract_text().split()))
        links = [a.get_object() for a in page.get("/Annots") or []]
        dests = {str(a.get("/Dest") or (a.get("/A") or {}).get("/D")) for a in links}
        assert any("case-1.2" in d for d in dests), dests


def test_site_headings_contents_anchors_and_search_know_the_numbers(built):
    site = built / "output" / "site" / "demo"
    for lang, expected in HEADINGS.items():
        page = (site / lang / "basics.html").read_text(encoding="utf-8")
        heads = re.findall(r'<h([12]) id="(case-[\d.]+)"><span class="case-number">([\d.]+)</span> ([^<]+)</h\1>', page)
        assert [f"{n} {t}" for _, _, n, t in heads] == expected[:4]
        assert all(anchor == f"case-{n}" for _, anchor, n, _ in heads)
        assert re.search(r'<a class="ref ref-case" href="basics.html#case-1\.2">1\.2</a>', page)
        toc = page[page.index('<nav class="toc"'):]
        assert f'<a href="#case-1.2">{expected[2]}</a>' in toc
    fragments = [_fragment(path) for path in (built / "output" / "site" / "pagefind" / "fragment").iterdir()]
    for lang, expected in HEADINGS.items():
        fragment = next(f for f in fragments if f["url"].endswith(f"/demo/{lang}/basics.html"))
        assert "1.2 " in fragment["content"] and expected[2] in fragment["content"]  # searching "1.2" finds it
        assert {"id": "case-1.2", "text": expected[2]}.items() <= next(
            a for a in fragment["anchors"] if a["id"] == "case-1.2").items()


def _fragment(path: Path) -> dict:
    data = gzip.decompress(path.read_bytes())
    return json.loads(data[data.index(b"{"):])


def _book(root: Path, lang: str) -> str:
    game = Project(root).load("demo", Report())
    return book_html(BuildContext(game, lang, root))


def test_a_game_without_the_key_prints_as_before(tmp_path):
    """The same game with and without `numbering: cases`: the numbered book is the other with
    the numbers added and the headings' anchors named by them, nothing else."""
    plain = numbered_game(tmp_path / "plain", numbered=False, reference=False)
    numbered = numbered_game(tmp_path / "numbered", reference=False)
    for lang in ("en", "ru"):
        before, after = _book(plain, lang), _book(numbered, lang)
        assert "case-number" not in before and 'id="case-' not in before
        old = re.findall(r'<h[1-6] id="([^"]+)"', before)
        new = re.findall(r'<h[1-6] id="([^"]+)"', after)
        assert len(old) == len(new) and all(n.startswith("case-") for n in new[:5])
        for n, o in sorted(zip(new, old), key=lambda pair: -len(pair[0])):
            after = after.replace(f'"{n}"', f'"{o}"').replace(f'"#{n}"', f'"#{o}"')
        after = re.sub(r'<span class="case-number">[\d.]+</span> ?', "", after)
        after = re.sub(r'(<a href="#[^"]+">|<dt[^>]*>|→ )[\d.]+ ', r"\1", after)  # contents and pointers
        assert after == before
