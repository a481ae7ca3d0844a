"""Rulesmith: a toolkit for designers who keep a wargame as YAML data and Markdown rules."""

__version__ = "0.1.0"
