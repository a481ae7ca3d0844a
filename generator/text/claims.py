"""Numbers in a worked example's prose, bound to what its check block shows.

A number the reader sees in an example is a claim about the rules. Written as
`[three]{result=killed}` it is bound: the rules checker compares it with the run of the
example's check block. Written `[2]{.free}` it is marked free text (a page, "Example 1",
"2 players"): not a claim. A number written bare is unbound, and `validate` asks to bind it.

    [3]{input=dice_count}     an input of the check block (a list counts its items, 4+ is 4)
    [two]{result=hits}        a result of the run with the block's dice
    [5]{die=1}                the first face the block's dice show
    [1]{result=kept check=2}  the same, of the example's second check block (default: the first)
    [EXPANSION 2]{.free}      free text: any words, no claim
    [3]{result=killed erratum=ID}  the source says 3 where the rules give another number:
                              the erratum ID of data/errata.yaml records the discrepancy

Readers see only the bracketed words: the markup is removed when the text is parsed
(`claim_plugin`), in the source and in every translation.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

from . import negation
from .numbers import numerals, value_of

FREE = ".free"
KINDS = {
    "input": "an input of the check block: input=NAME",
    "result": "a result of the run with the block's dice: result=NAME",
    "die": "a face the block's dice show, counted from 1: die=N",
}
# `[words]{attributes}`: attributes that start like a binding (`.free`, `key=`)
_BOUND = re.compile(r"\[([^\[\]\n]+)\]\{(\s*(?:\.|[A-Za-z_-]+\s*=)[^{}\n]*)\}")
# what is not prose: references, code, link targets, footnote marks
_NOT_PROSE = re.compile(r"\{\{.*?\}\}|`[^`]*`|\]\([^)]*\)|\[\^[^\]]*\]", re.S)


@dataclass(frozen=True)
class Binding:
    """What a bound number is compared with: an input, a result or a die of check `check`."""

    kind: str       # input | result | die
    name: str       # the input or result (a dotted path into a mapping or list), or the die's number
    check: int = 1  # which check block of the example, from 1
    erratum: str | None = None  # the erratum recording that the source's number differs from the rules'

    def __str__(self) -> str:
        return (f"{self.kind}={self.name}" + (f" check={self.check}" if self.check != 1 else "")
                + (f" erratum={self.erratum}" if self.erratum else ""))


@dataclass(frozen=True)
class Claim:
    """A number written in prose: where (offsets into the paragraph), as written, its value,
    and how it is marked."""

    start: int
    end: int
    text: str
    value: Fraction | None            # None: the bracketed words are not one number
    binding: Binding | None = None
    free: bool = False
    problems: tuple[str, ...] = field(default=())  # what is wrong with its markup
    article: bool = False  # bare, and a word that is also an article (numbers.is_article)

    @property
    def state(self) -> str:
        return "free" if self.free else "bound" if self.binding is not None else "unbound"

    @property
    def key(self) -> tuple[str, Fraction | None]:
        """What a translation must keep of a bound or bare number: the binding and the number."""
        return str(self.binding) if self.binding else "", self.value


def parse_attributes(attrs: str) -> tuple[Binding | None, bool, list[str]]:
    """(binding, free, problems) of the attributes of `[words]{...}`."""
    items = attrs.split()
    free = FREE in items
    values, problems = _attribute_values(items)
    kinds = [k for k in KINDS if k in values]
    problems += _conflicts(free, kinds) + _uncounted(values)
    if kinds and not problems:
        return Binding(kinds[0], values[kinds[0]], int(values.get("check", "1")), values.get("erratum")), False, problems
    if not free and not problems:
        problems.append("nothing bound")
    return None, free and not kinds, problems


_ATTRIBUTES = (*KINDS, "check", "erratum")
# attributes that count from 1, and what they count
_COUNTED = {"check": "the example's check blocks count from 1", "die": "the dice shown count from 1"}


def _attribute_values(items: list[str]) -> tuple[dict[str, str], list[str]]:
    """(attribute -> value, problems) of the `key=value` items (`.free` aside): each known
    attribute given once, with a value."""
    values: dict[str, str] = {}
    problems = []
    for item in items:
        if item == FREE:
            continue
        key, sep, value = item.partition("=")
        if not sep or not value:
            problems.append(f"'{item}' is not a binding")
        elif key not in _ATTRIBUTES:
            problems.append(f"unknown binding '{key}'")
        elif key in values:
            problems.append(f"'{key}' given twice")
        else:
            values[key] = value
    return values, problems


def _conflicts(free: bool, kinds: list[str]) -> list[str]:
    """A number bound and marked free, or bound twice."""
    problems = []
    if free and kinds:
        problems.append("a number is either bound or free, not both")
    if len(kinds) > 1:
        problems.append("one binding per number: " + ", ".join(kinds))
    return problems


def _uncounted(values: dict[str, str]) -> list[str]:
    """An attribute that counts from 1 (_COUNTED) given something else (a superscript ² is a
    digit to str.isdigit, but no number to int)."""
    return [f"{key}={values[key]}: {counts}" for key, counts in _COUNTED.items()
            if key in values and not (values[key].isdecimal() and int(values[key]) >= 1)]


def _masked(text: str) -> str:
    """The text with what is not prose blanked out (offsets kept)."""
    return _NOT_PROSE.sub(lambda m: " " * len(m.group(0)), text)


def claims(text: str, lang: str, articles: bool = False) -> list[Claim]:
    """Every number of a paragraph's Markdown source: bound, free, or bare (unbound). A bare
    word that is also an article ('eine Schlacht') is no claim; with `articles`, it is listed
    as an unbound claim flagged `article` (a translation's word that may stand for a number
    of its source)."""
    masked = _masked(text)
    out: list[Claim] = []
    taken: list[tuple[int, int]] = []
    for m in _BOUND.finditer(masked):
        binding, free, problems = parse_attributes(m.group(2))
        words = text[m.start(1):m.end(1)]
        value = value_of(words, lang)
        if value is None and not free:
            problems = [f"'{words}' is not a number (write one number, in digits or as a word)", *problems]
        out.append(Claim(m.start(), m.end(), words, value, binding, free, tuple(problems)))
        taken.append((m.start(), m.end()))
    for numeral in numerals(masked, lang):
        if (articles or not numeral.article) and not any(a <= numeral.start < b for a, b in taken):
            out.append(Claim(numeral.start, numeral.end, numeral.text, numeral.value, article=numeral.article))
    return sorted(out, key=lambda c: c.start)


def plain(text: str) -> str:
    """The text as readers see it: binding markup removed (`[3]{result=hits}` -> `3`)."""
    return _BOUND.sub(lambda m: m.group(1), text)


def compare(source: str, translation: str, source_lang: str, lang: str) -> str | None:
    """What a translation of an example's prose changes in its claims, or None. Each bound
    number of the source is there with the same value and binding, and no other; a number
    the translation leaves bare is one more claim. A bare word that is also an article
    ('einen Würfel') counts for a bare number of the source the translation otherwise lacks
    ("one die"), and is no claim on its own ('eine Schlacht'). Free text is the translator's
    to word, but the numbers in it are the source's: a translation may drop one, or add one
    the language needs, not change one. A negation the source has and the translation lacks
    (or the other way) turns the claim over: negation.py reports it."""
    ours, theirs = claims(source, source_lang), claims(translation, lang, articles=True)
    a = Counter(c.key for c in ours if not c.free)
    b = Counter(c.key for c in theirs if not c.free and not c.article)
    b += Counter(c.key for c in theirs if c.article) & (a - b)
    problems = []
    if a - b:
        problems.append("drops " + _shown(a - b, ours))
    if b - a:
        problems.append("adds " + _shown(b - a, theirs))
    changed = _free_changed(ours, theirs, source_lang, lang)
    if changed:
        problems.append(changed)
    negated = negation.lost(source, translation, source_lang, lang)
    if negated:
        problems.append(negated)
    return "; ".join(problems) or None


def _free_changed(ours: list[Claim], theirs: list[Claim], source_lang: str, lang: str) -> str | None:
    """How a translation's free text changes a number of its source's, or None. A free number
    the source's free text does not say is the language's own ('[zwei]{.free}' where the source
    says 'both') unless the translation also lacks one of the source's: then it replaced it."""
    said = Counter(n.value for c in ours if c.free for n in numerals(c.text, source_lang) if not n.article)
    written = [n for c in theirs if c.free for n in numerals(c.text, lang) if not n.article]
    added = [n for n in written if n.value not in said]
    if not added or not said - Counter(n.value for n in written):
        return None
    return "free text says " + ", ".join(n.text for n in added) + ", the source's does not"


