"""Rock'n'Roll: the rule procedures of the base game, EXPANSION, the modes and MACV-SOG.

Every number comes from the game's data: game.yaml parameters, the params of data/rules.yaml
and data/actions.yaml, the unit and card records. No unit's attack chance is printed in the
source (the `attack` stat is left out of every unit), so every procedure that rolls an attack
takes the chance as an input (`chance: 4+`); the examples use the chances the text itself
names (4+ in MACV-SOG rule 2, 6+ in the «все 5 / все 6 атакуют» rule and MACV-SOG rule 6).
Where the text is silent, a procedure raises ProcedureError or returns None and names the
erratum (data/errata.yaml) that records the gap.
"""

from __future__ import annotations

from typing import Literal

from generator.checker import ProcedureError, consistency, exact, procedure, table
from generator.model import Unit
from generator.values import StatType, Target, is_unstated, parse_value

Phase = Literal["deployment", "orders"]
Version = Literal["base", "expansion"]
Mode = Literal["base", "expansion", "deathmatch", "100000"]

ATTACK_DIE = "d6"          # the component «Кости Д6»: the attack and check die
LOCALS_DECK = "locals"     # the deck whose side is the neutral Locals
DOUBLE_ATTACK = "double-attack"  # keyword «Две кости»
BLOCKING = "blocking"      # keyword «Заградительный»
DICE_ICON = "dice"         # the card icon of the attack die


# --- reading the data ----------------------------------------------------------------------

def p(game, param_id: str):
    """A game.yaml parameter."""
    return game.parameter(param_id)


def die_sides(game, expression: str = ATTACK_DIE) -> int:
    """The sides of a one-die expression the data writes ('d6': the component id, a table's die)."""
    terms = parse_value(expression, StatType.DICE).terms
    if len(terms) != 1 or terms[0][0] != 1:
        raise ProcedureError(f"'{expression}' is not a single die")
    return terms[0][1]


def attack_sides(game) -> int:
    """The attack die: the component `d6` («Кости Д6»; data/dice.yaml records only the RD die)."""
    if not any(c.id == ATTACK_DIE for c in game.manifest.components):
        raise ProcedureError(f"game.yaml lists no component '{ATTACK_DIE}'")
    return die_sides(game, ATTACK_DIE)


def target_param(game, param_id: str) -> int:
    return parse_value(str(p(game, param_id)), StatType.TARGET).number


def locals_side(game) -> str:
    return game.decks[LOCALS_DECK].side


def sides(game) -> list[str]:
    """The two warring sides: the sides of the unit decks (VPA, Вьетнам), Locals aside."""
    found = [d.side for d in game.decks.values() if d.side and d.side != locals_side(game)]
    return list(dict.fromkeys(found))


def side_check(game, side: str, what: str = "side") -> str:
    if side not in sides(game):
        raise ProcedureError(f"{what} '{side}' is not a side of the game ({', '.join(sides(game))})")
    return side


def two_sided(game, counts: dict, what: str) -> dict:
    known = sides(game)
    unknown = [s for s in counts if s not in known]
    if unknown:
        raise ProcedureError(f"{what}: '{unknown[0]}' is not a side ({', '.join(known)}); games of more than two "
                             "sides are not in the text (erratum toc-missing-5)")
    return {s: counts.get(s, 0) for s in known}


def is_local(game, unit: Unit) -> bool:
    return unit.side == locals_side(game)


def has_keyword(game, unit: Unit, keyword_id: str) -> bool:
    keyword = game.keywords[keyword_id]
    names = {keyword.name, *(a.name for a in getattr(keyword, "aliases", ()) or ())}
    return any(k in names for k in unit.keywords)


def card_of(game, unit: Unit):
    return next((c for c in game.cards.values() if c.unit == unit.id), None)


def other(game, side: str) -> str:
    return next(s for s in sides(game) if s != side)


# --- setup, arrival, exchange, the turn (base rules) ----------------------------------------

@procedure("setup")
def setup(game, dice, version: Version = "base") -> dict:
    """The table at the start: Point cards in a line with room for cards between them, one unit and
    one order in hand; EXPANSION adds the Echo Point in the middle and deals each side its units,
    the top ones to HQ."""
    points = p(game, "point-cards")
    out = {"points": points, "spacing": p(game, "point-card-spacing"),
           "hand": {"units": p(game, "setup-cards-per-deck"), "orders": p(game, "setup-cards-per-deck")},
           "echo": None, "units_dealt": None, "hq": 0, "unit_deck": None}
    if version == "expansion":
        dealt, to_hq = p(game, "expansion-units-dealt"), p(game, "expansion-units-to-hq")
        # «Новую точку «Echo» ... кладём открыто, строго посередине»
        out.update({"points": points + 1, "echo": points // 2 + 1, "units_dealt": dealt, "hq": to_hq,
                    "unit_deck": dealt - to_hq})
    return out


@procedure("first-player")
def first_player(game, dice, order: list[str] | None = None) -> dict:
    """Each side rolls a die; the higher roll chooses who goes first. A tie is not settled by the
    text (no erratum records it): the result is then None."""
    who = [side_check(game, s) for s in (order or sides(game))]
    rolls = {s: dice.d(attack_sides(game)) for s in who}
    best = max(rolls.values())
    top = [s for s in who if rolls[s] == best]
    return {"rolls": rolls, "chooser": top[0] if len(top) == 1 else None}


@procedure("arrival")
def arrival(game, dice, units_left: bool = True) -> dict:
    """Приход: one closed card from the Unit and the Order decks; a player with every unit on the
    Points (nowhere to take a unit from) takes an extra order instead of the unit."""
    n = p(game, "arrival-cards-per-deck")
    return {"units": n, "orders": n} if units_left else {"units": 0, "orders": n + n}


@procedure("exchange")
def exchange(game, dice, phase: Phase, give: Literal["order", "unit"], cards: int = 1) -> dict:
    """Обмен 1:1 with the phase restriction: in deployment only orders for units, in the order
    phase only units for orders."""
    allowed = (phase == "deployment" and give == "order") or (phase == "orders" and give == "unit")
    get = cards * p(game, "exchange-get") // p(game, "exchange-give")
    return {"allowed": allowed, "get": ("unit" if give == "order" else "order") if allowed else None,
            "count": get if allowed else 0}


TurnAction = Literal["deploy", "order", "end-deployment", "exchange-order-for-unit", "exchange-unit-for-order",
                     "buy-unit", "buy-order"]


@procedure("turn")
def turn(game, dice, actions: list[TurnAction]) -> dict:
    """A player's turn of two phases, deployment then orders, played in that order: the first order
    played (or ending deployment) ends the deployment phase for the round. Exchanges and RD
    purchases follow the phase restriction (2 RD = 1 card «в соответствии с ограничениями фаз»)."""
    if p(game, "turn-phases") != 2:
        raise ProcedureError("the turn is read as deployment then orders: turn-phases is "
                             f"{p(game, 'turn-phases')}")
    phase, allowed, phases = "deployment", [], []
    for action in actions:
        if action == "deploy":
            ok = phase == "deployment"
        elif action in ("order", "end-deployment"):
            ok, phase = True, "orders"
        elif action in ("exchange-order-for-unit", "buy-unit"):
            ok = phase == "deployment"
        else:  # exchange-unit-for-order, buy-order
            ok = phase == "orders"
        allowed.append(ok)
        phases.append(phase)
    return {"allowed": allowed, "phases": phases}


