"""A loaded game: its manifest, its records by kind, and where each came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterator, Mapping, TypeVar

from ..core.diagnostics import Location
from ..model import (
    Action, Band, Card, Deck, Die, Erratum, GameManifest, Keyword, Record, Rule, StatDef, Table,
    Terrain, Unit, Weapon,
)
from ..values import Value, stated
from .yamlsource import YamlDocument

R = TypeVar("R", bound=Record)


@dataclass(frozen=True)
class Origin:
    """Where a record was written: its file and its path inside that file."""

    doc: YamlDocument
    path: tuple[Any, ...]

    def location(self, *field_path: Any, key: bool = False) -> Location:
        return self.doc.location(self.path + tuple(field_path), key=key)


@dataclass
class Game:
    folder: Path
    manifest: GameManifest
    manifest_doc: YamlDocument
    records: dict[str, dict[str, Record]] = field(default_factory=dict)
    origins: dict[tuple[str, str], Origin] = field(default_factory=dict)
    # Parsed stats: (section, id, stat id) -> one value, or a tuple where the stat is a pair.
    values: dict[tuple[str, str, str], Value | tuple[Value, ...]] = field(default_factory=dict)
    # Ids of records that failed validation (already reported): references to them are not
    # reported again as unknown, so one mistake gives one diagnostic.
    dropped: dict[str, set[str]] = field(default_factory=dict)
    # `rulesmith check`'s results, when the game was loaded with its examples run (Project.load).
    check_result: Any = field(default=None, repr=False, compare=False)
    # What the rules checker computes for the text to show: `{{ calc:... }}` numbers and the
    # procedures' tables (text/computed.py's Computations), attached by Project.read; None:
    # a game loaded without its procedures.
    computed: Any = field(default=None, repr=False, compare=False)

    @property
    def project_root(self) -> Path:
        """The project folder: content/<game>/ sits two levels below it."""
        return self.folder.parent.parent

    @property
    def id(self) -> str:
        return self.manifest.id

    def section(self, name: str) -> Mapping[str, Record]:
        return MappingProxyType(self.records.get(name, {}))

    def is_dropped(self, section: str, record_id: object) -> bool:
        """True if a record `section/record_id` was written but failed validation (reported there)."""
        return isinstance(record_id, str) and record_id in self.dropped.get(section, ())

    def all_records(self) -> Iterator[Record]:
        for records in self.records.values():
            yield from records.values()

    def origin(self, record: Record) -> Origin:
        return self.origins[(record.section, record.id)]

    def stat_def(self, stat_id: str) -> StatDef | None:
        return next((s for s in self.manifest.stats if s.id == stat_id), None)

    def stat(self, record: Record, stat_id: str) -> Value | tuple[Value, ...]:
        """A record's parsed stat (errata applied); KeyError if the record has none,
        UnstatedError if the source does not give it."""
        return stated(self.values[(record.section, record.id, stat_id)])

    def parameter(self, param_id: str) -> Any:
        """A manifest parameter's value; UnstatedError if the source does not give it."""
        return stated(self.parameter_as_written(param_id))

    def parameter_as_written(self, param_id: str) -> Any:
        """A manifest parameter's value, `Unstated` included (for printing it)."""
        for param in self.manifest.parameters:
            if param.id == param_id:
                return param.value
        raise KeyError(f"game '{self.id}' has no parameter '{param_id}'")

    # Typed views, so procedures read `game.units['mai']`.
    keywords = property(lambda self: self._typed("keywords", Keyword))
    weapons = property(lambda self: self._typed("weapons", Weapon))
    units = property(lambda self: self._typed("units", Unit))
    decks = property(lambda self: self._typed("decks", Deck))
    cards = property(lambda self: self._typed("cards", Card))
    tables = property(lambda self: self._typed("tables", Table))
    dice = property(lambda self: self._typed("dice", Die))
    actions = property(lambda self: self._typed("actions", Action))
    terrain = property(lambda self: self._typed("terrain", Terrain))
    bands = property(lambda self: self._typed("bands", Band))
    rules = property(lambda self: self._typed("rules", Rule))
    errata = property(lambda self: self._typed("errata", Erratum))

    def _typed(self, section: str, _type: type[R]) -> Mapping[str, R]:
        return self.section(section)  # type: ignore[return-value]

    def export(self) -> dict[str, Any]:
        """The validated model as plain data: every record with its kind and id."""
        records = []
        for record in self.all_records():
            item = record.export()
            stats = {
                stat: _export_value(value)
                for (section, record_id, stat), value in self.values.items()
                if section == record.section and record_id == record.id
            }
            if stats:
                item["parsed_stats"] = stats
            records.append(item)
        return {"game": self.manifest.export(), "records": records}


def _export_value(value: Any) -> Any:
    from ..values import Dice, Distance, Span, Target, Unstated, unit_id

    if isinstance(value, tuple):
        return [_export_value(v) for v in value]
    if isinstance(value, Target):
        return {"target": value.number}
    if isinstance(value, Dice):
        return {"dice": [list(t) for t in value.terms]}
    if isinstance(value, Distance):
        return {"distance": value.amount, "unit": unit_id(value.unit)}
    if isinstance(value, Span):
        return {"min": value.low, "max": value.high}
    if isinstance(value, Unstated):
        return value.model_dump()
    return value
