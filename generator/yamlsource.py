"""YAML documents that remember where every value came from.

PyYAML's `safe_load` silently keeps the last of two duplicate keys and forgets line numbers.
Here we compose the node tree ourselves, build plain Python data from it, and keep a map
from each value's path (`("units", 3, "stats", "quality")`) to its line and column, so a
diagnostic about any value can cite the exact place in the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .diagnostics import Location, Report

PathKey = tuple[Any, ...]
# libyaml's parser when PyYAML was built with it: the same nodes and marks, several times faster.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


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
    def __init__(self, node: yaml.Node, problem: str):
        super().__init__(problem)
        self.node = node
        self.problem = problem


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Builder:
    def __init__(self, doc: YamlDocument, report: Report):
        self.doc = doc
        self.report = report
        self.constructor = yaml.constructor.SafeConstructor()

    def build(self, node: yaml.Node, path: PathKey, active: frozenset[int] = frozenset()) -> Any:
        self.doc.marks[path] = _mark(node)
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            if id(node) in active:
                raise _Refused(node, "an alias refers to the collection that contains it")
            active = active | {id(node)}
            standard = "tag:yaml.org,2002:map" if isinstance(node, yaml.MappingNode) else "tag:yaml.org,2002:seq"
            if node.tag != standard:
                raise _Refused(node, f"unsupported tag '{node.tag}'")
        if isinstance(node, yaml.MappingNode):
            self.constructor.flatten_mapping(node)
            result: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                key = self.constructor.construct_object(key_node, deep=True)
                if not isinstance(key, (str, int, float, bool)) or key is None:
                    key = str(key)
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
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,), active) for i, item in enumerate(node.value)]
        return self.constructor.construct_object(node, deep=True)


def load_yaml(path: Path, report: Report, text: str | None = None) -> YamlDocument | None:
    """Parse one YAML file; syntax errors and duplicate keys go to `report`."""
    doc = YamlDocument(path=path, data=None)
    try:
        if text is None:
            text = path.read_text(encoding="utf-8")
        node = yaml.compose(text, Loader=LOADER)
    except UnicodeDecodeError as exc:
        report.add("E001", f"file is not UTF-8 text ({exc.reason})", Location(path, 1, 1),
                   "save the file as UTF-8")
        return None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or "invalid YAML"
        if exc.context:
            problem = f"{problem} ({exc.context})"
        report.add("E001", problem, Location(path, line, col),
                   "check indentation, colons and quotes around this place")
        return None
    except yaml.YAMLError as exc:  # pragma: no cover - PyYAML raises marked errors in practice
        report.add("E001", str(exc), Location(path, 1, 1), "check the YAML syntax")
        return None
    if node is None:
        doc.data = None
        doc.marks[()] = (1, 1)
        return doc
    try:
        doc.data = _Builder(doc, report).build(node, ())
    except _Refused as exc:
        line, col = _mark(exc.node)
        report.add("E001", exc.problem, Location(path, line, col),
                   "content is plain data: mappings, lists, text and numbers")
        return None
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        report.add("E001", exc.problem or "cannot read this value", Location(path, line, col),
                   "quote the value to keep it as text")
        return None
    return doc