def _shown(keys: Counter, claims_: list[Claim]) -> str:
    """The claims of `keys` as the side that has them writes them, each word it compared named:
    '[3]{result=killed}', '[drei]{result=killed} = 3', '2 (unbound)', "'both' = 2 (unbound)"."""
    written: dict[tuple, list[str]] = {}
    for claim in claims_:
        if not claim.free:
            written.setdefault(claim.key, []).append(claim.text)
    out = []
    for key in sorted(keys.elements(), key=str):
        words = written.get(key) or [""]
        out.append(_show(key, words.pop(0) if len(words) > 1 else words[0]))
    return ", ".join(out)


def _show(key: tuple[str, Fraction | None], word: str = "") -> str:
    mark, value = key
    shown = "?" if value is None else str(value)
    said = word.strip()
    if not said or said == shown or re.fullmatch(r"\d+(?:[.,]\d+)?", said):
        return f"[{said or shown}]{{{mark}}}" if mark else f"{said or shown} (unbound)"
    return f"[{said}]{{{mark}}} = {shown}" if mark else f"'{said}' = {shown} (unbound)"


# --- the Markdown rule: readers see the words only ---------------------------------------

def _claim_rule(state: StateInline, silent: bool) -> bool:
    if state.src[state.pos] != "[":
        return False
    m = _BOUND.match(state.src, state.pos)
    if m is None or m.end() > state.posMax:
        return False
    if not silent:
        token = state.push("text", "", 0)
        token.content = m.group(1)
        token.meta = {"claim": m.group(2).strip()}
    state.pos = m.end()
    return True


def claim_plugin(md: MarkdownIt) -> None:
    """`[words]{binding}` prints as its words (before links: it is not one)."""
    md.inline.ruler.before("link", "claim", _claim_rule)


__all__ = ["Binding", "Claim", "FREE", "KINDS", "claim_plugin", "claims", "compare", "parse_attributes", "plain"]
