"""The rulebook: cover, contents with page numbers, chapters, and a reference appendix
generated from the data for whatever the chapters do not already show."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import Markup, escape

from ..model.printing import BookLayout
from ..text import blocks
from ..text.editorial import mark_if_editors
from ..text.legend import legend_for
from ..text.numbering import game_numbering
from ..text.refs import printed_by_reference, printed_fields, shown_in
from ..text.render import RenderContext, render_chapter, titles, verified_mark
from . import bookblocks
from . import notes as unstated, widthprobe
from .decisions import decided, strings
from .bookpages import book_layout, page_css
from .pdf import render_document
from .context import BuildContext, print_linker, section_mark
from .living import mark_html, marked_html, version_mark

# Sections a reader looks things up in, in appendix order.
APPENDIX_SECTIONS = ("keywords", "units", "tables", "dice", "actions", "terrain", "bands", "rules")
PAPER = {"a4": "A4", "a5": "A5", "letter": "letter"}


@dataclass
class AppendixBlock:
    id: str
    title: str
    html: Markup
    src: str = ""


def appendix(ctx: BuildContext, link, titles_by_slug: dict[str, str] | None = None) -> list[AppendixBlock]:
    sections, tables = shown_in(ctx.chapters)
    sections |= printed_by_reference(ctx.game, ctx.chapters)
    game, tr = ctx.game, ctx.tr
    printed_at = blocks.pointers(game, ctx.chapters, titles_by_slug or {}, page_word=tr.ui("page-short"))
    out = []
    titles = {"keywords": "glossary", "units": "units", "tables": "tables", "dice": "dice", "actions": "actions",
              "terrain": "terrain", "bands": "bands", "rules": "rules"}
    for section in APPENDIX_SECTIONS:
        records = game.section(section)
        if not records or section in sections:
            continue
        if section == "tables":
            html = Markup("").join(blocks.table_html(t, tr) for t in records.values() if t.id not in tables)
            if not html:
                continue
        else:
            html = blocks.records_html(game, section, tr, link, printed_at)
        out.append(AppendixBlock(f"appendix-{section}", ctx.env.globals["ui"](titles[section]), html,
                                 section_mark(game, section)))
    if game.errata:
        out.append(AppendixBlock("appendix-errata", tr.ui("errata-appendix"), errata_html(ctx),
                                 section_mark(game, "errata")))
    return out


def errata_html(ctx: BuildContext) -> Markup:
    """Every erratum: its summary, what the source writes and how this edition reads it, each
    anchored `erratum-ID` so marks elsewhere in the book can point at it."""
    game, tr = ctx.game, ctx.tr
    source_lang = game.manifest.source_language
    out = [Markup('<p class="errata-intro">{}</p><dl class="errata">').format(tr.ui("errata-intro"))]
    for erratum in game.errata.values():
        # summary and reading are translated; the source is a quote in the source language
        # (as on the site's errata page); a source that writes nothing shows a dash
        quoted = [Markup('<p><span class="erratum-label">{}:</span> <span lang="{}">{}</span></p>').format(
                      tr.ui("source"), source_lang, erratum.source or "–"),
                  Markup('<p><span class="erratum-label">{}:</span> <span lang="{}">{}</span></p>').format(
                      tr.ui("reading"), *blocks.erratum_reading(tr, erratum))]
        # the anchor is for links only: an id is a name of the content's, not the reader's
        out.append(Markup('<dt id="{}">{}</dt><dd>{}</dd>').format(
            blocks.anchor(erratum), tr.field(erratum, "summary"), Markup("").join(quoted)))
    out.append(Markup("</dl>"))
    return Markup("").join(out)


def anchors(ctx: BuildContext) -> set[str]:
    """The records' anchors the book holds, and its numbered cases' (`case-5.3.1`)."""
    return ({f"{r.kind}-{r.id}" for section in (*APPENDIX_SECTIONS, "errata") for r in ctx.game.section(section).values()}
            | {case.anchor for case in game_numbering(ctx.game).cases()})


def rulebook_html(ctx: BuildContext, paper: str = "a4", notes: bool = True, layout: BookLayout | None = None,
                  since=None) -> str:
    """The book's HTML, fitted to its paper: a table wider than its column spans the page's
    columns, one wider than the page is laid out on a landscape page (turned onto a portrait
    one when the PDF is finished: bookpages.py), and a note on a value the source does not
    give (‡) that a page already prints is not printed on it again (decided by laying the book
    out, remembered while its HTML stays the same: see decisions.py). `notes=False` leaves the
    rules' notes out (and the headings they alone filled). `layout`: the pages' layout, if
    not the one print.yaml sets for `paper`. `since` (living.Since, `build --changes-since`):
    what changed is marked for its change bar and the legend says what a bar means."""
    layout = layout or book_layout(ctx.roots, paper)
    html = book_html(ctx, paper, notes, layout, since)
    spanning = layout.spanning_table if layout.columns > 1 else 0
    decision = decided(ctx, f"rulebook-{paper}", html, lambda: _fit(ctx, html, spanning),
                       lambda d: strings(d) and all(_DECIDED.fullmatch(item) for item in d))
    return _fitted(html, decision)


# A decision names the tables spanning the columns ("span-3"), the tables printed landscape
# ("3"), where a turned table goes ("3@41": before the chapters' block 41) and the notes left
# out ("note-12").
_DECIDED = re.compile(r"(span-)?\d+|\d+@\d+|note-\d+")


def _fit(ctx: BuildContext, html: str, spanning: int) -> tuple[list[str], set]:
    """The tables too wide for their column or page, the notes a page repeats, and the files
    the layout read. In columns (`spanning` > 0), a table too wide for its column or of
    `spanning` columns or more spans the page's columns; a table turned on pages of its own
    goes where the page of the text before it ends. The layout of the fitted book is kept
    for write_pdf."""
    render = lambda h: render_document(h, ctx.game.folder, ctx.roots, keep=True)  # noqa: E731
    spans = _crowded(ctx, html, spanning) if spanning else set()
    decision = [f"span-{n}" for n in sorted(spans, key=int)]  # first across the columns; what is still too wide turns
    guess = unstated.expected(html)  # the notes a page most likely repeats, left out of the first layout
    turned = _surely_turned(ctx, html, spans) if spans else set()
    if turned and not _holding_tables(html, turned):  # turned from the first layout: the book as it is not needed
        done = _turned_first(ctx, html, spanning, decision, turned, guess)
        if done is not None:
            return done
    document, fetcher = render(_fitted(html, decision + _notes(guess)))
    if spanning and _wide_tables(document, spanning) - spans:  # one the tables apart did not tell
        return _fit_whole(ctx, html, spanning)
    wide = _wide_tables(document, 0) if spans or not spanning else set()
    return _placed(ctx, html, decision, wide, document, fetcher, guess)


def _notes(numbers) -> list[str]:
    """The decision's items that leave these notes out."""
    return [f"note-{n}" for n in sorted(numbers, key=int)]


