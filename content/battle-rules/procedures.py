"""Additional Battle Rules: the procedures of set-up, landing, rearming and the attack phase.

Every number comes from the game's data: the unit table's stats (Accuracy, Damage, Save,
models, Visibility, Command points, landing slots) from data/units.yaml, distances, limits
and slot costs from game.yaml parameters, the attack distances from data/bands.yaml.
Where the text is silent (which of two Damage values applies, what the two command-point
numbers mean, which roll a sniper's deadly 6 is read on, the slot cost of boats and aircraft)
the procedure takes the choice as an explicit input or answers None, and names the note or
erratum that records the gap.

The dice. The source never says how many sides its dice have (game.yaml, component `dice`).
Every roll target of the unit table is one of 1+ … 6+, so the rolls are read on a six-sided
die: the parameter `die-sides` gives that reading and cites the erratum `dice-sides-reading`;
the consistency rule `targets-fit-the-die` holds the table to it.
"""

from __future__ import annotations

from typing import Literal

from generator.checker import ProcedureError, consistency, exact, procedure, table
from generator.model import Band, Rule, Terrain, Unit
from generator.values import Target

def sides_of(game) -> int:
    """The faces of the die every roll is read on: a reading (erratum dice-sides-reading)."""
    return game.parameter("die-sides")


Choice = Literal["first", "second"]
Kind = Literal["ranged", "melee"]

# Unit records and unit types the rules text names in words. Ids and type labels, not numbers.
SNIPERS = "snipers"                     # «выстрелы снайперов со значением 6»
CRUISER, SUBMARINE, BOAT = "cruiser", "submarine", "boat"
HEAVY_LANDERS = ("tank", "artillery")   # «артиллерия и танки – 20 слотов»
INFANTRY_TYPES = ("пехота", "тяжёлая пехота")
VEHICLE_TYPE = "техника"
AVIATION_TYPE = "авиация"
FLEET_TYPE = "флот"
ATTACHABLE_TYPES = ("командующая ед.", "ед. поддержки")  # commanders and support units
KNOWN_TYPES = (*INFANTRY_TYPES, VEHICLE_TYPE, AVIATION_TYPE, FLEET_TYPE, *ATTACHABLE_TYPES)
# Terrain that gives the fortification bonus: fortifications, and buildings, which «также
# считаются укреплениями». Cover behind a vehicle gives «никаких бонусов по сокращению урона».
FORTIFYING = ("fortification", "building")


# --- reading the data ----------------------------------------------------------------------

def _target(game, unit: Unit, stat: str) -> int | None:
    value = game.stat(unit, stat)
    return None if value is None else value.number


def accuracy_of(game, unit: Unit) -> int:
    """The unit's Accuracy; units the table gives «-» cannot make a ranged attack roll."""
    value = _target(game, unit, "accuracy")
    if value is None:
        raise ProcedureError(f"{unit.id} has no Accuracy in the unit table («-»); the text does not say how it "
                             "attacks at range")
    return value


def damage_of(game, unit: Unit, choice: Choice | None = None) -> int:
    """The unit's Damage. Units with two values («2+ / 5+») need the choice: the text does not say
    which applies (the note on the stat `damage` in game.yaml and in 05-unit-table; for snipers
    see erratum snipers-damage-zero, which reads their «1+ / 0» as 1+)."""
    values = game.stat(unit, "damage")
    values = values if isinstance(values, tuple) else (values,)
    if len(values) == 1:
        value = values[0]
    elif choice is None:
        shown = " / ".join("-" if v is None else f"{v.number}+" for v in values)
        raise ProcedureError(f"{unit.id} has two Damage values ({shown}); the rules do not say which applies "
                             "(note on the Damage stat): give damage_choice: first or second")
    else:
        value = values[0 if choice == "first" else 1]
    if value is None:
        raise ProcedureError(f"{unit.id} has no Damage in the unit table («-»)")
    return value.number


def save_of(game, unit: Unit) -> int:
    return _target(game, unit, "save")


def models_of(game, unit: Unit) -> int:
    return game.stat(unit, "models")


