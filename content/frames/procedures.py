"""Frames: the rule procedures of a Frame's turn (5.3), Doomsday and base capture (5.4).

Every number comes from the game's data: distance bands from data/bands.yaml, damage
results from the `damage-profiles` table, counts and limits from game.yaml parameters.
Where the text leaves a gap, the procedure follows the erratum that reads it and names it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from generator.checker import ProcedureError, consistency, exact, procedure, table, threshold
from generator.model import Band, Die
from generator.values import Span, StatType, parse_value

TargetKind = Literal["frame", "terrain"]
Cover = Literal["none", "barricade", "frame"]
PROFILES = "damage-profiles"


# --- reading the data ----------------------------------------------------------------------

def band_of(game, distance: float) -> Band | None:
    """The distance band a distance (in UE) falls in, or None between bands."""
    for band in game.bands.values():
        if (band.min is None or distance >= band.min) and (band.max is None or distance <= band.max):
            return band
    return None


@dataclass(frozen=True)
class Profile:
    """One line of the damage table: the faces that damage the target and its cover."""

    target: Span | None
    cover: Span | None


def _listed(cell) -> set[str]:
    return {part.strip() for part in str(cell).split(",")}


def profile(game, target: str, band: Band, cover: str) -> Profile:
    """The damage-profiles line for this target, attack band and cover ('any' matches every cover)."""
    for row in game.tables[PROFILES].rows:
        if row["target"] == target and band.id in _listed(row["attack"]) and row["cover"] in (cover, "any"):
            return Profile(threshold(row["target-damage"]), threshold(row["cover-damage"]))
    raise ProcedureError(f"the {PROFILES} table has no line for a {band.id} attack on a {target} with cover '{cover}'")


def covers(game) -> list[str]:
    """The covers the damage table names, in its order ('any' is not a cover)."""
    return list(dict.fromkeys(r["cover"] for r in game.tables[PROFILES].rows if r["cover"] != "any"))


# --- 5.3.1: target and distance --------------------------------------------------------------

@procedure("attack-band")
def attack_band(game, dice, distance: float) -> dict:
    """The attack type a distance allows: Ближний бой, Направленная or Артиллерийская атака."""
    return {"band": band_of(game, distance)}


@procedure("attack-happens", errata=["shooting-moment-melee"])
def attack_happens(game, dice, declared: Band, distance: float,
                   target: Literal["frame", "terrain", "base", "nothing"] = "frame") -> dict:
    """Whether a declared attack takes place: bases cannot be attacked, and a target outside the
    declared band at the moment of firing is not attacked."""
    if target == "base":
        return {"attack": False, "reason": "base"}
    if target == "nothing":
        return {"attack": False, "reason": "no target"}
    inside = band_of(game, distance) == declared
    return {"attack": inside, "reason": None if inside else "out of band"}


# --- 5.3.3, 5.3.4: the dice of defence, movement, attack -------------------------------------

@procedure("defence")
def defence(game, dice, die: int | None = None, target: TargetKind = "frame") -> dict:
    """The Защита of a target: the chosen blue or white die; none chosen gives the parameter's
    value; terrain has its own (5.3.4: «Террейн имеют Защиту = 0»)."""
    if target == "terrain":
        return {"defence": game.parameter("terrain-defence")}
    return {"defence": game.parameter("defence-without-die") if die is None else die}


@procedure("move")
def move(game, dice, die: int | None = None) -> dict:
    """Движение: the Frame moves the chosen green or white die's value in UE, or stays."""
    return {"move": 0 if die is None else die}


@procedure("attack-die", errata=["missile-d8-use"])
def attack_die(game, dice, band: Band, die: Die | None = None) -> dict:
    """Whether a die may be chosen for an Attack: a red die always, a white die in melee only,
    no die: no attack. The missile D8 is a red die (erratum missile-d8-use)."""
    if die is None:
        return {"allowed": False}
    return {"allowed": die.colour == "red" or (die.colour == "white" and band.id == "melee")}


