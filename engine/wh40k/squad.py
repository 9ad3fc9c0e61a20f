"""A Warhammer 40,000 target on the table in front of the firer: a squad of models on round bases,
or a vehicle's hull.

The frame is DESIGN.md's: the firer at the origin, the line of fire along +y, inches. A squad
stands in rows across the line of fire, `per_row` models to a row, `gap` inches between bases,
its middle at the aim point; model 1 is at the left of the row nearest the firer, counting left
to right then row by row away from it. A vehicle's hull is centred on the aim point, squared to
the line of fire, with the side named by `facing` toward the firer.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import numpy as np

from engine.errors import RulesError
from engine.geometry import Point
from engine.wh40k.blast import MM_PER_INCH
from engine.wh40k.vehicle import check_armour

MAX_MODELS = 50
MAX_GAP = 6.0
MIN_HULL, MAX_HULL = 1.0, 12.0


@dataclass(frozen=True, slots=True)
class Squad:
    """Models on round bases."""

    models: int
    base: int
    """Base diameter, millimetres."""
    per_row: int = 5
    gap: float = 1.0
    """Inches between neighbouring bases' edges."""

    def __post_init__(self) -> None:
        for name, value, top in (("Models", self.models, MAX_MODELS), ("Models per row", self.per_row, MAX_MODELS)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
                raise RulesError(f"{name} {value!r} is not possible here: give 1 to {top}.")
        if not 0 <= self.gap <= MAX_GAP:
            raise RulesError(f"Gap {self.gap:g}\" between bases is not possible here: give 0 to {MAX_GAP:g}\".")

    @property
    def base_radius(self) -> float:
        """Inches."""
        return self.base / MM_PER_INCH / 2

    @property
    def rows(self) -> int:
        return math.ceil(self.models / self.per_row)

    def positions(self, aim: Point) -> tuple[np.ndarray, np.ndarray]:
        """Every base's centre (x, y arrays, inches), in model order, the squad's middle on `aim`."""
        pitch = 2 * self.base_radius + self.gap
        index = np.arange(self.models)
        row, col = index // self.per_row, index % self.per_row
        in_row = np.minimum(self.per_row, self.models - row * self.per_row)
        xs = aim.x + (col - (in_row - 1) / 2) * pitch
        ys = aim.y + (row - (self.rows - 1) / 2) * pitch
        return xs.astype(float), ys.astype(float)


class Facing(enum.Enum):
    """Which of the vehicle's sides faces the firer."""

    FRONT = "front"
    SIDE = "side"
    REAR = "rear"


@dataclass(frozen=True, slots=True)
class VehicleTarget:
    """A vehicle's armour and hull."""

    front: int
    side: int
    rear: int
    facing: Facing = Facing.FRONT
    """The side toward the firer. Seen from the side, its front points to the firer's right."""
    length: float = 4.75
    width: float = 3.5

    def __post_init__(self) -> None:
        check_armour(self.front, "Front armour")
        check_armour(self.side, "Side armour")
        check_armour(self.rear, "Rear armour")
        for name, value in (("Hull length", self.length), ("Hull width", self.width)):
            if not MIN_HULL <= value <= MAX_HULL:
                raise RulesError(f"{name} {value:g}\" is not possible here: give {MIN_HULL:g} to {MAX_HULL:g}\".")

    def armour(self, facing: Facing) -> int:
        return {Facing.FRONT: self.front, Facing.SIDE: self.side, Facing.REAR: self.rear}[facing]

    @property
    def half_across(self) -> float:
        """Half the hull's extent across the line of fire."""
        return (self.width if self.facing is not Facing.SIDE else self.length) / 2

    @property
    def half_along(self) -> float:
        """Half the hull's extent along the line of fire."""
        return (self.length if self.facing is not Facing.SIDE else self.width) / 2

    def facing_toward(self, hull_centre: Point, p: Point) -> Facing:
        """The side of the hull a point off it lies beyond, by the hull's diagonals: the point's
        offset from the middle, scaled by the hull's half-sizes, picks the side it is furthest
        past (our reading of "behind the vehicle hits the rear, and so on")."""
        u, v = (p.x - hull_centre.x) / self.half_across, (p.y - hull_centre.y) / self.half_along
        if self.facing is Facing.SIDE:
            # Front toward +x (the firer's right), so the long axis runs across the line of fire.
            return Facing.SIDE if abs(v) >= abs(u) else (Facing.FRONT if u > 0 else Facing.REAR)
        if abs(u) > abs(v):
            return Facing.SIDE
        toward_firer = v < 0
        if self.facing is Facing.FRONT:
            return Facing.FRONT if toward_firer else Facing.REAR
        return Facing.REAR if toward_firer else Facing.FRONT