def _crowded(ctx: BuildContext, html: str, spanning: int) -> set[str]:
    """The tables of `spanning` columns or more (counted in the HTML), and those too wide for
    their column, from a layout of the blocks that hold the other tables only
    (bookblocks.tables_apart), not of the whole book."""
    many = {n for n, count in bookblocks.columns(html).items() if count >= spanning}
    apart = bookblocks.tables_apart(html, many)
    if apart is None:
        return many
    return many | _wide_tables(render_document(apart, ctx.game.folder, ctx.roots)[0], spanning)


def _surely_turned(ctx: BuildContext, html: str, spans: set[str]) -> set[str]:
    """The tables that span the columns (`spans`) and are wider than the page even cut to
    their widest rows (widthprobe.py): fewer rows never make a table wider, so each is turned
    (a table the cut misses is found by the book's layout, as before)."""
    others = set(bookblocks.columns(bookblocks.without_tables(html, spans)))
    apart = bookblocks.tables_apart(widthprobe.cut(html, spans), others)
    if apart is None:
        return set()
    document = render_document(apart, ctx.game.folder, ctx.roots)[0]
    return {n for n, width, page in _table_widths(document) if n in spans and width > page + 1}


def _holding_tables(html: str, numbers: set[str]) -> bool:
    """Whether a table numbered in `numbers` holds another numbered table: the book laid out
    as it is tells that one wider than the page too, where its table leaves it (to be turned
    with it), which a layout with its table turned does not."""
    for number in numbers:
        start = html.find(f'<table data-table="{number}"')
        if start >= 0 and '<table data-table="' in html[start + 1:widthprobe.element_end(html, start)]:
            return True
    return False


