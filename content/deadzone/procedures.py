"""Deadzone: the rules summary as procedures, read from the game's data.

No model profiles are given in the source, so a model's stats (Shoot, Fight, Survive, Recon,
Armour, Size) and a weapon's range and AP are inputs of the procedures, never records. A stat
written "-" is given as null. Every number the rules state (dice counts, target numbers, the
exploding face, modifiers, limits, capacities) is read from game.yaml and data/*.yaml.

Every test rolls D8 dice (data/dice.yaml `d8`); a die showing the exploding face (8) is a
success and adds a die, again and again. The exact mode follows such a chain for at most
generator.checker.DEPTH (9) extra dice: exact probabilities are exact for that depth, which
differs from an endless chain by less than one in a hundred million per die.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from generator.checker import ProcedureError, consistency, exact, procedure, table, threshold
from generator.checker.dice import Opposed, Roll, Successes
from generator.values import Target

TEST_DIE = "d8"
COMMAND_DIE = "command"
SHOOTING_MODIFIERS = "shooting-modifiers"
FIGHT_MODIFIERS = "fight-modifiers"
DAMAGE_THRESHOLDS = "damage-thresholds"
DAMAGE_STATES = ("unharmed", "wounded", "killed")  # the rows of damage-thresholds, in order

# The rows of the modifier tables, found by the words the tables print.
SHOOTING_ROWS = {
    "clean_shot": "Чистый выстрел",
    "friendly_fire": "Дружеский огонь",
    "elevation": "Возвышение",
    "suppressing": "Беспокоящий огонь",
}
FightCondition = Literal["moved-in", "friends-in-cube", "opponent-wounded", "larger", "opponent-prone"]
FIGHT_ROWS = {
    "moved-in": "Модель пришла в этот куб в эту активацию",
    "friends-in-cube": "В кубе находится одна или более дружественных моделей",
    "opponent-wounded": "Если оппонент ранен",
    "larger": "Если атакующий имеет больший размер",
    "opponent-prone": "Если оппонент в состоянии Лежит",
}

# The Command die faces, by the names data/dice.yaml gives them. Move, Shoot and Fight are the
# faces named like the actions move, shoot and fight.
PLUS_MODEL = "+1 Модель"
PLUS_DIE = "+1 Кость"
ARMY_SPECIAL = "Спец.свойство армии"
ACTION_FACES = ("move", "shoot", "fight")


# --- reading the data ----------------------------------------------------------------------

def sides(game) -> int:
    """The faces of the test die (D8)."""
    return game.dice[TEST_DIE].sides


def exploding_face(game) -> int:
    """The face that succeeds and adds a die; the engine adds one die per such face."""
    extra = game.parameter("exploding-extra-dice")
    if extra != 1:
        raise ProcedureError(f"parameter exploding-extra-dice is {extra}; the dice engine adds one die per "
                             "exploding face")
    return game.parameter("exploding-face")


def _target(game, target: Target | int | str | None) -> int | None:
    """A target number as a face; None for a stat written "-"."""
    if target is None:
        return None
    number = target.number if isinstance(target, Target) else int(str(target).rstrip("+"))
    face = exploding_face(game)
    if number > face:
        raise ProcedureError(f"a target of {number}+ is above {face}, the face that always succeeds: "
                             "the rules give no such test")
    return number


def pool(game, n: int, target: Target | int | str | None) -> tuple[int, int]:
    """One side of a test as (dice, target): no dice for a "-" stat (zero successes, 03-tests)."""
    number = _target(game, target)
    if number is None or n <= 0:
        return 0, exploding_face(game)
    return n, number


def successes(game, dice, n: int, target: Target | int | str | None) -> int:
    """The successes of n test dice on a target; an 8 succeeds and adds a die (exploding-eight)."""
    n, number = pool(game, n, target)
    return dice.successes(n, number, sides=sides(game), explode=exploding_face(game))


def opposed(game, dice, ours: tuple[int, Target | int | str | None],
            theirs: tuple[int, Target | int | str | None]) -> int:
    """Two tests (X) rolled together: our successes minus theirs (ours are read first)."""
    return dice.opposed(pool(game, *ours), pool(game, *theirs), sides=sides(game), explode=exploding_face(game))


def _row(game, table_id: str, column: str, words: str) -> dict:
    for row in game.tables[table_id].rows:
        if str(row[column]).startswith(words):
            return row
    raise ProcedureError(f"the {table_id} table has no row «{words}»")


def shooting_modifier(game, key: str) -> int:
    """The dice a line of the shooting modifiers table adds (negative: takes away)."""
    return int(_row(game, SHOOTING_MODIFIERS, "modifier", SHOOTING_ROWS[key])["dice"])


def fight_modifier(game, condition: str) -> int:
    """The dice a line of the fight modifiers table adds."""
    return int(_row(game, FIGHT_MODIFIERS, "condition", FIGHT_ROWS[condition])["dice"])


def _first_number(cell) -> int:
    match = re.search(r"\d+", str(cell))
    if match is None:
        raise ProcedureError(f"the {DAMAGE_THRESHOLDS} cell «{cell}» names no number of damage")
    return int(match.group())


# --- 03: tests -------------------------------------------------------------------------------

@procedure("test", errata=["success-equal-or-more"])
def test(game, dice, dice_count: int, target: Target | None, need: int | None = None, modifiers: int = 0) -> dict:
    """A test "N dice T+ test (k)": each D8 on the target or more succeeds, k successes pass it.

    Modifiers change only the number of dice; none left, or a stat written "-" (target null),
    means the test cannot be taken and counts as zero successes (zero-dice, dash-parameter).
    """
    n = dice_count + modifiers
    hits = successes(game, dice, n, target)
    return {"dice": max(n, 0) if target is not None else 0, "can_test": n > 0 and target is not None,
            "successes": hits, "passed": None if need is None else hits >= need}


# --- 04: the turn ----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Decided(Roll):
    """An opposed roll repeated until it is not a tie: the margin of the deciding roll.

    The checker's Dice has no call for "reroll ties"; this roll is resolved through the same
    source as every other roll, so it reads scripted faces roll after roll, and exactly it is
    the opposed distribution with the ties rerolled away (icepool reroll, depth 'inf')."""

    roll: Opposed

    def draw(self, face):
        while True:
            margin = self.roll.draw(face)
            if margin:
                return margin

    def distribution(self):
        return self.roll.distribution().reroll([0], depth="inf")


@procedure("recon-test")
def recon_test(game, dice, ours: Target | None, theirs: Target | None) -> dict:
    """The Recon test before the game: both players roll recon-test-dice dice (X) on their
    Leaders' Recon; a tie is rolled again until one wins. Recon lives in the army rosters,
    which the source does not give, so both values are inputs."""
    n = game.parameter("recon-test-dice")
    a, b = pool(game, n, ours), pool(game, n, theirs)
    if a[0] == 0 and b[0] == 0:
        raise ProcedureError("neither player rolls a die: the Recon test can never be decided")
    s, e = sides(game), frozenset({exploding_face(game)})
    roll = _Decided(Opposed(Successes(a[0], a[1], s, e), Successes(b[0], b[1], s, e)))
    margin = dice._source.resolve(roll)  # no public call rerolls ties (see _Decided)
    return {"winner": "ours" if margin > 0 else "theirs", "margin": margin}


@procedure("command-roll")
def command_roll(game, dice, models: int, in_play: int, tactician: bool = False,
                 tactician_dice: int | None = None) -> dict:
    """The Command roll: command-roll-dice Command dice plus Tactician's; one reroll of any of
    them if at least command-reroll-threshold % of the strike team is in play. How many dice
    Tactician gives is not stated (keyword tactician is incomplete): the example must say."""
    if tactician and tactician_dice is None:
        raise ProcedureError("the text does not say how many Command dice Tactician adds (keyword "
                             "tactician, incomplete): give tactician_dice")
    if models <= 0 or not 0 <= in_play <= models:
        raise ProcedureError(f"{in_play} of {models} models in play is not a strike team")
    extra = (tactician_dice or 0) if tactician else 0
    allowed = in_play * 100 >= game.parameter("command-reroll-threshold") * models
    return {"dice": game.parameter("command-roll-dice") + extra, "reroll_allowed": allowed,
            "rerolls": game.parameter("command-rerolls") if allowed else 0}


def _command_faces(game) -> dict[str, str]:
    """The Command die's face names, each with its kind: action, army, die, model."""
    names = [face.name for face in game.dice[COMMAND_DIE].faces]
    actions = {game.actions[a].name for a in ACTION_FACES}
    kinds = {}
    for name in names:
        kinds[name] = ("action" if name in actions else "army" if name == ARMY_SPECIAL
                       else "die" if name == PLUS_DIE else "model" if name == PLUS_MODEL else "other")
    return kinds


