"""Term lists: one target-language term per game concept (locale/LANG.terms.yaml).

    terms:
      - source: ['\\bОК\\b', 'очк\\w* контрол\\w*']   # regular expressions over the source text
        target: control point                          # must appear in the translation
        note: ОК = очки контроля
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from ..diagnostics import Location, Report
from ..loader import report_validation_error
from ..yamlsource import load_yaml


class Term(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    source: tuple[str, ...]
    target: str
    note: str | None = None

    @field_validator("source", mode="before")
    @classmethod
    def _listify(cls, value):
        return [value] if isinstance(value, str) else value

    @field_validator("source")
    @classmethod
    def _compiles(cls, value):
        for pattern in value:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"'{pattern}' is not a valid regular expression: {exc}") from None
        return value


class TermList(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    terms: tuple[Term, ...] = ()


@dataclass(frozen=True)
class CompiledTerm:
    term: Term
    patterns: tuple[re.Pattern, ...]
    line: int

    def in_source(self, text: str) -> bool:
        return any(p.search(text) for p in self.patterns)

    def in_target(self, text: str) -> bool:
        return self.term.target.casefold() in text.casefold()


def terms_path(locale_dir: Path, lang: str) -> Path:
    return locale_dir / f"{lang}.terms.yaml"


def load_terms(path: Path, report: Report) -> list[CompiledTerm]:
    doc = load_yaml(path, report)
    if doc is None or doc.data is None:
        return []
    try:
        parsed = TermList.model_validate(doc.data)
    except ValidationError as exc:
        report_validation_error(exc, TermList, doc, (), report)
        return []
    return [
        CompiledTerm(term, tuple(re.compile(p, re.IGNORECASE) for p in term.source), doc.location(("terms", i)).line)
        for i, term in enumerate(parsed.terms)
    ]


def check_entry(terms: list[CompiledTerm], msgid: str, msgstr: str, where: Location, report: Report,
                quick: re.Pattern | None = None) -> None:
    if quick is not None and not quick.search(msgid):
        return
    for compiled in terms:
        if compiled.in_source(msgid) and not compiled.in_target(msgstr):
            report.add("W002", f"term list: the source uses '{compiled.term.source[0]}', "
                       f"the translation lacks '{compiled.term.target}'", where,
                       f"use '{compiled.term.target}' (see {where.path.name.replace('.po', '.terms.yaml')}, "
                       f"line {compiled.line}), or narrow the term's source pattern")



def any_source(terms: list[CompiledTerm]) -> re.Pattern | None:
    """One pattern matching wherever any term's source pattern matches (a quick first test)."""
    if not terms:
        return None
    return re.compile("|".join(f"(?:{p.pattern})" for t in terms for p in t.patterns), re.IGNORECASE)