@procedure("attack-count", errata=["attack-count-floor"])
def attack_count(game, dice, attack: int | None, highlight: int | None = None, defence: int = 0) -> dict:
    """Количество Атак = Атака + Выделение − Защита; the Маркер is then removed. A result of 0
    or less means no damage dice (erratum attack-count-floor); no attack die, no attack."""
    if attack is None:
        return {"attacks": 0, "marker": highlight}
    return {"attacks": max(0, attack + (highlight or 0) - defence), "marker": None}


@procedure("highlight")
def highlight(game, dice, marker: int | None = None, die: int | None = None) -> dict:
    """Выделение: the higher of the Маркер already on the Frame and the new die stays."""
    if die is None:
        return {"marker": marker}
    return {"marker": die if marker is None else max(marker, die)}


# --- 5.3.4.2: damage ---------------------------------------------------------------------------

@procedure("damage", errata=["barricade-dice-order", "frame-shield-result-4"])
def damage(game, dice, attacks: int, band: Band, cover: Cover = "none", target: TargetKind = "frame",
           cover_hp: int | None = None) -> dict:
    """Roll one die per attack and play them die by die: a die in the cover's result damages the
    cover while it stands; once it falls (after `cover_hp` units of damage; the fragment gives no
    number, so the example must), the remaining dice use the profile without cover. The text
    does not say in which order dice hitting the cover are played; here, in the order rolled."""
    if target == "terrain" and cover != "none":
        raise ProcedureError("terrain cannot be protected by Barricades (5.3.4)")
    covered = profile(game, target, band, cover)
    bare = profile(game, target, band, "none")
    # Which dice the damage roll uses is not said; they are read as six-sided, the faces «4,5 или 6»
    # of «4+» (parameter damage-die-sides, erratum dice-sides-unstated).
    faces = dice.roll(attacks, game.parameter("damage-die-sides"))
    standing = cover != "none"
    to_target = to_cover = misses = 0
    for face in faces:
        rules = covered if standing else bare
        if standing and rules.cover is not None and face in rules.cover:
            to_cover += 1
            if cover_hp is not None and to_cover >= cover_hp:
                standing = False
        elif rules.target is not None and face in rules.target:
            to_target += 1
        else:
            misses += 1
    return {"rolled": faces, "target_damage": to_target, "cover_damage": to_cover, "misses": misses,
            "cover_destroyed": cover != "none" and not standing}


@procedure("attack", errata=["barricade-dice-order", "attack-count-floor"])
def attack(game, dice, attack: int | None, band: Band, defence: int = 0, highlight: int | None = None,
           cover: Cover = "none", target: TargetKind = "frame", cover_hp: int | None = None) -> dict:
    """A whole attack: the number of attacks from the dice chosen, then the damage roll."""
    count = attack_count(game, dice, attack=attack, highlight=highlight, defence=defence)["attacks"]
    result = damage(game, dice, attacks=count, band=band, cover=cover, target=target, cover_hp=cover_hp)
    return {"attacks": count, **result}


@table("damage-per-die", errata=["barricade-dice-order"],
       values={"target": f"{PROFILES}.target", "cover": f"{PROFILES}.cover"},
       title={"ru": "Урон одной кости по типу атаки и укрытию (кость считается шестигранной: число граней текст не называет)",
              "en": "Damage per die by attack type and cover (the die is taken as six-sided: the text does not give its faces)"},
       columns={"target": {"ru": "Цель", "en": "Target"}, "band": {"ru": "Тип атаки", "en": "Attack type"},
                "cover": {"ru": "Укрытие", "en": "Cover"}, "target_damage": {"ru": "Урон цели", "en": "Target damaged"},
                "cover_damage": {"ru": "Урон укрытию", "en": "Cover damaged"}, "miss": {"ru": "Промах", "en": "Miss"}},
       assumes={"ru": "одна кость урона по каждой строке таблицы урона, пока укрытие стоит; кость "
                      "шестигранная.",
                "en": "one damage die for every line of the damage table, while the cover stands; the die "
                      "is six-sided."})
