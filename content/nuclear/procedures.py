"""Nuclear: the rule procedures of combat (Боевая система), the glossary's properties, movement,
experience, reinforcement, the end of a turn and the random events.

Every number comes from the game's data: Quality, Defense, models and costs from the roster
(data/units.yaml), ranges, attacks and properties from data/weapons.yaml, the properties'
parameters («ББ (1)», «Взрыв (3)», «Стойкость (8)») from the keyword uses as the roster writes
them, read through the glossary (data/keywords.yaml) with its aliases, and every other number
from the parameters of game.yaml, the actions of data/actions.yaml and the random-events table.
Where the rules give no answer, the procedure raises ProcedureError, returns None, or takes the
value as an input, and says so; the errata it follows are named in the docstrings.
"""

from __future__ import annotations

import weakref
from functools import lru_cache
from typing import Literal

from generator.checker import ProcedureError, consistency, exact, procedure, table, threshold
from generator.checks.keywords import KeywordIndex, parse_use
from generator.model import Action, Terrain, Unit, Weapon
from generator.values import Span, StatType, Target, UnstatedError, is_unstated, parse_value

Rank = Literal["green", "experienced", "veteran", "elite"]
RANKS: tuple[str, ...] = ("green", "experienced", "veteran", "elite")  # «Зеленые, Опытные, Ветераны, Элита»
EVENTS = "random-events"
D6 = "d6"  # the component «кубики d6» every roll of the Боевая система uses


# --- reading the data ----------------------------------------------------------------------------

def sides(game) -> int:
    """The faces of the game's d6 (component «кубики d6»)."""
    component = next((c for c in game.manifest.components if c.id == D6), None)
    if component is None:
        raise ProcedureError(f"the game has no '{D6}' component to roll")
    return _die_sides(component.id)


def _die_sides(text: str) -> int:
    terms = parse_value(text, StatType.DICE).terms
    if len(terms) != 1 or terms[0][0] != 1:
        raise ProcedureError(f"'{text}' is not a single die")
    return terms[0][1]


def _target(value) -> int:
    """'5+' / Target(5) / 5 -> 5."""
    if isinstance(value, Target):
        return value.number
    if isinstance(value, int):
        return value
    span = threshold(value)
    if span is None or span.high is not None:
        raise ProcedureError(f"'{value}' is not a target number such as 5+")
    return span.low


def _span(value) -> Span:
    """'1-2', '4-6', '6' or 6 -> the faces a rule names."""
    if isinstance(value, int):
        return Span(value, value)
    span = threshold(str(value))
    if span is None:
        raise ProcedureError(f"'{value}' names no faces")
    return span


_INDEXES: dict[int, tuple[weakref.ref, KeywordIndex]] = {}


def _index(game) -> KeywordIndex:
    """The glossary index of a loaded game (built once per game: exact runs call it per branch)."""
    held = _INDEXES.get(id(game))
    if held is None or held[0]() is not game:
        held = (weakref.ref(game), KeywordIndex.build(game.keywords))
        _INDEXES[id(game)] = held
    return held[1]


def properties(game, uses) -> dict[str, int | None]:
    """Keyword uses as the data writes them («ББ (1)», «Быстрые», «Стойкость (8)») read through the
    glossary and its aliases: keyword id -> its parameter X (None for a property without one)."""
    found: dict[str, int | None] = {}
    for text in uses:
        use = parse_use(text)
        hit = _index(game).find(use.name)
        if hit is None:
            raise ProcedureError(f"'{use.name}' is no property of the glossary")
        keyword = hit[0]
        if use.param is None:
            found[keyword.id] = None
            continue
        try:
            found[keyword.id] = int(use.param)
        except ValueError:
            raise ProcedureError(f"'{text}': the parameter of {keyword.name} is not a number") from None
    return found


def props(game, record) -> dict[str, int | None]:
    """A unit's, weapon's or terrain's properties (see `properties`)."""
    return properties(game, record.keywords)


def models_of(game, unit: Unit) -> int:
    """The unit's models at full strength (the roster's number in brackets, errata applied)."""
    try:
        models = game.stat(unit, "models")
    except KeyError:
        raise ProcedureError(f"the roster gives {unit.id} no model count") from None
    if not isinstance(models, int):
        raise ProcedureError(f"the roster gives {unit.id} no model count")
    return models


def known_models(game, unit: Unit) -> int | None:
    """The roster's model count, or None where the roster does not give it (an unstated value)."""
    return None if is_unstated(game.values.get((unit.section, unit.id, "models"))) else models_of(game, unit)


def toughness_of(game, unit: Unit) -> int:
    """Wounds one model takes before it dies: Стойкость (X), or one Рана without it
    («одна рана убивает 1 модельку, если у неё нет свойства Стойкость»)."""
    value = props(game, unit).get("toughness")
    return 1 if value is None else value


def state_of(game, unit: Unit, models_left: int | None = None, toughness: list[int] | None = None) -> list[int]:
    """The living models of a unit as the Стойкость each has left. `toughness` lists it per model;
    otherwise `models_left` models (default: full strength) at full Стойкость."""
    full = toughness_of(game, unit)
    if toughness is not None:
        if any(t < 1 or t > full for t in toughness):
            raise ProcedureError(f"a model of {unit.id} has between 1 and {full} Стойкость left, not {toughness}")
        if len(toughness) > models_of(game, unit):
            raise ProcedureError(f"{unit.id} has {models_of(game, unit)} models, not {len(toughness)}")
        return list(toughness)
    count = models_of(game, unit) if models_left is None else models_left
    if count < 0 or count > models_of(game, unit):
        raise ProcedureError(f"{unit.id} has between 0 and {models_of(game, unit)} models, not {count}")
    return [full] * count


