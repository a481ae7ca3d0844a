"""Computed numbers in the rules text, printed from the procedures at build time.

    {{ calc:damage(attacks=3, band=directed, cover=barricade).P(target_damage >= 1) }}
    {{ calc:damage(attacks=3, band=directed).E(target_damage) as decimal(1) }}

`PROCEDURE(INPUT=VALUE, ...)` names a procedure and its inputs (values as in a check
block: ids, numbers, true/false, 4+); `.P(condition)` is a probability, `.E(result)` an
average. The format is `percent` (default for P), `decimal` (default for E) or
`fraction`, with an optional number of decimal places: `as percent(1)`.
Numbers are written the way the language writes them: ru `50 %`, `0,5`; en `50%`, `0.5`.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from typing import Any

import yaml

from ..yamlsource import yaml_value

from ..text.refs import Ref, RefError
from .distribution import Stat
from .modes import ProcedureError, exact
from .procedures import InputErrors, error_line, load_procedures

KIND = "calc"
FORMATS = ("percent", "decimal", "fraction")
DEFAULT_DIGITS = {"percent": 0, "decimal": 2}
SYNTAX = "{{ calc:procedure(input=value, ...).P(condition) }} or .E(result), optionally 'as percent(1)'"

_CALC = re.compile(
    r"^calc:\s*(?P<proc>[a-z0-9][a-z0-9-]*)\s*\((?P<args>.*)\)\s*\.\s*(?P<stat>[PE]\s*\([^()]*\))"
    r"(?:\s+as\s+(?P<fmt>[a-z]+)(?:\s*\(\s*(?P<digits>\d+)\s*\))?)?\s*$", re.S)
_ARG_NAME = re.compile(r"(^|,)\s*([A-Za-z_][\w-]*)\s*=(?!=)")

# Languages that write a decimal comma, and those that put a space before %.
DECIMAL_COMMA = {"ru", "uk", "be", "bg", "kk", "sr", "hr", "sl", "cs", "sk", "pl", "de", "fr", "es", "it", "pt",
                 "nl", "sv", "fi", "nb", "nn", "da", "tr", "ro", "hu", "lt", "lv", "et", "el"}
SPACED_PERCENT = {"ru", "uk", "be", "bg", "kk", "cs", "sk", "de", "fr", "es", "sv", "fi", "nb", "nn", "da",
                  "pl", "lt", "et", "el"}
NBSP = "\u00a0"


@dataclass(frozen=True)
class CalcRef(Ref):
    """`{{ calc:... }}`: a Ref whose id is the procedure, with its inputs and the statistic."""

    args: tuple[tuple[str, Any], ...] = ()
    stat: str = ""
    fmt: str | None = None
    digits: int | None = None
    source: str = ""

    def __str__(self) -> str:
        return self.source


def parse_calc(text: str) -> CalcRef:
    """Read a computed-number reference; RefError (E019) saying what is malformed."""
    source = " ".join(text.split())
    match = _CALC.match(source)
    if not match:
        raise RefError(f"'{{{{ {source} }}}}' is not a computed number", f"write {SYNTAX}", "E019")
    fmt, digits = match.group("fmt"), match.group("digits")
    if fmt is not None and fmt not in FORMATS:
        raise RefError(f"unknown number format '{fmt}'", f"formats: {', '.join(FORMATS)}", "E019")
    if fmt == "fraction" and digits is not None:
        raise RefError("a fraction has no decimal places", "write 'as fraction'", "E019")
    try:
        Stat.parse(match.group("stat"))
    except ValueError as exc:
        raise RefError(str(exc), f"write {SYNTAX}", "E019") from None
    return CalcRef(KIND, match.group("proc"), None, _args(match.group("args")), match.group("stat").strip(),
                   fmt, int(digits) if digits is not None else None, source)


def _args(text: str) -> tuple[tuple[str, Any], ...]:
    if not text.strip():
        return ()
    mapping = "{" + _ARG_NAME.sub(lambda m: f"{m.group(1)} {m.group(2)}: ", text) + "}"
    try:
        data = yaml_value(mapping)
    except yaml.YAMLError:
        data = None
    if not isinstance(data, dict) or not _ARG_NAME.match(text.strip()):
        raise RefError(f"cannot read the inputs '({text})'",
                       "write inputs as name=value, separated by commas: (attacks=3, band=directed)", "E019")
    return tuple((str(k), v) for k, v in data.items())


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


# --- evaluating, with results kept per loaded game --------------------------------------

_results: dict[tuple[int, str], Computed] = {}
_watched: set[int] = set()


def _forget(game_id: int) -> None:
    _watched.discard(game_id)
    for key in [k for k in _results if k[0] == game_id]:
        del _results[key]


def evaluate(game: Any, ref: CalcRef) -> Computed:
    """Compute a `{{ calc:... }}` for a loaded game; RefError (E031, E033, E034) if it cannot be."""
    key = (id(game), ref.source)
    if key in _results:
        return _results[key]
    procedures = load_procedures(game.folder)
    proc = procedures.get(ref.id or "")
    if proc is None:
        hint = (f"{procedures.path.name} has problems that stop it from loading (E034)" if procedures.problems
                else procedures.unknown_hint(ref.id or ""))
        raise RefError(f"unknown procedure '{ref.id}'", hint, "E031")
    try:
        inputs = proc.bind(game, dict(ref.args))
    except InputErrors as exc:
        first = exc.errors[0]
        raise RefError(str(exc), first.hint, first.code) from None
    stat = Stat.parse(ref.stat)
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
    result = Computed(value, stat.kind, ref.fmt or ("percent" if stat.kind == "P" else "decimal"), ref.digits,
                      game.manifest.source_language)
    if id(game) not in _watched:
        _watched.add(id(game))
        weakref.finalize(game, _forget, id(game))
    _results[key] = result
    return result


__all__ = ["CalcRef", "Computed", "FORMATS", "KIND", "evaluate", "format_computed", "format_number", "parse_calc"]