def damage_per_die(game) -> list[dict]:
    """Each damage die's chances while the cover stands, for every line of the damage table."""
    rows = []
    for band in game.bands.values():
        for target in ("frame", "terrain"):
            for cover in covers(game) if target == "frame" else ["none"]:
                dist = exact(damage, game, {"attacks": 1, "band": band, "cover": cover, "target": target})
                rows.append({"target": target, "band": band, "cover": cover,
                             "target_damage": dist.probability("target_damage == 1"),
                             "cover_damage": dist.probability("cover_damage == 1"),
                             "miss": dist.probability("misses == 1")})
    return rows


# --- footnote *: the missile die ---------------------------------------------------------------

@procedure("missile-roll")
def missile_roll(game, dice, substitute: bool = False) -> dict:
    """The missile die's roll: a D8, or D6+D3 in its place with every player's agreement."""
    return {"total": dice.total(game.parameter("d8-substitute" if substitute else "missile-die"))}


# --- footnote **: the Main Attacking Frame -----------------------------------------------------

@procedure("main-frame-placement")
def main_frame_placement(game, dice, to_defender: float, to_barricade: float, outside_perimeter: bool) -> dict:
    """Where the Главный Атакующий Фрейм may stand: near a defending Frame, outside the Защитный
    Периметр, clear of Barricades."""
    ok = (to_defender <= game.parameter("main-frame-max-distance")
          and to_barricade > game.parameter("main-frame-barricade-clearance") and outside_perimeter)
    return {"allowed": ok}


# --- Doomsday ----------------------------------------------------------------------------------

def _tied(scores: dict[str, int]) -> bool:
    return len(set(scores.values())) < len(scores)


@procedure("doomsday-order", errata=["doomsday-ties-unstated", "current-score-undefined"])
def doomsday_order(game, dice, scores: dict[str, int]) -> dict:
    """The order players act on the Doomsday counter: by Текущий Счет, highest (the Defending
    player) first. Equal scores are not ordered by the text (erratum doomsday-ties-unstated)."""
    order = sorted(scores, key=lambda player: scores[player], reverse=True)
    top = [p for p in order if scores[p] == scores[order[0]]]
    return {"order": None if _tied(scores) else order, "defending": top[0] if len(top) == 1 else None}


@procedure("doomsday-countdown", errata=["doomsday-countdown"])
def doomsday_countdown(game, dice, counter: int, takes: list[bool]) -> dict:
    """The end of a Round: each player in turn takes the step off the counter or does nothing.
    Doomsday comes when no Rounds are left on it (erratum doomsday-countdown)."""
    left = counter - game.parameter("doomsday-step") * sum(1 for t in takes if t)
    return {"counter": left, "doomsday": left <= 0}


@procedure("doomsday-winner", errata=["doomsday-ties-unstated", "current-score-undefined"])
def doomsday_winner(game, dice, scores: dict[str, int]) -> dict:
    """On Doomsday the highest Текущий Счет wins; a tie is left open (erratum doomsday-ties-unstated)."""
    best = max(scores.values())
    leaders = [p for p, s in scores.items() if s == best]
    return {"winner": leaders[0] if len(leaders) == 1 else None}


# --- 5.4: capturing a base ---------------------------------------------------------------------

@procedure("base-capture")
def base_capture(game, dice, own: list[float], enemy: list[float], declared: bool) -> dict:
    """The three conditions of 5.4, given each Frame's distance (UE) from the base: own Frames
    within the radius, no other Frames within it, and the capture declared."""
    radius = game.parameter("capture-radius")
    near_own = sum(1 for d in own if d <= radius)
    near_enemy = sum(1 for d in enemy if d <= radius)
    met = [near_own >= game.parameter("capture-min-own-frames"),
           near_enemy <= game.parameter("capture-max-enemy-frames"),
           declared]
    return {"conditions_met": sum(met), "captured": sum(met) == game.parameter("capture-conditions")}


