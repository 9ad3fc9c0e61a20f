"""What the pictures of Warhammer Fantasy war machines firing at a ranked unit share.

The cannon (renders/fantasy/cannon.py) and the stone thrower (renders/fantasy/stone_thrower.py) are laid out
alike, so that a player who has read one reads the other:

* :func:`frame`: the title bar on top (and a misfire banner under it); the target area at true
  scale across the whole width, zoomed to fit the unit and everything the shot touched; under
  it the strip: the scale bar, the stretch from the machine to the target area, shortened
  behind a break symbol and labelled with the true distance, the machine, and at the right,
  with room for it, a small picture of the whole shot at true scale; under the strip the
  column: the models hit, a line or two each in the order of their bases, then a compact key
  in as many columns as fit. Nothing steals the target area's width, and every name and line
  is big enough to read in Discord's 400-pixel preview (docs/pictures.md);
* the target area (:func:`draw_table`, :func:`draw_base`, :func:`front_bar`,
  :func:`unit_names`): the tabletop and its grid of 1" squares (2", 5" or 10" when inches are
  too close together; the key says which), the bases, a bar along the unit's front, and the
  ranks' and files' names in the unit's own numbering, moved along their rank or file (or left
  out) where a line of the shot would cross them;
* the strip (:func:`draw_stretch`, :func:`draw_inset_frame`) and the column
  (:class:`Callout`, :func:`callouts`, :func:`draw_column`);
* the words (:func:`who`, :func:`target_text`, :func:`wound_text`, :func:`misfire_banner`)
  and the key's entries for the unit's front and the grid.

A hit is drawn by how much it carries, whatever the machine: the heaviest hit (a cannon's
direct hit, the stone under the centre hole) is a dark solid base, the lighter ones (the bounce,
the template) a light hatched base; a slain model is crossed out.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from engine.fantasy.formation import Facing, Formation, TargetUnit
from engine.fantasy.misfire import Misfire
from engine.fantasy.special_rules import TargetRules
from engine.fantasy.wounding import WoundRoll
from engine.geometry import Point
from renders.canvas import LANDSCAPE
from renders.canvas import (
    BASE, BASE_EDGE, BOUNCE, BOUNCE_HATCH, DIRECT, GRID, INK, INK_SOFT, MUTED, PAPER, RGB, TABLE, WHITE,
    LABEL as LABEL_ROLE, Box, Canvas, Label, LegendItem, Viewport, XY, grow, key_size, legible, meets,
    line_height, overlaps, text_box, text_width, wrap,
)

MARGIN = 2.0
"""Inches of table shown round the unit and everything the shot touched."""
MAX_SCALE = 80.0
"""Pixels per inch at most, so a lone monster is not drawn as a poster."""
MIN_PANEL_HEIGHT = 300
"""The target area is never shorter than this, in pixels."""
CENTRE_BAND = 0.35
"""The line of fire stays between this fraction and its complement of the target area's width,
so the machine below it has room on both sides."""

PAD = 14
"""Pixels round the picture's parts."""
GLANCE_ROOM = 14
"""Pixels under the target area that still belong to the glance picture (its edge, a name)."""
TITLE_HEIGHT = 62
STRIP_HEIGHT = 170
INSET_WIDTH = 150
LABEL = 19
"""Text size of the notes on the target area; a model hit's line in the column is a size bigger."""
NAME = 18
"""Text size of the names round the unit (ranks, files, "front"), at the default 900 pixels wide:
8 pixels in Discord's 400-pixel preview. A wider picture writes them bigger (:func:`name_size`)."""
CALLOUT_INDENT = 26
"""Pixels from the column's edge to the text of a model hit (the swatch goes before it)."""
ROOM = (56, 12, 56, 34)
"""Pixels kept round the unit, besides MARGIN, for what is written round it: (left, top, right,
bottom) for the rank or file names and the front bar, the bar on top, "front", the names below."""
NOTE_ROOM = 58
"""Pixels of table at least above and below what the shot touched (MARGIN or this, whichever is
more), so that a two-line note fits outside even a big unit drawn small."""
HIT_CROSSING = 250
"""A note's leader crossing a hit base counts as this many pixels longer: it would be read as
part of the shot."""
NAME_CROSSING = 60
"""A note's leader crossing a rank's or file's name: somewhat longer (it may pass between two
names)."""
BAR_CROSSING = 10
"""A note's leader crossing the front bar: a little longer."""
UNIT_COVER = 300
"""What covering the unit's plain bases costs a note, in pixels of leader: a note sits outside
the unit when it can do so within about this much more leader."""


# Words.


def who(rank: int, file: int) -> str:
    """A model by the unit's own numbering: "R1 F3"."""
    return f"R{rank} F{file}"


def target_text(target: TargetUnit, machine: str) -> str:
    """The target as the subtitle gives it: "Target: 4 ranks of 5 infantry on 20 x 20 mm, front
    to the cannon (T3 W1 Sv 5+)"."""
    u = target
    text = (
        f"Target: {u.ranks} rank{'s' * (u.ranks != 1)} of {u.files} {u.troop.name} on {u.base_width} x "
        f"{u.base_depth} mm, {u.facing.value} to the {machine}"
    )
    if u.profile is not None:
        text += f" ({u.profile.describe()})"
    return text


