"""The picture of a cannon shot (Warhammer Fantasy, War Machines: Cannons).

:func:`render_cannon` draws a :class:`~engine.fantasy.cannon.CannonShot` as the engine recorded
it, for players to repeat on the table:

* the title bar: weapon, distance to the marker, what happened; the target and the shot's dice;
* on a misfire, a banner with the chart, its D6 and the row (nothing was fired);
* the target area at true scale, zoomed to fit the unit, the aim marker, the landing point and
  the bounce with a margin round them, on a grid of 1" squares (2", 5" or 10" when inches are
  too close together; the key says which): the bases (ranks R1.. and files F1.. in the unit's
  own numbering), a bar along the unit's front, the aim marker, the scatter arrow, where the
  ball lands, the bounce and where it ends or was stopped, and every model hit;
* below it the stretch from the muzzle to the target area, shortened behind a break symbol and
  labelled with the true distance, the cannon, the scale bar and a small true-scale picture of
  the whole shot (the line of fire to the marker, and the shot line from the muzzle through
  where the ball landed to where it came to rest);
* beside it the models hit (direct or bounce, with their wounds; counted as the title counts
  them, hits that need a monster to die apart) and a key.

A direct hit is a dark solid base, a bounce hit a light hatched one; a hit that counts only if a
monster dies is hatched on white with a dashed edge; a slain model is crossed out.

So that every mark stays readable, whatever the shot:

* the ball's marks are sized to the bases (a thinner bounce line and a smaller landing dot over
  small bases), the hit bases' edges are drawn again over the bounce, the scatter arrow's head
  stops at the edge of the direct hit's base, and over that base the aim marker and the landing
  dot go without their white rings;
* the scatter arrow is drawn last, and set aside, parallel, where it would lie along another
  line (scattered back down the line of fire);
* the notes sit by what they name, outside the unit when they can, never over a hit base, their
  thin grey leaders short and turned away from the lines of the shot (placement:
  :meth:`renders.canvas.Canvas.place`);
* a rank's or file's name that a line of the shot would cross moves along its rank or file, or
  is left out.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.fantasy.cannon import CannonHit, CannonShot, HitKind
from engine.fantasy.formation import Facing
from engine.fantasy.wounding import WoundRoll
from engine.geometry import Point, clock_face
from renders.canvas import (
    BASE, BASE_EDGE, BOUNCE, BOUNCE_HATCH, DIRECT, GRID, INK, INK_SOFT, MUTED, PAPER, SCATTER, TABLE, WHITE,
    RGB, Box, Canvas, Label, LegendItem, Swatch, Viewport, XY, clip_segment, distance_to_segment, grow, legend_size,
    length_text, line_height, overlaps, spread, text_box, text_width, wrap,
)

MARGIN = 2.0
"""Inches of table shown round the unit, the marker, the landing point and the bounce."""
MAX_SCALE = 64.0
"""Pixels per inch at most, so a lone monster is not drawn as a poster."""
MIN_PANEL_HEIGHT = 300
"""The target area is never shorter than this, in pixels."""
CENTRE_BAND = 0.35
"""The line of fire stays between this fraction and its complement of the target area's width,
so the cannon below it has room on both sides."""

_PAD = 14
_TITLE_HEIGHT = 60
_STRIP_HEIGHT = 196
_INSET_WIDTH = 104
_BALL = 6
_AIM = 9
_LABEL = 12
_CALLOUT_INDENT = 19
_ROOM = (44, 12, 40, 24)
"""Pixels kept round the unit, besides MARGIN, for what is written round it: (left, top, right,
bottom) for the rank or file names and the front bar, the bar on top, "front", the names below."""
_NOTE_ROOM = 58
"""Pixels of table at least above and below what the shot touched (MARGIN or this, whichever is
more), so that a two-line note fits outside even a big unit drawn small."""
_HIT_CROSSING = 250
"""A note's leader crossing a hit base counts as this many pixels longer: it would be read as
part of the shot."""
_NAME_CROSSING = 60
"""A note's leader crossing a rank's or file's name: somewhat longer (it may pass between two
names)."""
_BAR_CROSSING = 10
"""A note's leader crossing the front bar: a little longer."""
_UNIT_COVER = 300
"""What covering the unit's plain bases costs a note, in pixels of leader: a note sits outside
the unit when it can do so within about this much more leader."""


class _Style(enum.Enum):
    """How a base is drawn."""

    PLAIN = "plain"
    DIRECT = "direct"
    BOUNCE = "bounce"
    CONDITIONAL = "conditional"


@dataclass(frozen=True, slots=True)
class _Callout:
    """One line of the list of models hit, and the base it points at."""

    hit: CannonHit
    base: Box
    """The hit base's pixel box."""
    lines: tuple[tuple[str, int], ...]
    """Its lines of text with their sizes: what hit the model and its wounds, then notes."""
    top: float
    """Pixel y of the callout's top, once the column is spread out."""

    @property
    def height(self) -> float:
        return sum(line_height(size) for _, size in self.lines)


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where everything goes on the picture."""

    width: int
    height: int
    banner: tuple[tuple[str, int], ...]
    """Misfire banner lines with their sizes; empty when the cannon fired."""
    panel: Viewport
    """The target area at true scale."""
    muzzle: Viewport
    """The same scale and left-right position as `panel`, with the muzzle (the origin) placed
    in the strip below the break."""
    strip: Box
    """The band under the target area: the shortened stretch, the cannon, the scale bar."""
    column: Box
    """The column beside the target area: the models hit, then the key."""
    heading: tuple[tuple[str, int], ...]
    """The lines of the column's heading with their sizes."""
    callouts: tuple[_Callout, ...]
    legend: tuple[LegendItem, ...]
    legend_top: float
    marks: _Marks
    """How big the shot's marks are drawn on the target area."""
    grid: int
    """Inches (or the game's unit) between the target area's grid lines."""


@dataclass(frozen=True, slots=True)
class _Marks:
    """The sizes of the shot's marks on the target area, chosen from the size of a base there, so
    that a hit base still shows round the ball's marks in a dense unit drawn small."""

    ball: float
    """Radius of the dot where the ball lands, white ring included."""
    path: int
    """Width of the bounce line."""
    head: float
    """Length of the bounce arrow's head."""
    edge: int
    """Width of the white casing round the bounce line."""
    aim: float
    """Radius of the aim marker's ring."""


