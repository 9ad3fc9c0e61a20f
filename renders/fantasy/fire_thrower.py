"""The picture of a fire thrower shot (Warhammer Fantasy, War Machines: Fire Throwers).

:func:`render_fire_thrower` draws a :class:`~engine.fantasy.fire_thrower.FireThrowerShot` as the
engine recorded it, laid out as the other Fantasy pictures are (renders/fantasy/units.py):

* the title bar: weapon, distance to the target model, how far the flame went, how many models
  it hit and the Panic test; on a misfire, a banner with the Black Powder Misfire Chart;
* the target area at true scale on a grid: the bases (hits hatched, the slain crossed out), the
  unit's front, the line of fire; the teardrop template at its true size where the flame
  landed (its outline over a yellow tint of the ground under it), and where it was placed (a
  dashed outline, its narrow end at the barrel or at the start the players gave) with an arrow
  along its side for the artillery die's move;
* the strip under it: the stretch to the target area shortened behind a break, the fire
  thrower, the scale bar and the whole shot to scale;
* under the strip the models hit, a line for each rank as the machine sees them, and a compact
  key.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from engine.fantasy.fire_thrower import FireThrowerShot, FlameHit
from engine.fantasy.formation import Facing
from engine.geometry import Point
from renders.canvas import (
    BASE, BASE_EDGE, GRID, INK, INK_SOFT, MUTED, SCATTER, TABLE, TEMPLATE, WHITE, Box, Canvas, Label, LegendItem,
    Viewport, XY, grow, legible, length_text, mix, wrap,
)
from renders.fantasy.units import (
    rules_heading,
    chart_face, chart_title, wound_outcome,
    BAR_CROSSING, LABEL, BaseStyle, Callout, CalloutLine, Frame, Line, PictureLayout,
    across, base_item, below_heading, callouts_per_hit, check_width, column_foot, draw_base_edge, draw_column,
    draw_unit, finish_panel, fire_line_item, frame, front_item,
    grid_item, grid_step, is_slain, keep_clear_of_hits, keep_notes_off_unit, middle, misfire_banner, name_size, name_unit,
    names_clear_of, panel_top, render_png, rows_of, start_picture, target_text, unit_names,
)

TINT = 0.4
TINTS: dict[tuple[int, int, int], tuple[int, int, int]] = {
    colour: mix(colour, TEMPLATE, TINT) for colour in (TABLE, GRID, BASE, BASE_EDGE)
}
"""The ground under the template and the tint it takes (as the stone thrower's template)."""
_ARC_STEPS = 24
STRIP = 78
"""Pixels under the target area: the scale bar and one line (no shortened stretch, no inset)."""
"""Straight pieces each end's arc is drawn with."""


@dataclass(frozen=True, slots=True)
class _Drawing:
    canvas: Canvas
    layout: PictureLayout
    template: tuple[XY, ...] | None
    """The teardrop's outline where the flame landed, in pixels; None when not fired."""
    placed: tuple[XY, ...]
    """Its outline where it was placed, in pixels."""
    move: tuple[XY, XY] | None
    """The arrow for the artillery die's move, tail to head; None when not fired."""
    hit_bases: tuple[tuple[FlameHit, Box], ...]
    inset: Viewport | None


def render_fire_thrower(
    shot: FireThrowerShot, *, width: int = 900, max_panel_height: int = 720, inset: bool = True,
) -> bytes:
    """The picture of `shot` as PNG bytes (:func:`renders.fantasy.units.render_png`)."""
    return render_png(_draw, shot, width=width, max_panel_height=max_panel_height, inset=inset)


def teardrop(tip: Point, length: float, r1: float, r2: float) -> list[Point]:
    """The teardrop's outline in table inches, its narrow end's tip at `tip`, lying along the
    line of fire: the wide end's arc, the straight edge, the narrow end's arc, the other edge."""
    a = Point(tip.x, tip.y + r1)
    b = Point(tip.x, tip.y + length - r2)
    # The straight edges touch both circles where the outward normal makes this angle with +y.
    edge = math.acos((r1 - r2) / (b.y - a.y))  # > 90 degrees: the edges open toward the wide end
    points = []
    for i in range(_ARC_STEPS + 1):  # the wide end, from the right edge over the far side
        t = -edge + 2 * edge * i / _ARC_STEPS
        points.append(Point(b.x + r2 * math.sin(-t), b.y + r2 * math.cos(t)))
    for i in range(_ARC_STEPS + 1):  # the narrow end, round the back
        t = edge + (2 * math.pi - 2 * edge) * i / _ARC_STEPS
        points.append(Point(a.x + r1 * math.sin(-t), a.y + r1 * math.cos(t)))
    return points


def _outline(shot: FireThrowerShot, tip: Point) -> list[Point]:
    return teardrop(tip, shot.length, shot.narrow_radius, shot.wide_radius)


def _draw(shot: FireThrowerShot, *, width: int, max_panel_height: int, inset: bool) -> _Drawing:
    check_width(width, "fire thrower")
    layout = _layout(shot, width, max_panel_height)
    canvas = start_picture(layout, _title(shot), _subtitle(shot), extra=tuple(TINTS.values()))
    template, placed, move, hit_bases = _draw_panel(canvas, shot, layout)
    whole = _draw_strip(canvas, shot, layout, inset=inset)
    draw_column(canvas, layout, empty=_empty(shot))
    return _Drawing(canvas, layout, template, placed, move, hit_bases, whole)


# Words.


def _title(shot: FireThrowerShot) -> str:
    start = f"{shot.weapon.name} · {length_text(shot.distance, shot.unit)} to the target"
    if shot.misfire is not None:
        return f"{start} · MISFIRE: {chart_title(shot.misfire)}"
    n = len(shot.hits)
    hits = "no models hit" if n == 0 else f"{n} model{'s' * (n != 1)} hit"
    title = f"{start} · flame {length_text(shot.moved, shot.unit)} forward · {hits}"
    if shot.no_effect and n:  # Immune to Flaming Attacks: the flame is not physical (000:144, 003:246)
        title += " · Immune: no effect"
    if shot.panic is not None:
        title += f" · Panic test {'passed' if shot.panic.passed else 'FAILED'}"
    elif shot.panic_required:
        title += " · Panic test"
    return title


def _subtitle(shot: FireThrowerShot) -> str:
    faces = [f"artillery {shot.artillery.face}"]
    if shot.misfire is not None:
        faces.append(f"misfire chart {chart_face(shot.misfire)}")
    if shot.panic is not None:
        faces.append(f"panic {shot.panic.dice[0].face}+{shot.panic.dice[1].face} vs {shot.panic.needed}")
    text = f"{target_text(shot.target, 'fire thrower')} · dice: {', '.join(faces)}"
    return text + (" · Flammable" if shot.flammable else "")


def _empty(shot: FireThrowerShot) -> str | None:
    if not shot.fired:
        return "none: nothing was fired"
    if not shot.hits:
        return "none: the flame missed the unit"
    return None



def _span(first: int, last: int, letter: str) -> str:
    return f"{letter}{first}" if first == last else f"{letter}{min(first, last)}-{letter}{max(first, last)}"


def _runs(cols: Sequence[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for c in sorted(cols):
        if runs and c == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], c)
        else:
            runs.append((c, c))
    return runs


def _names(shot: FireThrowerShot, row: int, cols: Sequence[int], *, full: bool) -> str:
    """The models at `cols` of one row: in full ("R2 F1-F5") or by what tells them apart in it."""
    f = shot.formation
    parts = []
    for a, b in _runs(cols):
        (ra, fa), (rb, fb) = f.rank_file(row, a), f.rank_file(row, b)
        if full:
            parts.append(f"{_span(ra, rb, 'R')} {_span(fa, fb, 'F')}")
        elif shot.target.facing is Facing.FLANK:
            parts.append(_span(ra, rb, "R"))
        else:
            parts.append(_span(fa, fb, "F"))
    return ", ".join(parts)


# Layout.


def _touched(shot: FireThrowerShot) -> list[Point]:
    """What the picture must show: the template where it was placed and where it landed."""
    r2 = shot.wide_radius
    points = [Point(-r2, -1.0), Point(r2, shot.start + shot.length)]  # the machine, under the barrel
    if shot.fired:
        points.append(Point(r2, shot.start + shot.moved + shot.length))
    return points


def _layout(shot: FireThrowerShot, width: int, max_panel_height: int) -> PictureLayout:
    banner = misfire_banner(shot.misfire, "fire thrower", width)
    fr = frame(shot.formation, _touched(shot), width=width, top=panel_top(banner), max_panel_height=max_panel_height,
               strip_height=STRIP)
    heading = ((f"Models hit ({len(shot.hits)})", 20), *rules_heading(shot.target_rules, (), fr.column[2] - fr.column[0])) \
        if shot.hits else (("Models hit", 20),)
    below = below_heading(fr.column[1], heading)
    entries = _callouts(shot, fr, below)
    grid = grid_step(fr.panel)
    legend = _legend(shot, grid)
    top, height = column_foot(fr, entries, below, legend)
    return PictureLayout(width=width, height=height, banner=banner, frame=fr, heading=heading, callouts=entries,
                         legend=legend, legend_top=top, grid=grid)


def _callouts(shot: FireThrowerShot, fr: Frame, top: float) -> tuple[Callout, ...]:
    """An entry for each row the flame hit: who, at S5, and what the wound rolls did."""
    return callouts_per_hit(shot.formation, shot.hits, fr, top, lambda run, room: _row_lines(shot, run, room),
                            runs=rows_of(shot.formation, shot.hits))


def _row_lines(shot: FireThrowerShot, run: Sequence[int], room: float) -> tuple[CalloutLine, ...]:
    """The entry for the models hit in one row (`run`, left to right)."""
    f = shot.formation
    row = f.cell_of(shot.hits[run[0]].rank, shot.hits[run[0]].file)[0]
    cells = [(f.cell_of(shot.hits[i].rank, shot.hits[i].file)[1], shot.hits[i]) for i in run]
    headline = f"{_names(shot, row, [c for c, _ in cells], full=True)}: S{cells[0][1].strength}, flaming"
    lines = [CalloutLine(line, LABEL + 1) for line in wrap(headline, size=LABEL + 1, width=room)]
    lines[0] = CalloutLine(lines[0].text, lines[0].size, BaseStyle.HATCHED)
    outcomes: dict[str, list[int]] = {}
    for col, hit in cells:
        if hit.wound is not None:
            outcomes.setdefault(wound_outcome(hit.wound, shot.target.profile.wounds > 1), []).append(col)
    if outcomes:
        note = "; ".join(f"{_names(shot, row, cols, full=False)} {what}" for what, cols in outcomes.items())
        lines += [CalloutLine(line, LABEL - 1) for line in wrap(note, size=LABEL - 1, width=room)]
    return tuple(lines)


# Marks.


def _style(hit: FlameHit | None) -> BaseStyle:
    return BaseStyle.PLAIN if hit is None else BaseStyle.HATCHED


def _tint_polygon(canvas: Canvas, polygon: Sequence[XY], *, within: Box) -> None:
    """Inside `polygon` (and `within`), the ground takes the template's tint: the colours TINTS
    names change, what is drawn on them keeps its colour (as Canvas.tint_circle does)."""
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    left, top = max(math.floor(min(xs)), math.ceil(within[0])), max(math.floor(min(ys)), math.ceil(within[1]))
    right, bottom = min(math.ceil(max(xs)), math.floor(within[2])), min(math.ceil(max(ys)), math.floor(within[3]))
    if left >= right or top >= bottom:
        return
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).polygon([(x - left, y - top) for x, y in polygon], fill=255)
    canvas.tint((left, top), np.array(mask) > 0, TINTS)


