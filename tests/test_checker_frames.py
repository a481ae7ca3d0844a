"""Frames, the checker's proof game: its procedures against the rules as written (read from the
data, never retyped), its examples pass, and a data change is caught. Shipped content is only
read; changes are made to a copy in a temporary project."""

from __future__ import annotations

import itertools
import json
import shutil
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.checker import Dice, exact, load_procedures, scripted
from generator.checks.trial import check_project
from generator.cli import cli
from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import REPO, line_of

FRAMES = REPO / "content" / "frames"


@pytest.fixture(scope="module")
def frames():
    report = Report()
    game = Project(REPO).load("frames", report)
    assert report.diagnostics == [], [d.format_text() for d in report.diagnostics]
    return game


@pytest.fixture(scope="module")
def procs(frames):
    found = load_procedures(frames.folder)
    assert found.problems == []
    return found


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A project with a copy of Frames to change."""
    shutil.copytree(FRAMES, tmp_path / "content" / "frames", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_shipped_frames_check_passes():
    run = check_project(Project(REPO), ["frames"])
    game = run.games[0]
    assert not run.failed, [(e.example.id, e.status) for e in game.examples]
    statuses = Counter(e.status for e in game.examples)
    assert statuses["pass"] >= 15 and statuses["fail"] == statuses["error"] == 0
    assert {r.rule.id for r in game.rules} >= {"bands-match-parameters", "damage-parameters-match-profiles"}


def test_damage_barricade_destroyed_midway_then_bare_profile(frames, procs):
    damage = procs.get("damage")
    inputs = damage.bind(frames, {"attacks": 4, "band": "directed", "cover": "barricade", "cover_hp": 1})
    # the first 4 destroys the Barricade; then 4 misses and 5 hits on the bare 5+ profile; 6 hits
    assert scripted(damage, frames, [4, 4, 5, 6], inputs) == {
        "rolled": (4, 4, 5, 6), "target_damage": 2, "cover_damage": 1, "misses": 1, "cover_destroyed": True}
    standing = damage.bind(frames, {"attacks": 4, "band": "directed", "cover": "barricade"})
    assert scripted(damage, frames, [4, 4, 5, 6], standing)["target_damage"] == 1


def reading(faces, covered, bare, hp):
    """Damage die by die, written apart from the procedure: covered=(target faces, cover faces)."""
    standing, target, cover = covered[1] is not None, 0, 0
    for face in faces:
        target_faces, cover_faces = covered if standing else bare
        if standing and cover_faces and face in cover_faces:
            cover += 1
            standing = not (hp is not None and cover >= hp)
        elif face in target_faces:
            target += 1
    return target, cover


@pytest.mark.parametrize("band,cover,hp,covered", [
    ("melee", "none", None, ({4, 5, 6}, None)),
    ("directed", "none", None, ({5, 6}, None)),
    ("artillery", "barricade", None, ({6}, {4, 5})),
    ("directed", "barricade", 1, ({6}, {4, 5})),
    ("directed", "barricade", 2, ({6}, {4, 5})),
    ("artillery", "frame", 1, ({6}, {5})),
])
def test_damage_exact_matches_enumeration_of_faces(frames, procs, band, cover, hp, covered):
    damage = procs.get("damage")
    dist = exact(damage, frames, damage.bind(frames, {"attacks": 3, "band": band, "cover": cover, "cover_hp": hp}))
    got = Counter()
    for outcome, p in dist:
        got[(outcome["target_damage"], outcome["cover_damage"])] += p
    expected = Counter()
    for faces in itertools.product(range(1, 7), repeat=3):
        bare = covered if cover == "none" else ({5, 6}, None)  # the 5+ line of a ranged attack without cover
        expected[reading(faces, covered, bare, hp)] += Fraction(1, 216)
    assert dict(got) == dict(expected)


def test_attack_count_floor_and_marker(frames, procs):
    count = procs.get("attack-count")
    assert scripted(count, frames, [], {"attack": 3, "highlight": 4, "defence": 2}) == {"attacks": 5, "marker": None}
    assert scripted(count, frames, [], {"attack": 1, "highlight": None, "defence": 6})["attacks"] == 0
    assert scripted(count, frames, [], {"attack": None, "highlight": 2, "defence": 0}) == {"attacks": 0, "marker": 2}


def test_out_of_band_and_bases(frames, procs):
    happens = procs.get("attack-happens")
    bind = lambda **kw: happens.bind(frames, kw)  # noqa: E731
    assert scripted(happens, frames, [], bind(declared="artillery", distance=12))["attack"] is True
    assert scripted(happens, frames, [], bind(declared="melee", distance=1.5))["attack"] is False
    assert scripted(happens, frames, [], bind(declared="directed", distance=3, target="base"))["attack"] is False


def test_whole_attack_combines_count_and_damage(frames, procs):
    attack = procs.get("attack")
    inputs = attack.bind(frames, {"attack": 2, "highlight": 1, "defence": 1, "band": "directed"})
    dist = exact(attack, frames, inputs)
    assert dist.probability("attacks == 2") == 1
    assert dist.mean("target_damage") == 2 * Fraction(1, 3)
    assert scripted(attack, frames, [5, 2], inputs)["target_damage"] == 1


def test_doomsday_ties_are_left_open(frames, procs):
    order = procs.get("doomsday-order")
    assert scripted(order, frames, [], {"scores": {"a": 5, "b": 5, "c": 9}}) == {"order": None, "defending": "c"}
    assert scripted(order, frames, [], {"scores": {"a": 9, "b": 9}}) == {"order": None, "defending": None}


def test_damage_per_die_table(frames, procs):
    from generator.checker.tables import compute

    table = compute(frames, procs.tables["damage-per-die"])
    rows = {(r["target"], r["band"].id, r["cover"]): (r["target_damage"], r["cover_damage"], r["miss"])
            for r in table.rows}
    assert rows[("frame", "melee", "barricade")] == (Fraction(1, 2), 0, Fraction(1, 2))
    assert rows[("frame", "directed", "none")] == (Fraction(1, 3), 0, Fraction(2, 3))
    assert rows[("frame", "artillery", "barricade")] == (Fraction(1, 6), Fraction(1, 3), Fraction(1, 2))
    assert rows[("frame", "directed", "frame")] == (Fraction(1, 6), Fraction(1, 6), Fraction(2, 3))
    assert rows[("terrain", "directed", "none")] == (Fraction(1, 2), 0, Fraction(1, 2))
    assert len(rows) == 3 * 3 + 3


def test_tables_command_writes_frames_table(copy: Path):
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", "frames", "--tables"])
    assert result.exit_code == 0, result.output
    data = json.loads((copy / "output" / "frames" / "tables" / "damage-per-die.json").read_text(encoding="utf-8"))
    first = data["rows"][0]
    assert first["band"] == "Ближний бой" and first["target_damage"] == "50,0\u00a0%"
    assert data["exact"][0]["band"] == "melee" and data["exact"][0]["target_damage"] == "1/2"
    assert set(data["localized"]) == {"ru", "en"}
    csv = (copy / "output" / "frames" / "tables" / "damage-per-die.csv").read_text(encoding="utf-8").splitlines()
    assert csv[0] == "target,band,cover,target_damage,cover_damage,miss"
    assert csv[1] == "frame,melee,none,0.500000,0.000000,0.500000"


def test_thresholds_come_from_the_table(copy: Path):
    """Change the table's bare ranged line (5+ -> 4+): the damage example fails and says where."""
    tables = copy / "content" / "frames" / "data" / "tables.yaml"
    text = tables.read_text(encoding="utf-8")
    tables.write_text(text.replace("cover: none, target-damage: 5+", "cover: none, target-damage: 4+"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", "frames"])
    assert result.exit_code == 1
    rules = copy / "content" / "frames" / "rules" / "02-frame-turn.md"
    example = line_of(rules, "::: rule barricade-damage-allocation")
    assert f"FAIL      content/frames/rules/02-frame-turn.md:{example} barricade-damage-allocation" in result.output
    assert "damage, exactly: P(target_damage >= 1)" in result.output
    assert "parameter ranged-damage-target is 5+, the table says 4+" in result.output  # the consistency rule


def test_parameter_change_is_caught(copy: Path):
    manifest = copy / "content" / "frames" / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    old = "  - id: capture-min-own-frames\n    name: Фреймов захватывающего игрока в радиусе, не меньше\n    value: 1"
    assert old in text
    manifest.write_text(text.replace(old, old[:-1] + "2"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(copy), "check", "frames", "--format", "json"])
    report = json.loads(result.output)
    assert result.exit_code == 1
    assert [e["id"] for e in report["examples"] if e["result"] == "fail"] == ["base-capture-conditions"]


def test_seeded_runs_repeat_for_a_seed(frames, procs):
    """Seeded runs roll through the same calls: one seed repeats its rolls, D6+D3 stays within 2–9."""
    missile = procs.get("missile-roll")

    def rolls(seed):
        dice = Dice.seeded(seed)
        return [missile(frames, dice, substitute=True)["total"] for _ in range(200)]

    assert rolls(3) == rolls(3) != rolls(4)
    assert set(rolls(3)) == set(range(2, 10))


def test_rendered_examples_are_marked_verified_and_hide_check_blocks(frames):
    from generator.checker import verified_examples
    from generator.i18n.translate import Translator
    from generator.text.chapters import load_chapter
    from generator.text.render import RenderContext, render_chapter

    verified = verified_examples(frames)
    assert verified["barricade-damage-allocation"] is True and "attack-move-order" not in verified
    ctx = RenderContext(frames, Translator.load(frames, "ru"), "site", lambda record: None, verified)
    html = str(render_chapter(load_chapter(FRAMES / "rules" / "02-frame-turn.md"), ctx).html)
    box = html[html.index('id="rule-barricade-damage-allocation"'):]
    assert 'class="verified"' in box[:box.index("</p>")]
    unchecked = html[html.index('id="rule-attack-move-order"'):]
    assert 'class="verified"' not in unchecked[:unchecked.index("</p>")]
    assert "procedure:" not in html and "```" not in html


def test_the_damage_table_prints_words_in_both_languages_never_ids(frames, procs, tmp_path):
    from generator.checker.tables import compute, write
    from generator.i18n.translate import Translator
    from generator.text.blocks import table_html

    write(compute(frames, procs.tables["damage-per-die"]), tmp_path, frames)
    data = json.loads((tmp_path / "damage-per-die.json").read_text())
    ids = {"frame", "terrain", "none", "barricade", "any", "melee", "directed", "artillery"}
    for lang, words in (("ru", {"Фрейм", "Террейн", "без Баррикад", "Фрейм-Баррикада"}),
                        ("en", {"Frame", "Terrain", "no Barricade", "Barricade Frame"})):
        cells = {str(v) for row in data["localized"][lang] for v in row.values()}
        assert not cells & ids and words <= cells, (lang, cells & ids)
        html = table_html(frames.tables["damage-profiles"], Translator.load(frames, lang))
        assert not any(f"<td>{i}" in html for i in ids), lang
        assert all(f"<td>{w}" in html for w in words), lang
