"""The Undead Bone Thrower (seed 002, Artillery and Machines).

:func:`fire_bone_thrower`, in the book's order:

1. The bolt flies along a line from the machine; it strikes up to three stands in that line, one
   after another, so long as each touches the one before: they may belong to one unit or to
   several (friends and engaged units too).
2. Each unit struck takes 1 attack for each of its stands struck, all rolled together.
3. No armour roll. Hits, stands lost and drive backs follow the core rules, the target first,
   then other enemy units along the line, then friends (whose drive backs come after every
   enemy's); engaged units carry their hits into the combat instead.

It may shoot at a charging enemy at any point of the charge, its final position included (seed
002): a charging target carries its hits into the combat and is not driven back (core).

Troops manning a tower (seed 001, The watchtower: no bounce-through for a cannon, no drive back,
never confused): the tower's stonework stops the bolt in the first stand it strikes, so it
skewers that one stand only (our reading, as the cannon's ball is stopped), and the unit rolls no
drive back.

Where the book is silent (our reading): the line runs from the machine's front centre through
the closest point of the closest target stand, as a cannon's does, and on to the 40 cm range;
a stand is in the line when the line runs inside it; stands "touch" when their edges are within
0.5 mm of each other.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.geometry import Point
from engine.warmaster.cannon import PlacedUnit, UnitOnPath
from engine.warmaster.profiles import UNIT, Artillery, Position, PositionRule
from engine.warmaster.shooting import Side, roll_attacks
from engine.warmaster.stands import EPSILON, check_apart, closest_point, gap, spans

TOUCHING = 0.05
"""cm: stands this close count as touching."""


@dataclass(frozen=True, slots=True)
class BoneThrowerShot:
    weapon: Artillery
    distance: float
    """cm from the machine to the point struck."""
    strike: Point
    end: Point
    """Where the bolt leaves the last stand it skewers."""
    skewered: tuple[tuple[str, int], ...]
    """(unit name, stand index) of each stand struck, in the order the bolt meets them."""
    units: tuple[UnitOnPath, ...]
    placed: tuple[PlacedUnit, ...]
    dice: tuple[DieRoll, ...]
    unit: str = UNIT
    in_tower: bool = False
    """The target manned a tower: the bolt stops in the first stand, no drive back."""

    @property
    def target(self) -> UnitOnPath:
        return self.units[0]


def fire_bone_thrower(weapon: Artillery, positions: dict[Position, PositionRule], target: PlacedUnit, dice: Dice, *,
                      others: tuple[PlacedUnit, ...] = (), in_tower: bool = False) -> BoneThrowerShot:
    # 1. The line and the stands it skewers: where the units stand, not the dice (:func:`the_bolt`).
    bolt = the_bolt(weapon, target, tuple(others), in_tower)
    target = bolt.target

    # 2. One attack a stand struck, unit by unit: the target, other enemies, then friends.
    struck: dict[str, list[int]] = {}
    for name, i in bolt.skewered:
        struck.setdefault(name, []).append(i)
    order = [target] + sorted((o for o in others if o.unit.name in struck), key=lambda o: o.unit.side is Side.FRIEND)
    rec = RecordingDice(dice)
    units = []
    for p in order:
        idx = tuple(sorted(struck.get(p.unit.name, ())))
        result = roll_attacks(rec, p.unit, len(idx), positions, armour_ignored=True)
        units.append(UnitOnPath(p, idx, len(idx), result))
    rec.finish()
    return BoneThrowerShot(weapon, bolt.distance, bolt.strike, bolt.end, bolt.skewered, tuple(units), (target, *others),
                           tuple(rec.rolled), in_tower=in_tower)


@dataclass(frozen=True, slots=True)
class Bolt:
    """Where the bolt flies and what it skewers, before any die is rolled."""

    target: PlacedUnit
    """The target, manning its tower when the shot says so."""
    distance: float
    strike: Point
    end: Point
    skewered: tuple[tuple[str, int], ...]
    """(unit name, stand index) of each stand struck, in the order the bolt meets them."""


@functools.lru_cache(maxsize=64)
def the_bolt(weapon: Artillery, target: PlacedUnit, others: tuple[PlacedUnit, ...], in_tower: bool) -> Bolt:
    """Step 1 of :func:`fire_bone_thrower`: the line from the machine and the chain of touching stands
    it skewers, which depend on where the units stand and never on the dice. Kept for the same
    placing (issue 26: ``/odds`` throws the same shot thousands of times, and this geometry was nine
    tenths of each throw). Raises as the shot is refused."""
    names = [target.unit.name] + [o.unit.name for o in others]
    if len(set(names)) != len(names):
        raise RulesError(f"Two units share a name among {', '.join(names)}: name each once.")
    if target.unit.side is not Side.ENEMY or target.unit.engaged:
        raise RulesError("The target must be an enemy unit not engaged in combat.")
    check_apart({p.unit.name: p.stands for p in (target, *others)})
    if in_tower:
        target = PlacedUnit(replace(target.unit, in_tower=True), target.stands)
    origin = Point(0.0, 0.0)
    points = [closest_point(s, origin) for s in target.stands]
    first = min(range(len(points)), key=lambda i: (round(points[i].length(), 9), i))
    strike = points[first]
    distance = strike.length()
    if distance > weapon.range:
        raise RulesError(f"The closest target stand is {distance:.1f} cm away, beyond the Bone Thrower's {weapon.range} cm.")
    if distance <= 0:
        raise RulesError("The target stand touches the Bone Thrower: place it in front of the machine.")
    far = origin.along(strike.unit(), weapon.range)

    # Every stand in the line, in the order the bolt meets it; the chain of touching stands.
    everything = [(p, i) for p in (target, *others) for i in range(len(p.stands))]
    t0, t1 = spans(tuple(p.stands[i] for p, i in everything), origin, far)
    in_line = sorted((float(t0[k]), k) for k in range(len(everything))
                     if (t1[k] - t0[k]) * weapon.range > EPSILON or everything[k] == (target, first))
    start = next(n for n, (_, k) in enumerate(in_line) if everything[k] == (target, first))
    chain = [in_line[start][1]]
    for _, k in in_line[start + 1:]:
        if len(chain) == (1 if in_tower else weapon.skewers):
            break
        prev = everything[chain[-1]]
        here = everything[k]
        if gap(prev[0].stands[prev[1]], here[0].stands[here[1]]) > TOUCHING:
            break
        chain.append(k)
    end = origin.along(strike.unit(), float(t1[chain[-1]]) * weapon.range)
    end = Point(round(end.x, 4) + 0.0, round(end.y, 4) + 0.0)
    return Bolt(target, distance, strike, end, tuple((everything[k][0].unit.name, everything[k][1]) for k in chain))