def _template_edge(canvas: Canvas, polygon: Sequence[XY]) -> None:
    """The template's edge: dark, on a white casing, so it shows over a block of hits."""
    ring = [*polygon, polygon[0]]
    canvas.line(ring, fill=WHITE, width=5)
    canvas.line(ring, fill=INK, width=2)


def _dashed_outline(canvas: Canvas, polygon: Sequence[XY], *, fill, dash: float = 8, gap: float = 6) -> None:
    """The polygon's outline in dashes `dash` pixels long, `gap` apart, walked round its edge."""
    ring = [*polygon, polygon[0]]
    phase = 0.0  # how far into the current dash-and-gap the walk is
    for a, b in zip(ring, ring[1:]):
        length = math.dist(a, b)
        done = 0.0
        while done < length:
            step = min(length - done, (dash - phase) if phase < dash else (dash + gap - phase))
            if phase < dash:
                p = (a[0] + (b[0] - a[0]) * done / length, a[1] + (b[1] - a[1]) * done / length)
                q = (a[0] + (b[0] - a[0]) * (done + step) / length, a[1] + (b[1] - a[1]) * (done + step) / length)
                canvas.line([p, q], fill=fill, width=2)
            done += step
            phase = (phase + step) % (dash + gap)


def _fire_thrower(canvas: Canvas, barrel: XY) -> Box:
    """A fire thrower from above: a barrel on a small carriage, the fluid chamber behind it, the
    barrel's mouth (where the template's narrow end goes) at `barrel`."""
    x, y = barrel
    canvas.draw.rectangle((x - 16, y + 26, x + 16, y + 34), fill=INK_SOFT, outline=INK)
    canvas.draw.ellipse((x - 11, y + 30, x + 11, y + 56), fill=INK_SOFT, outline=INK)
    canvas.draw.rectangle((x - 4, y, x + 4, y + 34), fill=INK, outline=INK)
    canvas.draw.rectangle((x - 6, y, x + 6, y + 4), fill=INK)
    return x - 16, y, x + 16, y + 56


