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
   Hits are rolled, then armour (core rules); the side that struck more hits wins.
3. Attackers win (or the defending unit is wiped out): the defenders retreat off the ramparts
   (on a counter-attacked rampart they have nowhere to go and are destroyed) and the attackers
   move onto them. A draw carries on next combat phase. Defenders win: the attackers are thrown
   back, retreating 1 cm for each hit they lost by.

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


def assault(dice: Dice, positions: dict[Position, PositionRule], attackers: Fighters, defenders: Fighters, *,
            kind: AssaultKind = AssaultKind.WALL, shot_hits: int = 0) -> Assault:
    if not 0 <= shot_hits <= 60:
        raise RulesError(f"{shot_hits} stand-and-shoot hits: give 0 to 60.")
    if kind is AssaultKind.SIEGE_TOWER and attackers.fighting != 1:
        raise RulesError("From a siege tower only one attacking stand fights: give 1 stand fighting.")
    rec = RecordingDice(dice)
    # 1. Stand and shoot first: a stand lost and the assault fails.
    if shot_hits >= attackers.unit.hits:
        rec.finish()
        lost = min(attackers.unit.stands, shot_hits // attackers.unit.hits)
        return Assault(kind, attackers, defenders, shot_hits, 0, None, None, 0, shot_hits, Outcome.FAILED, shot_hits, False, lost,
                       tuple(rec.rolled))
    # 2. The round of combat: positions and the charge bonus by the kind of assault.
    defender_position = Position.FORTIFIED if kind is AssaultKind.WALL else Position.OPEN
    bonus = 0 if kind is AssaultKind.WALL else 1
    target = replace(defenders.unit, position=defender_position, engaged=True)
    struck = roll_attacks(rec, target, attackers.fighting * (attackers.attacks + bonus), positions, purpose=f"{defenders.unit.name}")
    back = roll_attacks(rec, replace(attackers.unit, position=Position.OPEN, engaged=True), defenders.fighting * defenders.attacks,
                        positions, purpose=f"{attackers.unit.name}")
    rec.finish()
    a_result = struck.hits_taken
    d_result = back.hits_taken + shot_hits
    attackers_lost = min(attackers.unit.stands, d_result // attackers.unit.hits)
    wiped = struck.stands_lost >= defenders.unit.stands
    # 3. Who won.
    if wiped or a_result > d_result:
        outcome, retreat = Outcome.ATTACKERS_WIN, a_result - d_result if a_result > d_result else 0
    elif a_result == d_result:
        outcome, retreat = Outcome.DRAW, 0
    else:
        outcome, retreat = Outcome.DEFENDERS_WIN, d_result - a_result
    destroyed = wiped or (outcome is Outcome.ATTACKERS_WIN and kind is AssaultKind.RAMPARTS)
    return Assault(kind, attackers, defenders, shot_hits, bonus, struck, back, a_result, d_result, outcome, retreat, destroyed,
                   attackers_lost, tuple(rec.rolled))