def _table_widths(document):
    """(number, width, the page's width) of each numbered table laid out in `document`."""
    for page in document.pages:
        for box, _parent in _walk(page._page_box, None):
            element = getattr(box, "element", None)
            if element is not None and box.element_tag == "table" and element.get("data-table"):
                yield element.get("data-table"), box.margin_width(), page._page_box.width


def _turned_first(ctx: BuildContext, html: str, spanning: int, decision: list[str], turned: set[str],
                  guess: frozenset[str]) -> tuple[list[str], set] | None:
    """`_fit` with the tables of `turned` turned from the first layout (`_placed`); None where
    that layout shows another table too wide for its column or the page than the decision
    says (`_fit` then lays the book out as it is)."""
    spans = {item.removeprefix("span-") for item in decision}
    return _placed(ctx, html, decision, turned, None, None, guess,
                   accept=lambda document: not (_wide_tables(document, spanning) - spans
                                                or _wide_tables(document, 0) - turned))


def _fit_whole(ctx: BuildContext, html: str, spanning: int) -> tuple[list[str], set]:
    """`_fit` from a layout of the whole book: the tables too wide for their column, then
    those still too wide for the page."""
    render = lambda h: render_document(h, ctx.game.folder, ctx.roots, keep=True)  # noqa: E731
    guess = unstated.expected(html)
    document, fetcher = render(_fitted(html, _notes(guess)))
    decision: list[str] = []
    wide = _wide_tables(document, spanning)
    if wide and spanning:
        decision = [f"span-{n}" for n in sorted(wide, key=int)]
        document = render(_fitted(html, decision + _notes(guess)))[0]
        wide = _wide_tables(document, 0)
    return _placed(ctx, html, decision, wide, document, fetcher, guess)


def _placed(ctx: BuildContext, html: str, decision: list[str], wide: set[str], document, fetcher,
            guess: frozenset[str] = frozenset(), accept: Callable[[object], bool] | None = None
            ) -> tuple[list[str], set] | None:
    """The decision with the tables too wide for the page (`wide`, in `document`, the book
    laid out as `decision` says without the notes of `guess`; None when not laid out) turned
    and placed, and the notes a page repeats left out. `accept(layout)`, on the book laid out
    with them turned: None where it refuses it."""
    render = lambda h: render_document(h, ctx.game.folder, ctx.roots, keep=True)  # noqa: E731
    if wide:
        decision = decision + sorted(wide, key=int)
        decision += _floated(html, decision, sorted(wide, key=int), lambda h: render(h)[0])
        document, fetcher = render(_fitted(html, decision + _notes(guess)))
        if accept is not None and not accept(document):
            return None
    repeats = unstated.settle(document, _fitted(html, decision), lambda h: render(h)[0], guess)
    return decision + _notes(repeats), fetcher.read


def _floated(html: str, decision: list[str], turned: list[str], render) -> list[str]:
    """Where each turned table goes ("N@J"): the book laid out without its block tells
    where the page of the text before it ends."""
    placed = []
    for number in turned:
        k = bookblocks.holding(html, number)
        if k is None:
            continue
        others = [item for item in decision if item not in (number, f"span-{number}")]
        layout = render(_fitted(bookblocks.without(bookblocks.numbered(html), k), others))
        place = bookblocks.float_place(layout, k)
        if place is not None:
            placed.append(f"{number}@{place}")
    return placed


def _fitted(html: str, decision: list[str]) -> str:
    moves = dict(bookblocks.TURNED_AFTER.fullmatch(item).groups() for item in decision
                 if bookblocks.TURNED_AFTER.fullmatch(item))
    spans = {item.removeprefix("span-") for item in decision if item.startswith("span-")}
    wide = {item for item in decision if item.isdigit()} | set(moves)
    left_out = {item.removeprefix("note-") for item in decision if item.startswith("note-")}
    # the latest first: moving a block changes the numbers of the blocks after it only
    for number, before in sorted(moves.items(), key=lambda item: -(bookblocks.holding(html, item[0]) or 0)):
        html = bookblocks.turning(html, number, int(before))
    for number in sorted(spans - set(moves), key=int):
        html = bookblocks.turning(html, number) if number in wide else bookblocks.spanning(html, number)
    if wide:
        html = _TABLE.sub(lambda m: m.group(0) + (' data-landscape' if m.group(1) in wide else ""), html)
    return unstated.left_out(html, left_out)


