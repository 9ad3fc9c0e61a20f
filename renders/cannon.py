"""The picture of a cannon shot (Warhammer Fantasy, War Machines: Cannons).

:func:`render_cannon` draws a :class:`~engine.fantasy.cannon.CannonShot` as the engine recorded
it, for players to repeat on the table:

* the title bar: weapon, distance to the marker, what happened; the target and the shot's dice;
* on a misfire, a banner with the chart, its D6 and the row (nothing was fired);
* the target area at true scale, zoomed to fit the unit, the aim marker, the landing point and
  the bounce with a margin round them, on an inch grid: the bases (ranks R1.. and files F1..
  in the unit's own numbering), a bar along the unit's front, the aim marker, the scatter arrow,
  where the ball lands, the bounce and where it ends or was stopped, and every model hit;
* below it the stretch from the muzzle to the target area, shortened behind a break symbol and
  labelled with the true distance, the cannon, the scale bar and a small true-scale picture of
  the whole shot;
* beside it the models hit (direct or bounce, with their wounds) and a key.

A direct hit is a dark solid base, a bounce hit a light hatched one; a hit that counts only if a
monster dies is hatched on white with a dashed edge; a slain model is crossed out.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from dataclasses import dataclass

from engine.fantasy.cannon import CannonHit, CannonShot, HitKind
from engine.fantasy.formation import Facing
from engine.fantasy.wounding import WoundRoll
from engine.geometry import Point, clock_face
from renders.canvas import (
    BASE, BASE_EDGE, BOUNCE, BOUNCE_HATCH, DIRECT, GRID, INK, INK_SOFT, MUTED, PAPER, SCATTER, TABLE, WHITE,
    RGB, Box, Canvas, Label, LegendItem, Swatch, Viewport, XY, grow, legend_size, length_text, line_height,
    spread, text_box, text_width, union, wrap,
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
    callouts: tuple[_Callout, ...]
    legend: tuple[LegendItem, ...]
    legend_top: float


def render_cannon(shot: CannonShot, *, width: int = 900, max_panel_height: int = 620, inset: bool = True) -> bytes:
    """The picture of `shot` as PNG bytes, `width` pixels wide (at least 640); the target area is
    at most `max_panel_height` pixels tall. `inset` adds the small true-scale picture of the
    whole shot where there is room for it. A pure function of the record: the same shot gives
    the same bytes."""
    if width < 640:
        raise ValueError(f"width {width} is too narrow for the cannon picture: give 640 pixels or more")
    layout = _layout(shot, width, max_panel_height)
    canvas = Canvas(layout.width, layout.height)
    canvas.title_bar(_title(shot), _subtitle(shot), height=_TITLE_HEIGHT)
    if layout.banner:
        lines, sizes = zip(*layout.banner)
        canvas.banner((0, _TITLE_HEIGHT, layout.width, layout.panel.top - 10), lines, sizes)
    _draw_panel(canvas, shot, layout)
    _draw_strip(canvas, shot, layout, inset=inset)
    _draw_column(canvas, shot, layout)
    return canvas.png()


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
    maybe = sum(h.conditional for h in shot.hits)
    n = len(shot.hits) - maybe
    hits = "no models hit" if n == 0 else f"{n} model{'s' * (n != 1)} hit"
    if maybe:
        hits += f", {maybe} more if the monster{'s' * (maybe > 1)} in front die{'s' * (maybe == 1)}"
    if shot.stopped_by is not None:
        hits += ", ball stopped"
    return f"{start} · {scatter} · {hits}"


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
    inches: everything the shot touched, with MARGIN round it and room for the names round the
    unit, widened so that the line of fire (x = 0) sits in the middle band."""
    f = shot.formation
    points = [Point(f.left, f.near), Point(f.right, f.far), shot.aim]
    points += [p for p in (shot.landing, shot.path_end, shot.rest) if p is not None]
    left = MARGIN + _ROOM[0] / scale - min(p.x for p in points)
    right = MARGIN + _ROOM[2] / scale + max(p.x for p in points)
    span = max(left + right, left / (1 - CENTRE_BAND), right / (1 - CENTRE_BAND))
    lo, hi = max(left, CENTRE_BAND * span), min(span - right, (1 - CENTRE_BAND) * span)
    x0 = -min(max(left + (span - left - right) / 2, lo), hi)
    near = min(p.y for p in points) - MARGIN - _ROOM[3] / scale
    far = max(p.y for p in points) + MARGIN + _ROOM[1] / scale
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

    callouts = _callouts(shot, panel, column)
    legend = _legend(shot)
    _, legend_height = legend_size(legend)
    below_callouts = max((c.top + c.height for c in callouts), default=top + 40)
    legend_top = max(strip[3] - legend_height, below_callouts + 14)
    height_total = math.ceil(max(strip[3], legend_top + legend_height) + _PAD)
    return _Layout(width, height_total, banner, panel, muzzle, strip, column, callouts, legend, legend_top)


