"""Rules text to HTML for one language: references resolved, each block translated (or
marked as falling back to the source), notes kept or dropped, examples boxed."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup, escape

from ..safety.fetching import css_fetch
from ..reading.game import Game
from ..i18n.messages import is_translatable_path, needs_translation, normalize
from ..i18n.translate import Translator
from ..safety.pictures import shown
from . import blocks
from .chapters import Chapter
from .claims import plain
from .editorial import field_html, trailing_mark
from .numbering import NUMBER_ATTR, UNNUMBERED, game_numbering
from .markdown import EDITOR_CLASS, NOTE_KINDS, build, container_info, parser
from .refs import TEXT_FIELDS, Ref, RefError, Resolved, is_block, resolve

Target = Literal["site", "print"]


@dataclass
class Heading:
    level: int
    id: str
    text: str  # as contents list it: with its case number first where the game numbers them
    number: str = ""  # its case number (text/numbering.py), "" where none


@dataclass
class RenderContext:
    game: Game
    tr: Translator
    target: Target
    link: blocks.Linker
    # example id -> True (passed) / False (failed); missing = not checked
    examples: dict[str, bool] = field(default_factory=dict)
    notes: bool = True  # False: `::: note` asides are left out (`rulesmith build --no-notes`)
    # sections whose records the chapters print by referring to their text (refs.printed_by_reference):
    # the reference to a record's text carries the record's anchor, so links land there
    anchored: frozenset[str] = frozenset()
    # (kind, id, field) of the records' texts the chapters print by reference (refs.printed_fields):
    # a `{{ list:... }}` leaves them out, printed once where the source prints them
    printed_texts: frozenset[tuple[str, str, str]] = frozenset()
    # texts a reference has printed (and anchored, blocks.text_anchor) so far
    placed: set[tuple[str, str, str]] = field(default_factory=set)


@dataclass
class RenderedChapter:
    chapter: Chapter
    title: str
    html: Markup
    headings: list[Heading]


def titles(chapters: list[RenderedChapter]) -> dict[str, str]:
    """Each rendered chapter's title by its slug, and each numbered heading's by its anchor
    (`case-5.3.4.1` -> "5.3.4.1 Attack"): where an appendix entry or a reference page points."""
    out = {ch.chapter.slug: ch.title for ch in chapters}
    out.update({h.id: h.text for ch in chapters for h in ch.headings if h.number})
    return out


def slugify(text: str) -> str:
    """A stable anchor from source-language heading text (the same in every language)."""
    text = re.sub(r"\{\{.*?\}\}", "", text).casefold()
    text = re.sub(r"[^\w\s-]", "", text, flags=re.UNICODE)
    return re.sub(r"[\s_]+", "-", text).strip("-") or "section"


def _ref_html(ctx: RenderContext, text: str) -> Markup:
    try:
        resolved = resolve(ctx.game, Ref.parse(text))
    except RefError:
        return Markup('<span class="broken-ref">{}</span>').format("{{ " + text + " }}")
    record = resolved.record
    if resolved.section is not None:
        return blocks.records_html(ctx.game, resolved.section, ctx.tr, ctx.link,
                                   dict.fromkeys(ctx.printed_texts, Markup("")))
    if record is not None and resolved.ref.kind == "table" and resolved.ref.field is None:
        return blocks.table_html(record, ctx.tr, ctx.link)
    if resolved.ref.kind == "table" and record is None:  # a probability table of the rules checker
        try:
            return blocks.computed_table_html(ctx.game.computed.table(resolved.ref.id), ctx.tr)
        except Exception:  # `rulesmith check --tables` reports why it cannot be computed
            return Markup('<span class="broken-ref">{}</span>').format("{{ " + text + " }}")
    if resolved.ref.kind == "stat":
        return Markup('<span class="stat-name">{}</span>').format(blocks.ref_label(ctx.game, ctx.tr, resolved))
    if resolved.ref.kind == "case":
        return blocks.case_ref_html(resolved.value, ctx.link)
    if record is None:  # a parameter
        return Markup('<span class="param">{}</span>').format(resolved.text(ctx.tr.lang, ctx.tr.measure_words()))
    if resolved.ref.field is not None:
        return _field_ref_html(ctx, resolved)
    if record.kind == "keyword":
        return blocks.keyword_ref_html(record, blocks.ref_label(ctx.game, ctx.tr, resolved), ctx.tr, ctx.link)
    label = blocks.ref_label(ctx.game, ctx.tr, resolved)
    marks = blocks.field_marks(ctx.game, ctx.tr, record, "name", ctx.link) if hasattr(record, "name") else ""
    href = ctx.link(record)
    if href is None:
        return Markup('<span class="ref ref-{}">{}</span>{}').format(record.kind, label, marks)
    return Markup('<a class="ref ref-{}" href="{}">{}</a>{}').format(record.kind, href, label, marks)


def _field_ref_html(ctx: RenderContext, resolved: Resolved) -> Markup:
    """`{{ kind:id.field }}`: the field's value, with the record's marks; the first paragraph
    that prints a text the document also prints whole carries its anchor."""
    record = resolved.record
    value = resolved.value
    path = tuple(resolved.ref.field.split("."))
    cell = blocks.table_cell_html(ctx.tr, resolved, ctx.link)  # a table's cell, as the table prints it
    if cell is not None:
        value = cell
    elif isinstance(value, str) and is_translatable_path(record, path):
        value = blocks.cases_linked(record, ctx.tr, path, ctx.link) or field_html(record, ctx.tr, *path)
    else:
        value = resolved.text(ctx.tr.lang, ctx.tr.measure_words())
    value = Markup("{}{}").format(value, blocks.field_marks(ctx.game, ctx.tr, record, resolved.ref.field, ctx.link))
    key = (record.kind, record.id, resolved.ref.field)
    if key in ctx.printed_texts and key not in ctx.placed:
        # the first paragraph printing this text of the record: links land there (its
        # appendix entry, if the section keeps one, points at it: blocks.text_anchor)
        ctx.placed.add(key)
        whole = record.section in ctx.anchored and resolved.ref.field in TEXT_FIELDS
        anchor = blocks.anchor(record) if whole else blocks.text_anchor(record, resolved.ref.field)
        return Markup('<span class="value" id="{}">{}</span>').format(anchor, value)
    return Markup('<span class="value">{}</span>').format(value)


_TICK = ('<svg viewBox="0 0 10 10" width="0.8em" height="0.8em" aria-hidden="true"><title>{title}</title>'
         '<path d="M1.5 5.5 4 8 8.5 2" fill="none" stroke="currentColor" stroke-width="1.4" '
         'stroke-linecap="round" stroke-linejoin="round"/></svg>')


def verified_mark(title: str) -> str:
    """The discreet mark of text the rules checker verified (a drawn tick: no font needed);
    `title` is the interface word 'verified' in the reader's language."""
    title = escape(title)
    return f' <span class="verified" title="{title}" role="img" aria-label="{title}" data-overlay>{_TICK.format(title=title)}</span>'


