"""Negation as a language writes it in prose: "не", "not", "kein". A translated worked example
that loses the source's negation ("the unit is not destroyed" → "the unit is destroyed") states
the opposite claim with the same numbers, so claims.compare reports a negation that one side has
and the other lacks. Only the words of this small table count; a language it does not hold is
not compared."""

from __future__ import annotations

import re

from .numbers import WORD, fold

_WORDS: dict[str, str] = {
    "ru": "не нет ни нельзя никто ничто ничего ничем никого никому никакой никакая никакое никакие "
          "никаких никакого никакому никаким никогда нигде никуда",
    "en": "not no none never nothing nobody neither nor cannot without unless",
    "de": "nicht kein keine keinen keinem keiner keines nie niemals nichts niemand weder ohne",
}
_CONTRACTION = re.compile(r"n[’']t\b", re.IGNORECASE)  # can't, doesn't, isn't


def languages() -> set[str]:
    """The languages whose negation this table knows."""
    return set(_WORDS)


def negations(text: str, lang: str) -> list[str]:
    """The negating words of `text`, as written, in order (empty for a language not in the table)."""
    table = _WORDS.get(lang.split("-")[0].lower())
    if table is None:
        return []
    known = set(table.split())
    found = [m.group(0) for m in WORD.finditer(text) if fold(m.group(0)) in known]
    if lang.split("-")[0].lower() == "en":
        found += [m.group(0) for m in _CONTRACTION.finditer(text)]
    return found


def lost(source: str, translation: str, source_lang: str, lang: str) -> str | None:
    """Which side negates when the other does not, in words; None when both do or neither
    does, or when either language is not in the table."""
    if not {source_lang.split("-")[0].lower(), lang.split("-")[0].lower()} <= languages():
        return None
    ours, theirs = negations(source, source_lang), negations(translation, lang)
    if ours and not theirs:
        return f"negation lost: the source says «{ours[0]}», the translation negates nothing"
    if theirs and not ours:
        return f"negation added: the translation says «{theirs[0]}», the source negates nothing"
    return None
