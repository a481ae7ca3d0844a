"""The pages of one game in one language: landing page, chapters, glossary, units, cards,
tables, reference and errata; each with navigation, contents and language links.

`game_pages` makes them; PAGE_KINDS lists the pages after the chapters in the sidebar's order,
one function per kind: a new kind of page is one function added there."""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from ..print.cardfaces import all_faces
from ..print.fitting import fitted_both, printed_parts
from ..print.context import BuildContext
from ..print.reference import probability_tables
from ..core.diagnostics import Report
from ..i18n.translate import Translator
from ..text import blocks
from ..text.numbering import game_numbering
from ..text.render import Heading, RenderContext, render_chapter, slugify, titles
from ..text.refs import KIND_SECTIONS, printed_by_reference, printed_fields, shown_in, text_references
from . import changes as changed
from .armybuilder import PAGE, builder_page
from .components import map_pages, side_badge
from .counters import counter_headings, counters_page
from .datasheet import card_preview, card_sheet, unit_sheet
from .grids import grid_html, grid_note, grid_title, odds_html
from .links import site_linker
from ..text.editorial import legend_for, mark_if_editors
from .markup import for_search, label_marked_blanks, mark_quotations, scale_preview, scroll_tables


# Page names the site generates itself; a chapter with one of these names gets a prefix.
RESERVED = {"index", "glossary", "units", "cards", "tables", "reference", "errata", "counters", "army-list", "changes"}


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


@dataclass
class _GameSite:
    """What the pages of one game in one language are made with: the build context, where links
    to a record go (`overrides`, see links.record_path), what the chapters print themselves, and
    the cards as the sheets print them."""

    ctx: BuildContext
    overrides: dict[str, str]
    by_reference: set[str]  # sections the chapters print record by record
    glossary_chapter: str | None  # the chapter page that prints the whole glossary
    probs: list[dict]  # the checker's probability tables
    printed_at: dict = field(default_factory=dict)  # record text -> the chapter paragraph printing it
    faces: list = field(default_factory=list)  # a page per card
    names: dict = field(default_factory=dict)  # chapter file -> its page in this edition (chapter_pages)
    printed: dict = field(default_factory=dict)  # card id -> its faces as the sheets print them

    @classmethod
    def of(cls, ctx: BuildContext) -> "_GameSite":
        """The game's links: a chapter that prints the whole glossary ({{ list:keywords }}) is
        the glossary page; a record whose section the chapters print record by record
        ({{ keyword:ap.definition }}) is linked to the chapter that prints it."""
        names = chapter_pages(ctx.chapters, ctx.tr)
        glossary_chapter = next((names[ch.path] for ch in ctx.chapters if "keywords" in shown_in([ch])[0]), None)
        overrides = {"keyword": glossary_chapter} if glossary_chapter else {}
        by_reference = printed_by_reference(ctx.game, ctx.chapters)
        overrides.update({f"{kind}:{rid}": names[chapter.path]
                          for (kind, rid), chapter in text_references(ctx.chapters).items()
                          if KIND_SECTIONS.get(kind) in by_reference})
        overrides.update({f"roster:{roster.id}": PAGE for roster in _built_rosters(ctx.game)})
        overrides.update({f"case:{case.id}": names[case.chapter] for case in game_numbering(ctx.game).cases()
                          if case.chapter in names})
        return cls(ctx, overrides, by_reference, glossary_chapter, probability_tables(ctx), names=names)

    @property
    def game(self):
        """The game the pages show."""
        return self.ctx.game

    @property
    def tr(self):
        """The game's words in the page's language."""
        return self.ctx.tr

    @property
    def ui(self):
        """The site's own words in the page's language: ui(key)."""
        return self.ctx.env.globals["ui"]

    def link(self, depth: int):
        """A linker for a page `depth` folders below the language folder."""
        return site_linker(depth, self.overrides)

    def card_preview(self, face) -> Markup:
        """The card as the sheets print it (on two cards if it continues), scaled for the page."""
        return scale_preview(card_preview(self.ctx, self.printed.get(face.id, [face]), self.ui("card-preview")))


