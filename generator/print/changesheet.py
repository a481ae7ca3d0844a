"""The errata sheet, `changes.pdf`: every change of a game since an older version as a
publisher posts it, in one edition's language. Each entry says where (the record, or the
chapter and headings), then "replace … with …", "added" or "removed". The new text is the
edition's where its catalog translates it, else the source's marked untranslated (like the
rulebook, W005); the old text is rendered from the older version with its own catalog."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

from ..changes import ADDED, REMOVED, RENAMED, Change
from ..changes.compare import compare
from ..changes.versions import from_git
from ..core.diagnostics import Report
from ..i18n.translate import Translator
from ..project import Project
from ..reading.game import Game
from ..text.chapters import RULES_DIR, load_chapter
from ..text.render import RenderContext, render_chapter
from .context import BuildContext

# Changes a printed errata sheet leaves out: check blocks and example verdicts do not print.
NOT_PRINTED = ("check", "example")
TEXT_KINDS = ("paragraph", "heading", "item", "row")


@dataclass(frozen=True)
class Edition:
    """One version of the game as the sheet renders it: the game and its translator."""

    game: Game
    tr: Translator

    def markdown(self, text: str | None) -> Markup:
        """A block of rules text rendered in this edition's language (references as words)."""
        if text is None:
            return Markup("")
        chapter = load_chapter(self.game.folder / RULES_DIR / "changes.md", text)
        return render_chapter(chapter, RenderContext(self.game, self.tr, "site", lambda record: None)).html


def sheet_entries(ctx: BuildContext, ref: str) -> tuple[list[dict], str]:
    """The sheet's entries, and the older version's name (its `version:`, else REF)."""
    with from_git(ctx.project_root, ctx.game.id, ref) as old_root:
        old = Project(old_root).read(ctx.game.id, Report())
        if old is None:
            raise ValueError(f"the version of {ctx.game.id} at {ref} cannot be loaded; "
                             f"run 'rulesmith changes {ctx.game.id} --since {ref}' to see why")
        before, after = Edition(old, Translator.load(old, ctx.lang)), Edition(ctx.game, ctx.tr)
        entries = [_entry(ctx, change, before, after) for change in compare(old, ctx.game, examples=False)
                   if change.kind not in NOT_PRINTED and not (change.action == RENAMED and not change.note)]
        return entries, old.manifest.version or ref


def _where(ctx: BuildContext, change: Change) -> str:
    """Where the change is, in the edition's words: a record's name, or the chapter and headings."""
    tr = ctx.tr
    if change.record is not None:
        record = ctx.game.section(change.record[0]).get(change.record[1])
        name = tr.field(record, "name") if record is not None and getattr(record, "name", None) else change.record[1]
        stat = _stat_name(ctx, change.part) if change.action not in (ADDED, REMOVED, RENAMED) else None
        return f"{name}: {stat}" if stat else name  # a stat by its printed name; other fields show themselves
    if change.trail:
        return " › ".join(tr.text(heading) for heading in change.trail)
    return change.location.path.stem


def _stat_name(ctx: BuildContext, part: str) -> str | None:
    """A stat's name as game.yaml gives it (translated); None for another field."""
    stat = ctx.game.stat_def(part)
    if stat is None:
        return None
    index = ctx.game.manifest.stats.index(stat)
    return ctx.tr.manifest("stats", index, "name")


def _value(ctx: BuildContext, change: Change, side: str) -> Markup:
    """A field's old or new value as this edition prints it: the edition's text where its
    catalogs give it, else the source's, marked untranslated as the rulebook marks it."""
    if getattr(change, side) is None:
        return Markup("")
    edition = change.editions.get(ctx.lang)
    text = getattr(edition, side) if edition is not None else None
    if text is not None or edition is None:
        return Markup("<p>{}</p>").format(text if text is not None else getattr(change, side))
    return Markup('<p><span class="untranslated" lang="{}" title="{}">{}</span></p>').format(
        ctx.game.manifest.source_language, ctx.tr.ui("untranslated"), getattr(change, side))


def _entry(ctx: BuildContext, change: Change, before: Edition, after: Edition) -> dict:
    if change.kind in TEXT_KINDS:
        old, new = before.markdown(change.old), after.markdown(change.new)
    elif change.action == RENAMED:  # the id does not print: what else changed in the record does
        old, new = Markup(""), Markup("<p>{}</p>").format(change.note)
    else:
        old, new = _value(ctx, change, "old"), _value(ctx, change, "new")
    return {"where": escape(_where(ctx, change)), "action": change.action, "old": old, "new": new,
            "src": f"{change.location.path.relative_to(ctx.game.folder).as_posix()}:{change.location.line}"
            if change.location.path.is_relative_to(ctx.game.folder) else ""}


def changes_html(ctx: BuildContext, ref: str) -> str:
    """The sheet's HTML."""
    entries, since = sheet_entries(ctx, ref)
    template = ctx.env.get_template("changes.html.j2")
    return template.render(title=ctx.title, entries=entries, since=since, version=ctx.game.manifest.version or "",
                           authors=ctx.authors, css=Markup(ctx.css("changes.css")))
