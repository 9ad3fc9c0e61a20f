"""Table geometry of a shot.

The frame: the firer's muzzle (or crossbar) at the origin, the line of fire along +y. Directions
are degrees clockwise from the line of fire: 0 straight on, away from the firer; 90 to the
firer's right (+x); 180 back toward the firer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Point:
    """A point on the table in the shot frame, in the game's unit."""

    x: float
    """Across the line of fire; positive to the firer's right."""
    y: float
    """Along the line of fire; positive away from the firer."""

    def along(self, direction: Point, distance: float) -> Point:
        """The point `distance` on from here along the unit vector `direction`: a tape measure
        laid from this point."""
        return Point(self.x + direction.x * distance, self.y + direction.y * distance)

    def length(self) -> float:
        return math.hypot(self.x, self.y)

    def unit(self) -> Point:
        n = self.length()
        return Point(self.x / n, self.y / n)


def heading(degrees: float) -> Point:
    """The unit vector pointing `degrees` clockwise from the line of fire."""
    r = math.radians(degrees)
    return Point(math.sin(r), math.cos(r))


def bearing(v: Point) -> float:
    """The direction of `v` in degrees clockwise from the line of fire, in [0, 360)."""
    return math.degrees(math.atan2(v.x, v.y)) % 360.0


def clock_face(degrees: float) -> str:
    """The nearest hour on a clock face laid on the table, 12 o'clock straight on."""
    hour = round((degrees % 360) / 30) % 12
    return f"{hour or 12} o'clock"
