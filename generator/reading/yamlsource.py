"""YAML documents that remember where every value came from.

PyYAML's `safe_load` silently keeps the last of two duplicate keys and forgets line numbers.
Here we compose the node tree ourselves, build plain Python data from it, and keep a map
from each value's path (`("units", 3, "stats", "quality")`) to its line and column, so a
diagnostic about any value can cite the exact place in the file.

Values are read with YAML 1.2 semantics (the core schema): only true/false are booleans,
`6:1` is text, `010` is ten, `2024-01-01` is text. Where a plain value would have read
differently under YAML 1.1 (what many other tools still speak), a W006 warning says so.
Content is plain data: tags other than the standard ones, documents that expand to more
than MAX_NODES values through aliases, nesting deeper than MAX_DEPTH and numbers longer
than MAX_DIGITS are refused with E001.
"""

from __future__ import annotations

import errno
import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..system import folders
from ..core.diagnostics import Location, Report

PathKey = tuple[Any, ...]
MAX_NODES = 100_000   # values one document may expand to (aliases included)
MAX_DEPTH = 100       # levels of nesting
MAX_DIGITS = 100      # digits of one number

_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when PyYAML has it: much faster


class Loader(_BASE):  # type: ignore[misc, valid-type]
    """PyYAML's safe loader with the YAML 1.2 core schema's implicit types."""

    yaml_implicit_resolvers: dict = {}


def _implicit(tag: str, pattern: str, first: str) -> None:
    Loader.add_implicit_resolver(tag, re.compile(pattern, re.X), list(first))


_implicit("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF")
_implicit("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", "~nN")
Loader.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^$"), None)
_implicit("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789")
_implicit("tag:yaml.org,2002:float",
          r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
          "-+0123456789.")
_implicit("tag:yaml.org,2002:merge", r"^(?:<<)$", "<")


def _int12(text: str) -> int:
    """A YAML 1.2 integer: decimal (leading zeros are decimal too), 0o octal or 0x hexadecimal."""
    if len(text) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text)} digits is too long (at most {MAX_DIGITS})")
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text, 10)


def _float12(text: str) -> float:
    if len(text) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text)} digits is too long (at most {MAX_DIGITS})")
    lowered = text.lower()
    if lowered.endswith(".inf"):
        return float("-inf") if lowered.startswith("-") else float("inf")
    if lowered == ".nan":
        return float("nan")
    return float(text)


_YAML11 = yaml.resolver.Resolver()  # how a YAML 1.1 tool would read a plain value
_SCALAR_TAGS = {
    "tag:yaml.org,2002:str": str,
    "tag:yaml.org,2002:int": _int12,
    "tag:yaml.org,2002:float": _float12,
    "tag:yaml.org,2002:bool": lambda text: text.lower() == "true",
    "tag:yaml.org,2002:null": lambda text: None,
}
_SHORT = {"tag:yaml.org,2002:bool": "true/false", "tag:yaml.org,2002:int": "a number",
          "tag:yaml.org,2002:float": "a number", "tag:yaml.org,2002:null": "empty (null)",
          "tag:yaml.org,2002:timestamp": "a date", "tag:yaml.org,2002:str": "text"}


@dataclass
class YamlDocument:
    path: Path
    data: Any
    marks: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    key_marks: dict[PathKey, tuple[int, int]] = field(default_factory=dict)

    def location(self, loc: PathKey, *, key: bool = False) -> Location:
        """The place of the value at `loc`, or of the nearest enclosing value we know."""
        loc = tuple(loc)
        if key and loc in self.key_marks:
            line, col = self.key_marks[loc]
            return Location(self.path, line, col)
        while loc:
            if loc in self.marks:
                line, col = self.marks[loc]
                return Location(self.path, line, col)
            loc = loc[:-1]
        line, col = self.marks.get((), (1, 1))
        return Location(self.path, line, col)