def game_pages(ctx: BuildContext, report: Report, changes: bool = False) -> list[SitePage]:
    """Every page of one game in one language, in the sidebar's order: the chapters, the
    glossary, then a page (or pages) per kind of record (PAGE_KINDS); the landing page first.
    A card too long to fit even at the minimum text size is reported in `report`. With
    `changes` (build --changes-since) also the page of what changed, linked from the landing page."""
    site = _GameSite.of(ctx)
    chapters = _rendered_chapters(site)
    pages = [_chapter_page(site, rendered) for rendered in chapters]
    _mark_glossaries(pages)
    site.printed_at = blocks.pointers(site.game, ctx.chapters, titles(chapters),
                                      lambda chapter: site.names[chapter.path], site.by_reference)
    pages += _glossary_pages(site)
    site.faces, site.printed = _card_faces(ctx, report)
    for kind in PAGE_KINDS:
        pages += kind(site)
    news = _changes_page(site, chapters) if changes else None
    pages.insert(0, landing_page(ctx, chapters, pages, news))
    pages += [news] if news else []
    for page in pages:
        page.body = finish(page.body, ctx, site.ui("table"), page.title_mark)
    return pages


def _rendered_chapters(site: _GameSite) -> list:
    """Each chapter rendered for the site, its links going to the site's pages."""
    ctx = site.ctx
    printed_texts = frozenset(printed_fields(ctx.game, ctx.chapters))
    return [render_chapter(chapter, RenderContext(ctx.game, ctx.tr, "site", site.link(0), ctx.examples,
                                                  anchored=frozenset(site.by_reference), printed_texts=printed_texts))
            for chapter in ctx.chapters]


def _chapter_page(site: _GameSite, rendered) -> SitePage:
    """A chapter's page, its contents listing the chapter's sections and subsections."""
    name = site.names[rendered.chapter.path]
    return SitePage(name, rendered.title, rendered.html,
                    [_named(h, rendered.html) for h in rendered.headings if h.level in (2, 3)],
                    kind="chapter", glossary=name == site.glossary_chapter)


def _mark_glossaries(pages: list[SitePage]) -> None:
    """A chapter that defines keyword after keyword, at least half of all the chapters define,
    is the glossary too; a rule chapter defining a few on the way stays a rule."""
    defined = {page.path: page.body.count('id="keyword-') for page in pages}
    for page in pages:
        page.glossary = page.glossary or defined[page.path] >= max(3, sum(defined.values()) / 2)


def _glossary_pages(site: _GameSite) -> list[SitePage]:
    """glossary.html, unless a chapter prints the whole glossary or its keywords one by one."""
    game = site.game
    if not game.keywords or site.glossary_chapter or "keywords" in site.by_reference:
        return []
    return [SitePage("glossary.html", site.ui("glossary"),
                     blocks.glossary_html(game, site.tr, site.link(0), site.printed_at), kind="glossary")]


def _card_faces(ctx: BuildContext, report: Report) -> tuple[list, dict]:
    """(the faces, a page per card; card id -> its faces as the sheets print them). The fitting
    is remembered, so nothing is laid out twice; a card too long even so is reported here."""
    game = ctx.game
    if not (game.cards or game.units or game.tables or game.dice):
        return [], {}
    faces, printed = fitted_both(ctx, all_faces(ctx), report)
    return faces, printed_parts(printed)


def _unit_faces(site: _GameSite) -> dict:
    """unit id -> the first card that shows the unit: its datasheet, or a card of the unit."""
    by_unit = {}
    for face in site.faces:
        card = site.game.cards.get(face.id) if face.deck != "datasheets" else None
        unit_id = card.unit if card is not None else (face.id if face.deck == "datasheets" else None)
        if unit_id:
            by_unit.setdefault(unit_id, face)
    return by_unit


def _unit_pages(site: _GameSite) -> list[SitePage]:
    """units.html, the roster, then a page per unit."""
    game = site.game
    if not game.units:
        return []
    pages = [SitePage("units.html", site.ui("units"),
                      blocks.roster_html(game, site.tr, _unit_pages_linker(site.link(0))), kind="units")]
    by_unit = _unit_faces(site)
    return pages + [_unit_page(site, unit, by_unit.get(unit.id)) for unit in game.units.values()]


