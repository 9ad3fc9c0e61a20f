"""Assaults on fortifications (seed 001, Siege & Fortresses: Assaults, Counter attacks on
ramparts, Towers, Siege towers), one round of combat.

:func:`assault`, in the book's order:

1. Stand and shoot and boiling oil come first (roll them with ``/wm shoot`` and ``/siege oil``;
   give their hits here). If they cost the assaulting unit a stand, the assault fails and it
   retreats 1 cm for each hit taken. Otherwise those hits count as struck in the combat.
2. The round of combat, with no support for either side:
   * on a wall (or a tower): the defenders are fortified (the attackers need 6s, and get no
     charge bonus against them); the attackers, at the foot of the wall, count as in the open;
   * from a siege tower: both sides in the open (4+), the attackers +1 attack a stand for
     charging, and one attacking stand fights the defenders that would touch it;
   * a counter attack on the ramparts from a tower or the next rampart: the attackers fight in
     the open with the +1 charge bonus, one stand per unit in contact; the defenders of the
     rampart count as in the open too.
   * a counter-charge from the courtyard on troops holding the ramparts: the rampart stands
     count as defended (height), not fortified, and the chargers get no charge bonus;
   * a tower: its defenders count as fortified; once the attackers have won a first round
     (``won_before``) they fight their way in, the defenders count as defended and the attackers
     gain the pursuit bonus (+1 attack a stand).
   On a counter-attacked rampart and at a tower only one stand of each unit fights, and the
   defenders answer each with one stand: other units (or other facings of a tower) come in as
   ``others``.
   Hits are rolled, then armour (core rules); the side that struck more hits wins. Other
   attacking units in the same assault (``others``) each strike and are struck on their own, but
   it is one combat: every unit's hits on the defenders are added up before their stands are
   taken (:attr:`Assault.defenders_lost`), and every hit counts in the one combat result.
3. Attackers win (or the defending unit is wiped out): the defenders retreat off the ramparts
   (on a counter-attacked rampart they have nowhere to go and are destroyed; artillery stands
   forced to retreat are destroyed) and the attackers move onto them. Defenders of a tower are
   never driven out: they stay until wiped out, and the fight goes on into the tower next round;
   flyers never occupy fortifications, so flyers that win stand their ground or fall back, never
   fighting a second round (and at a tower the defenders do not retreat either). A draw carries
   on next combat phase. Defenders win: the attackers are thrown back, retreating 1 cm for each
   hit they lost by; flyers that lose a round are destroyed; a unit that lost its last stand is
   destroyed, not thrown back.
4. From a siege tower, beaten attackers that retreat 4 cm or less are still in their siege tower
   and may assault again next turn; further, and the defenders holding the section push the
   tower over (:attr:`Assault.siege_tower`).

Core rules (labelled so in replies): a charge bonus of +1 attack a stand against an enemy in the
open; the combat result is the hits each side struck; the loser retreats 1 cm a hit of the
difference.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.warmaster.profiles import UNIT, Position, PositionRule
from engine.warmaster.shooting import AttackResult, Unit, roll_attacks


class AssaultKind(enum.Enum):
    WALL = "wall"
    """Infantry assaulting a rampart (or the door of a tower) from the ground."""
    SIEGE_TOWER = "siege-tower"
    RAMPARTS = "ramparts"
    """A counter attack on troops holding a rampart, from a tower or the next rampart section."""
    COURTYARD = "courtyard"
    """A counter-charge from the courtyard on troops holding a rampart (they count as defended)."""
    TOWER = "tower"
    """An assault on the troops in a tower (from the courtyard, the next rampart, or by flyers)."""


class Outcome(enum.Enum):
    FAILED = "failed"
    """The stand and shoot cost the assaulting unit a stand."""
    ATTACKERS_WIN = "attackers win"
    DRAW = "draw"
    DEFENDERS_WIN = "defenders win"


@dataclass(frozen=True, slots=True)
class Fighters:
    """One side of the fight."""

    unit: Unit
    fighting: int
    """Stands in the fight."""
    attacks: int
    """Attacks a stand (its Attack value)."""
    flyers: bool = False
    """Flying attackers: they never occupy fortifications, and a round lost destroys them."""
    struck_by: int = 0
    """For another attacking unit: the defending stands fighting it (0: as many as fight it)."""
    giant: bool = False
    """A giant: he reaches the ramparts of a wall (not a tower), and clears them but cannot take or
    hold them (seed 001, Giants)."""

    def __post_init__(self) -> None:
        if not 1 <= self.fighting <= self.unit.stands:
            raise RulesError(f"{self.unit.name}: {self.fighting} stands fighting out of {self.unit.stands}.")
        if not 1 <= self.attacks <= 12:
            raise RulesError(f"{self.unit.name}: Attack {self.attacks}: give 1 to 12.")


@dataclass(frozen=True, slots=True)
class Assault:
    kind: AssaultKind
    attackers: Fighters
    defenders: Fighters
    shot_hits: int
    """Hits the attackers took from stand and shoot and oil before the fight."""
    attacker_bonus: int
    """Extra attacks a stand (the charge bonus)."""
    attackers_struck: AttackResult | None
    """The attackers' attacks on the defenders; None when the assault failed first."""
    defenders_struck: AttackResult | None
    attackers_result: int
    defenders_result: int
    outcome: Outcome
    retreat: int
    """cm the losing side retreats (the attackers when failed or beaten, the defenders when beaten)."""
    defenders_destroyed: bool
    """Beaten on a counter-attacked rampart, or wiped out."""
    attackers_lost: int
    """Attacking stands lost, stand and shoot included."""
    dice: tuple[DieRoll, ...]
    unit: str = UNIT
    others: tuple["OtherAttacker", ...] = ()
    """The other attacking units in the same assault."""
    attackers_destroyed: bool = False
    """The first attacking unit is destroyed: flyers that lost the round, or its last stand lost."""
    defenders_hold: bool = False
    """Beaten in a tower: the defenders stay (never driven out) and do not retreat."""
    won_before: bool = False
    """A tower's later round: the attackers won a round already."""
    defenders_hits_taken: int = 0
    """Every attacking unit's hits on the defenders, after armour, added up: one combat."""
    defenders_lost: int = 0
    """Defending stands lost to those hits together."""
    fight_on: bool = False
    """A tower won but not taken: the attackers who are not flyers fight on into it next round."""
    flyers_stop: bool = False
    """Flyers won against a fortification: they stand their ground or fall back, no second round."""
    giant_stays: bool = False
    """A giant among the winners: he clears the ramparts but stays at the foot of the wall."""
    siege_tower: str | None = None
    """From a siege tower, when the attackers were thrown back (or failed): ``"stays"`` (4 cm or less:
    still in the tower, may assault again) or ``"pushed over"``; None otherwise."""


