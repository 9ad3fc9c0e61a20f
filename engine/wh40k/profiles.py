"""Record types for Warhammer 40,000 vehicle data (3rd edition trial vehicle rules).

The numbers and the tables' words live in ``config/wh40k.toml``; ``config.gamedata.wh40k`` loads
them into these frozen records once. Code here holds shapes, never numbers. The tables are
self-describing (name, die, rows with their rolls, name and effect) so any command can show them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Read(enum.Enum):
    """How several penetration dice are read."""

    SUM = "sum"
    """Added together (a monstrous creature's 2D6, a melta bomb's 2D6)."""
    HIGHEST = "highest"
    """The highest one kept (an ordnance weapon's 2D6)."""


@dataclass(frozen=True, slots=True)
class PenetrationWeapon:
    """How a kind of weapon rolls to penetrate armour (Armour Penetration and its variants)."""

    key: str
    """The command's name: ``normal``, ``ordnance``, ``monstrous``, ``melta-bomb``, ``krak``."""
    name: str
    dice: int
    """How many D6 are rolled."""
    read: Read
    """How they are read when there are several."""
    strength: int | None
    """A fixed Strength (melta bomb 8, krak grenade 6); None takes the weapon's own."""
    table: str
    """Key of the damage table a penetrating hit goes to."""
    source: str

    def describe(self) -> str:
        """``2D6 (highest) + S`` or ``8 + 2D6``."""
        dice = "D6" if self.dice == 1 else f"{self.dice}D6"
        if self.read is Read.HIGHEST:
            dice += " (highest)"
        return f"{self.strength} + {dice}" if self.strength is not None else f"{dice} + S"


class Outcome(enum.Enum):
    """What a damage table row does, for the procedure to act on."""

    SHAKEN = "shaken"
    STUNNED = "stunned"
    ARMAMENT = "armament"
    IMMOBILISED = "immobilised"
    DESTROYED = "destroyed"
    SLEWS = "slews"
    """Destroyed, and the wreck slews D6" by the scatter die (a HIT flips it)."""
    EXPLODES = "explodes"
    """Destroyed, and debris flies over a radius from the hull's edge."""
    ANNIHILATED = "annihilated"
    """Destroyed as EXPLODES, the model removed, every passenger killed."""

    @property
    def destroys(self) -> bool:
        return self in (Outcome.DESTROYED, Outcome.SLEWS, Outcome.EXPLODES, Outcome.ANNIHILATED)


@dataclass(frozen=True, slots=True)
class DamageRow:
    """One row of a damage table."""

    low: int
    high: int
    """The rolls it covers, ``low`` to ``high``."""
    name: str
    """Its stable lower-case name: ``"crew shaken"``, ``"vehicle destroyed"``."""
    outcome: Outcome
    effect: str
    """What happens, in our words."""
    radius: int | str | None
    """The explosion's reach from the hull's edge: inches, ``"D6"``, or None."""

    @property
    def rolls(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


@dataclass(frozen=True, slots=True)
class DamageTable:
    """A damage table (Glancing Hit, Penetrating Hit, Ordnance Hit)."""

    key: str
    """``glancing``, ``penetrating``, ``ordnance``."""
    name: str
    die: str
    """The die rolled on it: ``"D6"``."""
    when: str
    """When it is used."""
    rows: tuple[DamageRow, ...]
    source: str

    def row(self, roll: int) -> DamageRow:
        """The row a (modified) roll reads: above the last row reads the last."""
        for row in self.rows:
            if row.low <= roll <= row.high:
                return row
        return self.rows[-1] if roll > self.rows[-1].high else self.rows[0]


@dataclass(frozen=True, slots=True)
class BlastMarker:
    """A blast marker, inches."""

    key: str
    name: str
    diameter: float
    hole: float
    """The hole's width (drawn; the hole counts as over a vehicle when the centre is)."""
    partial_hit: int
    """The D6 a model partly under the marker needs to be hit."""
    source: str

    @property
    def radius(self) -> float:
        return self.diameter / 2


@dataclass(frozen=True, slots=True)
class WoundRules:
    """Wounds from a destroyed vehicle (Damage Rolls: Notes; the explosion rows)."""

    passenger: int
    """The D6 each passenger needs to be wounded."""
    debris: int
    """The D6 each model in an explosion's reach needs to be wounded."""
    passenger_placed_within: int
    """Survivors are placed within this many inches of the wreck."""


@dataclass(frozen=True, slots=True)
class Speed:
    """A column of the moving and firing summary."""

    name: str
    up_to: float | None
    """The most inches moved it covers (0: stationary); None for any distance beyond."""


@dataclass(frozen=True, slots=True)
class FiringRow:
    """A vehicle type's row of the moving and firing summary."""

    key: str
    name: str
    max_move: int
    """Inches it may move in the Movement phase."""
    weapons: tuple[str, ...]
    """What it may fire at each speed, in the order of :attr:`FiringSummary.speeds`."""


@dataclass(frozen=True, slots=True)
class FiringSummary:
    """The Vehicle Moving & Firing Summary."""

    speeds: tuple[Speed, ...]
    types: tuple[FiringRow, ...]
    source: str
    road_bonus: int = 0
    """Inches a vehicle (not a skimmer or walker) adds to its move by following a road the whole
    Movement phase; it may not shoot that turn (Movement: Roads)."""
    road_types: tuple[str, ...] = ()
    """The types that may take the road bonus."""