def weapon_dice(game, unit: Unit, living: int, melee: bool, full: int | None = None) -> list[tuple[Weapon, int]]:
    """(weapon, attack dice) for the unit's weapons of one kind: Н0 weapons in melee («в ближнем бою
    используется только оружие с дальностью Н0»), the others when shooting. A roster count «хN»
    (erratum cyrillic-x-count) is how many models carry the weapon; with casualties the dice follow
    the survivors only where every model carries the same number of it; otherwise the rules decide
    by a die which models died (Боевая система) and the procedure cannot go on. `full`: the unit's
    models where the roster gives no count and the example does."""
    full = models_of(game, unit) if full is None else full
    found = []
    for entry in unit.weapons:
        weapon = game.weapons[entry.weapon]
        if (game.stat(weapon, "range").amount == 0) != melee:
            continue
        count = entry.count if entry.count is not None else full
        if living == full:
            carried = count
        elif count % full == 0:
            carried = count // full * living
        else:
            raise ProcedureError(f"{count} of {full} models of {unit.id} carry {weapon.id}: which of them died "
                                 "is decided by a die the example must give")
        found.append((weapon, carried * game.stat(weapon, "attacks")))
    return found


def rank_of(game, xp: int) -> str:
    """The rank that `xp` experience points reach (Опыт: 10/20/30)."""
    rank = RANKS[0]
    for name in RANKS[1:]:
        if xp >= game.parameter(f"xp-{name}"):
            rank = name
    return rank


# --- the weapon notation ---------------------------------------------------------------------------

@procedure("weapon-profile", errata=["notation-bracket"])
def weapon_profile(game, dice, weapon: Weapon) -> dict:
    """A weapon as the rules write it: «[Название] ([Дальность в гексах]; [Число атак]; [Особые
    свойства])» (erratum notation-bracket: read with its closing bracket); Н0 is a melee-only weapon."""
    reach = game.stat(weapon, "range").amount
    reach = int(reach) if float(reach).is_integer() else reach
    attacks = game.stat(weapon, "attacks")
    parts = [f"{game.stat_def('range').abbr}{reach}", f"{game.stat_def('attacks').abbr}{attacks}", *weapon.keywords]
    kit = props(game, weapon)
    return {"notation": f"{weapon.name} ({'; '.join(parts)})", "range": reach, "attacks": attacks,
            "melee_only": reach == 0, "ap": kit.get("ap") or 0, "blast": kit.get("blast") or 0,
            "deadly": kit.get("deadly") or 1}


# --- allocating wounds -----------------------------------------------------------------------------

def _finals(state: tuple[int, ...], wounds: tuple[int, ...]) -> frozenset[tuple[tuple[int, ...], int]]:
    """Every (living models' Стойкость left, wounds lost) the wounds can leave, one wound of X (the
    Убойность) at a time on any living model, no spill-over; the order of the wounds left open."""
    return _explore(tuple(sorted(state, reverse=True)), tuple(sorted(wounds)))


@lru_cache(maxsize=65536)
def _explore(state: tuple[int, ...], wounds: tuple[int, ...]) -> frozenset[tuple[tuple[int, ...], int]]:
    if not wounds or not state:
        return frozenset({(state, sum(wounds))})
    out: set[tuple[tuple[int, ...], int]] = set()
    for amount in set(wounds):
        rest = list(wounds)
        rest.remove(amount)
        for left in set(state):
            after = list(state)
            after.remove(left)
            if left > amount:
                after.append(left - amount)
            lost = max(0, amount - left)
            for final, more in _explore(tuple(sorted(after, reverse=True)), tuple(rest)):
                out.add((final, lost + more))
    return frozenset(out)


def allocate(state: list[int], wounds: list[int], order: list[int] | None = None) -> dict:
    """Wounds on the living models (each entry: one Рана of X under Убойность (X), else 1).

    One Рана kills a model without Стойкость, or lowers its Стойкость by 1; under Убойность it is
    X Ран on that one model, and what exceeds its Стойкость does not carry over (deadly). Which
    model takes a Рана is decided by a die «если это имеет значение» (Боевая система); the text
    gives no die, so when the choice changes the result the example gives `order`: the model
    (1-based, in the order of `state`) each wound goes to. Without it such a result is None."""
    if order is not None:
        left = list(state)
        if len(order) != len(wounds):
            raise ProcedureError(f"order names {len(order)} models for {len(wounds)} wounds")
        lost = 0
        for amount, model in zip(wounds, order):
            if not 1 <= model <= len(left):
                raise ProcedureError(f"there is no model {model} (the unit has {len(left)})")
            if left[model - 1] == 0:
                if any(left):
                    raise ProcedureError(f"model {model} is already dead")
                lost += amount
                continue
            lost += max(0, amount - left[model - 1])
            left[model - 1] = max(0, left[model - 1] - amount)
        living = tuple(sorted((t for t in left if t), reverse=True))
        return {"toughness": living, "models_left": len(living), "lost": lost}
    finals = _finals(tuple(state), tuple(wounds))
    if len(finals) != 1:
        return {"toughness": None, "models_left": None, "lost": None}
    living, lost = next(iter(finals))
    return {"toughness": living, "models_left": len(living), "lost": lost}


# --- the attack roll ---------------------------------------------------------------------------------