@procedure("command-dice-activation")
def command_dice_activation(game, dice, faces: list[str]) -> dict:
    """Whether one model may spend these Command dice in its activation: each of Движение,
    Стрельба, Рукопашная, Спец.свойство армии at most command-dice-per-activation times, and
    only one of Стрельба, Рукопашная or Движение in all; +1 Кость without limit; +1 Модель at
    most plus-model-dice-per-turn in the turn. Faces by their names in data/dice.yaml."""
    kinds = _command_faces(game)
    unknown = [f for f in faces if f not in kinds]
    if unknown:
        raise ProcedureError(f"no Command die face {unknown[0]!r}; the faces are {', '.join(kinds)}")
    limit = game.parameter("command-dice-per-activation")
    problems = []
    for name in dict.fromkeys(faces):
        count = faces.count(name)
        if kinds[name] in ("action", "army") and count > limit:
            problems.append(f"{name} ×{count}")
        if kinds[name] == "model" and count > game.parameter("plus-model-dice-per-turn"):
            problems.append(f"{name} ×{count}")
    action_faces = [f for f in faces if kinds[f] == "action"]
    if len(action_faces) > limit:
        problems.append(" + ".join(action_faces))
    return {"allowed": not problems, "problem": "; ".join(problems) or None}


@procedure("activations-in-a-row")
def activations_in_a_row(game, dice, plus_model_dice: int, army_limit: int | None = None) -> dict:
    """How many models a player activates in a row with +1 Модель dice: one more per die, at
    most plus-model-dice-per-turn dice a turn and max-models-in-a-row models, unless a model's
    or the army's rules say otherwise (army_limit)."""
    models = 1 + plus_model_dice
    most = game.parameter("max-models-in-a-row") if army_limit is None else army_limit
    allowed = plus_model_dice <= game.parameter("plus-model-dice-per-turn") and models <= most
    return {"models": models, "allowed": allowed}


