"""The reference sheet: the tables a player keeps beside the board."""

from __future__ import annotations

import json

from markupsafe import Markup

from ..model.printing import REFERENCE_SECTIONS
from ..system import folders
from ..text import blocks
from ..text.legend import legend_for
from . import notes as unstated, widthprobe
from .boxtree import every_box
from .context import BuildContext, print_config, print_linker, section_mark
from .decisions import decided, strings
from .pdf import render_document
from .rulebook import anchors
from .verify import lonely_sections


def probability_tables(ctx: BuildContext) -> list[dict]:
    """Tables computed by the rules checker (output/<game>/tables/*.json), if it has run."""
    folder = ctx.project_root / "output" / ctx.game.id / "tables"
    out = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = json.loads(folders.read_text(path))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and "columns" in data and "rows" in data:
            out.append(data)
    return out


DEFAULT_SECTIONS = REFERENCE_SECTIONS  # ("parameters", the appendix's sections, "probabilities")


def reference_sections(ctx: BuildContext) -> list[str]:
    """Which sections the sheet shows, in order: `reference: [..]` in the game's print.yaml,
    else every section the game has."""
    config = print_config(ctx)
    chosen = config.get("reference") or list(DEFAULT_SECTIONS)
    unknown = [s for s in chosen if s not in DEFAULT_SECTIONS]
    if unknown:
        raise ValueError(f"{ctx.game.folder.name}/print.yaml: unknown reference section "
                         f"{', '.join(map(repr, unknown))} (known: {', '.join(DEFAULT_SECTIONS)})")
    return list(chosen)


def reference_html(ctx: BuildContext) -> str:
    """The sheet's HTML, fitted (see `fit_reference`; the fitting is remembered while the
    sheet's HTML stays the same, see decisions.py). A fresh fitting's layout is kept for
    write_pdf."""
    def fit() -> tuple[list, set]:
        wide, moved, repeats, read = fit_reference(ctx)
        return [sorted(wide), sorted(moved), sorted(repeats, key=int)], read

    html = sheet_html(ctx)
    # a decision kept before notes were left out has two parts: it leaves none out
    wide, moved, *repeats = decided(ctx, "reference", html, fit,
                                    lambda d: len(d) in (2, 3) and all(isinstance(part, list) and strings(part)
                                                                       for part in d))
    fitted = sheet_html(ctx, frozenset(wide), frozenset(moved)) if wide or moved else html
    return unstated.left_out(fitted, frozenset(repeats[0]) if repeats else frozenset())


def sheet_html(ctx: BuildContext, wide: frozenset[str] = frozenset(), moved: frozenset[str] = frozenset()) -> str:
    """The sheet's HTML. Sections named in `wide` span the sheet; those in `moved` start a
    new column (their heading was left alone at the bottom of one)."""
    game, tr = ctx.game, ctx.tr
    link = print_linker(anchors(ctx))
    sections = []
    ui = ctx.env.globals["ui"]
    probabilities = probability_tables(ctx)
    for section in reference_sections(ctx):
        if section == "parameters":
            if not game.manifest.parameters:
                continue
            html = blocks.parameters_html(game, tr, row_heads=True)
            sections.append({"title": ui("parameters"), "id": "parameters", "html": html, "src": "game.yaml:1"})
            continue
        if section == "probabilities":
            for i, table in enumerate(probabilities):
                sections.append({"title": _local(table.get("title"), ctx.lang), "id": f"probabilities-{i}",
                                  "html": _probability_html(table, ctx.lang), "src": ""})
            continue
        if not game.section(section):
            continue
        if section == "tables":
            html = Markup("").join(blocks.table_html(t, tr) for t in game.tables.values())
        else:
            html = blocks.records_html(game, section, tr, link)
        title = {"keywords": "glossary"}.get(section, section)
        sections.append({"title": ui(title), "html": html, "id": section, "src": section_mark(game, section)})
    for section in sections:
        section["wide"] = section["id"] in wide
        section["moved"] = section["id"] in moved
    template = ctx.env.get_template("reference.html.j2")
    legend = legend_for(Markup("").join(s["html"] for s in sections), tr)
    return unstated.numbered(template.render(title=ctx.title, sections=sections, editor_legend=legend,
                                             authors=ctx.authors, css=Markup(ctx.css("reference.css"))))


def fit_reference(ctx: BuildContext) -> tuple[frozenset[str], frozenset[str], set[str], set]:
    """Lay the sheet out; a section too wide for its column spans the whole sheet instead,
    a section whose heading is left alone at a column bottom starts the next column, and the
    sheet is laid out again (without the notes a page most likely repeats); then the notes a
    page repeats are left out (notes.py). Returns
    the sections spread and moved, the notes left out, and the files the layout read; the
    last layout is kept for write_pdf."""
    wide = _surely_wide(ctx)
    moved: frozenset[str] = frozenset()
    read = None
    for _round in range(4):
        html = sheet_html(ctx, wide, moved)
        guess = unstated.expected(html)  # the notes a page most likely repeats, left out of the layout
        document, fetcher = render_document(unstated.left_out(html, guess), ctx.game.folder, ctx.roots, keep=True)
        read = fetcher.read if read is None else read
        more = _too_wide(document) - wide
        alone = {s.removeprefix("ref-") for s in lonely_sections(document)} - moved - wide
        if not more and not alone:
            break
        wide, moved = wide | more, moved | (alone if not more else frozenset())
    repeats = unstated.settle(document, html, lambda h: render_document(h, ctx.game.folder, ctx.roots, keep=True)[0],
                              guess)
    return wide, moved, repeats, read


def _surely_wide(ctx: BuildContext) -> frozenset[str]:
    """The sections whose tables are too wide for their column even cut to their widest rows
    (widthprobe.py): they span the sheet from its first layout."""
    narrow = widthprobe.narrowed(sheet_html(ctx))
    if narrow is None:
        return frozenset()
    return frozenset(_too_wide(render_document(narrow, ctx.game.folder, ctx.roots)[0]))


def _too_wide(document) -> set[str]:
    """Ids of sections whose content is wider than the section (its column)."""
    found = set()
    for page in document.pages:
        for box in every_box(page._page_box):
            element = getattr(box, "element", None)
            if element is None or box.element_tag != "section" or "ref-section" not in (element.get("class") or ""):
                continue
            right = box.border_box_x() + box.border_width()
            if any(d.position_x + d.width > right + 1 for d in every_box(box) if isinstance(d.width, (int, float))):
                found.add((element.get("id") or "").removeprefix("ref-"))
    return found


def _local(value, lang: str) -> str:
    if isinstance(value, dict):
        return value.get(lang) or next(iter(value.values()), "")
    return value or ""


def _probability_html(table: dict, lang: str) -> Markup:
    rows = table.get("localized", {}).get(lang) if isinstance(table.get("localized"), dict) else None
    rows = rows or table["rows"]
    head = Markup("").join(Markup("<th>{}</th>").format(_local(c.get("name"), lang)) for c in table["columns"])
    body = Markup("").join(
        Markup("<tr>{}</tr>").format(Markup("").join(Markup("<td>{}</td>").format(row.get(c["id"], ""))
                                                     for c in table["columns"]))
        for row in rows)
    return Markup('<table class="data-table prob"><thead><tr>{}</tr></thead><tbody>{}</tbody></table>').format(head, body)