def _groups_roll(game, dice, groups: list[dict], defense: int, target_models: int | None,
                 regeneration: bool) -> dict:
    """The Боевая система for several groups of attack dice against one unit. Each group: dice,
    quality (target number after modifiers), ap, blast, rending, deadly, save_modifier, auto
    (successes without a roll: Удар). The attackers roll first (every group), then the defenders
    roll a d6 per success (group by group), then Регенерация per Рана."""
    faces = sides(game)
    rending_face = game.parameter("rending-roll")
    rolled = []
    for g in groups:
        if g["rending"]:
            pool = dice.pool(g["dice"], faces)
            hits = sum(1 for f in pool if f >= g["quality"])
            torn = sum(1 for f in pool if f >= g["quality"] and f == rending_face)
        else:
            hits, torn = dice.successes(g["dice"], g["quality"], faces), 0
        rolled.append((hits + g["auto"], torn))
    total_hits = sum(h for h, _ in rolled)
    successes = saves = unsaved_plain = unsaved_torn = 0
    wound_amounts: list[int] = []
    plain_by_group = []
    for g, (hits, torn) in zip(groups, rolled):
        factor = 1
        if g["blast"]:
            if target_models is None:
                raise ProcedureError("Взрыв needs the number of models in the target unit")
            factor = min(g["blast"], target_models)
        plain, torn = (hits - torn) * factor, torn * factor
        successes += plain + torn
        # Разрыв: a natural 6 is ББ (rending-ap) for that attack
        torn_saved = dice.successes(torn, defense + game.parameter("rending-ap") - g["save_modifier"], faces)
        plain_saved = dice.successes(plain, defense + g["ap"] - g["save_modifier"], faces)
        saves += torn_saved + plain_saved
        plain_by_group.append((g, plain - plain_saved))
        unsaved_plain += plain - plain_saved
        unsaved_torn += torn - torn_saved
        wound_amounts += [g["deadly"]] * (torn - torn_saved)
    regenerated = 0
    for g, unsaved in plain_by_group:
        ignored = 0
        if regeneration and unsaved:
            if g["deadly"] > 1:
                raise ProcedureError("the rules do not say whether Регенерация is rolled before or after "
                                     "Убойность multiplies the Рана")
            ignored = dice.successes(unsaved, _target(game.parameter("regeneration-target")), faces)
        regenerated += ignored
        wound_amounts += [g["deadly"]] * (unsaved - ignored)
    return {"hits": total_hits, "successes": successes, "saves": saves,
            "unsaved": unsaved_plain + unsaved_torn, "regenerated": regenerated,
            "wounds": unsaved_plain + unsaved_torn - regenerated, "amounts": wound_amounts}


@procedure("attack-dice", errata=["damage-hits-minus-saves", "defender-more-successes"])
def attack_dice(game, dice, attacks: int, quality: Target, defense: Target, ap: int = 0, blast: int = 0,
                target_models: int | None = None, rending: bool = False, regeneration: bool = False,
                impact: int = 0, hit_modifier: int = 0, save_modifier: int = 0) -> dict:
    """The Боевая система with the numbers given: a d6 per attack, a success on the Quality or more
    (after `hit_modifier`); `impact` successes without a roll (Удар); each success ×min(Взрыв,
    target_models); the defender rolls a d6 per success, a save on the Defense + ББ (− the
    `save_modifier` to his roll); a natural 6 with Разрыв is ББ (4) and ignores Регенерация;
    Регенерация ignores a Рана on a 5+. Unsaved successes are Раны."""
    group = {"dice": attacks, "quality": quality.number - hit_modifier, "ap": ap, "blast": blast,
             "rending": rending, "deadly": 1, "save_modifier": save_modifier, "auto": impact}
    result = _groups_roll(game, dice, [group], defense.number, target_models, regeneration)
    result.pop("amounts")
    return {**result, "damage": result["wounds"] > 0}


# --- shooting ----------------------------------------------------------------------------------------

def _hex_properties(game, terrain: Terrain | None, hex: list[str] | None) -> dict[str, int | None]:
    found = props(game, terrain) if terrain is not None else {}
    found.update(properties(game, hex or []))
    return found


@procedure("morale-test")
def morale_test(game, dice, unit: Unit, modifier: int = 0) -> dict:
    """Тест на Мораль: 1d6, a success on the unit's Quality or more; Бесстрашные add +1; `modifier`
    for other effects (random events). A failure leaves the unit Подавленный."""
    bonus = game.parameter("fearless-morale-bonus") if "fearless" in props(game, unit) else 0
    passed = dice.success(game.stat(unit, "quality").number - bonus - modifier, sides(game))
    return {"passed": passed, "suppressed": not passed}