@procedure("objective-control")
def objective_control(game, dice, ours: int, theirs: int) -> dict:
    """Who holds an objective cube at the end of a round: the only player with models in it;
    how many models does not matter."""
    holder = "ours" if ours > 0 and theirs == 0 else "theirs" if theirs > 0 and ours == 0 else None
    return {"holder": holder}


@procedure("victory")
def victory(game, dice, ours: int, theirs: int, needed: int) -> dict:
    """The end-of-round victory check: the one who reached the mission's victory points wins;
    both: the one with more; equal: play on. The mission sets `needed`."""
    reached = [p for p, vp in (("ours", ours), ("theirs", theirs)) if vp >= needed]
    if len(reached) == 2:
        winner = None if ours == theirs else "ours" if ours > theirs else "theirs"
    else:
        winner = reached[0] if reached else None
    return {"winner": winner, "game_over": winner is not None}


@procedure("initiative")
def initiative(game, dice, finished: list[str]) -> dict:
    """Who has the initiative next round: the player who finished activating first."""
    if not finished:
        raise ProcedureError("nobody finished activating")
    return {"initiative": finished[0]}


# --- 05: moving ------------------------------------------------------------------------------

@procedure("cube-capacity")
def cube_capacity(game, dice, ours: list[int], theirs: list[int] | None = None) -> dict:
    """Whether models fit in one cube: their Sizes at most cube-capacity-faction per faction and
    cube-capacity-total in all."""
    theirs = theirs or []
    per, total = game.parameter("cube-capacity-faction"), game.parameter("cube-capacity-total")
    fits = sum(ours) <= per and sum(theirs) <= per and sum(ours) + sum(theirs) <= total
    return {"ours": sum(ours), "theirs": sum(theirs), "fits": fits}


