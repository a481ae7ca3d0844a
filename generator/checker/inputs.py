"""A procedure's inputs: how a value written in YAML becomes the Python value it declares.

The annotation of each keyword parameter says how to read it: `unit: Unit` looks the id up
among the game's units, `target: Target` reads '4+', `cover: Literal["none", "barricade"]`
accepts one of the words, `x: int | None` accepts null. Every problem is an `InputError`
that says what would fit.
"""

from __future__ import annotations

import inspect
import types
import typing
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Literal

from ..core.diagnostics import did_you_mean
from ..model import Record
from ..roster.army import Army, read_army
from ..values import Dice as DiceExpr
from ..values import Distance, Span, StatType, Target, parse_value
from .written import fraction


class InputError(ValueError):
    """A check block's or computed number's input does not fit the procedure."""

    def __init__(self, message: str, hint: str = "", code: str = "E033", key: str | None = None,
                 follows: bool = False):
        super().__init__(message)
        self.hint = hint or "give the value the type the procedure's signature declares (procedures.py)"
        self.code = code
        self.key = key
        self.follows = follows  # caused by an error reported elsewhere (a record that failed validation)


@dataclass(frozen=True)
class Input:
    name: str
    annotation: Any
    default: Any = inspect.Parameter.empty

    @property
    def required(self) -> bool:
        return self.default is inspect.Parameter.empty

    def describe(self) -> str:
        return f"{self.name}: {type_name(self.annotation)}" + ("" if self.required else f" = {self.default!r}")


