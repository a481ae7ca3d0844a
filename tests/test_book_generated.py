"""Books that always lay out, generated: hypothesis writes rules text from random mixes of
everything it can hold (docs/content-format.md, "Rules text"): paragraphs with long words and
references, headings of every level, `{.new-page}`, tables of 1–10 columns and 1–60 rows,
figures, worked examples, rules, notes of each kind, lists (nested, numbered), definition
lists, quotes, footnotes, a keyword list, datasheets, a data table, and the appendices with the
errata that end every book. Each book is laid out in one format (A4 and Letter in two columns,
A5 in one, the A5 booklet imposed on A4) and one language (Russian, English, German, Polish)
through the rulebook's own code path (print/rulebook.py fits it: spanning and turned tables,
notes). A layout that fails raises (LayoutFailed) and fails the test.

The slow run lays out 500 books; the default suite a few. The generated content is cheap (the
words come from a seeded Random); the layout is the real one, minus writing the PDF (the
booklet is written and imposed)."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pikepdf
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from generator.commands.new import scaffold
from generator.core.diagnostics import Report
from generator.print import bookblocks, widthprobe
from generator.print.booklet import impose
from generator.print.bookpages import book_layout, finish
from generator.print import layoutwork
from generator.print.context import BuildContext
from generator.print.notes import repeated
from generator.print.pdf import render_document
from generator.print.rulebook import _wide_tables as wide_tables, book_html, rulebook_html
from generator.project import Project

from .test_layoutwork import boxes

LANGUAGES = ("ru", "en", "de", "pl")
FORMATS = ("a4", "letter", "a5", "booklet")

# words of each language, and words too long for a narrow column (hyphenated where the
# language's patterns allow it; the last of each list has no hyphenation point at all)
WORDS = {
    "ru": ("отряд бросок кубик укрытие стрельба дальность противник ход фаза перемещение рукопашная боевой "
           "модификатор подразделение командование неудача и в на с по").split(),
    "en": ("unit roll die cover shooting range enemy turn phase move melee modifier squad command hex "
           "counter and the of to in").split(),
    "de": ("Einheit Wurf Würfel Deckung Reichweite Gegner Zug Phase Bewegung Nahkampf Befehl Feld Zähler "
           "und der die das mit im").split(),
    "pl": ("jednostka rzut kość osłona zasięg przeciwnik tura faza ruch walka żołnierz źródło rozkaz heks "
           "żeton i w na z do").split(),
}
LONG = {
    "ru": ["высокоспециализированного", "человеконенавистничество", "БТР-80А/БМП-2/ПТРК-«Корнет»-Э"],
    "en": ["counterintelligence", "incomprehensibilities", "2D6+1/3D6-2/4D6+3/5D6-4/6D6"],
    "de": ["Geländeeinheitenbewegungspunktezuschlag", "Rechtsschutzversicherungsgesellschaften", "W6+1/W8-2/W10+3/W12-4"],
    "pl": ["niezrozumiałościami", "konstantynopolitańczykówna", "K6+1/K8-2/K10+3/K12-4/K20"],
}
PICTURE = ('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" viewBox="0 0 120 80">'
           '<rect width="120" height="80" fill="#a3c48f"/><circle cx="60" cy="40" r="25" fill="#8a1c1c"/></svg>')


# The scaffold's data less the sections that add only appendix pages of their own (each a
# section the two-column layout balances again at every fitting pass): kept are the keywords
# (the keyword list), the units (datasheets), a data table and the errata (the appendix).
LEFT_OUT = ("actions.yaml", "bands.yaml", "dice.yaml", "maps.yaml", "terrain.yaml", "rosters.yaml", "rules.yaml")


# -- the rules text, as block specifications (hypothesis) written out with seeded words ----------

paragraph = st.tuples(st.just("p"), st.integers(1, 70))
heading = st.tuples(st.just("h"), st.integers(2, 6))
# most tables short (a long one is laid out again and again as the book is fitted)
table = st.tuples(st.just("table"), st.integers(1, 10), st.one_of(st.integers(1, 6), st.integers(1, 6), st.integers(1, 60)),
                  st.integers(1, 3))
container = st.tuples(st.sampled_from(["example", "rule", "note", "note designer", "note translator", "note editor"]),
                      st.integers(1, 3))
listing = st.tuples(st.sampled_from(["ul", "ol"]), st.integers(1, 8), st.booleans())
other = st.sampled_from([("figure",), ("deflist",), ("quote",), ("footnote",), ("hr",)])
block = st.one_of(paragraph, paragraph, heading, heading, table, container, listing, other)
chapter = st.tuples(st.booleans(), st.lists(block, min_size=1, max_size=5))  # ({.new-page}, blocks)
# each printed once at most, in the chapter and at the block its number picks
data_lists = st.dictionaries(st.sampled_from(["{{ list:keywords }}", "{{ list:units }}", "{{ table:weather }}"]),
                             st.integers(0, 100), max_size=3)
book = st.fixed_dictionaries({
    "lang": st.sampled_from(LANGUAGES), "format": st.sampled_from(FORMATS), "seed": st.integers(0, 2**32 - 1),
    "chapters": st.lists(chapter, min_size=1, max_size=3), "lists": data_lists})


def generated(examples: int, shrink: bool = True):
    """Hypothesis settings for generated books: the same books run after run, no deadline nor
    database; `shrink=False` (the slow runs) reports a failing book as generated, since
    shrinking re-lays out hundreds of books."""
    return settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                    **({} if shrink else {"phases": [Phase.explicit, Phase.generate]}),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


class Writer:
    """Markdown for block specifications, in one language's words."""

    def __init__(self, lang: str, seed: int):
        self.rng, self.words, self.long = random.Random(seed), WORDS[lang], LONG[lang]
        self.ids = 0

    def text(self, count: int) -> str:
        out = []
        for n in range(count):
            word = self.rng.choice(self.long) if self.rng.random() < 0.04 else self.rng.choice(self.words)
            roll = self.rng.random()
            if roll < 0.03:
                word = self.rng.choice(["{{ keyword:fast }}", "{{ unit:scouts }}", "{{ keyword:ap }} (2)"])
            elif roll < 0.06:
                word = f"**{word}**" if roll < 0.045 else f"*{word}*"
            out.append(word + ("." if n % 12 == 11 else ""))
        sentence = " ".join(out)
        return sentence[:1].upper() + sentence[1:] + "."

    def unique(self, kind: str) -> str:
        self.ids += 1
        return f"{kind}-{self.ids}"

    def block(self, spec: tuple) -> str:
        kind = spec[0]
        if kind == "p":
            return self.text(spec[1])
        if kind == "h":
            return "#" * spec[1] + " " + self.text(self.rng.randint(1, 5)).rstrip(".")
        if kind == "table":
            _, columns, rows, size = spec
            cell = lambda: self.text(self.rng.randint(1, size)).rstrip(".").replace("|", "/")  # noqa: E731
            lines = ["| " + " | ".join(cell() for _ in range(columns)) + " |", "|" + "---|" * columns]
            lines += ["| " + " | ".join(cell() for _ in range(columns)) + " |" for _ in range(rows)]
            return "\n".join(lines)
        if kind in ("example", "rule") or kind.startswith("note"):
            head = f"::: {kind} {self.unique(kind)}" if kind in ("example", "rule") else f"::: {kind}"
            return "\n\n".join([head, *(self.text(self.rng.randint(5, 60)) for _ in range(spec[1]))]) + "\n:::"
        if kind in ("ul", "ol"):
            _, items, nested = spec
            mark = lambda n: "-" if kind == "ul" else f"{n + 1}."  # noqa: E731
            lines = []
            for n in range(items):
                lines.append(f"{mark(n)} {self.text(self.rng.randint(2, 30))}")
                if nested and n == 0:
                    lines += [f"   - {self.text(self.rng.randint(2, 12))}" for _ in range(2)]
            return "\n".join(lines)
        return self.other(kind)

    def other(self, kind: str) -> str:
        if kind == "figure":
            return f"![{self.text(3).rstrip('.')}](images/map.svg)"
        if kind == "deflist":
            return "\n\n".join(f"{self.text(2).rstrip('.')}\n: {self.text(self.rng.randint(3, 25))}" for _ in range(2))
        if kind == "quote":
            return "> " + self.text(self.rng.randint(5, 40))
        if kind == "footnote":
            name = self.unique("fn")
            return f"{self.text(10)}[^{name}]\n\n[^{name}]: {self.text(8)}"
        return "---"

    def chapter(self, number: int, new_page: bool, blocks: list[tuple], lists: dict[str, int]) -> str:
        parts = [self.block(spec) for spec in blocks]
        for reference, at in lists.items():
            parts.insert(at % (len(parts) + 1), reference)
        head = ("{.new-page}\n" if new_page else "") + f"# {number}. {self.text(self.rng.randint(1, 4)).rstrip('.')}"
        return "\n\n".join([head, *parts]) + "\n"


