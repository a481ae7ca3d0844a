"""Plural forms: which form of a counted word a number takes in a language.

A catalog says it in its `Plural-Forms` header, as gettext does (`nplurals=3; plural=(...)`);
a catalog without one, and the source language, take the language's rule from the table
below (the rules of the GNU gettext manual). Form 0 is the one for 1 in every language here.
"""

from __future__ import annotations

import gettext
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

_TWO = "nplurals=2; plural=(n != 1);"
_EAST_SLAVIC = ("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) "
                "? 1 : 2);")
RULES = {
    "en": _TWO, "de": _TWO, "es": _TWO, "it": _TWO, "pt": _TWO, "nl": _TWO,
    "fr": "nplurals=2; plural=(n > 1);",
    "ru": _EAST_SLAVIC, "uk": _EAST_SLAVIC,
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
}
_PLURAL = re.compile(r"plural\s*=\s*(.+?);?\s*$")
_COUNT = re.compile(r"nplurals\s*=\s*(\d+)")


def rule_text(lang: str, header: str | None = None) -> str:
    """The Plural-Forms rule of a language: the catalog's header if it gives one, else the table's
    (a language the table lacks counts as English)."""
    return header if header and _PLURAL.search(header) else RULES.get(lang.split("-")[0].lower(), _TWO)


def form_count(rule: str) -> int:
    """How many forms a Plural-Forms rule has (nplurals)."""
    found = _COUNT.search(rule)
    return int(found.group(1)) if found else 2


@lru_cache(maxsize=None)
def chooser(rule: str) -> Callable[[int], int]:
    """The index of the form a whole number takes under a Plural-Forms rule."""
    return gettext.c2py(_PLURAL.search(rule).group(1))


@dataclass(frozen=True)
class CountedWord:
    """A word printed after a number that changes with it ("1 pace", "2 paces"; "1 шаг",
    "2 шага", "5 шагов"): its forms in the order of the language's rule."""

    forms: tuple[str, ...]
    rule: str

    def for_count(self, amount: float) -> str:
        """The form for `amount`; a number with a fraction takes the form of 2 ("1.5 paces",
        "1,5 шага")."""
        whole = int(amount) if float(amount).is_integer() else 2
        index = chooser(self.rule)(abs(whole))
        return self.forms[min(index, len(self.forms) - 1)]

    def __str__(self) -> str:
        """The word where no number stands before it (a column's unit): the general plural."""
        return self.forms[min(1, len(self.forms) - 1)]


__all__ = ["CountedWord", "RULES", "chooser", "form_count", "rule_text"]
