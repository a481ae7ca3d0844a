"""Keyword uses as designers write them: 'Быстрый', 'Стойкость (2)', 'ap(1)'."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import Keyword

_USE = re.compile(r"^\s*(?P<name>.*?)\s*(?:\((?P<param>[^()]*)\))?\s*$", re.S)


@dataclass(frozen=True)
class KeywordUse:
    name: str
    param: str | None


def parse_use(text: str) -> KeywordUse:
    match = _USE.match(text)
    assert match  # the pattern matches any string
    param = match.group("param")
    return KeywordUse(match.group("name"), param.strip() if param is not None else None)


def _norm(name: str) -> str:
    return " ".join(name.replace("ё", "е").replace("Ё", "Е").split()).casefold()


def same_name(a: str, b: str) -> bool:
    """Two spellings of one name, as keyword uses match them (case and ё/е aside)."""
    return _norm(a) == _norm(b)


@dataclass
class KeywordIndex:
    """Finds a keyword by id, name or declared alias (case and ё/е insensitive)."""

    by_name: dict[str, tuple[Keyword, str | None]]

    @classmethod
    def build(cls, keywords: dict[str, Keyword] | object) -> "KeywordIndex":
        by_name: dict[str, tuple[Keyword, str | None]] = {}
        for keyword in keywords.values():  # type: ignore[attr-defined]
            by_name.setdefault(_norm(keyword.id), (keyword, None))
            by_name.setdefault(_norm(keyword.name), (keyword, None))
            for alias in keyword.aliases:
                by_name.setdefault(_norm(alias.name), (keyword, alias.erratum))
        return cls(by_name)

    def find(self, name: str) -> tuple[Keyword, str | None] | None:
        """The keyword and, if found through an erratum alias, that erratum's id."""
        return self.by_name.get(_norm(name))

    def names(self) -> list[str]:
        return [k.name for k, _ in self.by_name.values()]