def _callouts(shot: CannonShot, panel: Viewport, column: Box) -> tuple[_Callout, ...]:
    """The list of models hit, each level with its base as far as the column allows."""
    f = shot.formation
    text_room = column[2] - column[0] - _CALLOUT_INDENT
    rows = []
    for i, hit in enumerate(shot.hits):
        row, col = f.cell_of(hit.rank, hit.file)
        centre = panel.at(f.centre(row, col))[1]
        rows.append((centre, hit, panel.rect(*f.base_rect(row, col)), _callout_lines(shot, i, text_room)))
    rows.sort(key=lambda r: r[0])
    heights = [sum(line_height(size) for _, size in r[3]) for r in rows]
    tops = spread([r[0] for r in rows], heights, top=column[1] + 28, bottom=panel.box[3], gap=5)
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


def _slain(hit: CannonHit | None) -> bool:
    return hit is not None and hit.wound is not None and hit.wound.slain


def _style(hit: CannonHit | None) -> _Style:
    if hit is None:
        return _Style.PLAIN
    if hit.conditional:
        return _Style.CONDITIONAL
    return _Style.DIRECT if hit.kind is HitKind.DIRECT else _Style.BOUNCE


def _aim_marker(canvas: Canvas, xy: XY, r: float = _AIM) -> None:
    """The aim marker: a ring with four ticks, leaving its centre clear."""
    x, y = xy
    ring = (x - r, y - r, x + r, y + r)
    ticks = [((x - r - 5, y), (x - r + 4, y)), ((x + r - 4, y), (x + r + 5, y)),
             ((x, y - r - 5), (x, y - r + 4)), ((x, y + r - 4), (x, y + r + 5))]
    canvas.draw.ellipse(grow(ring, 1), outline=WHITE, width=4)
    for a, b in ticks:
        canvas.line([a, b], fill=WHITE, width=4)
    canvas.draw.ellipse(ring, outline=INK, width=2)
    for a, b in ticks:
        canvas.line([a, b], fill=INK, width=2)


def _ball(canvas: Canvas, xy: XY, r: float = _BALL) -> None:
    """Where the ball first strikes the ground."""
    canvas.draw.ellipse((xy[0] - r, xy[1] - r, xy[0] + r, xy[1] + r), fill=INK, outline=WHITE, width=2)


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