def fortification_shift(game, cover, kind: Kind = "ranged") -> int:
    """How much harder the damage roll is against a target behind `cover`: the parameter's -1 read
    as one more needed (erratum fortification-sign: «был 2+, а стал 3+»); once however many
    fortifications there are («не складывается»); never in melee («не сокращают … в ближнем бою»)."""
    if kind == "melee" or not any(t.id in FORTIFYING for t in cover):
        return 0
    return -game.parameter("fortification-damage-modifier")


def melee_value(game) -> int:
    """The melee Accuracy and Damage («значения меткости и урона равно 1»)."""
    return game.parameter("melee-accuracy-damage")


def band_at(game, distance: float) -> Band | None:
    """The attack a distance allows: ranged beyond the ranged band's start («больше 2 см»), melee up
    to the melee band's end («примерно равно 1 см»); between the two the text says nothing (note
    after the example ranged-or-melee-distance), so None."""
    melee, ranged = game.bands["melee"], game.bands["ranged"]
    if distance > ranged.min:
        return ranged
    if distance <= melee.max:
        return melee
    return None


def command_points(game, unit: Unit, counted: Choice, magnitude: bool = False) -> int:
    """One of the unit's two command-point numbers («-3 / 2»), as chosen: the text does not say
    what the two mean (note on the stat `command-points`, note after roster-16-points)."""
    first, second = game.stat(unit, "command-points")
    value = first if counted == "first" else second
    return abs(value) if magnitude else value


# --- set-up ----------------------------------------------------------------------------------

@procedure("deployment")
def deployment(game, dice, distance: float) -> dict:
    """Deployment: a unit may be placed «не далее, чем 40 см от угла (смежных сторон) стола»."""
    return {"allowed": distance <= game.parameter("deployment-distance")}


@procedure("roster")
def roster(game, dice, squads: list[Unit], mode: Rule | None = None, counted: Choice | None = None,
           magnitude: bool = False) -> dict:
    """The roster limit of a battle mode: 16 command points for a standard battle, free for the
    other modes. Each entry of `squads` is one squad. Which of a unit's two command-point numbers
    counts is not given by the text, so `counted` (first or second; `magnitude`: without its sign)
    must say it; without it the check answers None (note on the stat `command-points`)."""
    mode = mode or game.rules["standard-battle"]
    if mode.category != "mode":
        raise ProcedureError(f"{mode.id} is not a battle mode")
    limit = (game.parameter("standard-battle-command-points") if mode.id == "standard-battle"
             else mode.params.get("command-points"))
    if counted is None:
        return {"limit": limit, "points": None, "within_limit": True if limit is None else None}
    points = sum(command_points(game, u, counted, magnitude) for u in squads)
    return {"limit": limit, "points": points, "within_limit": limit is None or points <= limit}


@procedure("turn-order")
def turn_order(game, dice, rolls: dict[str, int], early: list[str] = ()) -> dict:
    """The order of turns: the higher first-turn roll goes first; a player who deployed early
    («досрочно») takes the last turn. Equal rolls, or more than one early player, are not ordered
    by the text: the order is None."""
    early = list(early)
    unknown = [p for p in early if p not in rolls]
    if unknown:
        raise ProcedureError(f"early players {unknown} have no roll")
    if len(set(rolls.values())) < len(rolls) or len(early) > 1:
        return {"order": None, "first": None}
    order = sorted(rolls, key=lambda p: rolls[p], reverse=True)
    order = [p for p in order if p not in early] + early
    return {"order": order, "first": order[0]}


# --- movement phase ------------------------------------------------------------------------------

def movement_of(game, unit: Unit) -> float:
    """The unit's move length («дистанция хода»). The recon jeep and the APC have a second value in
    brackets («40 см (60 см)») that the text does not explain (note on the stat `movement`)."""
    value = game.stat(unit, "movement")
    if isinstance(value, tuple):
        if len(value) > 1:
            shown = " (".join(str(v) for v in value) + ")"
            raise ProcedureError(f"{unit.id} has two move lengths ({shown}); the text does not say what the "
                                 "second means (note on the Movement stat)")
        value = value[0]
    return value.amount