# --- 05: shooting ----------------------------------------------------------------------------

@procedure("shooting-distance")
def shooting_distance(game, dice, shooter: tuple[int, int, int], target: tuple[int, int, int],
                      weapon_range: int | None = None) -> dict:
    """The distance to a target in cubes: the cubes counted horizontally and vertically, the
    shooter's cube left out and the target's counted; the larger count. Cubes are [column, row,
    level]. The text counts along a line of cubes; on a diagonal each cube passed counts once,
    as a diagonal step of movement does; a target off the rows, columns and diagonals has no
    count in the text (ProcedureError). Shooting needs the target within the weapon's RX
    (weapon_range; no weapon profiles are given) and not in the shooter's cube; line of sight
    is the players' call."""
    dx, dy = abs(target[0] - shooter[0]), abs(target[1] - shooter[1])
    if dx and dy and dx != dy:
        raise ProcedureError(f"the target is {dx} columns and {dy} rows away: the text does not say how to "
                             "count cubes off a row, column or diagonal")
    horizontal, vertical = max(dx, dy), abs(target[2] - shooter[2])
    distance = max(horizontal, vertical)
    in_range = None if weapon_range is None else distance <= weapon_range
    return {"horizontal": horizontal, "vertical": vertical, "distance": distance,
            "may_shoot": distance > 0 and in_range is not False}


@procedure("shooting-dice")
def shooting_dice(game, dice, clean_shot: bool = False, friendly_fire: bool = False, elevation: bool = False,
                  suppressing: bool = False, extra_dice: int = 0) -> dict:
    """The dice of a Shoot test: shoot-test-dice and the shooting modifiers table's lines that
    apply; extra_dice for +1 Кость Command dice. Suppressing fire needs a rapid-fire weapon, a
    property the text does not describe (erratum rapid-fire-undefined)."""
    flags = {"clean_shot": clean_shot, "friendly_fire": friendly_fire, "elevation": elevation,
             "suppressing": suppressing}
    n = game.parameter("shoot-test-dice") + extra_dice
    n += sum(shooting_modifier(game, key) for key, on in flags.items() if on)
    return {"dice": n}


@procedure("shooting")
def shooting(game, dice, shoot: Target | None, survive: Target | None, clean_shot: bool = False,
             friendly_fire: bool = False, elevation: bool = False, suppressing: bool = False,
             extra_dice: int = 0, survive_extra_dice: int = 0) -> dict:
    """Shoot test (X) against the target's Survive test (X): the target's successes equal or more,
    a miss; the shooter's more, the difference is Potential Damage; with suppressing fire the
    target goes prone instead."""
    n = shooting_dice(game, dice, clean_shot, friendly_fire, elevation, suppressing, extra_dice)["dice"]
    m = game.parameter("survive-test-dice") + survive_extra_dice
    margin = opposed(game, dice, (n, shoot), (m, survive))
    hit = margin > 0
    return {"shoot_dice": max(n, 0), "survive_dice": max(m, 0), "margin": margin, "hit": hit,
            "potential_damage": margin if hit and not suppressing else 0, "prone": hit and suppressing}