def _draw_panel(canvas: Canvas, shot: FireThrowerShot, layout: PictureLayout) -> tuple:
    vp, f = layout.panel, shot.formation
    hit_bases, bar = draw_unit(canvas, vp, f, shot.hits, _style, layout.grid)
    aim = vp.px(0.0, shot.distance)
    fire = (vp.px(0.0, 0.0), aim)
    canvas.line(fire, fill=INK, width=2)
    machine = _fire_thrower(canvas, vp.px(0.0, 0.0))
    placed = tuple(vp.at(p) for p in _outline(shot, shot.placed_tip))
    _dashed_outline(canvas, placed, fill=MUTED if shot.fired else INK_SOFT)
    template = move = None
    if shot.fired:
        template = tuple(vp.at(p) for p in _outline(shot, shot.tip))
        _template_edge(canvas, template)
        for hit, box in hit_bases:
            draw_base_edge(canvas, box, _style(hit))
        # The move: an arrow beside the template's right edge, from the placed tip to the landed one.
        side = vp.span(shot.wide_radius) + 10
        tail = vp.px(0.0, shot.start)
        head = vp.px(0.0, shot.start + shot.moved)
        move = ((tail[0] + side, tail[1]), (head[0] + side, head[1]))
        if math.dist(*move) >= 6:
            canvas.arrow(*move, fill=SCATTER, width=3, head=12, casing=WHITE, edge=2)
        else:
            move = None

    lines: list[Line] = [(*fire, 2)]
    canvas.keep_clear_of_line(*fire, path=True)
    if move is not None:
        canvas.keep_clear_of_line(*move, path=True)
        lines.append((*move, 7))
    for outline in (template, placed):
        if outline is not None:
            ring = [*outline, outline[0]]
            for a, b in zip(ring[::4], ring[4::4]):
                canvas.keep_clear_of_line(a, b)
    keep_clear_of_hits(canvas, hit_bases)
    keep_notes_off_unit(canvas, f, vp)
    canvas.keep_clear(grow(bar, 2), crossing=BAR_CROSSING)
    canvas.keep_clear(grow(machine, 2))
    names_clear_of(canvas, unit_names(f, vp, bar, lines, size=name_size(canvas.image.width), aimed=shot.aimed_model))
    within = grow(vp.box, -4)
    notes: list[Label] = []
    if move is not None:
        mid = ((move[0][0] + move[1][0]) / 2 + 8, (move[0][1] + move[1][1]) / 2)
        notes.append(canvas.place(mid, [f"artillery {shot.artillery.value}:", f"{length_text(shot.moved, shot.unit)} forward"],
                                  size=LABEL, within=within))
    elif not shot.fired:
        tip = vp.px(0.0, shot.start + shot.length)
        notes.append(canvas.place(tip, ["template placed", "not fired"], size=LABEL, within=within))
    name_unit(canvas, f, vp, bar, lines, notes, aimed=shot.aimed_model)
    if template is not None:
        _tint_polygon(canvas, template, within=vp.box)
    finish_panel(canvas, vp, notes)
    return template, placed, move, hit_bases


