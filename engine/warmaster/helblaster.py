"""The Empire Helblaster Gun (seed 002, Artillery and Machines).

:func:`fire_helblaster`, in the book's order: the attacks come from the range band (up to 10 cm 6,
up to 20 cm 3, up to 30 cm 1); the player may settle on fewer before rolling. Rolling more than
one attack, more 1s than 6s among them and the gun explodes (destroyed, no shot); otherwise hits
are scored by the target's position as usual (core) and the target's armour counts one worse
(6+ is lost altogether). Stands lost and drive back follow the core rules.

It may stand and shoot at a charging enemy, holding its fire until the last moment (seed 002):
give the charger's range then; the hits carry into the combat and there is no drive back (the
target's ``charging``, core).

A range on a band's edge (10 cm, 20 cm) is in the nearer band: the seed's bands read 01-10,
10-20, 20-30 and we give the gun the benefit of the shared number.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.warmaster.profiles import UNIT, Artillery, Position, PositionRule
from engine.warmaster.shooting import AttackResult, Unit, roll_attacks


@dataclass(frozen=True, slots=True)
class HelblasterShot:
    weapon: Artillery
    range: float
    """cm to the target."""
    band_attacks: int
    """The attacks the range allows."""
    attacks: int
    """The attacks rolled."""
    ones: int
    sixes: int
    exploded: bool
    result: AttackResult | None
    """None when it exploded."""
    dice: tuple[DieRoll, ...]
    unit: str = UNIT

    @property
    def hits(self) -> int:
        return 0 if self.result is None else self.result.hits


def band_attacks(weapon: Artillery, distance: float) -> int:
    """The attacks the range band allows."""
    if not 0 < distance <= weapon.range:
        raise RulesError(f"Range {distance:g} cm is outside the Helblaster's {weapon.range} cm.")
    return next(attacks for up_to, attacks in weapon.bands if distance <= up_to)


def weapon_worse(weapon: Artillery) -> int:
    """How many points worse the target's armour counts."""
    return 1 if weapon.armour == "worse" else 0


def fire_helblaster(weapon: Artillery, positions: dict[Position, PositionRule], target: Unit, distance: float,
                    dice: Dice, *, attacks: int | None = None) -> HelblasterShot:
    allowed = band_attacks(weapon, distance)
    if attacks is None:
        attacks = allowed
    if not 1 <= attacks <= allowed:
        raise RulesError(f"{attacks} attacks: at {distance:g} cm the Helblaster rolls 1 to {allowed}.")
    rec = RecordingDice(dice)
    # Roll the attacks; with more than one, more 1s than 6s and it explodes instead.
    first = tuple(rec.d6(f"to hit ({target.name})") for _ in range(attacks))
    ones = sum(1 for d in first if d.value == 1)
    sixes = sum(1 for d in first if d.value == 6)
    exploded = attacks > 1 and ones > sixes
    if exploded:
        rec.finish()
        return HelblasterShot(weapon, float(distance), allowed, attacks, ones, sixes, True, None, first)
    result = roll_attacks(rec, target, attacks, positions, armour_worse=weapon_worse(weapon), rolled=first)
    rec.finish()
    return HelblasterShot(weapon, float(distance), allowed, attacks, ones, sixes, False, result, tuple(rec.rolled))
