"""The pages of one game in one language: landing page, chapters, glossary, units, cards,
tables, reference and errata; each with navigation, contents and language links."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from markupsafe import Markup

from ..print.cardfaces import all_faces
from ..print.fitting import fitted_faces, printed_parts
from ..print.context import BuildContext
from ..print.reference import probability_tables
from ..diagnostics import Report
from ..text import blocks
from ..text.render import Heading, RenderContext, render_chapter
from ..text.refs import KIND_SECTIONS, printed_by_reference, printed_fields, shown_in, text_references
from .armybuilder import PAGE, builder_page
from .components import map_pages, side_badge
from .counters import counter_headings, counters_page
from .datasheet import card_preview, card_sheet, unit_sheet
from .grids import grid_html, grid_note, grid_title, odds_html
from .links import site_linker
from ..text.editorial import legend_for, mark_if_editors
from .markup import for_search, label_marked_blanks, mark_quotations, scale_preview, scroll_tables


# Page names the site generates itself; a chapter with one of these names gets a prefix.
RESERVED = {"index", "glossary", "units", "cards", "tables", "reference", "errata", "counters", "army-list"}


@dataclass
class SitePage:
    path: str  # relative to the language folder, e.g. "units/mai.html"
    title: str
    body: Markup
    headings: list[Heading] = field(default_factory=list)
    nav: bool = True  # listed in the sidebar
    kind: str = "page"
    title_mark: Markup = Markup("")  # after the page's heading: the editor's-text mark (editorial.py)
    glossary: bool = False  # a chapter that prints the whole glossary

    @property
    def depth(self) -> int:
        return self.path.count("/")

    @property
    def search_kind(self) -> str:
        """What a search result on this page is, for its label: rule, unit, keyword or card."""
        if self.glossary or (self.kind == "chapter" and '<dl class="glossary">' in self.body):
            return "keyword"  # the glossary (a rule chapter that defines a few keywords is still a rule)
        return {"unit": "unit", "units": "unit", "glossary": "keyword", "card": "card", "cards": "card"}.get(
            self.kind, "rule")

    def description(self, game_title: str) -> str:
        """The page's summary for search engines and link previews: its first paragraph of text,
        cut at a word near 160 characters; else its title and the game's."""
        for match in _PARAGRAPH.finditer(self.body):
            text = " ".join(Markup(_TAGS.sub(" ", match.group(1))).unescape().split())
            if len(text) >= 40:
                return text if len(text) <= 160 else text[:157].rsplit(" ", 1)[0] + "…"
        return f"{self.title} — {game_title}"

    def split_title(self) -> tuple[Markup, Markup]:
        """(the chapter's own title, the rest): the contents list goes between them."""
        end = self.body.find("</h1>") if self.kind == "chapter" else -1
        if end < 0:
            return Markup(""), self.body
        return Markup(self.body[:end + 5]), Markup(self.body[end + 5:])


_PARAGRAPH = re.compile(r"<p(?:\s[^>]*)?>(.*?)</p>", re.S)
_TAGS = re.compile(r"<[^>]+>")


def _h(level: int, anchor: str, text: str) -> Heading:
    return Heading(level, anchor, text)