@procedure("building-move")
def building_move(game, dice, unit: Unit, step: Literal["enter", "change-floor", "exit"],
                  distance: float | None = None, squads_on_floor: int = 0, enemy_inside: bool = False) -> dict:
    """Movement in buildings: entering one, or going from floor to floor, counts as the whole move
    and ends the squad's movement phase; one squad per floor; never squads of both sides in one
    building; leaving it, in any direction, no further than the move length."""
    if step == "exit":
        allowed = distance is not None and distance <= movement_of(game, unit)
        return {"allowed": allowed, "ends_movement": False}
    allowed = squads_on_floor == 0 and not enemy_inside
    return {"allowed": allowed, "ends_movement": allowed}


@procedure("picked-up-model")
def picked_up_model(game, dice, placed: Literal["back", "elsewhere"], released: bool = True) -> dict:
    """A combat unit picked up is active; put back in its place, its movement phase ends; put
    elsewhere, it ends once the model touches the table and is let go."""
    return {"active": True, "ends_movement": placed == "back" or released}


# --- landing (десант) --------------------------------------------------------------------------

def landing_cost(game, unit: Unit, support_as_infantry: bool | None = None) -> int | None:
    """Landing slots of one squad: each combat unit (model) of infantry takes 1, a vehicle 10,
    artillery and tanks 20. None where the text gives no cost: boats and aircraft (erratum
    landing-slots-aviation-fleet) and, unless told, commanders and support units, which the
    unit table types apart from infantry."""
    if unit.id in (CRUISER, SUBMARINE):
        raise ProcedureError(f"{unit.id}: cruisers and submarines cannot be landed (rule landing-restrictions)")
    if unit.id in HEAVY_LANDERS:
        return models_of(game, unit) * game.parameter("landing-slots-artillery-tanks")
    kind = unit.type
    if kind in INFANTRY_TYPES or (kind in ATTACHABLE_TYPES and support_as_infantry):
        return models_of(game, unit) * game.parameter("landing-slots-infantry")
    if kind == VEHICLE_TYPE:
        return models_of(game, unit) * game.parameter("landing-slots-vehicle")
    return None


@procedure("landing-slots", errata=["combat-unit-is-model", "landing-slots-aviation-fleet"])
def landing_slots(game, dice, squads: list[Unit], carrier: Unit | None = None,
                  support_as_infantry: bool | None = None) -> dict:
    """The landing slots squads declared for landing take, against the limit of 30, and against a
    carrier's own slots («слотов десантирования N») when one is named. A combat unit (боевая
    единица) is one model, as in «модель сразу удаляется»: ten scouts take ten slots. Where a
    squad's cost is not given (see landing_cost) the total is None and the squad is listed."""
    costs = {u.id: landing_cost(game, u, support_as_infantry) for u in squads}
    unstated = tuple(dict.fromkeys(uid for uid, c in costs.items() if c is None))
    slots = None if unstated else sum(landing_cost(game, u, support_as_infantry) for u in squads)
    limit = game.parameter("landing-slots-max")
    capacity = None
    if carrier is not None:
        capacity = game.stat(carrier, "landing-slots") if "landing-slots" in carrier.stats else 0
    return {"slots": slots, "limit": limit, "within_limit": None if slots is None else slots <= limit,
            "unstated": unstated, "capacity": capacity,
            "fits_carrier": None if carrier is None or slots is None else slots <= capacity}


@procedure("landing-allowed")
def landing_allowed(game, dice, unit: Unit, carrier: Unit | None = None) -> dict:
    """Who may be landed: cruisers and submarines never (they are placed at the nearest water
    point); boats and aircraft only from a cruiser; other squads as declared, or from a transport
    (a unit with landing slots)."""
    if unit.id in (CRUISER, SUBMARINE):
        return {"allowed": False, "reason": "placed at the nearest water point"}
    if unit.id == BOAT or unit.type == AVIATION_TYPE:
        ok = carrier is not None and carrier.id == CRUISER
        return {"allowed": ok, "reason": None if ok else "only from a cruiser"}
    if carrier is not None and "landing-slots" not in carrier.stats:
        return {"allowed": False, "reason": "not a transport"}
    return {"allowed": True, "reason": None}


