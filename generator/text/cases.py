"""A reference's case form: `{{ unit:gun !lower }}` prints the record's own name lower-cased,
without rewriting it. The form follows a `!`, so it is never read as a written form (`| guns`),
and a translation may give another form or none (German keeps its nouns capitalised)."""

from __future__ import annotations

import re

FORMS = ("lower", "upper", "capital")  # field gun, FIELD GUN, Field gun
CASE_FORM = re.compile(r"\s*!\s*(?P<form>[A-Za-z]+)\s*$")


def split_case(text: str) -> tuple[str, str | None]:
    """'unit:gun !lower' -> ('unit:gun', 'lower'); text without a form -> (text, None)."""
    match = CASE_FORM.search(text)
    if match is None:
        return text, None
    return text[:match.start()], match.group("form")


def apply_case(text: str, form: str | None) -> str:
    """`text` in a case form: lower, upper, or capital (first letter upper-case, the rest as written)."""
    if form == "lower":
        return text.lower()
    if form == "upper":
        return text.upper()
    if form == "capital":
        return text[:1].upper() + text[1:]
    return text
