"""A rule procedure takes an army list (`army: Army`): the checker reads the list from the check
block against the game's roster rules, as docs/checker.md shows."""

from __future__ import annotations

from pathlib import Path

from .conftest import Workspace
from .test_rosters import demo

PROCEDURES = '''
from generator.checker import Army, procedure
from generator.model import Unit


@procedure("shoot")
def shoot(game, dice, unit: Unit) -> dict:
    """One die; reaching the unit's Quality is a hit."""
    return {"hits": dice.successes(1, game.stat(unit, "quality"))}


@procedure("army-volley")
def army_volley(game, dice, army: Army) -> dict:
    """Every unit of the list fires once: its hits, what the list costs, how many rules it breaks."""
    hits = sum(shoot(game, dice, unit=unit)["hits"] for unit in army.units)
    return {"hits": hits, "cost": army.total, "breaches": len(army.breaches)}
'''

RULES = '''# Lists

::: example patrol-volley
A patrol fires a volley.

```check
procedure: army-volley
inputs:
  army:
    size: skirmish
    units:
      - unit: captain
      - {unit: scouts, count: 2, options: [long-rifles]}
dice: [3, 4, 1]
expect: {hits: 2, cost: 160, breaches: 1}
exact: {"E(hits)": 5/3}
```
:::
'''


def checked(ws: Workspace, rules: str):
    ws.write("procedures.py", PROCEDURES)
    ws.write("rules/09-lists.md", rules)
    return ws.run("check", "demo")


def test_a_procedure_computes_with_an_army_list_checked_against_the_roster(tmp_path: Path):
    ws = demo(tmp_path)
    result = checked(ws, RULES)
    assert result.returncode == 0 and "1 example: 1 passed" in result.stderr, result.stdout + result.stderr
    # the list goes over the skirmish's 150 (40 + 2 × 60): a breach the procedure counts, not an input error
    result = checked(ws, RULES.replace("cost: 160, breaches: 1", "cost: 160, breaches: 0"))
    assert result.returncode == 1 and "breaches\n    expected: 0\n    actual:   1" in result.stdout, result.stdout


def test_an_unknown_unit_in_a_check_blocks_list_is_an_input_error_with_a_suggestion(tmp_path: Path):
    ws = demo(tmp_path)
    result = checked(ws, RULES.replace("unit: captain", "unit: captian"))
    assert result.returncode == 1
    assert "09-lists.md:" in result.stdout and "error[E007]: army: unknown unit 'captian'" in result.stdout
    assert "did you mean 'captain'?" in result.stdout