def _prints_inline(ctx: RenderContext, text: str) -> bool:
    """A reference alone in its paragraph that prints a value, not a block (a table, a list)."""
    try:
        return not is_block(resolve(ctx.game, Ref.parse(text)))
    except RefError:
        return False


@lru_cache(maxsize=1)
def _renderer() -> MarkdownIt:
    md = build()
    default_fence = md.renderer.rules["fence"]

    def substitution_inline(self, tokens, idx, options, env):
        return str(_ref_html(env["ctx"], tokens[idx].content))

    def substitution_block(self, tokens, idx, options, env):
        html = str(_ref_html(env["ctx"], tokens[idx].content))
        if _prints_inline(env["ctx"], tokens[idx].content):  # a record's text alone: its own paragraph
            case = (tokens[idx].meta or {}).get("case")  # numbered (numbering: paragraphs)
            if case is not None:
                return f'<p id="{escape(case.anchor)}">{_CASE_LABEL.format(escape(case.number))} {html}</p>\n'
            return f"<p>{html}</p>\n"
        return html + "\n"

    def example_open(self, tokens, idx, options, env):
        ctx: RenderContext = env["ctx"]
        example_id = container_info(tokens[idx].info)[1]
        label = escape(ctx.tr.ui("example"))
        badge = verified_mark(ctx.tr.ui("verified")) if ctx.examples.get(example_id) else ""
        # Each example is its own landmark: numbered, so no two on a page share a name.
        env["examples"] = env.get("examples", 0) + 1
        return (f'<aside class="example" id="example-{escape(example_id)}" aria-label="{label} {env["examples"]}">'
                f'<p class="example-label">{label}{badge}</p>\n')

    def rule_open(self, tokens, idx, options, env):
        """Normative text that carries checks: plain rules text, a discreet mark when verified."""
        ctx: RenderContext = env["ctx"]
        rule_id = container_info(tokens[idx].info)[1]
        verified = bool(ctx.examples.get(rule_id))
        mark = verified_mark(ctx.tr.ui("verified")) if verified else ""
        # a rule record of the same id holds the anchor `rule-ID` (links to the record land there):
        # in the rulebook, one document, always; on the site, where the chapter prints its text
        held = rule_id in ctx.game.rules and (ctx.target == "print" or "rules" in ctx.anchored)
        anchor = "" if held else f' id="rule-{escape(rule_id)}"'
        return f'<div class="rule{" is-verified" if verified else ""}"{anchor}>{mark}\n'

    def note_open(self, tokens, idx, options, env):
        ctx: RenderContext = env["ctx"]
        kind = container_info(tokens[idx].info)[1]
        label = escape(ctx.tr.ui(f"note-{kind}" if kind in NOTE_KINDS else "note"))
        if ctx.target == "print":  # a boxed aside, labelled with whose remark it is
            env["notes"] = env.get("notes", 0) + 1
            return (f'<aside class="note note-{escape(kind or "plain")}" aria-label="{label} {env["notes"]}">'
                    f'<p class="note-label">{label}</p>\n')
        return f'<details class="designer-note"><summary>{label}</summary>\n'

    def note_close(self, tokens, idx, options, env):
        return "</aside>\n" if env["ctx"].target == "print" else "</details>\n"

    def fence(self, tokens, idx, options, env):
        if tokens[idx].info.strip().split(" ")[0] == "check":
            return ""  # the checker's block: for the machine, not the reader
        return default_fence(tokens, idx, options, env)

    md.add_render_rule("substitution_inline", substitution_inline)
    md.add_render_rule("substitution_block", substitution_block)
    md.add_render_rule("container_example_open", example_open)
    md.add_render_rule("container_example_close", lambda self, t, i, o, e: "</aside>\n")
    md.add_render_rule("container_rule_open", rule_open)
    md.add_render_rule("container_rule_close", lambda self, t, i, o, e: "</div>\n")
    md.add_render_rule("container_note_open", note_open)
    md.add_render_rule("container_note_close", note_close)
    md.add_render_rule("fence", fence)
    return md


