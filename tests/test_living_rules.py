"""Living rules, `rulesmith build --changes-since REF`: change bars in the rulebook's outer
margin, the errata sheet's page numbers, version marks on the cards and counters whose face
changed, and the site's page "What changed in VERSION".

On a copy of the shipped game nuclear (Russian source, English edition) in a temporary git
repository: tag v1, then one commit that changes a paragraph, a unit's cost and another unit's
text (tests/test_changes.py's history); the counters on a copy of the fixture game hexwar."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest

from generator.print.changebars import COLOUR
from generator.print.living import marked_html

from .conftest import REPO, run_cli
from .test_changes import GAME, NEW_SENTENCE, NEW_TEXT, OLD_TEXT, _copy, _edit, _english, _git, _pdf_text

MM = 72 / 25.4
MARKS = {"ru": "в.1.1", "en": "v1.1"}


@pytest.fixture(scope="module")
def released(tmp_path_factory) -> Path:
    """v1 is the shipped game; HEAD ("1.1") rewords a paragraph, raises the recruits' cost and
    rewords the veterans' text; built with --changes-since v1 (rulebook, cards, errata, site)."""
    root = tmp_path_factory.mktemp("released")
    game = _copy(root)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "v1")
    _git(root, "tag", "v1")
    _edit(game / "rules" / "01-basics.md", "По гексам перемещается именно отряд.", NEW_SENTENCE)
    _edit(game / "data" / "units.yaml", "cost: 80, reinforcement-cost: 8}", "cost: 85, reinforcement-cost: 8}")
    _edit(game / "data" / "units.yaml", "text: Матерые солдаты, прошедшие несколько компаний.", f"text: {NEW_TEXT}")
    _edit(game / "game.yaml", "source_language: ru\n", 'source_language: ru\nversion: "1.1"\n')
    _git(root, "commit", "-qam", "v1.1")
    done = run_cli("--root", str(root), "build", "--game", GAME, "--only", "rulebook,cards,site", "--no-images",
                   "--changes-since", "v1", timeout=900)
    assert done.returncode == 0, done.stderr
    (root / "build.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    return root


def _out(root: Path, lang: str, name: str) -> Path:
    return root / "output" / GAME / lang / name


def bars(path: Path) -> dict[int, list[tuple[float, float, float, float]]]:
    """The change bars of a PDF by page (0-based): the rectangles filled inside an artifact in
    the bars' colour, (x0, y0, x1, y1) in points from the page's bottom left."""
    colour = [round(c, 3) for c in COLOUR]
    found: dict[int, list] = {}
    with pikepdf.open(path) as pdf:
        for number, page in enumerate(pdf.pages):
            artifact, fill, rects = False, None, []
            for operands, operator in pikepdf.parse_content_stream(page):
                op = str(operator)
                if op == "BDC" and str(operands[0]) == "/Artifact":
                    artifact = True
                elif op == "EMC":
                    artifact = False
                elif op == "rg":
                    fill = [round(float(v), 3) for v in operands]
                elif op == "re" and artifact and fill == colour:
                    x, y, w, h = (float(v) for v in operands)
                    rects.append((x, y, x + w, y + h))
            if rects:
                found[number] = rects
    return found


def text_boxes(path: Path, words: str) -> list[tuple[int, tuple[float, float, float, float]]]:
    """(page, (left, bottom, right, top)) of each character run of `words` found in a PDF."""
    document = pdfium.PdfDocument(str(path))
    out = []
    for number in range(len(document)):
        text = document[number].get_textpage()
        searcher = text.search(words)
        while (hit := searcher.get_next()) is not None:
            index, count = hit
            boxes = [text.get_charbox(i) for i in range(index, index + count)]
            out.append((number, (min(b[0] for b in boxes), min(b[1] for b in boxes),
                                 max(b[2] for b in boxes), max(b[3] for b in boxes))))
    return out


def _size(path: Path) -> tuple[float, float]:
    """The first page's width and height, in points."""
    with pikepdf.open(path) as pdf:
        box = [float(v) for v in pdf.pages[0].mediabox]
    return box[2] - box[0], box[3] - box[1]


def _page_text(path: Path) -> list[str]:
    document = pdfium.PdfDocument(str(path))
    return [page.get_textpage().get_text_range() for page in document]


def _beside(bar, box) -> bool:
    """The bar's height overlaps the text's."""
    return bar[1] < box[3] and bar[3] > box[1]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_bar_stands_in_the_outer_margin_beside_the_changed_paragraph(released, lang):
    book = _out(released, lang, "rulebook.pdf")
    found = bars(book)
    (page, box), = text_boxes(book, "только отряд целиком")  # the changed sentence (en: not yet translated)
    assert any(_beside(bar, box) for bar in found.get(page, [])), (page, found)
    width = _size(book)[0]
    for bar in found[page]:  # outside the text: right of it on a right-hand page, left on a left-hand one
        assert (bar[0] > box[2] and bar[2] < width) if page % 2 == 0 else (bar[2] < box[0] and bar[0] > 0)
    unchanged = [b for b in text_boxes(book, "(моделька)") if b[0] == page]  # the next paragraph
    assert unchanged or lang == "en"
    for _page, other in unchanged:  # unchanged: no bar beside it
        assert not any(_beside(bar, other) for bar in found[page])


def test_the_changed_records_are_barred_where_the_rulebook_lists_them(released):
    book = _out(released, "ru", "rulebook.pdf")
    found = bars(book)
    for name, barred in [("Батальон Новобранцев", True), ("Рота ветеранов", True), ("Батальон солдат", False)]:
        hits = text_boxes(book, name)
        assert hits, name
        assert any(_beside(bar, box) for page, box in hits for bar in found.get(page, [])) is barred, name


@pytest.mark.parametrize("lang, legend", [("ru", "на внешнем поле отмечает то, что изменилось с версии v1"),
                                          ("en", "in the outer margin marks what changed since v1")])
def test_the_legend_says_what_a_bar_and_a_mark_mean(released, lang, legend):
    text = " ".join(" ".join(_page_text(_out(released, lang, "rulebook.pdf"))[:3]).split())
    assert legend in text and MARKS[lang] in text


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_errata_sheet_names_the_page_each_change_is_on(released, lang):
    sheet = " ".join(_page_text(_out(released, lang, "changes.pdf"))).replace("\xa0", " ")
    pages = [" ".join(text.split()) for text in _page_text(_out(released, lang, "rulebook.pdf"))]
    page_word = {"ru": "с.", "en": "p."}[lang]
    where = {"ru": ["Правила", "Батальон Новобранцев: Цена", "Рота ветеранов"],
             "en": ["Rules", "Recruit Battalion: Cost", "Veteran Company"]}[lang]
    for place in where:
        after = sheet.split(f"{place} {page_word} ", 1)
        assert len(after) == 2, (place, sheet[:400])
        page = int(after[1].split()[0])
        printed = "только отряд целиком" if place in ("Правила", "Rules") else place.split(":")[0]
        assert printed in pages[page - 1], (place, page)  # the page the sheet names prints it


def test_the_errata_sheet_says_replace_with_in_each_language(released):
    log = (released / "build.log").read_text(encoding="utf-8")
    source = _pdf_text(_out(released, "ru", "changes.pdf"))
    english = _pdf_text(_out(released, "en", "changes.pdf"))
    assert "ИЗМЕНЕНИЯ С ВЕРСИИ V1" in source and "CHANGES SINCE V1" in english
    for text in (source, english):  # the stat's change: its old and new value after the labels
        assert "80" in text and "85" in text
    assert "ЗАМЕНИТЬ " + OLD_TEXT in source and "НА " + NEW_TEXT in source
    assert "REPLACE " + _english(OLD_TEXT) in english  # the edition's old text, from its catalog
    assert "WITH " + NEW_TEXT in english  # not yet translated: the source's, marked (W005)
    assert "W005" in log and "nuclear changes (en)" in log


def test_the_errata_sheet_takes_the_pages_the_rulebook_kept(released, monkeypatch):
    """The sheet's pages are those the rulebook's job found laying the book out: the sheet
    lays nothing out (the build made the rulebook first, changepages.py)."""
    from generator.core.diagnostics import Report
    from generator.print import changesheet
    from generator.print.changesheet import Book, rulebook_pages
    from generator.print.context import BuildContext
    from generator.print.jobs import checked_examples
    from generator.print.living import since
    from generator.project import Project

    game = Project(released).load(GAME, Report(), checks=False)
    ctx = BuildContext(game, "ru", released, examples=checked_examples(game))

    def no_layout(*args, **kwargs):
        raise AssertionError("the errata sheet laid the rulebook out again")

    monkeypatch.setattr(changesheet, "laid_out_pages", no_layout)
    with since(ctx, "v1") as found:
        pages = rulebook_pages(ctx, found, Book(), {"rules/01-basics.md:5", "unit-recruits", "no-such-element"})
    assert pages == {"rules/01-basics.md:5": 3, "unit-recruits": 7}


def test_the_sheet_takes_the_rulebook_s_pages_and_lays_the_book_out_only_alone(tmp_path, monkeypatch):
    """A build that makes the rulebook makes the sheet from the pages the rulebook's job kept
    (the sheet lays nothing out); `--only changes` without them lays the book out itself."""
    from generator.commands.build import DEFAULT_OPTIONS, build
    from generator.core.diagnostics import Report
    from generator.print import changesheet
    from generator.project import Project

    root = tmp_path / "alone"
    shutil.copytree(REPO / "tests" / "fixtures" / "hexwar", root / "content" / "hexwar")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "v1")
    _edit(root / "content" / "hexwar" / "rules" / "04-movement.md", "The cost depends on the terrain.",
          "The cost depends on the terrain of the hex entered.")
    out = root / "output" / "hexwar" / "en"

    def laid_out(*args):
        raise AssertionError("the sheet laid the rulebook out again")

    with monkeypatch.context() as patch:  # in this process: one worker
        patch.setattr(changesheet, "laid_out_pages", laid_out)
        failed = build(Project(root), ["hexwar"], ["rulebook", "changes"], True, ["en"], 1, False,
                       {**DEFAULT_OPTIONS, "images": False, "changes_since": "HEAD"}, False, report=Report())
    assert not failed
    store = root / "output" / ".rulesmith" / "pages.json"
    page = json.loads(store.read_text(encoding="utf-8"))["a4:hexwar/en"]["pages"]["rules/04-movement.md:3"]
    book = [" ".join(text.split()) for text in _page_text(out / "rulebook.pdf")]
    assert "of the hex entered" in book[page - 1]  # the page the rulebook prints the changed paragraph on
    assert f"Movement p. {page} " in " ".join(" ".join(_page_text(out / "changes.pdf")).split())

    store.unlink()  # the pages forgotten: the sheet built alone lays the book out for them
    (out / "changes.pdf").unlink()
    done = run_cli("--root", str(root), "build", "--only", "changes", "--lang", "en", "--changes-since", "HEAD",
                   "--force", timeout=900)
    assert done.returncode == 0, done.stderr
    assert f"Movement p. {page} " in " ".join(" ".join(_page_text(out / "changes.pdf")).split())
    assert json.loads(store.read_text(encoding="utf-8"))["a4:hexwar/en"]["pages"]["rules/04-movement.md:3"] == page


