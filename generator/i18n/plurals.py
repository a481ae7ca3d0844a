"""Plural forms: which form of a counted word a number takes in a language.

The language's rule is CLDR's, read through Babel: its plural categories (`one`, `few`,
`many`, `other`, ...) and which one a number falls in ("1 cal", "2 cale", "5 cali"). A source
declares a counted word's form for each category of its language (game.yaml measures:); a
catalog gives its forms as gettext does, `msgstr[N]` chosen by its `Plural-Forms` header
(`nplurals=3; plural=(...)`; Babel's gettext rule for the language where the header is
missing). `categories_of_forms` says which CLDR category each `msgstr[N]` is, and where the
header disagrees with CLDR.
"""

from __future__ import annotations

import gettext
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from babel import Locale, UnknownLocaleError
from babel.messages.plurals import get_plural

# CLDR's plural categories in CLDR's (and gettext's form) order.
CATEGORIES = ("zero", "one", "two", "few", "many", "other")
# The counts a catalog's Plural-Forms is compared with CLDR on: every count a game prints.
COMPARED = range(0, 1001)
_PLURAL = re.compile(r"plural\s*=\s*(.+?);?\s*$")
_COUNT = re.compile(r"nplurals\s*=\s*(\d+)")


@lru_cache(maxsize=None)
def locale_of(lang: str) -> Locale:
    """The CLDR locale of a language code (`pl`, `pt-BR`); English for one CLDR does not know."""
    try:
        return Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return Locale.parse("en")


def language_name(lang: str) -> str:
    """The language's English name (CLDR): Polish; the code itself for one CLDR does not know."""
    name = locale_of(lang).english_name
    return name if locale_of(lang).language != "en" or lang.split("-")[0].lower() == "en" else f"'{lang}'"


@lru_cache(maxsize=None)
def categories(lang: str) -> tuple[str, ...]:
    """The plural categories a language counts with, in CLDR's order (Polish: one, few, many, other)."""
    tags = set(locale_of(lang).plural_form.tags) | {"other"}
    return tuple(c for c in CATEGORIES if c in tags)


def category(lang: str, amount: float) -> str:
    """The CLDR category of a count: pl 1 -> one, 2 -> few, 5 -> many, 1.5 -> other."""
    amount = abs(amount)
    return locale_of(lang).plural_form(int(amount) if float(amount).is_integer() else amount)


@lru_cache(maxsize=None)
def whole_categories(lang: str) -> tuple[str, ...]:
    """The categories whole counts (0 to 1000) fall in: the forms a counted word needs in print."""
    found = {category(lang, n) for n in COMPARED}
    return tuple(c for c in CATEGORIES if c in found)


def rule_text(lang: str, header: str | None = None) -> str:
    """The Plural-Forms rule of a language: the catalog's header if it gives one, else the
    gettext rule Babel gives for the language."""
    if header and _PLURAL.search(header):
        return header
    try:
        return get_plural(locale_of(lang)).plural_forms
    except (UnknownLocaleError, ValueError):
        return "nplurals=2; plural=(n != 1);"


def form_count(rule: str) -> int:
    """How many forms a Plural-Forms rule has (nplurals)."""
    found = _COUNT.search(rule)
    return int(found.group(1)) if found else 2


@lru_cache(maxsize=None)
def chooser(rule: str) -> Callable[[int], int]:
    """The index of the form a whole number takes under a Plural-Forms rule; ValueError for a
    rule that is no C expression gettext reads."""
    found = _PLURAL.search(rule)
    if not found:
        raise ValueError("no 'plural=' expression")
    return gettext.c2py(found.group(1))


@lru_cache(maxsize=None)
def categories_of_forms(rule: str, lang: str) -> tuple[dict[int, str], str | None]:
    """Which CLDR category each `msgstr[N]` of a catalog under `rule` is ({0: one, 1: few,
    2: many} in Polish), and what disagrees with CLDR (None if nothing): a form that counts of
    two categories share, a category split over two forms, a form no count takes, or a form
    index beyond nplurals."""
    try:
        choose = chooser(rule)
        picked = {n: choose(n) for n in COMPARED}
    except (ValueError, SyntaxError, TypeError, ZeroDivisionError, RecursionError) as exc:
        return {}, f"its plural expression cannot be read ({exc})"
    count, seen = form_count(rule), {}
    for n, index in picked.items():
        seen.setdefault(index, {}).setdefault(category(lang, n), n)
    for index, found in sorted(seen.items()):
        if index >= count or index < 0:
            return {}, f"it gives the count {next(iter(found.values()))} form {index}, beyond nplurals={count}"
        if len(found) > 1:
            return {}, (f"form {index} serves " + " and ".join(f"{c} ({n})" for c, n in found.items())
                        + ", which CLDR counts apart")
    forms = {index: next(iter(found)) for index, found in seen.items()}
    split = [c for c in set(forms.values()) if list(forms.values()).count(c) > 1]
    if split:
        first = split[0]
        return {}, f"it splits CLDR's '{first}' over forms " + ", ".join(str(i) for i, c in forms.items() if c == first)
    unused = [i for i in range(count) if i not in forms]
    spare = [c for c in categories(lang) if c not in forms.values()]  # a fraction's category (pl, ru: other)
    if len(unused) > len(spare):
        return {}, f"nplurals={count}, but {len(seen)} form(s) are what CLDR's {', '.join(categories(lang))} need"
    forms.update(zip(unused, spare))
    return forms, None


@dataclass(frozen=True)
class CountedWord:
    """A word printed after a number that changes with it ("1 cal", "2 cale", "5 cali"): its
    form for each CLDR category of its language, and the word where a number takes a category
    it gives no form for (and where no number stands before it: a column's unit)."""

    forms: tuple[tuple[str, str], ...]
    lang: str
    general: str

    @classmethod
    def from_catalog(cls, forms: tuple[str, ...], rule: str, lang: str) -> "CountedWord":
        """A catalog's msgstr[0..N] under its Plural-Forms rule (Babel's where the rule disagrees
        with CLDR: validate reports that, E025). A fraction, where the catalog has no form for
        its category, takes the form of 2 ("1,5 шага")."""
        placed, problem = categories_of_forms(rule, lang)
        if problem:
            placed, _ = categories_of_forms(rule_text(lang), lang)
        named = tuple((placed[i], form) for i, form in enumerate(forms) if i in placed)
        general = dict(named).get(category(lang, 2)) or forms[min(1, len(forms) - 1)]
        return cls(named, lang, general)

    def for_count(self, amount: float) -> str:
        """The form for `amount` in this word's language."""
        return dict(self.forms).get(category(self.lang, amount), self.general)

    def __str__(self) -> str:
        return self.general


__all__ = ["CATEGORIES", "CountedWord", "categories", "categories_of_forms", "category", "chooser", "form_count",
           "language_name", "rule_text", "whole_categories"]