def _marks(shot: CannonShot, vp: Viewport) -> _Marks:
    f = shot.formation
    base = min(vp.span(f.cell_width), vp.span(f.cell_depth))
    if base >= 36:
        return _Marks(_BALL, 4, 14, 2, _AIM)
    if base >= 22:
        return _Marks(5, 3, 12, 2, 8)
    return _Marks(4, 2, 10, 1, 6)


@dataclass(frozen=True, slots=True)
class _Shot:
    """The shot's lines on the target area, in pixels, as drawn."""

    fire: tuple[XY, XY]
    """The line of fire, from the bottom edge to the aim marker."""
    flight: tuple[XY, XY] | None
    """The ball's flight from the muzzle to where it lands, when that is off the line of fire."""
    scatter: tuple[XY, XY] | None
    """The scatter arrow, tail to the point of its head (set aside from the other lines when it
    would lie along one)."""
    bounce: tuple[XY, XY] | None
    """The bounce, from where the ball lands to where it comes to rest."""
    unused: tuple[XY, XY] | None
    """The rest of the bounce a monster stopped, not travelled."""

    @property
    def lines(self) -> tuple[tuple[XY, XY], ...]:
        return tuple(x for x in (self.fire, self.flight, self.scatter, self.bounce, self.unused) if x is not None)


@dataclass(frozen=True, slots=True)
class _Drawing:
    """A picture drawn, with where its parts went (for the tests)."""

    canvas: Canvas
    layout: _Layout
    shot: _Shot | None
    """The shot's lines on the target area; None when nothing was fired."""
    names: tuple[Box, ...]
    """Pixel boxes of the ranks' and files' names written round the unit."""
    hit_bases: tuple[tuple[CannonHit, Box], ...]
    """Each model hit and its base's pixel box."""
    inset: Viewport | None
    """The whole shot to scale, when drawn."""


def render_cannon(shot: CannonShot, *, width: int = 900, max_panel_height: int = 620, inset: bool = True) -> bytes:
    """The picture of `shot` as PNG bytes, `width` pixels wide (at least 640); the target area is
    at most `max_panel_height` pixels tall. `inset` adds the small true-scale picture of the
    whole shot where there is room for it. A pure function of the record: the same shot gives
    the same bytes."""
    return _draw(shot, width=width, max_panel_height=max_panel_height, inset=inset).canvas.png()


def _draw(shot: CannonShot, *, width: int, max_panel_height: int, inset: bool) -> _Drawing:
    """The picture of `shot`, drawn, with where its parts went."""
    if width < 640:
        raise ValueError(f"width {width} is too narrow for the cannon picture: give 640 pixels or more")
    layout = _layout(shot, width, max_panel_height)
    canvas = Canvas(layout.width, layout.height)
    canvas.title_bar(_title(shot), _subtitle(shot), height=_TITLE_HEIGHT)
    if layout.banner:
        lines, sizes = zip(*layout.banner)
        canvas.banner((0, _TITLE_HEIGHT, layout.width, layout.panel.top - 10), lines, sizes)
    lines, names, hit_bases = _draw_panel(canvas, shot, layout)
    whole = _draw_strip(canvas, shot, layout, inset=inset)
    _draw_column(canvas, shot, layout)
    return _Drawing(canvas, layout, lines, names, hit_bases, whole)


# Words.


def _who(rank: int, file: int) -> str:
    return f"R{rank} F{file}"


def _dice(shot: CannonShot) -> str:
    faces = [f"scatter {shot.scatter.face}", f"artillery {shot.artillery.face}"]
    if shot.misfire is not None:
        faces.append(f"misfire chart {shot.misfire.roll.face}")
    else:
        faces.append(f"bounce {shot.bounce.face}")
    return "dice: " + ", ".join(faces)


def _title(shot: CannonShot) -> str:
    start = f"{shot.weapon.name} · {length_text(shot.distance, shot.unit)} to the marker"
    if shot.misfire is not None:
        return f"{start} · MISFIRE: {shot.misfire.row.title}"
    scatter = "HIT" if shot.scatter.is_hit else f"scattered {length_text(shot.scatter_distance, shot.unit)}"
    n, maybe = _counts(shot)
    hits = "no models hit" if n == 0 else f"{n} model{'s' * (n != 1)} hit"
    if maybe:
        hits += f", {maybe} more {_if_monsters_die(maybe)}"
    if shot.stopped_by is not None:
        hits += ", ball stopped"
    return f"{start} · {scatter} · {hits}"


def _counts(shot: CannonShot) -> tuple[int, int]:
    """Models hit for certain, and models hit only if the monstrous models in front of them die
    (the record's ``conditional``)."""
    maybe = sum(h.conditional for h in shot.hits)
    return len(shot.hits) - maybe, maybe


def _if_monsters_die(maybe: int) -> str:
    """The condition on `maybe` models hit only if the monsters in front die: one such model
    waits on one monster, more wait on every one in front of them."""
    return "if the monster in front dies" if maybe == 1 else "if the monsters in front die"


def _heading(shot: CannonShot, width: float) -> tuple[tuple[str, int], ...]:
    """The column's heading, counting as the title does: "Models hit (2)", or with hits that
    count only if a monster dies (as the key says), "Models hit (1, +2 only if the monsters
    die)"; wrapped to `width` pixels."""
    n, maybe = _counts(shot)
    if not shot.hits:
        return (("Models hit", 15),)
    if not maybe:
        return ((f"Models hit ({n})", 15),)
    monsters = "monster dies" if maybe == 1 else "monsters die"
    text = f"Models hit ({n}, +{maybe} only if the {monsters})"
    return tuple((line, 15) for line in wrap(text, size=15, width=width))


def _subtitle(shot: CannonShot) -> str:
    u = shot.target
    target = (
        f"Target: {u.ranks} rank{'s' * (u.ranks != 1)} of {u.files} {u.troop.name} on {u.base_width} x "
        f"{u.base_depth} mm, {u.facing.value} to the cannon"
    )
    if u.profile is not None:
        target += f" ({u.profile.describe()})"
    return f"{target} · {_dice(shot)}"


def _wound_text(w: WoundRoll) -> str:
    if w.to_wound_needed is None:
        return "cannot wound"
    if not w.wounded:
        return f"not wounded (rolled {w.to_wound.value}, needs {w.to_wound_needed}+)"
    if w.saved:
        return f"saved (ward {w.ward.value})" if w.ward is not None else f"saved (armour {w.save.value})"
    return f"{w.wounds} wound{'s' * (w.wounds != 1)}, {'slain' if w.slain else 'survives'}"