def wound_outcome(w: WoundRoll, pooled: bool = False) -> str:
    """What the wound rolls did to one model under a template, in short. `pooled`: the models have
    several Wounds and the template's wounds pool on the unit, so a hit's own wounds decide no
    model's fate (the reply counts the models slain)."""
    if w.to_wound_needed is None:
        return "cannot wound"
    if not w.wounded:
        return "not wounded"
    if w.saved:
        return "saved"
    if w.slain:
        return "slain"
    if pooled:
        return f"{w.wounds} wound{'s' * (w.wounds != 1)}, pooled on the unit"
    return f"{w.wounds} wound{'s' * (w.wounds != 1)}, survives"


def wound_text(w: WoundRoll, pooled: bool = False) -> str:
    """What the wounding sequence did to one model, in full. `pooled`: the models have several
    Wounds and the hits' wounds pool on the unit, so a hit that does not slay its own model decides
    no model's fate (the reply counts the models slain)."""
    if w.to_wound_needed is None:
        return "cannot wound"
    if not w.wounded:
        return f"not wounded (rolled {w.to_wound.value}, needs {w.to_wound_needed}+)"
    if w.saved:
        return f"saved (ward {w.ward.value})" if w.ward is not None else f"saved (armour {w.save.value})"
    if pooled and not w.slain:
        return f"{w.wounds} wound{'s' * (w.wounds != 1)}, pooled on the unit"
    return f"{w.wounds} wound{'s' * (w.wounds != 1)}, {'slain' if w.slain else 'survives'}"


def misfire_banner(misfire: Misfire | None, machine: str, width: int) -> tuple[tuple[str, int], ...]:
    """The misfire banner's lines with their sizes: what happened, the chart with its D6 and
    row, the row's effect wrapped to `width` pixels; empty when the machine fired."""
    if misfire is None:
        return ()
    m = misfire
    if m.awaits_roll:
        lines = [(f"MISFIRE: the {machine} does not fire", 22), (f"{m.chart.name}: your D6 to roll", 18)]
        lines += [(line, legible(width)) for line in wrap("Enter it at the end of your dice, or press Roll the misfire chart.",
                                                          size=legible(width), width=width - 2 * PAD)]
        return tuple(lines)
    lines = [(f"MISFIRE: the {machine} does not fire", 22), (f"{m.chart.name}: D6 rolled {m.roll.face}, {m.row.title}", 18)]
    lines += [(line, legible(width)) for line in wrap(m.row.effect, size=legible(width), width=width - 2 * PAD)]
    return tuple(lines)


def chart_face(m: Misfire) -> str:
    """The chart die's face for a dice line: the players' to roll while the chart waits."""
    return "to roll" if m.awaits_roll else m.roll.face


def chart_title(m: Misfire) -> str:
    """The chart row's title for a picture's title."""
    return "chart roll awaited" if m.awaits_roll else m.row.title


# Layout.


def panel_top(banner: Sequence[tuple[str, int]]) -> float:
    """Pixel y of the target area's top, under the title bar and the banner (if any)."""
    return TITLE_HEIGHT + (sum(line_height(s) for _, s in banner) + 18 if banner else 0) + 10


def target_window(formation: Formation, points: Sequence[Point], scale: float) -> Box:
    """The stretch of table the target area shows at `scale` pixels an inch, (x0, y0, x1, y1) in
    inches: the unit and `points` (everything the shot touched), with MARGIN round them (above
    and below, at least NOTE_ROOM pixels, room for the notes) and room for the names round the
    unit, widened so that the line of fire (x = 0) sits in the middle band."""
    f = formation
    points = [Point(f.left, f.near), Point(f.right, f.far), *points]
    left = MARGIN + ROOM[0] / scale - min(p.x for p in points)
    right = MARGIN + ROOM[2] / scale + max(p.x for p in points)
    span = max(left + right, left / (1 - CENTRE_BAND), right / (1 - CENTRE_BAND))
    lo, hi = max(left, CENTRE_BAND * span), min(span - right, (1 - CENTRE_BAND) * span)
    x0 = -min(max(left + (span - left - right) / 2, lo), hi)
    room = max(MARGIN, NOTE_ROOM / scale)
    near = min(p.y for p in points) - room - ROOM[3] / scale
    far = max(p.y for p in points) + room + ROOM[1] / scale
    return x0, near, x0 + span, far


@dataclass(frozen=True, slots=True)
class Frame:
    """Where the picture's parts go."""

    panel: Viewport
    """The target area at true scale."""
    origin: Viewport
    """The same scale and left-right position as `panel`, with the machine (the origin: the
    muzzle, the crossbar) placed in the strip below the break."""
    strip: Box
    """The band under the target area: the shortened stretch, the machine, the scale bar."""
    column: Box
    """The column under the strip, as wide as the picture: the models hit, then the key. Its
    top and bottom are both where it starts: it runs on down as far as it needs."""


def name_size(width: float) -> int:
    """The names' text size on a picture `width` pixels wide: :data:`NAME`, or what stays legible
    in the preview when that is more."""
    return max(NAME, legible(width))