@table("shooting-hit",
       title={"ru": "Вероятность попадания: тест Стрельбы против теста Выживания цели (кости Д8; 8 добавляет кость)",
              "en": "Chance to hit: the Shoot test against the target's Survive test (D8 dice; an 8 adds a die)"},
       columns={"survive": {"ru": "Выживание цели", "en": "Target's Survive"},
                "survive_dice": {"ru": "Кости Выживания", "en": "Survive dice"},
                "shoot_dice": {"ru": "Кости Стрельбы", "en": "Shoot dice"},
                **{f"shoot_{t}": {"ru": f"Стрельба {t}+", "en": f"Shoot {t}+"} for t in range(3, 8)}},
       assumes={"ru": "стрелок бросает от 1 до 5 костей на Стрельбу от 3+ до 7+, цель — кости Выживания на "
                      "Выживание от 3+ до 7+; каждая 8 добавляет кость обеим сторонам; попадание, если "
                      "успехов у стрелка больше.",
                "en": "the shooter rolls 1 to 5 dice on Shoot 3+ to 7+, the target its Survive dice on "
                      "Survive 3+ to 7+; each 8 adds a die on both sides; a hit when the shooter has more "
                      "successes."})
def shooting_hit(game) -> list[dict]:
    """P(hit): the shooter rolls 1–5 dice on Shoot 3+ to 7+ against survive-test-dice dice on
    Survive 3+ to 7+; an 8 adds a die on both sides."""
    m = game.parameter("survive-test-dice")
    rows = []
    for survive in range(3, 8):
        for n in range(1, 6):
            row = {"survive": f"{survive}+", "survive_dice": m, "shoot_dice": n}
            for shoot in range(3, 8):
                dist = exact(shooting, game, {"shoot": Target(shoot), "survive": Target(survive),
                                              "extra_dice": n - game.parameter("shoot-test-dice")})
                row[f"shoot_{shoot}"] = dist.probability("hit")
            rows.append(row)
    return rows


# --- 05: fight -------------------------------------------------------------------------------

@procedure("fight-dice")
def fight_dice(game, dice, conditions: list[FightCondition] | None = None, extra_dice: int = 0,
               survive: bool = False) -> dict:
    """The dice of a Fight test (fight-test-dice) or of a Survive test answering a fight
    (survive-test-dice), with the fight modifiers table's lines that hold for the model taking
    the test; they apply to both tests. extra_dice for +1 Кость Command dice."""
    base = game.parameter("survive-test-dice" if survive else "fight-test-dice")
    return {"dice": base + extra_dice + sum(fight_modifier(game, c) for c in dict.fromkeys(conditions or []))}


@procedure("fight", errata=["fight-defender-wins-missing"])
def fight(game, dice, attacker: Target | None, defender: Target | None,
          response: Literal["fight", "survive"] = "fight",
          attacker_conditions: list[FightCondition] | None = None,
          defender_conditions: list[FightCondition] | None = None,
          attacker_extra_dice: int = 0, defender_extra_dice: int = 0) -> dict:
    """A fight: the attacker's Fight test (X) against the target's Fight or Survive test (X).
    Equal, or the Survive test more: a miss; the attacker more: the difference is Potential
    Damage. The target answering with Fight and rolling more is not settled (erratum
    fight-defender-wins-missing): outcome null. Fight "-" (null): the attacker counts zero
    successes; a target with Fight "-" cannot answer with Fight."""
    if response == "fight" and defender is None:
        raise ProcedureError("a model with Fight \"-\" cannot answer with Fight; it answers with Survive")
    n = fight_dice(game, dice, attacker_conditions, attacker_extra_dice)["dice"]
    m = fight_dice(game, dice, defender_conditions, defender_extra_dice, survive=response == "survive")["dice"]
    margin = opposed(game, dice, (n, attacker), (m, defender))
    winner = "attacker" if margin > 0 else "defender" if margin < 0 else None
    if margin > 0:
        outcome = "hit"
    elif margin == 0 or response == "survive":
        outcome = "miss"
    else:
        outcome = None  # erratum fight-defender-wins-missing
    return {"attacker_dice": max(n, 0), "defender_dice": max(m, 0), "margin": margin, "winner": winner,
            "outcome": outcome, "potential_damage": max(margin, 0)}