@procedure("landing-placement")
def landing_placement(game, dice, enemy_distance: float, friendly_on_table: bool = True) -> dict:
    """Where declared landing squads are set down: anywhere, «не ближе, чем 5 см от противника»,
    and only while friendly combat units are on the table."""
    near = enemy_distance < game.parameter("landing-min-enemy-distance")
    return {"allowed": friendly_on_table and not near,
            "reason": "no friendly units" if not friendly_on_table else "too near the enemy" if near else None}


@procedure("disembark")
def disembark(game, dice, distance: float) -> dict:
    """Landing from a transport: «в непосредственной близости (1 см)» of it."""
    return {"allowed": distance <= game.parameter("disembark-distance")}


# --- support phase: rearming ----------------------------------------------------------------------

@procedure("rearm")
def rearm(game, dice, squads: list[Unit], into: list[Unit], counted: Choice | None = None,
          magnitude: bool = False) -> dict:
    """Rearming: squads are joined and split by their numbers, each new squad full (its unit's
    model count), so the models before and after agree; each new squad is one support function
    (`squad_models`: each new squad's models, by unit). With `counted` (see roster) the command
    points of the squads before and after are given; whether the roster's declared total is kept
    needs the whole roster (procedure roster)."""
    before = sum(models_of(game, u) for u in squads)
    after = sum(models_of(game, u) for u in into)
    points = (None, None) if counted is None else (
        sum(command_points(game, u, counted, magnitude) for u in squads),
        sum(command_points(game, u, counted, magnitude) for u in into))
    return {"models_before": before, "models_after": after, "balanced": before == after,
            "squad_models": {u.id: models_of(game, u) for u in into}, "support_functions": len(into),
            "points_before": points[0], "points_after": points[1]}


# --- mines -------------------------------------------------------------------------------------

@procedure("mine-triggered")
def mine_triggered(game, dice, distance: float, move: Literal["enter", "leave", "start-on-mine"] = "enter") -> dict:
    """A mine's zone is half its diameter around it («достаточно лишь задеть радиус действия»).
    Entering (or re-entering) the zone sets it off; the specialist who laid it nearby may leave it
    next turn; units a mine was laid under set it off when they start to move."""
    inside = distance <= game.parameter("mine-diameter") / 2
    triggered = move == "start-on-mine" or (move == "enter" and inside)
    return {"in_zone": inside, "triggered": triggered}


# --- attack phase --------------------------------------------------------------------------------

@procedure("attack-distance")
def attack_distance(game, dice, distance: float) -> dict:
    """The attack a distance allows: ranged only beyond 2 cm, melee only at about 1 cm; None between."""
    band = band_at(game, distance)
    return {"band": band}


@procedure("targets-in-sight")
def targets_in_sight(game, dice, seen: list[list[str]]) -> dict:
    """The targets a squad may attack: every enemy target one of its models sees (one model that
    sees one target: only that one; several targets, squads or vehicles: all of them)."""
    targets = list(dict.fromkeys(t for model in seen for t in model))
    return {"targets": targets, "count": len(targets)}


@procedure("attack-count")
def attack_count(game, dice, attackers: int, targets: int) -> dict:
    """Attacks are played «по числу сил противника»: never more than the enemy targets."""
    return {"attacks": max(0, min(attackers, targets))}


@procedure("attack-allowed")
def attack_allowed(game, dice, attacker: Unit, distance: float, kind: Kind, attacked_this_phase: bool = False,
                   rearmed_this_turn: bool = False, attached: bool = False, target_attached: bool = False,
                   target_in_building: bool = False) -> dict:
    """Whether a squad may make this attack: once per phase; not in the attack phase right after
    it was rearmed; attached commanders and support units neither attack nor are attacked except
    in melee; squads in buildings cannot be attacked in melee; the distance must allow the kind
    of attack and the target must be within the attacker's Visibility."""
    reason = None
    band = band_at(game, distance)
    if attacked_this_phase:
        reason = "already attacked this phase"
    elif rearmed_this_turn:
        reason = "rearmed this turn"
    elif kind == "ranged" and (attached or target_attached):
        reason = "attached unit"
    elif kind == "melee" and target_in_building:
        reason = "target in a building"
    elif band is None or band.id != kind:
        reason = "distance"
    elif distance > game.stat(attacker, "visibility").amount:
        reason = "out of sight"
    return {"allowed": reason is None, "reason": reason, "band": band}


