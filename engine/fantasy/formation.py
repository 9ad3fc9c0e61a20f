"""A ranked Warhammer Fantasy unit laid out on the table in front of a war machine.

The unit is ranks x files of touching bases, squared to the line of fire. "Rows" are ranks as
the war machine sees them, nearest first: the unit's ranks when it shows its front or rear, its
files when it shows a flank (the rulebook's "files count as ranks").

Numbering (shown on every picture):
* ranks count from the unit's front rank (rank 1); from the rear, the nearest rank is the last;
* files count left to right as the firer sees them; from the flank, file 1 is the file nearest
  the firer and the unit's front rank is on the firer's left.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import numpy as np

from engine.errors import RulesError
from engine.fantasy.profiles import TroopType
from engine.fantasy.wounding import Profile
from engine.geometry import Point, distance_to_rects

MM_PER_INCH = 25.4
MAX_RANKS = 20
MAX_FILES = 30
BASE_WIDTHS = (20, 25, 40, 50, 60)
MIN_BASE_DEPTH, MAX_BASE_DEPTH = 20, 150


class Facing(enum.Enum):
    """Which side of the target unit faces the war machine."""

    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


def _whole(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{name} {value!r} is not a whole number.")


@dataclass(frozen=True, slots=True)
class TargetUnit:
    """The unit being shot at."""

    ranks: int
    """Ranks, front to back."""
    files: int
    """Models in each rank."""
    troop: TroopType
    """Troop type of every model."""
    base_width: int
    """Base width in millimetres."""
    base_depth: int
    """Base depth in millimetres."""
    facing: Facing = Facing.FRONT
    """The side that faces the war machine."""
    profile: Profile | None = None
    """Toughness, Wounds and saves when given; None to leave the wound rolls to the players."""

    def __post_init__(self) -> None:
        for name in ("ranks", "files", "base_width", "base_depth"):
            _whole(name.replace("_", " ").capitalize(), getattr(self, name))
        if not 1 <= self.ranks <= MAX_RANKS:
            raise RulesError(f"Ranks {self.ranks} is not possible here: give 1 to {MAX_RANKS}.")
        if not 1 <= self.files <= MAX_FILES:
            raise RulesError(f"Files {self.files} is not possible here: give 1 to {MAX_FILES} models per rank.")
        if self.base_width not in BASE_WIDTHS:
            raise RulesError(
                f"Base width {self.base_width} mm is not a base size: use "
                f"{', '.join(map(str, BASE_WIDTHS))} mm."
            )
        if not MIN_BASE_DEPTH <= self.base_depth <= MAX_BASE_DEPTH:
            raise RulesError(
                f"Base depth {self.base_depth} mm is not possible: give {MIN_BASE_DEPTH} to {MAX_BASE_DEPTH} mm."
            )


@dataclass(frozen=True, slots=True)
class Formation:
    """Where the unit's bases lie in the shot frame. Pure geometry: no rules here."""

    unit: TargetUnit
    rows: int
    """Ranks as the firer sees them."""
    cols: int
    """Models across the line of fire."""
    cell_width: float
    """A base's extent across the line of fire, inches."""
    cell_depth: float
    """A base's extent along the line of fire, inches."""
    left: float
    """x of the unit's left edge as the firer sees it."""
    near: float
    """y of the unit's edge nearest the firer."""

    @property
    def right(self) -> float:
        return self.left + self.cols * self.cell_width

    @property
    def far(self) -> float:
        return self.near + self.rows * self.cell_depth

    def rank_file(self, row: int, col: int) -> tuple[int, int]:
        """The unit's own (rank, file) of the base at (row, col), both counted from 0."""
        u = self.unit
        if u.facing is Facing.FRONT:
            return row + 1, col + 1
        if u.facing is Facing.REAR:
            return u.ranks - row, col + 1
        return col + 1, row + 1

    def in_ranks_and_files(self, p: Point) -> tuple[float, float]:
        """Where a point lies in the unit's own measure, as :meth:`rank_file` counts: (ranks back
        from its front edge, files across from its first file's edge), both fractional (a
        template's centre, a ball's first strike; outside the unit, below 0 or past its size)."""
        row = (p.y - self.near) / self.cell_depth
        col = (p.x - self.left) / self.cell_width
        u = self.unit
        if u.facing is Facing.FRONT:
            return row, col
        if u.facing is Facing.REAR:
            return u.ranks - row, col
        return col, row

    def cell_of(self, rank: int, file: int) -> tuple[int, int]:
        """The (row, col) of the unit's (rank, file)."""
        u = self.unit
        if u.facing is Facing.FRONT:
            return rank - 1, file - 1
        if u.facing is Facing.REAR:
            return u.ranks - rank, file - 1
        return file - 1, rank - 1

    def centre(self, row: int, col: int) -> Point:
        return Point(self.left + (col + 0.5) * self.cell_width, self.near + (row + 0.5) * self.cell_depth)

    def base_rect(self, row: int, col: int) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of a base, in inches."""
        x0 = self.left + col * self.cell_width
        y0 = self.near + row * self.cell_depth
        return x0, y0, x0 + self.cell_width, y0 + self.cell_depth

    def cell_at(self, p: Point) -> tuple[int, int] | None:
        """The base under a point, or None; a point on the line between two bases counts as the
        one beyond it."""
        if not (self.left <= p.x <= self.right and self.near <= p.y <= self.far):
            return None
        col = min(int((p.x - self.left) / self.cell_width), self.cols - 1)
        row = min(int((p.y - self.near) / self.cell_depth), self.rows - 1)
        return row, col

    def under_circle(self, centre: Point, radius: float) -> list[tuple[int, int]]:
        """Every base wholly or partly under a circle, from each base's rectangle against the
        circle, all bases at once: a base is under it when its nearest point to the centre is
        within the radius. Nearest row first, then left to right."""
        xs = self.left + (np.arange(self.cols) + 0.5) * self.cell_width
        ys = self.near + (np.arange(self.rows) + 0.5) * self.cell_depth
        under = distance_to_rects(centre, xs[None, :], ys[:, None], self.cell_width / 2, self.cell_depth / 2) <= radius
        return [(int(r), int(c)) for r, c in zip(*np.nonzero(under))]

    def under_teardrop(self, tip: Point, length: float, narrow_radius: float, wide_radius: float) -> list[tuple[int, int]]:
        """Every base wholly or partly under a teardrop template lying along the line of fire,
        its narrow end's tip at `tip`, `length` long to the far edge of its wide end.

        The teardrop is the convex hull of two circles (the narrow end's and the wide end's),
        and a base is under it when no line separates the two: by the separating axis theorem
        for two convex shapes, the lines to try are square to the base's sides, square to the
        template's two straight edges, and square to the line from each corner of the base to
        each circle's centre. Exact (a base it only touches counts), all bases at once with numpy.
        Nearest row first, then left to right."""
        r1, r2 = narrow_radius, wide_radius
        a = np.array([tip.x, tip.y + r1])
        b = np.array([tip.x, tip.y + length - r2])
        hw, hd = self.cell_width / 2, self.cell_depth / 2
        # Only the bases inside the template's bounding box can be under it.
        c0 = max(0, math.floor((tip.x - r2 - self.left) / self.cell_width) - 1)
        c1 = min(self.cols, math.ceil((tip.x + r2 - self.left) / self.cell_width) + 1)
        w0 = max(0, math.floor((tip.y - self.near) / self.cell_depth) - 1)
        w1 = min(self.rows, math.ceil((tip.y + length - self.near) / self.cell_depth) + 1)
        if c0 >= c1 or w0 >= w1:
            return []
        xs = self.left + (np.arange(c0, c1) + 0.5) * self.cell_width
        ys = self.near + (np.arange(w0, w1) + 0.5) * self.cell_depth
        cx, cy = np.meshgrid(xs, ys)  # (rows, cols) of the box
        centres = np.stack([cx.ravel(), cy.ravel()], axis=1)  # (n, 2)
        # Fixed axes: the base's sides, and the template's straight edges (the line touching both
        # circles has a normal n with n.(b - a) = r1 - r2).
        ny = (r1 - r2) / (b[1] - a[1])
        nx = math.sqrt(max(0.0, 1.0 - ny * ny))
        fixed = np.array([[1.0, 0.0], [0.0, 1.0], [nx, ny], [-nx, ny]])
        # Per base: from each corner to each circle's centre.
        corners = np.array([[-hw, -hd], [hw, -hd], [hw, hd], [-hw, hd]])
        points = centres[:, None, :] + corners[None, :, :]  # (n, 4, 2)
        toward = np.concatenate([points - a, points - b], axis=1)  # (n, 8, 2)
        norm = np.linalg.norm(toward, axis=2, keepdims=True)
        toward = np.where(norm > 1e-12, toward / np.where(norm > 1e-12, norm, 1.0), np.array([1.0, 0.0]))
        axes = np.concatenate([np.broadcast_to(fixed, (len(centres), 4, 2)), toward], axis=1)  # (n, 12, 2)
        ux, uy = axes[..., 0], axes[..., 1]
        mid = centres[:, 0:1] * ux + centres[:, 1:2] * uy
        half = hw * np.abs(ux) + hd * np.abs(uy)
        pa, pb = a[0] * ux + a[1] * uy, b[0] * ux + b[1] * uy
        low, high = np.minimum(pa - r1, pb - r2), np.maximum(pa + r1, pb + r2)
        eps = 1e-9
        separated = (mid + half < low - eps) | (mid - half > high + eps)
        under = ~separated.any(axis=1)
        width = c1 - c0
        return [(w0 + int(i // width), c0 + int(i % width)) for i in np.nonzero(under)[0]]

    def crossings(self, start: Point, direction: Point, length: float) -> list[tuple[int, int, float]]:
        """Each row the segment from `start`, `length` long along the unit vector `direction`,
        touches, with the first base it touches there and how far along the segment that is:
        ``(row, col, t)`` in the order the segment reaches them. `direction` must point away
        from the firer (positive y), as every shot line does."""
        out: list[tuple[int, int, float]] = []
        if direction.x:
            tx0 = (self.left - start.x) / direction.x
            tx1 = (self.right - start.x) / direction.x
            if tx0 > tx1:
                tx0, tx1 = tx1, tx0
        elif self.left <= start.x <= self.right:
            tx0, tx1 = -math.inf, math.inf
        else:
            return out
        first = max(0, int((start.y - self.near) // self.cell_depth))
        for row in range(first, self.rows):
            y0 = self.near + row * self.cell_depth
            if y0 > start.y + length * direction.y:
                break
            ta = max(0.0, (y0 - start.y) / direction.y, tx0)
            tb = min(length, (y0 + self.cell_depth - start.y) / direction.y, tx1)
            if ta > tb:
                continue
            x = start.x + ta * direction.x
            col = min(max(int((x - self.left) / self.cell_width), 0), self.cols - 1)
            out.append((row, col, ta))
        return out


def lay_out(
    unit: TargetUnit, distance: float, aim_rank: int | None = None, aim_file: int | None = None
) -> tuple[Formation, tuple[int, int]]:
    """Place `unit` so that the aimed model's centre is `distance` inches straight ahead of the
    firer. By default the aim is the centre model of the rank facing the firer (with an even
    number, the one left of centre as the firer sees it); `aim_rank` and `aim_file` (the unit's
    own numbering) replace either. Returns the formation and the aimed (rank, file)."""
    w, d = unit.base_width / MM_PER_INCH, unit.base_depth / MM_PER_INCH
    if unit.facing is Facing.FLANK:
        rows, cols, cell_w, cell_d = unit.files, unit.ranks, d, w
    else:
        rows, cols, cell_w, cell_d = unit.ranks, unit.files, w, d
    probe = Formation(unit, rows, cols, cell_w, cell_d, 0.0, 0.0)
    default_rank, default_file = probe.rank_file(0, (cols - 1) // 2)
    rank = default_rank if aim_rank is None else aim_rank
    file = default_file if aim_file is None else aim_file
    _whole("Aim rank", rank)
    _whole("Aim file", file)
    if not 1 <= rank <= unit.ranks:
        raise RulesError(f"Aim rank {rank} is not in the unit: it has {unit.ranks} rank{'s' * (unit.ranks > 1)}.")
    if not 1 <= file <= unit.files:
        raise RulesError(f"Aim file {file} is not in the unit: it has {unit.files} file{'s' * (unit.files > 1)}.")
    row, col = probe.cell_of(rank, file)
    left = -(col + 0.5) * cell_w
    near = distance - (row + 0.5) * cell_d
    return Formation(unit, rows, cols, cell_w, cell_d, left, near), (rank, file)