def frame(
    formation: Formation, points: Sequence[Point], *, width: int, top: float, max_panel_height: int,
    strip_height: float = STRIP_HEIGHT,
) -> Frame:
    """The picture's frame for a shot at `formation` that touched `points`: the target area from
    `top` down across the whole width, as big as the width and `max_panel_height` allow (up to
    MAX_SCALE), the strip (`strip_height` pixels) under it, the column (from its top down) under
    that."""
    panel_right = width - PAD
    # the title, a banner and the target area make the glance picture the embed shows: together at
    # most LANDSCAPE of the width (renders/canvas.py), so it reads in a 400 x 300 box too
    max_panel_height = min(max_panel_height, int(LANDSCAPE * width) - math.ceil(top) - GLANCE_ROOM)
    scale = MAX_SCALE
    for _ in range(4):  # the room for names is in pixels, so the window depends on the scale
        window = target_window(formation, points, scale)
        x0, y0, x1, y1 = window
        scale = min((panel_right - PAD) / (x1 - x0), max_panel_height / (y1 - y0), MAX_SCALE)
    height = max(MIN_PANEL_HEIGHT, math.ceil((y1 - y0) * scale))
    panel = Viewport.fit(window, (PAD, top, panel_right, top + height), max_scale=MAX_SCALE)
    strip = (PAD, top + height, panel_right, top + height + strip_height)
    origin = dataclasses.replace(panel, y0=-1.0, y1=0.0, top=strip[3] - 66)
    column = (PAD, strip[3] + 6, width - PAD, strip[3] + 6)
    return Frame(panel, origin, strip, column)


def grid_step(panel: Viewport) -> int:
    """Inches between the target area's grid lines: 1, or 2, 5 or 10 when inches are too close
    together."""
    return next((n for n in (1, 2, 5) if panel.span(n) >= 12), 10)


MIN_WIDTH = 640
"""The narrowest picture, in pixels."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PictureLayout:
    """Where everything goes on the picture, as far as all the pictures share it; each picture's
    own layout adds what is its own."""

    width: int
    height: int
    frame: Frame
    """The target area, the strip under it (the machine placed in it) and the column."""
    heading: tuple[tuple[str, int], ...]
    """The lines of the column's heading with their sizes."""
    callouts: tuple[Callout, ...]
    legend: tuple[LegendItem, ...]
    legend_top: float
    grid: int
    """Inches (or the game's unit) between the target area's grid lines."""
    banner: tuple[tuple[str, int], ...] = ()
    """Misfire banner lines with their sizes; empty when the machine fired."""

    @property
    def panel(self) -> Viewport:
        """The target area at true scale."""
        return self.frame.panel


def check_width(width: int, machine: str) -> None:
    """Refuse a picture of the `machine` narrower than MIN_WIDTH pixels."""
    if width < MIN_WIDTH:
        raise ValueError(f"width {width} is too narrow for the {machine} picture: give {MIN_WIDTH} pixels or more")


class _Drawn(Protocol):
    canvas: Canvas


def render_png(draw: Callable[..., _Drawn], shot: Any, *, width: int, max_panel_height: int, inset: bool) -> bytes:
    """The picture of `shot` drawn by `draw` as PNG bytes, `width` pixels wide (at least
    MIN_WIDTH); the target area is at most `max_panel_height` pixels tall. `inset` adds the small
    true-scale picture of the whole shot where there is room for it. A pure function of the
    record: the same shot gives the same bytes."""
    return draw(shot, width=width, max_panel_height=max_panel_height, inset=inset).canvas.png()


def start_picture(layout: PictureLayout, title: str, subtitle: str, *, extra: Sequence[RGB] = ()) -> Canvas:
    """The canvas for `layout` (with the `extra` colours), its title bar and the misfire banner
    (if any) drawn."""
    canvas = Canvas(layout.width, layout.height, extra=extra)
    canvas.target = layout.panel.box
    canvas.title_bar(title, subtitle, height=TITLE_HEIGHT)
    if layout.banner:
        lines, sizes = zip(*layout.banner)
        canvas.banner((0, TITLE_HEIGHT, layout.width, layout.panel.top - 10), lines, sizes)
    return canvas


def rules_heading(target_rules: TargetRules, immunity: Sequence[str], width: float) -> tuple[tuple[str, int], ...]:
    """The target's special rules that changed what the shot did, as lines under the column's
    heading (the list of hits then says why a cannon ball did one wound, or why so much was saved):
    Immune to Multiple Wounds or Armour Piercing, Ethereal's ward save. None to say: no lines."""
    said = []
    if "multiple-wounds" in immunity:
        said.append("Immune to Multiple Wounds: 1 wound a hit")
    if "armour-piercing" in immunity:
        said.append("Immune to Armour Piercing")
    if target_rules.ethereal:
        said.append("Ethereal: a 2+ ward save")
    return tuple((line, LABEL - 1) for rule in said for line in wrap(rule, size=LABEL - 1, width=width))


def below_heading(top: float, heading: Sequence[tuple[str, int]]) -> float:
    """Pixel y under the column's `heading` written from `top`, where the list of models hit
    starts."""
    return top + 2 + sum(line_height(size) for _, size in heading) + 4


def column_foot(
    frame: Frame, entries: Sequence[Callout], below_heading: float, legend: Sequence[LegendItem],
) -> tuple[float, int]:
    """Where the key starts (under the list of models hit) and how tall the picture is, in
    pixels."""
    _, legend_height = key_size(legend, width=frame.column[2] - frame.column[0])
    below = max((c.top + c.height for c in entries), default=below_heading + line_height(LABEL))
    top = below + 12
    return top, math.ceil(top + legend_height + PAD)


# The target area.


class BaseStyle(enum.Enum):
    """How a base is drawn."""

    PLAIN = "plain"
    """Not hit."""
    SOLID = "solid"
    """The heaviest hit: dark, filled solid."""
    HATCHED = "hatched"
    """A lighter hit: light, hatched."""
    CONDITIONAL = "conditional"
    """Hit only if a model in front dies: hatched on white, dashed edge."""