@dataclass(frozen=True, slots=True)
class OtherAttacker:
    """Another attacking unit in the same assault: its own hits struck and taken, its own losses."""

    fighters: Fighters
    struck: AttackResult
    """Its attacks on the defenders."""
    struck_back: AttackResult
    """The defenders' attacks on it."""
    lost: int
    destroyed: bool
    """Flyers that lost the round, or its last stand lost."""


POSITIONS = {
    AssaultKind.WALL: Position.FORTIFIED, AssaultKind.SIEGE_TOWER: Position.OPEN, AssaultKind.RAMPARTS: Position.OPEN,
    AssaultKind.COURTYARD: Position.DEFENDED, AssaultKind.TOWER: Position.FORTIFIED,
}
"""Where the defenders count as standing, by the kind of assault."""


ONE_STAND = {AssaultKind.RAMPARTS: "On a counter-attacked rampart", AssaultKind.TOWER: "At a tower"}
"""Fights where only one stand of each unit comes into contact, and one defending stand answers it
(seed 001, Counter attacks on ramparts; Towers)."""

FLYERS_CANNOT = {AssaultKind.SIEGE_TOWER: "assault from a siege tower (only infantry fight from its top)",
                 AssaultKind.RAMPARTS: "counter attack from a tower or the next rampart (they never occupy fortifications)"}
"""Assault kinds flyers cannot make (seed 001, Flyers attacking fortifications: they never occupy
fortifications, and attack fortified troops with no charge bonus; Siege towers: infantry)."""

SIEGE_TOWER_REACH = 4
"""cm: a unit thrown back from its siege tower this far or less is still in it (seed 001, Siege towers)."""