@procedure("deploy", errata=["abilities-by-unit-id"])
def deploy(game, dice, point: int, points: int | None = None, unit: Unit | None = None,
           allies_here: list[Unit] | None = None, enemies_here: bool = False) -> dict:
    """Units deploy only on the two outer Points, whether or not enemies stand there. Chi lets
    allies deploy on his Point; veteran Chi may also deploy on allies' Points (16. Units)."""
    points = points or p(game, "point-cards")
    if not 1 <= point <= points:
        raise ProcedureError(f"Point {point} is not one of 1–{points}")
    outer = game.rules["deployment-points"].params["outer-points"]
    if outer != 2:
        raise ProcedureError(f"a line of Points has two ends; the rule names {outer} outer Points")
    ends = {1, points}
    here = allies_here or []
    reason = "outer" if point in ends else None
    if reason is None and any(a.id in ("chi", "chi-veteran") for a in here):
        reason = "chi"
    if reason is None and unit is not None and unit.id == "chi-veteran" and here:
        reason = "chi-veteran"
    return {"allowed": reason is not None, "reason": reason}


# --- units leaving the field ----------------------------------------------------------------

Removal = Literal["destroyed", "exchanged", "rd", "reroll"]


@procedure("unit-removed")
def unit_removed(game, dice, cause: Removal, version: Version = "base") -> dict:
    """Where a unit off the field goes. Base game: destroyed units go to HQ (личный отбой) and can
    be taken again; EXPANSION: they go to the graveyard for the rest of the game. Units discarded
    for an exchange, for RD or for rerolls are not combat losses and go to HQ in both."""
    if cause == "destroyed":
        to = "hq" if version == "base" else "graveyard"
        return {"to": to, "combat_loss": True, "can_return": to == "hq",
                "rd_gain": p(game, "rd-gain") if version == "expansion" else 0}
    return {"to": "hq", "combat_loss": False, "can_return": True, "rd_gain": 0}


@procedure("buy-back")
def buy_back(game, dice, version: Version = "base", orders_in_hand: int = 1, phase: Phase = "deployment") -> dict:
    """A unit destroyed while deploying (e.g. on Bao's mines) is taken back by exchanging an order
    for it in the same deployment phase, and deployed again. Base game only («Такой вариант
    работает только в «базовой версии» игры»)."""
    removed = unit_removed(game, dice, cause="destroyed", version=version)
    trade = exchange(game, dice, phase=phase, give="order")
    ok = removed["can_return"] and trade["allowed"] and orders_in_hand >= p(game, "exchange-give")
    return {"to": removed["to"], "exchange_allowed": trade["allowed"], "redeploy": ok,
            "orders_left": orders_in_hand - p(game, "exchange-give") if ok else orders_in_hand}


@procedure("discard-for-rerolls")
def discard_for_rerolls(game, dice, cards: int = 0, units: int = 0) -> dict:
    """Each card from hand (to the bottom of its deck) or own unit from a Point (to HQ) discarded
    gives one reroll; a unit discarded this way is not a combat loss."""
    per = p(game, "reroll-per-discard")
    if game.actions["reroll"].params.get("rerolls") != per:
        raise ProcedureError("data/actions.yaml reroll and parameter reroll-per-discard disagree")
    return {"rerolls": (cards + units) * per, "combat_losses": 0,
            "units_to_hq": units}


# --- attacks ---------------------------------------------------------------------------------

@procedure("kill-threshold")
def kill_threshold(game, dice, chance: Target, hidden_target: bool = False, hidden_attacker: bool = False) -> dict:
    """The face a kill needs. MACV-SOG: a hidden attacker's chance is the parameter's (6+, rule 6);
    a hidden target is harder to kill by the parameter's step (4+ becomes 5+, rule 2). The text
    does not discuss a hidden unit attacking a hidden one; both rules are applied as written."""
    base = target_param(game, "macv-sog-hidden-attack") if hidden_attacker else chance.number
    step = p(game, "macv-sog-kill-modifier") if hidden_target else 0
    return {"threshold": Target(base + step)}


def is_double(game, unit: Unit | None, double: bool | None) -> bool:
    if double is not None:
        return double
    return unit is not None and has_keyword(game, unit, DOUBLE_ATTACK)


@procedure("attack", errata=["attack-phase"])
def attack(game, dice, chance: Target, unit: Unit | None = None, double: bool | None = None,
           rerolls: int = 0, first_rerolls: int = 0, rock_n_roll: bool = False, rd: int = 0,
           rock_n_roll_rd: int = 0, hidden_target: bool = False, hidden_attacker: bool = False,
           devils_hand: bool = False) -> dict:
    """One attack: a die whose result (face + RD poured) reaches the threshold kills.

    Two dice icons (the unit's «Две кости», or `double`) give up to two rolls, the second only if
    the first failed; after a failed first roll the player keeps it or rerolls it: `first_rerolls`
    of the `rerolls` (one per discarded card or unit) go on the first roll while it fails, the
    rest on the last. A reroll replaces the result. ROCK'N'ROLL is one more free reroll, taken
    last (it cannot itself be rerolled); if it fails the attacker dies. RD poured before the attack
    counts for both rolls, every reroll and ROCK'N'ROLL; more may be poured into ROCK'N'ROLL
    alone. Locals use no RD, rerolls or ROCK'N'ROLL; after Devil's hand the side has no rerolls.
    RD: a failed final roll gives the side +1, a lost unit +1 (a double attack's final roll is
    its second). ROCK'N'ROLL is used in any attack (erratum attack-phase).
    `two_ones`: both standing results of a double attack are 1 (Bao «может взорваться, выбросив
    2 единицы»); whether a reroll of the second 1 still counts is not in the text (Bao's card is
    not printed: units.yaml bao, erratum text-truncated).
    """
    sides_ = attack_sides(game)
    if min(rerolls, first_rerolls, rd, rock_n_roll_rd) < 0:
        raise ProcedureError("rerolls and RD cannot be negative")
    if rd + rock_n_roll_rd > p(game, "rd-max"):
        raise ProcedureError(f"at most {p(game, 'rd-max')} RD can be held, so poured")
    if rock_n_roll_rd and not rock_n_roll:
        raise ProcedureError("RD for ROCK'N'ROLL without ROCK'N'ROLL")
    if unit is not None and is_local(game, unit) and (rerolls or rock_n_roll or rd or rock_n_roll_rd):
        raise ProcedureError("Locals use no RD, rerolls or ROCK'N'ROLL (rule locals-no-rd)")
    if devils_hand and (rerolls or rock_n_roll):
        raise ProcedureError("after Devil's hand rerolls are not available to the side for the rest of the game")
    double = is_double(game, unit, double)
    count = p(game, "double-attack-rolls") if double else 1
    if first_rerolls > rerolls:
        raise ProcedureError("first_rerolls is part of rerolls")
    need = kill_threshold(game, dice, chance=chance, hidden_target=hidden_target,
                          hidden_attacker=hidden_attacker)["threshold"].number

    rolls: list[int] = []
    kept: list[int] = []
    used = 0
    killed = False
    for i in range(count):
        last = i == count - 1
        budget = rerolls - used if last else min(first_rerolls, rerolls - used)
        face = dice.d(sides_)
        rolls.append(face)
        while face + rd < need and budget > 0:
            face = dice.d(sides_)
            rolls.append(face)
            used += 1
            budget -= 1
        kept.append(face)
        if face + rd >= need:
            killed = True
            break
    rnr_used = dies = False
    if not killed and rock_n_roll:
        rnr_used = True
        face = dice.d(sides_)
        rolls.append(face)
        kept[-1] = face
        killed = face + rd + rock_n_roll_rd >= need
        dies = not killed
    gain = p(game, "rd-gain")
    return {"threshold": Target(need), "double": double, "rolls": rolls, "kept": kept, "killed": killed,
            "rerolls_used": used, "rock_n_roll_used": rnr_used, "attacker_dies": dies,
            "two_ones": double and len(kept) == 2 and kept == [1, 1],
            "rd_spent": rd + (rock_n_roll_rd if rnr_used else 0),
            "rd_gain": (0 if killed else gain) + (gain if dies else 0),
            "enemy_rd_gain": gain if killed else 0}


