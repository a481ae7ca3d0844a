"""The editor's-text mark: a small «ред.» / "ed." after a text that is this edition's wording,
not the source's (a gloss, a heading, a short label where the source gives none).

A record lists such fields under `editor:` (dotted paths: `text`, `faces.2.text`,
`rows.0.effect`). Wherever one of them prints (rulebook, reference sheet, card face, site page,
keyword tooltip) the mark follows it, the way a `::: note editor` aside carries its label, and
the document or page that shows a mark says once what it means (`legend_for`). The mark is
left out of the site's search index.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from ..i18n.messages import record_strings
from .cases import apply_case

MARK_CLASS = "editor-mark"
LEGEND_CLASS = "editor-legend"


def text_fields(record: Any) -> set[str]:
    """Dotted paths of every text field of a record a translator sees: what `editor:` may name."""
    return {".".join(map(str, path)) for path, _text in record_strings(record)}


def is_editors(record: Any, *path: Any) -> bool:
    """Whether record.<path> is listed in the record's `editor:`."""
    listed = getattr(record, "editor", ())
    return bool(listed) and ".".join(map(str, path)) in listed


def mark(tr: Any, before: str = "") -> Markup:
    """The mark itself: the short word (after `before`), with what it means as tooltip and
    accessible label; never indexed for search (it is not the text's own word)."""
    label = tr.ui("editor-mark-label")
    return Markup('<span class="{}" role="note" title="{}" aria-label="{}" data-pagefind-ignore>{}{}</span>').format(
        MARK_CLASS, label, label, before, tr.ui("editor-mark"))


def mark_if_editors(record: Any, path: tuple | str, tr: Any) -> Markup:
    """The mark when record.<path> is the editor's text, else nothing."""
    parts = tuple(path.split(".")) if isinstance(path, str) else tuple(path)
    return trailing_mark(tr) if is_editors(record, *parts) else Markup("")


def trailing_mark(tr: Any) -> Markup:
    """The mark as it follows a text (a no-break space, then the mark): for a heading of
    the rules the edition wrote (`{.editor}` before it in the chapter). The space is inside
    the mark's element: a text that ends in a no-break space before an element makes
    WeasyPrint break its line at the first space it can, leaving one word on a line."""
    return mark(tr, before="\u00a0")


def field_html(record: Any, tr: Any, *path: Any, case: str | None = None) -> Markup:
    """A record's text field in this language, escaped, followed by the mark where it is the editor's;
    `case`: a reference's case form (text/cases.py)."""
    return Markup("{}{}").format(apply_case(tr.field(record, *path), case), mark_if_editors(record, path, tr))


def marked(html: str) -> bool:
    """Whether a piece of HTML shows at least one mark."""
    return f'class="{MARK_CLASS}"' in str(html)


def legend(tr: Any) -> Markup:
    """The one line that says what the mark means."""
    words = tr.ui("editor-legend")
    shown = Markup('<span class="{}">{}</span>').format(MARK_CLASS + "-sample", tr.ui("editor-mark"))
    before, sep, after = words.partition("{mark}")
    return Markup('<p class="{}" data-pagefind-ignore>{}{}{}</p>').format(
        LEGEND_CLASS, before, shown if sep else Markup(""), after)


def legend_for(html: str, tr: Any) -> Markup:
    """The legend, when `html` shows a mark; nothing otherwise."""
    return legend(tr) if marked(html) else Markup("")