def _callout_lines(shot: CannonShot, index: int, width: float) -> tuple[tuple[str, int], ...]:
    """What happened to the model hit `index`-th, wrapped to `width` pixels."""
    hit = shot.hits[index]
    kind = "direct hit" if hit.kind is HitKind.DIRECT else "bounce"
    result = f"{hit.wounds_die.value} wounds" if hit.wound is None else _wound_text(hit.wound)
    headline = f"{_who(hit.rank, hit.file)} {kind}: {result}"
    lines = [(line, _LABEL + 1) for line in wrap(headline, size=_LABEL + 1, width=width)]
    notes = []
    if hit.conditional:
        before = [_who(h.rank, h.file) for h in shot.hits[:index]]
        notes.append(f"hit only if {' and '.join(before)} die{'s' * (len(before) == 1)}")
    if index == shot.stopped_by:
        notes.append("stops the ball")
    lines += [(line, _LABEL - 1) for note in notes for line in wrap(note, size=_LABEL - 1, width=width)]
    return tuple(lines)


def _banner(shot: CannonShot, width: int) -> tuple[tuple[str, int], ...]:
    if shot.misfire is None:
        return ()
    m = shot.misfire
    lines = [("MISFIRE: the cannon does not fire", 18), (f"{m.chart.name}: D6 rolled {m.roll.face}, {m.row.title}", 14)]
    lines += [(line, 13) for line in wrap(m.row.effect, size=13, width=width - 2 * _PAD)]
    return tuple(lines)


# Layout.


def _window(shot: CannonShot, scale: float) -> Box:
    """The stretch of table the target area shows at `scale` pixels an inch, (x0, y0, x1, y1) in
    inches: everything the shot touched, with MARGIN round it (above and below, at least
    _NOTE_ROOM pixels, room for the notes) and room for the names round the unit, widened so
    that the line of fire (x = 0) sits in the middle band."""
    f = shot.formation
    points = [Point(f.left, f.near), Point(f.right, f.far), shot.aim]
    points += [p for p in (shot.landing, shot.path_end, shot.rest) if p is not None]
    left = MARGIN + _ROOM[0] / scale - min(p.x for p in points)
    right = MARGIN + _ROOM[2] / scale + max(p.x for p in points)
    span = max(left + right, left / (1 - CENTRE_BAND), right / (1 - CENTRE_BAND))
    lo, hi = max(left, CENTRE_BAND * span), min(span - right, (1 - CENTRE_BAND) * span)
    x0 = -min(max(left + (span - left - right) / 2, lo), hi)
    room = max(MARGIN, _NOTE_ROOM / scale)
    near = min(p.y for p in points) - room - _ROOM[3] / scale
    far = max(p.y for p in points) + room + _ROOM[1] / scale
    return x0, near, x0 + span, far


def _layout(shot: CannonShot, width: int, max_panel_height: int) -> _Layout:
    column_width = min(max(round(width * 0.31), 250), 340)
    panel_right = width - 2 * _PAD - column_width
    banner = _banner(shot, width)
    top = _TITLE_HEIGHT + (sum(line_height(s) for _, s in banner) + 18 if banner else 0) + 10
    scale = MAX_SCALE
    for _ in range(4):  # the room for names is in pixels, so the window depends on the scale
        window = _window(shot, scale)
        x0, y0, x1, y1 = window
        scale = min((panel_right - _PAD) / (x1 - x0), max_panel_height / (y1 - y0), MAX_SCALE)
    height = max(MIN_PANEL_HEIGHT, math.ceil((y1 - y0) * scale))
    panel = Viewport.fit(window, (_PAD, top, panel_right, top + height), max_scale=MAX_SCALE)
    strip = (_PAD, top + height, panel_right, top + height + _STRIP_HEIGHT)
    muzzle = dataclasses.replace(panel, y0=-1.0, y1=0.0, top=strip[3] - 66)
    column = (panel_right + _PAD, top, width - _PAD, strip[3])

    heading = _heading(shot, column[2] - column[0])
    below_heading = top + 2 + sum(line_height(size) for _, size in heading) + 8
    callouts = _callouts(shot, panel, column, below_heading)
    marks = _marks(shot, panel)
    grid = next((n for n in (1, 2, 5) if panel.span(n) >= 12), 10)
    legend = _legend(shot, marks, grid)
    _, legend_height = legend_size(legend)
    below_callouts = max((c.top + c.height for c in callouts), default=below_heading + 14)
    legend_top = max(strip[3] - legend_height, below_callouts + 14)
    height_total = math.ceil(max(strip[3], legend_top + legend_height) + _PAD)
    return _Layout(
        width, height_total, banner, panel, muzzle, strip, column, heading, callouts, legend, legend_top, marks, grid,
    )


def _callouts(shot: CannonShot, panel: Viewport, column: Box, top: float) -> tuple[_Callout, ...]:
    """The list of models hit, from `top` down, each level with its base as far as the column
    allows."""
    f = shot.formation
    text_room = column[2] - column[0] - _CALLOUT_INDENT
    rows = []
    for i, hit in enumerate(shot.hits):
        row, col = f.cell_of(hit.rank, hit.file)
        centre = panel.at(f.centre(row, col))[1]
        rows.append((centre, hit, panel.rect(*f.base_rect(row, col)), _callout_lines(shot, i, text_room)))
    rows.sort(key=lambda r: r[0])
    heights = [sum(line_height(size) for _, size in r[3]) for r in rows]
    tops = spread([r[0] for r in rows], heights, top=top, bottom=panel.box[3], gap=5)
    return tuple(_Callout(hit, base, lines, t) for (_, hit, base, lines), t in zip(rows, tops))


# Marks.