@procedure("ability-check")
def ability_check(game, dice, target: Target, rerolls: int = 0, rd: int = 0) -> dict:
    """An ability's check (Doc's save): a die reaching the target, rerolls and RD as for attacks;
    ROCK'N'ROLL is for attacks only. The target of any check is not printed: it is an input."""
    sides_ = attack_sides(game)
    rolls = [dice.d(sides_)]
    while rolls[-1] + rd < target.number and len(rolls) <= rerolls:
        rolls.append(dice.d(sides_))
    return {"rolls": rolls, "success": rolls[-1] + rd >= target.number}


@procedure("attack-reach")
def attack_reach(game, dice, attacker: Unit, same_point: bool) -> dict:
    """By order a unit attacks only an enemy on its own Point, save where its ability reaches
    farther: «Min и Boomer могут достать гораздо дальше». Veteran Min's card is not printed
    (erratum text-truncated)."""
    if attacker.id == "min-veteran":
        raise ProcedureError("veteran Min's card is not printed (erratum text-truncated)")
    far = attacker.id in ("min", "boomer")
    return {"allowed": same_point or far, "reason": "same point" if same_point else ("ability" if far else None)}


@procedure("order-addressees")
def order_addressees(game, dice, chances: list[Target]) -> dict:
    """«все 5 атакуют» and «все 6 атакуют» address every unit of the side whose chance is written
    6+ (rule all-n-attack, as written: erratum all-5-attack-six)."""
    want = parse_value(str(game.rules["all-n-attack"].params["chance"]), StatType.TARGET).number
    return {"addressed": [c.number == want for c in chances]}


# --- ROCK'N'ROLL's table -----------------------------------------------------------------------

COLUMNS = {
    "chance": {"ru": "Шанс атаки", "en": "Attack chance"},
    "rd": {"ru": "Влито RD", "en": "RD poured"},
    "plain": {"ru": "Один бросок", "en": "One roll"},
    "reroll": {"ru": "+ 1 переброс", "en": "+ 1 reroll"},
    "rock_n_roll": {"ru": "+ ROCK’N’ROLL", "en": "+ ROCK'N'ROLL"},
    "rock_n_roll_death": {"ru": "Гибель от ROCK’N’ROLL", "en": "Killed by ROCK'N'ROLL"},
    "double": {"ru": "Две кости", "en": "Two dice"},
    "double_reroll": {"ru": "Две кости + 1 переброс", "en": "Two dice + 1 reroll"},
    "double_rock_n_roll": {"ru": "Две кости + ROCK’N’ROLL", "en": "Two dice + ROCK'N'ROLL"},
}
RD_SHOWN = range(0, 4)  # the table's layout: RD 0–3 poured


@table("kill-chance", title={"ru": "Шанс уничтожить цель по шансу атаки (на шестигранной кости Д6)",
                           "en": "Kill chance by attack chance (on a six-sided die, D6)"},
       columns=COLUMNS,
       assumes={"ru": "для каждого шанса атаки от 2+ до 6+ и от 0 до 3 влитых RD: один бросок, с одним "
                      "перебросом, с ROCK’N’ROLL (и шанс, что он убьёт атакующего), две кости и их варианты. "
                      "Шанс атаки ни одного юнита в тексте правил не указан.",
                "en": "for each attack chance 2+ to 6+ and 0 to 3 RD poured: one roll, with one reroll, with "
                      "ROCK'N'ROLL (and the chance it kills the attacker), two dice and their variants. No "
                      "unit's attack chance is given in the rules text."})
def kill_chance(game) -> list[dict]:
    """P(kill) for each attack chance 2+..6+ and RD 0–3 poured: one roll, with one reroll, with
    ROCK'N'ROLL (and the chance it kills the attacker), a double attack and its variants."""
    variants = {"plain": {}, "reroll": {"rerolls": 1}, "rock_n_roll": {"rock_n_roll": True},
                "double": {"double": True}, "double_reroll": {"double": True, "rerolls": 1},
                "double_rock_n_roll": {"double": True, "rock_n_roll": True}}
    rows = []
    for need in range(2, attack_sides(game) + 1):
        for rd in RD_SHOWN:
            if rd > p(game, "rd-max"):
                continue
            row = {"chance": Target(need), "rd": rd}
            for name, extra in variants.items():
                dist = exact(attack, game, {"chance": Target(need), "rd": rd, **extra})
                row[name] = dist.probability("killed")
                if name == "rock_n_roll":
                    row["rock_n_roll_death"] = dist.probability("attacker_dies")
            rows.append(row)
    return rows


# --- timing: abilities reacting to events ------------------------------------------------------

@procedure("ability-order", errata=["simultaneous-abilities-who-orders"])
def ability_order(game, dice, active: str, triggered: list[Unit], order: list[Unit] | None = None) -> dict:
    """Simultaneous abilities: the player whose turn it is orders them (Тайминг); the Locals'
    abilities come after the sides' (locals-priority), their order too set by the active side
    (locals-provocation). Each then resolves fully before the next."""
    side_check(game, active, "active")
    ranking = [u.id for u in (order or [])]
    groups = ([u for u in triggered if not is_local(game, u)], [u for u in triggered if is_local(game, u)])
    result = []
    for group in groups:
        if len(group) > 1:
            missing = [u.id for u in group if u.id not in ranking]
            if missing:
                raise ProcedureError(f"{len(group)} abilities trigger at once: the active player ({active}) "
                                     f"orders them; give 'order' with {', '.join(missing)}")
            group = sorted(group, key=lambda u: ranking.index(u.id))
        result.extend(group)
    return {"order": [u.id for u in result], "chosen_by": active if len(triggered) > 1 else None}