def type_name(annotation: Any) -> str:
    if annotation is inspect.Parameter.empty or annotation is Any:
        return "any"
    if isinstance(annotation, type):
        if issubclass(annotation, Record):
            return f"{annotation.kind} id"
        if annotation is Army:
            return "army list"
        return {DiceExpr: "dice", Target: "target"}.get(annotation, annotation.__name__)
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is Literal:
        return " | ".join(repr(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        return " | ".join("null" if a is type(None) else type_name(a) for a in args)
    if origin in (list, tuple, set, frozenset) and args:
        return f"list of {type_name(args[0])}"
    if origin is dict and len(args) == 2:
        return f"mapping to {type_name(args[1])}"
    return str(annotation).replace("typing.", "")


def coerce(game: Any, annotation: Any, raw: Any, name: str) -> Any:
    """A value written in YAML as the annotated Python value; InputError saying what would fit."""
    if annotation is inspect.Parameter.empty or annotation is Any:
        return raw
    read = _BY_ORIGIN.get(typing.get_origin(annotation))
    if read is None and isinstance(annotation, type) and issubclass(annotation, Record):
        read = _record_input
    if read is None:
        read = next((reader for kind, reader in _BY_TYPE if annotation is kind), _validated)
    return read(game, annotation, raw, name)


def _union(game: Any, annotation: Any, raw: Any, name: str) -> Any:
    args = typing.get_args(annotation)
    if raw is None and type(None) in args:
        return None
    first: InputError | None = None
    for option in (a for a in args if a is not type(None)):
        try:
            return coerce(game, option, raw, name)
        except InputError as exc:
            first = first or exc
    raise InputError(f"{name}: {raw!r} is not {type_name(annotation)}", first.hint if first else "", key=name)


def _literal(game: Any, annotation: Any, raw: Any, name: str) -> Any:
    args = typing.get_args(annotation)
    if raw in args:
        return raw
    raise InputError(f"{name}: {raw!r} is not one of {', '.join(repr(a) for a in args)}",
                     did_you_mean(str(raw), [str(a) for a in args]), key=name)


def _collection(game: Any, annotation: Any, raw: Any, name: str) -> Any:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if not isinstance(raw, list):
        raise InputError(f"{name}: expected a list, got {raw!r}", "write [a, b] or one '- item' per line", key=name)
    if origin is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):
        if len(raw) != len(args):
            raise InputError(f"{name}: expected {len(args)} values, got {len(raw)}", key=name)
        return tuple(coerce(game, a, v, f"{name}[{i}]") for i, (a, v) in enumerate(zip(args, raw)))
    item = args[0] if args else Any
    values = [coerce(game, item, v, f"{name}[{i}]") for i, v in enumerate(raw)]
    return origin(values) if origin is not list else values


def _mapping(game: Any, annotation: Any, raw: Any, name: str) -> Any:
    args = typing.get_args(annotation)
    if not isinstance(raw, dict):
        raise InputError(f"{name}: expected a mapping, got {raw!r}", "write {key: value, ...}", key=name)
    value_type = args[1] if len(args) == 2 else Any
    return {str(k): coerce(game, value_type, v, f"{name}.{k}") for k, v in raw.items()}


def _record_input(game: Any, annotation: Any, raw: Any, name: str) -> Any:
    return _record(game, annotation, raw, name)


def _army(game: Any, annotation: Any, raw: Any, name: str) -> Any:
    army, message, hint = read_army(game, raw)
    if army is None:
        raise InputError(f"{name}: {message}", hint, code="E007", key=name)
    return army


_WRITTEN = {Target: StatType.TARGET, Span: StatType.RANGE, DiceExpr: StatType.DICE, Distance: StatType.DISTANCE}


def _written(game: Any, annotation: Any, raw: Any, name: str) -> Any:
    try:
        value = parse_value(raw, _WRITTEN[annotation], known=game.manifest.unit_words())
    except ValueError as exc:
        raise InputError(f"{name}: {exc}", key=name) from None
    if value is None:
        raise InputError(f"{name}: a value is needed, not a dash", key=name)
    return value


def _plain(fits: tuple[type, ...], convert: Callable[[Any], Any], expected: str) -> Callable[..., Any]:
    """A reader of a plain YAML scalar: `convert(raw)` where raw is one of `fits` (true and
    false only where a bool is asked for), else "expected ..."."""
    def read(game: Any, annotation: Any, raw: Any, name: str) -> Any:
        if isinstance(raw, fits) and (annotation is bool) == isinstance(raw, bool):
            return convert(raw)
        raise InputError(f"{name}: expected {expected}, got {raw!r}", key=name)
    return read


def _same(raw: Any) -> Any:
    return raw


def _fraction(game: Any, annotation: Any, raw: Any, name: str) -> Any:
    try:
        return fraction(raw)
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{name}: expected a number or fraction such as 1/3, got {raw!r}", key=name) from None


def _validated(game: Any, annotation: Any, raw: Any, name: str) -> Any:
    from pydantic import ValidationError

    try:
        return _adapter(annotation).validate_python(raw)
    except ValidationError as exc:
        raise InputError(f"{name}: {exc.errors()[0]['msg']}", key=name) from None


# How each kind of annotation reads what is written: by its generic origin (list[int], X | None),
# then by the type itself; a Record subclass names a record; anything else pydantic validates.
_BY_ORIGIN = {typing.Union: _union, types.UnionType: _union, Literal: _literal, list: _collection,
              tuple: _collection, set: _collection, frozenset: _collection, dict: _mapping}
_BY_TYPE = (
    (Army, _army),
    (Target, _written), (Span, _written), (DiceExpr, _written), (Distance, _written),
    (bool, _plain((bool,), _same, "true or false")),
    (int, _plain((int,), _same, "a whole number")),
    (float, _plain((int, float), float, "a number")),
    (Fraction, _fraction),
    (str, _plain((str, int, float), str, "text")),
)


@lru_cache(maxsize=256)
def _adapter(annotation: Any):
    from pydantic import TypeAdapter

    return TypeAdapter(annotation)


def _record(game: Any, kind: type[Record], raw: Any, name: str) -> Record:
    if isinstance(raw, kind):
        return raw
    records = game.section(kind.section)
    record = records.get(str(raw)) if isinstance(raw, (str, int)) and not isinstance(raw, bool) else None
    if record is None and game.is_dropped(kind.section, raw):
        raise InputError(f"{name}: {kind.kind} '{raw}' failed validation", "see the error on the record itself",
                         code="E007", key=name, follows=True)
    if record is None:
        hint = did_you_mean(str(raw), records) or (
            f"known: {', '.join(sorted(records)[:10])}" if records else f"this game has no {kind.section}")
        raise InputError(f"{name}: unknown {kind.kind} '{raw}'", hint, code="E007", key=name)
    return record


__all__ = ["Input", "InputError", "coerce", "type_name"]