def _base(canvas: Canvas, box: Box, style: _Style, *, slain: bool = False) -> None:
    """One base, drawn in the style of what happened to it."""
    if style is _Style.PLAIN:
        canvas.draw.rectangle(box, fill=BASE, outline=BASE_EDGE)
    elif style is _Style.DIRECT:
        canvas.draw.rectangle(box, fill=DIRECT, outline=INK, width=2)
    elif style is _Style.BOUNCE:
        canvas.draw.rectangle(box, fill=BOUNCE, outline=INK, width=2)
        canvas.hatch(grow(box, -2), fill=BOUNCE_HATCH, spacing=5)
    else:
        canvas.draw.rectangle(box, fill=WHITE, outline=BASE_EDGE)
        canvas.hatch(grow(box, -2), fill=BOUNCE_HATCH, spacing=5)
        canvas.dashed_rect(box, fill=INK, width=2, dash=4, gap=3)
    if slain:
        a, b = grow(box, -3)[:2], grow(box, -3)[2:]
        for p, q in ((a, b), ((a[0], b[1]), (b[0], a[1]))):
            canvas.line([p, q], fill=WHITE, width=5)
            canvas.line([p, q], fill=INK, width=2)


def _base_edge(canvas: Canvas, box: Box, style: _Style) -> None:
    """A hit base's edge alone, drawn again over the lines that cross the base."""
    if style is _Style.CONDITIONAL:
        canvas.dashed_rect(box, fill=INK, width=2, dash=4, gap=3)
    elif style is not _Style.PLAIN:
        canvas.draw.rectangle(box, outline=INK, width=2)


def _slain(hit: CannonHit | None) -> bool:
    return hit is not None and hit.wound is not None and hit.wound.slain


def _style(hit: CannonHit | None) -> _Style:
    if hit is None:
        return _Style.PLAIN
    if hit.conditional:
        return _Style.CONDITIONAL
    return _Style.DIRECT if hit.kind is HitKind.DIRECT else _Style.BOUNCE


def _aim_marker(canvas: Canvas, xy: XY, r: float = _AIM, *, halo: bool = True) -> None:
    """The aim marker: a ring with four ticks, leaving its centre clear; `halo` rings it in
    white so it stands out over bases and lines (left off over a direct hit's solid base, which
    would vanish under it)."""
    x, y = xy
    ring = (x - r, y - r, x + r, y + r)
    i = 4 if r >= _AIM else -1  # small markers keep their ticks outside the ring
    ticks = [((x - r - 5, y), (x - r + i, y)), ((x + r - i, y), (x + r + 5, y)),
             ((x, y - r - 5), (x, y - r + i)), ((x, y + r - i), (x, y + r + 5))]
    if halo:
        canvas.draw.ellipse(grow(ring, 1), outline=WHITE, width=4)
        for a, b in ticks:
            canvas.line([a, b], fill=WHITE, width=4)
    width = 2 if r >= _AIM or halo else 1
    canvas.draw.ellipse(ring, outline=INK, width=width)
    for a, b in ticks:
        canvas.line([a, b], fill=INK, width=2)


def _ball(canvas: Canvas, xy: XY, r: float = _BALL, *, ring: bool = True) -> None:
    """Where the ball first strikes the ground: a dark dot in a white ring, `r` pixels round
    (without the ring, a smaller dot, for inside a direct hit's solid base)."""
    x, y = xy
    if not ring:
        canvas.draw.ellipse((x - r + 1, y - r + 1, x + r - 1, y + r - 1), fill=INK)
        return
    edge = 2 if r >= _BALL else 1
    canvas.draw.ellipse((x - r, y - r, x + r, y + r), fill=WHITE)
    canvas.draw.ellipse((x - r + edge, y - r + edge, x + r - edge, y + r - edge), fill=INK)


def _stop_bar(canvas: Canvas, at: XY, toward: XY, *, half: float = 10, ink: RGB = INK, width: int = 4) -> None:
    """A bar across the path at `at`, square to the direction `at` -> `toward`, on a white edge."""
    length = math.dist(at, toward) or 1.0
    ux, uy = (toward[0] - at[0]) / length, (toward[1] - at[1]) / length
    a, b = (at[0] - uy * half, at[1] + ux * half), (at[0] + uy * half, at[1] - ux * half)
    canvas.line([a, b], fill=WHITE, width=width + 4)
    canvas.line([a, b], fill=ink, width=width)


def _cannon(canvas: Canvas, muzzle: XY) -> Box:
    """A cannon seen from above, barrel up, its muzzle at `muzzle`. Returns its box."""
    x, y = muzzle
    trail = [(x - 5, y + 34), (x + 5, y + 34), (x + 3, y + 62), (x - 3, y + 62)]
    canvas.draw.polygon(trail, fill=INK_SOFT, outline=INK)
    canvas.draw.rectangle((x - 15, y + 29, x + 15, y + 32), fill=INK)
    for side in (-1, 1):
        canvas.draw.rectangle((x + side * 18 - 3, y + 18, x + side * 18 + 3, y + 44), fill=INK_SOFT, outline=INK)
    canvas.draw.rectangle((x - 5, y + 2, x + 5, y + 42), fill=INK_SOFT, outline=INK)
    canvas.draw.rectangle((x - 6, y, x + 6, y + 4), fill=INK)
    return x - 21, y, x + 21, y + 62


# The target area.


_FRONT_SIDE = {Facing.FRONT: "bottom", Facing.REAR: "top", Facing.FLANK: "left"}
"""Which side of the unit, as the picture shows it, is its front. The formation puts the rank
facing the cannon nearest it, so a unit seen from the front shows its front at the bottom and
one seen from the rear at the top; seen from the flank its front rank is on the firer's left
(``engine.fantasy.formation``)."""


