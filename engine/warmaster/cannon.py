"""Warmaster cannons (seed 002, Artillery and Machines: Cannons), bouncing through stands.

:func:`fire_cannons` reads in the book's order:

1. The ball strikes the closest point of the closest target stand (seen from the closest cannon
   of the battery), goes all the way through that stand and bounces on 5 cm in the same
   direction. Every cannon of the battery shares that one path.
2. The target unit takes 2 attacks a cannon, +1 a cannon for each further stand of its own on the
   path; any other unit the path runs through takes 1 attack a cannon for each of its stands on
   it: friends and units in combat too.
3. No armour roll; a fortified target counts as defended (5+), a defended one as in the open (4+).
4. Hits, stands lost and drive backs follow the core rules (:mod:`engine.warmaster.shooting`):
   the target first, then other enemy units along the path, then friends (their drive backs come
   after every enemy's); engaged units carry their hits into the combat instead.

Charged, the battery fires grapeshot instead: 2 attacks a cannon, no bounce, armour counts (our
reading: the target's own position, not counted better). A stand counts as bounced through when
the path runs inside it; a path along an edge or over a corner does not go through.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.geometry import Point
from engine.warmaster.profiles import UNIT, Artillery, Position, PositionRule
from engine.warmaster.shooting import AttackResult, Side, Unit, roll_attacks
from engine.warmaster.stands import Stand, check_apart, closest_point, crossings, exit_point

MAX_CANNONS = 4


@dataclass(frozen=True, slots=True)
class PlacedUnit:
    """A unit and where its stands stand."""

    unit: Unit
    stands: tuple[Stand, ...]

    def __post_init__(self) -> None:
        if len(self.stands) != self.unit.stands:
            raise RulesError(f"{self.unit.name}: {len(self.stands)} stands placed for a unit of {self.unit.stands}.")


@dataclass(frozen=True, slots=True)
class UnitOnPath:
    """What one unit took from the battery."""

    placed: PlacedUnit
    through: tuple[int, ...]
    """Indices of its stands the path runs through (the struck stand included for the target)."""
    attacks: int
    result: AttackResult


@dataclass(frozen=True, slots=True)
class CannonShot:
    weapon: Artillery
    cannons: int
    grapeshot: bool
    distance: float
    """cm from the closest cannon to the point struck."""
    struck_stand: int
    """Index of the target stand struck."""
    strike: Point
    exit: Point
    """Where the ball leaves the struck stand."""
    end: Point
    """Where the bounce ends (the strike point for grapeshot)."""
    units: tuple[UnitOnPath, ...]
    """Every unit that took attacks, in the order rolled: the target, other enemies, friends."""
    placed: tuple[PlacedUnit, ...]
    """Every unit on the table, the target first."""
    dice: tuple[DieRoll, ...]
    unit: str = UNIT
    in_tower: bool = False
    """The target manned a tower: no bounce, no drive back, never confused."""
    grazed: tuple[str, ...] = ()
    """Units the path touches along an edge or over a corner without running inside any of their
    stands: not on the path, so not hit (named so the picture can say why)."""

    @property
    def target(self) -> UnitOnPath:
        return self.units[0]


GRAZE = 0.05
"""cm: a path this close to a stand it does not run inside touches it (an edge, a corner)."""


def fire_cannons(
    weapon: Artillery, positions: dict[Position, PositionRule], target: PlacedUnit, dice: Dice, *,
    cannons: int = 1, others: tuple[PlacedUnit, ...] = (), grapeshot: bool = False, corridor: float | None = None,
    in_tower: bool = False,
) -> CannonShot:
    """Fire a battery of `cannons` at `target`; `others` are the other units near the path.
    `corridor`: a machine that sees only straight ahead (a bombard's 2 cm) needs the point struck
    within half that of the line straight ahead. `in_tower`: the target mans a tower, and a ball
    shot at it does not bounce through (seed 001, The watchtower)."""
    # 1-2. The path and the attacks each unit on it takes: where the units stand, not the dice
    #      (:func:`the_path`).
    path = the_path(weapon, target, cannons=cannons, others=tuple(others), grapeshot=grapeshot, corridor=corridor,
                    in_tower=in_tower)
    target, plan = path.target, path.plan

    # 3-4. No armour (grapeshot: armour counts), position one better; roll unit by unit.
    rec = RecordingDice(dice)
    units = []
    for placed, t, attacks in plan:
        result = roll_attacks(rec, placed.unit, attacks, positions, position_shift=0 if grapeshot else weapon.position_shift,
                              armour_ignored=not grapeshot)
        units.append(UnitOnPath(placed, t, attacks, result))
    rec.finish()
    return CannonShot(weapon, cannons, grapeshot, path.distance, path.struck, path.strike, path.exit, path.end, tuple(units),
                      (target, *others), tuple(rec.rolled), in_tower=in_tower, grazed=path.grazed)


@dataclass(frozen=True, slots=True)
class CannonPath:
    """Where the ball strikes and bounces, and the attacks each unit on its path takes, before any
    die is rolled."""

    target: PlacedUnit
    """The target, charging (grapeshot) or manning its tower when the shot says so."""
    distance: float
    struck: int
    strike: Point
    exit: Point
    end: Point
    grazed: tuple[str, ...]
    plan: tuple[tuple[PlacedUnit, tuple[int, ...], int], ...]
    """Each unit to roll for, in order (the target, other enemies, friends): its stands on the
    path and its attacks."""


@functools.lru_cache(maxsize=64)
def the_path(weapon: Artillery, target: PlacedUnit, *, cannons: int, others: tuple[PlacedUnit, ...], grapeshot: bool,
             corridor: float | None, in_tower: bool) -> CannonPath:
    """Steps 1 and 2 of :func:`fire_cannons`: the point struck, the bounce and the attacks of each unit
    on the path, which depend on where the units stand and never on the dice. Kept for the same
    placing (issue 26: ``/odds`` throws the same shot thousands of times, and this geometry was most
    of each throw). Raises as the shot is refused."""
    if not 1 <= cannons <= MAX_CANNONS:
        raise RulesError(f"A battery of {cannons} cannons: give 1 to {MAX_CANNONS}.")
    names = [target.unit.name] + [o.unit.name for o in others]
    if len(set(names)) != len(names):
        raise RulesError(f"Two units share a name among {', '.join(names)}: name each once.")
    if target.unit.side is not Side.ENEMY or target.unit.engaged:
        raise RulesError("The target must be an enemy unit not engaged in combat.")
    check_apart({p.unit.name: p.stands for p in (target, *others)})

    # 1. The closest point of the closest target stand, from the closest cannon (the origin).
    origin = Point(0.0, 0.0)
    points = [closest_point(s, origin) for s in target.stands]
    struck = min(range(len(points)), key=lambda i: (round(points[i].length(), 9), i))
    strike = points[struck]
    distance = strike.length()
    if distance > weapon.range:
        raise RulesError(f"The closest target stand is {distance:.1f} cm away, beyond the {weapon.name.lower()}'s {weapon.range} cm.")
    if corridor is not None and abs(strike.x) > corridor / 2:
        raise RulesError(f"The closest target stand is {abs(strike.x):.1f} cm to the side, outside the {weapon.name.lower()}'s "
                         f"{corridor:g} cm corridor straight ahead: it must be ordered to turn first.")
    if distance <= 0:
        raise RulesError(f"The target stand touches the {weapon.name.lower()}: place it in front of the muzzle.")
    direction = strike.unit()
    if grapeshot and in_tower:
        raise RulesError("Grapeshot answers a charge, and a charging unit is not manning a tower (it has left it to charge): "
                         "give grapeshot or in_tower, not both.")
    if grapeshot:
        # Grapeshot answers a charge: the hits carry into the combat, no drive back.
        target = PlacedUnit(replace(target.unit, charging=True), target.stands)
        out, end = strike, strike
    elif in_tower:
        # Troops manning a tower: no bounce-through, no drive back, never confused (seed 001).
        target = PlacedUnit(replace(target.unit, in_tower=True), target.stands)
        out, end = strike, strike
    else:
        out = exit_point(target.stands[struck], strike, direction)
        end = out.along(direction, weapon.bounce)
        end = Point(round(end.x, 9) + 0.0, round(end.y, 9) + 0.0)

    # 2. Attacks: 2 a cannon on the target, +1 for each further stand of its own the path goes
    #    through; 1 a cannon for each stand of any other unit on it.
    everything = (target, *others)
    no_path = grapeshot or in_tower
    inside = [] if no_path else crossings(tuple(s for p in everything for s in p.stands), strike, end).tolist()
    on_path: dict[str, tuple[int, ...]] = {}
    k = 0
    for p in everything:
        on_path[p.unit.name] = tuple(i for i in range(len(p.stands)) if not no_path and inside[k + i] > 0)
        k += len(p.stands)

    def through(p: PlacedUnit) -> tuple[int, ...]:
        return on_path[p.unit.name]

    # A path along an edge or over a corner does not go through: the units it only touches.
    grazed: tuple[str, ...] = ()
    if not no_path:
        missed = [p for p in others if not through(p)]
        near = crossings(tuple(replace(s, width=s.width + 2 * GRAZE, depth=s.depth + 2 * GRAZE)
                               for p in missed for s in p.stands), strike, end).tolist()
        k, touching = 0, []
        for p in missed:
            if any(v > 0 for v in near[k:k + len(p.stands)]):
                touching.append(p.unit.name)
            k += len(p.stands)
        grazed = tuple(touching)

    per_cannon = weapon.grapeshot_attacks if grapeshot else weapon.attacks
    target_through = tuple(sorted({struck, *through(target)}))
    plan = [(target, target_through, cannons * (per_cannon + len(target_through) - 1))]
    hit_others = []
    for o in others:
        t = through(o)
        if t:
            first = min(math.hypot(o.stands[i].cx - strike.x, o.stands[i].cy - strike.y) for i in t)
            hit_others.append((o.unit.side is Side.FRIEND, first, o, t))
    hit_others.sort(key=lambda h: (h[0], h[1]))
    plan += [(o, t, cannons * len(t)) for _, _, o, t in hit_others]
    return CannonPath(target, distance, struck, strike, out, end, grazed, tuple(plan))