_TABLE = re.compile(r'<table data-table="(\d+)"')


def _wide_tables(document, spanning: int = 0) -> set[str]:
    """Numbers of the tables that reach past the page's right margin, and with `spanning`
    (in columns), those that reach past the right of their column or have `spanning` columns
    or more (too narrow in a column to read)."""
    found = set()
    for page in document.pages:
        right = page._page_box.content_box_x() + page._page_box.width
        for box, parent in _walk(page._page_box, None):
            element = getattr(box, "element", None)
            if element is None or box.element_tag != "table" or not element.get("data-table"):
                continue
            end = box.position_x + box.margin_width()
            crowded = spanning and (len(getattr(box, "column_widths", None) or ()) >= spanning or (
                parent is not None and end > parent.content_box_x() + parent.width + 1))
            if end > right + 1 or crowded:
                found.add(element.get("data-table"))
    return found


def _walk(box, parent):
    yield box, parent
    for child in getattr(box, "children", ()) or ():
        yield from _walk(child, box)


# a chapter whose heading asks for a new page: `{.new-page}` on the line before it
_NEW_PAGE = re.compile(r'\s*<h1\b[^>]*\bclass="[^"]*\bnew-page\b')


def book_html(ctx: BuildContext, paper: str = "a4", notes: bool = True, layout: BookLayout | None = None,
              since=None) -> str:
    link = print_linker(anchors(ctx))
    render_ctx = RenderContext(ctx.game, ctx.tr, "print", link, ctx.examples, notes=notes,
                               anchored=frozenset(printed_by_reference(ctx.game, ctx.chapters)),
                               printed_texts=frozenset(printed_fields(ctx.game, ctx.chapters)))
    chapters = [render_chapter(ch, render_ctx, id_prefix=f"{ch.slug}--") for ch in ctx.chapters]
    chapters = [ch for ch in chapters if ch.headings]  # a chapter that held only notes, without them
    blocks_ = appendix(ctx, link, titles(chapters))
    template = ctx.env.get_template("rulebook.html.j2")
    html = template.render(
        title=ctx.title,
        game=ctx.game,
        authors=ctx.authors,
        summary=Markup("{}{}").format(ctx.tr.manifest("summary"), mark_if_editors(ctx.game.manifest, "summary", ctx.tr))
        if ctx.game.manifest.summary else "",
        chapters=chapters,
        new_page=[bool(_NEW_PAGE.match(str(ch.html))) for ch in chapters],
        appendix=blocks_,
        paper=PAPER[paper],
        page_css=Markup(page_css(layout or book_layout(ctx.roots, paper))),
        css=Markup(ctx.css("rulebook.css")),
        verified_mark=Markup(verified_mark(ctx.tr.ui("verified"))) if any(ctx.examples.values()) else "",
        editor_legend=legend_for(Markup("").join([mark_if_editors(ctx.game.manifest, "summary", ctx.tr),
                                                  *(ch.html for ch in chapters), *(b.html for b in blocks_)]), ctx.tr),
        changes_legend=changes_legend(ctx, since) if since is not None else "",
    )
    if since is not None:
        html = marked_html(html, since.sources, since.anchors(ctx.game))
    count = iter(range(1_000_000))
    return unstated.numbered(re.sub(r"<table(?=[\s>])", lambda m: f'<table data-table="{next(count)}"', html))


def changes_legend(ctx: BuildContext, since) -> Markup:
    """The legend of a book with change bars: what a bar marks, and the mark a changed card or
    counter carries."""
    def line(key: str, **marks: Markup) -> Markup:
        words = str(escape(ctx.tr.ui(key)))
        for name, mark in {"version": escape(since.old_version), **marks}.items():
            words = words.replace("{" + name + "}", str(mark))
        return Markup('<p class="mark-legend change-legend">{}</p>').format(Markup(words))

    return line("change-bar-legend", bar=Markup('<span class="change-sample"></span>')) + \
        line("version-mark-legend", mark=mark_html(version_mark(ctx)))