def _draw_panel(
    canvas: Canvas, shot: CannonShot, layout: _Layout,
) -> tuple[_Shot | None, tuple[Box, ...], tuple[tuple[CannonHit, Box], ...]]:
    """The target area in layers: table and grid (every inch, or every 2 or 5 when inches are
    too close together), bases and the unit's front; the shot's lines, the hit bases' edges
    again over them, and the scatter arrow over everything; the notes' leader lines, the names
    of ranks and files (moved along their rank or file, or left out, where a line crosses
    them), the markers, the notes. Returns the shot's lines, the names' boxes and the hit
    bases' boxes."""
    vp, f, marks = layout.panel, shot.formation, layout.marks
    area = vp.box
    canvas.draw.rectangle(area, fill=TABLE)
    step = layout.grid
    for x in range(math.ceil(vp.x0 / step) * step, math.floor(vp.x1) + 1, step):
        canvas.line([vp.px(x, vp.y0), vp.px(x, vp.y1)], fill=GRID)
    for y in range(math.ceil(vp.y0 / step) * step, math.floor(vp.y1) + 1, step):
        canvas.line([vp.px(vp.x0, y), vp.px(vp.x1, y)], fill=GRID)

    hit_at = {f.cell_of(h.rank, h.file): h for h in shot.hits}
    for row in range(f.rows):
        for col in range(f.cols):
            hit = hit_at.get((row, col))
            _base(canvas, vp.rect(*f.base_rect(row, col)), _style(hit), slain=_slain(hit))
    hit_bases = tuple((hit, vp.rect(*f.base_rect(*cell))) for cell, hit in hit_at.items())
    bar = _front_bar(shot, vp)
    canvas.draw.rectangle(bar, fill=INK)

    aim = vp.at(shot.aim)
    lines = _shot_lines(shot, vp, marks, hit_bases) if shot.fired else None
    fire_line = lines.fire if lines is not None else (vp.px(0.0, vp.y0), aim)
    canvas.line(fire_line, fill=INK, width=2)
    if lines is not None:
        _draw_flight(canvas, lines, marks, hit_bases)

    # What the notes keep clear of: the shot's lines (no leader runs along them), the markers,
    # the hit bases (no leader crosses them if it can help it), the names; they would rather
    # not cover the unit's plain bases either.
    for a, b in lines.lines if lines is not None else (fire_line,):
        canvas.keep_clear_of_line(a, b, path=True)
    canvas.keep_clear(grow((aim[0], aim[1], aim[0], aim[1]), marks.aim + 6))
    if shot.fired:
        for p in (vp.at(shot.landing), vp.at(shot.rest), vp.at(shot.path_end)):
            canvas.keep_clear(grow((p[0], p[1], p[0], p[1]), marks.ball + 6))
    for hit, box in hit_bases:
        canvas.keep_clear(grow(box, 1), crossing=_HIT_CROSSING)
        if _slain(hit):  # a leader along the cross would read as part of it
            (x0, y0, x1, y1) = grow(box, -3)
            canvas.keep_clear_of_line((x0, y0), (x1, y1), turn=15)
            canvas.keep_clear_of_line((x0, y1), (x1, y0), turn=15)
    canvas.rather_not_cover(grow(vp.rect(f.left, f.near, f.right, f.far), 2), cost=_UNIT_COVER)
    canvas.keep_clear(grow(bar, 2), crossing=_BAR_CROSSING)
    drawn = _drawn_lines(lines, fire_line, marks)
    names = _unit_names(shot, vp, bar, drawn)
    for group in names:
        for xy, text, size, anchor in group:
            canvas.keep_clear(grow(text_box(xy, text, size=size, anchor=anchor), 4), crossing=_NAME_CROSSING)
    for callout in layout.callouts:
        canvas.keep_clear_of_line(*_leader(callout, layout)[:2])

    notes = _place_notes(canvas, shot, vp)
    for note in notes:
        canvas.leader(note)
    # The notes' leaders may cross a name after all: it moves along its rank or file if it can.
    leaders = [(*note.leader, 1.0) for note in notes if note.leader is not None]
    front, rows, cols = _unit_names(shot, vp, bar, drawn, leaders, tuple(grow(note.box, 2) for note in notes))
    name_boxes = []
    for xy, text, size, anchor in front:
        canvas.text(xy, text, size=size, anchor=anchor, halo=True)
    for xy, text, size, anchor in rows + cols:
        name_boxes.append(canvas.text(xy, text, size=size, fill=INK_SOFT, anchor=anchor, knockout=TABLE))
    # Over a direct hit's solid base the markers go without their white rings, which would
    # cover it.
    direct = next((box for hit, box in hit_bases if hit.kind is HitKind.DIRECT), None)
    _aim_marker(canvas, aim, marks.aim, halo=direct is None or not _holds(direct, aim, 0))
    if shot.fired:
        landing = vp.at(shot.landing)
        _ball(canvas, landing, marks.ball, ring=direct is None or not _holds(direct, landing, marks.ball + 2))
    canvas.draw.rectangle(area, outline=MUTED)
    for note in notes:
        canvas.plate(note)
    return lines, tuple(name_boxes), hit_bases


def _holds(box: Box, p: XY, room: float) -> bool:
    """Whether `box` holds the point `p` with `room` pixels to spare all round."""
    return box[0] + room <= p[0] <= box[2] - room and box[1] + room <= p[1] <= box[3] - room


def _front_bar(shot: CannonShot, vp: Viewport) -> Box:
    """The bar along the unit's front, just outside its bases."""
    f = shot.formation
    left, top, right, bottom = vp.rect(f.left, f.near, f.right, f.far)
    return {
        "bottom": (left, bottom + 3, right, bottom + 7),
        "top": (left, top - 7, right, top - 3),
        "left": (left - 7, top, left - 3, bottom),
    }[_FRONT_SIDE[shot.target.facing]]


_Name = tuple[XY, str, int, str]
"""A name written round the unit: (point, text, size, anchor)."""
_Line = tuple[XY, XY, float]
"""A line drawn on the target area: its ends and its width in pixels, casing included."""


def _drawn_lines(lines: _Shot | None, fire: tuple[XY, XY], marks: _Marks) -> list[_Line]:
    """The lines of the shot as drawn, with their widths."""
    if lines is None:
        return [(*fire, 2)]
    widths = {
        "fire": 2, "flight": 2, "scatter": 3 + 2 * _SCATTER_EDGE, "bounce": marks.path + 2 * marks.edge, "unused": 2,
    }
    return [(*getattr(lines, k), w) for k, w in widths.items() if getattr(lines, k) is not None]


def _settle(
    name: _Name, lines: Sequence[_Line], *, axis: int, reach: float, outward: bool = False, boxes: Sequence[Box] = (),
) -> _Name | None:
    """`name` where no line crosses it nor covers any of `boxes`: where it is, or moved along
    `axis` (0 across, 1 up and down the picture) as little as will do, at most `reach` pixels
    (only to the right or down when `outward`); None when it has to be left out. A name's
    `reach` is what keeps it alongside its base: half the base less half the name, and a few
    pixels more."""
    (x, y), text, size, anchor = name
    box = text_box((x, y), text, size=size, anchor=anchor)
    if not outward:
        reach = max(reach - (box[2 + axis] - box[axis]) / 2, 0) + 4
    shifts = [0.0]
    for d in range(2, int(reach) + 1, 2):
        shifts += [float(d)] if outward else [float(d), float(-d)]
    for d in shifts:
        dx, dy = (d, 0.0) if axis == 0 else (0.0, d)
        moved = (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)
        if not any(clip_segment(a, b, grow(moved, w / 2 + 1)) for a, b, w in lines) and not any(
            overlaps(moved, other) for other in boxes
        ):
            return (x + dx, y + dy), text, size, anchor
    return None