def game_pages(ctx: BuildContext, report: Report) -> list[SitePage]:
    game, tr, ui = ctx.game, ctx.tr, ctx.env.globals["ui"]
    pages: list[SitePage] = []
    # A chapter that prints the whole glossary ({{ list:keywords }}) is the glossary page.
    glossary_chapter = next((_page_name(ch) for ch in ctx.chapters if "keywords" in shown_in([ch])[0]), None)
    overrides = {"keyword": glossary_chapter} if glossary_chapter else {}
    # Sections the chapters print record by record ({{ keyword:ap.definition }}): links go there.
    by_reference = printed_by_reference(game, ctx.chapters)
    overrides.update({f"{kind}:{rid}": _page_name(chapter) for (kind, rid), chapter in text_references(ctx.chapters).items()
                      if KIND_SECTIONS.get(kind) in by_reference})
    chapters = []
    for chapter in ctx.chapters:
        rctx = RenderContext(game, tr, "site", site_linker(0, overrides), ctx.examples, anchored=frozenset(by_reference),
                             printed_texts=frozenset(printed_fields(ctx.game, ctx.chapters)))
        rendered = render_chapter(chapter, rctx)
        chapters.append(rendered)
        pages.append(SitePage(_page_name(chapter), rendered.title, rendered.html,
                              [_named(h, rendered.html) for h in rendered.headings if h.level in (2, 3)],
                              kind="chapter", glossary=_page_name(chapter) == glossary_chapter))
    # A chapter that defines keyword after keyword, at least half of all the chapters define, is
    # the glossary too; a rule chapter defining a few on the way stays a rule.
    defined = {page.path: page.body.count('id="keyword-') for page in pages}
    for page in pages:
        page.glossary = page.glossary or defined[page.path] >= max(3, sum(defined.values()) / 2)
    link0 = site_linker(0, overrides)
    printed_at = blocks.pointers(game, ctx.chapters, {c.chapter.slug: c.title for c in chapters}, _page_name,
                                 by_reference)
    if game.keywords and not glossary_chapter and "keywords" not in by_reference:
        pages.append(SitePage("glossary.html", ui("glossary"), blocks.glossary_html(game, tr, link0, printed_at),
                              kind="glossary"))
    has_cards = game.cards or game.units or game.tables or game.dice
    faces = fitted_faces(ctx, all_faces(ctx), Report()) if has_cards else []  # a page per card
    # previews as the sheets print them (the fitting is remembered: nothing is laid out twice);
    # a card too long even so is reported here
    printed = printed_parts(fitted_faces(ctx, all_faces(ctx), report, split_long=True)) if has_cards else {}
    by_unit = {}
    for face in faces:
        card = game.cards.get(face.id) if face.deck != "datasheets" else None
        unit_id = card.unit if card is not None else (face.id if face.deck == "datasheets" else None)
        if unit_id:
            by_unit.setdefault(unit_id, face)
    if game.units:
        pages.append(SitePage("units.html", ui("units"), blocks.roster_html(game, tr, _unit_pages_linker(link0)),
                              kind="units"))
        link1 = site_linker(1, overrides)
        probs = probability_tables(ctx)
        for unit in game.units.values():
            body = [Markup('<p class="crumb"><a href="../units.html">{}</a></p>').format(ui("units")),
                    unit_sheet(ctx, unit, link1), odds_html(ctx, unit, probs, ui)]
            if unit.id in by_unit:
                face = by_unit[unit.id]
                body.append(scale_preview(card_preview(ctx, printed.get(face.id, [face]), ui("card-preview"))))
            body.insert(1, side_badge(ctx, unit.side))
            body.insert(1, blocks.title_errata(game, tr, unit, link1))
            pages.append(SitePage(f"units/{unit.id}.html", tr.field(unit, "name"), Markup("").join(body),
                                  nav=False, kind="unit", title_mark=mark_if_editors(unit, "name", tr)))
    deck_faces = [f for f in faces if f.deck not in ("datasheets",)]
    if deck_faces:
        items = []
        for deck_id in dict.fromkeys(f.deck for f in deck_faces):
            deck_cards = [f for f in deck_faces if f.deck == deck_id]
            deck = game.decks.get(deck_id)
            anchor = f"deck-{deck_id}"
            name = tr.field(deck, "name") if deck else deck_cards[0].deck_name
            links = Markup("").join(Markup('<li><a href="cards/{}.html">{}</a>{}{}</li>').format(
                f.id, f.title, f.title_mark, Markup(' <span class="draft">{}</span>').format(ui("draft")) if f.draft else "")
                for f in deck_cards)
            items.append(Markup('<section id="{}"><h2>{}</h2><ul class="card-list">{}</ul></section>').format(
                anchor, name, links))
        pages.append(SitePage("cards.html", ui("cards"), Markup("").join(items), kind="cards",
                              headings=[_h(2, f"deck-{d}", (tr.field(game.decks[d], "name") if d in game.decks
                                                             else ui("reference")))
                                        for d in dict.fromkeys(f.deck for f in deck_faces)]))
        for face in deck_faces:
            body = [Markup('<p class="crumb"><a href="../cards.html#deck-{}">{}</a></p>').format(face.deck, face.deck_name),
                    blocks.title_errata(game, tr, game.cards.get(face.id), site_linker(1, overrides)),
                    side_badge(ctx, getattr(game.cards.get(face.id), "side", None))]
            if face.draft:
                body.append(Markup('<p class="draft-reason"><span class="draft">{}</span> {}</p>').format(
                    ui("draft"), face.draft))
            if face.fallback:  # some of the card's words print in the source language: the page says so
                body.append(Markup('<p class="fallback-note" role="note">{}</p>').format(ui("fallback-note")))
            preview = scale_preview(card_preview(ctx, printed.get(face.id, [face]), ui("card-preview")))
            body += [card_sheet(ctx, face, site_linker(1, overrides)), preview]
            pages.append(SitePage(f"cards/{face.id}.html", face.title, Markup("").join(body), nav=False, kind="card",
                                  title_mark=face.title_mark))
    probs = probability_tables(ctx)
    if game.tables or probs:
        html = [blocks.table_html(t, tr) for t in game.tables.values()]
        for table in probs:
            html.append(grid_html(table, ctx.lang, grid_note(ctx, table), ui, ctx))
        heads = [_h(2, f"table-{t.id}", tr.field(t, "name")) for t in game.tables.values()]
        heads += [_h(2, f"prob-{t.get('table', '')}", grid_title(t, ctx.lang)) for t in probs]
        pages.append(SitePage("tables.html", ui("tables"), Markup("").join(html), heads, kind="tables"))
    ref_sections = [s for s in ("dice", "actions", "terrain", "bands", "rules") if game.section(s)]
    if ref_sections or game.manifest.parameters:
        html, heads = [], []
        for section in ref_sections:
            html.append(Markup('<h2 id="section-{}">{}</h2>').format(section, ui(section)))
            html.append(blocks.records_html(game, section, tr, link0, printed_at))
            heads.append(_h(2, f"section-{section}", ui(section)))
        if game.manifest.parameters:
            html.append(Markup('<h2 id="section-parameters">{}</h2>{}')
                        .format(ui("parameters"), blocks.parameters_html(game, tr, row_heads=True)))
            heads.append(_h(2, "section-parameters", ui("parameters")))
        pages.append(SitePage("reference.html", ui("reference"), Markup("").join(html), heads, kind="reference"))
    if game.errata:
        # the source quotes the source text in its language; summary and reading are translated
        src = game.manifest.source_language
        rows = Markup("").join(Markup('<tr id="erratum-{}"><td>{}</td><td lang="{}">{}</td><td lang="{}">{}</td></tr>')
                               .format(e.id, tr.field(e, "summary"), src, e.source or "–",
                                       *blocks.erratum_reading(tr, e))
                               for e in game.errata.values())
        body = Markup('<table class="data-table"><thead><tr><th scope="col">{}</th><th scope="col">{}</th>'
                      '<th scope="col">{}</th></tr></thead><tbody>{}</tbody></table>').format(
            ui("errata"), ui("source"), ui("reading"), rows)
        pages.append(SitePage("errata.html", ui("errata"), body, kind="errata"))
    for roster in list(game.section("rosters").values())[:1]:  # a page per game: its (first) roster
        pages.append(SitePage(PAGE, ui("army-builder"), builder_page(ctx, roster, "../../"), kind="army-list"))
    counters = counters_page(ctx)
    if counters is not None:
        pages.append(SitePage("counters.html", ui("counters"), counters,
                              [_h(2, anchor, title) for anchor, title in counter_headings(ctx)], kind="counters"))
    for path, title, body in map_pages(ctx):
        pages.append(SitePage(path, title, body, kind="map"))
    pages.insert(0, landing_page(ctx, chapters, pages))
    for page in pages:
        page.body = finish(page.body, ctx, ui("table"), page.title_mark)
    return pages