def test_the_errata_sheet_is_made_after_its_rulebook():
    from generator.print.jobs import Job, _in_order, _prerequisites

    jobs = [Job(REPO, GAME, lang, kind) for kind in ("changes", "cards", "rulebook") for lang in ("ru", "en")]
    waits = _prerequisites(jobs)
    assert {(job.kind, job.lang): (first.kind, first.lang) for job, first in waits.items()} == {
        ("changes", "ru"): ("rulebook", "ru"), ("changes", "en"): ("rulebook", "en")}
    assert [job.kind for job in _in_order(jobs)][-2:] == ["changes", "changes"]
    assert _prerequisites([Job(REPO, GAME, "ru", "changes")]) == {}  # --only changes: it waits for nothing


def _mark_owners(path: Path, placed: Path, mark: str, key: str) -> set[str]:
    """The ids of the cards (or counters) whose front holds `mark`, by where each sits
    (cards.json / counters.json) and where the mark is drawn."""
    placements = json.loads(placed.read_text(encoding="utf-8"))
    height = _size(path)[1]
    owners = set()
    for page, (left, bottom, right, top) in text_boxes(path, mark):
        x, y = (left + right) / 2 / MM, (height - (bottom + top) / 2) / MM  # mm from the top left
        for spot in placements:
            fx, fy = spot["front"]
            w, h = spot["size"]
            if page == 2 * (spot["sheet"] - 1) and fx <= x <= fx + w and fy <= y <= fy + h:
                owners.add(spot[key])
    return owners


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_only_the_changed_cards_carry_the_version_mark(released, lang):
    cards = _out(released, lang, "cards.pdf")
    owners = _mark_owners(cards, _out(released, lang, "cards.json"), MARKS[lang], "card")
    assert owners == {"recruits", "veterans"}  # the cost and the text; soldiers and the others unchanged
    assert len(text_boxes(cards, MARKS[lang])) == 2


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_site_page_lists_the_changes_and_home_links_to_it(released, lang):
    folder = released / "output" / "site" / GAME / lang
    home = (folder / "index.html").read_text(encoding="utf-8")
    title = {"ru": "Что изменилось в версии 1.1", "en": "What changed in 1.1"}[lang]
    assert f'<a href="changes.html">{title}</a>' in home
    page = (folder / "changes.html").read_text(encoding="utf-8")
    assert page.count('<section class="change"') == 3
    assert 'href="units/recruits.html"' in page and 'href="units/veterans.html"' in page
    assert 'href="basics.html#' in page  # the paragraph: its chapter's section
    assert "downloads/rulebook.pdf#page=" in page and NEW_TEXT in page


