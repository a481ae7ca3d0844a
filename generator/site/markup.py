"""Finishing touches on a page's HTML: wide tables become keyboard-reachable scroll regions, marked
blanks say what they stand for, and quotations in the source language inside a translated page
say which language they are in."""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from ..values import UNSTATED_MARK, UNSTATED_NOTE

# Cells, terms and blocks end with a line break, so the search index never glues the words of
# neighbouring cells into one ("ModelsQualityDefence").
_BLOCK_END = re.compile(r"(</(?:td|th|dt|dd|li|tr|p|caption|h[1-6]|figcaption|summary)>)(?=<)")

_TABLE_TAG = re.compile(r"<table\b[^>]*>|</table>")
_CAPTION = re.compile(r"<caption\b[^>]*>(.*?)</caption>", re.S)
_TAG = re.compile(r"<[^>]+>")


def scroll_tables(html: str, label: str) -> Markup:
    """Wrap each outermost table in a focusable, named region that scrolls sideways on a phone.
    The region is named by the table's caption, else `label`; a repeated name gets the table's
    number on the page, so no two regions share a name."""
    html = str(html)
    out, depth, last, number, names = [], 0, 0, 0, set()
    for match in _TABLE_TAG.finditer(html):
        if match.group().startswith("</"):
            depth -= 1
            if depth == 0:
                out.append(html[last:match.end()] + "</div>")
                last = match.end()
            continue
        if depth == 0:
            number += 1
            caption = _CAPTION.search(html, match.end())
            name = _TAG.sub("", caption.group(1)).strip() if caption and _starts_table(html, match.end(), caption) else ""
            name = name if name and name not in names else f"{name or label} {number}".strip()
            names.add(name)
            out.append(html[last:match.start()])
            out.append(f'<div class="table-scroll" role="region" tabindex="0" aria-label="{escape(Markup(name).unescape())}">')
            last = match.start()
        depth += 1
    out.append(html[last:])
    return Markup("".join(out))


def _starts_table(html: str, start: int, caption: re.Match) -> bool:
    """The caption belongs to this table: nothing but whitespace comes before it."""
    return not html[start:caption.start()].strip()


# Scripts of the languages a game may be written in; a run of the source script inside a page in
# another script is a quotation of the source.
SCRIPTS = {
    "ru": "а-яА-ЯёЁ", "uk": "а-яА-ЯіїєґІЇЄҐ", "be": "а-яА-ЯёЁіўІЎ", "bg": "а-яА-Я", "sr": "а-яА-Яђјљњћџ",
}
_TEXT = re.compile(r">([^<]+)<")


def mark_quotations(html: str, source: str, lang: str) -> Markup:
    """Give runs of source-script text inside a page in another script a lang attribute, so a
    screen reader reads «Джонни» in Russian inside an English page."""
    html = str(html)
    letters = SCRIPTS.get(source)
    if not letters or lang in SCRIPTS or lang == source:
        return Markup(html)
    word = rf"[{letters}][{letters}\-]*"
    run = re.compile(rf"«?{word}(?:[ ,.:;!?\-–—]+{word})*[.!?]?»?")

    def text(match: re.Match) -> str:
        inner = run.sub(lambda m: f'<span lang="{source}">{m.group()}</span>', match.group(1))
        return f">{inner}<"

    # Scripts, and tags that already carry the source language, are left alone.
    kept = re.compile(rf'<script\b.*?</script>|<(\w+)[^>]*\blang="{source}"[^>]*>.*?</\1>', re.S)
    return _in_text(html, text, kept)


def _in_text(html: str, text, kept: re.Pattern) -> Markup:
    """`text` applied to every run of text between tags, outside what `kept` matches."""
    out, last = [], 0
    for match in kept.finditer(html):
        out.append(_TEXT.sub(text, html[last:match.start()]))
        out.append(match.group())
        last = match.end()
    out.append(_TEXT.sub(text, html[last:]))
    return Markup("".join(out))


_SCRIPT = re.compile(r"<script\b.*?</script>", re.S)


def label_marked_blanks(html: str, lang: str) -> Markup:
    """A marked blank (?‡) tells a screen reader, and a pointer on hover, what it stands for:
    "not stated in the source" (its note under the table says why)."""
    html = str(html)
    if UNSTATED_MARK not in html:
        return Markup(html)
    note = escape(UNSTATED_NOTE.get(lang, UNSTATED_NOTE["en"]))
    mark = f'<span class="unstated-mark" role="img" aria-label="{note}" title="{note}">{UNSTATED_MARK}</span>'

    def text(match: re.Match) -> str:
        return ">" + match.group(1).replace(UNSTATED_MARK, mark) + "<"

    return _in_text(html, text, _SCRIPT)


def for_search(html: str) -> Markup:
    """Ready the page for the search index: a break after every cell and term, glossary terms
    weighted above passing mentions, DRAFT badges and keyword tooltips left out."""
    html = str(html)
    html = _BLOCK_END.sub(lambda m: m.group(1) + "\n", html)
    html = re.sub(r'<span class="draft"(?=[ >])', '<span class="draft" data-pagefind-ignore', html)
    # A keyword's tooltip repeats its glossary entry: the glossary is what search should find.
    html = html.replace('<span class="kw-tip" role="tooltip">', '<span class="kw-tip" role="tooltip" data-pagefind-ignore>')
    html = re.sub(r'<dl class="glossary">(.*?)</dl>', lambda m: '<dl class="glossary">' + m.group(1).replace(
        "<dt ", '<dt data-pagefind-weight="7" ') + "</dl>", html, flags=re.S)
    return Markup(html)


# The printed card's preview on a page: the card's millimetres and points times --k (set on the
# figure), so a phone shows it as wide as the text column and its type at a readable size.
PREVIEW_WIDTH_MM = 94.0  # a 375-390 px phone's text column
PREVIEW_MAX_SCALE = 1.5
_PRINTED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(mm|pt)\b")
_FIGURE_SIZE = re.compile(r'style="width:(\d+(?:\.\d+)?)mm;')
_STYLE = re.compile(r'style="([^"]*)"')


def scaled_units(css: str) -> str:
    """CSS whose printed lengths (mm, pt) follow the preview's scale --k (1 when unset)."""
    return _PRINTED.sub(lambda m: f"calc({m.group(1)}{m.group(2)} * var(--k, 1))", css)


def scale_preview(html: str) -> Markup:
    """A card preview's figures drawn at the scale that fits the phone's column (at most 1.5):
    every length in their inline styles follows it."""
    def figure(match: re.Match) -> str:
        style = match.group(1)
        size = _FIGURE_SIZE.match(match.group(0))
        extra = f"--k:{min(PREVIEW_MAX_SCALE, PREVIEW_WIDTH_MM / float(size.group(1))):.3f};" if size else ""
        return f'style="{extra}{scaled_units(style)}"'
    return Markup(_STYLE.sub(figure, str(html)))
