"""The Markdown dialect of rules text: CommonMark + tables, footnotes, definition lists,
`::: note` / `::: example ID` / `::: rule ID` containers, `{{ kind:id }}` references and
`[3]{result=hits}` numbers bound to a worked example's check (printed as their words)."""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt
from mdit_py_plugins.attrs import attrs_block_plugin
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.substitution import substitution_plugin

from .claims import claim_plugin

# note: for designers only; example: a worked case; rule: normative text whose check blocks
# the rules checker runs (printed as plain rules text with a discreet verified mark)
CONTAINERS = ("note", "example", "rule")
CHECKED = ("example", "rule")  # containers whose check blocks the checker runs
# whose aside a note is: `::: note designer` (the source's own remark), `::: note translator`,
# `::: note editor` (the edition's remark on the source); a bare `::: note` says nothing
NOTE_KINDS = ("designer", "translator", "editor")
# `{.editor}` on the line before a heading: the heading is the edition's, not the source's
# (a section the source leaves untitled); it prints with the editor's-text mark (editorial.py)
EDITOR_CLASS = "editor"


@lru_cache(maxsize=1)
def parser() -> MarkdownIt:
    """The shared parser (never give it render rules: see render.py for that)."""
    return build()


def build() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"typographer": False, "html": False}).enable("table").enable("strikethrough")
    md.use(footnote_plugin).use(deflist_plugin).use(substitution_plugin).use(attrs_block_plugin)
    md.use(claim_plugin)  # `[3]{result=hits}`: a worked example's number bound to its check (claims.py)
    for name in CONTAINERS:
        md.use(container_plugin, name=name)
    return md


def container_info(info: str) -> tuple[str, str]:
    """'example fortification' -> ('example', 'fortification')."""
    name, _, rest = info.strip().partition(" ")
    return name, rest.strip()