def _drop_notes(tokens: list[Token]) -> list[Token]:
    out, depth = [], 0
    for token in tokens:
        if token.type == "container_note_open":
            depth += 1
        elif token.type == "container_note_close":
            depth -= 1
        elif depth == 0:
            out.append(token)
    return out


def _drop_empty_headings(tokens: list[Token]) -> list[Token]:
    """Headings left with nothing under them once the notes are dropped (`--no-notes`)."""
    while True:
        out: list[Token] = []
        i, dropped = 0, False
        while i < len(tokens):
            token = tokens[i]
            if token.type == "heading_open":
                nxt = tokens[i + 3] if i + 3 < len(tokens) else None
                if nxt is None or (nxt.type == "heading_open" and nxt.tag <= token.tag):
                    i, dropped = i + 3, True
                    continue
            out.append(token)
            i += 1
        if not dropped:
            return out
        tokens = out


def _translate(tokens: list[Token], ctx: RenderContext) -> None:
    """Swap each block's inline content for its translation, or mark the fallback."""
    md = parser()
    for token in tokens:
        if token.type != "inline":
            continue
        source = normalize(token.content)
        if not needs_translation(source):
            continue
        text, ok = ctx.tr.lookup(source)
        if ok and text != source:
            token.children = md.parseInline(text)[0].children
            token.content = text
        elif not ok:
            lang = escape(ctx.game.manifest.source_language)
            title = escape(ctx.tr.ui("untranslated"))
            start = Token("html_inline", "", 0, content=f'<span class="untranslated" lang="{lang}" title="{title}">')
            end = Token("html_inline", "", 0, content="</span>")
            token.children = [start, *(token.children or []), end]


def _drop_fetches(tokens: list[Token], game: Game) -> None:
    """Nothing the reader's browser or the printer would fetch from elsewhere, and no picture
    pictures.py refuses: such an image shows its alt text, a style that loads a URL is left
    out (validation reports them: W008, E061, E063, E064, E065)."""
    for token in tokens:
        if css_fetch(str(token.attrs.get("style", ""))):
            del token.attrs["style"]
        if token.type != "inline" or not token.children:
            continue
        token.children = [Token("text", "", 0, content=child.content)
                          if child.type == "image" and not shown(str(child.attrs.get("src", "")), game.folder)
                          else child for child in token.children]