def write_book(game: Path, spec: dict) -> None:
    rules = game / "rules"
    shutil.rmtree(rules, ignore_errors=True)
    rules.mkdir()
    writer = Writer(spec["lang"], spec["seed"])
    chapters = spec["chapters"]
    # each data list in one chapter (its number picks which)
    placed = [{ref: at // len(chapters) for ref, at in spec["lists"].items() if at % len(chapters) == n}
              for n in range(len(chapters))]
    for n, (new_page, blocks) in enumerate(chapters):
        (rules / f"{n + 1:02d}-part.md").write_text(writer.chapter(n + 1, new_page, blocks, placed[n]), encoding="utf-8")


# -- the games the books are written into: one per language, the scaffold's data ----------------

@pytest.fixture(scope="module")
def games(tmp_path_factory) -> dict[str, tuple[Path, object]]:
    """A project per language with one game (source language that language) and its data:
    keywords, units, tables, errata... loaded once; each book rewrites only the chapters."""
    out = {}
    for lang in LANGUAGES:
        root = tmp_path_factory.mktemp(f"books-{lang}")
        folder = root / "content" / "gen"
        scaffold(folder, "gen", "Generated", source_language=lang)
        for name in LEFT_OUT:
            (folder / "data" / name).unlink()
        _with_unstated_units(folder / "data" / "units.yaml")
        (folder / "images").mkdir()
        (folder / "images" / "map.svg").write_text(PICTURE, encoding="utf-8")
        report = Report()
        game = Project(root).load("gen", report)
        assert game is not None and not report.errors, [d.format_text() for d in report.errors]
        out[lang] = (root, game)
    return out


def _with_unstated_units(path: Path) -> None:
    """Six more units like the scaffold's, whose quality the source does not give, for the same
    reason: their notes (‡) fall on one page or on two, as the book lays out (print/notes.py)."""
    text = path.read_text(encoding="utf-8")
    unit = text[text.index("  - id: scouts"):]
    name = unit.split("name: ", 1)[1].split("\n", 1)[0]
    for n in range(1, 7):
        text += (unit.replace("id: scouts", f"id: scouts-{n}").replace(f"name: {name}", f"name: {name} {n}")
                 .replace("quality: 4+", "quality: {unstated: Lost.}"))
    path.write_text(text, encoding="utf-8")


def lay_out(games: dict, spec: dict) -> int:
    """Lay the book `spec` out as the build does (the two-column books without the one-column
    fallback: a failure raises); its page count."""
    root, game = games[spec["lang"]]
    write_book(game.folder, spec)
    ctx = BuildContext(game, spec["lang"], root)
    paper = "a5" if spec["format"] == "booklet" else spec["format"]
    html = rulebook_html(ctx, paper)
    document, _ = render_document(html, game.folder, ctx.roots)  # the fitted layout, kept by rulebook_html
    assert document.pages
    assert not repeated(document)  # no page prints a note on an unstated value twice (print/notes.py)
    if spec["format"] == "booklet":
        out = root / "output" / "gen" / spec["lang"]
        out.mkdir(parents=True, exist_ok=True)
        document.write_pdf(out / "rulebook.pdf")
        finish(out / "rulebook.pdf", book_layout(ctx.roots, paper))
        sheets = impose(ctx, out / "rulebook.pdf", out / "rulebook-booklet.pdf")
        with pikepdf.open(out / "rulebook-booklet.pdf") as booklet:
            assert len(booklet.pages) == 2 * sheets and 4 * sheets >= len(document.pages)
    return len(document.pages)


def test_generated_text_is_valid_content(games):
    """The generator writes content validation accepts (no error): the books below are books
    a designer could write, not malformed input."""
    root, game = games["pl"]
    spec = {"lang": "pl", "format": "a4", "seed": 7, "lists": {"{{ list:keywords }}": 0, "{{ list:units }}": 1,
                                                              "{{ table:weather }}": 2},
            "chapters": [(True, [("p", 40), ("h", 2), ("table", 10, 60, 3), ("example", 2), ("note editor", 1),
                                 ("ul", 4, True), ("figure",), ("deflist",), ("quote",), ("footnote",), ("hr",),
                                 ("h", 6), ("rule", 1), ("ol", 3, False)]), (False, [("p", 5)]), (False, [("h", 3)])]}
    write_book(game.folder, spec)
    report = Report()
    Project(root).load("gen", report)
    assert not report.errors, [d.format_text() for d in report.errors]
    text = "".join(p.read_text(encoding="utf-8") for p in sorted((game.folder / "rules").iterdir()))
    for markup in ("{.new-page}", "###### ", "::: example", "::: note editor", "![", "[^fn-", "\n: ", "> ",
                   "{{ list:keywords }}", "{{ list:units }}", "{{ table:weather }}", "   - ", "1. "):
        assert markup in text, markup
    assert lay_out(games, spec) >= 3
    book = rulebook_html(BuildContext(game, "pl", root))  # as laid out (the decision is kept)
    assert book.count('class="unstated-note"') >= 1 and book.count("?‡") >= 6


@generated(8)
@given(spec=book)
def test_generated_books_lay_out(games, spec):
    assert lay_out(games, spec) >= 2  # the cover, the contents and the text


@generated(3, shrink=False)
@given(spec=book)
def test_generated_books_keep_a_whole_folded_tree(games, spec):
    """Written tagged, a generated book (nested lists, tables, footnotes, definition lists,
    quotes, in four languages) keeps every run of its text in the folded structure tree, named
    by the parent tree (print/tagfold.py), and the external checker finds no error in it."""
    from generator.print.pdf import write_tagged

    from .test_pdfua import _errors, assert_whole_tree

    root, game = games[spec["lang"]]
    write_book(game.folder, spec)
    ctx = BuildContext(game, spec["lang"], root)
    html = rulebook_html(ctx, "a5" if spec["format"] == "booklet" else spec["format"])
    document, _ = render_document(html, game.folder, ctx.roots)
    path = root / "output" / "tagged" / f"{spec['lang']}-{spec['seed']}.pdf"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_tagged(document, path, b"0" * 32)
    assert_whole_tree(path)
    assert _errors(path) == []


@pytest.mark.slow
@generated(500, shrink=False)
@given(spec=book)
def test_five_hundred_generated_books_lay_out(games, spec):
    assert lay_out(games, spec) >= 2


def same_as_weasyprint_alone(games: dict, spec: dict) -> None:
    """The book `spec` laid out with the corrections to WeasyPrint's layout (print/layoutwork.py)
    and with WeasyPrint's own layout: the same text boxes in the same places, page by page."""
    root, game = games[spec["lang"]]
    write_book(game.folder, spec)
    ctx = BuildContext(game, spec["lang"], root)
    html = rulebook_html(ctx, "a5" if spec["format"] == "booklet" else spec["format"])
    ours = boxes(render_document(html, game.folder, ctx.roots)[0])
    with layoutwork.stock():
        assert boxes(render_document(html, game.folder, ctx.roots)[0]) == ours


@generated(4)
@given(spec=book)
def test_generated_books_lay_out_as_weasyprint_alone(games, spec):
    same_as_weasyprint_alone(games, spec)


@pytest.mark.slow
@generated(100, shrink=False)
@given(spec=book)
def test_a_hundred_generated_books_lay_out_as_weasyprint_alone(games, spec):
    same_as_weasyprint_alone(games, spec)


def same_tables_apart_balanced_or_not(games: dict, spec: dict) -> None:
    """The book `spec`'s tables apart (bookblocks.tables_apart), their columns filled one after
    the other as the build lays them out, and balanced: the same tables too wide for their
    column (a column is as wide however full it is). Generated words rarely make a table too
    wide, so a cell of one table is given a line of 1 to 12 words that does not wrap."""
    root, game = games[spec["lang"]]
    write_book(game.folder, spec)
    ctx = BuildContext(game, spec["lang"], root)
    paper = "a5" if spec["format"] == "booklet" else spec["format"]
    layout = book_layout(ctx.roots, paper)
    if layout.columns < 2:
        return
    html = book_html(ctx, paper, layout=layout)
    many = {n for n, count in bookblocks.columns(html).items() if count >= layout.spanning_table}
    apart = bookblocks.tables_apart(html, many)
    if apart is None:
        return
    assert bookblocks.UNBALANCED in apart
    apart = _nowrap_line(apart, [cell.end() for cell in re.finditer(r"<t[dh]\b[^>]*>", apart)], spec, 12)
    unbalanced, balanced = (wide_tables(render_document(probe, game.folder, ctx.roots)[0], layout.spanning_table)
                            for probe in (apart, apart.replace(bookblocks.UNBALANCED, "")))
    assert unbalanced == balanced


@generated(4)
@given(spec=book)
def test_generated_books_tables_apart_tell_the_same_tables_unbalanced(games, spec):
    same_tables_apart_balanced_or_not(games, spec)


@pytest.mark.slow
@generated(60, shrink=False)
@given(spec=book)
def test_sixty_generated_books_tables_apart_tell_the_same_tables_unbalanced(games, spec):
    same_tables_apart_balanced_or_not(games, spec)


def _too_long_a_line(games: dict, spec: dict, words: int | None = None):
    """The book `spec` (its context, layout and HTML) with one of its tables that neither
    holds a table nor is held by one given a line of `words` words (else 1 to 40) that does
    not wrap, in one of its cells; None for a one-column book or one without such a table."""
    root, game = games[spec["lang"]]
    write_book(game.folder, spec)
    ctx = BuildContext(game, spec["lang"], root)
    paper = "a5" if spec["format"] == "booklet" else spec["format"]
    layout = book_layout(ctx.roots, paper)
    html = book_html(ctx, paper, layout=layout)
    extents = [(table.start(), widthprobe.element_end(html, table.start()))
               for table in re.finditer(r'<table data-table="', html)]
    plain = [(start, end) for start, end in extents
             if not any(a < start < b or start < a < end for a, b in extents)]
    cells = [cell.end() for start, end in plain for cell in re.finditer(r"<t[dh]\b[^>]*>", html[:end])
             if cell.start() > start]
    if layout.columns < 2 or not cells:
        return None
    return ctx, layout, _nowrap_line(html, cells, spec, 40, words)


def _nowrap_line(html: str, cells: list[int], spec: dict, most: int, words: int | None = None) -> str:
    """`html` with a line of `words` words (else 1 to `most`) of the book's language that does
    not wrap, at one of `cells` (offsets in `html`), chosen by the book's seed."""
    rng = random.Random(spec["seed"])
    at = rng.choice(cells)
    line = " ".join(rng.choice(WORDS[spec["lang"]]) for _ in range(words or rng.randint(1, most)))
    return f'{html[:at]}<span style="white-space: nowrap">{line}</span>{html[at:]}'


def turned_first_as_laid_out_whole(games: dict, spec: dict, monkeypatch) -> None:
    """A generated book with a line too long for its column or the page: the tables the cut
    tables tell are wider than the page are among those the book's layout tells, and turning
    them from the first layout fits the book as laying it out as it is first does
    (rulebook._surely_turned)."""
    from generator.print import rulebook

    made = _too_long_a_line(games, spec)
    if made is None:
        return
    ctx, layout, html = made
    fitted = rulebook._fit(ctx, html, layout.spanning_table)[0]
    spans = rulebook._crowded(ctx, html, layout.spanning_table)
    surely = rulebook._surely_turned(ctx, html, spans) if spans else set()
    monkeypatch.setattr(rulebook, "_surely_turned", lambda *args: set())
    whole = rulebook._fit(ctx, html, layout.spanning_table)[0]
    monkeypatch.undo()
    assert surely <= {item for item in whole if item.isdigit()}
    assert fitted == whole


@generated(6)
@given(spec=book)
def test_generated_books_turn_the_same_tables_from_the_first_layout(games, spec, monkeypatch):
    turned_first_as_laid_out_whole(games, spec, monkeypatch)


@pytest.mark.slow
@generated(40, shrink=False)
@given(spec=book)
def test_forty_generated_books_turn_the_same_tables_from_the_first_layout(games, spec, monkeypatch):
    turned_first_as_laid_out_whole(games, spec, monkeypatch)


def test_a_table_wider_than_the_page_is_turned_from_the_first_layout(games, monkeypatch):
    """A table given forty words that do not wrap is turned, and the whole book is laid out
    once less than when it is first laid out as it is to tell so; fitted the same."""
    from generator.print import rulebook

    spec = {"lang": "en", "format": "a4", "seed": 3, "lists": {},
            "chapters": [(True, [("p", 40), ("table", 4, 6, 1), ("p", 70), ("h", 2), ("p", 70)]), (False, [("p", 60)])]}
    ctx, layout, html = _too_long_a_line(games, spec, words=40)
    books: list[str] = []
    real = rulebook.render_document
    monkeypatch.setattr(rulebook, "render_document", lambda h, *a, **k: books.append(h) or real(h, *a, **k))

    def fitted() -> tuple[list[str], int]:
        """The decision, and the whole books laid out for it (not the tables apart)."""
        books.clear()
        decision = rulebook._fit(ctx, html, layout.spanning_table)[0]
        return decision, len([h for h in books if "toc-title" in h and bookblocks.UNBALANCED not in h])

    first, laid_first = fitted()
    assert [item for item in first if item.isdigit()] == ["0"], first
    monkeypatch.setattr(rulebook, "_surely_turned", lambda *args: set())
    whole, laid_whole = fitted()
    assert whole == first and laid_whole == laid_first + 1, (laid_first, laid_whole)
