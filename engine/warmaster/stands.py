"""Warmaster stands on the table: rectangles in the shot frame, and lines of flight through them.

The frame is DESIGN.md's: the (closest) firing stand's front-centre at the origin, the line of
fire along +y, x to the firer's right, in centimetres. A stand is 4 x 2 cm by default (40 x 20 mm);
a unit is laid out in a line (stands side by side) or a column (one behind another), or at given
stand centres, facing the firer unless it is turned.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import numpy as np

from engine.errors import RulesError
from engine.geometry import Point

EPSILON = 1e-6
"""A line must run this far inside a stand to go through it: touching an edge or a corner is not
passing through."""


class Formation(enum.Enum):
    LINE = "line"
    COLUMN = "column"


@dataclass(frozen=True, slots=True)
class Stand:
    """One stand: its centre, the way its front faces, its size."""

    cx: float
    cy: float
    facing: float
    """Degrees clockwise from the line of fire that the stand's front faces (180: toward the firer)."""
    width: float = 4.0
    depth: float = 2.0

    def corners(self) -> tuple[Point, ...]:
        """Front-left, front-right, back-right, back-left, as the stand sees them."""
        fx, fy = math.sin(math.radians(self.facing)), math.cos(math.radians(self.facing))
        rx, ry = fy, -fx  # the stand's right, 90 degrees clockwise of its front
        hw, hd = self.width / 2, self.depth / 2
        out = []
        for a, b in ((-hw, hd), (hw, hd), (hw, -hd), (-hw, -hd)):
            out.append(Point(self.cx + rx * a + fx * b, self.cy + ry * a + fy * b))
        return tuple(out)


def lay_out(formation: Formation, stands: int, front: Point, *, turn: float = 0.0, width: float = 4.0,
            depth: float = 2.0) -> tuple[Stand, ...]:
    """A unit of `stands` whose front-centre is at `front`, facing the firer (its front toward
    the origin's side, -y) turned `turn` degrees clockwise about that point."""
    facing = (180.0 + turn) % 360
    fx, fy = math.sin(math.radians(facing)), math.cos(math.radians(facing))
    rx, ry = fy, -fx
    out = []
    for i in range(stands):
        if formation is Formation.LINE:
            a, b = (i - (stands - 1) / 2) * width, -depth / 2
        else:
            a, b = 0.0, -depth / 2 - i * depth
        out.append(Stand(round(front.x + rx * a + fx * b, 9), round(front.y + ry * a + fy * b, 9), facing, width, depth))
    return tuple(out)


def lay_out_centred(formation: Formation, stands: int, front: Point, *, turn: float = 0.0, width: float = 4.0,
                    depth: float = 2.0) -> tuple[Stand, ...]:
    """A target unit as players set one up turned: laid out facing the firer with its front-centre
    at `front`, turned `turn` degrees clockwise about its own centre, then moved straight along
    the line of fire so that its nearest edge is as far away as `front` (turned 90 degrees, it
    shows the firer its flank, centred on the line of fire, rather than an edge along it).
    Unturned, it is :func:`lay_out`."""
    if not turn % 360:
        return lay_out(formation, stands, front, width=width, depth=depth)
    deep = depth * (stands if formation is Formation.COLUMN else 1)
    centre = Point(front.x, front.y + deep / 2)
    placed = lay_out(formation, stands, Point(centre.x, centre.y - deep / 2), turn=0.0, width=width, depth=depth)
    turned = []
    a = math.radians(turn)
    for st in placed:
        dx, dy = st.cx - centre.x, st.cy - centre.y
        # Clockwise by `turn` in the table frame (x right, y away): (dx, dy) -> (dx cos + dy sin, -dx sin + dy cos).
        turned.append(Stand(centre.x + dx * math.cos(a) + dy * math.sin(a), centre.y - dx * math.sin(a) + dy * math.cos(a),
                            (st.facing + turn) % 360, width, depth))
    nearest = min(c.y for st in turned for c in st.corners())
    shift = front.y - nearest
    return tuple(Stand(round(st.cx, 9) + 0.0, round(st.cy + shift, 9) + 0.0, st.facing, width, depth) for st in turned)


