"""A short text that holds tables (a card's text): its paragraphs, a data table printed by a
`{{ table:ID }}` alone on its line, and Markdown tables (`| a | b |` rows under a `|---|---|`
line), each cell with its references printed."""

from __future__ import annotations

import re
from functools import lru_cache

from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from ..reading.game import Game
from ..i18n.translate import Translator
from .blocks import Linker, computed_table_html, inline_refs_html, table_html

_TABLE_REF = re.compile(r"^\{\{\s*table:\s*([a-z0-9][a-z0-9-]*)\s*\}\}$")
_DIVIDER = re.compile(r"^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$")


def table_ref(line: str) -> str | None:
    """The table id of a line that is a `{{ table:ID }}` alone, or None."""
    match = _TABLE_REF.match(line.strip())
    return match.group(1) if match else None


def _table_rows(lines: list[str], at: int) -> int:
    """How many lines from `at` make a Markdown table (its header row, its `|---|` line and its
    rows); 0 where none starts there."""
    if at + 1 >= len(lines) or not lines[at].strip().startswith("|") or not _DIVIDER.match(lines[at + 1].strip()):
        return 0
    end = at + 2
    while end < len(lines) and lines[end].strip().startswith("|"):
        end += 1
    return end - at


def holds_tables(text: str) -> bool:
    """Whether the text holds a table (by reference alone on its line, or in Markdown)."""
    lines = text.splitlines()
    return any(table_ref(line) or _table_rows(lines, i) for i, line in enumerate(lines))


def text_blocks(game: Game, tr: Translator, text: str, link: Linker) -> list[Markup]:
    """The text as blocks, in order: each paragraph (lines up to a blank line or a table) as
    `<p>`, each table as its own `<table>` (a data table with its caption and notes)."""
    lines = text.splitlines()
    out: list[Markup] = []
    paragraph: list[str] = []

    def close() -> None:
        if any(line.strip() for line in paragraph):
            out.append(Markup("<p>{}</p>").format(inline_refs_html(game, tr, "\n".join(paragraph).strip(), link)))
        paragraph.clear()

    i = 0
    while i < len(lines):
        table_id, rows = table_ref(lines[i]), _table_rows(lines, i)
        if table_id or rows:
            close()
            out.append(_data_table(game, tr, table_id, link) if table_id else
                       markdown_table_html(game, tr, "\n".join(lines[i:i + rows]), link))
            i += rows or 1
            continue
        if not lines[i].strip():
            close()
        else:
            paragraph.append(lines[i])
        i += 1
    close()
    return out


def _data_table(game: Game, tr: Translator, table_id: str, link: Linker) -> Markup:
    """A data table of the game (or a probability table of its procedures) by its id; an id
    that names none prints as written (the checks report it)."""
    if table_id in game.tables:
        return table_html(game.tables[table_id], tr, link)
    try:
        return computed_table_html(game.computed.table(table_id), tr)
    except Exception:  # no such table, or `rulesmith check --tables` reports why it cannot be computed
        return Markup('<p><span class="broken-ref">{}</span></p>').format("{{ table:" + table_id + " }}")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def markdown_table_html(game: Game, tr: Translator, text: str, link: Linker) -> Markup:
    """A Markdown table as a data table: its header row, then a `<tr>` per row, each cell's
    text with its references printed (aligned as its column's `:--:` says)."""
    head: list[Markup] = []
    body: list[Markup] = []
    row: list[Markup] = []
    in_head = False
    for token in _parser().parse(text):
        if token.type == "thead_open":
            in_head = True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open":
            row = []
        elif token.type in ("th_open", "td_open"):
            style = token.attrGet("style")
            tag = "th" if in_head else "td"
            row.append(Markup('<{} scope="col"{}>').format(tag, _style(style)) if in_head
                       else Markup("<{}{}>").format(tag, _style(style)))
        elif token.type == "inline":
            row.append(inline_refs_html(game, tr, token.content, link))
        elif token.type in ("th_close", "td_close"):
            row.append(Markup("</th>" if in_head else "</td>"))
        elif token.type == "tr_close":
            (head if in_head else body).append(Markup("<tr>") + Markup("").join(row) + Markup("</tr>"))
    if not head:  # not a table after all: its text as a paragraph
        return Markup("<p>{}</p>").format(inline_refs_html(game, tr, text, link))
    return (Markup('<table class="data-table text-table"><thead>') + Markup("").join(head)
            + Markup("</thead><tbody>") + Markup("").join(body) + Markup("</tbody></table>"))


def _style(style) -> Markup:
    return Markup(' style="{}"').format(escape(style)) if style else Markup("")