# --- 06: damage ------------------------------------------------------------------------------

@procedure("damage")
def damage(game, dice, potential: int, armour: int, size: int, ap: int = 0, previous: int = 0) -> dict:
    """Potential Damage applied: AP lowers Armour (not below zero), the Armour left is subtracted
    (Actual Damage), added to the damage already taken and compared with Size by the
    damage-thresholds table: its first row's number unharmed, from its second row's number up
    to Size wounded, more than Size killed."""
    rows = game.tables[DAMAGE_THRESHOLDS].rows
    if len(rows) != len(DAMAGE_STATES):
        raise ProcedureError(f"the {DAMAGE_THRESHOLDS} table has {len(rows)} rows, not unharmed/wounded/killed")
    left = max(0, armour - ap)
    actual = max(0, potential - left)
    total = previous + actual
    if total <= _first_number(rows[0]["damage"]):
        index = 0
    elif _first_number(rows[1]["damage"]) <= total <= size:
        index = 1
    elif total > size:
        index = 2
    else:
        raise ProcedureError(f"{total} damage on Size {size} falls in no row of {DAMAGE_THRESHOLDS}")
    return {"armour": left, "actual_damage": actual, "total_damage": total, "state": DAMAGE_STATES[index],
            "state_name": rows[index]["state"]}


# --- 07: additional rules --------------------------------------------------------------------

@procedure("scatter-fall")
def scatter_fall(game, dice, floor: Literal["whole", "partial", "none"]) -> dict:
    """Whether a scattered model or item falls down from the cube it flies into: no floor, it
    falls; part of the floor, a D8 on scatter-fall-roll; a whole floor, it stays."""
    if floor == "partial":
        return {"falls": dice.shows(game.parameter("scatter-fall-roll"), sides=sides(game))}
    return {"falls": floor == "none"}


@procedure("wall-collision")
def wall_collision(game, dice, survive: Target | None, extra_dice: int = 0) -> dict:
    """A model flung into a wall stays in its cube and rolls Survive (survive-test-dice, X)
    against the wall's wall-test-dice dice on wall-test-target (X), the model's dice first:
    equal or the model more, no harm; the wall more, the model lies down and the difference is
    Potential Damage. margin: the model's successes minus the wall's."""
    margin = opposed(game, dice, (game.parameter("survive-test-dice") + extra_dice, survive),
                     (game.parameter("wall-test-dice"), game.parameter("wall-test-target")))
    return {"margin": margin, "prone": margin < 0, "potential_damage": max(-margin, 0)}


@procedure("falling", errata=["falling-first-cube"])
def falling(game, dice, height: int, survive: Target | None, extra_dice: int = 0) -> dict:
    """A fall from more than falling-min-height cubes: Survive (survive-test-dice, X) against
    gravity's falling-test-dice dice on falling-test-target plus falling-dice-per-cube for each
    cube of height (X), the model's dice first. Either way the model lies down; gravity more,
    the difference is Potential Damage. A lower fall takes no test (the text gives it no
    effect). margin: the model's successes minus gravity's."""
    if height <= game.parameter("falling-min-height"):
        return {"test": False, "gravity_dice": 0, "margin": 0, "prone": False, "potential_damage": 0}
    gravity = game.parameter("falling-test-dice") + game.parameter("falling-dice-per-cube") * height
    margin = opposed(game, dice, (game.parameter("survive-test-dice") + extra_dice, survive),
                     (gravity, game.parameter("falling-test-target")))
    return {"test": True, "gravity_dice": gravity, "margin": margin, "prone": True,
            "potential_damage": max(-margin, 0)}


