"""The rulebook: cover, contents with page numbers, chapters, and a reference appendix
generated from the data for whatever the chapters do not already show."""

from __future__ import annotations

import re
from dataclasses import dataclass

from markupsafe import Markup

from ..text import blocks
from ..text.editorial import mark_if_editors
from ..text.legend import legend_for
from ..text.refs import printed_by_reference, printed_fields, shown_in
from ..text.render import RenderContext, render_chapter, verified_mark
from . import notes as unstated
from .decisions import decided, strings
from .bookpages import book_layout, page_css
from .pdf import render_document
from .context import BuildContext, print_linker, section_mark

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
    return {f"{r.kind}-{r.id}" for section in (*APPENDIX_SECTIONS, "errata") for r in ctx.game.section(section).values()}


def rulebook_html(ctx: BuildContext, paper: str = "a4", notes: bool = True) -> str:
    """The book's HTML, fitted to its paper: a table wider than its column spans the page's
    columns, one wider than the page is laid out on a landscape page (turned onto a portrait
    one when the PDF is finished: bookpages.py), and a note on a value the source does not
    give (‡) that a page already prints is not printed on it again (decided by laying the book
    out, remembered while its HTML stays the same: see decisions.py). `notes=False` leaves the
    rules' notes out (and the headings they alone filled)."""
    html = book_html(ctx, paper, notes)
    layout = book_layout(ctx.roots, paper)
    spanning = layout.spanning_table if layout.columns > 1 else 0
    decision = decided(ctx, f"rulebook-{paper}", html, lambda: _fit(ctx, html, spanning),
                       lambda d: strings(d) and all(_DECIDED.fullmatch(item) for item in d))
    return _fitted(html, decision)


# A decision names the tables spanning the columns ("span-3"), the tables printed landscape
# ("3") and the notes left out ("note-12").
_DECIDED = re.compile(r"(span-)?\d+|note-\d+")


def _fit(ctx: BuildContext, html: str, spanning: int) -> tuple[list[str], set]:
    """The tables too wide for their column or page, the notes a page repeats, and the files
    the layout read. In columns (`spanning` > 0), a table too wide for its column or of
    `spanning` columns or more spans the page's columns. The layout of the fitted book is
    kept for write_pdf."""
    render = lambda h: render_document(h, ctx.game.folder, ctx.roots, keep=True)  # noqa: E731
    document, fetcher = render(html)
    decision: list[str] = []
    wide = _wide_tables(document, spanning)
    if wide and spanning:  # first across the columns; what is still too wide turns
        decision = [f"span-{n}" for n in sorted(wide, key=int)]
        document = render(_fitted(html, decision))[0]
        wide = _wide_tables(document, 0)
    if wide:
        decision += sorted(wide, key=int)
        document = render(_fitted(html, decision))[0]
    repeats = unstated.settle(document, _fitted(html, decision), lambda h: render(h)[0])
    return decision + [f"note-{n}" for n in sorted(repeats, key=int)], fetcher.read


def _fitted(html: str, decision: list[str]) -> str:
    spans = {item.removeprefix("span-") for item in decision if item.startswith("span-")}
    wide = {item for item in decision if item.isdigit()}
    left_out = {item.removeprefix("note-") for item in decision if item.startswith("note-")}
    if wide:
        html = _TABLE.sub(lambda m: m.group(0) + (' data-landscape' if m.group(1) in wide else ""), html)
    for number in spans:
        html = _spanning(html, number, number in wide)
    return unstated.left_out(html, left_out)


def _spanning(html: str, number: str, turned: bool = False) -> str:
    """The block of its chapter that holds the table `number` (the table, or a rule around
    it), inside a block that spans the page's columns: WeasyPrint spans a block that is a
    child of the columns, not a table nor anything deeper. A `turned` table (on a landscape
    page of its own) leaves the columns: the chapter's section closes before it and goes on
    after it, as WeasyPrint does not change pages inside columns."""
    start = html.find(f'<table data-table="{number}"')
    chapter = html.rfind('<section class="chapter', 0, start)
    if start < 0 or chapter < 0:
        return html
    open_: list[int] = []  # where each element still open before the table starts
    for tag in _TAG.finditer(html, html.index(">", chapter) + 1, start):
        if tag.group(2).lower() in _VOID or tag.group(0).endswith("/>"):
            continue
        if tag.group(1):
            if open_:
                open_.pop()
        else:
            open_.append(tag.start())
    block = open_[0] if open_ else start
    depth, end = 0, len(html)
    for tag in _TAG.finditer(html, block):
        if tag.group(2).lower() in _VOID or tag.group(0).endswith("/>"):
            continue
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            end = tag.end()
            break
    if turned:
        return f'{html[:block]}</section><div class="turned">{html[block:end]}</div><section class="chapter continued">{html[end:]}'
    return f'{html[:block]}<div class="span-columns">{html[block:end]}</div>{html[end:]}'


_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>")
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})


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


def book_html(ctx: BuildContext, paper: str = "a4", notes: bool = True) -> str:
    link = print_linker(anchors(ctx))
    render_ctx = RenderContext(ctx.game, ctx.tr, "print", link, ctx.examples, notes=notes,
                               anchored=frozenset(printed_by_reference(ctx.game, ctx.chapters)),
                               printed_texts=frozenset(printed_fields(ctx.game, ctx.chapters)))
    chapters = [render_chapter(ch, render_ctx, id_prefix=f"{ch.slug}--") for ch in ctx.chapters]
    chapters = [ch for ch in chapters if ch.headings]  # a chapter that held only notes, without them
    blocks_ = appendix(ctx, link, {ch.chapter.slug: ch.title for ch in chapters})
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
        page_css=Markup(page_css(book_layout(ctx.roots, paper))),
        css=Markup(ctx.css("rulebook.css")),
        verified_mark=Markup(verified_mark(ctx.tr.ui("verified"))) if any(ctx.examples.values()) else "",
        editor_legend=legend_for(Markup("").join([mark_if_editors(ctx.game.manifest, "summary", ctx.tr),
                                                  *(ch.html for ch in chapters), *(b.html for b in blocks_)]), ctx.tr),
    )
    count = iter(range(1_000_000))
    return unstated.numbered(re.sub(r"<table(?=[\s>])", lambda m: f'<table data-table="{next(count)}"', html))