def _unit_page(site: _GameSite, unit, face) -> SitePage:
    """A unit's page: its errata, side, sheet and odds, and the card that shows it."""
    ctx, tr, link1 = site.ctx, site.tr, site.link(1)
    crumb = Markup('<p class="crumb"><a href="../units.html">{}</a></p>').format(site.ui("units"))
    sheet = unit_sheet(ctx, unit, link1)
    odds = odds_html(ctx, unit, site.probs, site.ui)
    preview = [site.card_preview(face)] if face is not None else []
    badge = side_badge(ctx, unit.side)
    errata = blocks.title_errata(site.game, tr, unit, link1)
    return SitePage(f"units/{unit.id}.html", tr.field(unit, "name"),
                    Markup("").join([crumb, errata, badge, sheet, odds, *preview]),
                    nav=False, kind="unit", title_mark=mark_if_editors(unit, "name", tr))


def _card_pages(site: _GameSite) -> list[SitePage]:
    """cards.html, the cards deck by deck, then a page per card (datasheets are the units')."""
    deck_faces = [f for f in site.faces if f.deck not in ("datasheets",)]
    if not deck_faces:
        return []
    decks = list(dict.fromkeys(f.deck for f in deck_faces))
    body = Markup("").join(_deck_section(site, deck_id, [f for f in deck_faces if f.deck == deck_id])
                           for deck_id in decks)
    game, tr = site.game, site.tr
    heads = [_h(2, f"deck-{d}", tr.field(game.decks[d], "name") if d in game.decks else site.ui("reference"))
             for d in decks]
    return [SitePage("cards.html", site.ui("cards"), body, kind="cards", headings=heads),
            *(_card_page(site, face) for face in deck_faces)]


def _deck_section(site: _GameSite, deck_id: str, faces: list) -> Markup:
    """A deck's section of cards.html: its name and a link to each card's page."""
    deck = site.game.decks.get(deck_id)
    name = site.tr.field(deck, "name") if deck else faces[0].deck_name
    draft = Markup(' <span class="draft">{}</span>')
    links = Markup("").join(Markup('<li><a href="cards/{}.html">{}</a>{}{}</li>').format(
        f.id, f.title, f.title_mark, draft.format(site.ui("draft")) if f.draft else "") for f in faces)
    return Markup('<section id="{}"><h2>{}</h2><ul class="card-list">{}</ul></section>').format(
        f"deck-{deck_id}", name, links)


def _card_page(site: _GameSite, face) -> SitePage:
    """A card's page: its errata and side, why it is a draft, whether some of its words print in
    the source language, its text as data and the card as printed."""
    ctx, game, ui = site.ctx, site.game, site.ui
    card = game.cards.get(face.id)
    body = [Markup('<p class="crumb"><a href="../cards.html#deck-{}">{}</a></p>').format(face.deck, face.deck_name),
            blocks.title_errata(game, site.tr, card, site.link(1)),
            side_badge(ctx, getattr(card, "side", None))]
    if face.draft:
        body.append(Markup('<p class="draft-reason"><span class="draft">{}</span> {}</p>').format(
            ui("draft"), face.draft))
    if face.fallback:  # some of the card's words print in the source language: the page says so
        body.append(Markup('<p class="fallback-note" role="note">{}</p>').format(ui("fallback-note")))
    preview = site.card_preview(face)
    body += [card_sheet(ctx, face, site.link(1)), preview]
    return SitePage(f"cards/{face.id}.html", face.title, Markup("").join(body), nav=False, kind="card",
                    title_mark=face.title_mark)


def _tables_pages(site: _GameSite) -> list[SitePage]:
    """tables.html: the game's tables, then the checker's probability tables."""
    game, tr, ctx = site.game, site.tr, site.ctx
    if not (game.tables or site.probs):
        return []
    html = [blocks.table_html(t, tr) for t in game.tables.values()]
    html += [grid_html(table, ctx.lang, grid_note(ctx, table), site.ui, ctx) for table in site.probs]
    heads = [_h(2, f"table-{t.id}", tr.field(t, "name")) for t in game.tables.values()]
    heads += [_h(2, f"prob-{t.get('table', '')}", grid_title(t, ctx.lang)) for t in site.probs]
    return [SitePage("tables.html", site.ui("tables"), Markup("").join(html), heads, kind="tables")]