def _keyword_pattern(ctx: RenderContext):
    """Names of the game's keywords as this language writes them, longest first; one-letter
    codes are left alone (in English 'A' is also the article)."""
    names: dict[str, object] = {}
    for keyword in ctx.game.keywords.values():
        candidates = [ctx.tr.field(keyword, "name")]
        if ctx.tr.is_source:
            candidates += [a.name for a in keyword.aliases]
        for name in candidates:
            if len(name.strip()) >= 2:
                names.setdefault(name.strip(), keyword)
    if not names:
        return None, names
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<!\w)({alternatives})(?!\w)"), names


def _autolink_keywords(tokens: list[Token], ctx: RenderContext) -> None:
    """Link the first use of each keyword in a block to its definition (with the tooltip)."""
    pattern, names = _keyword_pattern(ctx)
    if pattern is None:
        return
    for i, token in enumerate(tokens):
        if token.type != "inline" or not token.children or (i and tokens[i - 1].type == "heading_open"):
            continue
        linked: set[str] = set()
        depth = 0
        out: list[Token] = []
        for child in token.children:
            if child.type == "link_open":
                depth += 1
            elif child.type == "link_close":
                depth -= 1
            if child.type != "text" or depth:
                out.append(child)
                continue
            text, pos = child.content, 0
            for match in pattern.finditer(text):
                keyword = names[match.group(1)]
                if keyword.id in linked:
                    continue
                linked.add(keyword.id)
                out.append(Token("text", "", 0, content=text[pos:match.start()]))
                html = blocks.keyword_ref_html(keyword, match.group(1), ctx.tr, ctx.link)
                out.append(Token("html_inline", "", 0, content=str(html)))
                pos = match.end()
            out.append(Token("text", "", 0, content=text[pos:]))
        token.children = out


def render_chapter(chapter: Chapter, ctx: RenderContext, id_prefix: str = "") -> RenderedChapter:
    tokens = [_clone(t) for t in chapter.tokens]
    numbering = game_numbering(ctx.game)
    _attach_cases(tokens, numbering.headings.get(chapter.path, []), numbering.paragraphs.get(chapter.path, {}))
    if not ctx.notes:
        tokens = _drop_empty_headings(_drop_notes(tokens))
    headings: list[Heading] = []
    used: set[str] = set()
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            case = token.meta.get("case")
            slug = base = case.anchor if case else id_prefix + slugify(plain(tokens[i + 1].content))  # not a binding
            n = 2
            while slug in used:
                slug, n = f"{base}-{n}", n + 1
            used.add(slug)
            token.attrSet("id", slug)
            headings.append(Heading(int(token.tag[1]), slug, "", case.number if case else ""))
    if ctx.target == "print":
        _mark_sources(tokens, chapter)
    _number_lists(tokens)
    _translate(tokens, ctx)
    _drop_fetches(tokens, ctx.game)
    typeset(tokens, ctx.tr.lang)
    _autolink_keywords(tokens, ctx)
    # heading text after translation, as plain text for tables of contents
    h = iter(headings)
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            heading = next(h)
            heading.text = _plain(tokens[i + 1], ctx)
            _number_heading(tokens[i + 1], heading)
            _mark_editors_heading(token, tokens[i + 1], heading.text, ctx)
        elif token.type in ("paragraph_open", "list_item_open") and (token.meta or {}).get("case"):
            _number_paragraph(tokens, i)
    env = {"ctx": ctx}
    html = Markup(_renderer().renderer.render(tokens, _renderer().options, env))
    title = headings[0].text if headings and headings[0].level == 1 else chapter.slug
    return RenderedChapter(chapter, title, html, headings)


def _attach_cases(tokens: list[Token], cases: list, paragraphs: dict) -> None:
    """Each heading token carries its case (None: unnumbered), and each numbered paragraph or
    list item its own, before notes may drop headings: the numbers are the source's, whatever
    an edition leaves out."""
    found = iter(cases)
    for i, token in enumerate(tokens):
        if i in paragraphs:
            token.meta = {**(token.meta or {}), "case": paragraphs[i]}
        if token.type == "heading_open":
            token.meta = {**(token.meta or {}), "case": next(found, None)}
            token.attrs.pop(NUMBER_ATTR, None)
            classes = [c for c in str(token.attrs.pop("class", "")).split() if c != UNNUMBERED]
            if classes:
                token.attrSet("class", " ".join(classes))


def _number_heading(inline: Token, heading: Heading) -> None:
    """A numbered heading prints its number first ("5.3.1 Attack"; a heading of a number alone,
    the number); contents, bookmarks and search read it the same way."""
    if not heading.number:
        return
    space = " " if heading.text else ""
    span = Token("html_inline", "", 0, content=_CASE_SPAN.format(escape(heading.number)) + space)
    inline.children = [span, *(inline.children or [])]
    heading.text = f"{heading.number}{space}{heading.text}"