@procedure("attack-sequence")
def attack_sequence(game, dice, squads: list[str], kinds: list[Kind]) -> dict:
    """The attacks of one phase in the order played: each squad attacks once (one series against
    all its targets), and every ranged series comes before the melee series."""
    if len(squads) != len(kinds):
        raise ProcedureError("give one kind of attack for each squad")
    if len(set(squads)) < len(squads):
        return {"allowed": False, "reason": "a squad attacks twice"}
    if "melee" in kinds and "ranged" in kinds[kinds.index("melee"):]:
        return {"allowed": False, "reason": "ranged after melee"}
    return {"allowed": True, "reason": None}


@procedure("damage-threshold", errata=["fortification-sign"])
def damage_threshold(game, dice, damage: Target | None = None, unit: Unit | None = None,
                     damage_choice: Choice | None = None, cover: list[Terrain] = (), kind: Kind = "ranged") -> dict:
    """The damage roll's target: the Damage (given, or the unit's), one more behind a fortification
    (erratum fortification-sign), not more behind two, and the melee value in melee, where
    fortifications do not count."""
    if kind == "melee":
        return {"threshold": Target(melee_value(game)), "fortified": False}
    if damage is None:
        if unit is None:
            raise ProcedureError("give damage or unit")
        base = damage_of(game, unit, damage_choice)
    else:
        base = damage.number
    shift = fortification_shift(game, cover, kind)
    return {"threshold": Target(base + shift), "fortified": shift != 0}


def _deadly_pool(dice, n: int, target: int, deadly_face: int | None, sides: int) -> tuple[int, int]:
    """(successes that are not deadly, deadly successes) of `n` dice; a deadly face is read die by
    die, otherwise the pool is counted at once."""
    if deadly_face is None:
        return dice.successes(n, target, sides=sides), 0
    faces = dice.roll(n, sides=sides)
    deadly = sum(1 for f in faces if f == deadly_face and f >= target)
    return sum(1 for f in faces if f >= target) - deadly, deadly


@procedure("ranged-attack")
def ranged_attack(game, dice, attacker: Unit, defender: Unit, attackers: int | None = None,
                  targets: int | None = None, damage_choice: Choice | None = None, cover: list[Terrain] = (),
                  deadly_on: Literal["hit", "damage"] | None = None) -> dict:
    """The attack phase of a ranged attack: one hit roll per attack (≥ Accuracy), one damage roll
    per hit (≥ Damage, +1 behind a fortification), which deals critical damage for the compensation
    phase. Attackers default to the attacker's models, targets to the defender's.

    Snipers' shots «со значением 6» are deadly, but the text does not say on which roll the 6 is
    read; `deadly_on` (hit or damage) must say it. A deadly 6 on the hit roll needs no damage roll."""
    attacks = attack_count(game, dice, attackers=models_of(game, attacker) if attackers is None else attackers,
                           targets=models_of(game, defender) if targets is None else targets)["attacks"]
    accuracy = accuracy_of(game, attacker)
    damage = damage_of(game, attacker, damage_choice) + fortification_shift(game, cover)
    deadly_face = None
    if attacker.id == SNIPERS:
        if deadly_on is None:
            raise ProcedureError("snipers' shots «со значением 6» are deadly, but the text does not say on which roll: "
                                 "give deadly_on: hit or damage")
        deadly_face = game.parameter("sniper-deadly-roll")
    elif deadly_on is not None:
        raise ProcedureError(f"only snipers' shots are deadly on a roll; {attacker.id} is not a sniper squad")
    hits, deadly = _deadly_pool(dice, attacks, accuracy, deadly_face if deadly_on == "hit" else None, sides_of(game))
    critical, deadly_damage = _deadly_pool(dice, hits, damage, deadly_face if deadly_on == "damage" else None,
                                           sides_of(game))
    return {"attacks": attacks, "accuracy": Target(accuracy), "damage": Target(damage),
            "hits": hits + deadly, "critical": critical, "deadly": deadly + deadly_damage}


