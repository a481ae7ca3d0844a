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
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import snowballstemmer
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from ..core.diagnostics import Location, Report
from ..reading.loader import report_validation_error
from ..reading.yamlsource import load_yaml

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
# What makes a regular expression mean something else, or nothing, inside another: a reference to
# a group by number or name (`\1`, `(?P=a)`, `(?(1)…)`), a group's name (names may clash) and a
# flag for the whole expression (`(?i)`, allowed only at its start). Such a pattern is tested alone.
_ALONE = re.compile(r"\\[1-9]|\(\?P[<=]|\(\?\(|\(\?[aiLmsux]+\)")


@lru_cache(maxsize=None)
def _stemmer(lang: str | None):
    algorithm = ALGORITHMS.get((lang or "").split("-")[0].lower())
    if algorithm is None or algorithm not in snowballstemmer.algorithms():
        return None
    return snowballstemmer.stemmer(algorithm)


@lru_cache(maxsize=65536)
def _stem(word: str, lang: str | None) -> str:
    """A folded word's stem (once per word: stemming is most of the term check's work)."""
    stemmer = _stemmer(lang)
    return stemmer.stemWord(word) if stemmer else word


@lru_cache(maxsize=65536)
def words(text: str, lang: str | None) -> tuple[tuple[str, str], ...]:
    """The words of a text as (stem, word): 'Пехоту' and 'пехота' share the stem 'пехот'."""
    found = [w.casefold().replace("ё", "е") for w in _WORD.findall(text)]
    return tuple((_stem(w, lang), w) for w in found)


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


@dataclass(frozen=True)
class _Patterns:
    """A term list's regular expressions by term (its position in the list), known by their text."""
    key: str
    quick: re.Pattern | None = field(compare=False)
    terms: tuple[tuple[int, tuple[re.Pattern, ...]], ...] = field(compare=False)
    alone: tuple[tuple[int, tuple[re.Pattern, ...]], ...] = field(compare=False)

    @classmethod
    def of(cls, terms: list[CompiledTerm]) -> _Patterns:
        patterned = tuple((i, term.patterns) for i, term in enumerate(terms) if term.patterns)
        return cls(repr([(i, [(p.pattern, p.flags) for p in patterns]) for i, patterns in patterned]),
                   any_source(terms), patterned,
                   tuple((i, patterns) for i, patterns in patterned if any(_ALONE.search(p.pattern) for p in patterns)))


@lru_cache(maxsize=65536)
def _patterns_in(patterns: _Patterns, text: str) -> tuple[int, ...]:
    """The terms whose regular expressions match the text; remembered, as `words` is, for the
    texts that validation meets again in one process (a watched project, the test suite)."""
    tested = patterns.terms if patterns.quick is not None and patterns.quick.search(text) else patterns.alone
    return tuple(i for i, term_patterns in tested if any(p.search(text) for p in term_patterns))


class TermIndex:
    """A term list ready to check entries: the terms whose source uses a text, found without
    testing every term. A phrase occurs only where its first word does, so each phrase waits
    under its first word's stem and its first word itself (a prefix of the text's words); the
    terms a text's words call up, and the regular-expression terms (those `any_source` holds
    once it matches the text, the others always), are then tested as `CompiledTerm.in_source`
    defines."""

    def __init__(self, terms: list[CompiledTerm]):
        self.terms = terms
        self._patterns = _Patterns.of(terms)
        self._by_stem: dict[tuple[str | None, str], set[int]] = {}
        self._by_prefix: dict[tuple[str | None, str], set[int]] = {}
        lengths: dict[str | None, set[int]] = {}
        for i, term in enumerate(terms):
            for (stem, word), *_ in term.phrases:  # a phrase has a word (Term refuses a source without one)
                self._by_stem.setdefault((term.source_lang, stem), set()).add(i)
                self._by_prefix.setdefault((term.source_lang, word), set()).add(i)
                lengths.setdefault(term.source_lang, set()).add(len(word))
        self._lengths = {lang: sorted(n) for lang, n in lengths.items()}

    def used_in(self, text: str) -> list[CompiledTerm]:
        """The terms whose source the text uses, in the list's order."""
        found = set(_patterns_in(self._patterns, text))
        for lang, lengths in self._lengths.items():
            text_words = words(text, lang)
            for i in self._called_up(set(text_words), lang, lengths) - found:
                if any(_contains(text_words, phrase) for phrase in self.terms[i].phrases):
                    found.add(i)
        return [self.terms[i] for i in sorted(found)]

    def _called_up(self, text_words: set[tuple[str, str]], lang: str | None, lengths: list[int]) -> set[int]:
        """The terms with a phrase whose first word matches one of these words."""
        called: set[int] = set()
        for stem, word in text_words:
            called.update(self._by_stem.get((lang, stem), ()))
            for n in lengths:
                if n > len(word):
                    break
                called.update(self._by_prefix.get((lang, word[:n]), ()))
        return called


def check_entry(index: TermIndex, msgid: str, msgstr: str, where: Location, report: Report) -> None:
    """W002 for each term the source uses and the translation lacks."""
    for compiled in index.used_in(msgid):
        if not compiled.in_target(msgstr):
            target = compiled.term.target[0]
            report.add("W002", f"term list: the source uses '{compiled.term.source[0]}', "
                       f"the translation lacks '{target}'", where,
                       f"use '{target}' (see {where.path.name.replace('.po', '.terms.yaml')}, "
                       f"line {compiled.line}), or narrow the term's source")


def any_source(terms: list[CompiledTerm]) -> re.Pattern | None:
    """One pattern matching wherever any term's regular expression matches (a quick first test),
    but those that are tested alone."""
    patterns = [p.pattern for t in terms for p in t.patterns if not _ALONE.search(p.pattern)]
    if not patterns:
        return None
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)