class _Field:
    """The units of a reaction chain: where each stands ('here', 'adjacent') and whether alive."""

    def __init__(self, game, units: dict[str, Unit], where: dict[str, str]):
        self.game, self.units, self.where = game, units, where
        self.alive = {u: True for u in units}

    def side(self, uid: str) -> str:
        return self.units[uid].side

    def local(self, uid: str) -> bool:
        return is_local(self.game, self.units[uid])

    def enemies(self, a: str, b: str) -> bool:
        return not self.local(a) and not self.local(b) and self.side(a) != self.side(b)

    def allies(self, a: str, b: str) -> bool:
        return a != b and not self.local(a) and self.side(a) == self.side(b)

    def at(self, where: str) -> list[str]:
        return [u for u in self.units if self.where[u] == where and self.alive[u]]


REACTS_TO_ENTRY = ("mai", "mai-veteran", "rong")   # 16. Units (Mai); zulu-rong (Rong)
REACTS_TO_POINT_ATTACK = ("johny-veteran",)       # the timing example
REACTS_TO_ALLY_DEATH = ("doc",)                   # the timing example


def _triggers(f: _Field, events: list[tuple]) -> list[tuple[str, tuple]]:
    """The abilities these events trigger, one per unit (the first event that triggers it)."""
    found: dict[str, tuple] = {}
    for event in events:
        kind, subject, where = event[0], event[1], event[2]
        for uid in f.at(where):
            if uid == subject or uid in found:
                continue
            unit = f.units[uid]
            if kind == "enters" and (
                    (uid in ("mai", "mai-veteran") and f.enemies(uid, subject))
                    or (has_keyword(f.game, unit, BLOCKING) and f.enemies(uid, subject))
                    or (uid == "rong" and not f.local(subject))):
                found[uid] = event
            elif kind == "attacked" and uid in REACTS_TO_POINT_ATTACK and f.enemies(uid, subject):
                found[uid] = event
            elif kind == "dies" and uid in REACTS_TO_ALLY_DEATH and f.allies(uid, subject):
                found[uid] = event
    return list(found.items())


@procedure("reactions", errata=["rong-attacks-either-side", "abilities-by-unit-id", "simultaneous-abilities-who-orders", "timing-example-mai-johny"])
def reactions(game, dice, active: str, point: list[Unit], enters: Unit,
              chances: dict[str, Target] | None = None, checks: dict[str, Target] | None = None,
              order: list[Unit] | None = None, choices: dict[str, str] | None = None,
              adjacent: list[Unit] | None = None, rerolls: dict[str, int] | None = None,
              rock_n_roll: list[Unit] | None = None) -> dict:
    """A unit enters a Point and the abilities it sets off are played out one at a time (Тайминг).

    Each ability resolves fully; the events it caused (an attack on a Point, a death) then trigger
    the next abilities, which the active player orders (sides' before the Locals'). Decisions
    about a unit (Johny: move or attack) are its own side's. Abilities, as far as the text gives
    them: veteran Mai attacks the entering enemy, then moves to the adjacent Point and attacks a
    unit there if there is one (the example names none: erratum timing-example-mai-johny);
    base Mai may stay, or leave and attack an enemy there; a blocking unit (Zulu) and Rong attack
    an enemy entering their Point; veteran Johny, when an enemy attacks his Point, moves away or
    attacks that enemy where he stands, even if it has left (as the example says: erratum
    timing-example-mai-johny); Doc saves an allied unit dying on his Point on a successful check.
    Attack chances and check targets are not printed: `chances`, `checks` give them.
    When an ability triggers new ones while others still wait, the text does not say which go
    first: that raises an error.
    """
    side_check(game, active, "active")
    chances, checks, choices, rerolls = chances or {}, checks or {}, choices or {}, rerolls or {}
    rnr = {u.id for u in (rock_n_roll or [])}
    units = {u.id: u for u in [*point, *(adjacent or []), enters]}
    where = {u.id: "here" for u in point}
    where.update({u.id: "adjacent" for u in adjacent or []})
    where[enters.id] = "here"
    f = _Field(game, units, where)
    log: list[str] = []
    resolved: list[str] = []
    ordered_by: list[str] = []
    decided_by: dict[str, str] = {}
    attacks = 0

    def strike(attacker: str, target: str) -> list[tuple]:
        nonlocal attacks
        if attacker not in chances:
            raise ProcedureError(f"the attack chance of {attacker} is not printed: give it in 'chances'")
        result = attack(game, dice, chance=chances[attacker], unit=f.units[attacker],
                        rerolls=rerolls.get(attacker, 0), rock_n_roll=attacker in rnr)
        attacks += 1
        first = "killed" if result["killed"] and not result["rock_n_roll_used"] else "missed"
        log.append(f"{attacker} attacks {target}: {first}")
        events: list[tuple] = [("attacked", attacker, f.where[target])]
        if result["rock_n_roll_used"]:
            log.append(f"{attacker}: rock-n-roll " + ("killed" if result["killed"] else f"missed, {attacker} dies"))
        if result["killed"]:
            f.alive[target] = False
            events.append(("dies", target, f.where[target]))
        if result["attacker_dies"]:
            f.alive[attacker] = False
            events.append(("dies", attacker, f.where[attacker]))
        return events

    def choose(uid: str, options: tuple[str, ...]) -> str:
        pick = choices.get(uid)
        if pick not in options:
            raise ProcedureError(f"{uid}'s player chooses one of {', '.join(options)}: give it in 'choices'")
        decided_by[uid] = f.side(uid)
        return pick

    def resolve(uid: str, event: tuple) -> list[tuple] | None:
        """Play one ability fully; the events it caused, or None when it finds nothing to act on."""
        kind, subject = event[0], event[1]
        out: list[tuple] = []
        if kind == "enters":
            if not f.alive[subject]:
                log.append(f"{uid}: {subject} is dead, nothing to attack")
                return None
            if uid == "mai":
                if choose(uid, ("stay", "leave")) == "stay":
                    return out
                out += _move(uid)
                enemies = [u for u in f.at("adjacent") if f.enemies(uid, u)]
                if len(enemies) != 1:
                    raise ProcedureError("Mai leaving must attack one enemy at the Point she reaches; "
                                         f"there are {len(enemies)}")
                return out + strike(uid, enemies[0])
            out += strike(uid, subject)
            if uid == "mai-veteran" and f.alive[uid]:
                out += _move(uid)
                there = [u for u in f.at("adjacent") if u != uid]
                if there:
                    target = choices.get(uid, there[0] if len(there) == 1 else None)
                    if target not in there:
                        raise ProcedureError("veteran Mai attacks a chosen unit at the adjacent Point: "
                                             "give it in 'choices'")
                    out += strike(uid, target)
            return out
        if kind == "attacked":
            if choose(uid, ("move", "attack")) == "move":
                return _move(uid)
            if not f.alive[subject]:
                log.append(f"{uid}: {subject} is dead, nothing to attack")
                return None
            return strike(uid, subject)
        # an ally died on the Point: Doc's check
        if uid not in checks:
            raise ProcedureError(f"the check target of {uid} is not printed: give it in 'checks'")
        if f.alive[subject]:
            return None
        if ability_check(game, dice, target=checks[uid], rerolls=rerolls.get(uid, 0))["success"]:
            f.alive[subject] = True
            log.append(f"{uid} saves {subject}")
        else:
            log.append(f"{uid} fails to save {subject}")
        return out

    def _move(uid: str) -> list[tuple]:
        f.where[uid] = "adjacent"
        log.append(f"{uid} moves to the adjacent Point")
        return []

    def ordered(found: list[tuple[str, tuple]]) -> list[tuple[str, tuple]]:
        if not found:
            return []
        by_id = dict(found)
        got = ability_order(game, dice, active=active, triggered=[units[u] for u, _ in found], order=order)
        if got["chosen_by"]:
            ordered_by.append(got["chosen_by"])
        return [(u, by_id[u]) for u in got["order"]]

    queue = ordered(_triggers(f, [("enters", enters.id, "here")]))
    while queue:
        uid, event = queue.pop(0)
        if not f.alive[uid]:
            continue
        events = resolve(uid, event)
        if events is None:
            continue
        resolved.append(uid)
        new = ordered(_triggers(f, events))
        if new and queue:
            raise ProcedureError(f"{uid}'s ability triggers {', '.join(u for u, _ in new)} while "
                                 f"{', '.join(u for u, _ in queue)} still wait: the text does not say which go first")
        queue = new + queue
    return {"resolved": resolved, "log": log, "attacks": attacks, "ordered_by": ordered_by,
            "decided_by": decided_by, "where": dict(f.where),
            "dead": [u for u in units if not f.alive[u]]}


