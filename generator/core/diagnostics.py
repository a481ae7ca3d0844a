"""Diagnostics: what a content check found, where, and how to fix it.

Every problem is collected into a `Report` rather than raised, so one run shows all of
them, compiler-style: `path:line:col: error[CODE]: message` followed by a hint.
"""

from __future__ import annotations

import difflib
import json
import os
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Iterable


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


# One code per kind of problem; tests keep one broken fixture per code.
CODES: dict[str, str] = {
    "E001": "YAML syntax error",
    "E002": "duplicate key in a mapping",
    "E003": "unknown field",
    "E004": "wrong type",
    "E005": "missing required field",
    "E006": "duplicate id",
    "E007": "reference to a record that does not exist",
    "E008": "parameterised keyword used without its parameter",
    "E009": "plain keyword given a parameter",
    "E010": "dice table leaves a face uncovered",
    "E011": "dice table covers a face twice",
    "E012": "value does not fit its stat type, or a parameter in a unit of measure is not a number",
    "E013": "unknown stat",
    "E014": "unknown file kind",
    "E015": "erratum missing from ERRATA.md",
    "E016": "ERRATA.md lists an erratum that does not exist",
    "E017": "game manifest missing or invalid",
    "E018": "erratum does not match what the record holds",
    "E019": "malformed reference in rules text",
    "E020": "chapter without a title heading",
    "E021": "malformed container (note / example)",
    "E022": "unreadable translation catalog (a fault msgfmt --check rejects)",
    "E023": "translation markup differs from its source",
    "E024": "file cannot be read as text (not UTF-8, a folder, a control character, not a regular file)",
    "E025": "catalog's Plural-Forms disagrees with the language's CLDR plural rules",
    "E026": "unit of measure gives a form for a plural category its language does not count with",
    "E030": "check block outside an example container",
    "E031": "unknown rule procedure",
    "E032": "malformed check block",
    "E033": "input or result does not fit the procedure",
    "E034": "procedures module cannot be loaded",
    "E035": "procedures did not finish within the time limit, or ended the process",
    "E036": "procedure cites an erratum that does not exist",
    "E037": "reading erratum that no procedure cites",
    "E038": "number of an example's prose bound to nothing its check block holds",
    "E039": "translation of an example's prose changes its numbers or loses its negation",
    "E040": "content overflows its card, cell, column or page",
    "E041": "text drawn over other text",
    "E045": "as-written form for a stat the record does not give",
    "E046": "as-written form does not hold the record's typed values",
    "E048": "print-shop file fails the preflight (bleed, marks, page boxes, fonts, resolution)",
    "E050": "value outside its enumeration",
    "E051": "table row lacks a column",
    "E052": "reference that prints a block stands inside a sentence or cell",
    "E055": "table cell is not one of its column's values",
    "E060": "map place outside the grid, or hexside between cells that are not neighbours",
    "E061": "image missing, outside the game folder, or not PNG, SVG or JPEG",
    "E062": "editor: names no text field of the record, or names one twice",
    "E063": "picture that could run script or fetch: an SVG with script, event attributes, entities or links",
    "E064": "picture that cannot be read: damaged, not the type its name says, or too many pixels",
    "E065": "style attribute in rules text that loads a URL (url(), @import, image-set())",
    "E066": "content file that is a link to a file outside the project",
    "E067": "name with a line break or an unbalanced right-to-left control",
    "E071": "number outside the min/max its stat or parameter declares",
    "E072": "unit of measure neither built in nor declared under measures:, or declared twice",
    "E080": "roster rule that contradicts itself (a limit twice, a minimum above its maximum)",
    "E081": "army list that breaks its roster rules or names what its game does not have",
    "E082": "case numbering: a heading's number that cannot stand (malformed, repeated, not under its parent), or a case reference the game cannot number",
    "W001": "erratum not referenced by any record",
    "W002": "translation does not use the term list's term",
    "W003": "card text does not fit at the minimum size (site; on card sheets E040)",
    "W004": "erratum alias that no record uses",
    "W005": "text falls back to the source language (untranslated or fuzzy)",
    "W040": "text outside the page or a card's or counter's safe area",
    "W041": "text below the minimum size",
    "W042": "heading or caption alone at the bottom of a page or column",
    "W043": "glyph from a font Rulesmith does not ship",
    "W044": "text without enough contrast on its background (WCAG 2.2: 4.5:1, large text 3:1)",
    "W045": "rulebook laid out in one column: WeasyPrint failed to lay out its columns",
    "W046": "line far shorter than its measure inside a paragraph",
    "W047": "word hyphenated in ragged text although it fits whole on the next line",
    "W048": "deck or counter sheet of a size the print shop has no product for (left out of its files)",
    "W006": "value reads differently under YAML 1.1",
    "W007": "card quantity above a sane size",
    "W008": "image outside the game folder (neither printed nor published)",
    "W010": "no interface catalog for a language: interface words print in English",
    "W011": "interface catalog override of a word that does not exist",
    "W012": "message context for a place that holds no translatable text",
    "W013": "catalog that does not yet translate every message of the game (validate)",
    "W014": "unit of measure with forms for counts gives fewer than its language counts with",
    "W015": "catalog in the source language, which no edition reads",
    "W019": "probability table does not say what it assumes in a language of the game",
    "W020": "erratum summary or reading not written in the source language",
    "W031": "number in an example's prose neither bound to its check nor marked free",
    "W030": "counter text below the legible size or outside the counter",
    "W081": "army list line of negative cost, or a cost not counted (none, or no reading) where the size sets no limit",
}