@procedure("compensation", errata=["failed-save-deadly-wound"])
def compensation(game, dice, defender: Unit, critical: int, deadly: int = 0) -> dict:
    """The compensation phase: one save (≥ Save) for each critical damage; a failure wounds the model,
    which may be healed or repaired (erratum failed-save-deadly-wound). Deadly damage gets no save:
    those models are removed at once."""
    saved = dice.successes(critical, save_of(game, defender), sides=sides_of(game))
    return {"saves_rolled": max(critical, 0), "saved": saved, "wounded": critical - saved, "removed": deadly}


@procedure("hit-damage-save")
def hit_damage_save(game, dice, attacker: Unit, defender: Unit, attackers: int | None = None,
                    targets: int | None = None, damage_choice: Choice | None = None, cover: list[Terrain] = (),
                    deadly_on: Literal["hit", "damage"] | None = None) -> dict:
    """A whole ranged attack: hit, damage, then the defender's saves in the compensation phase."""
    attack = ranged_attack(game, dice, attacker=attacker, defender=defender, attackers=attackers, targets=targets,
                           damage_choice=damage_choice, cover=cover, deadly_on=deadly_on)
    saves = compensation(game, dice, defender=defender, critical=attack["critical"], deadly=attack["deadly"])
    return {**attack, **saves}


@procedure("kill-chance")
def kill_chance(game, dice, accuracy: Target, damage: Target, save: Target | None = None, fortified: bool = False) -> dict:
    """One ranged attack on bare numbers: hit (≥ Accuracy), damage (≥ Damage, one more behind a
    fortification), then a save (≥ Save; none: no save). `through`: the save failed or there was
    none. A target beyond the die (6+ made 7+ by a fortification) cannot be rolled."""
    shift = fortification_shift(game, [game.terrain["fortification"]] if fortified else [])
    hit = dice.success(accuracy.number, sides=sides_of(game))
    damaged = hit and dice.success(damage.number + shift, sides=sides_of(game))
    saved = damaged and save is not None and dice.success(save.number, sides=sides_of(game))
    return {"hit": hit, "damaged": damaged, "saved": saved, "through": damaged and not saved}


@procedure("melee-exchange", errata=["melee-attacker-casualty-target", "melee-saves-are-critical-damage"])
def melee_exchange(game, dice, attacker: Unit, defender: Unit, attackers: int | None = None,
                   targets: int | None = None, cover: list[Terrain] = ()) -> dict:
    """A melee: Accuracy and Damage are the melee value (1), so those rolls are not needed (they are
    rolled only if the value is more than 1); fortifications do not count in melee. The defender
    saves first, one roll per attack: failures are critical damage to the defender (saved again in
    the compensation phase, «такой как обычная атака в … ближнем бою»); for each of its successes
    the attacker rolls a save (≥ its own Save) and each failure is one of its own dead."""
    attacks = attack_count(game, dice, attackers=models_of(game, attacker) if attackers is None else attackers,
                           targets=models_of(game, defender) if targets is None else targets)["attacks"]
    value = melee_value(game) + fortification_shift(game, cover, "melee")
    if value > 1:
        attacks = dice.successes(attacks, value, sides=sides_of(game))
        attacks = dice.successes(attacks, value, sides=sides_of(game))
    saved = dice.successes(attacks, save_of(game, defender), sides=sides_of(game))
    held = dice.successes(saved, save_of(game, attacker), sides=sides_of(game))
    return {"attacks": attacks, "defender_saved": saved, "defender_critical": attacks - saved,
            "attacker_saves_rolled": saved, "attacker_losses": saved - held}


# --- conduct -----------------------------------------------------------------------------------

@procedure("passive-play")
def passive_play(game, dice, skips_in_a_row: int) -> dict:
    """Sanctions may follow when a player declines to play phases «более двух раз подряд»."""
    return {"sanctions_possible": skips_in_a_row > game.parameter("passive-skip-limit")}


# --- probability tables ------------------------------------------------------------------------

def saves(game) -> list[int | None]:
    """The Save columns of the printed tables: every face of the die, and no save."""
    return [*range(1, sides_of(game) + 1), None]


def _save_column(save: int | None) -> str:
    return "save-none" if save is None else f"save-{save}"