@procedure("mai-ability", errata=["abilities-by-unit-id", "mai-veteran-choice"])
def mai_ability(game, dice, unit: Unit, leaves: bool = True, adjacent: list[Unit] | None = None) -> dict:
    """Mai when an enemy enters her Point. Base: she may stay, or leave for the adjacent Point and
    must attack one of the enemies there. Veteran: she first attacks the entering enemy, then must
    go and attack a chosen unit there; if only an ally is there, she attacks the ally."""
    there = adjacent or []
    if unit.id == "mai":
        if not leaves:
            return {"attacks_entrant": False, "moves": False, "must_attack": False, "targets": [],
                    "attacks_ally": False}
        enemies = [u for u in there if not is_local(game, u) and u.side != unit.side]
        if not enemies:
            raise ProcedureError("the text does not say whether Mai may leave for a Point with no enemy")
        return {"attacks_entrant": False, "moves": True, "must_attack": True, "targets": [u.id for u in enemies],
                "attacks_ally": False}
    if unit.id != "mai-veteran":
        raise ProcedureError(f"{unit.id} is not Mai")
    only_allies = bool(there) and all(u.side == unit.side for u in there)
    return {"attacks_entrant": True, "moves": True, "must_attack": bool(there), "targets": [u.id for u in there],
            "attacks_ally": only_allies}


# --- the order deck --------------------------------------------------------------------------

@procedure("order-deck")
def order_deck(game, dice, deck: int, ran_out: bool = False, extra_orders: int = 0) -> dict:
    """The order deck is rebuilt (orders from hands + discard, shuffled) after the round in which it
    ran out, or at arrival when it holds fewer cards than the sides must be dealt."""
    needed = len(sides(game)) * p(game, "arrival-cards-per-deck") + extra_orders
    when = "after-round" if ran_out else ("arrival" if deck < needed else None)
    return {"needed": needed, "rebuild": when is not None, "when": when,
            "from": ["hands", "discard"] if when else []}


# --- round results and victory -------------------------------------------------------------

@procedure("point-control")
def point_control(game, dice, units: dict[str, int]) -> dict:
    """A Point is held by the side with more units on it; equal numbers: nobody; one unit holds a
    Point empty of enemies. Locals hold no Points (locals-no-hold): count only the sides' units."""
    counts = two_sided(game, units, "units")
    a, b = sides(game)
    if counts[a] == counts[b]:
        return {"controller": None}
    leader, trailer = (a, b) if counts[a] > counts[b] else (b, a)
    if counts[trailer] == 0 and counts[leader] < game.rules["point-control"].params["empty-point-units"]:
        return {"controller": None}
    return {"controller": leader}


@procedure("round-winner")
def round_winner(game, dice, points: list[dict[str, int]]) -> dict:
    """The side holding more Points at the end of the round wins it."""
    held = {s: 0 for s in sides(game)}
    for units in points:
        who = point_control(game, dice, units=units)["controller"]
        if who:
            held[who] += 1
    a, b = sides(game)
    winner = None if held[a] == held[b] else (a if held[a] > held[b] else b)
    return {"held": held, "winner": winner}


@procedure("catch-up")
def catch_up(game, dice, winner_score: int, loser_score: int) -> dict:
    """Control points for a round win: 1; ×2 for a side behind by a factor of 2 or more, but not
    at 0 control points."""
    factor, mult = p(game, "catch-up-factor"), p(game, "catch-up-multiplier")
    bonus = winner_score != p(game, "catch-up-excluded-score") and loser_score >= factor * winner_score
    base = p(game, "round-win-control-points")
    return {"bonus": bonus, "award": base * mult if bonus else base}


@procedure("next-order")
def next_order(game, dice, order: list[str], winner: str | None,
               mode: Literal["standard", "deathmatch"] = "standard") -> dict:
    """The round's loser goes second next round; a tie keeps the order; in Deathmatch the order
    never changes."""
    for s in order:
        side_check(game, s)
    if winner is None or mode == "deathmatch":
        return {"order": list(order)}
    return {"order": [winner, other(game, winner)]}


@procedure("round-end")
def round_end(game, dice, points: list[dict[str, int]], score: dict[str, int], order: list[str],
              mode: Literal["standard", "deathmatch"] = "standard") -> dict:
    """The end of a round: Points held, the round's winner, its control points (catch-up bonus),
    the next order, and the war: 5 control points win; at 4:4 the next round's winner wins
    without a counter being handed (erratum flag-for-counter). Deathmatch keeps no control points."""
    score = two_sided(game, score, "score")
    won = round_winner(game, dice, points=points)
    winner = won["winner"]
    nxt = next_order(game, dice, order=order, winner=winner, mode=mode)["order"]
    after, award, war = dict(score), 0, None
    four_four = all(v == p(game, "tie-break-control-points") for v in score.values())
    if winner and mode == "standard":
        if four_four:
            war = winner
        else:
            award = catch_up(game, dice, winner_score=score[winner], loser_score=score[other(game, winner)])["award"]
            after[winner] += award
            if after[winner] >= p(game, "victory-control-points"):
                war = winner
    return {"held": won["held"], "winner": winner, "award": award, "score": after, "order": nxt,
            "four_four": four_four, "war_winner": war}