class _Refused(Exception):
    def __init__(self, node: yaml.Node, problem: str, hint: str = "content is plain data: mappings, lists, text and numbers"):
        super().__init__(problem)
        self.node = node
        self.problem = problem
        self.hint = hint


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Builder:
    def __init__(self, doc: YamlDocument, report: Report):
        self.doc = doc
        self.report = report
        self.constructor = yaml.constructor.SafeConstructor()
        self.nodes = 0
        self.sizes: dict[int, int] = {}

    def count(self, node: yaml.Node) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _Refused(node, f"the document expands to more than {MAX_NODES:,} values (aliases included)")

    def scalar(self, node: yaml.ScalarNode) -> Any:
        convert = _SCALAR_TAGS.get(node.tag)
        if convert is None:
            raise _Refused(node, f"unsupported tag '{node.tag}'")
        try:
            value = convert(node.value)
        except ValueError as exc:
            raise _Refused(node, str(exc), "quote it to keep it as text") from None
        if isinstance(value, str) and _CONTROL.search(value):
            raise _Refused(node, f"control character U+{ord(_CONTROL.search(value).group()):04X} in the text",
                           "remove the escape (\\0, \\x07, ...): text holds printable characters only")
        if isinstance(value, str):
            self._check_bidi(node, value)
        self._compare_yaml11(node, value)
        return value

    def _check_bidi(self, node: yaml.ScalarNode, value: str) -> None:
        at = unbalanced_bidi(value)
        if at is None:
            return
        line, col = _mark(node)
        if "\n" not in value[:at]:
            col += at + (1 if node.style in ("'", '"') else 0)
        self.report.add("E067", f"the direction control U+{ord(value[at]):04X} is never closed: the text after "
                        "it reads in another direction than it is written", Location(self.doc.path, line, col),
                        BIDI_HINT)

    def _compare_yaml11(self, node: yaml.ScalarNode, value: Any) -> None:
        if node.style not in (None, "") or not node.value:
            return
        old_tag = _YAML11.resolve(yaml.ScalarNode, node.value, (True, False))
        if old_tag == node.tag and old_tag != "tag:yaml.org,2002:int":
            return
        if old_tag == node.tag:  # both numbers: 010 is 8 to YAML 1.1
            try:
                if yaml.constructor.SafeConstructor.construct_yaml_int(self.constructor, node) == value:
                    return
            except ValueError:
                return
        elif old_tag not in _SHORT:
            return
        line, col = _mark(node)
        was = _SHORT.get(old_tag, "text")
        if old_tag == node.tag:
            was = f"the number {yaml.constructor.SafeConstructor.construct_yaml_int(self.constructor, node)}"
        self.report.add("W006", f"'{node.value}' reads as {_describe(value)}; YAML 1.1 tools read it as {was}",
                        Location(self.doc.path, line, col),
                        "quote it if you mean text, or write it the YAML 1.2 way (true/false, 8, \"6:1\")")

    def build(self, node: yaml.Node, path: PathKey, active: frozenset[int] = frozenset()) -> Any:
        self.doc.marks[path] = _mark(node)
        self.count(node)
        if len(path) > MAX_DEPTH:
            raise _Refused(node, f"values nested more than {MAX_DEPTH} levels deep")
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            if id(node) in active:
                raise _Refused(node, "an alias refers to the collection that contains it")
            active = active | {id(node)}
            standard = "tag:yaml.org,2002:map" if isinstance(node, yaml.MappingNode) else "tag:yaml.org,2002:seq"
            if node.tag != standard:
                raise _Refused(node, f"unsupported tag '{node.tag}'")
        if isinstance(node, yaml.MappingNode):
            result: dict[Any, Any] = {}
            merged: list[yaml.Node] = []
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    merged.extend(value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node])
                    continue
                if not isinstance(key_node, yaml.ScalarNode):
                    raise _Refused(key_node, "a key must be plain text or a number, not a list or mapping")
                key = self.scalar(key_node)
                if key is None:
                    key = "null"
                if key in result:
                    first = self.doc.key_marks[path + (key,)]
                    line, col = _mark(key_node)
                    self.report.add(
                        "E002",
                        f"duplicate key '{key}' (first at line {first[0]})",
                        Location(self.doc.path, line, col),
                        "YAML keeps only the last value; remove or rename one of them",
                    )
                    continue
                self.doc.key_marks[path + (key,)] = _mark(key_node)
                result[key] = self.build(value_node, path + (key,), active)
            for source in merged:  # '<<: *defaults': keys the mapping does not set itself, first merge first
                if not isinstance(source, yaml.MappingNode):
                    raise _Refused(source, "'<<' merges mappings only")
                for key, value in self.build(source, path, active).items():
                    result.setdefault(key, value)
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,), active) for i, item in enumerate(node.value)]
        return self.scalar(node)


def _describe(value: Any) -> str:
    if isinstance(value, str):
        return "text"
    if value is None:
        return "empty (null)"
    return f"the number {value}" if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value).lower()


