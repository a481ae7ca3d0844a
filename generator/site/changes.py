"""The site's page "What changed in VERSION" (changes.html), made by `build --changes-since REF`
from the errata sheet's own entries (changes.json, written beside changes.pdf): each entry
where it is, linked to the chapter's section or the record's page on the site, its page in the
rulebook (linked into the PDF), then "replace … with …", "added" or "removed"."""

from __future__ import annotations

import json

from markupsafe import Markup

from ..print.context import BuildContext

PAGE = "changes.html"
DATA = "changes.json"  # written by the errata sheet (print/documents/changes.py)


def load(ctx: BuildContext) -> dict | None:
    """The errata sheet's entries in this language, or None if the build did not write them."""
    path = ctx.output_dir() / DATA
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("entries"), list) else None


def title(ui, data: dict) -> str:
    """"What changed in 1.1" (or, for a game without a version, "What changed since v1")."""
    if data.get("version"):
        return ui("changes-page").format(version=data["version"])
    return ui("changes-page-unversioned").format(version=data.get("since", ""))


def _where(entry: dict, link_of) -> Markup:
    href = link_of(entry)
    where = Markup(entry.get("where", ""))
    return Markup('<a href="{}">{}</a>').format(href, where) if href else where


def _texts(entry: dict, ui) -> Markup:
    old, new = Markup(entry.get("old") or ""), Markup(entry.get("new") or "")
    action = entry.get("action")
    if action == "added":
        rows = [(ui("change-added"), new, "new")]
    elif action == "removed":
        rows = [(ui("change-removed"), old, "old")]
    elif action == "renamed":
        rows = [("", new, "new")]
    else:
        rows = [(ui("change-replace"), old, "old"), (ui("change-with"), new, "new")]
    return Markup("").join(Markup('<dt>{}</dt><dd class="change-{}">{}</dd>').format(label, side, text)
                           for label, text, side in rows)


def body(entries: list[dict], ui, link_of, rulebook: str | None) -> Markup:
    """The page's entries, each a section: its place (linked), its rulebook page, its texts."""
    out = []
    for number, entry in enumerate(entries, start=1):
        page = entry.get("page")
        at = Markup("")
        if page:
            words = f"{ui('page-short')}\u00a0{page}"
            at = Markup(' <a class="change-page" href="{}#page={}">{}</a>').format(rulebook, page, words) \
                if rulebook else Markup(' <span class="change-page">{}</span>').format(words)
        out.append(Markup('<section class="change" id="change-{}"><h2>{}{}</h2><dl class="change-texts">{}</dl>'
                          '</section>').format(number, _where(entry, link_of), at, _texts(entry, ui)))
    return Markup("").join(out)


def chapter_link(entry: dict, chapters: dict[str, tuple[str, list]]) -> str | None:
    """The address of the chapter section an entry of the rules text stands in:
    `chapters` is chapter file name -> (its page, its headings' anchors in order)."""
    place = entry.get("heading")
    if not place:
        return None
    name, number = place
    page, anchors = chapters.get(name, (None, []))
    if page is None:
        return None
    return f"{page}#{anchors[number]}" if 0 <= number < len(anchors) else page


def rulebook_download(ctx: BuildContext) -> str | None:
    """The rulebook the page numbers are of, as the site offers it for download."""
    return "downloads/rulebook.pdf" if (ctx.output_dir() / "rulebook.pdf").exists() else None


__all__ = ["DATA", "PAGE", "body", "chapter_link", "load", "rulebook_download", "title"]