def _draw_panel(canvas: Canvas, shot: CannonShot, layout: _Layout) -> None:
    """The target area in layers: table and grid (every inch, or every 2 or 5 when inches are
    too close together), bases and the unit's front, the shot's lines, the notes' leader lines,
    the names of ranks and files, the markers, the notes."""
    vp, f = layout.panel, shot.formation
    area = vp.box
    canvas.draw.rectangle(area, fill=TABLE)
    step = next((n for n in (1, 2, 5) if vp.span(n) >= 12), 10)
    for x in range(math.ceil(vp.x0 / step) * step, math.floor(vp.x1) + 1, step):
        canvas.line([vp.px(x, vp.y0), vp.px(x, vp.y1)], fill=GRID)
    for y in range(math.ceil(vp.y0 / step) * step, math.floor(vp.y1) + 1, step):
        canvas.line([vp.px(vp.x0, y), vp.px(vp.x1, y)], fill=GRID)

    hit_at = {f.cell_of(h.rank, h.file): h for h in shot.hits}
    for row in range(f.rows):
        for col in range(f.cols):
            hit = hit_at.get((row, col))
            _base(canvas, vp.rect(*f.base_rect(row, col)), _style(hit), slain=_slain(hit))
    bar = _front_bar(shot, vp)
    canvas.draw.rectangle(bar, fill=INK)

    aim = vp.at(shot.aim)
    fire_line = (vp.px(0.0, vp.y0), aim)
    canvas.line(fire_line, fill=INK, width=2)
    canvas.keep_clear_of_line(*fire_line)
    canvas.keep_clear(grow((aim[0], aim[1], aim[0], aim[1]), _AIM + 6))
    if shot.fired:
        _draw_flight(canvas, shot, vp)
    names = _unit_names(shot, vp, bar)
    canvas.keep_clear(grow(vp.rect(f.left, f.near, f.right, f.far), 3))
    canvas.keep_clear(grow(bar, 2))
    for group in names:
        boxes = [text_box(xy, text, size=size, anchor=anchor) for xy, text, size, anchor in group]
        canvas.keep_clear(grow(union(boxes), 2))
    for callout in layout.callouts:
        canvas.keep_clear_of_line(*_leader(callout, layout)[:2])

    notes = _place_notes(canvas, shot, vp)
    for note in notes:
        canvas.leader(note)
    front, rows, cols = names
    for xy, text, size, anchor in front:
        canvas.text(xy, text, size=size, anchor=anchor, halo=True)
    for xy, text, size, anchor in rows + cols:
        canvas.text(xy, text, size=size, fill=INK_SOFT, anchor=anchor, knockout=TABLE)
    _aim_marker(canvas, aim)
    if shot.fired:
        _ball(canvas, vp.at(shot.landing))
    canvas.draw.rectangle(area, outline=MUTED)
    for note in notes:
        canvas.plate(note)


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


def _unit_names(shot: CannonShot, vp: Viewport, bar: Box) -> tuple[list[_Name], list[_Name], list[_Name]]:
    """The names round the bases: "front" at the end of the front bar; the rows (R1.. seen from
    the front or rear, F1.. from the flank) down the left side; the columns along the bottom.
    Every other row or column, or fewer, when bases are too small to name each."""
    f = shot.formation
    flank = shot.target.facing is Facing.FLANK
    side = _FRONT_SIDE[shot.target.facing]
    left, top, right, bottom = vp.rect(f.left, f.near, f.right, f.far)
    if side == "left":
        front = [((bar[2], bottom + 4), "front", _LABEL, "rt")]
    else:
        front = [((right + 6, (bar[1] + bar[3]) / 2), "front", _LABEL, "lm")]

    def row_name(row: int) -> str:
        rank, file = f.rank_file(row, 0)
        return f"F{file}" if flank else f"R{rank}"

    def col_name(col: int) -> str:
        rank, file = f.rank_file(0, col)
        return f"R{rank}" if flank else f"F{file}"

    x = (bar[0] if side == "left" else left) - 5
    row_step = math.ceil(15 / vp.span(f.cell_depth))
    rows = [((x, vp.at(f.centre(row, 0))[1]), row_name(row), 11, "rm") for row in range(0, f.rows, row_step)]
    y = (bar[3] if side == "bottom" else bottom) + 4
    widest = max(text_width(col_name(col), size=11) for col in range(f.cols)) + 6
    col_step = math.ceil(widest / vp.span(f.cell_width))
    cols = [((vp.at(f.centre(0, col))[0], y), col_name(col), 11, "mt") for col in range(0, f.cols, col_step)]
    return front, rows, cols


