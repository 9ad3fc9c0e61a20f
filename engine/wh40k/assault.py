"""Infantry assaulting a vehicle (Warhammer 40,000 trial vehicle rules: Infantry Assaulting
Vehicles, Monstrous Creatures, Melta Bombs, Krak Grenades, Using Grenades Against Walkers).

:func:`assault_vehicle` reads in the book's order: the hits (Weapon Skill counts for nothing): a
stationary vehicle is hit automatically, one that moved 6" or less on a 4+, one that moved faster
on a 6; a skimmer only on a 6 unless it is immobilised; krak grenades and melta bombs against a
walker that is not immobilised only on a 6. Then each hit rolls to penetrate (D6 + Strength; a
monstrous creature 2D6 + S, a melta bomb 8 + 2D6, a krak grenade 6 + D6) and for damage.

The vehicle's state carries from hit to hit (:func:`~engine.wh40k.damage.state_after`): a hit that
immobilises it makes the next one find it immobilised (a slow skimmer landed), one that stuns it
makes the next find it stunned, passengers who had to get out are no longer aboard, and once it is
destroyed the remaining hits are not rolled (our choice: nothing is left to damage).

Dice order: every to-hit D6 (one per attack, when hits are not automatic), then each hit's
penetration and damage dice in turn.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.wh40k.penetration import VehicleHit, hit_vehicle, weapon_strength
from engine.wh40k.profiles import DamageTable, PenetrationWeapon, WoundRules
from engine.wh40k.vehicle import VehicleState, check_armour

MAX_ATTACKS = 60
SLOW = 6
"""Inches: a vehicle that moved this far or less is hit on a 4+."""


class Movement(enum.Enum):
    """How far the vehicle moved in its previous turn."""

    STATIONARY = "stationary"
    SLOW = "up-to-6"
    FAST = "over-6"


@dataclass(frozen=True, slots=True)
class Assault:
    """A squad's attacks on a vehicle."""

    weapon: PenetrationWeapon
    attacks: int
    movement: Movement
    skimmer: bool
    walker: bool
    needed: int | None
    """The D6 each attack needs to hit; None when every attack hits."""
    why: str
    """The rule that sets it, in our words."""
    to_hit: tuple[DieRoll, ...]
    hits: int
    results: tuple[VehicleHit, ...]
    """Each hit's penetration and damage, in order (fewer than `hits` when the vehicle was
    destroyed before the rest)."""
    dice: tuple[DieRoll, ...]

    @property
    def destroyed(self) -> bool:
        return any(h.damage is not None and h.damage.destroyed for h in self.results)


def to_hit(movement: Movement, *, skimmer: bool, walker: bool, immobilised: bool, grenade: bool) -> tuple[int | None, str]:
    """The D6 an attack needs (None: automatic) and why."""
    if walker:
        if not grenade:
            raise RulesError("Against a walker only krak grenades and melta bombs are rolled here: other attacks use Weapon Skill as in any close combat.")
        if not immobilised:
            return 6, "grenades and melta bombs hit a mobile walker only on a 6"
    if skimmer and not immobilised:
        return 6, "a skimmer is hit only on a 6 unless immobilised"
    if movement is Movement.STATIONARY:
        return None, "a stationary vehicle is hit automatically"
    if movement is Movement.SLOW:
        return 4, "a vehicle that moved 6\" or less is hit on a 4+"
    return 6, "a vehicle that moved over 6\" is hit only on a 6"


def assault_vehicle(
    weapon: PenetrationWeapon, attacks: int, armour: int, movement: Movement, vehicle: VehicleState, dice: Dice,
    tables: Mapping[str, DamageTable], wounds: WoundRules, *, strength: int | None = None, skimmer: bool = False,
    walker: bool = False,
) -> Assault:
    """Resolve `attacks` against a vehicle's `armour` (see the module docstring). With krak
    grenades or melta bombs each model makes one attack: give `attacks` as the models using them."""
    strength = weapon_strength(weapon, strength)
    check_armour(armour)
    if isinstance(attacks, bool) or not isinstance(attacks, int) or not 1 <= attacks <= MAX_ATTACKS:
        raise RulesError(f"Attacks {attacks!r} is not possible here: give 1 to {MAX_ATTACKS}.")
    if weapon.key == "ordnance":
        raise RulesError("Ordnance is not a close combat weapon: pick normal, monstrous, krak or melta-bomb.")
    if skimmer and walker:
        raise RulesError("A vehicle is a skimmer or a walker here, not both (a Talos counts as a walker).")
    skimmer_fast = skimmer and movement is Movement.FAST
    if skimmer_fast and not vehicle.skimmer_fast:
        vehicle = dataclasses.replace(vehicle, skimmer_fast=True)
    if skimmer and not vehicle.skimmer:
        vehicle = dataclasses.replace(vehicle, skimmer=True)
    needed, why = to_hit(movement, skimmer=skimmer, walker=walker, immobilised=vehicle.immobilised,
                         grenade=weapon.key in ("krak", "melta-bomb"))
    recorded = RecordingDice(dice)
    rolls = () if needed is None else tuple(recorded.d6("to hit") for _ in range(attacks))
    hits = attacks if needed is None else sum(d.value >= needed for d in rolls)
    results: list[VehicleHit] = []
    state = vehicle
    for _ in range(hits):
        hit = hit_vehicle(weapon, armour, state, recorded, tables, wounds, strength=strength)
        results.append(hit)
        if hit.damage is not None and hit.damage.destroyed:
            break
        state = hit.after  # immobilised, landed, stunned, passengers out: the next hit finds it so
    dice.finish()
    return Assault(weapon, attacks, movement, skimmer, walker, needed, why, rolls, hits, tuple(results),
                   tuple(recorded.rolled))
