"""The Elven Bolt Thrower (seed 002, Artillery and Machines) and, as far as the seed goes, the Orc
Rock Lobber.

Elven Bolt Thrower: 40 cm, 3 attacks a machine, +1 to hit as all Elven archery (3+ in the open,
4+ defended, 5+ fortified), armour rolls as normal; it may shoot at chargers (the hits then carry
into the combat). Rock Lobber: the seed's entry stops after its profile (60 cm, 3 attacks), so it
is fired as that profile with the core rules only; whatever special rules the book gives it
after that are not in the text and are not applied.
"""

from __future__ import annotations

from engine.dice import Dice
from engine.warmaster.profiles import Artillery, Position, PositionRule
from engine.warmaster.shooting import Unit, Volley, fire_volley


def fire_elven_bolt_thrower(weapon: Artillery, positions: dict[Position, PositionRule], target: Unit, distance: float,
                            dice: Dice, *, machines: int = 1) -> Volley:
    return fire_volley(dice, target, positions, weapon=weapon.name, source=weapon.source, distance=distance, min_range=0,
                       max_range=weapon.range, attacks=weapon.attacks, machines=machines, to_hit_bonus=weapon.to_hit_bonus)


def fire_rock_lobber(weapon: Artillery, positions: dict[Position, PositionRule], target: Unit, distance: float,
                     dice: Dice, *, machines: int = 1) -> Volley:
    return fire_volley(dice, target, positions, weapon=weapon.name, source=weapon.source, distance=distance, min_range=0,
                       max_range=weapon.range, attacks=weapon.attacks, machines=machines)
