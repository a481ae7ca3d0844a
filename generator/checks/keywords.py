"""Keyword uses and the keyword index, where a game's procedures.py imports them from
(`from generator.checks.keywords import KeywordIndex, parse_use`); they live in text/keywords.py,
below the text renderer and the checks that both use them."""

from __future__ import annotations

from ..text.keywords import KeywordIndex, KeywordUse, parse_use, same_name

__all__ = ["KeywordIndex", "KeywordUse", "parse_use", "same_name"]
