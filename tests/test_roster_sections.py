"""Force organisation as data: a roster's sections (HQ, Troops, Support) with their own bounds,
bounds that depend on the size of game, and a section a unit's choice unlocks; `roster check`
checks a list section by section, at the list's lines."""

from __future__ import annotations

import json

from .conftest import line_of
from .test_rosters import UNITS, army, demo

# Three sections over the docs' small game, and a second size of game in which they take more.
EXTRA_UNITS = """  - id: banner
    name: Banner
    type: support
    stats: {quality: 4+, cost: 25}
"""
SECTIONS = """rosters:
  - id: army
    cost:
      stat: cost
      source: "Each unit costs the points its profile gives."
    sizes:
      - id: skirmish
        rule: last-stand
        limit: 150
        source: "A skirmish list costs no more than 150 points."
      - id: battle
        rule: last-stand
        limit: 400
        source: "A battle list costs no more than 400 points."
    sections:
      - id: hq
        name: HQ
        units: [captain]
        min: 1
        max: 1
        source: "Every list has one HQ choice."
      - id: troops
        name: Troops
        types: [infantry]
        min: 1
        max: 1
        sizes:
          - size: battle
            min: 2
            max: 6
        per:
          - section: hq
            max: 2
        source: "One Troops choice, and two more for each HQ choice; two to six in a battle, and two more for each."
      - id: support
        name: Support
        units: [banner]
        max: 1
        unlocked_by: [captain]
        source: "A captain unlocks one Support choice."
"""


def sectioned(tmp_path):
    ws = demo(tmp_path, SECTIONS)
    ws.edit("data/units.yaml", UNITS, UNITS + EXTRA_UNITS)
    return ws


def verdict(ws, text: str) -> dict:
    result = ws.run("roster", "check", "--format", "json", str(army(ws, text)))
    return json.loads(result.stdout)["list"]


def test_a_roster_with_sections_validates_and_a_list_is_counted_by_section(tmp_path):
    ws = sectioned(tmp_path)
    assert ws.validate().errors == []
    found = verdict(ws, "game: demo\nsize: skirmish\nunits:\n  - unit: captain\n  - unit: scouts\n  - unit: banner\n")
    assert found["findings"] == []
    assert [(s["id"], s["taken"], s["min"], s["max"], s["lines"]) for s in found["sections"]] == [
        ("hq", 1, 1, 1, [0]), ("troops", 1, 1, 3, [1]), ("support", 1, None, 1, [2])]
    result = ws.run("roster", "check", str(army(ws, "game: demo\nsize: skirmish\nunits:\n  - unit: captain\n"
                                                     "  - unit: scouts\n")))
    assert result.returncode == 0 and "HQ 1 (1–1) · Troops 1 (1–3) · Support 0 (at most 1)" in result.stdout


def test_each_section_is_checked_against_its_bounds_in_the_lists_size_of_game(tmp_path):
    ws = sectioned(tmp_path)
    text = "game: demo\nsize: SIZE\nunits:\n  - unit: captain\n  - unit: scouts\n"
    assert verdict(ws, text.replace("SIZE", "skirmish"))["findings"] == []
    battle = verdict(ws, text.replace("SIZE", "battle"))  # a battle takes two Troops at least
    assert [(f["rule"], f["subject"]) for f in battle["findings"]] == [("section-min", "troops")]
    assert battle["sections"][1]["min"] == 2
    path = army(ws, "game: demo\nsize: skirmish\nunits:\n  - unit: captain\n  - unit: sharpshooter\n"
                    "  - unit: scouts\n    count: 3\n  - unit: captain\n")
    out = ws.run("roster", "check", str(path)).stdout
    assert f"army.yaml:{line_of(path, 'count: 3') - 1}:5: error[E081]: 4 units in section 'troops': it takes at most 3" \
        not in out  # the second captain, further down, opens two more Troops slots
    assert f"army.yaml:{line_of(path, 'count: 3') + 1}:5: error[E081]: 2 units in section 'hq': it takes at most 1" in out
    path = army(ws, "game: demo\nsize: skirmish\nunits:\n  - unit: captain\n  - unit: sharpshooter\n"
                    "  - unit: scouts\n    count: 3\n")
    out = ws.run("roster", "check", str(path)).stdout
    assert f"army.yaml:{line_of(path, 'unit: scouts')}:5: error[E081]: 4 units in section 'troops': it takes at most 3" in out