def _kill_columns(game) -> dict:
    columns = {"accuracy": {"ru": "Меткость", "en": "Accuracy"}, "damage": {"ru": "Урон", "en": "Damage"}}
    for save in saves(game):
        columns[_save_column(save)] = ({"ru": "Без спас-броска", "en": "No save"} if save is None else
                                       {"ru": f"Мораль/броня {save}+", "en": f"Save {save}+"})
    return columns


def _kill_rows(game, fortified: bool) -> list[dict]:
    rows = []
    for accuracy in range(1, sides_of(game) + 1):
        for damage in range(1, sides_of(game) + 1):
            row = {"accuracy": Target(accuracy), "damage": Target(damage)}
            for save in saves(game):
                inputs = {"accuracy": Target(accuracy), "damage": Target(damage),
                          "save": None if save is None else Target(save), "fortified": fortified}
                row[_save_column(save)] = exact(kill_chance, game, inputs).probability("through")
            rows.append(row)
    return rows


def _attacker_reads(game, unit: Unit) -> list[dict]:
    """A unit's Accuracy and Damage; one reading per Damage value where the table gives two (the
    rules do not say which applies); none for a unit without Accuracy or Damage («-»)."""
    values = game.stat(unit, "damage")
    values = values if isinstance(values, tuple) else (values,)
    accuracy = _target(game, unit, "accuracy")
    return [{"inputs": {"accuracy": Target(accuracy), "damage": value}}
            for value in values if accuracy is not None and value is not None
            and 1 <= value.number <= sides_of(game)]  # snipers' «0»: erratum snipers-damage-zero


def _target_reads(game, unit: Unit) -> list[dict]:
    return [{"column": _save_column(save_of(game, unit))}]


KILL_ASSUMES = {
    "ru": "одна дистанционная атака: попадание на Меткость или больше, урон на Урон или больше, затем "
          "спас-бросок на Мораль/броню цели; значение «-» — без спас-броска. Кубик шестигранный.",
    "en": "one ranged attack: a hit on the Accuracy or more, damage on the Damage or more, then a save "
          "on the target's Save; «-» means no save. The die is six-sided."}


@table("kill-chance", errata=["dice-sides-reading"], columns=_kill_columns,
       attacker=_attacker_reads, target=_target_reads, assumes=KILL_ASSUMES,
       title={"ru": "Вероятность, что одна дистанционная атака попадёт, нанесёт урон и не будет компенсирована "
                    "(на шестигранном кубике: число граней текст не называет)",
              "en": "Chance that one ranged attack hits, damages and is not saved "
                    "(on a six-sided die: the text does not give the number of faces)"})
def kill_chance_table(game) -> list[dict]:
    """P(hit) × P(damage) × P(failed save) of one attack, by Accuracy and Damage (rows) and Save."""
    return _kill_rows(game, fortified=False)


@table("kill-chance-fortified", errata=["fortification-sign", "dice-sides-reading"], columns=_kill_columns,
       attacker=_attacker_reads, target=_target_reads,
       assumes={"ru": KILL_ASSUMES["ru"] + " Цель за укреплением: для урона нужно на 1 больше (2+ → 3+); "
                      "6+ становится 7+, что на шестигранном кубике не выпадает.",
                "en": KILL_ASSUMES["en"] + " The target is behind a fortification: damage needs one more "
                      "(2+ → 3+); 6+ becomes 7+, which a six-sided die cannot roll."},
       title={"ru": "То же по цели за укреплением (урон на 1 больше, 2+ → 3+; шестигранный кубик)",
              "en": "The same against a target behind a fortification (Damage one more, 2+ → 3+; six-sided die)"})
def kill_chance_fortified_table(game) -> list[dict]:
    """As kill-chance, with the damage roll one harder (erratum fortification-sign); 6+ becomes 7+,
    which a six-sided die cannot roll."""
    return _kill_rows(game, fortified=True)


# --- the data agrees with itself ---------------------------------------------------------------