def _unit_names(
    shot: CannonShot, vp: Viewport, bar: Box, lines: list[_Line], leaders: Sequence[_Line] = (),
    boxes: Sequence[Box] = (),
) -> tuple[list[_Name], list[_Name], list[_Name]]:
    """The names round the bases: "front" at the end of the front bar; the rows (R1.. seen from
    the front or rear, F1.. from the flank) down the left side; the columns along the bottom.
    Every other row or column, or fewer, when bases are too small to name each. A name a line
    would cross moves along its row or column as far as keeps it by its base, or is left out
    ("front" moves further out along the bar, and stays, haloed, when it cannot); so does one
    that would cover any of `boxes`. A name a note's leader crosses (`leaders`) moves if it can,
    and else stays, written over the leader."""
    f = shot.formation
    flank = shot.target.facing is Facing.FLANK
    side = _FRONT_SIDE[shot.target.facing]
    left, top, right, bottom = vp.rect(f.left, f.near, f.right, f.far)
    if side == "left":
        front: _Name = ((bar[2], bottom + 4), "front", _LABEL, "rt")
        front = _settle(front, lines, axis=1, reach=24, outward=True, boxes=boxes) or front
    else:
        front = ((right + 6, (bar[1] + bar[3]) / 2), "front", _LABEL, "lm")
        front = _settle(front, lines, axis=0, reach=40, outward=True, boxes=boxes) or front

    def row_name(row: int) -> str:
        rank, file = f.rank_file(row, 0)
        return f"F{file}" if flank else f"R{rank}"

    def col_name(col: int) -> str:
        rank, file = f.rank_file(0, col)
        return f"R{rank}" if flank else f"F{file}"

    x = (bar[0] if side == "left" else left) - 5
    row_step = math.ceil(15 / vp.span(f.cell_depth))
    row_reach = vp.span(f.cell_depth) / 2
    rows = [((x, vp.at(f.centre(row, 0))[1]), row_name(row), 11, "rm") for row in range(0, f.rows, row_step)]
    y = (bar[3] if side == "bottom" else bottom) + 4
    widest = max(text_width(col_name(col), size=11) for col in range(f.cols)) + 6
    col_step = math.ceil(widest / vp.span(f.cell_width))
    col_reach = vp.span(f.cell_width) / 2
    cols = [((vp.at(f.centre(0, col))[0], y), col_name(col), 11, "mt") for col in range(0, f.cols, col_step)]

    def settle(name: _Name, axis: int, reach: float) -> _Name | None:
        if leaders:
            clear = _settle(name, [*lines, *leaders], axis=axis, reach=reach, boxes=boxes)
            if clear is not None:
                return clear
        return _settle(name, lines, axis=axis, reach=reach, boxes=boxes)

    rows = [n for n in (settle(name, 1, row_reach) for name in rows) if n is not None]
    cols = [n for n in (settle(name, 0, col_reach) for name in cols) if n is not None]
    return [front], rows, cols


_SCATTER_EDGE = 2
"""Width of the white casing round the scatter arrow."""


def _shot_lines(
    shot: CannonShot, vp: Viewport, marks: _Marks, hit_bases: tuple[tuple[CannonHit, Box], ...],
) -> _Shot:
    """Where the shot's lines go on the target area. The scatter arrow's head stops at the edge
    of the direct hit's base (or short of the ball), so the base stays in sight; an arrow that
    would lie along another line (scattered straight back down the line of fire, or along the
    bounce) is set aside from it, parallel, so it is always seen."""
    aim, landing = vp.at(shot.aim), vp.at(shot.landing)
    fire = (vp.px(0.0, vp.y0), aim)
    flight = vp.clip(Point(0.0, 0.0), shot.landing) if shot.landing.x != shot.aim.x else None
    rest, end = vp.at(shot.rest), vp.at(shot.path_end)
    bounce = (landing, rest) if rest != landing else None
    unused = (rest, end) if shot.stopped_by is not None else None
    scatter = None
    length = math.dist(aim, landing)
    if not shot.scatter.is_hit and length:
        ux, uy = (landing[0] - aim[0]) / length, (landing[1] - aim[1]) / length
        stop = marks.ball + 2
        direct = next((box for hit, box in hit_bases if hit.kind is HitKind.DIRECT), None)
        if direct is not None:
            box = grow(direct, 2)
            inside = clip_segment(aim, landing, box)
            if inside is not None and inside[0] != aim:
                stop = max(stop, math.dist(inside[0], landing))
        stop = min(stop, max(length - 10, 0.0))
        tip = (landing[0] - ux * stop, landing[1] - uy * stop)
        others = [x for x in (fire, flight, bounce) if x is not None]
        samples = [(aim[0] + (tip[0] - aim[0]) * k, aim[1] + (tip[1] - aim[1]) * k) for k in (0.25, 0.5, 0.75)]
        along = sum(any(distance_to_segment(p, a, b) <= 6 for a, b in others) for p in samples) >= 2
        if along:
            # Set aside, parallel, just far enough to clear the other lines: to the right (or up
            # the picture) if that will do, else to the left, each a little further out in turn.
            nx, ny = -uy, ux
            if nx < -0.3 or (abs(nx) <= 0.3 and ny > 0):
                nx, ny = -nx, -ny
            clear = marks.path / 2 + marks.edge + 1.5 + _SCATTER_EDGE + 2

            def clearance(off: float) -> float:
                moved = [(p[0] + nx * off, p[1] + ny * off) for p in samples]
                return min(distance_to_segment(p, a, b) for p in moved for a, b in others)

            offsets = [sign * clear * k for k in (1, 1.5, 2, 2.5) for sign in (1, -1)]
            off = next((o for o in offsets if clearance(o) >= clear), max(offsets, key=clearance))
            aim, tip = (aim[0] + nx * off, aim[1] + ny * off), (tip[0] + nx * off, tip[1] + ny * off)
        scatter = (aim, tip)
    return _Shot(fire, flight, scatter, bounce, unused)