def draw_base(canvas: Canvas, box: Box, style: BaseStyle, *, slain: bool = False) -> None:
    """One base, drawn in the style of what happened to it; crossed out when slain."""
    if style is BaseStyle.PLAIN:
        canvas.draw.rectangle(box, fill=BASE, outline=BASE_EDGE)
    elif style is BaseStyle.SOLID:
        canvas.draw.rectangle(box, fill=DIRECT, outline=INK, width=2)
    elif style is BaseStyle.HATCHED:
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


def draw_base_edge(canvas: Canvas, box: Box, style: BaseStyle) -> None:
    """A hit base's edge alone, drawn again over the lines that cross the base."""
    if style is BaseStyle.CONDITIONAL:
        canvas.dashed_rect(box, fill=INK, width=2, dash=4, gap=3)
    elif style is not BaseStyle.PLAIN:
        canvas.draw.rectangle(box, outline=INK, width=2)


def draw_table(canvas: Canvas, vp: Viewport, step: int) -> None:
    """The tabletop the viewport shows, with a grid line every `step` units."""
    canvas.draw.rectangle(vp.box, fill=TABLE)
    for x in range(math.ceil(vp.x0 / step) * step, math.floor(vp.x1) + 1, step):
        canvas.line([vp.px(x, vp.y0), vp.px(x, vp.y1)], fill=GRID)
    for y in range(math.ceil(vp.y0 / step) * step, math.floor(vp.y1) + 1, step):
        canvas.line([vp.px(vp.x0, y), vp.px(vp.x1, y)], fill=GRID)


FRONT_SIDE = {Facing.FRONT: "bottom", Facing.REAR: "top", Facing.FLANK: "left"}
"""Which side of the unit, as the picture shows it, is its front. The formation puts the rank
facing the machine nearest it, so a unit seen from the front shows its front at the bottom and
one seen from the rear at the top; seen from the flank its front rank is on the firer's left
(``engine.fantasy.formation``)."""


def front_bar(formation: Formation, vp: Viewport) -> Box:
    """The bar along the unit's front, just outside its bases."""
    f = formation
    left, top, right, bottom = vp.rect(f.left, f.near, f.right, f.far)
    return {
        "bottom": (left, bottom + 3, right, bottom + 7),
        "top": (left, top - 7, right, top - 3),
        "left": (left - 7, top, left - 3, bottom),
    }[FRONT_SIDE[f.unit.facing]]


def holds(box: Box, p: XY, room: float) -> bool:
    """Whether `box` holds the point `p` with `room` pixels to spare all round."""
    return box[0] + room <= p[0] <= box[2] - room and box[1] + room <= p[1] <= box[3] - room


Name = tuple[XY, str, int, str]
"""A name written round the unit: (point, text, size, anchor)."""
Line = tuple[XY, XY, float]
"""A line drawn on the target area: its ends and its width in pixels, casing included."""
Ring = tuple[XY, float, float]
"""A circle drawn on the target area: its centre and radius and its width, in pixels."""


def _crosses_ring(box: Box, ring: Ring) -> bool:
    """Whether the circle `ring` (with half its width on either side) passes through `box`."""
    (cx, cy), r, w = ring
    near = math.hypot(max(box[0] - cx, 0.0, cx - box[2]), max(box[1] - cy, 0.0, cy - box[3]))
    far = math.hypot(max(abs(box[0] - cx), abs(box[2] - cx)), max(abs(box[1] - cy), abs(box[3] - cy)))
    return near <= r + w / 2 and far >= r - w / 2


def settle(
    name: Name, lines: Sequence[Line], *, axis: int, reach: float, outward: bool = False, boxes: Sequence[Box] = (),
    rings: Sequence[Ring] = (),
) -> Name | None:
    """`name` where no line nor ring crosses it nor covers any of `boxes`: where it is, or moved
    along `axis` (0 across, 1 up and down the picture) as little as will do, at most `reach`
    pixels (only to the right or down when `outward`); None when it has to be left out. A name's
    `reach` is what keeps it alongside its base: half the base less half the name, and a few
    pixels more."""
    (x, y), text, size, anchor = name
    box = text_box((x, y), text, size=size, anchor=anchor)
    if not outward:
        reach = max(reach - (box[2 + axis] - box[axis]) / 2, 0) + 4
    clear_by = [(a, b, w / 2 + 1) for a, b, w in lines]  # how far each line must keep from the name's box
    for d in _shifts(int(reach), outward):
        dx, dy = (d, 0.0) if axis == 0 else (0.0, d)
        left, top, right, bottom = moved = (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)
        for a, b, by in clear_by:
            if meets(a, b, (left - by, top - by, right + by, bottom + by)):
                break
        else:
            if not any(overlaps(moved, other) for other in boxes) and not any(
                _crosses_ring(grow(moved, 1), ring) for ring in rings
            ):
                return (x + dx, y + dy), text, size, anchor
    return None


@functools.lru_cache(maxsize=256)
def _shifts(reach: int, outward: bool) -> tuple[float, ...]:
    """The shifts :func:`settle` tries, in order: none, then 2 pixels at a time out to `reach`
    (either way, the positive first, unless `outward`). Kept: most names settle where they are, and
    building the list each time cost more than trying the first of it (issue 26)."""
    shifts = [0.0]
    for d in range(2, reach + 1, 2):
        shifts += [float(d)] if outward else [float(d), float(-d)]
    return tuple(shifts)


