"""The rule procedures of Zwiad, Rulesmith's example game: the rules as small functions the
rules checker runs.

`rulesmith check zwiad` runs every worked example of rules/*.md against them, and holds each
number of the examples' prose (`[czterema]{result=kosci}`) to what they return. Every number
comes from the game's data (unit and card stats, keywords, parameters, the roster), never typed
in here. The die is a d10: each call to `dice` says `sides=10`.
"""

from __future__ import annotations

from typing import Literal

from generator.checker import Army, ProcedureError, exact, procedure, table
from generator.checks.keywords import parse_use
from generator.model import Card, Unit
from generator.values import Target

SIDES = 10
COVER = {"brak": 0, "lekka": 1, "ciezka": 2}  # rules/03-ruch-i-walka.md, "Osłona"


def _number(game, record, stat: str) -> int:
    """A record's whole-number stat: a count, or a distance's amount in cale."""
    value = game.stat(record, stat)
    return int(getattr(value, "amount", getattr(value, "number", value)))


def _burst(game, unit: Unit) -> int:
    """The dice one man rolls: the X of the unit's Seria (X), else one."""
    names = {keyword.name: keyword.id for keyword in game.keywords.values()}
    for text in unit.keywords:
        use = parse_use(text)
        if names.get(use.name) == "seria":
            if use.param is None:
                raise ProcedureError(f"unit '{unit.id}': Seria without its number of dice")
            return int(use.param)
    return 1


@procedure("strzal")
def strzal(game, dice, unit: Unit, ludzie: int | None = None,
           oslona: Literal["brak", "lekka", "ciezka"] = "brak", daleko: bool = False, premia: int = 0) -> dict:
    """Each man rolls a die (Seria X: X dice); a die hits on the unit's Strzał, one worse in light
    cover, two in heavy, one more beyond half the Zasięg, `premia` better (a card); a 10 always
    hits. One hit or more pins the target."""
    men = _number(game, unit, "ludzie") if ludzie is None else ludzie
    count = men * _burst(game, unit)
    needs = min(game.stat(unit, "strzal").number + COVER[oslona] + (1 if daleko else 0) - premia, SIDES)
    hits = dice.successes(count, needs, sides=SIDES)
    return {"kosci": count, "potrzeba": Target(needs), "trafienia": hits, "przygwozdzony": hits >= 1}


@procedure("test-hartu")
def test_hartu(game, dice, unit: Unit, dowodca_blisko: bool = False) -> dict:
    """A pinned unit rolls a die against its Hart, one easier with the leader within command range;
    at or above it, the unit shakes off the fire."""
    needs = game.stat(unit, "hart").number - (1 if dowodca_blisko else 0)
    return {"potrzeba": Target(needs), "otrzasa_sie": dice.success(needs, sides=SIDES)}


@procedure("ruch")
def ruch(game, dice, unit: Unit, karta: Card | None = None, las: bool = False) -> dict:
    """A unit moves up to its Ruch, or the Ruch of the card that activates it where the card gives
    one; in the forest half of it, rounded down."""
    full = _number(game, karta, "ruch") if karta is not None and "ruch" in karta.stats else _number(game, unit, "ruch")
    return {"pelny": full, "dystans": full // 2 if las else full}


@procedure("inicjatywa")
def inicjatywa(game, dice, karta_rysi: Card, karta_wilkow: Card, znacznik: Literal["rysie", "wilki"]) -> dict:
    """The card of higher Inicjatywa acts first; a tie goes to the side holding the Inicjatywa
    marker."""
    lynx, wolves = _number(game, karta_rysi, "inicjatywa"), _number(game, karta_wilkow, "inicjatywa")
    first = "rysie" if lynx > wolves else "wilki" if wolves > lynx else znacznik
    return {"rysie": lynx, "wilki": wolves, "pierwsi": first}


@procedure("koszt-patrolu")
def koszt_patrolu(game, dice, army: Army) -> dict:
    """What a patrol costs against the roster (rules/04-patrol-i-scenariusz.md), and how many of its rules it breaks."""
    over = max(0, army.total - army.limit) if isinstance(army.limit, int) else 0
    return {"koszt": army.total, "limit": army.limit, "ponad_limit": over, "naruszenia": len(army.breaches)}


@table("szanse-trafienia",
       title={"pl": "Szansa, że oddział trafi choć raz", "en": "Chance that a unit hits at least once"},
       columns={"unit": {"pl": "Oddział", "en": "Unit"},
                "otwarty": {"pl": "Otwarty teren", "en": "Open ground"},
                "lekka": {"pl": "Lekka osłona", "en": "Light cover"},
                "ciezka": {"pl": "Ciężka osłona", "en": "Heavy cover"}},
       assumes={"pl": "pełny oddział strzela z bliska, jedna kość k10 na człowieka (Seria: więcej)",
                "en": "a full unit fires at close range, one d10 per man (Burst: more)"})
def szanse_trafienia(game) -> list[dict]:
    """The chance of at least one hit for every unit, in each kind of cover."""
    def chance(unit, cover):
        return exact(strzal, game, {"unit": unit, "oslona": cover}).probability("trafienia >= 1")
    return [{"unit": unit, "otwarty": chance(unit, "brak"), "lekka": chance(unit, "lekka"),
             "ciezka": chance(unit, "ciezka")} for unit in game.units.values()]