def check_one_stand(kind: AssaultKind, attackers: Fighters, defenders: Fighters, others: tuple[Fighters, ...]) -> None:
    """Only one stand a unit, and one defending stand against it, on a counter-attacked rampart
    and at a tower."""
    where = ONE_STAND.get(kind)
    if where is None:
        return
    for side in (attackers, *others):
        if side.fighting != 1:
            raise RulesError(f"{where} only one stand of each unit fights: {side.unit.name} has {side.fighting} fighting. "
                             "Give 1; another unit (or another facing of the tower) is a further attacking unit (more).")
        if side.struck_by > 1:
            raise RulesError(f"{where} one defending stand answers each attacking unit: {side.struck_by} against "
                             f"{side.unit.name}. Give 1.")
    if defenders.fighting != 1:
        raise RulesError(f"{where} the defenders fight with one stand against each attacking unit: {defenders.fighting} "
                         "defending stands fighting. Give 1; each further attacking unit (more) is answered by a stand of its own.")


def assault(dice: Dice, positions: dict[Position, PositionRule], attackers: Fighters, defenders: Fighters, *,
            kind: AssaultKind = AssaultKind.WALL, shot_hits: int = 0, others: tuple[Fighters, ...] = (),
            won_before: bool = False, tower_reach: int = SIEGE_TOWER_REACH) -> Assault:
    if not 0 <= shot_hits <= 60:
        raise RulesError(f"{shot_hits} stand-and-shoot hits: give 0 to 60.")
    if kind is AssaultKind.SIEGE_TOWER and attackers.fighting != 1:
        raise RulesError("From a siege tower only one attacking stand fights: give 1 stand fighting.")
    for other in others if kind is AssaultKind.SIEGE_TOWER else ():
        if other.fighting != 1:  # each further unit from a siege tower of its own fights with its top stand too (001:157)
            raise RulesError(f"From a siege tower only one stand of each unit fights: {other.unit.name} has {other.fighting} "
                             "fighting. Give 1 (each further unit in a siege tower of its own); a unit on ladders at the "
                             "same wall fights with the defenders fortified: roll it as a wall assault.")
    check_one_stand(kind, attackers, defenders, others)
    if kind in FLYERS_CANNOT and any(side.flyers for side in (attackers, *others)):
        raise RulesError(f"kind {kind.value}: flyers do not {FLYERS_CANNOT[kind]}; they attack troops in a fortification "
                         "as infantry do, hitting on 6s with no charge bonus. Give kind wall or tower (or courtyard), or leave "
                         "flyers out.")
    if kind is not AssaultKind.WALL and any(side.giant for side in (attackers, *others)):
        raise RulesError(f"kind {kind.value}: a giant fights only troops on the ramparts of a wall; towers and anything higher "
                         "are out of his reach, and he cannot climb onto the ramparts. Give kind wall.")
    if won_before and kind is not AssaultKind.TOWER:
        raise RulesError("A round already won changes only a tower's fight: give kind tower, or leave it out.")
    if won_before and any(side.flyers for side in (attackers, *others)):
        raise RulesError("Flyers never fight a second round against troops in a fortification: after winning they stand "
                         "their ground or fall back. Leave won out, or leave the flyers out of this round.")
    if len(others) > 3:
        raise RulesError(f"{len(others) + 1} attacking units: give at most 4 (the first and at most 3 more).")
    names = [attackers.unit.name, *(o.unit.name for o in others)]
    if len(set(names)) != len(names):
        raise RulesError(f"Two attacking units share a name among {', '.join(names)}: name each once.")
    rec = RecordingDice(dice)
    # 1. Stand and shoot first: a stand lost and the assault fails.
    if shot_hits >= attackers.unit.hits:
        rec.finish()
        lost = min(attackers.unit.stands, shot_hits // attackers.unit.hits)
        gone = lost >= attackers.unit.stands
        retreat = 0 if gone else shot_hits
        return Assault(kind, attackers, defenders, shot_hits, 0, None, None, 0, shot_hits, Outcome.FAILED, retreat, False, lost,
                       tuple(rec.rolled), attackers_destroyed=gone,
                       siege_tower=None if gone else fate_of_siege_tower(kind, retreat, tower_reach))
    # 2. The round of combat: positions and the charge bonus by the kind of assault. A tower's
    #    defenders, once the attackers have won a round, count as defended; the attackers gain
    #    the pursuit bonus.
    defender_position = Position.DEFENDED if won_before else POSITIONS[kind]
    bonus = 1 if (defender_position is Position.OPEN or won_before) else 0
    target = replace(defenders.unit, position=defender_position, engaged=True)

    def strike(side: Fighters) -> AttackResult:
        return roll_attacks(rec, target, side.fighting * (side.attacks + bonus), positions,
                            purpose=f"{defenders.unit.name}, by {side.unit.name}")

    def strike_back(side: Fighters, stands: int) -> AttackResult:
        return roll_attacks(rec, replace(side.unit, position=Position.OPEN, engaged=True), stands * defenders.attacks, positions,
                            purpose=f"{side.unit.name}")

    struck = strike(attackers)
    extra = [(o, strike(o)) for o in others]
    back = strike_back(attackers, defenders.fighting)
    extra_back = [strike_back(o, o.struck_by or o.fighting) for o, _ in extra]
    rec.finish()
    # One combat: every unit's hits on the defenders together, then their stands.
    a_result = struck.hits_taken + sum(r.hits_taken for _, r in extra)
    d_result = back.hits_taken + shot_hits + sum(r.hits_taken for r in extra_back)
    attackers_lost = min(attackers.unit.stands, (back.hits_taken + shot_hits) // attackers.unit.hits)
    defenders_lost = min(defenders.unit.stands, a_result // defenders.unit.hits)
    wiped = defenders_lost >= defenders.unit.stands
    # 3. Who won.
    if wiped or a_result > d_result:
        outcome, retreat = Outcome.ATTACKERS_WIN, a_result - d_result if a_result > d_result else 0
    elif a_result == d_result:
        outcome, retreat = Outcome.DRAW, 0
    else:
        outcome, retreat = Outcome.DEFENDERS_WIN, d_result - a_result
    # Beaten defenders: a tower's hold (never driven out); on a counter-attacked rampart they have
    # nowhere to go; artillery forced to retreat is destroyed.
    hold = outcome is Outcome.ATTACKERS_WIN and kind is AssaultKind.TOWER and not wiped
    beaten = outcome is Outcome.ATTACKERS_WIN and not hold
    must_retreat_dies = kind in (AssaultKind.RAMPARTS, AssaultKind.COURTYARD) or defenders.unit.troop.key == "artillery"
    destroyed = wiped or (beaten and must_retreat_dies)
    if hold:
        retreat = 0
    # Flyers never occupy a fortification: winners stand their ground or fall back, no second
    # round; the others who won a tower's round fight on into it.
    won = outcome is Outcome.ATTACKERS_WIN
    walkers = [side for side in (attackers, *others) if not side.flyers]
    flyers_stop = won and len(walkers) < 1 + len(others)
    fight_on = hold and bool(walkers)
    giant_stays = won and any(side.giant for side in (attackers, *others))
    # Flyers that lose a round are destroyed; so is a unit that lost its last stand.
    lost_round = outcome is Outcome.DEFENDERS_WIN
    others_out = []
    for (o, r), b in zip(extra, extra_back):
        lost = min(o.unit.stands, b.hits_taken // o.unit.hits)
        others_out.append(OtherAttacker(o, r, b, lost, (lost_round and o.flyers) or lost >= o.unit.stands))
    gone = (lost_round and attackers.flyers) or attackers_lost >= attackers.unit.stands
    if lost_round and gone and all(o.destroyed for o in others_out):
        retreat = 0  # no attacking unit is left to be thrown back: one outcome, destroyed
    tower = fate_of_siege_tower(kind, retreat, tower_reach) if lost_round and not gone else None
    return Assault(kind, attackers, defenders, shot_hits, bonus, struck, back, a_result, d_result, outcome, retreat, destroyed,
                   attackers_lost, tuple(rec.rolled), others=tuple(others_out), attackers_destroyed=gone,
                   defenders_hold=hold, won_before=won_before, defenders_hits_taken=a_result, defenders_lost=defenders_lost,
                   fight_on=fight_on, flyers_stop=flyers_stop, siege_tower=tower, giant_stays=giant_stays)


def fate_of_siege_tower(kind: AssaultKind, retreat: int, reach: int) -> str | None:
    """Thrown back from a siege tower: 4 cm or less and the unit is still in it, to assault again;
    further, and the enemy holding the section pushes it over (seed 001, Siege towers)."""
    if kind is not AssaultKind.SIEGE_TOWER:
        return None
    return "stays" if retreat <= reach else "pushed over"