@procedure("shooting", errata=["damage-hits-minus-saves", "defender-more-successes", "morale-test-trigger", "morale-half-or-more-than-half", "toughness-per-model", "blast-vs-underground"])
def shooting(game, dice, attacker: Unit, target: Unit, distance: int = 1, weapons: list[Weapon] | None = None,
             terrain: Terrain | None = None, hex: list[str] | None = None, attacker_models: int | None = None,
             models_left: int | None = None, toughness: list[int] | None = None, initial: int | None = None,
             order: list[int] | None = None, morale_modifier: int = 0) -> dict:
    """Стрелять: the unit fires every weapon that reaches the target (range ≥ distance; Н0 weapons
    are for melee only), or the `weapons` named. Per weapon: a d6 per attack on the Quality
    (Снайпер: 2+; Точность +1; Скрытность of the target −1; Частичное укрытие of the target's hex
    −1, not for Навесное; Прицеливание ignores the negative ones), Взрыв multiplies each success
    by min(X, the target's models) and ignores the hex's properties; the target saves on its
    Defense + ББ, −1 in Полное укрытие. Раны are then allocated (see `allocate`); a unit that took
    Урон and is left at half its `initial` models (default: the roster's) or fewer «также» takes a
    Тест на Мораль (read: only when this attack wounded it).
    A unit in Подземный уровень cannot be shot; a Взрыв weapon would ignore that property, so the
    rules contradict each other there and the procedure stops. `hex`: properties the target's
    hex has beyond its terrain (the Центральная база gives Полное укрытие)."""
    own = props(game, attacker)
    place = _hex_properties(game, terrain, hex)
    theirs = props(game, target)
    state = state_of(game, target, models_left, toughness)
    living = len(state)
    if known_models(game, attacker) is None and attacker_models is not None:
        full = attacker_models  # the roster gives no count (errata *-model-count): the example says how many fire
    else:
        full = models_of(game, attacker)
    shooters = full if attacker_models is None else attacker_models
    if "no-supply" in own:
        return {"shot": False, "fired": (), "hits": 0, "saves": 0, "wounds": 0, "models_left": living,
                "morale_test": False, "suppressed": None}
    reach = [(w, n) for w, n in weapon_dice(game, attacker, shooters, melee=False, full=full)
             if game.stat(w, "range").amount >= distance]
    if weapons is not None:
        names = {w.id for w, _ in reach}
        missing = [w.id for w in weapons if w.id not in names]
        if missing:
            raise ProcedureError(f"{attacker.id} has no weapon {', '.join(missing)} that reaches {distance} hexes")
        chosen = {w.id for w in weapons}
        reach = [(w, n) for w, n in reach if w.id in chosen]
    if "mountains" in place:
        raise ProcedureError("no unit stands in Горы: no movement through them")
    groups = []
    for weapon, count in reach:
        kit = props(game, weapon)
        ignores_hex = "blast" in kit  # Взрыв: «игнорирует свойства гекса»
        if "underground" in place:
            if ignores_hex:
                raise ProcedureError("Подземный уровень forbids shooting at the unit, Взрыв ignores the hex's "
                                     "properties: the rules do not say which wins")
            continue
        quality = _target(game.parameter("sniper-quality")) if "sniper" in own else game.stat(attacker, "quality").number
        bonus, penalties = 0, []
        if "accurate" in own:
            bonus += game.parameter("accurate-modifier")
        if "stealth" in theirs:
            penalties.append(game.parameter("stealth-modifier"))
        if "partial-cover" in place and not ignores_hex and "indirect" not in kit:
            penalties.append(game.parameter("partial-cover-modifier"))
        if "aimed" not in own:
            bonus += sum(penalties)
        save_bonus = game.parameter("full-cover-modifier") if "full-cover" in place and not ignores_hex else 0
        groups.append({"dice": count, "quality": quality - bonus, "ap": kit.get("ap") or 0,
                       "blast": kit.get("blast") or 0, "rending": "rending" in kit, "deadly": kit.get("deadly") or 1,
                       "save_modifier": save_bonus, "auto": 0, "weapon": weapon})
    if not groups:
        return {"shot": False, "fired": (), "hits": 0, "saves": 0, "wounds": 0, "models_left": living,
                "morale_test": False, "suppressed": None}
    rolled = _groups_roll(game, dice, groups, game.stat(target, "defense").number, living,
                          "regeneration" in theirs)
    after = allocate(state, rolled["amounts"], order)
    left = after["models_left"]
    start = models_of(game, target) if initial is None else initial
    tests = left is not None and rolled["wounds"] > 0 and 0 < left and left * 2 <= start
    suppressed = None
    if tests:
        suppressed = morale_test(game, dice, unit=target, modifier=morale_modifier)["suppressed"]
    return {"shot": True, "fired": tuple(g["weapon"].id for g in groups), "hits": rolled["hits"],
            "successes": rolled["successes"], "saves": rolled["saves"], "regenerated": rolled["regenerated"],
            "wounds": rolled["wounds"], "toughness": after["toughness"], "models_left": left,
            "lost": after["lost"], "destroyed": None if left is None else left == 0,
            "morale_test": tests if left is not None else None, "suppressed": suppressed}


@procedure("wounds", errata=["toughness-per-model"])
def wounds(game, dice, unit: Unit, wounds: int, deadly: int = 1, weapon: Weapon | None = None,
           models_left: int | None = None, toughness: list[int] | None = None, order: list[int] | None = None) -> dict:
    """Раны on a unit: one Рана kills a model, or lowers its Стойкость by 1; under Убойность (X)
    (read from `weapon`, or given) each Рана is X Ран on one model, and Ран beyond its Стойкость do
    not carry over to other models. `order`: the model each Рана goes to where that matters."""
    if weapon is not None:
        deadly = props(game, weapon).get("deadly") or 1
    after = allocate(state_of(game, unit, models_left, toughness), [deadly] * wounds, order)
    left = after["models_left"]
    return {**after, "destroyed": None if left is None else left == 0}


# --- melee -----------------------------------------------------------------------------------------

def _strikes(game, unit: Unit, living: int, attacking: bool, suppressed: bool, bonus: int) -> list[dict]:
    own = props(game, unit)
    groups = []
    if suppressed:
        quality, bonus = _target(game.parameter("suppressed-melee-target")), 0
    else:
        quality = game.stat(unit, "quality").number
        if attacking and "furious" in own:
            bonus += game.parameter("furious-hit-bonus")
    for weapon, count in weapon_dice(game, unit, living, melee=True):
        kit = {} if suppressed else props(game, weapon)
        if "impact" in kit:
            raise ProcedureError(f"{weapon.id} carries Удар, a property of units: the rules do not say whether "
                                 f"it adds to the unit's own Удар")
        groups.append({"dice": count, "quality": quality - bonus, "ap": kit.get("ap") or 0,
                       "blast": kit.get("blast") or 0, "rending": "rending" in kit, "deadly": kit.get("deadly") or 1,
                       "save_modifier": 0, "auto": 0})
    impact = own.get("impact") if attacking and not suppressed and living else None
    if impact:  # Удар: X successes «если Атакует противника (непосредственно перед броском)»
        groups.insert(0, {"dice": 0, "quality": quality, "ap": 0, "blast": 0, "rending": False, "deadly": 1,
                          "save_modifier": 0, "auto": impact})
    return groups