def unit_names(
    formation: Formation, vp: Viewport, bar: Box, lines: Sequence[Line], leaders: Sequence[Line] = (),
    boxes: Sequence[Box] = (), rings: Sequence[Ring] = (), *, size: int = NAME, aimed: tuple[int, int] | None = None,
) -> tuple[list[Name], list[Name], list[Name]]:
    """The names round the bases: "front" at the end of the front bar; the rows (R1.. seen from
    the front or rear, F1.. from the flank) down the left side; the columns along the bottom.
    Every other row or column, or fewer, when bases are too small to name each. A name a line
    would cross moves along its row or column as far as keeps it by its base, or is left out
    ("front" moves further out along the bar, and stays, haloed, when it cannot); so does one
    that would cover any of `boxes`. A name a note's leader crosses (`leaders`) or a circle's
    edge crosses (`rings`: a template, whose hits the names must still tell apart) moves if it
    can, and else stays, written over the leader or the edge. The `aimed` model's rank and file
    are always named (issue 30: the file the line of fire runs through is the one that matters
    most): when its own spot is crossed, the name goes further along, past a neighbour's name,
    which gives way."""
    f = formation
    flank = f.unit.facing is Facing.FLANK
    side = FRONT_SIDE[f.unit.facing]
    left, top, right, bottom = vp.rect(f.left, f.near, f.right, f.far)
    softer = [rings, ()] if rings else [()]  # the rings kept clear of: all of them, then (failing that) none
    if side == "left":
        front: Name = ((bar[2], bottom + 4), "front", size, "rt")
        axis, reach = 1, 24
    else:
        front = ((right + 6, (bar[1] + bar[3]) / 2), "front", size, "lm")
        axis, reach = 0, 40
    front = next(
        (n for ring in softer if (n := settle(front, lines, axis=axis, reach=reach, outward=True, boxes=boxes,
                                              rings=ring)) is not None),
        front,
    )

    def row_name(row: int) -> str:
        rank, file = f.rank_file(row, 0)
        return f"F{file}" if flank else f"R{rank}"

    def col_name(col: int) -> str:
        rank, file = f.rank_file(0, col)
        return f"R{rank}" if flank else f"F{file}"

    x = (bar[0] if side == "left" else left) - 5
    row_step = math.ceil((size + 4) / vp.span(f.cell_depth))
    row_reach = vp.span(f.cell_depth) / 2
    rows = [((x, vp.at(f.centre(row, 0))[1]), row_name(row), size, "rm") for row in range(0, f.rows, row_step)]
    y = (bar[3] if side == "bottom" else bottom) + 4
    widest = max(text_width(col_name(col), size=size) for col in range(f.cols)) + 8
    col_step = math.ceil(widest / vp.span(f.cell_width))
    col_reach = vp.span(f.cell_width) / 2
    cols = [((vp.at(f.centre(0, col))[0], y), col_name(col), size, "mt") for col in range(0, f.cols, col_step)]

    def settled(name: Name, axis: int, reach: float) -> Name | None:
        for ring in softer:
            if leaders:
                clear = settle(name, [*lines, *leaders], axis=axis, reach=reach, boxes=boxes, rings=ring)
                if clear is not None:
                    return clear
            clear = settle(name, lines, axis=axis, reach=reach, boxes=boxes, rings=ring)
            if clear is not None:
                return clear
        return None

    must: set[str] = set()
    if aimed is not None:
        must = {f"R{aimed[0]}", f"F{aimed[1]}"}
        for row in range(f.rows):
            if row_name(row) in must and all(n[1] != row_name(row) for n in rows):
                rows.append(((x, vp.at(f.centre(row, 0))[1]), row_name(row), size, "rm"))
        for col in range(f.cols):
            if col_name(col) in must and all(n[1] != col_name(col) for n in cols):
                cols.append(((vp.at(f.centre(0, col))[0], y), col_name(col), size, "mt"))

    def named(names: list[Name], axis: int, reach: float) -> list[Name]:
        others = apart([n for n in (settled(name, axis, reach) for name in names if name[1] not in must) if n is not None])
        out = []
        for name in (n for n in names if n[1] in must):  # the aimed rank's and file's names: always written
            # where it is, or further along its rank or file, clear of the neighbours' names (and of the
            # notes' leaders) if it can be; else to the far side (down or right), the neighbours giving way
            taken = [grow(text_box(n[0], n[1], size=n[2], anchor=n[3]), 5) for n in (*others, front)]
            tries = [([*lines, *leaders], (*boxes, *taken), False, 3.2), (lines, (*boxes, *taken), False, 3.2),
                     (lines, boxes, True, 2.4), (lines, boxes, False, 3.2)]
            wide = text_width(name[1], size=name[2]) * 2  # on small bases, at least past the name's width
            kept = next((k for crossing, avoid, outward, far in tries for ring in softer
                         if (k := settle(name, crossing, axis=axis, reach=max(reach * far, wide), outward=outward,
                                         boxes=avoid, rings=ring)) is not None), None)
            if kept is not None:
                out.append(kept)
        return apart(out + others)

    rows = named(rows, 1, row_reach)
    cols = named(cols, 0, col_reach)
    aimed_boxes = [grow(text_box(n[0], n[1], size=n[2], anchor=n[3]), 5) for n in rows + cols if n[1] in must]
    if any(overlaps(text_box(front[0], front[1], size=front[2], anchor=front[3]), b) for b in aimed_boxes):
        front = settle(front, lines, axis=axis, reach=reach * 3, outward=True, boxes=(*boxes, *aimed_boxes)) or front
    return [front], rows, cols


