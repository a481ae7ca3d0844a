"""Term lists: one target-language term per game concept (locale/LANG.terms.yaml).

    terms:
      - source: пехота                    # words: any inflected form («пехоту», «пехоты»)
        target: infantry                  # satisfied by any form too («infantry», «infantries»)
      - source: [очки контроля, ОК]       # several ways the source says it
        target: control point
        note: ОК = очки контроля
      - source: ['\\bход(|а|у|ом)\\b']     # a regular expression, where word forms are not enough
        target: turn

Words are compared by their Snowball stems in the game's source language and in LANG, so a
term matches its word forms and not other words that merely contain it; a word also matches
the words that begin with it (a stem written by hand, «выжи», matches «Выживание»). A source entry with
regular-expression syntax (any of \\ [ ] ( ) { } ? * + ^ $ |) is matched as a regular
expression instead, case-insensitively. A target is satisfied by the same words in any form,
or by the text appearing as written (a prefix such as "Command di" covers die and dice).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import snowballstemmer
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from ..diagnostics import Location, Report
from ..loader import report_validation_error
from ..yamlsource import load_yaml

# Snowball's algorithm per language code
ALGORITHMS = {"ar": "arabic", "ca": "catalan", "cs": "czech", "da": "danish", "de": "german", "el": "greek",
              "en": "english", "es": "spanish", "fi": "finnish", "fr": "french", "hu": "hungarian",
              "it": "italian", "lt": "lithuanian", "nl": "dutch", "no": "norwegian", "pl": "polish",
              "pt": "portuguese", "ro": "romanian", "ru": "russian", "sr": "serbian", "sv": "swedish",
              "tr": "turkish"}
_REGEX_SYNTAX = re.compile(r"[\\\[\](){}?*+^$|]")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# A repeated group that itself repeats, like (a+)+ or (\w+\s?)*: on text that almost matches,
# the regular expression engine tries every way of splitting it, which can take practically forever.
_NESTED_REPEAT = re.compile(r"\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)[+*{]")


@lru_cache(maxsize=None)
def _stemmer(lang: str | None):
    algorithm = ALGORITHMS.get((lang or "").split("-")[0].lower())
    if algorithm is None or algorithm not in snowballstemmer.algorithms():
        return None
    return snowballstemmer.stemmer(algorithm)


@lru_cache(maxsize=65536)
def words(text: str, lang: str | None) -> tuple[tuple[str, str], ...]:
    """The words of a text as (stem, word): 'Пехоту' and 'пехота' share the stem 'пехот'."""
    found = [w.casefold().replace("ё", "е") for w in _WORD.findall(text)]
    stemmer = _stemmer(lang)
    return tuple(zip(stemmer.stemWords(found) if stemmer else found, found))


def _contains(text: tuple[tuple[str, str], ...], phrase: tuple[tuple[str, str], ...]) -> bool:
    """Whether the phrase's words occur in a row in the text, each in some form of it."""
    n = len(phrase)
    for i in range(len(text) - n + 1):
        if all(stem == p_stem or word.startswith(p_word)
               for (stem, word), (p_stem, p_word) in zip(text[i:i + n], phrase)):
            return True
    return False


def is_pattern(source: str) -> bool:
    return bool(_REGEX_SYNTAX.search(source))


class Term(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    source: tuple[str, ...]
    target: tuple[str, ...]
    note: str | None = None

    @field_validator("source", "target", mode="before")
    @classmethod
    def _listify(cls, value):
        return [value] if isinstance(value, str) else value

    @field_validator("source")
    @classmethod
    def _compiles(cls, value):
        for pattern in value:
            if is_pattern(pattern):
                try:
                    re.compile(pattern)
                except re.error as exc:
                    raise ValueError(f"'{pattern}' is not a valid regular expression: {exc}") from None
                if _NESTED_REPEAT.search(pattern):
                    raise ValueError(f"'{pattern}' repeats a group that itself repeats (like (a+)+), which can "
                                     "take practically forever to match; write the repetition once")
            elif not _WORD.search(pattern):
                raise ValueError(f"'{pattern}' has no words to match")
        return value


class TermList(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    terms: tuple[Term, ...] = ()


@dataclass(frozen=True)
class CompiledTerm:
    term: Term
    patterns: tuple[re.Pattern, ...]
    phrases: tuple[tuple[tuple[str, str], ...], ...]  # source words as (stem, word)
    targets: tuple[tuple[tuple[str, str], ...], ...]  # target words as (stem, word)
    line: int
    source_lang: str | None = None
    target_lang: str | None = None

    def in_source(self, text: str) -> bool:
        if any(p.search(text) for p in self.patterns):
            return True
        found = words(text, self.source_lang) if self.phrases else ()
        return any(_contains(found, phrase) for phrase in self.phrases)

    def in_target(self, text: str) -> bool:
        folded = text.casefold()
        if any(t.casefold() in folded for t in self.term.target):
            return True
        found = words(text, self.target_lang)
        return any(_contains(found, target) for target in self.targets)


def terms_path(locale_dir: Path, lang: str) -> Path:
    return locale_dir / f"{lang}.terms.yaml"


def load_terms(path: Path, report: Report, source_lang: str | None = None,
               target_lang: str | None = None) -> list[CompiledTerm]:
    """The term list at `path` (LANG.terms.yaml: LANG is the target language unless given)."""
    target_lang = target_lang or path.name.split(".")[0]
    doc = load_yaml(path, report)
    if doc is None or doc.data is None:
        return []
    try:
        parsed = TermList.model_validate(doc.data)
    except ValidationError as exc:
        report_validation_error(exc, TermList, doc, (), report)
        return []
    return [
        CompiledTerm(term,
                     tuple(re.compile(p, re.IGNORECASE) for p in term.source if is_pattern(p)),
                     tuple(words(p, source_lang) for p in term.source if not is_pattern(p)),
                     tuple(words(t, target_lang) for t in term.target),
                     doc.location(("terms", i)).line, source_lang, target_lang)
        for i, term in enumerate(parsed.terms)
    ]


def check_entry(terms: list[CompiledTerm], msgid: str, msgstr: str, where: Location, report: Report,
                quick: re.Pattern | None = None) -> None:
    """W002 for each term the source uses and the translation lacks. `quick` (any_source)
    skips regular-expression terms at once for a source none of them matches."""
    skip_patterns = quick is not None and not quick.search(msgid)
    for compiled in terms:
        if skip_patterns and not compiled.phrases:
            continue
        if compiled.in_source(msgid) and not compiled.in_target(msgstr):
            target = compiled.term.target[0]
            report.add("W002", f"term list: the source uses '{compiled.term.source[0]}', "
                       f"the translation lacks '{target}'", where,
                       f"use '{target}' (see {where.path.name.replace('.po', '.terms.yaml')}, "
                       f"line {compiled.line}), or narrow the term's source")


def any_source(terms: list[CompiledTerm]) -> re.Pattern | None:
    """One pattern matching wherever any term's regular expression matches (a quick first test)."""
    patterns = [p.pattern for t in terms for p in t.patterns]
    if not patterns:
        return None
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)
