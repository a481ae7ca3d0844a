"""An army list as a rule procedure's input: `army: Army` in procedures.py, the list written in the
check block (the list format of docs/rosters.md, without `game:`), checked against the game's roster.

Names the game does not have are input errors (E007, with "did you mean"); breaches of the roster
rules are not: the procedure sees them in `breaches` and may compute with a list that has them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from ..core.diagnostics import Report
from ..model import Unit
from ..model.rosters import GameSize, Option, Roster
from ..values import Unstated, is_unstated
from ..reading.yamlsource import YamlDocument
from .armylist import ArmyList
from .tally import tally


@dataclass(frozen=True)
class ArmyLine:
    unit: Unit
    count: int
    options: tuple[Option, ...]
    cost: int | float | None  # one of the unit with its options; None where it cannot be computed


@dataclass(frozen=True)
class Army:
    """A checked army list: its lines, total and limit, and the roster rules it breaks."""

    roster: Roster
    size: GameSize | None
    lines: tuple[ArmyLine, ...]
    total: int | float | None
    limit: int | str | Unstated | None
    breaches: tuple[str, ...]

    @property
    def units(self) -> list[Unit]:
        """Every unit of the list, once per count (three scouts: scouts three times)."""
        return [line.unit for line in self.lines for _ in range(line.count)]


def read_army(game: Any, raw: Any) -> tuple[Army | None, str, str]:
    """(the army, "", "") or (None, the first unknown name's message, its hint)."""
    if not isinstance(raw, dict):
        return None, f"expected a mapping (size:, units:), got {raw!r}", "write the list as in docs/rosters.md"
    data = {"game": game.id, **raw}
    try:
        army = ArmyList.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        return None, f"{where}: {first['msg']}", "write the list as in docs/rosters.md (game: is the checked game's)"
    report = Report()
    doc = YamlDocument(path=game.folder / "procedures.py", data=data)
    out = tally(game, army, doc, report)
    unknown = next((d for d in report.errors if d.message.startswith(("unknown ", "game '"))), None)
    if unknown is not None or out.roster is None:
        return None, unknown.message if unknown else "the game has no roster", unknown.hint if unknown else ""
    options = {} if is_unstated(out.roster.options) else {o.id: o for o in out.roster.options}
    lines = tuple(ArmyLine(game.units[line.unit], line.count,
                           tuple(options[o] for o in army.units[line.index].options if o in options), line.each)
                  for line in out.lines)
    return Army(out.roster, out.size, lines, out.total, out.limit, tuple(d.message for d in report.errors)), "", ""