_REFERENCE_PAGE = ("dice", "actions", "terrain", "bands", "rules")  # the sections of reference.html, in order


def _reference_pages(site: _GameSite) -> list[SitePage]:
    """reference.html: the records of each reference section the game has, then its parameters."""
    game, ui = site.game, site.ui
    sections = [s for s in _REFERENCE_PAGE if game.section(s)]
    if not sections and not game.manifest.parameters:
        return []
    html, heads = [], []
    for section in sections:
        html.append(Markup('<h2 id="section-{}">{}</h2>').format(section, ui(section)))
        html.append(blocks.records_html(game, section, site.tr, site.link(0), site.printed_at))
        heads.append(_h(2, f"section-{section}", ui(section)))
    if game.manifest.parameters:
        html.append(Markup('<h2 id="section-parameters">{}</h2>{}')
                    .format(ui("parameters"), blocks.parameters_html(game, site.tr, row_heads=True)))
        heads.append(_h(2, "section-parameters", ui("parameters")))
    return [SitePage("reference.html", ui("reference"), Markup("").join(html), heads, kind="reference")]


def _changes_page(site: _GameSite, chapters) -> SitePage | None:
    """changes.html: what changed since the older version, as the errata sheet lists it, each
    entry linked to its chapter's section or its record's page; None if nothing changed or the
    build wrote no entries (changes.json)."""
    data = changed.load(site.ctx)
    if data is None or not data["entries"]:  # nothing changed: no page
        return None
    places = {c.chapter.path.name: (site.names[c.chapter.path], [h.id for h in c.headings]) for c in chapters}
    link = site.link(0)

    def link_of(entry: dict) -> str | None:
        if entry.get("record"):
            section, record_id = entry["record"]
            record = site.game.section(section).get(record_id)
            return link(record) if record is not None else None
        return changed.chapter_link(entry, places)

    body = changed.body(data["entries"], site.ui, link_of, changed.rulebook_download(site.ctx))
    return SitePage(changed.PAGE, changed.title(site.ui, data), body, nav=False, kind="changes")


def _errata_pages(site: _GameSite) -> list[SitePage]:
    """errata.html: each erratum's summary, the source's text and the rules' reading. The source
    is quoted in its language; summary and reading are translated."""
    game, tr, ui = site.game, site.tr, site.ui
    if not game.errata:
        return []
    src = game.manifest.source_language
    rows = Markup("").join(Markup('<tr id="erratum-{}"><td>{}</td><td lang="{}">{}</td><td lang="{}">{}</td></tr>')
                           .format(e.id, tr.field(e, "summary"), src, e.source or "–", *blocks.erratum_reading(tr, e))
                           for e in game.errata.values())
    body = Markup('<table class="data-table"><thead><tr><th scope="col">{}</th><th scope="col">{}</th>'
                  '<th scope="col">{}</th></tr></thead><tbody>{}</tbody></table>').format(
        ui("errata"), ui("source"), ui("reading"), rows)
    return [SitePage("errata.html", ui("errata"), body, kind="errata")]


def _army_list_pages(site: _GameSite) -> list[SitePage]:
    """The army builder: a page per game, for its (first) roster."""
    return [SitePage(PAGE, site.ui("army-builder"),
                     Markup('<div id="roster-{}">{}</div>').format(roster.id, builder_page(site.ctx, roster, "../../", site.link(0))),
                     kind="army-list")
            for roster in _built_rosters(site.game)]


def _built_rosters(game) -> list:
    """The rosters the site builds an army builder for: the first."""
    return list(game.section("rosters").values())[:1]


def _counter_pages(site: _GameSite) -> list[SitePage]:
    """counters.html, the game's counters as printed, if it has any."""
    counters = counters_page(site.ctx)
    if counters is None:
        return []
    return [SitePage("counters.html", site.ui("counters"), counters,
                     [_h(2, anchor, title) for anchor, title in counter_headings(site.ctx)], kind="counters")]


def _map_pages(site: _GameSite) -> list[SitePage]:
    """A page per map."""
    return [SitePage(path, title, body, kind="map") for path, title, body in map_pages(site.ctx)]


