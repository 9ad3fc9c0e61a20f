"""Siege artillery (seed 001, Siege & Fortresses: Tribock, Bombard, Mangonel).

* Tribock: 20-120 cm, 6 attacks, no save; sees only a 4 cm corridor straight ahead.
* Mangonel: 20-90 cm, 4 attacks, no save; a 2 cm corridor.
* Bombard: 90 cm, 4 attacks and a bounce like a cannon's (not off walls or towers), no save,
  fortified counts as defended and defended as in the open; a 2 cm corridor. Fired at units
  through :func:`engine.warmaster.cannon.fire_cannons` with the profile from :func:`bombard_as_cannon`;
  at a fortification it scores hits on 5+ for the structure test.

The corridor is checked with `offset`: how far the target's nearest point lies to the side of
the line straight ahead of the machine's front centre (inside half the corridor's width).
"""

from __future__ import annotations

from engine.dice import Dice
from engine.errors import RulesError
from engine.warmaster.profiles import Artillery, Position, PositionRule, SiegeArtillery
from engine.warmaster.shooting import Unit, Volley, fire_volley

BOUNCE = 5
"""cm: a bombard's ball bounces as a cannon's does (seed 002, Cannons)."""


def in_corridor(weapon: SiegeArtillery, offset: float) -> None:
    if abs(offset) > weapon.corridor / 2:
        raise RulesError(f"A target {abs(offset):g} cm to the side is outside the {weapon.name}'s {weapon.corridor} cm corridor "
                         "straight ahead: it must be ordered to turn first.")


def fire_siege_artillery(weapon: SiegeArtillery, positions: dict[Position, PositionRule], target: Unit, distance: float,
                         dice: Dice, *, offset: float = 0.0) -> Volley:
    """A tribock or mangonel at a unit (a bombard bounces: see :func:`bombard_as_cannon`)."""
    if weapon.bounce:
        raise RulesError(f"The {weapon.name} bounces like a cannon: fire it with the bombard command.")
    in_corridor(weapon, offset)
    return fire_volley(dice, target, positions, weapon=weapon.name, source=weapon.source, distance=distance,
                       min_range=weapon.min_range, max_range=weapon.range, attacks=weapon.attacks, armour_ignored=True)


def bombard_as_cannon(weapon: SiegeArtillery) -> Artillery:
    """The bombard as a cannon profile: its range, 4 attacks, the cannon's bounce, no save, one better."""
    return Artillery(key=weapon.key, name=weapon.name, range=weapon.range, attacks=weapon.attacks, effects=weapon.effects,
                     source=weapon.source, bounce=BOUNCE, armour="ignored", position_shift=weapon.position_shift)