def test_the_marked_books_stay_pdf_ua(released):
    from pdfua import Severity, validate

    for name in ("rulebook.pdf", "cards.pdf", "changes.pdf"):
        errors = [f.message for f in validate(str(_out(released, "en", name))).findings
                  if f.severity is Severity.ERROR]
        assert errors == [], name


@pytest.mark.slow  # a second build of the book, the cards and the site
def test_an_unchanged_game_gives_no_bars_no_marks_and_no_page(released, tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(released), str(clone)], check=True)
    done = run_cli("--root", str(clone), "build", "--game", GAME, "--only", "rulebook,cards,site", "--lang", "ru",
                   "--no-images", "--changes-since", "HEAD", timeout=900)
    assert done.returncode == 0, done.stderr
    assert bars(_out(clone, "ru", "rulebook.pdf")) == {}
    assert text_boxes(_out(clone, "ru", "cards.pdf"), MARKS["ru"]) == []
    folder = clone / "output" / "site" / GAME / "ru"
    assert not (folder / "changes.html").exists() and "changes.html" not in (folder / "index.html").read_text("utf-8")


def test_without_changes_since_the_book_s_html_is_as_before():
    html = '<p data-src="rules/01-basics.md:3">a</p><tr id="unit-x"><td>1</td></tr><tr class="details">'
    assert marked_html(html, [], []) == html
    marked = marked_html(html, ["rules/01-basics.md:3"], ["unit-x"])
    assert marked.count("data-changed") == 3  # the paragraph, the unit's row and its row of details
    assert marked_html(html, ["rules/01-basics.md:4"], []) == html