def _number_paragraph(tokens: list[Token], i: int) -> None:
    """A numbered paragraph or list item (`numbering: paragraphs`) is anchored by its number
    and prints it first."""
    case = tokens[i].meta["case"]
    tokens[i].attrSet("id", case.anchor)
    inline = next((t for t in tokens[i + 1:] if t.type == "inline"), None)
    if inline is not None:
        inline.children = [Token("html_inline", "", 0, content=_CASE_LABEL.format(escape(case.number)) + " "),
                           *(inline.children or [])]


_CASE_SPAN = '<span class="case-number">{}</span>'
_CASE_LABEL = '<b class="case-number">{}</b>'  # a paragraph's number: set off in bold, as a heading's is by the heading


def _mark_editors_heading(heading: Token, inline: Token, text: str, ctx: RenderContext) -> None:
    """A heading marked `{.editor}` (the edition's, not the source's) ends with the mark;
    `data-title` keeps its text without the mark for running heads and bookmarks."""
    classes = str(heading.attrs.get("class", "")).split()
    if EDITOR_CLASS not in classes:
        return
    classes.remove(EDITOR_CLASS)
    if classes:
        heading.attrSet("class", " ".join(classes))
    else:
        del heading.attrs["class"]
    heading.attrSet("data-title", text)
    inline.children = [*(inline.children or []), Token("html_inline", "", 0, content=str(trailing_mark(ctx.tr)))]


def _mark_sources(tokens: list[Token], chapter: Chapter) -> None:
    """`data-src="rules/03-turn.md:12"` on every printed block, so the layout check can cite
    the line a problem comes from."""
    try:
        rel = chapter.path.resolve().relative_to(chapter.path.resolve().parents[1]).as_posix()
    except (ValueError, IndexError):
        return
    for token in tokens:
        if token.nesting == 1 and token.map and not token.type.startswith("container_"):
            token.attrSet("data-src", f"{rel}:{token.map[0] + 1}")


def _number_lists(tokens: list[Token]) -> None:
    """A list that continues another (`2.` after a box) keeps its numbers in print too:
    WeasyPrint ignores <ol start>, so the counter is set as well."""
    for token in tokens:
        if token.type == "ordered_list_open" and token.attrs.get("start") not in (None, 1, "1"):
            token.attrSet("style", f"counter-reset: list-item {int(token.attrs['start']) - 1}")


# Quotation marks per language: double open, double close, single open, single close.
QUOTES = {"en": "“”‘’", "ru": "«»„“"}
_TYPOGRAPHER: dict[str, MarkdownIt] = {}


def typeset(tokens: list[Token], lang: str) -> None:
    """Typographic quotes and dashes for the language: straight quotes become “ ” (en) or
    « » (ru), a spaced hyphen becomes an en dash, `--` an en dash; English text keeps no
    «guillemets» left over from the source."""
    from markdown_it.rules_core import replace, smartquotes
    from markdown_it.rules_core.state_core import StateCore

    if lang not in _TYPOGRAPHER:
        _TYPOGRAPHER[lang] = MarkdownIt("commonmark", {"typographer": True, "quotes": QUOTES.get(lang, QUOTES["en"])})
    for token in tokens:
        if token.type != "inline" or not token.children:
            continue
        for child in token.children:
            if child.type == "text":
                text = _SPACED_HYPHEN.sub("\u2013", child.content)
                if lang != "ru":
                    text = text.replace("«", "“").replace("»", "”")
                child.content = text
    state = StateCore("", _TYPOGRAPHER[lang], {})
    state.tokens = tokens
    replace(state)
    smartquotes(state)


_SPACED_HYPHEN = re.compile(r"(?<=\s)-(?=\s)|(?<=\s)--(?=\s)")


def _plain(inline: Token, ctx: RenderContext) -> str:
    parts = []
    for child in inline.children or []:
        if child.type == "text" or child.type == "code_inline":
            parts.append(child.content)
        elif child.type == "substitution_inline":
            parts.append(re.sub(r"<[^>]+>", "", _MARKS.sub("", str(_ref_html(ctx, child.content)))))
    return "".join(parts).strip()


# a title's text (contents, bookmarks) leaves the erratum and editor's marks out
_MARKS = re.compile(r'\u00a0?<(a|span) class="(?:erratum|editor)-mark"[^>]*>[^<]*</\1>')


def _clone(token: Token) -> Token:
    copy = token.copy()
    if token.children:
        copy.children = [c.copy() for c in token.children]
    copy.attrs = dict(token.attrs)
    return copy