@dataclass(frozen=True)
class Location:
    path: Path
    line: int = 0  # 1-based; 0 when unknown
    col: int = 0

    def display(self, root: Path | None = None) -> str:
        path = self.path
        if root is not None:
            try:  # absolute, not resolved: a symlink loop has no resolved path
                path = Path(os.path.abspath(path)).relative_to(os.path.abspath(root))
            except ValueError:
                try:
                    path = path.resolve().relative_to(root.resolve())
                except (ValueError, OSError, RuntimeError):
                    pass
        text = str(path)
        if self.line:
            text += f":{self.line}"
            if self.col:
                text += f":{self.col}"
        return text


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    location: Location
    hint: str = ""
    severity: Severity = Severity.ERROR

    def format_text(self, root: Path | None = None) -> str:
        head = f"{self.location.display(root)}: {self.severity.value}[{self.code}]: {self.message}"
        return head + (f"\n  hint: {self.hint}" if self.hint else "")

    def format_github(self, root: Path | None = None) -> str:
        loc = self.location
        path = Location(loc.path).display(root)
        kind = "error" if self.severity is Severity.ERROR else "warning"
        msg = self.message + (f" ({self.hint})" if self.hint else "")
        msg = msg.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        return f"::{kind} file={path},line={loc.line or 1},col={loc.col or 1},title={self.code}::{msg}"

    def as_dict(self, root: Path | None = None) -> dict:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "hint": self.hint,
            "file": Location(self.location.path).display(root),
            "line": self.location.line,
            "col": self.location.col,
        }


@dataclass
class Report:
    """All diagnostics of one run, in the order they were found."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def add(self, code: str, message: str, location: Location, hint: str = "") -> None:
        severity = Severity.WARNING if code.startswith("W") else Severity.ERROR
        self.diagnostics.append(Diagnostic(code, message, location, hint, severity))

    def extend(self, other: "Report") -> None:
        self.diagnostics.extend(other.diagnostics)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    def failed(self, strict: bool = False) -> bool:
        return bool(self.errors or (strict and self.warnings))

    def sorted(self) -> list[Diagnostic]:
        return sorted(
            self.diagnostics,
            key=lambda d: (str(d.location.path), d.location.line, d.location.col, d.code),
        )


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """A 'did you mean ...?' hint naming the closest candidate, or ''."""
    pool = list(dict.fromkeys(candidates))
    lowered = {c.casefold(): c for c in pool}
    close = difflib.get_close_matches(word.casefold(), list(lowered), n=1, cutoff=0.6)
    if close:
        return f"did you mean '{lowered[close[0]]}'?"
    return ""


def render(report: Report, fmt: str, root: Path | None = None) -> str:
    """Format a report as text, json or GitHub workflow annotations."""
    items = report.sorted()
    if fmt == "json":
        return json.dumps(
            {
                "errors": len(report.errors),
                "warnings": len(report.warnings),
                "diagnostics": [d.as_dict(root) for d in items],
            },
            ensure_ascii=False,
            indent=2,
        )
    if fmt == "github":
        return "\n".join(d.format_github(root) for d in items)
    return "\n".join(d.format_text(root) for d in items)


__all__ = ["CODES", "Diagnostic", "Location", "Report", "Severity", "did_you_mean", "render"]
