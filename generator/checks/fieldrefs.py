"""References in the text fields of the data: every `{{ kind:id }}` a designer writes in a YAML
string (a card's face or back, a counter, a map label, a table cell, a parameter, a side's
name) names something that exists, and is reported at the line and column of its `{{`."""

from __future__ import annotations

from pathlib import Path

from ..core.diagnostics import Location, Report
from ..reading.game import Game
from ..i18n.messages import data_strings
from ..text.refs import REFERENCE, Ref, RefError, is_block, resolve
from ..text.tabletext import table_ref
from ..reading.yamlsource import line_of_offset, read_text

class _Sources:
    """The files' texts, read once, to find where in its line a reference stands."""

    def __init__(self):
        self.texts: dict[Path, str | None] = {}

    def text(self, path: Path) -> str | None:
        if path not in self.texts:
            try:
                self.texts[path] = read_text(path)
            except (OSError, UnicodeDecodeError):
                self.texts[path] = None  # the loader reported it
        return self.texts[path]

    def place(self, start: Location, needle: str, nth: int) -> Location:
        """Where the nth `needle` of a string that starts at `start` is written; the string's
        start where the file says otherwise (a reference folded over two lines)."""
        text = self.text(start.path)
        if text is None or not start.line:
            return start
        lines = text.splitlines(keepends=True)
        at = sum(len(line) for line in lines[:start.line - 1]) + max(start.col - 1, 0)
        for _ in range(nth + 1):
            at = text.find(needle, at)
            if at < 0:
                return start
            found, at = at, at + len(needle)
        line, col = line_of_offset(text, found)
        return Location(start.path, line, col)


def _owner(record, path: tuple) -> str:
    where = ".".join(map(str, path))
    return f"game.yaml {where}" if record is None else f"{record.kind} '{record.id}' {where}"


def _table_alone(record, path: tuple, text: str, match) -> bool:
    """A `{{ table:ID }}` alone on its line of a card's text (its face, a section's, its
    back's): the card prints the table there (text/tabletext.py)."""
    if record is None or record.kind != "card" or not path or path[-1] != "text":
        return False
    start = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.end())
    return table_ref(text[start:end if end >= 0 else len(text)]) is not None


def check(game: Game, report: Report) -> None:
    sources = _Sources()
    for record, path, text, start in data_strings(game):
        if "{{" not in text:
            continue
        seen: dict[str, int] = {}
        end = 0
        for match in REFERENCE.finditer(text):
            nth = seen.get(match.group(0), 0)
            seen[match.group(0)] = nth + 1
            end = match.end()
            where = sources.place(start, match.group(0), nth)
            try:
                resolved = resolve(game, Ref.parse(match.group(1)))
            except RefError as exc:
                if not exc.follows:
                    report.add(exc.code, f"{_owner(record, path)}: {exc}", where, exc.hint)
                continue
            if is_block(resolved) and not _table_alone(record, path, text, match):
                report.add("E052", f"{_owner(record, path)}: '{{{{ {match.group(1)} }}}}' prints a whole table or "
                           "list, which cannot stand inside this text", where,
                           "refer to one record or value here ({{ kind:id }}, {{ kind:id.field }}); a card's text "
                           "prints a table written alone on its own line")
        if "{{" in text[end:]:
            report.add("E019", f"{_owner(record, path)}: '{{{{' opens a reference that is never closed with '}}}}'",
                       sources.place(start, "{{", text.count("{{", 0, end)),
                       "write {{ kind:id }} with its closing '}}'")
