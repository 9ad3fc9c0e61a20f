"""Shooting at siege equipment (seed 001, Siege & Fortresses: Siege towers, Battering rams, Sows,
Mantlets, and the siege equipment list's footnotes 3 and 4).

:func:`target_of_shooting` gives the unit a shot resolves against, in the book's order:

1. Siege tower, battering ram, sow: every shot at the unit hits its machine, because the troops
   are inside it; the machine (its profile: Hits 3, Armour 3+) takes the hits, and neither it nor
   the unit in it is driven back by missile fire (:data:`engine.warmaster.shooting.NEVER_DRIVEN_BACK`).
   Destroyed by shooting, the machine is abandoned and the unit fights on. A siege tower is so big
   that it is shot at as a wall section is (001:148): it counts as fortified (6+ to hit) and has
   no armour (001:29), wherever it stands; its Hits stay its own (it has no Structure Points). Its
   3+ is the save of the troops inside it when they assault and are shot or oiled (2. below).
2. Stand and shoot at a unit assaulting under one of them: the hits are on the unit (they count in
   the assault), which saves with the machine's armour when it is better than its own (Assaults,
   001:77).
3. Mantlets: the unit counts as in a defended position (so a drive back loses one die), and
   driven back further than half its pace it abandons them. A unit that charges abandons them
   first, so a charging unit with mantlets is refused.
"""

from __future__ import annotations

import enum
from dataclasses import replace

from engine.errors import RulesError
from engine.warmaster.profiles import Position, Troop, TroopProfile
from engine.warmaster.shooting import Unit


class Equipment(enum.Enum):
    SIEGE_TOWER = "siege-tower"
    BATTERING_RAM = "battering-ram"
    SOW = "sow"
    MANTLETS = "mantlets"


MACHINES = (Equipment.SIEGE_TOWER, Equipment.BATTERING_RAM, Equipment.SOW)
"""Equipment the troops are inside of: shots hit the machine."""


def target_of_shooting(unit: Unit, equipment: Equipment, profiles: dict[str, TroopProfile], machine: Troop) -> Unit:
    """The unit a shot at `unit` (which has `equipment`) resolves against; `profiles` are the
    siege machines' profiles, `machine` the troop type a machine moves as."""
    if unit.in_tower:
        raise RulesError(f"{unit.name}: troops manning a tower have no {equipment.value.replace('-', ' ')}; give one or the other.")
    if equipment is Equipment.MANTLETS:
        if unit.charging:
            raise RulesError(f"{unit.name}: a unit that charges abandons its mantlets first: leave the mantlets out.")
        position = unit.position if unit.position is not Position.OPEN else Position.DEFENDED
        return replace(unit, position=position, equipment=equipment.value)
    profile = profiles[equipment.value]
    if unit.charging:
        # Stand and shoot at an assault under the machine: the unit's hits, the machine's better save.
        better = profile.armour if unit.armour is None else min(unit.armour, profile.armour)
        return replace(unit, armour=better, equipment=equipment.value)
    if equipment is Equipment.SIEGE_TOWER:
        # Shot at as a wall section: fortified, no armour.
        position, armour = Position.FORTIFIED, None
    else:
        position, armour = unit.position, profile.armour or None
    return Unit(f"{unit.name}'s {profile.name.lower()}", 1, profile.hits, armour, position, machine,
                unit.side, unit.engaged, False, False, equipment.value)