def _draw_flight(canvas: Canvas, shot: CannonShot, vp: Viewport) -> None:
    """The ball's flight from the muzzle to the landing point, the scatter arrow, and the bounce:
    to where it ends, and past a monster that stopped it, the rest of the way it would have gone."""
    landing = vp.at(shot.landing)
    aim = vp.at(shot.aim)
    if shot.landing.x != shot.aim.x:
        flight = vp.clip(Point(0.0, 0.0), shot.landing)
        if flight is not None:
            canvas.dashed(*flight, fill=INK, width=2, dash=6, gap=5)
            canvas.keep_clear_of_line(*flight)
    if not shot.scatter.is_hit:
        canvas.arrow(aim, landing, fill=SCATTER, width=3, head=12, casing=WHITE, shorten=_BALL + 1)
        canvas.keep_clear_of_line(aim, landing)
    rest, end = vp.at(shot.rest), vp.at(shot.path_end)
    if shot.stopped_by is not None:
        canvas.dashed(rest, end, fill=MUTED, width=2, dash=6, gap=5)
        _stop_bar(canvas, end, rest, half=6, ink=MUTED, width=2)
        canvas.keep_clear_of_line(rest, end)
    if rest != landing:
        canvas.arrow(landing, rest, fill=INK, width=4, head=14, casing=WHITE)
        canvas.keep_clear_of_line(landing, rest)
    if shot.stopped_by is not None:
        _stop_bar(canvas, rest, end)
    for p in (landing, rest, end):
        canvas.keep_clear(grow((p[0], p[1], p[0], p[1]), _BALL + 4))


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


def _draw_strip(canvas: Canvas, shot: CannonShot, layout: _Layout, *, inset: bool) -> None:
    """Under the target area: the line of fire running on down to the cannon through a break,
    the true distance beside the break, the cannon, the scale bar, and the whole shot to scale
    in the corner on the side with room for it."""
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
        _draw_inset(canvas, shot, layout, (strip[2] - _INSET_WIDTH, strip[1] + 30, strip[2], strip[3] - 8))


def _draw_inset(canvas: Canvas, shot: CannonShot, layout: _Layout, box: Box) -> None:
    """The whole shot at true scale in `box`: the cannon, the line of fire, the unit, the bounce,
    and (dashed) the stretch the target area shows."""
    panel, f = layout.panel, shot.formation
    points = [Point(f.left, f.far), Point(f.right, f.far), shot.aim] + ([shot.path_end] if shot.fired else [])
    reach = max(abs(p.x) for p in points) + 2
    vp = Viewport.fit((-reach, -2.0, reach, max(p.y for p in points) + 2), box)
    canvas.text(((box[0] + box[2]) / 2, box[1] - 4), "whole shot to scale", size=11, fill=INK_SOFT, anchor="mb")
    canvas.draw.rectangle(vp.box, fill=TABLE, outline=MUTED)
    canvas.dashed_rect(_shown(vp, panel), fill=MUTED, dash=3, gap=2)
    origin = vp.px(0.0, 0.0)
    canvas.line([origin, vp.at(shot.aim)], fill=INK_SOFT)
    canvas.draw.rectangle(vp.rect(f.left, f.near, f.right, f.far), fill=BASE, outline=BASE_EDGE)
    if shot.fired and shot.rest != shot.landing:
        canvas.line([vp.at(shot.landing), vp.at(shot.rest)], fill=INK, width=2)
    x, y = origin
    canvas.draw.polygon([(x, y - 6), (x - 5, y + 4), (x + 5, y + 4)], fill=INK)


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
    n = len(shot.hits)
    canvas.text((x, top + 2), "Models hit" + (f" ({n})" if n else ""), size=15, anchor="lt")
    if not shot.fired:
        canvas.text((x, top + 26), "none: nothing was fired", size=_LABEL, fill=INK_SOFT, anchor="lt")
    elif not n:
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


def _legend(shot: CannonShot) -> tuple[LegendItem, ...]:
    """The key: only the marks this picture shows."""

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
        items.append(LegendItem("where the ball lands", lambda c, b: _ball(c, mid(b))))
        if shot.landing.x != shot.aim.x:
            items.append(LegendItem("the ball's flight from the muzzle", dashed(INK)))
        if not shot.scatter.is_hit:
            items.append(LegendItem("scatter", lambda c, b: c.arrow(*across(b), fill=SCATTER, width=3, head=9)))
        if shot.rest != shot.landing:
            items.append(LegendItem("bounce", lambda c, b: c.arrow(*across(b), fill=INK, width=4, head=10)))
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
    return tuple(items)


def _square(box: Box) -> Box:
    """A square the height of `box`, centred in it."""
    side = box[3] - box[1]
    x = (box[0] + box[2] - side) / 2
    return x, box[1], x + side, box[3]
