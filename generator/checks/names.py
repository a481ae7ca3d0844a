"""A name is one line: a record's name, a keyword's alias and a keyword use ('Quick',
'AP (1)') each print on one line of a card or a table and are matched as written, so a line
break in one is reported where it stands (keyword uses that hold one are not looked up). The
names game.yaml gives (the title, components, sides, parameters, stats and their short labels,
enumeration values) are names too."""

from __future__ import annotations

from ..core.diagnostics import Report
from ..reading.game import Game

KEYWORD_USERS = ("units", "weapons", "terrain")
# game.yaml's lists of named things, and the fields of each that print as a name
MANIFEST_NAMES = {"components": ("name",), "sides": ("name",), "parameters": ("name",), "stats": ("name", "abbr")}


def broken(text: object) -> bool:
    """A name that holds a line break (or a paragraph or line separator)."""
    return isinstance(text, str) and any(char in text for char in "\n\r\u2028\u2029\x85")


def _report(report: Report, where, what: str, text: str) -> None:
    report.add("E067", f"{what} '{' '.join(text.split())}' holds a line break", where,
               "write the name on one line (a name prints on one line of a card or table and is matched as written)")


def check(game: Game, report: Report) -> None:
    for records in game.records.values():
        for record in records.values():
            origin = game.origin(record)
            if broken(getattr(record, "name", None)):
                _report(report, origin.location("name"), f"{record.kind} name", record.name)
            for i, alias in enumerate(getattr(record, "aliases", ()) or ()):
                if broken(getattr(alias, "name", None)):
                    _report(report, origin.location("aliases", i, "name"), "alias", alias.name)
            if record.section in KEYWORD_USERS:
                for i, use in enumerate(record.keywords):
                    if broken(use):
                        _report(report, origin.location("keywords", i), "keyword use", use)
    _check_manifest(game, report)


def _check_manifest(game: Game, report: Report) -> None:
    manifest, doc = game.manifest, game.manifest_doc
    for lang, title in manifest.title.items():
        if broken(title):
            _report(report, doc.location(("title", lang)), "title", title)
    for section, fields in MANIFEST_NAMES.items():
        for i, item in enumerate(getattr(manifest, section)):
            for field in fields:
                if broken(getattr(item, field, None)):
                    _report(report, doc.location((section, i, field)), f"{section[:-1]} {field}", getattr(item, field))
    for enum, values in manifest.enums.items():
        for i, value in enumerate(values):
            if broken(getattr(value, "name", None)):
                _report(report, doc.location(("enums", enum, i, "name")), "enumeration value name", value.name)
