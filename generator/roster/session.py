"""Read a list, load its game and check it: what `roster check` and `roster print` share."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.diagnostics import Report, did_you_mean
from ..reading.game import Game
from ..project import Project, UsageError
from ..values import is_unstated
from ..reading.yamlsource import YamlDocument
from .armylist import ArmyList, read_list
from .tally import CODE, Tally, tally


@dataclass
class Checked:
    army: ArmyList
    doc: YamlDocument
    game: Game
    tally: Tally


def check_list(project: Project, path: Path, report: Report) -> Checked | None:
    """The list checked against its game's roster rules, every problem in `report`; None where the
    list or its game cannot be read at all (reported). UsageError where there is no such file."""
    if not path.is_file():
        raise UsageError(f"no army list '{path}'; give the path of a LIST.yaml (docs/rosters.md shows one)")
    read = read_list(path, report)
    if read is None:
        return None
    army, doc = read
    known = project.game_ids()
    if army.game not in known:
        report.add(CODE, f"unknown game '{army.game}'", doc.location(("game",)),
                   did_you_mean(army.game, known) or f"games here: {', '.join(known) or 'none'}")
        return None
    game = project.load(army.game, report, catalogs=False)
    if game is None:
        return None
    return Checked(army, doc, game, tally(game, army, doc, report))


def summary(checked: Checked) -> str:
    """One line: the total against the limit, or why the total is not computed."""
    out = checked.tally
    stat = out.roster.cost.stat if out.roster else "cost"
    unknown = sum(1 for line in out.lines if line.each is None)
    if out.total is not None:
        total = str(out.total)
    elif out.roster is None:
        total = "not computed"
    else:
        total = f"not computed ({unknown} line(s) of unknown cost, said above)"
    if isinstance(out.limit, int):
        limit = f" of {out.limit} ({out.size.id})" if out.size else f" of {out.limit}"
    elif out.limit == "free":
        limit = f" (no limit for {out.size.id})" if out.size else " (no limit)"
    elif out.size is None and out.roster is not None and not is_unstated(out.roster.sizes) and out.roster.sizes:
        limit = " (no size of game chosen: no limit to check)"
    else:
        limit = " (the source states no limit)"
    line = f"{checked.army.game}: total {stat} {total}{limit}"
    if out.sections:
        line += "\nsections: " + " · ".join(_section_text(s) for s in out.sections)
    return line


def _section_text(filled) -> str:
    """"Troops 2 (1–3)": a section's name, the units it holds and its bounds in the list's size."""
    low, high = filled.min, filled.max
    if not filled.open:
        bounds = "locked"
    elif low is not None and high is not None:
        bounds = f"{low}–{high}"
    elif low is not None:
        bounds = f"at least {low}"
    else:
        bounds = f"at most {high}" if high is not None else "any"
    return f"{filled.section.name} {filled.taken} ({bounds})"


def verdict(checked: Checked | None) -> dict | None:
    """The list's verdict as data: total, limit, each line's cost, each finding (`--format json`)."""
    if checked is None:
        return None
    return {"game": checked.army.game, "name": checked.army.name, **checked.tally.as_dict()}
