"""Difficult Terrain for vehicles (Warhammer 40,000 trial vehicle rules: Difficult Terrain,
Skimmers, Walkers).

:func:`difficult_terrain_test`: a vehicle entering (or starting in) difficult ground rolls a D6
and is immobilised on a 1 (1-3 where the ground is especially hazardous), halting where it met
the terrain; otherwise it carries on. A skimmer tests only when it starts or ends its move in
such ground; if immobilised while moving more than 6" it crashes and is destroyed, otherwise it
lands. A walker moves as infantry: it rolls 2D6 and the highest is the furthest it may move.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError


class Mover(enum.Enum):
    VEHICLE = "vehicle"
    SKIMMER = "skimmer"
    WALKER = "walker"


@dataclass(frozen=True, slots=True)
class TerrainTest:
    mover: Mover
    hazardous: bool
    fast: bool
    """A skimmer moving more than 6"."""
    dice: tuple[DieRoll, ...]
    immobilised_on: int | None
    """The highest roll that immobilises (1, or 3 in hazardous ground); None for a walker."""
    immobilised: bool
    crashed: bool
    """A fast skimmer immobilised: crashed and destroyed."""
    walker_move: int | None
    """A walker's most inches this turn (the highest of 2D6)."""


def difficult_terrain_test(mover: Mover, dice: Dice, *, hazardous: bool = False, fast: bool = False) -> TerrainTest:
    if fast and mover is not Mover.SKIMMER:
        raise RulesError("Moving fast only matters to a skimmer here: leave fast out, or pick skimmer.")
    if hazardous and mover is Mover.WALKER:
        raise RulesError("Walkers cross difficult terrain as infantry do; especially hazardous ground is a vehicle rule: leave hazardous out.")
    recorded = RecordingDice(dice)
    if mover is Mover.WALKER:
        a, b = recorded.d6("walker move"), recorded.d6("walker move")
        dice.finish()
        return TerrainTest(mover, False, False, (a, b), None, False, False, max(a.value, b.value))
    test = recorded.d6("difficult terrain")
    worst = 3 if hazardous else 1
    immobilised = test.value <= worst
    dice.finish()
    return TerrainTest(mover, hazardous, fast, (test,), worst, immobilised, immobilised and fast, None)
