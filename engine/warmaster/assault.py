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
   Hits are rolled, then armour (core rules); the side that struck more hits wins. Other
   attacking units in the same assault (``others``) each strike and are struck on their own, and
   every hit counts in the one combat result.
3. Attackers win (or the defending unit is wiped out): the defenders retreat off the ramparts
   (on a counter-attacked rampart they have nowhere to go and are destroyed; artillery stands
   forced to retreat are destroyed) and the attackers move onto them. Defenders of a tower are
   never driven out: they stay until wiped out. Flyers never occupy fortifications. A draw
   carries on next combat phase. Defenders win: the attackers are thrown back, retreating 1 cm
   for each hit they lost by; flyers that lose a round are destroyed.

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
    """Flyers that lost the round (every attacking unit of flyers)."""
    defenders_hold: bool = False
    """Beaten in a tower: the defenders stay (never driven out); the fight goes on."""
    won_before: bool = False
    """A tower's later round: the attackers won a round already."""


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
    """Flyers that lost the round."""


POSITIONS = {
    AssaultKind.WALL: Position.FORTIFIED, AssaultKind.SIEGE_TOWER: Position.OPEN, AssaultKind.RAMPARTS: Position.OPEN,
    AssaultKind.COURTYARD: Position.DEFENDED, AssaultKind.TOWER: Position.FORTIFIED,
}
"""Where the defenders count as standing, by the kind of assault."""


def assault(dice: Dice, positions: dict[Position, PositionRule], attackers: Fighters, defenders: Fighters, *,
            kind: AssaultKind = AssaultKind.WALL, shot_hits: int = 0, others: tuple[Fighters, ...] = (),
            won_before: bool = False) -> Assault:
    if not 0 <= shot_hits <= 60:
        raise RulesError(f"{shot_hits} stand-and-shoot hits: give 0 to 60.")
    if kind is AssaultKind.SIEGE_TOWER and attackers.fighting != 1:
        raise RulesError("From a siege tower only one attacking stand fights: give 1 stand fighting.")
    if won_before and kind is not AssaultKind.TOWER:
        raise RulesError("A round already won changes only a tower's fight: give kind tower, or leave it out.")
    if len(others) > 3:
        raise RulesError(f"{len(others) + 1} attacking units: give at most 4.")
    names = [attackers.unit.name, *(o.unit.name for o in others)]
    if len(set(names)) != len(names):
        raise RulesError(f"Two attacking units share a name among {', '.join(names)}: name each once.")
    rec = RecordingDice(dice)
    # 1. Stand and shoot first: a stand lost and the assault fails.
    if shot_hits >= attackers.unit.hits:
        rec.finish()
        lost = min(attackers.unit.stands, shot_hits // attackers.unit.hits)
        return Assault(kind, attackers, defenders, shot_hits, 0, None, None, 0, shot_hits, Outcome.FAILED, shot_hits, False, lost,
                       tuple(rec.rolled))
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
    a_result = struck.hits_taken + sum(r.hits_taken for _, r in extra)
    d_result = back.hits_taken + shot_hits + sum(r.hits_taken for r in extra_back)
    attackers_lost = min(attackers.unit.stands, (back.hits_taken + shot_hits) // attackers.unit.hits)
    wiped = struck.stands_lost >= defenders.unit.stands or a_result >= defenders.unit.stands * defenders.unit.hits
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
    # Flyers that lose a round are destroyed.
    lost_round = outcome is Outcome.DEFENDERS_WIN
    others_out = tuple(OtherAttacker(o, r, b, min(o.unit.stands, b.hits_taken // o.unit.hits), lost_round and o.flyers)
                       for (o, r), b in zip(extra, extra_back))
    return Assault(kind, attackers, defenders, shot_hits, bonus, struck, back, a_result, d_result, outcome, retreat, destroyed,
                   attackers_lost, tuple(rec.rolled), others=others_out, attackers_destroyed=lost_round and attackers.flyers,
                   defenders_hold=hold, won_before=won_before)
