"""Warmaster shooting: the CORE rulebook rules every artillery piece and machine leans on.

These are not in the seeds; they are the well-known rules of the Warmaster core rulebook
(Shooting), labelled "core" in every reply:

* To hit: one D6 per attack; 4+ hits a target in the open, 5+ a defended one, 6+ a fortified one
  (:class:`~engine.warmaster.profiles.PositionRule`), weapons may add to the roll.
* Armour: one D6 per hit; a roll equal to or above the Armour value saves it. Some weapons make
  armour worse or ignore it.
* Hits: a unit loses one stand for each full Hits value of hits it takes (3 for most units);
  hits short of a whole stand stay on it until the end of the phase, then are disregarded.
* Drive backs: once the shooting is done, one D6 per hit taken, one die fewer for a defended
  target and two fewer for a fortified one; the total is how many cm it is driven back. Any 6
  leaves it confused; driven back further than its full pace move, it is destroyed. Chargers and
  units engaged in combat are not driven back: their hits count in the combat.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.warmaster.profiles import UNIT, Position, PositionRule, Troop

NEVER_DRIVEN_BACK = {"siege-tower": "a siege tower", "battering-ram": "a battering ram", "sow": "a sow"}
"""Seed 001, Siege towers, Battering rams, Sows (and the list's footnote 3): not driven back by shooting."""

MAX_ATTACKS = 60
MAX_STANDS = 12
MAX_HITS_PER_STAND = 10


class Side(enum.Enum):
    """Whose unit, seen from the shooter."""

    ENEMY = "enemy"
    FRIEND = "friend"


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit that may take attacks."""

    name: str
    """How the reply names it: "target", "enemy 2", "friend 1"."""
    stands: int
    hits: int
    """The Hits value: hits that remove one stand."""
    armour: int | None
    """The Armour value (4 for 4+); None for no armour."""
    position: Position
    troop: Troop
    side: Side = Side.ENEMY
    engaged: bool = False
    """In combat: hits go into the combat round; never driven back."""
    charging: bool = False
    """Shot as it charges: hits carry into the first combat round; not driven back."""
    in_tower: bool = False
    """Mans a tower (seed 001, The watchtower): never rolls for drive back, never confused."""
    equipment: str | None = None
    """Siege equipment it is (or shelters behind), seed 001: ``siege-tower``, ``battering-ram`` and
    ``sow`` are never driven back by shooting; ``mantlets`` are lost past half pace
    (:mod:`engine.warmaster.siege_equipment`)."""

    def __post_init__(self) -> None:
        if not 1 <= self.stands <= MAX_STANDS:
            raise RulesError(f"{self.name}: {self.stands} stands is not a unit; give 1 to {MAX_STANDS}.")
        if not 1 <= self.hits <= MAX_HITS_PER_STAND:
            raise RulesError(f"{self.name}: Hits {self.hits} is not a Hits value; give 1 to {MAX_HITS_PER_STAND}.")
        if self.armour is not None and not 2 <= self.armour <= 6:
            raise RulesError(f"{self.name}: armour {self.armour}+ is not an Armour value; give 3 to 6 (or none).")
        if self.in_tower and self.charging:
            raise RulesError(f"{self.name}: a charging unit is not manning a tower when it is shot at (it has left it to "
                             "charge): give in_tower or charging, not both.")


@dataclass(frozen=True, slots=True)
class DriveBack:
    """Core rulebook drive back of one unit."""

    dice: tuple[DieRoll, ...]
    dice_less: int
    """Dice taken away for the unit's position."""
    distance: int
    """cm"""
    confused: bool
    destroyed: bool
    """Driven back further than its full pace move."""
    full_pace: int
    unit: str = UNIT
    mantlets_lost: bool = False
    """Driven back further than half its pace with mantlets: it leaves them behind (seed 001, Mantlets)."""


@dataclass(frozen=True, slots=True)
class AttackResult:
    """One unit's attacks, rolled together: to hit, armour, stands lost, drive back."""

    target: Unit
    attacks: int
    to_hit_needed: int
    counts_as: Position
    """The position the to-hit roll used (a cannon counts fortified as defended)."""
    to_hit: tuple[DieRoll, ...]
    hits: int
    save_needed: int | None
    """None when no armour roll is allowed."""
    saves: tuple[DieRoll, ...]
    hits_taken: int
    """Hits after armour."""
    stands_lost: int
    odd_hits: int
    """Hits short of a whole stand: disregarded at the end of the phase (core)."""
    drive_back: DriveBack | None
    no_drive_back: str | None
    """Why there was no drive-back roll, in words; None when there was one."""

    @property
    def wiped_out(self) -> bool:
        return self.stands_lost >= self.target.stands

    @property
    def saved(self) -> int:
        return self.hits - self.hits_taken


def to_hit_needed(rule: PositionRule, bonus: int = 0) -> int:
    """The score needed to hit: the position's (core), less the weapon's bonus; never below 2."""
    return max(2, min(7, rule.to_hit - bonus))


def save_needed(armour: int | None, *, worse: int = 0, ignored: bool = False) -> int | None:
    """The armour roll needed, `worse` points worse; None when there is none left."""
    if ignored or armour is None:
        return None
    needed = armour + worse
    return needed if needed <= 6 else None


def roll_attacks(
    dice: Dice, target: Unit, attacks: int, positions: dict[Position, PositionRule], *,
    to_hit_bonus: int = 0, position_shift: int = 0, armour_worse: int = 0, armour_ignored: bool = False,
    save_override: int | None = None, purpose: str = "", rolled: tuple[DieRoll, ...] | None = None,
) -> AttackResult:
    """Roll `attacks` at `target` and resolve them to stands lost and drive back (core rules).

    `save_override` is a save the unit uses instead of its own (a sow's 3+), before `armour_worse`;
    `rolled` are to-hit dice already rolled (a Helblaster looks at them before going on)."""
    if not 0 <= attacks <= MAX_ATTACKS:
        raise RulesError(f"{attacks} attacks is too many to roll; give 0 to {MAX_ATTACKS}.")
    tag = f" ({purpose or target.name})"
    counts_as = target.position.shifted(position_shift)
    needed = to_hit_needed(positions[counts_as], to_hit_bonus)
    to_hit = rolled if rolled is not None else tuple(dice.d6(f"to hit{tag}") for _ in range(attacks))
    hits = sum(1 for d in to_hit if d.value >= needed)
    armour = save_override if save_override is not None else target.armour
    need_save = save_needed(armour, worse=armour_worse, ignored=armour_ignored)
    saves: tuple[DieRoll, ...] = ()
    if need_save is not None:
        saves = tuple(dice.d6(f"armour{tag}") for _ in range(hits))
    taken = hits - sum(1 for d in saves if d.value >= need_save)
    stands_lost = min(target.stands, taken // target.hits)
    odd = 0 if stands_lost >= target.stands else taken - stands_lost * target.hits
    drive, why = None, None
    if taken == 0:
        why = "no hits taken"
    elif stands_lost >= target.stands:
        why = "wiped out"
    elif target.engaged:
        why = "engaged: the hits count in the combat round instead"
    elif target.charging:
        why = "charging or assaulting: the hits carry into the first combat round instead"
    elif target.in_tower:
        why = "in a tower: troops inside never roll for drive back and are never confused"
    elif target.equipment in NEVER_DRIVEN_BACK:
        why = f"siege equipment ({NEVER_DRIVEN_BACK[target.equipment]}): never driven back by shooting, nor the unit in it"
    else:
        drive = roll_drive_back(dice, taken, positions[target.position], target.troop, tag)
        if drive is None:
            why = f"{target.position.value}: every drive-back die taken away"
        elif target.equipment == "mantlets" and drive.distance > target.troop.full_pace / 2:
            drive = replace(drive, mantlets_lost=True)
    return AttackResult(target, attacks, needed, counts_as, to_hit, hits, need_save, saves, taken, stands_lost, odd, drive, why)


def roll_drive_back(dice: Dice, hits: int, rule: PositionRule, troop: Troop, tag: str = "") -> DriveBack | None:
    """Core rulebook drive back: a D6 per hit, less the position's dice; None when none are left."""
    n = hits - rule.drive_back_dice_less
    if n <= 0:
        return None
    rolled = tuple(dice.d6(f"drive back{tag}") for _ in range(n))
    distance = sum(d.value for d in rolled)
    return DriveBack(rolled, rule.drive_back_dice_less, distance, any(d.value == 6 for d in rolled),
                     distance > troop.full_pace, troop.full_pace)


@dataclass(frozen=True, slots=True)
class Shooting:
    """``/wm shoot``: one unit's attacks at one target (core rules)."""

    result: AttackResult
    to_hit_bonus: int
    armour_worse: int
    armour_ignored: bool
    dice: tuple[DieRoll, ...]
    unit: str = UNIT


def shoot(dice: Dice, target: Unit, attacks: int, positions: dict[Position, PositionRule], *,
          to_hit_bonus: int = 0, armour_worse: int = 0, armour_ignored: bool = False) -> Shooting:
    """Shoot `attacks` at `target`: to hit by its position, armour, stands lost, drive back."""
    if attacks < 1:
        raise RulesError(f"{attacks} attacks: shooting needs at least 1.")
    rec = RecordingDice(dice)
    result = roll_attacks(rec, target, attacks, positions, to_hit_bonus=to_hit_bonus, armour_worse=armour_worse,
                          armour_ignored=armour_ignored, purpose="")
    rec.finish()
    return Shooting(result, to_hit_bonus, armour_worse, armour_ignored, tuple(rec.rolled))


@dataclass(frozen=True, slots=True)
class Volley:
    """Machines that each roll a fixed number of attacks at one target (Elven Bolt Thrower, Rock
    Lobber, tribock, mangonel)."""

    weapon: str
    """The machine's name."""
    source: str
    distance: float
    """cm to the target."""
    machines: int
    result: AttackResult
    dice: tuple[DieRoll, ...]
    unit: str = UNIT


MAX_MACHINES = 4


def fire_volley(dice: Dice, target: Unit, positions: dict[Position, PositionRule], *, weapon: str, source: str,
                distance: float, min_range: float, max_range: float, attacks: int, machines: int = 1,
                to_hit_bonus: int = 0, armour_ignored: bool = False) -> Volley:
    """`machines` machines each rolling `attacks` at `target` `distance` cm away (core rules after that)."""
    if not min_range <= distance <= max_range or distance <= 0:
        span = f"{min_range:g}-{max_range:g}" if min_range else f"up to {max_range:g}"
        raise RulesError(f"Range {distance:g} cm is outside the {weapon}'s {span} cm.")
    if not 1 <= machines <= MAX_MACHINES:
        raise RulesError(f"{machines} machines: give 1 to {MAX_MACHINES}.")
    rec = RecordingDice(dice)
    result = roll_attacks(rec, target, attacks * machines, positions, to_hit_bonus=to_hit_bonus, armour_ignored=armour_ignored)
    rec.finish()
    return Volley(weapon, source, float(distance), machines, result, tuple(rec.rolled))