def finish(body: Markup, ctx: BuildContext, label: str, title_mark: Markup = Markup("")) -> Markup:
    """Tables become scroll regions, marked blanks (?‡) say what they stand for and
    source-language quotations get their lang; a page that shows the editor's-text mark
    says what it means; the card preview is left as printed."""
    start = body.find('<div class="card-preview"')
    head, preview = (body, "") if start < 0 else (body[:start], body[start:])
    head = Markup(head) + legend_for(title_mark + Markup(head), ctx.tr)
    head = scroll_tables(head, label)
    head = label_marked_blanks(head, ctx.lang)
    head = mark_quotations(head, ctx.game.manifest.source_language, ctx.lang)
    return for_search(head) + Markup(preview)


_BARE_NUMBER = re.compile(r"^[\d.]+$")


def _named(heading: Heading, html: str) -> Heading:
    """A heading that is only a section number ("5.3.1") is listed in the contents with the
    opening words of its section, so the list says what each section is about."""
    if not _BARE_NUMBER.match(heading.text.strip()):
        return heading
    start = html.find(f'id="{heading.id}"')
    following = html[start:start + 2000].split("</h", 1)[-1]
    following = re.sub(r"<p class=\"example-label\">.*?</p>", " ", following, flags=re.S)
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", following.split(">", 1)[-1])).split()
    words = [w for w in words if not w.startswith("&")][:7]
    if not words:
        return heading
    return Heading(heading.level, heading.id, f"{heading.text.strip()} — {Markup(' '.join(words)).unescape()}…")