def _draw_strip(canvas: Canvas, shot: FireThrowerShot, layout: PictureLayout, *, inset: bool) -> Viewport | None:
    """Under the target area: the scale bar, and a note that the whole shot is drawn at true
    scale (the barrel is in the target area: a fire thrower's flame never reaches far), so no
    stretch is shortened and no small picture of the whole shot is needed."""
    panel, strip = layout.panel, layout.frame.strip
    canvas.scale_bar((strip[0] + 4, strip[1] + 12), panel, shot.unit, longest=160)
    canvas.text((strip[0] + 4, strip[1] + 44), f"The whole shot at true scale: the {shot.weapon.name.lower()}'s barrel at "
                f"the bottom, the target {length_text(shot.distance, shot.unit)} from it.", size=legible(canvas.image.width), fill=INK_SOFT, anchor="lt")
    return None


def _machine_swatch(canvas: Canvas, box: Box) -> None:
    x, y = middle(box)
    canvas.draw.rectangle((x - 8, y - 1, x + 8, y + 2), fill=INK_SOFT, outline=INK)
    canvas.draw.rectangle((x - 2, y - 7, x + 2, y + 2), fill=INK)
    canvas.draw.ellipse((x - 5, y, x + 5, y + 7), fill=INK_SOFT, outline=INK)