# --- the data agrees with itself ---------------------------------------------------------------

@consistency("bands-match-parameters")
def bands_match_parameters(game) -> list[str]:
    """5.3.1's distances are given twice: as bands and as parameters."""
    problems = []
    for band in game.bands.values():
        for end in ("min", "max"):
            param = f"{band.id}-{end}"
            if any(p.id == param for p in game.manifest.parameters):
                if game.parameter(param) != getattr(band, end):
                    problems.append(f"band {band.id}.{end} is {getattr(band, end)}, parameter {param} is "
                                    f"{game.parameter(param)}")
    return problems


@consistency("damage-parameters-match-profiles")
def damage_parameters_match_profiles(game) -> list[str]:
    """The damage results the text prints as parameters are the damage-profiles table's."""
    melee, directed = game.bands["melee"], game.bands["directed"]
    pairs = [
        ("melee-damage-target", profile(game, "frame", melee, "none").target),
        ("ranged-damage-target", profile(game, "frame", directed, "none").target),
        ("barricaded-frame-damage", profile(game, "frame", directed, "barricade").target),
        ("shielded-frame-damage", profile(game, "frame", directed, "frame").target),
        ("shield-frame-damage", profile(game, "frame", directed, "frame").cover),
        ("terrain-damage-target", profile(game, "terrain", directed, "none").target),
    ]
    problems = [f"parameter {param} is {game.parameter(param)}, the table says {faces}"
                for param, faces in pairs if threshold(game.parameter(param)) != faces]
    barricade = profile(game, "frame", directed, "barricade").cover
    low, high = game.parameter("barricade-damage-low"), game.parameter("barricade-damage-high")
    if barricade != Span(low, high):
        problems.append(f"parameters barricade-damage-low/high are {low} and {high}, the table says {barricade}")
    return problems


@consistency("missile-die-matches")
def missile_die_matches(game) -> list[str]:
    """The missile D8 of the parameters is the eight-sided missile die of data/dice.yaml."""
    terms = parse_value(game.parameter("missile-die"), StatType.DICE).terms
    sides = game.dice["missile"].sides
    return [] if terms == ((1, sides),) else [f"parameter missile-die is {game.parameter('missile-die')}, "
                                             f"the missile die has {sides} sides"]


@consistency("rule-params-match")
def rule_params_match(game) -> list[str]:
    """Numbers repeated in data/rules.yaml and data/actions.yaml agree with game.yaml."""
    pairs = [
        (game.rules["doomsday"].params.get("counter-step"), "doomsday-step"),
        (game.rules["dice-assignment"].params.get("dice-per-action"), "dice-per-action"),
        (game.rules["base-capture"].params.get("conditions"), "capture-conditions"),
        (game.rules["base-capture"].params.get("radius"), "capture-radius"),
        (game.rules["base-capture"].params.get("min-own-frames"), "capture-min-own-frames"),
        (game.rules["base-capture"].params.get("max-enemy-frames"), "capture-max-enemy-frames"),
        (game.rules["main-attacking-frame-placement"].params.get("max-distance"), "main-frame-max-distance"),
        (game.rules["main-attacking-frame-placement"].params.get("barricade-clearance"),
         "main-frame-barricade-clearance"),
        (game.actions["defence"].params.get("value-without-die"), "defence-without-die"),
        (game.rules["d8-substitute"].params.get("substitute"), "d8-substitute"),
        (game.rules["d8-substitute"].params.get("replaces"), "missile-die"),
        *((action.params.get("dice"), "dice-per-action") for action in game.actions.values()),
    ]
    return [f"{param} is {game.parameter(param)} in game.yaml but {value} in the data"
            for value, param in pairs if value != game.parameter(param)]