def test_a_changed_counter_carries_the_mark_on_its_front(tmp_path):
    root = tmp_path / "counters"
    shutil.copytree(REPO / "tests" / "fixtures" / "hexwar", root / "content" / "hexwar")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "v1")
    counters = root / "content" / "hexwar" / "data" / "counters.yaml"
    _edit(counters, '{id: b3, sheet: units, side: blue, symbol: armour, echelon: brigade, designation: "3", strength: 8',
          '{id: b3, sheet: units, side: blue, symbol: armour, echelon: brigade, designation: "3", strength: 9')
    _edit(root / "content" / "hexwar" / "game.yaml", "source_language: en\n", 'source_language: en\nversion: "2.0"\n')
    done = run_cli("--root", str(root), "build", "--only", "counters", "--lang", "en", "--no-images",
                   "--changes-since", "HEAD", timeout=900)
    assert done.returncode == 0, done.stderr
    out = root / "output" / "hexwar" / "en"
    assert _mark_owners(out / "counters.pdf", out / "counters.json", "v2.0", "counter") == {"b3"}


def test_a_redrawn_picture_bars_the_block_that_shows_it(tmp_path):
    from types import SimpleNamespace

    from generator.print.living import Since

    for name, drawn in (("old", b"first drawing"), ("new", b"second drawing")):
        (tmp_path / name / "rules").mkdir(parents=True)
        (tmp_path / name / "pictures").mkdir()
        (tmp_path / name / "rules" / "01-map.md").write_text(
            "# Map\n\nText.\n\n![The map](pictures/map.png)\n\n| a | b |\n|---|---|\n| ![x](pictures/same.png) | 2 |\n",
            encoding="utf-8")
        (tmp_path / name / "pictures" / "map.png").write_bytes(drawn)
        (tmp_path / name / "pictures" / "same.png").write_bytes(b"unchanged")
    found = Since("v1", SimpleNamespace(folder=tmp_path / "old"), SimpleNamespace(folder=tmp_path / "new"), [])
    assert found.sources == {"rules/01-map.md:5": "changed"}  # the figure's paragraph, not the table's row