@procedure("lose-control-points")
def lose_control_points(game, dice, score: int, lost: int,
                        cause: Literal["special-operation", "round-lost", "unit-lost", "other"]) -> dict:
    """Control points only accumulate: they are lost only to an enemy special operation
    (EXPANSION 2; how many is on the card, not printed: an input)."""
    return {"score": max(0, score - lost) if cause == "special-operation" else score}


@procedure("annihilation")
def annihilation(game, dice, units_left: dict[str, int], version: Version = "expansion") -> dict:
    """EXPANSION: destroying every enemy unit also wins the war (in the base game destroyed units
    return to HQ)."""
    left = two_sided(game, units_left, "units_left")
    if version == "base":
        return {"war_winner": None}
    out = [s for s, n in left.items() if n == 0]
    return {"war_winner": other(game, out[0]) if len(out) == 1 else None}


# --- EXPANSION: losses, RD and the rates ---------------------------------------------------

@procedure("no-unit-penalty")
def no_unit_penalty(game, dice, units_on_field: int, mode: Mode = "expansion") -> dict:
    """At the end of a round a side with no unit on the field loses units of its choice from HQ or
    deck: 1 in EXPANSION (a combat loss), 2 in Deathmatch; no penalty in 100 000 or the base game.
    Deathmatch does not say whether its loss is a combat loss (None)."""
    if mode in ("base", "100000") or units_on_field >= p(game, "min-units-on-field"):
        return {"lost": 0, "combat_loss": False, "rd_gain": 0, "bonus_orders": 0}
    if mode == "deathmatch":
        return {"lost": p(game, "deathmatch-no-unit-penalty"), "combat_loss": None, "rd_gain": None,
                "bonus_orders": None}
    lost = p(game, "no-unit-penalty")
    return {"lost": lost, "combat_loss": True, "rd_gain": lost * p(game, "rd-gain"), "bonus_orders": 0}


Price = Literal["current-action", "goal-change", "capture", "card-swap", "card"]


@procedure("rd-price")
def rd_price(game, dice, what: Price) -> dict:
    """What things cost: in cards, and in RD by the rates of 9.5 (Current Action and Goal Change 4,
    a capture attempt 2, a new card 2; swapping a card = that card + 1 RD). A capture has no card
    price (its section is missing: erratum toc-missing-9-3)."""
    price = {
        "current-action": (p(game, "current-action-cards"), p(game, "current-action-rd")),
        "goal-change": (p(game, "goal-change-cards"), p(game, "goal-change-rd")),
        "capture": (None, p(game, "capture-rd")),
        "card-swap": (1, p(game, "card-swap-rd")),
        "card": (None, p(game, "rd-card-price")),
    }[what]
    cards, rd = price
    # a discarded card is worth rd-per-discarded-card RD
    total = rd + (cards or 0) * p(game, "rd-per-discarded-card") if what == "card-swap" else rd
    return {"cards": cards, "rd": rd, "total_rd": total}


RD_GAIN = {"failed-roll": "rd-gain", "unit-lost": "rd-gain", "discard-card": "rd-per-discarded-card"}
RD_SPEND = {"buy-card": "rd-card-price", "current-action": "current-action-rd", "goal-change": "goal-change-rd",
            "capture": "capture-rd", "card-swap": "card-swap-rd"}


@procedure("rd")
def rd_track(game, dice, events: list[str], start: int | None = None) -> dict:
    """A side's RD: starts at 0, at most 6. +1 per failed final roll and per unit lost, +1 per card
    discarded; spent by pouring into a roll ('pour 2'; the poured RD is gone after the roll) or at
    the rates (buy-card, current-action, goal-change, capture, card-swap). Gains beyond the
    maximum are lost; spending more than is held is not possible."""
    value = p(game, "rd-start") if start is None else start
    top = p(game, "rd-max")
    history, over = [], 0
    for event in events:
        name, _, amount = event.strip().partition(" ")
        times = int(amount) if amount else 1
        if name in RD_GAIN:
            gained = times * p(game, RD_GAIN[name])
            over += max(0, value + gained - top)
            value = min(top, value + gained)
        elif name == "pour" or name in RD_SPEND:
            cost = times if name == "pour" else times * p(game, RD_SPEND[name])
            if cost > value:
                raise ProcedureError(f"{event}: {cost} RD needed, {value} held")
            value -= cost
        else:
            raise ProcedureError(f"unknown RD event '{event}' (gains: {', '.join(RD_GAIN)}; spending: pour N, "
                                 f"{', '.join(RD_SPEND)})")
        history.append(value)
    return {"rd": value, "history": history, "over_max": over}


@procedure("rd-buy")
def rd_buy(game, dice, phase: Phase, card: Literal["unit", "order"]) -> dict:
    """2 RD buy a unit in the deployment phase or an order in the order phase, nothing else."""
    ok = (phase == "deployment" and card == "unit") or (phase == "orders" and card == "order")
    return {"allowed": ok, "rd": p(game, "rd-card-price") if ok else 0}


@procedure("goal-change")
def goal_change(game, dice, points: list[str], swap: list[int]) -> dict:
    """Goal Change: two Points (1-based places in the line) change places; the units stay where they
    were and so stand on other Points."""
    if len(swap) != 2 or not all(1 <= i <= len(points) for i in swap):
        raise ProcedureError("swap names two places in the line")
    line = list(points)
    i, j = swap[0] - 1, swap[1] - 1
    line[i], line[j] = line[j], line[i]
    return {"points": line, "cards": p(game, "goal-change-cards"), "rd": p(game, "goal-change-rd")}


@procedure("current-action")
def current_action(game, dice, pay: Literal["cards", "rd"], amount: int,
                   do: Literal["attack", "move"], units: int = 1, mode: Mode = "expansion") -> dict:
    """Current Action: discard 2 cards (from hand, Points or both) or pay 4 RD to attack with one
    own unit or move one own unit to the adjacent Point. Not in mode 100 000."""
    need = p(game, "current-action-cards") if pay == "cards" else p(game, "current-action-rd")
    allowed = option_available(game, dice, mode=mode, option="current-action")["available"]
    return {"allowed": allowed and amount >= need and units == 1, "price": need, "action": do}