def _draw_flight(canvas: Canvas, lines: _Shot, marks: _Marks, hit_bases: tuple[tuple[CannonHit, Box], ...]) -> None:
    """The ball's flight from the muzzle to the landing point; the bounce: to where it ends, and
    past a monster that stopped it, the rest of the way it would have gone; the hit bases'
    edges again over the bounce, so that each keeps its shape in a dense unit; and last the
    scatter arrow, over everything."""
    if lines.flight is not None:
        canvas.dashed(*lines.flight, fill=INK, width=2, dash=6, gap=5)
    if lines.unused is not None:
        rest, end = lines.unused
        canvas.dashed(rest, end, fill=MUTED, width=2, dash=6, gap=5)
        _stop_bar(canvas, end, rest, half=6, ink=MUTED, width=2)
    if lines.bounce is not None:
        canvas.arrow(*lines.bounce, fill=INK, width=marks.path, head=marks.head, casing=WHITE, edge=marks.edge)
    for hit, box in hit_bases:
        _base_edge(canvas, box, _style(hit))
    if lines.unused is not None:
        _stop_bar(canvas, lines.unused[0], lines.unused[1])
    if lines.scatter is not None:
        canvas.arrow(*lines.scatter, fill=SCATTER, width=3, head=12, casing=WHITE, edge=_SCATTER_EDGE)


def _place_notes(canvas: Canvas, shot: CannonShot, vp: Viewport) -> list[Label]:
    """The notes on the target area, most important first, each placed clear of the rest."""
    within = grow(vp.box, -4)
    aimed = _who(*shot.aimed_model)
    aim = vp.at(shot.aim)
    if not shot.fired:
        return [canvas.place(aim, [f"aim marker on {aimed}", "not fired"], size=_LABEL, within=within)]
    unit = shot.unit
    if shot.scatter.is_hit:
        lines = [f"HIT: lands on the aim marker ({aimed})"]
    else:
        direction = shot.scatter.direction
        lines = [
            f"scatter {length_text(shot.scatter_distance, unit)} toward {clock_face(direction)} ({direction}°)",
            "the ball lands here",
        ]
    if shot.bounce.is_misfire:
        lines.append("no bounce: the bounce die misfired")
    notes = [canvas.place(vp.at(shot.landing), lines, size=_LABEL, within=within)]
    if not shot.scatter.is_hit:
        notes.append(canvas.place(aim, [f"aim marker on {aimed}"], size=_LABEL, within=within))
    bounce = length_text(shot.bounce_distance, unit)
    if shot.stopped_by is not None:
        stopper = shot.hits[shot.stopped_by]
        stopped = f"stopped by {_who(stopper.rank, stopper.file)}"
        notes.append(canvas.place(vp.at(shot.rest), [stopped], size=_LABEL, within=within))
        unused = f"the {bounce} bounce would end here"
        notes.append(canvas.place(vp.at(shot.path_end), [unused], size=_LABEL, within=within, fill=INK_SOFT))
    elif shot.bounce_distance:
        ends = f"bounce {bounce}: the ball ends here"
        notes.append(canvas.place(vp.at(shot.rest), [ends], size=_LABEL, within=within))
    return notes


# The shortened stretch, the cannon, the whole shot.


def _draw_strip(canvas: Canvas, shot: CannonShot, layout: _Layout, *, inset: bool) -> Viewport | None:
    """Under the target area: the line of fire running on down to the cannon through a break,
    the true distance beside the break, the cannon, the scale bar, and the whole shot to scale
    in the corner on the side with room for it (returned, when drawn)."""
    panel, strip = layout.panel, layout.strip
    top = panel.px(0.0, panel.y0)
    muzzle = layout.muzzle.px(0.0, 0.0)
    canvas.line([top, muzzle], fill=INK, width=2)
    mid = (muzzle[0], (top[1] + muzzle[1]) / 2)
    canvas.break_symbol(mid, background=PAPER)
    distance = f"muzzle to marker {length_text(shot.distance, shot.unit)}"
    note = "shortened: not to scale"
    name = shot.weapon.name if shot.fired else f"{shot.weapon.name}: misfired"
    needed = max(text_width(distance, size=13), text_width(note, size=11), text_width(name, size=13)) + 30
    on_left = muzzle[0] - strip[0] >= needed
    sign, near = (-1, "r") if on_left else (1, "l")
    canvas.text((mid[0] + sign * 18, mid[1] - 2), distance, size=13, anchor=near + "b")
    canvas.text((mid[0] + sign * 18, mid[1] + 2), note, size=11, fill=INK_SOFT, anchor=near + "t")
    body = _cannon(canvas, muzzle)
    canvas.text((muzzle[0] + sign * 30, (body[1] + body[3]) / 2), name, size=13, anchor=near + "m")
    room = muzzle[0] - strip[0] - 44
    canvas.scale_bar((strip[0] + 4, strip[1] + 12), panel, shot.unit, longest=min(160, room))
    taken_right = muzzle[0] + (24 if on_left else needed)
    if inset and strip[2] - _INSET_WIDTH - 12 >= taken_right:
        return _draw_inset(canvas, shot, layout, (strip[2] - _INSET_WIDTH, strip[1] + 30, strip[2], strip[3] - 8))
    return None


def _draw_inset(canvas: Canvas, shot: CannonShot, layout: _Layout, box: Box) -> Viewport:
    """The whole shot at true scale in `box`: the cannon, the unit, (dashed) the stretch the
    target area shows, the line of fire to the aim marker (thin and grey), and the shot as it
    went: the shot line from the muzzle to where the ball lands (a dot), the bounce on along it
    to where the ball comes to rest, and past a monster that stopped it, the rest of the bounce
    (dashed grey). Returns the inset's viewport."""
    panel, f = layout.panel, shot.formation
    points = [Point(f.left, f.far), Point(f.right, f.far), shot.aim]
    if shot.fired:
        points += [shot.landing, shot.path_end]
    reach = max(abs(p.x) for p in points) + 2
    vp = Viewport.fit((-reach, -2.0, reach, max(p.y for p in points) + 2), box)
    canvas.text(((box[0] + box[2]) / 2, box[1] - 4), "whole shot to scale", size=11, fill=INK_SOFT, anchor="mb")
    canvas.draw.rectangle(vp.box, fill=TABLE, outline=MUTED)
    canvas.dashed_rect(_shown(vp, panel), fill=MUTED, dash=3, gap=2)
    origin = vp.px(0.0, 0.0)
    canvas.draw.rectangle(vp.rect(f.left, f.near, f.right, f.far), fill=BASE, outline=BASE_EDGE)
    canvas.line([origin, vp.at(shot.aim)], fill=MUTED)
    if shot.fired:
        landing, rest = vp.at(shot.landing), vp.at(shot.rest)
        if shot.stopped_by is not None:
            canvas.dashed(rest, vp.at(shot.path_end), fill=MUTED, dash=3, gap=2)
        canvas.line([origin, landing], fill=INK)
        if rest != landing:
            canvas.line([landing, rest], fill=INK, width=2)
        canvas.draw.ellipse(grow((landing[0], landing[1], landing[0], landing[1]), 2), fill=INK)
    x, y = origin
    canvas.draw.polygon([(x, y - 6), (x - 5, y + 4), (x + 5, y + 4)], fill=INK)
    return vp


