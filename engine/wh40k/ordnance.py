"""Ordnance weapons and ordnance barrages (Warhammer 40,000 trial vehicle rules: Using Ordnance
Weapons, Normal Ordnance, Ordnance Barrages, Shooting at Vehicles, Vehicle Armour Values).

:func:`fire_ordnance` reads in the book's order:

1. The large Blast marker goes over the target (its middle over the squad; its hole over the
   vehicle). Out of range, or (not a barrage) the hole out of sight: an automatic miss. A barrage
   aimed inside its minimum range misses too.
2. Normal ordnance fired on the move first rolls to hit with the vehicle's BS (a D6 needing
   7 - BS, a 1 always missing); a miss means no shot. A barrage may not be fired on the move.
3. Normal ordnance: the scatter die and a D6; a HIT lands on target, an arrow moves the marker
   the D6 in inches. A barrage: a D6 (2D6 when the target is out of sight) and the scatter die;
   an arrow moves it their sum. A barrage that comes down inside its minimum range misses.
4. Models wholly under the marker are hit; each one partly under it is hit on a 4+ (one D6 each,
   model order); a vehicle is hit when any of its hull is under the marker, twice when it is
   open-topped; the second hit finds the vehicle as the first left it (004:394, 004:409: a second
   immobilised on a glancing roll is crew stunned).
5. A vehicle hit rolls armour penetration as an ordnance weapon (2D6, the highest) at the
   weapon's Strength, halved (rounding up) when the hole is not over the hull, then damage.
   Normal ordnance strikes the side facing the firer; a barrage strikes from the hole: the side
   facing the firer when the hole is over the hull, otherwise the side the hole lies beyond.
6. A barrage's pinning: a unit that takes casualties tests Leadership at -1.

Dice order: the to-hit D6 (on the move); then the scatter die and its D6 (normal) or the D6s and
the scatter die (barrage); the 4+ D6 for each model partly under the marker, in model order; then
each vehicle hit's penetration and damage dice (:mod:`engine.wh40k.penetration`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.geometry import Point, heading
from engine.wh40k.blast import CODES, Coverage, base_coverage, hole_over_hull, hull_under
from engine.wh40k.penetration import VehicleHit, hit_vehicle, weapon_strength
from engine.wh40k.profiles import BlastMarker, DamageTable, PenetrationWeapon, WoundRules
from engine.wh40k.squad import Facing, Squad, VehicleTarget
from engine.wh40k.vehicle import VehicleState

UNIT = "in"
MAX_RANGE = 240
MIN_BS, MAX_BS = 1, 10
MIN_LEADERSHIP, MAX_LEADERSHIP = 2, 10


@dataclass(frozen=True, slots=True)
class ModelUnder:
    """One model of the squad and the marker."""

    number: int
    """1 = left of the row nearest the firer."""
    at: Point
    """Its base's centre."""
    coverage: Coverage
    roll: DieRoll | None
    """The 4+ D6 of a model partly under the marker."""
    hit: bool


@dataclass(frozen=True, slots=True)
class OrdnanceShot:
    """Everything an ordnance shot did."""

    marker: BlastMarker
    barrage: bool
    strength: int
    distance: float
    """Firer to the marker's placed middle, inches."""
    max_range: float | None
    """The weapon's range; None when the player did not give it (taken as in range)."""
    min_range: float | None
    moved: bool
    ballistic_skill: int | None
    in_sight: bool
    """Barrage: the target in sight (one D6) or not (2D6). Normal ordnance: the hole can be seen."""
    squad: Squad | None
    vehicle: VehicleTarget | None
    vehicle_state: VehicleState | None
    leadership: int | None
    pinning_modifier: int
    """The barrage's Leadership modifier for the pinning test (-1)."""
    aim: Point
    dice: tuple[DieRoll, ...]
    to_hit: DieRoll | None
    to_hit_needed: int | None
    miss: str | None
    """Why no harm was done: "out of range", "hole out of sight", "missed on the move",
    "within minimum range"; None when the shot came down."""
    scatter: DieRoll | None
    distance_dice: tuple[DieRoll, ...]
    scatter_direction: int | None
    scatter_distance: float
    centre: Point | None
    """Where the marker came down; None when it was never fired."""
    models: tuple[ModelUnder, ...]
    hull_hit: bool
    hole_over: bool | None
    """Barrage or not, whether the hole came down over the hull (None without a vehicle)."""
    facing_hit: Facing | None
    vehicle_hits: tuple[VehicleHit, ...]
    unit: str = UNIT

    @property
    def fired(self) -> bool:
        return self.scatter is not None

    @property
    def hits(self) -> int:
        return sum(m.hit for m in self.models)

    @property
    def pinning_test(self) -> int | None:
        """The Leadership a barrage's target must roll under or equal to if it takes casualties:
        only when a model of it was hit (no hit, no casualties, no test)."""
        if not self.barrage or self.leadership is None or self.miss is not None or self.hits == 0:
            return None
        return self.leadership + self.pinning_modifier


