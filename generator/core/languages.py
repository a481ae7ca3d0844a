"""Language codes. Output folders, catalog files (locale/LANG.po, ui.LANG.po) and URLs are
named by them, so every code Rulesmith is given — game.yaml's source_language, languages and
title keys, a command's LANG or --lang — passes through `language_code` once: surrounding
whitespace dropped, the case made the tag's usual one (EN → en, pt-br → pt-BR, zh-hant →
zh-Hant), anything that is not a BCP 47 tag refused. No path is built from a code that did
not pass through it."""

from __future__ import annotations

import re

# A BCP 47 language tag: language, optional script, optional region, optional variants (en, pt-BR, zh-Hant).
TAG = re.compile(r"[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*",
                 re.I)
EXAMPLES = "en, ru, pt-BR or zh-Hant"
HINT = f"language codes name output folders and catalog files: write a BCP 47 tag such as {EXAMPLES}"


def language_code(value: object) -> str:
    """The code in its usual case; ValueError (one line) when `value` is not a language code."""
    text = value.strip() if isinstance(value, str) else None
    if not text or not TAG.fullmatch(text):
        raise ValueError(f"{_shown(value)} is not a language code (a BCP 47 tag such as {EXAMPLES})")
    first, *rest = text.split("-")
    parts = [first.lower()]
    for part in rest:
        if len(part) == 4 and part.isalpha() and len(parts) == 1:
            parts.append(part.title())  # script: Hant, Latn
        elif len(parts) <= 2 and (len(part) == 2 and part.isalpha() or len(part) == 3 and part.isdigit()):
            parts.append(part.upper())  # region: BR, 419
        else:
            parts.append(part.lower())  # variant
    return "-".join(parts)


def is_language_code(value: object) -> bool:
    try:
        language_code(value)
    except ValueError:
        return False
    return True


def _shown(value: object) -> str:
    """A value as one line, quoted (a newline or a control character shows as its escape)."""
    text = value if isinstance(value, str) else str(value)
    return repr(text) if not text.isprintable() else f"'{text}'"


def repeated(codes: list[object]) -> tuple[int, int] | None:
    """(first, second) positions of the first code that means the same language as an
    earlier one (EN beside en), or None."""
    seen: dict[str, int] = {}
    for i, code in enumerate(codes):
        try:
            key = language_code(code)
        except ValueError:
            continue
        if key in seen:
            return seen[key], i
        seen[key] = i
    return None
