"""A game's rule procedures: declared in content/<game>/procedures.py, found by the checker.

A procedure is a plain function `(game, dice, **inputs)` marked with `@procedure`. Its
inputs are its keyword parameters; their annotations say how a check block's YAML value
becomes a Python value (`unit: Unit` looks the id up among the game's units, `target:
Target` reads '4+'). `@table` marks a function `(game) -> rows` that computes a
probability table; `@consistency` a function `(game) -> problems` that checks the data
agrees with itself. Each takes `errata=[...]`: the errata (data/errata.yaml) whose reading it
relies on; validation checks each exists and that every erratum of category `reading` is
cited (checks/readings.py). The module is read from its path, so it needs no package around it.
How inputs are read: inputs.py.
"""

from __future__ import annotations

import hashlib
import inspect
import os
import re
import sys
import traceback
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, TypeVar

from ..core.diagnostics import did_you_mean
from ..system.folders import present
from ..reading.yamlsource import read_text, unreadable
from .bounded import Outcome
from .inputs import Input, InputError, coerce, type_name

MODULE = "procedures.py"
MARK = "__rulesmith__"
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
F = TypeVar("F", bound=Callable[..., Any])


# --- declaring ---------------------------------------------------------------------------

def _declare(kind: str, id: str | Callable | None, **extra: Any):
    def mark(fn: F) -> F:
        name = id if isinstance(id, str) else fn.__name__.strip("_").replace("_", "-")
        setattr(fn, MARK, (kind, name, extra))
        return fn

    return mark(id) if callable(id) else mark


def procedure(id: str | Callable | None = None, errata: Iterable[str] = ()):
    """Mark `fn(game, dice, **inputs)` as the rule procedure `id` (default: its name, with hyphens).

    errata: ids of the errata whose readings the procedure relies on.
    """
    return _declare("procedure", id, errata=_ids(errata))


def table(id: str | Callable | None = None, title: Any = None,
          columns: Mapping[str, Any] | Callable[[Any], Mapping[str, Any]] | None = None, errata: Iterable[str] = (),
          values: Mapping[str, str] | None = None, assumes: Any = None, attacker: Callable | None = None,
          target: Callable | None = None):
    """Mark `fn(game) -> list of rows (mappings)` as the probability table `id`.

    title: the table's title (text, or {lang: text}); default: the docstring's first line. It
    says what the table assumes (e.g. the die it is computed on).
    columns: {column id: heading}, in the order to print; default: the rows' keys. A function
    `(game) -> {column id: heading}` where the columns follow the game's data (a die's faces).
    errata: ids of the errata whose readings the table relies on.
    values: {column id: 'table-id.column-id'}: the column holds coded values of that data table's
    column, and prints their names in each language (never the ids).
    assumes: what the table takes for granted, for its readers (text, or {lang: text}); the site
    states it under the table in each language.
    attacker, target: `(game, unit) -> readings`, how a unit acting (attacker) or on the receiving
    end (target) picks the table's cell; each reading is {"with": a weapon or None, "inputs":
    {input column: value}, "column": the outcome column or None, and optionally "times": how many
    such dice the unit rolls where a cell is an expectation per die}; [] where the unit's data gives
    no reading. The site's calculator offers units by name from these.
    """
    return _declare("table", id, title=title, columns=columns if callable(columns) else dict(columns or {}),
                    errata=_ids(errata), values=dict(values or {}), assumes=assumes, attacker=attacker, target=target)


def consistency(id: str | Callable | None = None, errata: Iterable[str] = ()):
    """Mark `fn(game) -> problems (strings)` as a consistency rule: no problems means it holds."""
    return _declare("consistency", id, errata=_ids(errata))


def _ids(errata: Iterable[str] | str) -> tuple[str, ...]:
    return (errata,) if isinstance(errata, str) else tuple(errata)


# --- declared things ---------------------------------------------------------------------

@dataclass
class Declared:
    """A table or consistency rule of a procedures module."""

    id: str
    fn: Callable[..., Any]
    path: Path | None
    line: int
    title: Any = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def errata(self) -> tuple[str, ...]:
        return tuple(self.extra.get("errata", ()))


