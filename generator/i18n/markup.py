"""A translation keeps its source's markup: references, links, emphasis, code."""

from __future__ import annotations

import re
from collections import Counter

from ..text.cases import split_case
from ..text.markdown import parser

_REF = re.compile(r"\{\{\s*(.*?)\s*\}\}")
_COUNTED = ("strong_open", "em_open", "s_open", "code_inline", "link_open", "image", "footnote_ref")


def signature(text: str) -> dict[str, Counter]:
    tokens = parser().parseInline(text)
    children = [c for t in tokens for c in (t.children or [])]
    shape = Counter(c.type for c in children if c.type in _COUNTED)
    links = Counter(c.attrs.get("href", "") for c in children if c.type == "link_open")
    leftovers = Counter(ch for c in children if c.type == "text" for ch in c.content if ch in "*`")
    return {
        # a reference's display text (`{{ unit:gun | guns }}`) is the translator's to write
        # and so is its case form (`{{ unit:gun !lower }}`: German keeps its nouns capitalised)
        "references": Counter(" ".join(split_case(m)[0].split("|")[0].split()) for m in _REF.findall(text)),
        "markup": shape,
        "links": links,
        "stray": leftovers,
    }


_MARKUP_CHARS = re.compile(r"[*_`\[\]{}!~<>^]")


def mismatch(source: str, translation: str) -> str | None:
    """What the translation dropped or added compared with its source, or None."""
    if not _MARKUP_CHARS.search(source) and not _MARKUP_CHARS.search(translation):
        return None  # plain text on both sides: nothing to compare
    a, b = signature(source), signature(translation)
    problems = []
    if a["references"] != b["references"]:
        lost = a["references"] - b["references"]
        extra = b["references"] - a["references"]
        if lost:
            problems.append("drops " + ", ".join(f"{{{{ {r} }}}}" for r in lost))
        if extra:
            problems.append("adds " + ", ".join(f"{{{{ {r} }}}}" for r in extra))
    if a["links"] != b["links"]:
        changed = {link for link in set(a["links"]) | set(b["links"]) if a["links"][link] != b["links"][link]}
        problems.append("changes links (" + ", ".join(sorted(changed)) + ")")
    if a["markup"] != b["markup"]:
        names = {"strong_open": "bold", "em_open": "emphasis", "s_open": "strikethrough",
                 "code_inline": "code", "link_open": "link", "image": "image", "footnote_ref": "footnote"}
        diff = []
        for kind in set(a["markup"]) | set(b["markup"]):
            if a["markup"][kind] != b["markup"][kind]:
                diff.append(f"{names[kind]} {a['markup'][kind]}→{b['markup'][kind]}")
        problems.append("markup differs: " + ", ".join(sorted(diff)))
    elif b["stray"] - a["stray"]:
        problems.append("unbalanced markup: stray " + "".join(sorted((b["stray"] - a["stray"]).elements())))
    return "; ".join(problems) or None