def _keeps(game, unit: Unit) -> None:
    """A Подавленный unit «не может использовать особые свойства»: the rules do not say whether that
    reaches the properties that protect it."""
    kept = [k for k in ("toughness", "regeneration", "fearless") if k in props(game, unit)]
    if kept:
        names = ", ".join(game.keywords[k].name for k in kept)
        raise ProcedureError(f"{unit.id} is Подавленный: the rules do not say whether it keeps {names}")


@procedure("melee", errata=["damage-hits-minus-saves", "toughness-per-model", "impact-on-unit-and-weapon"])
def melee(game, dice, attacker: Unit, defender: Unit, attacker_models: int | None = None,
          attacker_toughness: list[int] | None = None, defender_models: int | None = None,
          defender_toughness: list[int] | None = None, defender_suppressed: bool = False, attack_bonus: int = 0,
          attacker_order: list[int] | None = None, defender_order: list[int] | None = None) -> dict:
    """Атаковать: the attacker strikes with its Н0 weapons (and Удар X successes, Яростные +1,
    `attack_bonus` from events), the defender saves and its Раны are counted; it takes no morale
    test, but strikes back with its survivors (a Подавленный unit hits only on 6+ and uses no
    properties); the side that dealt more Раны wins, the loser retreats and takes a Тест на
    Мораль whatever its losses, the winner takes none. Equal Раны name no winner: the rules do
    not say what happens then."""
    if defender_suppressed:
        _keeps(game, defender)
    ours = state_of(game, attacker, attacker_models, attacker_toughness)
    theirs = state_of(game, defender, defender_models, defender_toughness)
    strike = _groups_roll(game, dice, _strikes(game, attacker, len(ours), True, False, attack_bonus),
                          game.stat(defender, "defense").number, len(theirs),
                          "regeneration" in props(game, defender) and not defender_suppressed)
    hit = allocate(theirs, strike["amounts"], defender_order)
    survivors = hit["models_left"]
    if survivors is None:
        raise ProcedureError(f"which models of {defender.id} took the Раны decides how many strike back: "
                             "give defender_order")
    back = _groups_roll(game, dice, _strikes(game, defender, survivors, False, defender_suppressed, 0),
                        game.stat(attacker, "defense").number, len(ours), "regeneration" in props(game, attacker))
    taken = allocate(ours, back["amounts"], attacker_order)
    dealt, received = sum(strike["amounts"]), sum(back["amounts"])
    winner = "attacker" if dealt > received else "defender" if received > dealt else None
    loser_morale = None
    if winner is not None:
        loser, left = (defender, survivors) if winner == "attacker" else (attacker, taken["models_left"])
        if left is None:
            raise ProcedureError(f"which models of {loser.id} died decides whether it can test: give attacker_order")
        if left:
            loser_morale = "passed" if morale_test(game, dice, unit=loser)["passed"] else "failed"
    return {"attacker_hits": strike["hits"], "defender_saves": strike["saves"], "attacker_wounds": dealt,
            "defender_models_left": survivors, "defender_toughness": hit["toughness"],
            "defender_hits": back["hits"], "attacker_saves": back["saves"], "defender_wounds": received,
            "attacker_models_left": taken["models_left"], "attacker_toughness": taken["toughness"],
            "winner": winner, "loser_morale": loser_morale}


# --- wounds from the hex and from a destroyed transport -----------------------------------------------

def _low_rolls(game, dice, unit: Unit, state: list[int], roll) -> dict:
    """Each living model rolls a d6 and takes a Рана on `roll` (1-2); Регенерация may ignore it.
    Models alike are rolled as one handful (the dice that miss the faces above the roll);
    models with different Стойкость left roll one by one, each its Регенерация right after."""
    faces = sides(game)
    span = _span(roll)
    regenerates = "regeneration" in props(game, unit)
    regen = _target(game.parameter("regeneration-target"))
    if state and span.low == 1 and len(set(state)) == 1:
        wounded = len(state) - dice.successes(len(state), (span.high or faces) + 1, faces)
        ignored = dice.successes(wounded, regen, faces) if regenerates else 0
        order = list(range(1, wounded - ignored + 1))
    else:
        wounded = ignored = 0
        order = []
        for model in range(1, len(state) + 1):
            if dice.shows(span, faces):
                wounded += 1
                if regenerates and dice.success(regen, faces):
                    ignored += 1
                else:
                    order.append(model)
    after = allocate(state, [1] * len(order), order)
    return {"wounded": wounded, "regenerated": ignored, "toughness": after["toughness"],
            "models_left": after["models_left"], "destroyed": after["models_left"] == 0}


@procedure("dangerous", errata=["toughness-per-model"])
def dangerous(game, dice, unit: Unit, models_left: int | None = None, toughness: list[int] | None = None) -> dict:
    """Опасный: a unit in the hex at the end of the turn: each model rolls 1d6 and takes a Рана on
    1-2. Вездеход ignores the property."""
    state = state_of(game, unit, models_left, toughness)
    if "all-terrain" in props(game, unit):
        return {"wounded": 0, "regenerated": 0, "toughness": tuple(sorted(state, reverse=True)),
                "models_left": len(state), "destroyed": not state}
    return _low_rolls(game, dice, unit, state, game.parameter("dangerous-wound-roll"))


@procedure("transport-boarding")
def transport_boarding(game, dice, transport: Unit, unit: Unit, models: int | None = None, aboard: int = 0) -> dict:
    """Транспорт (X): it carries X models of Пехота, and a unit boards whole."""
    capacity = props(game, transport).get("transport")
    if capacity is None:
        raise ProcedureError(f"{transport.id} has no Транспорт")
    count = models_of(game, unit) if models is None else models
    fits = "infantry" in props(game, unit) and aboard + count <= capacity
    return {"allowed": fits, "room": capacity - aboard - (count if fits else 0)}