def apart(names: Sequence[Name], gap: float = 5) -> list[Name]:
    """The names, in order, less any that a name moved aside to clear a line would now touch
    (two file names pushed together read as one, "F3F4"): the first of two stays."""
    kept: list[Name] = []
    boxes: list[Box] = []
    for name in names:
        (x, y), text, size, anchor = name
        box = grow(text_box((x, y), text, size=size, anchor=anchor), gap)
        if not any(overlaps(box, other) for other in boxes):
            kept.append(name)
            boxes.append(box)
    return kept


def draw_names(canvas: Canvas, front: Sequence[Name], names: Sequence[Name]) -> tuple[Box, ...]:
    """Write "front" (haloed) and the ranks' and files' names (on a knocked-out patch of table).
    Returns the names' boxes."""
    for xy, text, size, anchor in front:
        canvas.text(xy, text, size=size, anchor=anchor, halo=True, role=LABEL_ROLE)
    return tuple(
        canvas.text(xy, text, size=size, fill=INK_SOFT, anchor=anchor, knockout=TABLE, role=LABEL_ROLE)
        for xy, text, size, anchor in names
    )


class Hit(Protocol):
    """A model hit, as all the machines' records give it."""

    @property
    def rank(self) -> int: ...
    @property
    def file(self) -> int: ...
    @property
    def wound(self) -> WoundRoll | None: ...


H = TypeVar("H", bound=Hit)


def is_slain(hit: Hit | None) -> bool:
    """Whether the wound rolls slew the model `hit` (None: a model not hit)."""
    return hit is not None and hit.wound is not None and hit.wound.slain


def draw_unit(
    canvas: Canvas, vp: Viewport, formation: Formation, hits: Sequence[H], style: Callable[[H | None], BaseStyle],
    grid: int,
) -> tuple[tuple[tuple[H, Box], ...], Box]:
    """The target area's first layers: the table with a grid line every `grid` inches, the bases
    (each drawn in the `style` of its hit, crossed out when slain) and the bar along the unit's
    front. Returns each model hit with its base's pixel box, and the front bar's box."""
    f = formation
    draw_table(canvas, vp, grid)
    hit_at = {f.cell_of(h.rank, h.file): h for h in hits}
    for row in range(f.rows):
        for col in range(f.cols):
            hit = hit_at.get((row, col))
            base = vp.rect(*f.base_rect(row, col))
            draw_base(canvas, base, style(hit), slain=is_slain(hit))
            canvas.body(base)
    hit_bases = tuple((hit, vp.rect(*f.base_rect(*cell))) for cell, hit in hit_at.items())
    bar = front_bar(f, vp)
    canvas.draw.rectangle(bar, fill=INK)
    return hit_bases, bar


def keep_clear_of_hits(canvas: Canvas, hit_bases: Sequence[tuple[Hit, Box]]) -> None:
    """Keep the notes' leaders off the hit bases if they can help it, and off a slain model's
    cross."""
    for hit, box in hit_bases:
        canvas.keep_clear(grow(box, 1), crossing=HIT_CROSSING)
        if is_slain(hit):  # a leader along the cross would read as part of it
            (x0, y0, x1, y1) = grow(box, -3)
            canvas.keep_clear_of_line((x0, y0), (x1, y1), turn=15)
            canvas.keep_clear_of_line((x0, y1), (x1, y0), turn=15)


def keep_notes_off_unit(canvas: Canvas, formation: Formation, vp: Viewport) -> None:
    """No note may cover the unit's bases (the legibility rule); a leader from a point in the
    unit leaves it by the shortest way it can (its length inside the unit costs once more)."""
    f = formation
    unit = grow(vp.rect(f.left, f.near, f.right, f.far), 2)
    canvas.keep_clear(unit, crossing=0)
    canvas.rather_not_cover(unit, cost=UNIT_COVER)


def name_unit(
    canvas: Canvas, formation: Formation, vp: Viewport, bar: Box, lines: Sequence[Line], notes: Sequence[Label], *,
    boxes: Sequence[Box] = (), rings: Sequence[Ring] = (), aimed: tuple[int, int] | None = None,
) -> tuple[Box, ...]:
    """The notes' leaders, then the names round the unit (:func:`unit_names`) clear of the
    shot's `lines`, of `boxes` and the notes, and where they can, of the leaders and `rings`.
    Returns the names' boxes."""
    for a, b, _ in lines:
        canvas.path([a, b])
    for note in notes:
        canvas.leader(note)
    # The notes' leaders may cross a name after all: it moves along its rank or file if it can.
    leaders = [(*note.leader, 1.0) for note in notes if note.leader is not None]
    front, rows, cols = unit_names(
        formation, vp, bar, lines, leaders, (*boxes, *(grow(note.box, 2) for note in notes)), rings,
        size=name_size(canvas.image.width), aimed=aimed,
    )
    return draw_names(canvas, front, rows + cols)


def finish_panel(canvas: Canvas, vp: Viewport, notes: Sequence[Label]) -> None:
    """The target area's last layers: its edge, and the notes' plates over everything."""
    canvas.draw.rectangle(vp.box, outline=MUTED)
    for note in notes:
        canvas.plate(note)


