"""The reference sheet's first look at its too-wide sections (print/widthprobe.py): the sheet
cut to its tables' widest rows finds only sections the whole sheet finds too wide, so the
sheet's fitting ends where it ended without it, laying the sheet out once less when it finds
them. Checked on the demo game with generated data tables (1–12 columns of words of every
length, in four languages), and on the cut itself."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml
from hypothesis import given, strategies as st

from generator.commands.new import scaffold
from generator.core.diagnostics import Report
from generator.print import reference, widthprobe
from generator.print.context import BuildContext
from generator.print.pdf import render_document
from generator.project import Project

from .test_book_generated import LONG, WORDS, generated


def test_a_table_is_cut_to_its_head_and_the_rows_of_its_columns_longest_words():
    """Per column, the first row holding its longest word; a section without a table goes."""
    html = ('<main><section class="ref-section" id="ref-a"><h2>A</h2><p>prose</p>'
            '<table><thead><tr><th>Name</th><th>Move</th></tr></thead><tbody>'
            '<tr><td>Scout</td><td>15</td></tr>'
            '<tr><td>Heavyweaponsteam</td><td>10</td></tr>'
            '<tr><td>Tank</td><td>5</td></tr>'
            '</tbody></table></section>'
            '<section class="ref-section" id="ref-b"><h2>B</h2><p>only prose</p></section></main>')
    cut = widthprobe.narrowed(html)
    assert cut == ('<main><section class="ref-section" id="ref-a">'
                   '<table><thead><tr><th>Name</th><th>Move</th></tr></thead><tbody>'
                   '<tr><td>Scout</td><td>15</td></tr>'
                   '<tr><td>Heavyweaponsteam</td><td>10</td></tr>'
                   '</tbody></table></section></main>')
    assert widthprobe.narrowed(html.replace("<table>", "<div>").replace("</table>", "</div>")) is None


def test_a_table_without_a_head_keeps_its_first_row_and_a_nested_table_is_its_cells():
    """The first row stands for the head; a table nested in a cell counts as that cell's
    words and stays whole."""
    nested = "<table><tr><td>alpha</td></tr><tr><td>beta</td></tr></table>"
    table = ('<table><tr><th>Roll</th><th>Result</th></tr><tr><td>1</td><td>x</td></tr>'
             f'<tr><td>2</td><td>{nested}</td></tr><tr><td>3</td><td>y</td></tr></table>')
    cut = widthprobe.narrowed(f'<section class="ref-section" id="ref-t">{table}</section>')
    assert cut == ('<section class="ref-section" id="ref-t"><table><tr><th>Roll</th><th>Result</th></tr>'
                   f'<tr><td>1</td><td>x</td></tr><tr><td>2</td><td>{nested}</td></tr></table></section>')


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """The demo game with nothing on its sheet but its parameters and a data table (written
    by each example)."""
    root = tmp_path_factory.mktemp("sheet")
    game = root / "content" / "demo"
    scaffold(game, "demo", "Demo")
    (game / "print.yaml").write_text("reference: [parameters, tables]\n", encoding="utf-8")
    return root


def _tables(root: Path, lang: str, seed: int, columns: int, rows: int) -> None:
    """data/tables.yaml: one table of `columns` columns and `rows` rows of words of `lang`,
    some too long for a narrow column."""
    rng = random.Random(seed)
    words = WORDS[lang] + LONG[lang]
    def text() -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 4)))
    ids = [f"c{n}" for n in range(columns)]
    table = {"id": "generated", "name": "Generated", "dice": "d6",
             "columns": [{"id": c, "name": text()} for c in ids],
             "rows": [{"roll": str(r + 1), **{c: text() for c in ids}} for r in range(rows)]}
    path = root / "content" / "demo" / "data" / "tables.yaml"
    path.write_text(yaml.safe_dump({"tables": [table]}, allow_unicode=True), encoding="utf-8")


def _context(root: Path) -> BuildContext:
    """The demo game's English sheet (its tables' words of any language)."""
    project = Project(root)
    return BuildContext(project.load("demo", Report(), checks=False), "en", project.root)


@given(lang=st.sampled_from(sorted(WORDS)), seed=st.integers(0, 10_000), columns=st.integers(1, 12),
       rows=st.integers(1, 30))
@generated(6)
def test_the_first_look_finds_only_what_the_sheet_finds_and_changes_nothing(project, monkeypatch, lang, seed,
                                                                            columns, rows):
    _tables(project, lang, seed, columns, rows)
    ctx = _context(project)
    whole = reference._too_wide(render_document(reference.sheet_html(ctx), ctx.game.folder, ctx.roots)[0])
    surely = reference._surely_wide(ctx)
    assert surely <= whole
    fitted = reference.fit_reference(ctx)[:3]
    monkeypatch.setattr(reference, "_surely_wide", lambda ctx: frozenset())
    assert reference.fit_reference(ctx)[:3] == fitted
    monkeypatch.undo()


def test_a_table_too_wide_for_its_column_spans_the_sheet_from_its_first_layout(project, monkeypatch):
    """Twelve columns of long words: the section spans the sheet, and the sheet is laid out
    once (after the small first look), not once in columns and again."""
    _tables(project, "en", 7, 12, 20)
    ctx = _context(project)
    laid: list[str] = []
    real = reference.render_document
    monkeypatch.setattr(reference, "render_document", lambda html, *a, **k: laid.append(html) or real(html, *a, **k))
    wide, _moved, _repeats, _read = reference.fit_reference(ctx)
    assert wide == {"tables"}
    sheets = [html for html in laid if '<header class="ref-head">' in html and "<h2>" in html]
    assert len(laid) == 2 and len(sheets) == 1, len(laid)


def test_a_word_hyphenation_cannot_break_keeps_its_row_beside_the_longest():
    """A dice roll shorter than a long word may still be the wider cell (the word hyphenates,
    the roll does not): both rows stay."""
    table = ('<table><thead><tr><th>Weapon</th></tr></thead><tbody>'
             '<tr><td>counterintelligence</td></tr><tr><td>short</td></tr><tr><td>2D6+1/3D6-2</td></tr></tbody></table>')
    cut = widthprobe.narrowed(f'<section class="ref-section" id="ref-w">{table}</section>')
    assert cut == ('<section class="ref-section" id="ref-w"><table><thead><tr><th>Weapon</th></tr></thead><tbody>'
                   '<tr><td>counterintelligence</td></tr><tr><td>2D6+1/3D6-2</td></tr></tbody></table></section>')