def lay_out_at(centres: tuple[Point, ...], front: Point, *, turn: float = 0.0, width: float = 4.0,
               depth: float = 2.0) -> tuple[Stand, ...]:
    """Stands at given centres, each (x, y) measured from `front`: x to the firer's right (the
    unit's left, as it faces the firer), y away from the firer (back from the unit's front); all
    facing the firer, then turned `turn` degrees clockwise about `front` as :func:`lay_out` turns
    a unit."""
    facing = (180.0 + turn) % 360
    fx, fy = math.sin(math.radians(facing)), math.cos(math.radians(facing))
    rx, ry = fy, -fx
    return tuple(Stand(round(front.x - rx * c.x - fx * c.y, 9) + 0.0, round(front.y - ry * c.x - fy * c.y, 9) + 0.0, facing,
                       width, depth) for c in centres)


def _local(stands: tuple[Stand, ...], x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points (x, y) (one per stand, or broadcast) in each stand's own frame: across to its right, along its front."""
    cx = np.array([s.cx for s in stands]); cy = np.array([s.cy for s in stands])
    f = np.radians(np.array([s.facing for s in stands]))
    fx, fy = np.sin(f), np.cos(f)
    dx, dy = x - cx, y - cy
    return dx * fy - dy * fx, dx * fx + dy * fy


def closest_point(stand: Stand, p: Point) -> Point:
    """The point of `stand` nearest `p` (plain arithmetic: one stand is too few for numpy)."""
    f = math.radians(stand.facing)
    fx, fy = math.sin(f), math.cos(f)
    dx, dy = p.x - stand.cx, p.y - stand.cy
    a = min(max(dx * fy - dy * fx, -stand.width / 2), stand.width / 2)
    b = min(max(dx * fx + dy * fy, -stand.depth / 2), stand.depth / 2)
    return Point(round(stand.cx + fy * a + fx * b, 9) + 0.0, round(stand.cy - fx * a + fy * b, 9) + 0.0)


def crossings(stands: tuple[Stand, ...], a: Point, b: Point) -> np.ndarray:
    """For each stand, the length of the segment a-b inside it (0 when it misses or only touches):
    Liang-Barsky clipping in every stand's own frame at once."""
    t0, t1 = spans(stands, a, b)
    return np.clip(t1 - t0, 0.0, None) * math.hypot(b.x - a.x, b.y - a.y)


def spans(stands: tuple[Stand, ...], a: Point, b: Point) -> tuple[np.ndarray, np.ndarray]:
    """For each stand, where the segment a-b enters and leaves it, as fractions of a-b (leave <=
    enter when it misses)."""
    if not stands:
        return np.zeros(0), np.zeros(0)
    ax, ay = _local(stands, np.full(len(stands), a.x), np.full(len(stands), a.y))
    bx, by = _local(stands, np.full(len(stands), b.x), np.full(len(stands), b.y))
    hw = np.array([s.width / 2 for s in stands]) - EPSILON
    hd = np.array([s.depth / 2 for s in stands]) - EPSILON
    t0, t1 = np.zeros(len(stands)), np.ones(len(stands))
    for p0, d, half in ((ax, bx - ax, hw), (ay, by - ay, hd)):
        with np.errstate(divide="ignore", invalid="ignore"):
            lo = (-half - p0) / d
            hi = (half - p0) / d
        enter = np.where(d > 0, lo, hi)
        leave = np.where(d > 0, hi, lo)
        parallel = d == 0
        inside = np.abs(p0) < half
        t0 = np.where(parallel, np.where(inside, t0, 1.0), np.maximum(t0, enter))
        t1 = np.where(parallel, np.where(inside, t1, 0.0), np.minimum(t1, leave))
    return t0, t1


def exit_point(stand: Stand, entry: Point, direction: Point) -> Point:
    """Where a line entering `stand` at `entry` heading `direction` leaves it."""
    far = entry.along(direction, stand.width + stand.depth)
    (ax,), (ay,) = _local((stand,), np.array([entry.x]), np.array([entry.y]))
    (bx,), (by,) = _local((stand,), np.array([far.x]), np.array([far.y]))
    t = 1.0
    for p0, d, half in ((ax, bx - ax, stand.width / 2), (ay, by - ay, stand.depth / 2)):
        if d > 0:
            t = min(t, (half - p0) / d)
        elif d < 0:
            t = min(t, (-half - p0) / d)
    p = entry.along(direction, float(max(0.0, t)) * (stand.width + stand.depth))
    return Point(round(p.x, 9) + 0.0, round(p.y, 9) + 0.0)


def corner_array(stands: tuple[Stand, ...]) -> np.ndarray:
    """Every stand's four corners at once, shape (stands, 4, 2), in :meth:`Stand.corners`' order."""
    cx = np.array([s.cx for s in stands]); cy = np.array([s.cy for s in stands])
    f = np.radians(np.array([s.facing for s in stands]))
    fx, fy = np.sin(f), np.cos(f)
    hw = np.array([s.width / 2 for s in stands]); hd = np.array([s.depth / 2 for s in stands])
    a = np.array([-1.0, 1.0, 1.0, -1.0])[None, :] * hw[:, None]
    b = np.array([1.0, 1.0, -1.0, -1.0])[None, :] * hd[:, None]
    x = cx[:, None] + fy[:, None] * a + fx[:, None] * b
    y = cy[:, None] - fx[:, None] * a + fy[:, None] * b
    return np.stack([x, y], axis=2)


def overlapping(stands: tuple[Stand, ...]) -> list[tuple[int, int]]:
    """Pairs of stands that overlap (touching is fine): the separating-axis test, each pair on
    its own four axes (each stand's two edge directions), with the same small tolerance as
    :func:`crossings`. Work and memory grow as the square of the stand count (every pair is
    looked at once); the commands cap how many stands one call can place."""
    n = len(stands)
    if n < 2:
        return []
    corners = corner_array(stands)                                   # (n, 4, 2)
    f = np.radians(np.array([s.facing for s in stands]))
    axes = np.stack([np.stack([np.cos(f), -np.sin(f)], 1), np.stack([np.sin(f), np.cos(f)], 1)], 1)  # (n, 2, 2)
    idx = np.arange(n)
    separated = np.zeros((n, n), dtype=bool)
    for k in (0, 1):
        proj = corners @ axes[:, k, :].T                               # (n stands, 4, n axes)
        lo, hi = proj.min(axis=1), proj.max(axis=1)                  # [j, i]: stand j on stand i's axis k
        own_lo, own_hi = lo[idx, idx], hi[idx, idx]
        # on stand i's axis: i's own extent against every other stand j's
        apart = (own_hi[:, None] <= lo.T + 1e-3) | (hi.T <= own_lo[:, None] + 1e-3)  # (i, j)
        separated |= apart | apart.T
    i, j = np.nonzero(np.triu(~separated, 1))
    return list(zip(i.tolist(), j.tolist()))


def check_apart(units: dict[str, tuple[Stand, ...]]) -> None:
    """Stands of different units, or of one unit, may not overlap."""
    flat = [(name, i, s) for name, ss in units.items() for i, s in enumerate(ss)]
    pairs = overlapping(tuple(s for _, _, s in flat))
    if pairs:
        (n1, i1, _), (n2, i2, _) = flat[pairs[0][0]], flat[pairs[0][1]]
        raise RulesError(f"Stand {i1 + 1} of {n1} and stand {i2 + 1} of {n2} overlap: place the units apart.")


def gap(s1: Stand, s2: Stand) -> float:
    """The distance between two stands' outlines (0 when they touch or overlap)."""
    if overlapping((s1, s2)):
        return 0.0
    best = math.inf
    for p_stand, q_stand in ((s1, s2), (s2, s1)):
        q = q_stand.corners()
        for p in p_stand.corners():
            for i in range(4):
                best = min(best, _point_segment(p, q[i], q[(i + 1) % 4]))
    return best


def _point_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b.x - a.x, b.y - a.y
    t = max(0.0, min(1.0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy)