# The strip: the shortened stretch, the machine, the whole shot.


def draw_stretch(
    canvas: Canvas, frame: Frame, *, distance: str, name: str, machine: Callable[[Canvas, XY], Box], unit: str,
    inset: bool = True,
) -> Box | None:
    """Under the target area: the line of fire running on down to the machine through a break,
    `distance` (what runs from where to where, and how far) and "shortened: not to scale"
    beside the break, the machine (drawn by `machine` at the origin; it returns its box) with
    its `name`, and the scale bar. Returns the box for the whole shot to scale in the corner on
    the side with room for it, or None when there is none (or `inset` is off)."""
    panel, strip = frame.panel, frame.strip
    top = panel.px(0.0, panel.y0)
    origin = frame.origin.px(0.0, 0.0)
    canvas.line([top, origin], fill=INK, width=2)
    mid = (origin[0], (top[1] + origin[1]) / 2)
    canvas.break_symbol(mid, background=PAPER)
    note = "shortened: not to scale"
    big = small = legible(canvas.image.width)  # every text carries information: none under the rule (issue 30)
    needed = max(text_width(distance, size=big), text_width(note, size=small), text_width(name, size=big)) + 30
    on_left = origin[0] - strip[0] >= needed + 40
    sign, near = (-1, "r") if on_left else (1, "l")
    canvas.text((mid[0] + sign * 18, mid[1] - 2), distance, size=big, anchor=near + "b")
    canvas.text((mid[0] + sign * 18, mid[1] + 2), note, size=small, fill=INK_SOFT, anchor=near + "t")
    body = machine(canvas, origin)
    canvas.text((origin[0] + sign * 30, (body[1] + body[3]) / 2), name, size=big, anchor=near + "m")
    room = origin[0] - strip[0] - 44 if on_left else origin[0] - strip[0] - 24
    canvas.scale_bar((strip[0] + 4, strip[1] + 12), panel, unit, longest=min(200, room))
    taken_right = origin[0] + (24 if on_left else needed)
    if inset and strip[2] - INSET_WIDTH - 12 >= taken_right:
        return strip[2] - INSET_WIDTH, strip[1] + 30, strip[2], strip[3] - 8
    return None


def draw_inset_frame(canvas: Canvas, box: Box, panel: Viewport, formation: Formation, points: Sequence[Point]) -> Viewport:
    """The whole shot at true scale in `box`, as far as all shots share it: its caption, the
    table (from the machine to past the unit and `points`), dashed, the stretch the target area
    shows, and the unit. Returns its viewport, for the shot's own marks; then
    :func:`draw_inset_machine`."""
    f = formation
    points = [Point(f.left, f.far), Point(f.right, f.far), *points]
    reach = max(abs(p.x) for p in points) + 2
    vp = Viewport.fit((-reach, -2.0, reach, max(p.y for p in points) + 2), box)
    caption, size = "whole shot to scale", legible(canvas.image.width)
    x = min((box[0] + box[2]) / 2, canvas.image.width - PAD - text_width(caption, size=size) / 2)  # never off the edge
    canvas.text((x, box[1] - 4), caption, size=size, fill=INK_SOFT, anchor="mb")
    canvas.draw.rectangle(vp.box, fill=TABLE, outline=MUTED)
    canvas.dashed_rect(_shown(vp, panel), fill=MUTED, dash=3, gap=2)
    canvas.draw.rectangle(vp.rect(f.left, f.near, f.right, f.far), fill=BASE, outline=BASE_EDGE)
    return vp


def draw_inset_machine(canvas: Canvas, vp: Viewport) -> None:
    """The machine in the whole-shot picture: a small triangle at the origin."""
    x, y = vp.px(0.0, 0.0)
    canvas.draw.polygon([(x, y - 6), (x - 5, y + 4), (x + 5, y + 4)], fill=INK)


def _shown(vp: Viewport, panel: Viewport) -> Box:
    """The pixel box, in the whole-shot picture `vp`, of the stretch the target area shows."""
    x0, y0 = max(panel.x0, vp.x0), max(panel.y0, vp.y0)
    x1, y1 = min(panel.x1, vp.x1), min(panel.y1, vp.y1)
    return vp.rect(x0, y0, x1, y1)


# The column: models hit, and the key.


@dataclass(frozen=True, slots=True)
class CalloutLine:
    """One line of an entry in the list of models hit."""

    text: str
    size: int
    """Text size: above LABEL a headline (dark), else a note (grey)."""
    swatch: BaseStyle | None = None
    """The base drawn before the line, in the style of its hit; None for none."""
    slain: bool = False
    """The swatch crossed out."""


@dataclass(frozen=True, slots=True)
class Callout:
    """One entry of the list of models hit, and the base it names (which orders the list)."""

    base: Box
    """The pixel box of the base the entry names first."""
    lines: tuple[CalloutLine, ...]
    top: float
    """Pixel y of the entry's top in the list."""

    @property
    def height(self) -> float:
        return sum(line_height(line.size) for line in self.lines)


def callouts(entries: Sequence[tuple[float, Box, tuple[CalloutLine, ...]]], *, top: float) -> tuple[Callout, ...]:
    """The list of models hit: `entries` (the pixel y of the base's centre, its box, the lines)
    from `top` down, one under another, in the order of their bases from the top of the
    picture down (so the list reads as the unit does). Each entry starts with its model's
    name, which the names round the unit find on the picture: no leader lines cross the target
    area."""
    rows = sorted(entries, key=lambda e: (e[0], e[1][0]))
    out, y = [], top
    for _, base, lines in rows:
        out.append(Callout(base, lines, y))
        y += sum(line_height(line.size) for line in lines) + 4
    return tuple(out)


