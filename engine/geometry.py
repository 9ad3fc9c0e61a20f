"""Table geometry of a shot.

The frame: the firer's muzzle (or crossbar) at the origin, the line of fire along +y. Directions
are degrees clockwise from the line of fire: 0 straight on, away from the firer; 90 to the
firer's right (+x); 180 back toward the firer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


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
    """The nearest half hour on a clock face laid on the table, 12 o'clock straight on, 3 o'clock
    to the firer's right: 30 degrees an hour, so 45 degrees is "half past 1" (a direction halfway
    between two half hours goes to the later one)."""
    halves = math.floor((degrees % 360) / 15 + 0.5) % 24
    hour = halves // 2 or 12
    return f"half past {hour}" if halves % 2 else f"{hour} o'clock"


def distance_to_rects(centre: Point, xs, ys, half_w: float, half_h: float) -> np.ndarray:
    """How far `centre` is from each axis-aligned rectangle centred at (`xs`, `ys`) (numpy arrays
    that broadcast) with half-sizes `half_w` across and `half_h` along, all at once: 0 inside
    one. A rectangle is wholly or partly under a circle round `centre` when this is within the
    radius (a base under a template, a hull under a blast marker)."""
    dx = np.maximum(np.abs(np.asarray(xs, dtype=float) - centre.x) - half_w, 0.0)
    dy = np.maximum(np.abs(np.asarray(ys, dtype=float) - centre.y) - half_h, 0.0)
    return np.hypot(dx, dy)