@dataclass
class Procedure:
    """A rule procedure with its inputs, as found in a procedures module."""

    id: str
    fn: Callable[..., Any]
    inputs: tuple[Input, ...]
    path: Path | None = None
    line: int = 0
    errata: tuple[str, ...] = ()  # the errata whose readings it relies on

    @classmethod
    def of(cls, fn: Callable[..., Any], id: str | None = None) -> "Procedure":
        """Read a function's inputs from its signature; ValueError if it cannot be a procedure."""
        mark = getattr(fn, MARK, None)
        proc_id = id or (mark[1] if mark else fn.__name__.replace("_", "-"))
        params = list(inspect.signature(fn).parameters.values())
        if len(params) < 2 or any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params[:2]):
            raise ValueError(f"procedure '{proc_id}' must take (game, dice, ...) first")
        try:
            hints = typing.get_type_hints(fn)
        except Exception as exc:  # NameError for an annotation the module does not import
            raise ValueError(f"procedure '{proc_id}': cannot read its annotations ({exc})") from None
        inputs = []
        for p in params[2:]:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.POSITIONAL_ONLY):
                raise ValueError(f"procedure '{proc_id}': name each input as a keyword parameter, not {p}")
            inputs.append(Input(p.name, hints.get(p.name, inspect.Parameter.empty), p.default))
        code = getattr(fn, "__code__", None)
        path = Path(code.co_filename) if code else None
        errata = tuple(mark[2].get("errata", ())) if mark else ()
        return cls(proc_id, fn, tuple(inputs), path, code.co_firstlineno if code else 0, errata)

    @property
    def doc(self) -> str:
        return inspect.getdoc(self.fn) or ""

    def input(self, name: str) -> Input | None:
        name = name.replace("-", "_")
        return next((i for i in self.inputs if i.name == name), None)

    def bind(self, game: Any, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        """Check block or computed-number inputs -> keyword arguments; every problem in one list."""
        errors: list[InputError] = []
        bound: dict[str, Any] = {}
        for key, value in (raw or {}).items():
            spec = self.input(str(key))
            if spec is None:
                names = [i.name for i in self.inputs]
                errors.append(InputError(
                    f"procedure '{self.id}' has no input '{key}'",
                    did_you_mean(str(key).replace("-", "_"), names)
                    or (f"its inputs: {', '.join(i.describe() for i in self.inputs)}" if names else "it takes no inputs"),
                    key=str(key)))
                continue
            try:
                bound[spec.name] = coerce(game, spec.annotation, value, str(key))
            except InputError as exc:
                errors.append(exc)
        for spec in self.inputs:
            if spec.required and spec.name not in bound and not any(e.key and e.key.replace("-", "_") == spec.name
                                                                     for e in errors):
                errors.append(InputError(f"procedure '{self.id}' needs input '{spec.name}'",
                                         f"add {spec.name}: <{type_name(spec.annotation)}> under inputs"))
        if errors:
            raise InputErrors(errors)
        return bound

    def __call__(self, game: Any, dice: Any, **inputs: Any) -> Any:
        return self.fn(game, dice, **inputs)


class InputErrors(ValueError):
    """Every input problem of one binding."""

    def __init__(self, errors: list[InputError]):
        super().__init__("; ".join(str(e) for e in errors))
        self.errors = errors


@dataclass(frozen=True)
class Problem:
    """Why a procedures module, or one thing in it, cannot be used."""

    message: str
    path: Path
    line: int = 0
    hint: str = ""
    code: str = "E034"


@dataclass
class Procedures:
    """Everything one game's procedures module declares."""

    path: Path | None = None
    procedures: dict[str, Procedure] = field(default_factory=dict)
    tables: dict[str, Declared] = field(default_factory=dict)
    consistency: dict[str, Declared] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def citations(self) -> list[tuple[str, str, str, Path | None, int]]:
        """(erratum id, kind, item id, path, line) for every erratum a procedure, table or rule cites."""
        found = []
        for kind, items in (("procedure", self.procedures), ("table", self.tables), ("consistency", self.consistency)):
            for item in items.values():
                found.extend((erratum, kind, item.id, item.path, item.line) for erratum in item.errata)
        return found

    def get(self, proc_id: str) -> Procedure | None:
        return self.procedures.get(proc_id)

    def unknown_hint(self, proc_id: str) -> str:
        if self.path is None:
            return "this game has no procedures.py; see 'rulesmith docs checker' (docs/checker.md)"
        return did_you_mean(proc_id, self.procedures) or (
            f"procedures: {', '.join(sorted(self.procedures))}" if self.procedures else "procedures.py declares none")


_cache: dict[Path, tuple[str, Procedures]] = {}


def clear_cache() -> None:
    """Forget loaded modules (benchmarks measure a cold load)."""
    _cache.clear()


def mark_unusable(path: Path, problems: list[Problem]) -> None:
    """Keep this process from running the module at `path` (as it is now): every use of it
    reports `problems` instead (bounded.py found it overran, ended the process or failed)."""
    path = resolved(path)
    try:
        key = hashlib.sha1(read_text(path).encode("utf-8")).hexdigest()
    except (OSError, UnicodeDecodeError):
        return
    _cache[path] = (key, Procedures(path, problems=list(problems)))


def resolved(path: Path) -> Path:
    """`path` with its symbolic links followed, or as it is where they lead nowhere (a loop:
    Python 3.11's Path.resolve raises RuntimeError for one)."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):
        return Path(os.path.abspath(path))


def module_path(folder: Path) -> Path:
    """The game's procedures.py, followed to the file it leads to; as it is when it leads to no
    file (a dangling link or a loop: the reader reports it)."""
    path = Path(folder) / MODULE
    full = resolved(path)
    return full if full.exists() else Path(os.path.abspath(path))


def load_procedures(folder: Path) -> Procedures:
    """The procedures of the game in `folder` (loaded again only when the file changes)."""
    path = module_path(folder)
    if not present(path):
        return Procedures()
    try:
        source = read_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        message, where, hint = unreadable(path, exc)
        return Procedures(path, problems=[Problem(message, path, where.line, hint)])
    key = hashlib.sha1(source.encode("utf-8")).hexdigest()
    cached = _cache.get(path)
    if cached and cached[0] == key:
        return cached[1]
    found = _load(path, source, key)
    _cache[path] = (key, found)
    return found


def _load(path: Path, source: str, key: str) -> Procedures:
    found = Procedures(path)
    name = f"rulesmith_procedures_{re.sub(r'[^a-z0-9]', '_', path.parent.name)}_{key[:10]}"
    module = types.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module  # dataclasses and typing look modules up by name
    try:
        exec(compile(source, str(path), "exec"), module.__dict__)
    except SyntaxError as exc:
        sys.modules.pop(name, None)
        found.problems.append(Problem(f"{MODULE} has a syntax error: {exc.msg}", path, exc.lineno or 1,
                                      "fix the Python syntax at this line"))
        return found
    except SystemExit as exc:
        sys.modules.pop(name, None)
        found.problems.append(Problem(f"{MODULE} calls sys.exit({exc.code!r}) when loaded", path,
                                      error_line(exc, path) or 1, "a procedures module only defines functions"))
        return found
    except Exception as exc:
        sys.modules.pop(name, None)
        found.problems.append(Problem(f"{MODULE} raised {type(exc).__name__} when loaded: {exc}", path,
                                      error_line(exc, path) or 1, "a procedures module only defines functions"))
        return found
    for attr, value in list(module.__dict__.items()):
        mark = getattr(value, MARK, None) if callable(value) else None
        if not mark or getattr(value, "__module__", None) != name:
            continue
        kind, item_id, extra = mark
        line = value.__code__.co_firstlineno if hasattr(value, "__code__") else 0
        if not _ID.match(item_id):
            found.problems.append(Problem(f"{kind} id '{item_id}' is not lowercase Latin letters, digits and hyphens",
                                          path, line, "e.g. @procedure('damage-roll')"))
            continue
        bucket = {"procedure": found.procedures, "table": found.tables, "consistency": found.consistency}[kind]
        if item_id in bucket:
            first = bucket[item_id].line
            found.problems.append(Problem(f"{kind} '{item_id}' is declared twice (first at line {first})", path, line,
                                          "give each its own id"))
            continue
        if kind == "procedure":
            try:
                bucket[item_id] = Procedure.of(value, item_id)
            except ValueError as exc:
                found.problems.append(Problem(str(exc), path, line, "def name(game, dice, *, input: type = default)"))
        else:
            title = extra.get("title") or (inspect.getdoc(value) or "").split("\n")[0]
            bucket[item_id] = Declared(item_id, value, path, line, title, dict(extra))
    return found


def error_line(exc: BaseException, path: Path | None) -> int:
    """The line of `path` where an exception was raised (the deepest frame in that file)."""
    if path is None:
        return 0
    line = 0
    for frame in traceback.extract_tb(exc.__traceback__):
        if Path(frame.filename) == path:
            line = frame.lineno or line
    return line


def problem_of(outcome: Outcome, path: Path, seconds: float) -> Problem:
    """The E035 for a child that overran or ended, at the line of procedures.py it was running."""
    line = outcome.line_in(path)
    at = f" (it was running line {line})" if line else ""
    if outcome.overtime:
        return Problem(f"{MODULE} did not finish within {seconds:g} s{at}", path, line or 1,
                       "a loop that never ends? A slow exact computation may raise the limit: "
                       "RULESMITH_TIME_LIMIT=SECONDS", code="E035")
    how = f"called sys.exit({outcome.exit_code!r})" if outcome.frames else f"ended the process (exit status {outcome.exit_code})"
    return Problem(f"{MODULE} {how}{at}", path, line or 1,
                   "procedures return results or raise ProcedureError; they never end the process", code="E035")


__all__ = [
    "Declared", "InputErrors", "MODULE", "Problem", "Procedure", "Procedures",
    "clear_cache", "consistency", "error_line", "load_procedures", "mark_unusable", "problem_of", "procedure", "table",
]
