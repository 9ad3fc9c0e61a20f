"""Tank Shock and Death or Glory (Warhammer 40,000 trial vehicle rules).

:func:`tank_shock` reads in the book's order: the tank reaches the unit, which takes a Morale
check (2D6 against its Leadership: passed on the Leadership or less). Failed: the unit falls back
2D6". Passed: a model in the tank's path may stand for Death or Glory: its one attack hits
automatically against the front armour and is resolved at once; unless it destroys or
immobilises the tank, the model is crushed (killed whatever its Wounds or saves). Crew shaken or
stunned do not stop the tank.

Dice order: the two Morale dice; then the two fall-back dice (failed), or the Death or Glory
attack's penetration and damage dice (passed, when a model stands).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.wh40k.penetration import VehicleHit, hit_vehicle, weapon_strength
from engine.wh40k.profiles import DamageTable, Outcome, PenetrationWeapon, WoundRules
from engine.wh40k.vehicle import VehicleState, check_armour

MIN_LEADERSHIP, MAX_LEADERSHIP = 2, 10


@dataclass(frozen=True, slots=True)
class TankShock:
    leadership: int
    morale: tuple[DieRoll, DieRoll]
    passed: bool
    fall_back: tuple[DieRoll, ...]
    """The 2D6 inches of a failed unit's fall back; empty when it passed."""
    death_or_glory: VehicleHit | None
    """The hero's attack, when one stood."""
    tank_stopped: bool
    """The attack destroyed or immobilised the tank."""
    dice: tuple[DieRoll, ...]

    @property
    def morale_total(self) -> int:
        return sum(d.value for d in self.morale)

    @property
    def fall_back_distance(self) -> int | None:
        return sum(d.value for d in self.fall_back) if self.fall_back else None

    @property
    def hero_killed(self) -> bool:
        return self.death_or_glory is not None and not self.tank_stopped


def tank_shock(
    leadership: int, dice: Dice, tables: Mapping[str, DamageTable], wounds: WoundRules, *,
    hero: PenetrationWeapon | None = None, strength: int | None = None, front_armour: int | None = None,
    vehicle: VehicleState = VehicleState(),
) -> TankShock:
    """The Morale check of a unit the tank reaches, and a Death or Glory attack with `hero`'s
    weapon against `front_armour` when the check is passed (see the module docstring)."""
    if isinstance(leadership, bool) or not isinstance(leadership, int) or not MIN_LEADERSHIP <= leadership <= MAX_LEADERSHIP:
        raise RulesError(f"Leadership {leadership!r} is not possible: give {MIN_LEADERSHIP} to {MAX_LEADERSHIP}.")
    if hero is None and (strength is not None or front_armour is not None):
        given = " and ".join(f"{n} {v}" for n, v in (("strength", strength), ("front", front_armour)) if v is not None)
        raise RulesError(f"{given.capitalize()} is for a Death or Glory attack: give hero (the weapon he attacks with), "
                         "or leave it out.")
    if hero is not None:
        if hero.key == "ordnance":
            raise RulesError("A Death or Glory attack is one shot or one close combat attack, not ordnance.")
        weapon_strength(hero, strength)
        if front_armour is None:
            raise RulesError("Death or Glory hits the tank's front armour: give front.")
        check_armour(front_armour, "Front armour")
    recorded = RecordingDice(dice)
    morale = (recorded.d6("morale"), recorded.d6("morale"))
    passed = morale[0].value + morale[1].value <= leadership
    fall_back: tuple[DieRoll, ...] = ()
    attack = None
    stopped = False
    if not passed:
        fall_back = (recorded.d6("fall back"), recorded.d6("fall back"))
    elif hero is not None:
        attack = hit_vehicle(hero, front_armour, vehicle, recorded, tables, wounds, strength=strength)
        d = attack.damage
        stopped = d is not None and (d.destroyed or (d.row.outcome is Outcome.IMMOBILISED and d.counts_as is None))
    dice.finish()
    return TankShock(leadership, morale, passed, fall_back, attack, stopped, tuple(recorded.rolled))
