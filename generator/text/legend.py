"""A document's legend: one line for each mark the document shows, said once where it is read.

The marks: «ред.»/ed. after the editor's text (editorial.py), † after a word or value printed as
the source writes it (an erratum's mark, blocks.ERRATUM_MARK), ?‡ for a value the source does
not give (values.UNSTATED_SIGN), the DRAFT stamp with its "Incomplete: …" line. A mark the
document does not show gets no line.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ..values import UNSTATED_SIGN
from . import editorial
from .blocks import ERRATUM_MARK

LEGEND_CLASS = "mark-legend"


def _line(tr: Any, key: str, **marks: Markup) -> Markup:
    """The interface sentence `key` with its {placeholders} filled (each escaped as it goes)."""
    words = str(Markup.escape(tr.ui(key)))
    for name, mark in marks.items():
        words = words.replace("{" + name + "}", str(mark))
    return Markup('<p class="{}" data-pagefind-ignore>{}</p>').format(LEGEND_CLASS, Markup(words))


def shows(html: str) -> dict[str, bool]:
    """Which marks a piece of HTML shows."""
    text = str(html)
    return {"editor": editorial.marked(text),
            "erratum": 'class="erratum-mark"' in text,
            "unstated": UNSTATED_SIGN in text,
            "draft": 'class="draft"' in text or 'class="incomplete-reason"' in text}


def legend_for(html: str, tr: Any) -> Markup:
    """The legend of every mark `html` shows; nothing when it shows none."""
    used = shows(html)
    lines = []
    if used["editor"]:
        lines.append(editorial.legend(tr))
    if used["erratum"]:
        sample = Markup('<span class="erratum-sample">{}</span>').format(ERRATUM_MARK)
        lines.append(_line(tr, "erratum-legend", mark=sample))
    if used["unstated"]:
        lines.append(_line(tr, "unstated-legend", mark=Markup("{}").format(UNSTATED_SIGN)))
    if used["draft"]:
        stamp = Markup('<span class="draft-sample">{}</span>').format(tr.ui("draft"))
        lines.append(_line(tr, "draft-legend", mark=stamp, incomplete=Markup("{}").format(tr.ui("incomplete"))))
    return Markup("").join(lines)