@procedure("transport-destroyed")
def transport_destroyed(game, dice, unit: Unit, models_left: int | None = None,
                        toughness: list[int] | None = None) -> dict:
    """Транспорт destroyed: each model of the unit aboard rolls 1d6 and takes a Рана on 1-2; the unit
    comes out on the transport's hex."""
    state = state_of(game, unit, models_left, toughness)
    return _low_rolls(game, dice, unit, state, game.parameter("transport-wound-roll"))


# --- movement --------------------------------------------------------------------------------------

@procedure("movement")
def movement(game, dice, action: Action, unit: Unit | None = None) -> dict:
    """The hexes an action moves: Движение 1-2, Марш 1-4, Атаковать 1-4 (data/actions.yaml); Быстрый
    adds 1 / 2 / 2 and Медленный takes 1 / 2 / 2 from the most (game.yaml)."""
    if "min-hexes" not in action.params or "max-hexes" not in action.params:
        raise ProcedureError(f"{action.id} moves no hexes")
    low, high = action.params["min-hexes"], action.params["max-hexes"]
    own = props(game, unit) if unit is not None else {}
    if "fast" in own:
        high += game.parameter(f"fast-{action.id}-bonus")
    if "slow" in own:
        high -= game.parameter(f"slow-{action.id}-penalty")
    return {"min": low, "max": high}


# --- experience and reinforcement ------------------------------------------------------------------

@procedure("xp-rank")
def xp_rank(game, dice, xp: int) -> dict:
    """Опыт: Зеленые, then Опытные, Ветераны and Элита from their thresholds."""
    return {"rank": rank_of(game, xp)}


@procedure("xp-gain")
def xp_gain(game, dice, xp: int = 0, rank: Rank | None = None, survived: bool = False, destroyed: int = 0,
            key_points: int = 0, depots: int = 0, central_bases: int = 0) -> dict:
    """Опыт earned in a turn: survival, enemy units destroyed, key points, supply depots and central
    bases captured. A rank once reached stays (`rank`); each new rank gives one upgrade."""
    gain = (game.parameter("xp-survive") * survived + game.parameter("xp-destroy-unit") * destroyed
            + game.parameter("xp-capture-key-point") * key_points + game.parameter("xp-capture-depot") * depots
            + game.parameter("xp-capture-central-base") * central_bases)
    before = max(RANKS.index(rank_of(game, xp)), RANKS.index(rank) if rank else 0)
    after = max(before, RANKS.index(rank_of(game, xp + gain)))
    return {"gain": gain, "xp": xp + gain, "rank": RANKS[after], "upgrades": after - before}


def _cost_erratum(game, unit: Unit) -> str | None:
    for erratum in game.errata.values():
        if getattr(erratum, "record", None) == f"units/{unit.id}" and getattr(erratum, "field", None) == \
                "stats.reinforcement-cost":
            return erratum.id
    return None


@procedure("reinforce")
def reinforce(game, dice, unit: Unit, new_models: int = 0, xp: int = 0, rank: Rank | None = None,
              models_left: int | None = None, toughness: list[int] | None = None, in_transport: bool = False) -> dict:
    """Восстанавливаться: each new model costs the Цена пополнения and lowers Опыт by 1; the rank is
    not lowered; every model's Стойкость comes back by 3, not above its maximum. Units in a
    transport cannot recover. The unit is refilled up to its roster strength at most."""
    if in_transport:
        return {"allowed": False}
    state = state_of(game, unit, models_left, toughness)
    if new_models and len(state) + new_models > models_of(game, unit):
        raise ProcedureError(f"{unit.id} has {models_of(game, unit)} models at full strength; the rules speak of "
                             "refilling the unit only")
    price = game.stat(unit, "reinforcement-cost")
    if new_models and price is None:
        erratum = _cost_erratum(game, unit)
        raise ProcedureError(f"the roster gives {unit.id} no Цена пополнения"
                             + (f" (erratum {erratum})" if erratum else ""))
    full = toughness_of(game, unit)
    restored = [min(full, t + game.parameter("recover-toughness")) for t in state] + [full] * new_models
    before = max(RANKS.index(rank_of(game, xp)), RANKS.index(rank) if rank else 0)
    return {"allowed": True, "cost": (price or 0) * new_models,
            "xp": xp + game.parameter("recover-xp-per-model") * new_models, "rank": RANKS[before],
            "models": len(restored), "toughness": tuple(sorted(restored, reverse=True))}


# --- turn, victory, initiative, properties with prestige -------------------------------------------------

@procedure("turn-end")
def turn_end(game, dice, key_points: int = 0, control_points: int = 0, central_base: bool = False,
             enemy_central_bases: int | None = None) -> dict:
    """The end of a turn: each Ключевая точка held gives its control points and Престиж, the
    Центральная база its Престиж; then the victory conditions: every enemy Центральная база
    destroyed, or the control points for victory."""
    if key_points > game.parameter("key-points"):
        raise ProcedureError(f"the map has {game.parameter('key-points')} Ключевых точек")
    points = control_points + key_points * game.parameter("key-point-control-points")
    prestige = key_points * game.parameter("key-point-prestige") + (game.parameter("central-base-prestige")
                                                                     if central_base else 0)
    by_points = points >= game.parameter("victory-control-points")
    by_bases = enemy_central_bases == 0
    return {"control_points": points, "prestige": prestige, "victory": by_points or by_bases,
            "by": "control-points" if by_points else "central-bases" if by_bases else None}


@procedure("initiative")
def initiative(game, dice, bids: dict[str, int]) -> dict:
    """The initiative line: the highest bid of Престиж first; players with equal bids roll a d100,
    the higher goes first. Equal d100 rolls are not settled by the rules: the order is None."""
    rolls: dict[str, int] = {}
    for player, bid in bids.items():
        if sum(1 for b in bids.values() if b == bid) > 1:
            rolls[player] = dice.d(100)
    key = {p: (bids[p], rolls.get(p, 0)) for p in bids}
    order = sorted(bids, key=lambda p: key[p], reverse=True)
    settled = len(set(key.values())) == len(key)
    first = order[0] if order and sum(1 for k in key.values() if k == key[order[0]]) == 1 else None
    return {"order": tuple(order) if settled else None, "first": first, "rolls": rolls}