def _page_name(chapter) -> str:
    name = f"rules-{chapter.slug}" if chapter.slug in RESERVED else chapter.slug
    return f"{name}.html"


def _unit_pages_linker(link):
    def inner(record):
        return link(record)
    return inner


def landing_page(ctx: BuildContext, chapters, pages: list[SitePage]) -> SitePage:
    game, tr, ui = ctx.game, ctx.tr, ctx.env.globals["ui"]
    body = []
    if game.manifest.summary:
        body.append(Markup('<p class="lead">{}{}</p>').format(tr.manifest("summary"),
                                                              mark_if_editors(game.manifest, "summary", tr)))
    items = Markup("").join(Markup('<li><a href="{}">{}</a></li>').format(p.path, p.title)
                            for p in pages if p.nav)
    body.append(Markup('<h2 id="contents">{}</h2><ol class="chapter-list">{}</ol>').format(ui("contents"), items))
    downloads = [(kind, f"downloads/{kind}.pdf") for kind in ("rulebook", "cards", "reference", "counters", "maps",
                                                              "maps-large")
                 if (ctx.output_dir() / f"{kind}.pdf").exists()]
    if downloads:
        links = Markup("").join(Markup('<li><a href="{}" download>{} (PDF)</a></li>').format(path, ui(kind))
                                for kind, path in downloads)
        body.append(Markup('<h2 id="downloads">{}</h2><ul class="downloads">{}</ul>').format(ui("downloads"), links))
    if game.manifest.components:
        comps = Markup("").join(Markup("<li>{}{}{}</li>").format(
            tr.manifest("components", i, "name"), f" × {c.count}" if c.count else "", mark_if_editors(c, "name", tr))
            for i, c in enumerate(game.manifest.components))
        body.append(Markup('<h2 id="components">{}</h2><ul>{}</ul>').format(ui("components"), comps))
    heads = [_h(2, "contents", ui("contents"))] + ([_h(2, "downloads", ui("downloads"))] if downloads else [])
    return SitePage("index.html", ctx.title, Markup("").join(body), heads, kind="landing")


def site_manifest(pages: list[SitePage]) -> str:
    return json.dumps([p.path for p in pages])