# The pages after the chapters and the glossary, in the sidebar's order: each kind of record
# the game has gets its page (or a list page and a page per record).
PAGE_KINDS = (_unit_pages, _card_pages, _tables_pages, _reference_pages, _errata_pages, _army_list_pages,
              _counter_pages, _map_pages)


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


_VERIFIED = re.compile(r'<span class="verified".*?</svg></span>', re.S)


def _named(heading: Heading, html: str) -> Heading:
    """A heading that is only a section number ("5.3.1") is listed in the contents with the
    opening words of its section, so the list says what each section is about."""
    if not _BARE_NUMBER.match(heading.text.strip()):
        return heading
    start = html.find(f'id="{heading.id}"')
    following = html[start:start + 2000].split("</h", 1)[-1]
    following = re.sub(r"<p class=\"example-label\">.*?</p>", " ", following, flags=re.S)
    following = _VERIFIED.sub(" ", following)  # the checker's tick says "Verified…" to a screen reader only
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", following.split(">", 1)[-1])).split()
    words = [w for w in words if not w.startswith("&")][:7]
    if not words:
        return heading
    return Heading(heading.level, heading.id, f"{heading.text.strip()} — {Markup(' '.join(words)).unescape()}…")


def _page_name(chapter) -> str:
    """A chapter's page in the source's edition: its file's name (03-turn.md -> turn.html)."""
    name = f"rules-{chapter.slug}" if chapter.slug in RESERVED else chapter.slug
    return f"{name}.html"


def page_address(text: str) -> str:
    """A title as a page address of Latin letters: 'Wstęp' -> 'wstep', 'Słowniczek' ->
    'slowniczek'; '' where the title has letters of another script."""
    folded = unicodedata.normalize("NFKD", text.translate(_UNDECOMPOSED))
    slug = slugify("".join(c for c in folded if not unicodedata.combining(c)))
    return slug if slug.isascii() and slug != "section" else ""


_UNDECOMPOSED = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "ß": "ss", "æ": "ae", "œ": "oe", "đ": "d"})


def chapter_pages(chapters, tr) -> dict[Path, str]:
    """Each chapter's page in the edition of `tr`: a chapter whose file is named after its
    title in the source (01-wstep.md for «Wstęp») has in a translation the address of its
    translated title (introduction.html); any other keeps its file's name, in every edition
    (a chapter a page of the site's own already names, or another chapter does, too); a title
    that names a page of the site's own takes rules- before it, as a file name does."""
    names = {chapter.path: _page_name(chapter) for chapter in chapters}
    if tr.is_source:
        return names
    taken = set(names.values()) | {f"{name}.html" for name in RESERVED}
    for chapter in chapters:
        if chapter.slug != page_address(chapter.title):
            continue
        own = page_address(tr.text(chapter.title))
        name = f"rules-{own}.html" if own in RESERVED else f"{own}.html"
        if own and name not in taken:
            names[chapter.path] = name
            taken.add(name)
    return names


def chapter_aliases(ctx: BuildContext, langs: list[str]) -> dict[str, str]:
    """{page name: the page it leads to} in this edition: every other edition's name for a
    chapter, so that an address of the source's, a bookmark or the language switch lands on
    the chapter here."""
    own = chapter_pages(ctx.chapters, ctx.tr)
    aliases: dict[str, str] = {}
    for lang in langs:
        if lang == ctx.lang:
            continue
        for path, name in chapter_pages(ctx.chapters, Translator.load(ctx.game, lang)).items():
            if name != own[path] and name not in own.values() and name[:-5] not in RESERVED:
                aliases.setdefault(name, own[path])
    return aliases


def _unit_pages_linker(link):
    def inner(record):
        return link(record)
    return inner


def landing_page(ctx: BuildContext, chapters, pages: list[SitePage], news: SitePage | None = None) -> SitePage:
    game, tr, ui = ctx.game, ctx.tr, ctx.env.globals["ui"]
    body = []
    if game.manifest.summary:
        body.append(Markup('<p class="lead">{}{}</p>').format(tr.manifest("summary"),
                                                              mark_if_editors(game.manifest, "summary", tr)))
    if news is not None:  # build --changes-since: what changed in this version
        body.append(Markup('<p class="changes-link"><a href="{}">{}</a></p>').format(news.path, news.title))
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