def _legend(shot: FireThrowerShot, grid: int) -> tuple[LegendItem, ...]:
    def template(c: Canvas, b: Box) -> None:
        x, y = middle(b)
        c.draw.rectangle(b, fill=TABLE)
        poly = [(x + (p.y - 4) * 3, y + p.x * 3) for p in teardrop(Point(0, 0), 8, 0.5, 1.5)]
        c.draw.polygon(poly, fill=TINTS[TABLE])
        c.line([*poly, poly[0]], fill=INK, width=2)

    def dashed(c: Canvas, b: Box) -> None:
        x, y = middle(b)
        poly = [(x + (p.y - 4) * 3, y + p.x * 3) for p in teardrop(Point(0, 0), 8, 0.5, 1.5)]
        _dashed_outline(c, poly, fill=MUTED, dash=4, gap=3)

    items = [fire_line_item("barrel to target")]
    items.append(LegendItem("the fire thrower, barrel up", lambda c, b: _machine_swatch(c, b)))
    size = f"{length_text(shot.length, shot.unit)} x {length_text(2 * shot.wide_radius, shot.unit)}"
    if shot.fired:
        items.append(LegendItem(f"flame template ({size})", template))
        items.append(LegendItem("where it was placed", dashed))
        items.append(LegendItem("artillery die: straight forward", lambda c, b: c.arrow(*across(b), fill=SCATTER, width=3, head=9)))
    else:
        items.append(LegendItem(f"template ({size}), not fired", dashed))
    if shot.hits:
        items.append(base_item(f"under the template: S{shot.weapon.strength}, flaming", BaseStyle.HATCHED))
    if any(is_slain(h) for h in shot.hits):
        items.append(base_item("slain", BaseStyle.PLAIN, slain=True))
    items.append(front_item())
    items.append(grid_item(grid, shot.unit))
    return tuple(items)
