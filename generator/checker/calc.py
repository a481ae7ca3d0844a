"""Computed numbers in the rules text, printed from the procedures at build time.

    {{ calc:damage(attacks=3, band=directed, cover=barricade).P(target_damage >= 1) }}
    {{ calc:damage(attacks=3, band=directed).E(target_damage) as decimal(1) }}

`PROCEDURE(INPUT=VALUE, ...)` names a procedure and its inputs (values as in a check
block: ids, numbers, true/false, 4+); `.P(condition)` is a probability, `.E(result)` an
average. The format is `percent` (default for P), `decimal` (default for E) or
`fraction`, with an optional number of decimal places: `as percent(1)`.
Numbers are written the way the language writes them: ru `50 %`, `0,5`; en `50%`, `0.5`.
The text reads the reference (text/refs.py, CalcRef); this module computes the number
(`evaluate`) and prints it for a language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from typing import Any

from ..text.refs import CALC_SYNTAX, CalcRef, RefError
from .distribution import Stat
from .modes import ProcedureError, exact
from .procedures import InputErrors, error_line, load_procedures

DEFAULT_DIGITS = {"percent": 0, "decimal": 2}

# Languages that write a decimal comma, and those that put a space before %.
DECIMAL_COMMA = {"ru", "uk", "be", "bg", "kk", "sr", "hr", "sl", "cs", "sk", "pl", "de", "fr", "es", "it", "pt",
                 "nl", "sv", "fi", "nb", "nn", "da", "tr", "ro", "hu", "lt", "lv", "et", "el"}
SPACED_PERCENT = {"ru", "uk", "be", "bg", "kk", "cs", "sk", "de", "fr", "es", "sv", "fi", "nb", "nn", "da",
                  "pl", "lt", "et", "el"}
NBSP = "\u00a0"


@dataclass(frozen=True)
class Computed:
    """A computed number and how it prints; `text(lang)` writes it for a language."""

    value: Fraction
    kind: str        # 'P' or 'E'
    fmt: str
    digits: int | None
    lang: str        # the source language, used by str()

    def text(self, lang: str | None = None) -> str:
        return format_number(self.value, self.fmt, lang or self.lang, self.digits)

    def __str__(self) -> str:
        return self.text()


def format_computed(value: Any, lang: str) -> str:
    """What renderers print for a resolved `{{ calc:... }}` in language `lang`."""
    return value.text(lang) if isinstance(value, Computed) else str(value)


def format_number(value: Fraction, fmt: str, lang: str, digits: int | None = None) -> str:
    """1/2 as 'percent' -> ru '50 %' (no-break space), en '50%'; as 'decimal' -> ru '0,5', en '0.5'."""
    base = re.split(r"[-_]", lang or "en")[0].lower()
    if fmt == "fraction":
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    places = DEFAULT_DIGITS[fmt] if digits is None else digits
    number = value * 100 if fmt == "percent" else value
    text = _rounded(number, places, strip=fmt == "decimal")
    if base in DECIMAL_COMMA:
        text = text.replace(".", ",")
    if fmt == "percent":
        return text + (NBSP + "%" if base in SPACED_PERCENT else "%")
    return text


def _rounded(value: Fraction, places: int, strip: bool) -> str:
    with localcontext() as ctx:
        ctx.prec = 50
        exact_value = Decimal(value.numerator) / Decimal(value.denominator)
        text = str(exact_value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))
    if strip and "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def evaluate(game: Any, ref: CalcRef) -> Computed:
    """Compute a `{{ calc:... }}` for a loaded game; RefError if it cannot be: E019 (the
    condition is malformed), E031, E033, E034. ProcedureResults keeps the results per game."""
    try:
        stat = Stat.parse(ref.stat)
    except ValueError as exc:
        raise RefError(str(exc), f"write {CALC_SYNTAX}", "E019") from None
    procedures = load_procedures(game.folder)
    proc = procedures.get(ref.id or "")
    if proc is None:
        if procedures.problems:  # the module's own E034 is the one problem to fix
            raise RefError(f"procedure '{ref.id}' is not available: {procedures.path.name} has problems (E034)",
                           "", "E031", follows=True)
        raise RefError(f"unknown procedure '{ref.id}'", procedures.unknown_hint(ref.id or ""), "E031")
    try:
        inputs = proc.bind(game, dict(ref.args))
    except InputErrors as exc:
        first = exc.errors[0]
        raise RefError(str(exc), first.hint, first.code) from None
    try:
        value = stat.of(exact(proc, game, inputs))
    except ProcedureError as exc:
        raise RefError(f"{ref.id}: {exc}", "", "E033") from None
    except (KeyError, ValueError) as exc:
        raise RefError(f"{ref.id}: {exc.args[0] if exc.args else exc}", "", "E033") from None
    except Exception as exc:  # a bug in procedures.py
        line = error_line(exc, proc.path)
        raise RefError(f"procedure '{proc.id}' raised {type(exc).__name__}: {exc}",
                       f"see {proc.path.name}:{line}" if proc.path and line else "", "E034") from None
    return Computed(value, stat.kind, ref.fmt or ("percent" if stat.kind == "P" else "decimal"), ref.digits,
                    game.manifest.source_language)


__all__ = ["Computed", "evaluate", "format_computed", "format_number"]
