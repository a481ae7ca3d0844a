"""Editions print the source's own wording: a keyword spelled as an erratum alias and a value
read through an erratum print as the source writes them, with a mark linking to the erratum;
a stat whose typed value loses the source's notation prints its as-written form."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.core.diagnostics import Report
from generator.print.context import BuildContext
from generator.print.rulebook import book_html
from generator.project import Project

from .conftest import REPO

# A keyword use: its name as printed, the glossary link's tooltip, then an erratum mark.
_MARKED = r'{}<span class="kw-tip"[^>]*>[^<]*</span></a><(a|span) class="erratum-mark"[^>]*>†</(a|span)>'


def _book(root: Path, game: str, lang: str) -> str:
    return book_html(BuildContext(Project(root).load(game, Report()), lang, root))



def _row(html: str, name: str) -> str:
    """The roster rows of one unit: its stats row and its details row."""
    start = html.index(f">{name}<")
    end = html.index('<tr id="unit-', start)
    return html[start:end]


def test_alias_prints_as_the_source_writes_it_with_an_erratum_mark(shipped: Path):
    ru = _row(_book(shipped, "nuclear", "ru"), "Всадники смерти")
    assert re.search(_MARKED.format("Быстрые"), ru) and re.search(_MARKED.format("Скауты"), ru)
    assert "Быстрый<" not in ru  # not the glossary's canonical spelling
    assert 'aria-label="' in ru.split("erratum-mark", 1)[1].split(">", 1)[0]
    # in print the mark links to the erratum in the book's errata appendix
    book = _book(shipped, "nuclear", "ru")
    assert 'class="erratum-mark" href="#erratum-fast-spelling"' in ru and 'id="erratum-fast-spelling"' in book
    en = _row(_book(shipped, "nuclear", "en"), "Death Riders")
    assert re.search(_MARKED.format("Fast"), en) and re.search(_MARKED.format("Scouts"), en)
    # a plain use of the same keyword carries no mark
    brunhilda = _row(_book(shipped, "nuclear", "ru"), "Взвод БТР Брунгильда")
    keywords = brunhilda.split('<p class="unit-keywords">', 1)[1].split("</p>", 1)[0]
    assert re.search(r">Быстрый<span class=\"kw-tip\"", keywords) and "erratum-mark" not in keywords


def test_site_marks_link_to_the_errata_page(shipped_site: Path):
    page = (shipped_site / "nuclear" / "ru" / "units" / "death-riders.html").read_text(encoding="utf-8")
    assert re.search(_MARKED.format("Быстрые"), page)
    assert 'href="../errata.html#erratum-fast-spelling"' in page
    errata = (shipped_site / "nuclear" / "ru" / "errata.html").read_text(encoding="utf-8")
    assert 'id="erratum-fast-spelling"' in errata
    ragnarok = (shipped_site / "nuclear" / "ru" / "units" / "ragnarok.html").read_text(encoding="utf-8")
    assert re.search(_MARKED.format(re.escape("Взрывное (3)")), ragnarok)  # the battle cannon's «Взрывное (3)»


def test_stat_values_keep_the_source_notation(shipped: Path):
    ru = _book(shipped, "battle-rules", "ru")
    assert "<td>40 см (60 см)</td>" in ru and "40\u00a0см / 60\u00a0см" not in ru
    en = _book(shipped, "battle-rules", "en")
    assert "40\u00a0cm (60\u00a0cm)" in en and "30\u00a0cm (40\u00a0cm)" in en
    # a value read through an erratum: as written, then its mark; the reading is what the checker uses
    assert re.search(r"1\+ / 0<(a|span) class=\"erratum-mark\"", ru)
    nuclear = _book(shipped, "nuclear", "ru")
    assert "<td>Н3</td>" in nuclear and "3\u00a0гекс." not in nuclear
    assert "10× Лазвинтовки" in nuclear  # the roster line's own label
    # the English rules write the formula "Lasgun (R3; A1)": the roster writes R3 too
    english = _book(shipped, "nuclear", "en")
    assert "<td>R3</td>" in english and "3\u00a0hex" not in english


def _copy(game: str, tmp: Path) -> Path:
    shutil.copytree(REPO / "content" / game, tmp / "content" / game)
    return tmp / "content" / game


def test_an_alias_without_its_erratum_fails_validation(tmp_path: Path):
    folder = _copy("nuclear", tmp_path)
    path = folder / "data" / "keywords.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "{name: Быстрые, erratum: fast-spelling}", "{name: Быстрые}"), encoding="utf-8")
    report = Report()
    Project(tmp_path).load("nuclear", report)
    assert report.failed(strict=True)
    assert any(d.code == "W001" and "fast-spelling" in d.message for d in report.diagnostics)


def test_an_as_written_form_must_hold_the_typed_values(tmp_path: Path):
    folder = _copy("battle-rules", tmp_path)
    path = folder / "data" / "units.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("movement: 40 см (60 см)", "movement: 40 см (70 см)"),
                    encoding="utf-8")
    report = Report()
    Project(tmp_path).load("battle-rules", report)
    found = [d for d in report.diagnostics if d.code == "E046"]
    assert found and "40 см (70 см)" in found[0].message and found[0].location.line > 0


def test_an_alias_without_its_own_translation_prints_the_keywords_name(tmp_path: Path):
    import polib

    folder = _copy("nuclear", tmp_path)
    path = folder / "locale" / "en.po"
    catalog = polib.pofile(str(path), wrapwidth=0)
    catalog.find("Скауты").msgstr = ""
    catalog.save(str(path))
    en = _row(_book(tmp_path, "nuclear", "en"), "Death Riders")
    assert re.search(_MARKED.format(">Scout"), en) and ">Scouts<" not in en and ">Скауты<" not in en


def test_a_weapon_line_prints_the_keyword_as_that_line_writes_it(shipped: Path):
    ru = _book(shipped, "nuclear", "ru")
    spelled = _MARKED.format(re.escape("ББ(1)"))
    platoon, leman = _row(ru, "Взвод тяжелого вооружения"), _row(ru, "Взвод Леман Руссов")
    assert re.search(spelled, platoon) and 'href="#erratum-ap-spacing"' in platoon
    for name in ("Взвод Леман Руссов Уничтожителей", "Взвод Леман Руссов Аннигиляторов"):
        assert 'href="#erratum-ap-spacing"' in _row(ru, name) and ">ББ(1)<" in _row(ru, name)
    # the same weapon on a line that writes «ББ (1)» prints it so, unmarked
    assert ">ББ (1)<" in leman and "ББ(1)" not in leman and "erratum-ap-spacing" not in leman
    en = _row(_book(shipped, "nuclear", "en"), "Heavy Weapons Platoon")
    assert re.search(_MARKED.format(re.escape("AP (1)")), en) and 'href="#erratum-ap-spacing"' in en


def test_a_name_written_as_the_source_writes_it_carries_its_erratum_mark(shipped: Path, shipped_site: Path):
    ru = _book(shipped, "rock-n-roll", "ru")
    for name in ("С hi", "Ветеран С hi"):  # the veteran (a label the edition wrote) repeats the misspelling
        assert re.search(f'<th scope="row">{name}(<span class="editor-mark"[^>]*>\u00a0ред.</span>)?'
                         '<a class="erratum-mark" href="#erratum-chi-spelling"', ru), name
    assert '<th scope="row">Min<a class="erratum-mark"' not in ru and '<th scope="row">Min<' in ru
    # the chapter's heading naming the unit by reference carries the mark too
    assert '<a class="ref ref-unit" href="#unit-chi">С hi</a><a class="erratum-mark" href="#erratum-chi-spelling"' in ru
    # a deck's text, quoted as written, ends with its mark
    assert re.search(r"рубашки с орлами \(VPА\)<a class=\"erratum-mark\" href=\"#erratum-vpa-cyrillic-a\"", ru)
    en = _book(shipped, "rock-n-roll", "en")
    # the English edition prints the reading (Chi), not the misspelling: nothing there to mark
    assert '<th scope="row">Chi<a class="erratum-mark"' not in en and '<th scope="row">Chi<' in en
    page = (shipped_site / "rock-n-roll" / "ru" / "units" / "chi.html").read_text(encoding="utf-8")
    assert re.search(r'<p class="title-erratum">[^<]*«С hi»[^<]*<a class="erratum-mark" '
                     r'href="\.\./errata\.html#erratum-chi-spelling"', page)
    card = (shipped_site / "rock-n-roll" / "ru" / "cards" / "chi-veteran.html").read_text(encoding="utf-8")
    assert 'class="title-erratum"' in card
    assert 'class="title-erratum"' not in (shipped_site / "rock-n-roll" / "ru" / "units" / "min.html").read_text(
        encoding="utf-8")


def test_a_parameter_distance_prints_its_unit_in_the_editions_language(shipped: Path):
    from generator.text.blocks import parameters_html

    game = Project(shipped).load("nuclear", Report())
    ru = parameters_html(game, BuildContext(game, "ru", shipped).tr)
    en = parameters_html(game, BuildContext(game, "en", shipped).tr)
    assert "24\u00a0гекс." in ru and "hex" not in ru
    assert "24\u00a0hex" in en and "гекс" not in en
