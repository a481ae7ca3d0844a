"""Message contexts: where the same source words need different translations.

Identical source strings share one message, translated once. A game gives some places their
own message in locale/contexts.yaml, keyed by place: KIND:ID.FIELD for a record's field
(`unit:scouts.name`, `table:hits.rows.2.result`), game.FIELD for game.yaml
(`game.stats.5.name`); `*` stands for one part (`game.stats.*.name`).

    contexts:
      game.stats.*.name: stat          # every stat name in the context "stat"
      table:columns.rows.*.ru:         # empty: each place its own message

Some places have their own context in every game (OWN_CONTEXTS): an erratum's reading
("Быстрый") corrects the source's words and is translated as such, not as the keyword's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from .. import outputs
from ..core.diagnostics import Report
from ..system import folders
from ..system.folders import present
from ..reading.loader import report_validation_error
from ..reading.yamlsource import load_yaml

CONTEXTS_FILE = "contexts.yaml"
# A place in contexts.yaml, and a msgctxt that names one: KIND:ID.FIELD or game.FIELD.
PLACE = re.compile(r"^(game|[a-z][a-z0-9-]*:[a-z0-9*][a-z0-9*-]*)(\.[^.\s]+)+$")


class ContextFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    contexts: dict[str, str | None] = {}

    @field_validator("contexts", mode="before")
    @classmethod
    def _empty(cls, value):
        return {} if value is None else value  # 'contexts:' with every line removed

    @field_validator("contexts")
    @classmethod
    def _places(cls, value):
        for place, context in value.items():
            if not PLACE.match(place):
                raise ValueError(f"'{place}' is not a place: write KIND:ID.FIELD (unit:scouts.name) "
                                 "or game.FIELD (game.stats.0.name); * stands for one part")
            if context is not None and not context.strip():
                raise ValueError(f"'{place}': the context is blank; leave it empty or name it")
        return value


def _pattern(place: str) -> re.Pattern:
    return re.compile("^" + "[^.]*".join(re.escape(part) for part in place.split("*")) + "$")


# Places that have their own message in every game, after the game's own contexts.yaml.
OWN_CONTEXTS = {"erratum:*.reading": "erratum reading"}
_OWN = [(_pattern(key), context) for key, context in OWN_CONTEXTS.items()]


@dataclass
class Contexts:
    """The contexts file of one game, compiled: place → msgctxt (None: the shared message)."""

    rules: list[tuple[str, re.Pattern, str | None]] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)

    def context_of(self, place: str) -> str | None:
        for key, pattern, context in self.rules:
            if pattern.match(place):
                return context if context is not None else place
        for pattern, context in _OWN:
            if pattern.match(place):
                return context
        return None

    def unused(self, places: set[str]) -> list[str]:
        """Keys that match no place of the game (a renamed record, a removed field)."""
        return [key for key, pattern, _ in self.rules if not any(pattern.match(p) for p in places)]


def contexts_path(locale_dir: Path) -> Path:
    return locale_dir / CONTEXTS_FILE


def load_contexts(locale_dir: Path, report: Report | None = None) -> Contexts:
    """The game's contexts (none when it has no file). Problems go to `report`, or are
    ignored when it is None (validate reports them; a build or extraction shares instead)."""
    path = contexts_path(locale_dir)
    if not present(path):
        return Contexts()
    sink = report if report is not None else Report()
    doc = load_yaml(path, sink)
    if doc is None or doc.data is None:
        return Contexts()
    try:
        parsed = ContextFile.model_validate(doc.data)
    except ValidationError as exc:
        report_validation_error(exc, ContextFile, doc, (), sink)
        return Contexts()
    compiled = Contexts()
    for key, context in parsed.contexts.items():
        compiled.rules.append((key, _pattern(key), context))
        compiled.lines[key] = doc.location(("contexts", key)).line
    return compiled


def write_contexts(locale_dir: Path, additions: dict[str, str | None], header: str) -> Path:
    """Append keys to the contexts file, keeping what it already says (comments included)."""
    path = contexts_path(locale_dir)
    text = folders.read_text(path) if present(path) else (
        "# Places whose words need their own translation although the same words occur elsewhere\n"
        "# (see docs/content-format.md, Translation).\ncontexts:\n")
    if not text.endswith("\n"):
        text += "\n"
    if re.search(r"^contexts:\s*(\{\s*\})?\s*$", text, re.M) is None:
        text += "contexts:\n"
    text = re.sub(r"^contexts:\s*\{\s*\}\s*$", "contexts:", text, flags=re.M)
    lines = [f"  # {header}"] + [f"  {_quote(key)}:" + (f" {_quote(value)}" if value is not None else "")
                                 for key, value in additions.items()]
    text += "\n".join(lines) + "\n"
    return outputs.write_content(path, text)


def _quote(text: str) -> str:
    return text if re.fullmatch(r"[\w.:*-]+", text) else '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
