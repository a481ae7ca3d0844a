"""The reference sheet: the tables a player keeps beside the board."""

from __future__ import annotations

import json

from markupsafe import Markup

from ..text import blocks
from .context import BuildContext, print_linker, section_mark
from .rulebook import APPENDIX_SECTIONS, anchors


def probability_tables(ctx: BuildContext) -> list[dict]:
    """Tables computed by the rules checker (output/<game>/tables/*.json), if it has run."""
    folder = ctx.project_root / "output" / ctx.game.id / "tables"
    out = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and "columns" in data and "rows" in data:
            out.append(data)
    return out


def reference_html(ctx: BuildContext) -> str:
    game, tr = ctx.game, ctx.tr
    link = print_linker(anchors(ctx))
    sections = []
    ui = ctx.env.globals["ui"]
    for section in APPENDIX_SECTIONS:
        if not game.section(section):
            continue
        if section == "tables":
            html = Markup("").join(blocks.table_html(t, tr) for t in game.tables.values())
        else:
            html = blocks.records_html(game, section, tr, link)
        title = {"keywords": "glossary"}.get(section, section)
        sections.append({"title": ui(title), "html": html, "id": section, "src": section_mark(game, section)})
    if game.manifest.parameters:
        rows = Markup("").join(
            Markup("<tr><td>{}</td><td>{}</td></tr>").format(tr.manifest("parameters", i, "name"),
                                                             _param_value(p))
            for i, p in enumerate(game.manifest.parameters))
        sections.insert(0, {"title": ui("parameters"), "id": "parameters",
                            "html": Markup('<table class="data-table"><tbody>{}</tbody></table>').format(rows),
                            "src": "game.yaml:1"})
    template = ctx.env.get_template("reference.html.j2")
    return template.render(title=ctx.title, sections=sections, probabilities=probability_tables(ctx),
                           authors=", ".join(game.manifest.authors), css=Markup(ctx.css("reference.css")))


def _param_value(param) -> str:
    """The number, with its unit only where the unit is a distance (other units are ids)."""
    from ..values import UNIT_WORDS

    unit = (param.unit or "").lower()
    return f"{param.value} {param.unit}" if unit in UNIT_WORDS else f"{param.value}"