@procedure("vip")
def vip(game, dice, event: Literal["reserve", "destroyed"]) -> dict:
    """Важная персона: into the reserve, the owner gets Престиж and the property goes; destroyed,
    the enemy takes Престиж from the owner's."""
    if event == "reserve":
        return {"owner": game.parameter("vip-reserve-prestige"), "enemy": 0, "keeps_vip": False}
    loss = game.parameter("vip-kill-prestige")
    return {"owner": -loss, "enemy": loss, "keeps_vip": False}


# --- random events -------------------------------------------------------------------------------------

def _events(game):
    return game.tables[EVENTS]


@procedure("random-event")
def random_event(game, dice) -> dict:
    """Each turn 1d6; on 4-6 a Случайное Событие happens, chosen by the table's 1d100."""
    trigger = dice.total(game.parameter("random-event-die"))
    if trigger not in _span(game.parameter("random-event-trigger")):
        return {"trigger": trigger, "happens": False, "roll": None, "event": None}
    events = _events(game)
    roll = dice.total(events.dice)
    for row in events.rows:
        if roll in _span(row["roll"]):
            return {"trigger": trigger, "happens": True, "roll": roll, "event": row["event"]}
    raise ProcedureError(f"no line of {EVENTS} for {roll}")


# --- the probability table -------------------------------------------------------------------------

def _ap_values(game) -> range:
    highest = max([game.parameter("rending-ap")]
                  + [props(game, w).get("ap") or 0 for w in game.weapons.values()])
    return range(0, highest + 1)


def _table_columns() -> dict:
    columns = {"quality": {"ru": "Качество", "en": "Quality"}, "defense": {"ru": "Защита", "en": "Defense"}}
    for ap in range(0, 5):
        columns[f"ap{ap}"] = {"ru": f"ББ {ap}", "en": f"AP {ap}"}
    return columns


def _attacker_reads(game, unit: Unit) -> list[dict]:
    """A unit's weapons as the table reads them: its Качество, each weapon's ББ (0 without), and
    the weapon's attack dice at full strength (`weapon_dice`), where the roster gives its models."""
    quality = game.stat(unit, "quality")
    reads = []
    for entry in unit.weapons:
        weapon = game.weapons[entry.weapon]
        try:
            count = entry.count if entry.count is not None else models_of(game, unit)
            times = count * game.stat(weapon, "attacks")
        except (ProcedureError, UnstatedError, TypeError):  # the roster does not give the unit's models
            times = None
        reads.append({"with": weapon, "inputs": {"quality": quality},
                      "column": f"ap{props(game, weapon).get('ap') or 0}", "times": times})
    return reads


def _target_reads(game, unit: Unit) -> list[dict]:
    return [{"inputs": {"defense": game.stat(unit, "defense")}}]


@table("wounds-per-attack", errata=["damage-hits-minus-saves"],
       title={"ru": "Средние Раны за одну атаку по Качеству, Защите и ББ (кубик d6)",
              "en": "Expected wounds per attack by Quality, Defence and AP (one D6)"},
       columns=_table_columns(), attacker=_attacker_reads, target=_target_reads,
       assumes={"ru": "одна кость атаки: попадание на Качество или больше, затем бросок защиты на Защиту + ББ; "
                      "непрошедшие защиту попадания — Раны. Модификаторы броска, Взрыв, Разрыв, Удар и "
                      "Регенерация не учитываются; Раны умножьте на число атак оружия.",
                "en": "one attack die: a hit on the Quality or more, then a save on the Defence + AP; "
                      "hits not saved are Wounds. Roll modifiers, Blast, Rending, Impact and Regeneration "
                      "are not counted; multiply by the weapon's attacks."})
def wounds_per_attack(game) -> list[dict]:
    """E(Раны) of one attack die: a hit on the Quality, a failed save on the Defense + ББ."""
    faces = sides(game)
    rows = []
    for quality in range(2, faces + 1):
        for defense in range(2, faces + 1):
            row = {"quality": Target(quality), "defense": Target(defense)}
            for ap in _ap_values(game):
                dist = exact(attack_dice, game, {"attacks": 1, "quality": Target(quality),
                                                 "defense": Target(defense), "ap": ap})
                row[f"ap{ap}"] = dist.mean("wounds")
            rows.append(row)
    return rows


# --- the data agrees with itself ---------------------------------------------------------------------------

@consistency("event-table-covers-die")
def event_table_covers_die(game) -> list[str]:
    """The random-events rows cover every face of their 1d100 exactly once."""
    events = _events(game)
    top = _die_sides(events.dice)
    seen: dict[int, int] = {}
    for row in events.rows:
        span = _span(row["roll"])
        for face in range(span.low, (span.high or top) + 1):
            seen[face] = seen.get(face, 0) + 1
    problems = [f"{EVENTS}: {face} is not on the {events.dice}" for face in seen if not 1 <= face <= top]
    problems += [f"{EVENTS}: no line for {face}" for face in range(1, top + 1) if face not in seen]
    problems += [f"{EVENTS}: {face} is on {n} lines" for face, n in seen.items() if n > 1]
    return problems


@consistency("event-trigger-on-die")
def event_trigger_on_die(game) -> list[str]:
    """The trigger faces of the turn's event roll are faces of its die."""
    top = _die_sides(game.parameter("random-event-die"))
    span = _span(game.parameter("random-event-trigger"))
    ok = 1 <= span.low and (span.high or top) <= top
    return [] if ok else [f"random-event-trigger {span} is not on the {game.parameter('random-event-die')}"]