@consistency("parameters-match-rules")
def parameters_match_rules(game) -> list[str]:
    """Numbers the source gives both in the manifest and in data/rules.yaml or data/actions.yaml."""
    rule = lambda rid, key: game.rules[rid].params.get(key)  # noqa: E731
    pairs = [
        (rule("standard-battle", "command-points"), "standard-battle-command-points"),
        (rule("deployment", "distance-cm"), "deployment-distance"),
        (rule("landing-declaration", "max-slots"), "landing-slots-max"),
        (rule("landing-declaration", "min-enemy-distance-cm"), "landing-min-enemy-distance"),
        (rule("landing-slots", "infantry"), "landing-slots-infantry"),
        (rule("landing-slots", "vehicle"), "landing-slots-vehicle"),
        (rule("landing-slots", "artillery-and-tanks"), "landing-slots-artillery-tanks"),
        (rule("support-actions", "actions-per-unit"), "support-actions-per-unit"),
        (rule("melee-attack", "distance-cm"), "melee-distance"),
        (rule("melee-attack", "accuracy"), "melee-accuracy-damage"),
        (rule("melee-attack", "damage"), "melee-accuracy-damage"),
        (rule("critical-and-deadly-damage", "sniper-deadly-roll"), "sniper-deadly-roll"),
        (rule("passive-play", "skips-in-a-row"), "passive-skip-limit"),
        (game.actions["land"].params.get("disembark-distance-cm"), "disembark-distance"),
        (game.actions["land"].params.get("min-enemy-distance-cm"), "landing-min-enemy-distance"),
    ]
    return [f"{param} is {game.parameter(param)} in game.yaml but {value} in the data"
            for value, param in pairs if value != game.parameter(param)]


@consistency("bands-match-parameters")
def bands_match_parameters(game) -> list[str]:
    """The attack distances are given twice: as bands and as parameters."""
    problems = []
    if game.bands["ranged"].min != game.parameter("ranged-min-distance"):
        problems.append(f"band ranged starts at {game.bands['ranged'].min}, parameter ranged-min-distance is "
                        f"{game.parameter('ranged-min-distance')}")
    if game.bands["melee"].max != game.parameter("melee-distance"):
        problems.append(f"band melee ends at {game.bands['melee'].max}, parameter melee-distance is "
                        f"{game.parameter('melee-distance')}")
    return problems


@consistency("targets-fit-the-die")
def targets_fit_the_die(game) -> list[str]:
    """Every Accuracy, Damage and Save of the unit table, the melee value and the sniper's deadly
    roll are faces of the die the rolls are read on."""
    problems = []
    for unit in game.units.values():
        for stat in ("accuracy", "damage", "save"):
            values = game.stat(unit, stat)
            for value in values if isinstance(values, tuple) else (values,):
                if value is not None and not 1 <= value.number <= sides_of(game):
                    problems.append(f"{unit.id} {stat} {value.number}+ is not a face of a "
                                    f"{sides_of(game)}-sided die")
    for param in ("melee-accuracy-damage", "sniper-deadly-roll"):
        if not 1 <= game.parameter(param) <= sides_of(game):
            problems.append(f"parameter {param} is {game.parameter(param)}, not a face of a "
                            f"{sides_of(game)}-sided die")
    return problems


@consistency("units-read-by-the-procedures")
def units_read_by_the_procedures(game) -> list[str]:
    """Every unit type is one the landing rules are read for, every unit has two command-point
    numbers, at most two Damage values, a model count of at least one, and the units the rules name
    by kind exist."""
    problems = [f"{u.id} has the type '{u.type}', which the landing procedures do not read"
                for u in game.units.values() if u.type not in KNOWN_TYPES]
    for unit in game.units.values():
        points = game.stat(unit, "command-points")
        if not isinstance(points, tuple) or len(points) != 2:
            problems.append(f"{unit.id} has command points {points!r}, not two numbers")
        if models_of(game, unit) < 1:
            problems.append(f"{unit.id} has no models")
    for uid in (SNIPERS, CRUISER, SUBMARINE, BOAT, *HEAVY_LANDERS):
        if uid not in game.units:
            problems.append(f"the rules name the unit '{uid}', which the unit table does not have")
    for tid in FORTIFYING:
        if tid not in game.terrain:
            problems.append(f"the fortification rules name the terrain '{tid}', which the data does not have")
    return problems