def line_of_offset(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in `text`."""
    before = text[:offset]
    line = before.count("\n") + 1
    return line, offset - (before.rfind("\n") + 1) + 1


def read_text(path: Path) -> str:
    """A file's text as UTF-8, in Unicode's composed form (NFC): 'Café' typed as e + U+0301 and
    as é are one name, whichever a designer's editor writes. Every content file (YAML, rules
    text, catalogs, ERRATA.md) is read here. UnicodeDecodeError's `line`/`col` attributes name
    the bad byte's place. Only a regular file is read (folders.read_bytes): a named pipe, a
    socket, a device or a file of over 64 MB raises folders.Refused at once."""
    data = folders.read_bytes(path)
    try:
        return unicodedata.normalize("NFC", data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        head = data[: exc.start]
        exc.line = head.count(b"\n") + 1  # type: ignore[attr-defined]
        exc.col = exc.start - (head.rfind(b"\n") + 1) + 1  # type: ignore[attr-defined]
        raise


def unreadable(path: Path, exc: BaseException) -> tuple[str, Location, str]:
    """Why a file cannot be read, where, and what to do: for OSError and UnicodeDecodeError."""
    if isinstance(exc, UnicodeDecodeError):
        where = Location(path, getattr(exc, "line", 1), getattr(exc, "col", 1))
        return (f"file is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at this place cannot be read)",
                where, "save the file as UTF-8")
    if isinstance(exc, IsADirectoryError) or path.is_dir():
        return "this is a folder, not a file", Location(path), "rename the folder or move it out of the way"
    if isinstance(exc, folders.Refused):
        return f"cannot read this file: {exc.strerror}", Location(path), exc.hint
    if isinstance(exc, OSError) and exc.errno == errno.ELOOP:
        return ("cannot read this file: it is a symbolic link that leads back to itself (a loop)", Location(path),
                "point the link at the file it stands for, or replace it with the file")
    if isinstance(exc, FileNotFoundError) and path.is_symlink():
        return (f"cannot read this file: it is a symbolic link to '{os.readlink(path)}', which does not exist",
                Location(path), "point the link at an existing file, or replace it with the file")
    reason = getattr(exc, "strerror", None) or str(exc)
    return f"cannot read this file: {reason}", Location(path), "check the file exists, is a file and can be read"


def control_character(text: str) -> tuple[int, str] | None:
    """The offset and name of the first character YAML and the rules text do not accept (NUL, BEL, ...)."""
    match = _CONTROL.search(text)
    if match is None:
        return None
    return match.start(), f"U+{ord(match.group()):04X}"


_OPENERS = {"\u202a": "embed", "\u202b": "embed", "\u202d": "embed", "\u202e": "embed",
            "\u2066": "isolate", "\u2067": "isolate", "\u2068": "isolate"}
BIDI_HINT = ("close it (U+202C after an embedding or override, U+2069 after an isolate) or remove it; "
             "a right-to-left name needs no control characters")


def unbalanced_bidi(text: str) -> int | None:
    """The offset of the first direction control (an embedding, override or isolate) that the
    text does not close, or None: an unclosed one turns the text that follows it around, so
    that what a reader sees is not what the file holds."""
    opened: list[tuple[int, str]] = []
    for offset, char in enumerate(text):
        if char in _OPENERS:
            opened.append((offset, _OPENERS[char]))
        elif char == "\u202c" and opened and opened[-1][1] == "embed":
            opened.pop()
        elif char == "\u2069" and any(kind == "isolate" for _, kind in opened):
            while opened.pop()[1] != "isolate":
                pass
        elif char in "\n\u2029" and opened:  # a paragraph ends every control
            return opened[0][0]
    return opened[0][0] if opened else None


_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def yaml_value(text: str) -> Any:
    """One small YAML value (a calc argument list, a condition's literal) read the YAML 1.2 way."""
    node = yaml.compose(text, Loader=Loader)
    if node is None:
        return None
    try:
        return _Builder(YamlDocument(Path("<value>"), None), Report()).build(node, ())
    except _Refused as exc:
        raise yaml.YAMLError(exc.problem) from None


def load_yaml(path: Path, report: Report, text: str | None = None) -> YamlDocument | None:
    """Parse one YAML file; syntax errors and duplicate keys go to `report`."""
    doc = YamlDocument(path=path, data=None)
    try:
        if text is None:
            text = read_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        message, where, hint = unreadable(path, exc)
        report.add("E001", message, where, hint)
        return None
    bad = control_character(text)
    if bad is not None:
        line, col = line_of_offset(text, bad[0])
        report.add("E001", f"control character {bad[1]} in the file", Location(path, line, col),
                   "remove it: YAML files hold printable text only")
        return None
    try:
        node = yaml.compose(text, Loader=Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or "invalid YAML"
        if exc.context:
            problem = f"{problem} ({exc.context})"
        report.add("E001", problem, Location(path, line, col),
                   "check indentation, colons and quotes around this place")
        return None
    except yaml.reader.ReaderError as exc:
        line, col = line_of_offset(text, exc.position)
        report.add("E001", f"character U+{exc.character if isinstance(exc.character, int) else ord(exc.character):04X} "
                   "is not allowed in YAML", Location(path, line, col), "remove it")
        return None
    except yaml.YAMLError as exc:  # pragma: no cover - PyYAML raises marked errors in practice
        report.add("E001", str(exc), Location(path, 1, 1), "check the YAML syntax")
        return None
    except RecursionError:
        report.add("E001", "values nested too deep to read", Location(path, 1, 1),
                   f"content nests at most {MAX_DEPTH} levels")
        return None
    if node is None:
        doc.data = None
        doc.marks[()] = (1, 1)
        return doc
    try:
        doc.data = _Builder(doc, report).build(node, ())
    except _Refused as exc:
        line, col = _mark(exc.node)
        report.add("E001", exc.problem, Location(path, line, col), exc.hint)
        return None
    except RecursionError:
        report.add("E001", "values nested too deep to read", Location(path, 1, 1),
                   f"content nests at most {MAX_DEPTH} levels")
        return None
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        report.add("E001", exc.problem or "cannot read this value", Location(path, line, col),
                   "quote the value to keep it as text")
        return None
    return doc