def _shown(vp: Viewport, panel: Viewport) -> Box:
    """The pixel box, in the whole-shot picture `vp`, of the stretch the target area shows."""
    x0, y0 = max(panel.x0, vp.x0), max(panel.y0, vp.y0)
    x1, y1 = min(panel.x1, vp.x1), min(panel.y1, vp.y1)
    return vp.rect(x0, y0, x1, y1)


# The column: models hit, and the key.


def _leader(callout: _Callout, layout: _Layout) -> tuple[XY, XY, XY]:
    """The leader from a hit base to its callout: along the base's row to the panel's edge, then
    to the callout."""
    base = callout.base
    y = (base[1] + base[3]) / 2
    edge = layout.panel.box[2] - 6
    start = (base[2], y)
    return start, (max(edge, base[2]), y), (layout.column[0] - 3, callout.top + line_height(_LABEL + 1) / 2)


def _draw_column(canvas: Canvas, shot: CannonShot, layout: _Layout) -> None:
    """Beside the target area: each model hit, level with its base and joined to it, then the
    key."""
    x, top = layout.column[0], layout.column[1]
    y = top + 2
    for line, size in layout.heading:
        canvas.text((x, y), line, size=size, anchor="lt")
        y += line_height(size)
    if not shot.fired:
        canvas.text((x, top + 26), "none: nothing was fired", size=_LABEL, fill=INK_SOFT, anchor="lt")
    elif not shot.hits:
        canvas.text((x, top + 26), "none: the ball missed the unit", size=_LABEL, fill=INK_SOFT, anchor="lt")
    for callout in layout.callouts:
        start, bend, end = _leader(callout, layout)
        canvas.line([start, bend, end], fill=INK_SOFT)
        canvas.draw.ellipse(grow((start[0], start[1], start[0], start[1]), 2), fill=INK)
        swatch = (x, callout.top + 2, x + 13, callout.top + 15)
        _base(canvas, swatch, _style(callout.hit), slain=_slain(callout.hit))
        y = callout.top
        for line, size in callout.lines:
            canvas.text((x + _CALLOUT_INDENT, y), line, size=size, fill=INK if size > _LABEL else INK_SOFT, anchor="lt")
            y += line_height(size)
    canvas.legend((x, layout.legend_top), layout.legend)


def _legend(shot: CannonShot, marks: _Marks, grid: int) -> tuple[LegendItem, ...]:
    """The key: only the marks this picture shows, drawn as big as they are on it, and the
    grid's squares."""

    def mid(box: Box) -> XY:
        return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2

    def across(box: Box) -> tuple[XY, XY]:
        y = (box[1] + box[3]) / 2
        return (box[0], y), (box[2], y)

    def dashed(ink: RGB) -> Swatch:
        return lambda c, b: c.dashed(*across(b), fill=ink, width=2, dash=6, gap=5)

    def bar(c: Canvas, b: Box) -> None:
        c.draw.rectangle((b[0], mid(b)[1] - 2, b[2], mid(b)[1] + 2), fill=INK)

    items = [
        LegendItem("aim marker", lambda c, b: _aim_marker(c, mid(b), r=5)),
        LegendItem("line of fire, muzzle to marker", lambda c, b: c.line(across(b), fill=INK, width=2)),
    ]
    if shot.fired:
        items.append(LegendItem("where the ball lands", lambda c, b: _ball(c, mid(b), marks.ball)))
        if shot.landing.x != shot.aim.x:
            items.append(LegendItem("the ball's flight from the muzzle", dashed(INK)))
        if not shot.scatter.is_hit:
            items.append(LegendItem("scatter", lambda c, b: c.arrow(*across(b), fill=SCATTER, width=3, head=9)))
        if shot.rest != shot.landing:
            head = min(marks.head, 10)
            items.append(LegendItem("bounce", lambda c, b: c.arrow(*across(b), fill=INK, width=marks.path, head=head)))
        if shot.stopped_by is not None:
            items.append(LegendItem("stopped here", lambda c, b: _stop_bar(c, mid(b), (b[2], mid(b)[1]), half=7)))
            items.append(LegendItem("rest of the bounce, not travelled", dashed(MUTED)))
    styles = {_style(h) for h in shot.hits}
    for style, label in (
        (_Style.DIRECT, "direct hit"),
        (_Style.BOUNCE, "hit by the bounce"),
        (_Style.CONDITIONAL, "hit only if the monster dies"),
    ):
        if style in styles:
            items.append(LegendItem(label, lambda c, b, s=style: _base(c, _square(b), s)))
    if any(_slain(h) for h in shot.hits):
        items.append(LegendItem("slain", lambda c, b: _base(c, _square(b), _Style.PLAIN, slain=True)))
    items.append(LegendItem("the unit's front", bar))
    unit = {"in": "inch"}.get(shot.unit, shot.unit)
    items.append(LegendItem(f"grid: {grid} {unit} squares", _grid_swatch))
    return tuple(items)


def _grid_swatch(canvas: Canvas, box: Box) -> None:
    """A patch of table with its grid, as the key shows it."""
    canvas.draw.rectangle(box, fill=TABLE, outline=GRID)
    left, top, right, bottom = box
    for x in range(round(left) + 7, round(right), 7):
        canvas.line([(x, top), (x, bottom)], fill=GRID)
    canvas.line([(left, (top + bottom) / 2), (right, (top + bottom) / 2)], fill=GRID)


def _square(box: Box) -> Box:
    """A square the height of `box`, centred in it."""
    side = box[3] - box[1]
    x = (box[0] + box[2] - side) / 2
    return x, box[1], x + side, box[3]