def fire_ordnance(
    marker: BlastMarker, weapon: PenetrationWeapon, tables: dict[str, DamageTable], wounds: WoundRules,
    dice: Dice, *, strength: int, distance: float, max_range: float | None = None, squad: Squad | None = None,
    vehicle: VehicleTarget | None = None, vehicle_state: VehicleState = VehicleState(), barrage: bool = False,
    min_range: float | None = None, in_sight: bool = True, moved: bool = False, ballistic_skill: int | None = None,
    leadership: int | None = None, pinning_modifier: int = -1,
) -> OrdnanceShot:
    """Fire an ordnance weapon (a barrage with `barrage`) at `squad` or `vehicle`, the marker
    placed `distance` inches straight ahead. See the module docstring."""
    strength = weapon_strength(weapon, strength)
    if (squad is None) == (vehicle is None):
        raise RulesError("Give the target: a squad of models or a vehicle, not both.")
    if not 0 < distance <= MAX_RANGE:
        raise RulesError(f"Distance {distance:g}\" is not possible here: give more than 0 and up to {MAX_RANGE}\".")
    if max_range is not None and not 0 < max_range <= MAX_RANGE:
        raise RulesError(f"Range {max_range:g}\" is not possible here: give more than 0 and up to {MAX_RANGE}\".")
    if ballistic_skill is not None and not MIN_BS <= ballistic_skill <= MAX_BS:
        raise RulesError(f"BS {ballistic_skill} is not possible: give {MIN_BS} to {MAX_BS}.")
    if leadership is not None and not MIN_LEADERSHIP <= leadership <= MAX_LEADERSHIP:
        raise RulesError(f"Leadership {leadership} is not possible: give {MIN_LEADERSHIP} to {MAX_LEADERSHIP}.")
    if barrage and moved:
        raise RulesError("An ordnance barrage may only be fired by a vehicle that has not moved (it may still pivot).")
    if not barrage and min_range is not None:
        raise RulesError("Only a barrage (G) weapon has a minimum range: add barrage:true or leave min_range out.")
    if min_range is not None and not 0 <= min_range < (max_range or MAX_RANGE):
        raise RulesError(f"Minimum range {min_range:g}\" must be below the range of {max_range or MAX_RANGE:g}\".")
    if moved and ballistic_skill is None:
        raise RulesError("Ordnance fired on the move rolls to hit first: give the vehicle's bs.")
    if ballistic_skill is not None and not moved:
        raise RulesError(f"BS {ballistic_skill} only counts for ordnance fired on the move: add moved:true or leave bs out.")
    if leadership is not None and not barrage:
        raise RulesError(f"Leadership {leadership} is for a barrage's pinning test only: add barrage:true or leave leadership out.")
    if leadership is not None and squad is None:
        raise RulesError(f"Leadership {leadership} is for a squad's pinning test: a vehicle takes none.")
    aim = Point(0.0, float(distance))
    recorded = RecordingDice(dice)
    to_hit = needed = scatter = None
    distance_dice: tuple[DieRoll, ...] = ()
    direction, moved_by, centre = None, 0.0, None
    models: list[ModelUnder] = []
    hull_hit, hole_over, facing_hit, vehicle_hits = False, None, None, []

    def record(miss: str | None) -> OrdnanceShot:
        dice.finish()
        return OrdnanceShot(
            marker, barrage, strength, float(distance), max_range, min_range, moved, ballistic_skill, in_sight,
            squad, vehicle, vehicle_state if vehicle is not None else None, leadership, pinning_modifier, aim, tuple(recorded.rolled),
            to_hit, needed, miss, scatter, distance_dice, direction, moved_by, centre, tuple(models), hull_hit,
            hole_over, facing_hit, tuple(vehicle_hits),
        )

    # 1. Placing the marker: in range and (not a barrage) the hole in sight, else an automatic miss.
    if max_range is not None and distance > max_range:
        return record("out of range")
    if barrage and min_range is not None and distance < min_range:
        return record("within minimum range")
    if not barrage and not in_sight:
        return record("hole out of sight")
    # 2. On the move: to hit with BS first.
    if moved:
        needed = max(2, 7 - ballistic_skill)
        to_hit = recorded.d6("to hit on the move")
        if to_hit.value < needed:
            return record("missed on the move")
    # 3. Scatter.
    if barrage:
        distance_dice = tuple(recorded.d6("scatter distance") for _ in range(1 if in_sight else 2))
        scatter = recorded.scatter("scatter")
    else:
        scatter = recorded.scatter("scatter")
        distance_dice = (recorded.d6("scatter distance"),)
    if not scatter.is_hit:
        direction, moved_by = scatter.direction, float(sum(d.value for d in distance_dice))
    centre = aim.along(heading(direction), moved_by) if moved_by else aim
    if barrage and min_range is not None and centre.length() < min_range:
        return record("within minimum range")
    # 4. Who is under the marker.
    radius = marker.radius
    if squad is not None:
        xs, ys = squad.positions(aim)
        codes = base_coverage(centre, radius, xs, ys, squad.base)
        for i, code in enumerate(codes.tolist()):
            coverage = CODES[code]
            roll = recorded.d6(f"model {i + 1} partly under") if coverage is Coverage.PARTLY else None
            hit = coverage is Coverage.WHOLLY or (roll is not None and roll.value >= marker.partial_hit)
            models.append(ModelUnder(i + 1, Point(float(xs[i]), float(ys[i])), coverage, roll, hit))
    else:
        hull_hit = hull_under(centre, radius, aim, vehicle.half_across, vehicle.half_along)
        hole_over = hole_over_hull(centre, aim, vehicle.half_across, vehicle.half_along)
        if hull_hit:
            # 5. Penetration and damage: the facing, then one hit (two when open-topped).
            if not barrage or hole_over:
                facing_hit = vehicle.facing
            else:
                facing_hit = vehicle.facing_toward(aim, centre)
            # The second hit finds the vehicle as the first left it (immobilised, stunned, passengers out).
            state = vehicle_state
            for _ in range(2 if vehicle_state.open_topped else 1):
                if vehicle_hits and vehicle_hits[-1].damage is not None and vehicle_hits[-1].damage.destroyed:
                    break  # a wreck has nothing left for the second hit to do (our choice)
                vehicle_hits.append(hit_vehicle(
                    weapon, vehicle.armour(facing_hit), state, recorded, tables, wounds, strength=strength,
                    off_centre=not hole_over,
                ))
                state = vehicle_hits[-1].after
    return record(None)