@consistency("recover-params-match")
def recover_params_match(game) -> list[str]:
    """Восстанавливаться's numbers are given twice: as the action's params and as parameters."""
    params = game.actions["recover"].params
    pairs = [("toughness-restored", "recover-toughness"), ("xp-per-new-model", "recover-xp-per-model")]
    return [f"actions/recover {key} is {params.get(key)}, parameter {param} is {game.parameter(param)}"
            for key, param in pairs if params.get(key) != game.parameter(param)]


@consistency("texts-print-the-numbers")
def texts_print_the_numbers(game) -> list[str]:
    """The glossary and the actions print in words the numbers the data holds: each text states
    its parameters as the data has them."""
    p = game.parameter

    def signed(value) -> str:
        return f"+{value}" if value > 0 else str(value)

    def triple(kind: str, what: str) -> str:
        return " / ".join(str(p(f"{kind}-{a}-{what}")) for a in ("move", "march", "attack"))

    expected = [
        ("keywords", "fast", triple("fast", "bonus")),
        ("keywords", "slow", triple("slow", "penalty")),
        ("keywords", "regeneration", f"({p('regeneration-target')})"),
        ("keywords", "rending", f"чистая {p('rending-roll')}"),
        ("keywords", "rending", f"ББ ({p('rending-ap')})"),
        ("keywords", "fearless", signed(p("fearless-morale-bonus"))),
        ("keywords", "furious", signed(p("furious-hit-bonus"))),
        ("keywords", "stealth", signed(p("stealth-modifier"))),
        ("keywords", "accurate", signed(p("accurate-modifier"))),
        ("keywords", "sniper", str(p("sniper-quality"))),
        ("keywords", "scout", f"{p('scout-deployment-bonus')} гекс"),
        ("keywords", "ambush", f"{p('ambush-enemy-distance')} гекса"),
        ("keywords", "vip", f"{p('vip-reserve-prestige')} Престижа"),
        ("keywords", "vip", f"{p('vip-kill-prestige')} Престижа"),
        ("keywords", "builders", f"{p('builders-structures-per-turn')} сооружения"),
        ("keywords", "transport", f"на {p('transport-wound-roll')}"),
        ("keywords", "dangerous", f"на {p('dangerous-wound-roll')}"),
        ("keywords", "partial-cover", str(p("partial-cover-modifier"))),
        ("keywords", "full-cover", signed(p("full-cover-modifier"))),
        ("keywords", "difficult", f"{p('difficult-terrain-hexes')} гекс"),
        ("actions", "recover", f"на {p('recover-toughness')} единицы"),
        ("actions", "recover", f"снижается на {abs(p('recover-xp-per-model'))}"),
    ]
    for action in ("move", "march", "attack"):
        params = game.actions[action].params
        expected.append(("actions", action, f"{params['min-hexes']}-{params['max-hexes']} гекс"))
    problems = []
    for section, record_id, text in expected:
        record = game.section(section)[record_id]
        body = record.definition if section == "keywords" else record.text
        if text not in str(body):
            problems.append(f"{section}/{record_id} does not print «{text}»")
    return problems


@consistency("weapon-counts-match-models", errata=["cyrillic-x-count"])
def weapon_counts_match_models(game) -> list[str]:
    """A roster weapon count «хN» (erratum cyrillic-x-count) is one weapon per model: N is the unit's
    model count, or is left out for a single model."""
    problems = []
    for unit in game.units.values():
        full = known_models(game, unit)
        if full is None:
            continue  # no count to hold the weapons to
        for entry in unit.weapons:
            if entry.count is None and full != 1:
                problems.append(f"{unit.id}: {entry.weapon} has no count but the unit has {full} models")
            elif entry.count is not None and entry.count != full:
                problems.append(f"{unit.id}: {entry.count} × {entry.weapon} for {full} models")
    return problems


@consistency("no-reinforcement-cost-single-model")
def no_reinforcement_cost_single_model(game) -> list[str]:
    """A unit printed without a Цена пополнения is a single model, and an erratum records the gap."""
    problems = []
    for unit in game.units.values():
        if game.stat(unit, "reinforcement-cost") is None:
            if known_models(game, unit) not in (1, None):
                problems.append(f"{unit.id} has {models_of(game, unit)} models but no Цена пополнения")
            if _cost_erratum(game, unit) is None:
                problems.append(f"{unit.id} has no Цена пополнения and no erratum records it")
    return problems


@consistency("xp-thresholds-ascend")
def xp_thresholds_ascend(game) -> list[str]:
    """Опытные, Ветераны, Элита: each rank needs more Опыт than the one before."""
    values = [game.parameter(f"xp-{name}") for name in RANKS[1:]]
    return [] if all(0 < a < b for a, b in zip(values, values[1:])) and values[0] > 0 else [
        f"the Опыт thresholds {values} do not rise"]


@consistency("keyword-parameters")
def keyword_parameters(game) -> list[str]:
    """Every use of a property with a parameter (ББ, Взрыв, Убойность, Удар, Стойкость, Транспорт)
    gives a whole number of at least 1, and properties without one give none."""
    problems = []
    for section in ("units", "weapons", "terrain"):
        for record in game.section(section).values():
            try:
                found = props(game, record)
            except ProcedureError as exc:
                problems.append(f"{section}/{record.id}: {exc}")
                continue
            for keyword_id, value in found.items():
                wants = game.keywords[keyword_id].parameter is not None
                if wants and (value is None or value < 1):
                    problems.append(f"{section}/{record.id}: {game.keywords[keyword_id].name} needs a number")
                if not wants and value is not None:
                    problems.append(f"{section}/{record.id}: {game.keywords[keyword_id].name} takes no number")
    return problems

