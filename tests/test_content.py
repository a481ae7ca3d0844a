"""The five games encoded from seeds: they validate, their export holds what the sources give, and
every recorded inconsistency is load-bearing (removing it makes validation fail)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import GAMES, REPO, original_game, run_cli


@pytest.fixture(scope="module")
def exports() -> dict[str, dict]:
    out = {}
    for game in GAMES:
        result = run_cli("export", game, "--json")
        assert result.returncode == 0, result.stderr
        out[game] = json.loads(result.stdout)
    return out


def records(export: dict, kind: str) -> list[dict]:
    return [r for r in export["records"] if r["kind"] == kind]


@pytest.mark.parametrize("game", GAMES)
def test_game_validates_strict(game: str):
    report = Report()
    Project(REPO).load(game, report)
    assert report.diagnostics == [], [d.format_text() for d in report.diagnostics]


def test_validate_all_exit_0():
    result = run_cli("validate", "--strict")
    count = len(list((REPO / "content").glob("*/game.yaml")))  # the encoded games and the example game
    assert result.returncode == 0 and f"{count} game(s) validated: 0 error(s), 0 warning(s)" in result.stderr


def test_the_shipped_games_are_the_encoded_ones_and_the_original_ones():
    """Every game of content/ is encoded from a seed (GAMES, which the tests hold to their sources)
    or declares itself its designer's own (game.yaml `original: true`): none is left out of both."""
    folders = [path.parent for path in (REPO / "content").glob("*/game.yaml")]
    assert {f.name for f in folders if not original_game(f)} == set(GAMES)
    assert {f.name for f in folders if original_game(f)} == {"zwiad"}


def test_nuclear_export(exports):
    nuclear = exports["nuclear"]
    units = records(nuclear, "unit")
    assert len(units) == 15
    weapons = {w["id"] for w in records(nuclear, "weapon")}
    for unit in units:
        assert unit["weapons"] and all(w["weapon"] in weapons for w in unit["weapons"]), unit["id"]
        assert {"quality", "defense", "models", "cost"} <= set(unit["parsed_stats"]), unit["id"]
    glossary = [k for k in records(nuclear, "keyword") if k["category"] != "terrain"]
    assert len(glossary) == 24
    assert len(records(nuclear, "terrain")) == 5
    events = next(t for t in records(nuclear, "table") if t["id"] == "random-events")
    assert len(events["rows"]) == 20
    covered = []
    for row in events["rows"]:
        low, _, high = str(row["roll"]).partition("-")
        covered += range(int(low), int(high or low) + 1)
    assert sorted(covered) == list(range(1, 101))


def test_battle_rules_export(exports):
    units = records(exports["battle-rules"], "unit")
    assert len(units) == 20
    scouts = next(u for u in units if u["id"] == "scouts")
    assert scouts["parsed_stats"]["accuracy"] == {"target": 2}
    assert scouts["parsed_stats"]["command-points"] == [-3, 2]


def test_rock_n_roll_export(exports):
    rnr = exports["rock-n-roll"]
    units = {u["id"]: u for u in records(rnr, "unit")}
    for name in ("mai", "chi", "min"):
        assert units[f"{name}-veteran"]["veteran_of"] == name
    for name in ("bao", "johny", "doc", "zulu", "shi-ho", "rong", "boomer", "hinds"):
        assert units[name]["incomplete"], name
    kinds = {c["card_kind"] for c in records(rnr, "card")}
    assert {"point", "unit", "order", "local", "special-operation"} <= kinds
    orders = {c["name"] for c in records(rnr, "card") if c["card_kind"] == "order"}
    assert "Бойня" in orders
    rules = records(rnr, "rule")
    assert {"deathmatch", "vietchess", "great-war", "free-mix"} <= {r["id"] for r in rules if r["category"] == "mode"} | {r["id"] for r in rules}
    assert len([r for r in rules if r["category"] == "option"]) == 2
    backs = {d["back"] for d in records(rnr, "deck")}
    assert backs == {"stars", "eagles", "hammer-sickle", "spades-diamonds", "buddha", "schematic"}