def test_a_sections_bounds_grow_with_each_unit_of_the_section_it_counts(tmp_path):
    """Troops: one, and two more for each HQ choice (two to six in a battle, and two more for each)."""
    ws = sectioned(tmp_path)
    text = "game: demo\nsize: SIZE\nunits:\n  - unit: captain\n    count: HQ\n  - unit: sharpshooter\n    count: TROOPS\n"

    def troops(size: str, hq: int, taken: int) -> tuple:
        found = verdict(ws, text.replace("SIZE", size).replace("HQ", str(hq)).replace("TROOPS", str(taken)))
        return found["sections"][1]["min"], found["sections"][1]["max"], [
            f["rule"] for f in found["findings"] if f["subject"] == "troops"]

    assert troops("skirmish", 1, 3) == (1, 3, [])  # at the scaled limit
    assert troops("skirmish", 1, 4) == (1, 3, ["section-max"])  # over it
    assert troops("skirmish", 2, 5) == (1, 5, [])  # a second HQ choice (itself over HQ's one) opens two more
    assert troops("battle", 1, 8) == (2, 8, [])  # over the battle's own six: the HQ's two slots come on top
    assert troops("battle", 1, 9) == (2, 8, ["section-max"])
    # where the section has no maximum of its own, it takes only what the list opens
    ws.edit("data/rosters.yaml", "        max: 1\n        sizes:", "        sizes:")
    assert troops("skirmish", 1, 2) == (1, 2, [])
    assert troops("skirmish", 1, 3) == (1, 2, ["section-max"])


def test_a_sections_scaling_is_validated_at_its_line(tmp_path):
    ws = sectioned(tmp_path)
    path = ws.edit("data/rosters.yaml", "          - section: hq\n            max: 2\n",
                   "          - section: hg\n            max: 2\n          - section: troops\n            max: 1\n"
                   "          - {unit: captain, type: leader}\n")
    found = {(d.code, d.location.line, d.message) for d in ws.validate().errors}
    assert ("E007", line_of(path, "section: hg"), "unknown section 'hg'") in found
    assert ("E080", line_of(path, "section: troops"), "section 'troops' grows with its own units") in found
    messages = {m for code, line, m in found if line == line_of(path, "{unit: captain")}
    assert messages == {"a 'per:' entry of section 'troops' names unit and type",
                        "a 'per:' entry of section 'troops' adds to no bound"}


def test_a_section_is_open_only_to_a_list_that_takes_the_unit_that_unlocks_it(tmp_path):
    ws = sectioned(tmp_path)
    path = army(ws, "game: demo\nsize: skirmish\nunits:\n  - unit: scouts\n  - unit: banner\n")
    out = ws.run("roster", "check", str(path)).stdout
    assert (f"army.yaml:{line_of(path, 'unit: banner')}:5: error[E081]: section 'support' is open only to a list "
            "that takes captain") in out
    assert "0 units in section 'hq': it takes at least 1" in out


def test_a_line_names_its_section_and_a_wrong_one_is_said_with_a_suggestion(tmp_path):
    ws = sectioned(tmp_path)
    path = army(ws, "game: demo\nsize: skirmish\nunits:\n  - unit: captain\n  - unit: scouts\n    section: suport\n"
                    "  - unit: sharpshooter\n    section: hq\n")
    out = ws.run("roster", "check", str(path)).stdout
    assert f"army.yaml:{line_of(path, 'suport')}:14: error[E081]: unknown section 'suport'" in out
    assert "did you mean 'support'?" in out
    assert f"army.yaml:{line_of(path, 'section: hq')}:14: error[E081]: unit 'sharpshooter' may not fill section 'hq'" in out
    assert "sections open to it: troops" in out


def test_sections_are_validated_at_their_line(tmp_path):
    ws = demo(tmp_path, SECTIONS.replace("units: [banner]", "units: [baner]").replace("min: 2\n", "min: 7\n"))
    path = ws.game / "data" / "rosters.yaml"
    found = {(d.code, d.location.line, d.message) for d in ws.validate().errors}
    assert ("E007", line_of(path, "[baner]"), "unknown unit 'baner'") in found
    assert any(code == "E080" and line == line_of(path, "min: 7") for code, line, _m in found)


def test_the_printed_list_shows_the_list_by_section(tmp_path):
    from .test_roster_print import pdf_text

    ws = sectioned(tmp_path)
    path = army(ws, "game: demo\nsize: skirmish\nunits:\n  - unit: captain\n  - unit: scouts\n  - unit: sharpshooter\n")
    result = ws.run("roster", "print", str(path), "--lang", "en")
    assert result.returncode == 0, result.stdout + result.stderr
    text = pdf_text(ws.root / "output" / "demo" / "en" / "lists" / "army.pdf")
    organisation = text.split("Force organisation", 1)[1].strip()
    # Support is open: the captain unlocks it
    assert organisation.startswith("Name Count Bounds Units HQ 1 1 Captain Troops 2 1–3 Scouts, Sharpshooter "
                                   "Support 0 at most 1")
    assert ("Troops: 1, up to 2 more for each HQ “One Troops choice, and two more for each HQ choice; two to six in a "
            "battle, and two more for each.”") in text  # the rule, quoted
