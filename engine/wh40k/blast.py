"""What lies under a blast marker (Warhammer 40,000 trial vehicle rules, Ordnance Weapons: Firing
procedure; Shooting at Vehicles).

Real geometry, every model at once with numpy: a round base is wholly under the marker when its
far edge is inside the circle, partly under it when any of it is (touching counts), outside
otherwise. A vehicle's hull (a rectangle) is hit when any of it is under the marker, and the hole
is over it when the marker's centre is over the hull.
"""

from __future__ import annotations

import enum

import numpy as np

from engine.geometry import Point, distance_to_rects

MM_PER_INCH = 25.4


class Coverage(enum.Enum):
    WHOLLY = "wholly"
    """Entirely under the marker: hit."""
    PARTLY = "partly"
    """Partly under it: hit on a 4+."""
    OUTSIDE = "outside"
    """Not under it at all."""


EDGE = 1e-6
"""Inches: closer than this to the marker's edge counts as on it."""


def base_coverage(centre: Point, radius: float, xs: np.ndarray, ys: np.ndarray, base_mm: float) -> np.ndarray:
    """How far under a marker of `radius` round `centre` each round base (centres `xs`, `ys`,
    inches; `base_mm` across) lies: an array of 0 (wholly), 1 (partly) or 2 (outside), the
    order of :data:`CODES`."""
    r = base_mm / MM_PER_INCH / 2
    d = np.hypot(xs - centre.x, ys - centre.y)
    # A base exactly touching the edge is partly under (and one exactly inside it wholly under):
    # EDGE absorbs the rounding of measurements given to a thousandth of an inch or finer.
    return np.where(d + r <= radius + EDGE, 0, np.where(d - r <= radius + EDGE, 1, 2))


CODES = (Coverage.WHOLLY, Coverage.PARTLY, Coverage.OUTSIDE)
"""The coverage each code of :func:`base_coverage` stands for."""


def hull_under(centre: Point, radius: float, hull_centre: Point, half_across: float, half_along: float) -> bool:
    """Whether any of a hull (a rectangle, half-sizes across and along the line of fire) is under
    the marker."""
    return bool(distance_to_rects(centre, hull_centre.x, hull_centre.y, half_across, half_along) <= radius)


def hole_over_hull(centre: Point, hull_centre: Point, half_across: float, half_along: float) -> bool:
    """Whether the marker's hole (its centre) is over the hull."""
    return bool(distance_to_rects(centre, hull_centre.x, hull_centre.y, half_across, half_along) == 0)