@procedure("devils-hand")
def devils_hand(game, dice, option: int, phase: Phase | None = None, used: bool = False) -> dict:
    """Once per game, one of three deals: 2 cards under the phase restriction; 1 dead unit back to
    hand in the deployment phase; interrupt the opponent to play 1 order. Once a deal is made the side
    has no rerolls for the rest of the game: `rerolls_after` is False after a deal and stays False
    when the deal was already used; only a deal refused (option 2 outside deployment) keeps them."""
    if not 1 <= option <= p(game, "devils-hand-options"):
        raise ProcedureError(f"Devil's hand has options 1–{p(game, 'devils-hand-options')}")
    if used and p(game, "devils-hand-uses") <= 1:
        return {"allowed": False, "units": 0, "orders": 0, "rerolls_after": False}
    units = orders = 0
    if option == 1:
        if phase is None:
            raise ProcedureError("option 1 follows the phase restriction: give the phase")
        n = p(game, "devils-hand-cards")
        units, orders = (n, 0) if phase == "deployment" else (0, n)
        ok = True
    elif option == 2:
        ok = phase == "deployment"
        units = p(game, "devils-hand-units") if ok else 0
    else:
        ok, orders = True, p(game, "devils-hand-orders")
    return {"allowed": ok, "units": units, "orders": orders, "rerolls_after": not ok}


@procedure("echo-effect")
def echo_effect(game, dice, mark: Literal["black", "red"], held_during_round: bool = False,
                held_at_round_end: bool = False) -> dict:
    """The Echo Point's effects (8. EXPANSION setup): black ones work while a side holds Echo
    during the round, red ones each time a side holds it at the end of a round."""
    return {"works": held_during_round if mark == "black" else held_at_round_end}


@procedure("special-operation-card")
def special_operation_card(game, dice, at_round_end: bool, opponent_lost_round: bool, cards_left: int) -> dict:
    """A completed operation's card goes back to the operations deck; when it is scored at the end
    of a round the opponent lost and no operation cards are left, the round's loser may take it."""
    loser_may_take = at_round_end and opponent_lost_round and cards_left == 0
    return {"loser_may_take": loser_may_take, "to": "loser" if loser_may_take else "deck"}


# --- modes and options -------------------------------------------------------------------

Option = Literal["current-action", "capture", "goal-change", "devils-hand", "special-operations", "no-unit-penalty"]


@procedure("option-available")
def option_available(game, dice, mode: Mode, option: Option) -> dict:
    """Mode 100 000 switches off Current action, capture, Goal Change, Devil's Hand, special
    operations and the penalty for no units on the field; EXPANSION has them all; the base game
    none of them."""
    if mode == "base":
        return {"available": False}
    if mode == "100000":
        return {"available": False}
    if mode == "deathmatch" and option != "no-unit-penalty":
        return {"available": None}  # Deathmatch is «для любой версии игры»: as the version played
    return {"available": True}


@procedure("field-limit")
def field_limit(game, dice, mode: Mode, side_units: int = 0, local_units: int = 0,
                contingent_plus: int | None = None) -> dict:
    """How many units may be on the field. 100 000: up to 6 of each side and 1 Local. Otherwise the
    limit of 7 «на столе» is known only from Контингент+, which lets the sides raise it by
    agreement; its scope is not stated (erratum seven-unit-limit-undefined)."""
    if mode == "100000":
        per_side, local_max = p(game, "mode-100000-units-per-side"), p(game, "mode-100000-locals")
        return {"per_side": per_side, "locals": local_max, "on_table": None,
                "allowed": side_units <= per_side and local_units <= local_max}
    limit = p(game, "unit-limit-on-table")
    if contingent_plus is not None:
        if contingent_plus < limit:
            raise ProcedureError(f"Контингент+ only raises the limit of {limit}")
        limit = contingent_plus
    allowed = True if side_units + local_units <= limit else None  # beyond: depends on the unstated scope
    return {"per_side": None, "locals": None, "on_table": limit, "allowed": allowed}


@procedure("macv-sog-switch")
def macv_sog_switch(game, dice, phase: Phase, close: int = 0, reveal: int = 0) -> dict:
    """MACV-SOG: open units may be closed in the order phase, 1 per turn; own closed units may be
    opened in any number in the order phase."""
    ok_close = close == 0 or (phase == "orders" and close <= p(game, "macv-sog-closes-per-turn"))
    ok_reveal = reveal == 0 or phase == "orders"
    return {"allowed": ok_close and ok_reveal}


@procedure("macv-sog-entry")
def macv_sog_entry(game, dice, entering: int, hidden: int) -> dict:
    """MACV-SOG rule 4: each unit entering a Point opens 1 hidden enemy unit there (the entering
    player chooses which); an opened unit's ability fires at once if it applies."""
    revealed = min(hidden, entering * p(game, "macv-sog-reveal-ratio"))
    return {"revealed": revealed, "still_hidden": hidden - revealed}


HIDDEN_ATTACK_ORDERS = ("unit-attacks", "two-units-attack", "slaughter")  # cards named by MACV-SOG rule 6


@procedure("hidden-attack")
def hidden_attack(game, dice, via: str) -> dict:
    """MACV-SOG rule 6: a hidden unit attacks only by the orders «Юнит атакует», «2 юнита атакуют»,
    «Бойня» or by Current Action, at the parameter's chance (6+); it has no abilities (rule 1)."""
    if via not in game.cards and via not in game.actions and via != "ability":
        raise ProcedureError(f"'{via}' is neither an order card, an action nor 'ability'")
    ok = via in HIDDEN_ATTACK_ORDERS or via == "current-action"
    return {"allowed": ok, "chance": Target(target_param(game, "macv-sog-hidden-attack")) if ok else None}


# --- the data agrees with itself ---------------------------------------------------------------