# --- the data agrees with itself ---------------------------------------------------------------

@consistency("exploding-face-on-the-die")
def exploding_face_on_the_die(game) -> list[str]:
    """The exploding face is the test die's highest face (an 8 on a D8), and the scatter fall
    roll names faces of the same die."""
    problems = []
    if game.parameter("exploding-face") != sides(game):
        problems.append(f"parameter exploding-face is {game.parameter('exploding-face')}, the {TEST_DIE} die "
                        f"has {sides(game)} sides")
    fall = threshold(game.parameter("scatter-fall-roll"))
    if fall is None or fall.high is None or fall.low < 1 or fall.high > sides(game):
        problems.append(f"parameter scatter-fall-roll is {game.parameter('scatter-fall-roll')}, not faces of a "
                        f"D{sides(game)}")
    for key in ("wall-test-target", "falling-test-target"):
        number = threshold(game.parameter(key))
        if number is None or number.low > sides(game):
            problems.append(f"parameter {key} is {game.parameter(key)}, which a D{sides(game)} cannot roll")
    return problems


@consistency("cube-capacity-adds-up")
def cube_capacity_adds_up(game) -> list[str]:
    """«8 Размеров с разных фракций - 4 с одной и 4 с другой»: the total is one faction's
    capacity for each player."""
    per, total, players = (game.parameter("cube-capacity-faction"), game.parameter("cube-capacity-total"),
                           game.parameter("players"))
    return [] if per * players == total else [f"cube-capacity-total is {total}, but {players} factions of "
                                             f"{per} Size make {per * players}"]


@consistency("models-in-a-row")
def models_in_a_row(game) -> list[str]:
    """One +1 Модель die a turn activates a second model: the same two the text allows in a row."""
    row, dice_ = game.parameter("max-models-in-a-row"), game.parameter("plus-model-dice-per-turn")
    return [] if 1 + dice_ == row else [f"max-models-in-a-row is {row}, but {dice_} +1 Модель dice a turn "
                                       f"activate {1 + dice_} models in a row"]


@consistency("prone-fight-bonus-in-table", errata=["prone-stand-and-bonus"])
def prone_fight_bonus_in_table(game) -> list[str]:
    """The prone rule's +1 to a fight attack is the fight modifiers table's prone line."""
    bonus, row = game.parameter("prone-fight-bonus"), fight_modifier(game, "opponent-prone")
    return [] if bonus == row else [f"parameter prone-fight-bonus is {bonus}, the {FIGHT_MODIFIERS} table "
                                    f"says {row}"]


@consistency("command-faces-known")
def command_faces_known(game) -> list[str]:
    """The Command die faces the procedures name are the faces data/dice.yaml lists, and each
    modifier line the procedures read is in its table."""
    kinds = _command_faces(game)
    problems = [f"Command die face {name!r} is not one the procedures know" for name, k in kinds.items()
                if k == "other"]
    for kind, name in (("army", ARMY_SPECIAL), ("die", PLUS_DIE), ("model", PLUS_MODEL)):
        if kind not in kinds.values():
            problems.append(f"no Command die face {name!r}")
    if sum(1 for k in kinds.values() if k == "action") != len(ACTION_FACES):
        problems.append("the Command die does not have one face for each of Move, Shoot and Fight")
    for key in SHOOTING_ROWS:
        try:
            shooting_modifier(game, key)
        except ProcedureError as exc:
            problems.append(str(exc))
    for condition in FIGHT_ROWS:
        try:
            fight_modifier(game, condition)
        except ProcedureError as exc:
            problems.append(str(exc))
    return problems
