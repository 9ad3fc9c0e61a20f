"""Armour Penetration (Warhammer 40,000 trial vehicle rules), then the Damage roll.

:func:`roll_penetration` reads in the book's order: the weapon's Strength (halved, rounding up,
for a blast whose hole is not over the vehicle), a D6 added to it (an ordnance weapon rolls 2D6
and keeps the highest; a monstrous creature adds 2D6; a melta bomb is 8 + 2D6; a krak grenade
6 + D6), the total against the Armour Value of the facing hit: lower bounces off, equal is a
glancing hit, higher a penetrating hit. A skimmer moving fast, a hull down vehicle or one behind
its smoke counts a penetrating hit as glancing (Obscured Targets and Glancing Hits).

:func:`penetrate` goes on to the damage roll on the right table (:mod:`engine.wh40k.damage`):
glancing for a glancing hit, penetrating for a penetrating one, ordnance for an ordnance
weapon's penetrating hit.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.wh40k.damage import Damage, roll_damage, state_after
from engine.wh40k.profiles import DamageTable, PenetrationWeapon, Read, WoundRules
from engine.wh40k.vehicle import VehicleState, check_armour

MIN_STRENGTH, MAX_STRENGTH = 1, 10


class HitResult(enum.Enum):
    NO_EFFECT = "no effect"
    """The total is below the Armour Value: the shot bounces off."""
    GLANCING = "glancing"
    """The total equals it."""
    PENETRATING = "penetrating"
    """The total beats it."""


@dataclass(frozen=True, slots=True)
class Penetration:
    """One armour penetration roll."""

    weapon: PenetrationWeapon
    strength: int
    """The weapon's Strength (a melta bomb's 8, a krak grenade's 6)."""
    off_centre: bool
    """A blast whose hole was not over the vehicle: Strength halved, rounding up."""
    effective_strength: int
    """The Strength added to the roll."""
    armour: int
    """The Armour Value of the facing hit."""
    dice: tuple[DieRoll, ...]
    """The penetration dice."""
    roll: int
    """What the dice give: their sum, or the highest for an ordnance weapon."""
    total: int
    """Strength + roll."""
    result: HitResult
    """By the numbers."""
    obscured_by: tuple[str, ...]
    """Why a penetrating hit counts as glancing (skimmer moving fast, hull down, smoke)."""
    counts_as: HitResult
    """The hit after that: what the damage roll uses."""


@dataclass(frozen=True, slots=True)
class VehicleHit:
    """A hit on a vehicle: penetration, then damage."""

    penetration: Penetration
    damage: Damage | None
    """None when the shot bounced off."""
    vehicle: VehicleState
    dice: tuple[DieRoll, ...]
    """Every die in the order rolled."""
    after: VehicleState | None = None
    """The vehicle after this hit, as the next hit finds it (:func:`~engine.wh40k.damage.state_after`):
    immobilised, landed, stunned, its passengers out."""

    @property
    def table(self) -> str | None:
        return None if self.damage is None else self.damage.table.key


def weapon_strength(weapon: PenetrationWeapon, strength: int | None) -> int:
    """The Strength a penetration roll uses: the weapon's fixed one, or the one given."""
    if strength is not None and (isinstance(strength, bool) or not isinstance(strength, int)
                                 or not MIN_STRENGTH <= strength <= MAX_STRENGTH):
        raise RulesError(f"Strength {strength!r} is not possible: give {MIN_STRENGTH} to {MAX_STRENGTH}.")
    if weapon.strength is not None:
        if strength is not None and strength != weapon.strength:
            raise RulesError(f"A {weapon.name.lower()} is always Strength {weapon.strength}, not {strength}: leave strength out.")
        return weapon.strength
    if strength is None:
        raise RulesError(f"A {weapon.name.lower()} needs its Strength: give strength (1 to {MAX_STRENGTH}).")
    return strength


POOLED = frozenset({"penetration"})
"""The purpose of the dice :func:`roll_penetration` reads as a pool (the highest, or their sum): the
order they fall in never matters, so the odds of one hit may count each set of faces once
(engine/odds)."""


def roll_penetration(
    weapon: PenetrationWeapon, armour: int, dice: Dice, *, strength: int | None = None, off_centre: bool = False,
    vehicle: VehicleState = VehicleState(),
) -> Penetration:
    """Roll to penetrate `armour` with `weapon` (see the module docstring)."""
    strength = weapon_strength(weapon, strength)
    check_armour(armour)
    if off_centre and weapon.key not in ("normal", "ordnance"):
        raise RulesError(f"Off-centre halves a blast's Strength; a {weapon.name.lower()} is not a blast: leave off_centre out.")
    effective = math.ceil(strength / 2) if off_centre else strength
    rolled = tuple(dice.d6("penetration") for _ in range(weapon.dice))
    values = [d.value for d in rolled]
    roll = max(values) if weapon.read is Read.HIGHEST else sum(values)
    total = effective + roll
    if total < armour:
        result = HitResult.NO_EFFECT
    elif total == armour:
        result = HitResult.GLANCING
    else:
        result = HitResult.PENETRATING
    obscured = vehicle.obscured_by if result is HitResult.PENETRATING else ()
    counts_as = HitResult.GLANCING if obscured else result
    return Penetration(weapon, strength, off_centre, effective, armour, rolled, roll, total, result, obscured, counts_as)


def damage_table(penetration: Penetration, tables: Mapping[str, DamageTable]) -> DamageTable | None:
    """The table the hit rolls on: none, glancing, or the weapon's (penetrating or ordnance)."""
    if penetration.counts_as is HitResult.NO_EFFECT:
        return None
    if penetration.counts_as is HitResult.GLANCING:
        return tables["glancing"]
    return tables[penetration.weapon.table]


def hit_vehicle(
    weapon: PenetrationWeapon, armour: int, vehicle: VehicleState, dice: Dice, tables: Mapping[str, DamageTable],
    wounds: WoundRules, *, strength: int | None = None, off_centre: bool = False,
) -> VehicleHit:
    """One hit on a vehicle, start to finish, without ending the dice: for procedures that make
    several (a blast on an open-topped vehicle, a squad's attacks)."""
    recorded = RecordingDice(dice)
    penetration = roll_penetration(weapon, armour, recorded, strength=strength, off_centre=off_centre, vehicle=vehicle)
    table = damage_table(penetration, tables)
    damage = None if table is None else roll_damage(table, vehicle, recorded, wounds)
    return VehicleHit(penetration, damage, vehicle, tuple(recorded.rolled), state_after(vehicle, damage))


def penetrate(
    weapon: PenetrationWeapon, armour: int, vehicle: VehicleState, dice: Dice, tables: Mapping[str, DamageTable],
    wounds: WoundRules, *, strength: int | None = None, off_centre: bool = False,
) -> VehicleHit:
    """Roll to penetrate and, when the armour is breached, for damage (the ``/40k penetrate``
    command). Calls ``dice.finish()``."""
    hit = hit_vehicle(weapon, armour, vehicle, dice, tables, wounds, strength=strength, off_centre=off_centre)
    dice.finish()
    return hit