@consistency("rule-params-match")
def rule_params_match(game) -> list[str]:
    """Numbers repeated in data/rules.yaml and data/actions.yaml agree with game.yaml."""
    r, a = game.rules, game.actions
    pairs = [
        (r["setup-base"].params.get("point-cards"), "point-cards"),
        (r["setup-base"].params.get("point-card-spacing"), "point-card-spacing"),
        (r["setup-base"].params.get("units-in-hand"), "setup-cards-per-deck"),
        (r["setup-base"].params.get("orders-in-hand"), "setup-cards-per-deck"),
        (r["arrival"].params.get("units"), "arrival-cards-per-deck"),
        (r["arrival"].params.get("orders"), "arrival-cards-per-deck"),
        (r["exchange"].params.get("give"), "exchange-give"),
        (r["exchange"].params.get("get"), "exchange-get"),
        (r["point-control"].params.get("empty-point-units"), "empty-point-control-units"),
        (r["round-win"].params.get("control-points"), "round-win-control-points"),
        (r["catch-up"].params.get("factor"), "catch-up-factor"),
        (r["catch-up"].params.get("multiplier"), "catch-up-multiplier"),
        (r["catch-up"].params.get("excluded-score"), "catch-up-excluded-score"),
        (r["four-four"].params.get("control-points"), "tie-break-control-points"),
        (r["victory"].params.get("control-points"), "victory-control-points"),
        (r["setup-expansion"].params.get("units-dealt"), "expansion-units-dealt"),
        (r["setup-expansion"].params.get("units-to-hq"), "expansion-units-to-hq"),
        (r["no-unit-penalty"].params.get("min-units"), "min-units-on-field"),
        (r["no-unit-penalty"].params.get("lost-units"), "no-unit-penalty"),
        (r["rd-pool"].params.get("start"), "rd-start"),
        (r["rd-pool"].params.get("max"), "rd-max"),
        (r["rd-pool"].params.get("gain"), "rd-gain"),
        (r["rate-discard-card"].params.get("rd"), "rd-per-discarded-card"),
        (r["rate-buy-card"].params.get("rd"), "rd-card-price"),
        (r["rates"].params.get("current-action"), "current-action-rd"),
        (r["rates"].params.get("goal-change"), "goal-change-rd"),
        (r["rates"].params.get("capture"), "capture-rd"),
        (r["rates"].params.get("card-swap"), "card-swap-rd"),
        (r["rates"].params.get("total-rd"), "rd-card-price"),
        (r["devils-hand"].params.get("uses"), "devils-hand-uses"),
        (r["devils-hand"].params.get("options"), "devils-hand-options"),
        (r["devils-hand"].params.get("cards"), "devils-hand-cards"),
        (r["devils-hand"].params.get("units"), "devils-hand-units"),
        (r["devils-hand"].params.get("orders"), "devils-hand-orders"),
        (r["unit-limit"].params.get("units-on-table"), "unit-limit-on-table"),
        (r["contingent-plus"].params.get("units-on-table"), "unit-limit-on-table"),
        (r["deathmatch"].params.get("min-units"), "min-units-on-field"),
        (r["deathmatch"].params.get("lost-units"), "deathmatch-no-unit-penalty"),
        (r["deathmatch"].params.get("bonus-orders-per-loss"), "deathmatch-bonus-orders"),
        (r["mode-100000"].params.get("units-per-side"), "mode-100000-units-per-side"),
        (r["mode-100000"].params.get("locals"), "mode-100000-locals"),
        (r["macv-sog"].params.get("closes-per-turn"), "macv-sog-closes-per-turn"),
        (r["macv-sog"].params.get("kill-modifier"), "macv-sog-kill-modifier"),
        (r["macv-sog"].params.get("reveal-ratio"), "macv-sog-reveal-ratio"),
        (r["macv-sog"].params.get("hidden-attack"), "macv-sog-hidden-attack"),
        (r["macv-sog-harder-to-kill"].params.get("kill-modifier"), "macv-sog-kill-modifier"),
        (r["macv-sog-reveal-by-entry"].params.get("reveal-ratio"), "macv-sog-reveal-ratio"),
        (r["macv-sog-hidden-attack"].params.get("hidden-attack"), "macv-sog-hidden-attack"),
        (a["reroll"].params.get("rerolls"), "reroll-per-discard"),
        (a["rock-n-roll"].params.get("rerolls"), "rock-n-roll-rerolls"),
        (a["current-action"].params.get("cards"), "current-action-cards"),
        (a["current-action"].params.get("rd"), "current-action-rd"),
        (a["goal-change"].params.get("cards"), "goal-change-cards"),
        (a["goal-change"].params.get("rd"), "goal-change-rd"),
    ]
    return [f"{param} is {p(game, param)} in game.yaml but {value} in the data"
            for value, param in pairs if str(value) != str(p(game, param))]


@consistency("components-match")
def components_match(game) -> list[str]:
    """Counts the manifest gives twice: component counts, card quantities and parameters."""
    comps = {c.id: c.count for c in game.manifest.components}
    pairs = [(comps.get("point-cards"), "point-cards"), (comps.get("control-point-counters"), "control-point-counters"),
             (comps.get("rd-dice"), "rd-dice"), (game.cards["point"].quantity, "point-cards")]
    return [f"parameter {param} is {p(game, param)}, the data says {value}"
            for value, param in pairs if value != p(game, param)]


@consistency("scoring-fits-counters")
def scoring_fits_counters(game) -> list[str]:
    """The 4:4 rule is the last step before victory, and both sides at 4 use up the 8 counters
    (erratum flag-for-counter)."""
    tie, win, step = (p(game, "tie-break-control-points"), p(game, "victory-control-points"),
                      p(game, "round-win-control-points"))
    problems = []
    if tie + step != win:
        problems.append(f"4:4 rule at {tie}, victory at {win}, a round gives {step}: not the last step")
    if 2 * tie != p(game, "control-point-counters"):
        problems.append(f"two sides at {tie} need {2 * tie} counters, the box has {p(game, 'control-point-counters')}")
    return problems


@consistency("rd-rates-agree")
def rd_rates_agree(game) -> list[str]:
    """9.5: a card swapped for a new one + the swap's RD comes to a new card's price (2 RD), a
    discarded card being worth 1 RD; the RD is counted on a d6, so its maximum fits the die."""
    problems = []
    swap = p(game, "rd-per-discarded-card") + p(game, "card-swap-rd")
    if swap != p(game, "rd-card-price"):
        problems.append(f"a swapped card ({p(game, 'rd-per-discarded-card')} RD) + {p(game, 'card-swap-rd')} RD "
                        f"is {swap}, a new card costs {p(game, 'rd-card-price')} RD")
    if p(game, "rd-max") > game.dice["rd-die"].sides:
        problems.append(f"RD up to {p(game, 'rd-max')} cannot be shown on the {game.dice['rd-die'].sides}-sided RD die")
    if not 0 <= p(game, "rd-start") <= p(game, "rd-max"):
        problems.append("rd-start is outside 0..rd-max")
    return problems


@consistency("double-attack-icons")
def double_attack_icons(game) -> list[str]:
    """A unit with «Две кости» has a card with two dice icons, and such a card's unit has the keyword;
    two icons are the parameter's two rolls. A card whose icons the source does not show is not compared."""
    problems = []
    rolls = p(game, "double-attack-rolls")
    for unit in game.units.values():
        card = card_of(game, unit)
        if card is not None and is_unstated(card.icons):
            continue
        icons = sum(1 for i in (card.icons if card else ()) if i == DICE_ICON)
        if has_keyword(game, unit, DOUBLE_ATTACK) != (icons == rolls):
            problems.append(f"unit {unit.id}: keyword «Две кости» and {icons} dice icons on its card disagree")
    return problems


@consistency("hidden-attack-fits-die")
def hidden_attack_fits_die(game) -> list[str]:
    """MACV-SOG's 6+ is a face of the attack die; the Echo table has a line for each face of its die."""
    problems = []
    if not 2 <= target_param(game, "macv-sog-hidden-attack") <= attack_sides(game):
        problems.append(f"macv-sog-hidden-attack {p(game, 'macv-sog-hidden-attack')} is not a face of the d6")
    echo = game.tables["echo-effects"]
    faces = sorted(row["roll"] for row in echo.rows)
    if faces != list(range(1, die_sides(game, echo.dice) + 1)):
        problems.append(f"echo-effects has lines {faces}, its die is {echo.dice}")
    return problems