def callouts_per_hit(
    formation: Formation, hits: Sequence[H], frame: Frame, top: float,
    lines: Callable[[Sequence[int], float], tuple[CalloutLine, ...]], *, runs: Sequence[Sequence[int]] | None = None,
) -> tuple[Callout, ...]:
    """The list of models hit, from `top` down: an entry for each model, or for each of `runs`
    (the indices of hits that share an entry), with its `lines` (given the run and the width for
    the text), in the order of the first base of each."""
    f, panel = formation, frame.panel
    text_room = frame.column[2] - frame.column[0] - CALLOUT_INDENT
    entries = []
    for run in runs if runs is not None else [[i] for i in range(len(hits))]:
        row, col = f.cell_of(hits[run[0]].rank, hits[run[0]].file)
        entries.append((panel.at(f.centre(row, col))[1], panel.rect(*f.base_rect(row, col)), lines(run, text_room)))
    return callouts(entries, top=top)


def rows_of(formation: Formation, hits: Sequence[Hit]) -> list[list[int]]:
    """The hits' indices by the row of the unit (as the picture draws it) they are in, each row
    left to right: the runs of :func:`callouts_per_hit` for a template's list, a line a row."""
    rows: dict[int, list[int]] = {}
    for i, hit in enumerate(hits):
        rows.setdefault(formation.cell_of(hit.rank, hit.file)[0], []).append(i)
    return [sorted(run, key=lambda i: formation.cell_of(hits[i].rank, hits[i].file)[1]) for run in rows.values()]


def draw_column(canvas: Canvas, layout: PictureLayout, *, empty: str | None, top: float | None = None) -> None:
    """Under the strip, from `top` (the column's top unless given): the heading, `empty` when no
    model was hit, each entry after its swatch, then the compact key."""
    frame = layout.frame
    x = frame.column[0]
    top = frame.column[1] if top is None else top
    y = top + 2
    for line, size in layout.heading:
        canvas.text((x, y), line, size=size, anchor="lt")
        y += line_height(size)
    if empty is not None:
        canvas.text((x, y + 2), empty, size=LABEL, fill=INK_SOFT, anchor="lt")
    for callout in layout.callouts:
        y = callout.top
        for line in callout.lines:
            if line.swatch is not None:
                side = min(18, line.size)
                draw_base(canvas, (x, y + 2, x + side, y + 2 + side), line.swatch, slain=line.slain)
            fill = INK if line.size > LABEL else INK_SOFT
            canvas.text((x + CALLOUT_INDENT, y), line.text, size=line.size, fill=fill, anchor="lt")
            y += line_height(line.size)
    canvas.key((x, layout.legend_top), layout.legend, width=frame.column[2] - frame.column[0])


def middle(box: Box) -> XY:
    """The middle of `box`."""
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def across(box: Box) -> tuple[XY, XY]:
    """A line across the middle of `box`, left to right, as a key's swatch draws it."""
    y = (box[1] + box[3]) / 2
    return (box[0], y), (box[2], y)


def square(box: Box) -> Box:
    """A square the height of `box`, centred in it."""
    side = box[3] - box[1]
    x = (box[0] + box[2] - side) / 2
    return x, box[1], x + side, box[3]


def base_item(label: str, style: BaseStyle, *, slain: bool = False) -> LegendItem:
    """A key entry showing a base drawn in `style`."""
    return LegendItem(label, lambda c, b: draw_base(c, square(b), style, slain=slain))


def front_item() -> LegendItem:
    """The key's entry for the bar along the unit's front."""

    def bar(c: Canvas, b: Box) -> None:
        y = (b[1] + b[3]) / 2
        c.draw.rectangle((b[0], y - 2, b[2], y + 2), fill=INK)

    return LegendItem("the unit's front", bar)


def grid_item(grid: int, unit: str) -> LegendItem:
    """The key's entry for the grid: how big its squares are."""
    name = {"in": "inch"}.get(unit, unit)
    return LegendItem(f"grid: {grid} {name} squares", grid_swatch)


def grid_swatch(canvas: Canvas, box: Box) -> None:
    """A patch of table with its grid, as the key shows it."""
    canvas.draw.rectangle(box, fill=TABLE, outline=GRID)
    left, top, right, bottom = box
    for x in range(round(left) + 7, round(right), 7):
        canvas.line([(x, top), (x, bottom)], fill=GRID)
    canvas.line([(left, (top + bottom) / 2), (right, (top + bottom) / 2)], fill=GRID)


def fire_line_item(what: str) -> LegendItem:
    """The key's entry for the line of fire, `what` it runs between ("muzzle to marker")."""
    return LegendItem(f"line of fire, {what}", lambda c, b: c.line(((b[0], (b[1] + b[3]) / 2), (b[2], (b[1] + b[3]) / 2)), fill=INK, width=2))


def names_clear_of(canvas: Canvas, groups: Sequence[Sequence[Name]]) -> None:
    """Keep the notes clear of the names round the unit (a leader may cross one, at a cost)."""
    for group in groups:
        for xy, text, size, anchor in group:
            canvas.keep_clear(grow(text_box(xy, text, size=size, anchor=anchor), 4), crossing=NAME_CROSSING)