def test_deadzone_export(exports):
    dz = exports["deadzone"]
    assert records(dz, "unit") == []  # the source gives no profiles: none invented
    assert {"armour", "size", "shoot", "fight", "survive"} <= {s["id"] for s in dz["game"]["stats"]}
    command = next(d for d in records(dz, "die") if d["id"] == "command")
    assert len(command["faces"]) == 6
    assert {"move", "sprint", "stand-up", "shoot", "fight", "special"} == {a["id"] for a in records(dz, "action")}
    assert {"shooting-modifiers", "fight-modifiers", "hole-sizes", "damage-states"} <= {t["id"] for t in records(dz, "table")}


def test_frames_export(exports):
    fr = exports["frames"]
    assert {"white", "green", "blue", "yellow", "red", "missile"} == {d["id"] for d in records(fr, "die")}
    bands = {b["id"]: b for b in records(fr, "band")}
    assert (bands["melee"]["min"], bands["melee"]["max"], bands["artillery"]["max"]) == (0, 1, None)
    assert any(t["id"] == "damage-profiles" for t in records(fr, "table"))


def _errata(game: str) -> list[tuple[Path, int, str]]:
    """(file, index, id) of every erratum record of a game."""
    out = []
    for path in sorted((REPO / "content" / game / "data").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for i, item in enumerate(data.get("errata", [])):
            out.append((path, i, item["id"]))
    return out


def _copy(game: str, tmp: Path) -> Path:
    shutil.copytree(REPO / "content" / game, tmp / "content" / game)
    return tmp / "content" / game


@pytest.mark.slow  # validates the game again, checks and examples included, once per erratum
@pytest.mark.parametrize("game", GAMES)
def test_removing_any_erratum_fails_validation(game: str, tmp_path: Path):
    errata = _errata(game)
    assert errata, f"{game} records no inconsistency"
    folder = _copy(game, tmp_path)
    for path, index, erratum_id in errata:
        target = folder / "data" / path.name
        original = target.read_text(encoding="utf-8")
        data = yaml.safe_load(original)
        del data["errata"][index]
        target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        report = Report()
        Project(tmp_path).load(game, report)
        assert report.failed(strict=True), f"removing erratum {erratum_id} went unnoticed"
        target.write_text(original, encoding="utf-8")


@pytest.mark.parametrize("game", GAMES)
def test_removing_any_alias_fails_validation(game: str, tmp_path: Path):
    folder = _copy(game, tmp_path)
    path = folder / "data" / "keywords.yaml"
    if not path.exists():
        pytest.skip("no keywords")
    original = path.read_text(encoding="utf-8")
    data = yaml.safe_load(original)
    aliases = [(k, a) for k, kw in enumerate(data["keywords"]) for a, alias in enumerate(kw.get("aliases", []))
               if alias.get("erratum")]
    for k, a in aliases:
        changed = yaml.safe_load(original)
        del changed["keywords"][k]["aliases"][a]
        path.write_text(yaml.safe_dump(changed, allow_unicode=True, sort_keys=False), encoding="utf-8")
        report = Report()
        Project(tmp_path).load(game, report)
        assert report.failed(strict=True), f"removing alias {data['keywords'][k]['aliases'][a]} went unnoticed"
    path.write_text(original, encoding="utf-8")


@pytest.mark.parametrize("game", GAMES)
def test_errata_md_lists_every_erratum(game: str):
    text = (REPO / "content" / game / "ERRATA.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\s*(?:[-*]|#+|\d+\.)\s+`([a-z0-9-]+)`", text, flags=re.M))
    assert {e for _, _, e in _errata(game)} <= listed


def test_every_content_file_points_at_its_schema():
    from generator.model import SECTIONS
    from generator.model.schema import schemas

    names = set(schemas())
    for path in sorted((REPO / "content").glob("*/game.yaml")) + sorted((REPO / "content").glob("*/data/*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        match = re.match(r"# yaml-language-server: \$schema=(\S+)$", first)
        assert match, f"{path}: no schema comment"
        target = (path.parent / match.group(1)).resolve()
        assert target == (REPO / "output/schema" / target.name).resolve() and target.name in names, path
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if path.name != "game.yaml":
            assert list(data) == [target.name.removesuffix(".schema.json")] and list(data)[0] in SECTIONS, path
