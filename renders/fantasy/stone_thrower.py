"""The picture of a stone thrower shot (Warhammer Fantasy, War Machines: Stone Throwers, Firing
Indirectly).

:func:`render_stone_thrower` draws a :class:`~engine.fantasy.stone_thrower.StoneShot` as the
engine recorded it, for players to repeat on the table. It is laid out as the cannon's picture is
(renders/fantasy/units.py):

* the title bar: weapon, distance to the target (and "indirect"), what happened; the target,
  the shot's dice, the crew's Ballistic Skill for an indirect shot;
* on a misfire, a banner with the Stone Thrower Misfire Chart, its D6 and the row (nothing was
  fired);
* the target area at true scale on a grid of 1" squares (2", 5" or 10" when inches are too close
  together; the key says which): the bases (ranks R1.. and files F1.. in the unit's own
  numbering), a bar along the unit's front, the line of fire to where the template was placed;
  the small round template at its true size where it came down, a tinted circle (the table
  and the plain bases under it take a yellow tint, the hits keep their colours) with its centre
  hole, as wide as the hole is; where it was first placed, a faint dashed circle, and the scatter
  arrow from there to where it came down, with its distance and clock direction (for an
  indirect shot, the hit symbol's small arrow and "artillery N - BS B = D\"");
* below it the stretch from the crossbar to the target area, shortened behind a break symbol and
  labelled with the true distance, the stone thrower, the scale bar and the whole shot to scale;
* under it the models hit, a line for each rank (as the machine sees the ranks), in the order
  of the ranks on the picture: the model under the centre hole (higher Strength, Multiple Wounds) on its
  own line, and the template's hits in that rank grouped ("R2 F1-F5: S4"), with what the wound
  rolls did when the target's profile was given; and a key with only what the picture shows.

The model under the centre hole is a dark solid base, the template's hits light hatched ones, a
slain model crossed out; when the hole lay over several models, the ones it was chosen among
are outlined together with a dashed line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.fantasy.formation import Facing
from engine.fantasy.stone_thrower import StoneShot, TemplateHit, TemplateHitKind
from engine.geometry import Point, clock_face
from renders.canvas import (
    BASE, BASE_EDGE, GRID, INK, INK_SOFT, MUTED, SCATTER, TABLE, TEMPLATE, WHITE, Box, Canvas, Label, LegendItem,
    Viewport, XY, clip_segment, distance_to_segment, grow, length_text, mix, wrap,
)
from renders.fantasy.units import (
    rules_heading,
    chart_face, chart_title, wound_outcome,
    BAR_CROSSING, HIT_CROSSING, LABEL, UNIT_COVER, BaseStyle, Callout, CalloutLine, Frame, Line,
    PictureLayout, Ring, across, base_item, below_heading, callouts_per_hit, check_width, column_foot,
    draw_base_edge, draw_column, draw_inset_frame, draw_inset_machine, draw_stretch, draw_unit, finish_panel,
    fire_line_item, frame, front_item, grid_item, grid_step, is_slain, keep_clear_of_hits, keep_notes_off_unit,
    middle, misfire_banner, name_size, name_unit, names_clear_of, panel_top, render_png, rows_of, start_picture, target_text,
    unit_names, who, wound_text,
)

TINT = 0.4
"""How strongly the template tints what lies under it."""
TINTS: dict[tuple[int, int, int], tuple[int, int, int]] = {
    colour: mix(colour, TEMPLATE, TINT) for colour in (TABLE, GRID, BASE, BASE_EDGE)
}
"""The ground under the template and the tint it takes: the table, its grid, the plain bases
and their edges. Hits, lines and text keep their colours."""

_HOLE_MIN = 4.0
"""The centre hole is drawn at its true width, but never less than this radius in pixels."""
_SCATTER_EDGE = 2
"""Width of the white casing round the scatter arrow."""
_RING_SEGMENTS = 32
"""Straight pieces a circle is cut into for the notes to keep clear of it."""


@dataclass(frozen=True, slots=True)
class _Drawing:
    """A picture drawn, with where its parts went (for the tests)."""

    canvas: Canvas
    layout: PictureLayout
    template: tuple[XY, float] | None
    """The template where it came down: its centre and radius in pixels; None when not fired."""
    placed: tuple[XY, float] | None
    """The dashed circle where it was placed, when drawn (it moved, or was not fired)."""
    hole: float
    """The centre hole's radius as drawn, in pixels."""
    fire: tuple[XY, XY]
    """The line of fire, from the bottom edge to where the template was placed."""
    scatter: tuple[XY, XY] | None
    """The scatter arrow, tail to the point of its head; None when the template did not move."""
    names: tuple[Box, ...]
    """Pixel boxes of the ranks' and files' names written round the unit."""
    hit_bases: tuple[tuple[TemplateHit, Box], ...]
    """Each model hit and its base's pixel box."""
    choice: Box | None
    """The dashed outline round the models the centre hole lay over, when it lay over several."""
    inset: Viewport | None


def render_stone_thrower(
    shot: StoneShot, *, width: int = 900, max_panel_height: int = 720, inset: bool = True,
) -> bytes:
    """The picture of `shot` as PNG bytes (:func:`renders.fantasy.units.render_png`)."""
    return render_png(_draw, shot, width=width, max_panel_height=max_panel_height, inset=inset)


def _draw(shot: StoneShot, *, width: int, max_panel_height: int, inset: bool) -> _Drawing:
    """The picture of `shot`, drawn, with where its parts went."""
    check_width(width, "stone thrower")
    layout = _layout(shot, width, max_panel_height)
    canvas = start_picture(layout, _title(shot), _subtitle(shot), extra=tuple(TINTS.values()))
    drawing = _draw_panel(canvas, shot, layout)
    whole = _draw_strip(canvas, shot, layout, inset=inset)
    draw_column(canvas, layout, empty=_empty(shot))
    return _Drawing(canvas, layout, *drawing, whole)


# Words.


def _moved(shot: StoneShot) -> bool:
    """Whether the template came down anywhere but where it was placed."""
    return shot.fired and shot.scatter_distance > 0


def _centre_hit(shot: StoneShot) -> TemplateHit | None:
    return next((h for h in shot.hits if h.kind is TemplateHitKind.CENTRE), None)


def _dice(shot: StoneShot) -> str:
    faces = [f"scatter {shot.scatter.face}", f"artillery {shot.artillery.face}"]
    if shot.misfire is not None:
        faces.append(f"misfire chart {chart_face(shot.misfire)}")
    picks = shot.centre_pick
    if picks:
        faces.append(f"centre hole pick {', '.join(d.face for d in picks)}")
    return "dice: " + ", ".join(faces)


def _title(shot: StoneShot) -> str:
    start = f"{shot.weapon.name} · {length_text(shot.distance, shot.unit)} to the target"
    if shot.indirect:
        start += " (indirect)"
    if shot.misfire is not None:
        return f"{start} · MISFIRE: {chart_title(shot.misfire)}"
    moved = length_text(shot.scatter_distance, shot.unit)
    if not _moved(shot):
        scatter = "HIT"
    elif shot.scatter.is_hit:
        scatter = f"HIT, scattered {moved} by the small arrow"
    else:
        scatter = f"scattered {moved}"
    n = len(shot.hits)
    hits = "no models hit" if n == 0 else f"{n} model{'s' * (n != 1)} hit"
    return f"{start} · {scatter} · {hits}"


def _subtitle(shot: StoneShot) -> str:
    text = f"{target_text(shot.target, 'stone thrower')} · {_dice(shot)}"
    if shot.indirect:
        text += f" · crew BS {shot.ballistic_skill}"
    return text


def _heading(shot: StoneShot, width: float) -> tuple[tuple[str, int], ...]:
    if not shot.hits:
        return (("Models hit", 20),)
    return ((f"Models hit ({len(shot.hits)})", 20), *rules_heading(shot.target_rules, shot.immunity, width))


def _empty(shot: StoneShot) -> str | None:
    """What the list of models hit says when there are none."""
    if not shot.fired:
        return "none: nothing was fired"
    if not shot.hits:
        return "none: the template missed the unit"
    return None


def _scatter_lines(shot: StoneShot) -> list[str]:
    """How the template moved, for the note by it."""
    unit = shot.unit
    if not shot.scatter.is_hit:
        direction = shot.scatter_direction
        return [f"scatter {length_text(shot.scatter_distance, unit)} toward {clock_face(direction)} ({direction}°)"]
    if not shot.indirect:
        return ["HIT: on target"]
    arrow = shot.scatter.direction
    sum_ = f"artillery {shot.artillery.value} - BS {shot.ballistic_skill}"
    if not _moved(shot):
        return ["indirect HIT: on target", f"{sum_}: no scatter"]
    return [
        f"indirect HIT: small arrow to {clock_face(arrow)} ({arrow}°)",
        f"{sum_} = {length_text(shot.scatter_distance, unit)}",
    ]



def _runs(cols: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted column numbers as runs of neighbours: (first, last) each."""
    runs: list[tuple[int, int]] = []
    for c in sorted(cols):
        if runs and c == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], c)
        else:
            runs.append((c, c))
    return runs


def _span(first: int, last: int, letter: str) -> str:
    return f"{letter}{first}" if first == last else f"{letter}{min(first, last)}-{letter}{max(first, last)}"


def _row_spec(shot: StoneShot, row: int, cols: Sequence[int]) -> str:
    """The models at `cols` of one row, in the unit's numbering, each run of neighbours in full:
    "R2 F1-F5", "R1 F1-F2, R1 F4-F5"; from the flank, "R1-R3 F2"."""
    f = shot.formation
    parts = []
    for a, b in _runs(cols):
        (ra, fa), (rb, fb) = f.rank_file(row, a), f.rank_file(row, b)
        parts.append(f"{_span(ra, rb, 'R')} {_span(fa, fb, 'F')}")
    return ", ".join(parts)


def _col_names(shot: StoneShot, row: int, cols: Sequence[int]) -> str:
    """The models at `cols` of one row by the name that tells them apart within it: files seen
    from the front or rear ("F1-F2, F4"), ranks from the flank."""
    f = shot.formation
    letter = "R" if shot.target.facing is Facing.FLANK else "F"
    index = 0 if letter == "R" else 1
    return ", ".join(_span(f.rank_file(row, a)[index], f.rank_file(row, b)[index], letter) for a, b in _runs(cols))


def _centre_lines(shot: StoneShot, hit: TemplateHit, width: float) -> list[CalloutLine]:
    """The model under the centre hole: its Strength and wounds, and when the hole lay over
    several models, which they were and the pick."""
    if hit.wound is None:
        result = f"S{hit.strength}, {hit.wounds_die.value} wounds" if hit.wounds_die else f"S{hit.strength}"
    else:
        result = f"S{hit.strength}, {wound_text(hit.wound, shot.target.profile.wounds > 1)}"
    headline = f"{who(hit.rank, hit.file)} centre hole: {result}"
    lines = [CalloutLine(line, LABEL + 1) for line in wrap(headline, size=LABEL + 1, width=width)]
    slain = hit.wound is not None and hit.wound.slain
    lines[0] = CalloutLine(lines[0].text, lines[0].size, BaseStyle.SOLID, slain)
    if shot.centre_choice:
        names = [who(*rank_file) for rank_file in shot.centre_choice]
        over = ", ".join(names[:-1]) + " and " + names[-1]
        picks = ", ".join(d.face for d in shot.centre_pick)
        note = f"the hole lay over {over}: picked by a D6, rolled {picks}" if picks else f"the hole lay over {over}"
        lines += [CalloutLine(line, LABEL - 1) for line in wrap(note, size=LABEL - 1, width=width)]
    return lines


def _template_lines(shot: StoneShot, row: int, cells: Sequence[tuple[int, TemplateHit]], width: float) -> list[CalloutLine]:
    """The template's hits in one row: who, at what Strength; with a profile, what the wound
    rolls did, the models grouped by outcome."""
    strengths = sorted({h.strength for _, h in cells})
    headline = f"{_row_spec(shot, row, [c for c, _ in cells])}: " + ", ".join(f"S{s}" for s in strengths)
    lines = [CalloutLine(line, LABEL + 1) for line in wrap(headline, size=LABEL + 1, width=width)]
    lines[0] = CalloutLine(lines[0].text, lines[0].size, BaseStyle.HATCHED)
    outcomes: dict[str, list[int]] = {}
    for col, hit in cells:
        if hit.wound is not None:
            outcomes.setdefault(wound_outcome(hit.wound, shot.target.profile.wounds > 1), []).append(col)
    if outcomes:
        note = "; ".join(f"{_col_names(shot, row, cols)} {what}" for what, cols in outcomes.items())
        lines += [CalloutLine(line, LABEL - 1) for line in wrap(note, size=LABEL - 1, width=width)]
    return lines


# Layout.


def _touched(shot: StoneShot) -> list[Point]:
    """Every point the picture must show: the template's edges where it was placed and where it
    came down."""
    r = shot.radius
    points = []
    for c in (shot.aim, shot.centre):
        if c is not None:
            points += [Point(c.x - r, c.y - r), Point(c.x + r, c.y + r)]
    return points


def _layout(shot: StoneShot, width: int, max_panel_height: int) -> PictureLayout:
    banner = misfire_banner(shot.misfire, "stone thrower", width)
    fr = frame(shot.formation, _touched(shot), width=width, top=panel_top(banner), max_panel_height=max_panel_height)
    heading = _heading(shot, fr.column[2] - fr.column[0])
    below = below_heading(fr.column[1], heading)
    entries = _callouts(shot, fr, below)
    grid = grid_step(fr.panel)
    legend = _legend(shot, fr.panel, grid)
    top, height = column_foot(fr, entries, below, legend)
    return PictureLayout(
        width=width, height=height, banner=banner, frame=fr, heading=heading, callouts=entries, legend=legend,
        legend_top=top, grid=grid,
    )


def _callouts(shot: StoneShot, fr: Frame, top: float) -> tuple[Callout, ...]:
    """The list of models hit: an entry for each row the template touched, in the order of the
    rows on the picture; in it the centre hole's model, then the template's hits."""
    return callouts_per_hit(shot.formation, shot.hits, fr, top, lambda run, room: _row_lines(shot, run, room),
                            runs=rows_of(shot.formation, shot.hits))


def _row_lines(shot: StoneShot, run: Sequence[int], room: float) -> tuple[CalloutLine, ...]:
    """The entry for the models hit in one row (`run`, left to right)."""
    f = shot.formation
    row = f.cell_of(shot.hits[run[0]].rank, shot.hits[run[0]].file)[0]
    cells = [(f.cell_of(shot.hits[i].rank, shot.hits[i].file)[1], shot.hits[i]) for i in run]
    lines: list[CalloutLine] = []
    for _, hit in cells:
        if hit.kind is TemplateHitKind.CENTRE:
            lines += _centre_lines(shot, hit, room)
    template = [(col, hit) for col, hit in cells if hit.kind is TemplateHitKind.TEMPLATE]
    if template:
        lines += _template_lines(shot, row, template, room)
    return tuple(lines)


# Marks.


def _style(hit: TemplateHit | None) -> BaseStyle:
    if hit is None:
        return BaseStyle.PLAIN
    return BaseStyle.SOLID if hit.kind is TemplateHitKind.CENTRE else BaseStyle.HATCHED


def _hole(canvas: Canvas, xy: XY, r: float) -> None:
    """The template's centre hole: a white hole `r` pixels round in a dark ring, a dot in its
    middle."""
    x, y = xy
    canvas.draw.ellipse((x - r - 1, y - r - 1, x + r + 1, y + r + 1), fill=INK)
    canvas.draw.ellipse((x - r + 1, y - r + 1, x + r - 1, y + r - 1), fill=WHITE)
    canvas.draw.ellipse((x - 1, y - 1, x + 1, y + 1), fill=INK)


def _template(canvas: Canvas, xy: XY, r: float) -> None:
    """The template's edge: dark, on a white casing, so that it shows over a block of hits."""
    x, y = xy
    canvas.draw.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), outline=WHITE, width=4)
    canvas.draw.ellipse((x - r - 1, y - r - 1, x + r + 1, y + r + 1), outline=INK, width=2)


def _ring_segments(xy: XY, r: float) -> list[tuple[XY, XY]]:
    """A circle as straight pieces, for the notes to keep clear of."""
    x, y = xy
    points = [
        (x + r * math.cos(2 * math.pi * i / _RING_SEGMENTS), y + r * math.sin(2 * math.pi * i / _RING_SEGMENTS))
        for i in range(_RING_SEGMENTS + 1)
    ]
    return list(zip(points, points[1:]))


def _on_ring(xy: XY, r: float, toward: XY, *, clear_of: Box | None = None,
             lines: Sequence[tuple[XY, XY]] = (), within: Box | None = None) -> XY:
    """The point of the circle round `xy` in the direction of the vector `toward`; or, when that
    point lies in `clear_of` (the unit), on or by one of `lines` or outside `within`, the nearest
    point round the circle that does not (in steps of 15 degrees), so that a note's leader
    starts on the circle alone."""
    start = math.atan2(toward[1], toward[0]) if any(toward) else math.pi / 2
    for step in range(25):
        turn = math.radians(15 * ((step + 1) // 2) * (1 if step % 2 else -1))
        p = xy[0] + r * math.cos(start + turn), xy[1] + r * math.sin(start + turn)
        if clear_of is not None and clear_of[0] <= p[0] <= clear_of[2] and clear_of[1] <= p[1] <= clear_of[3]:
            continue
        if within is not None and not (within[0] + 8 <= p[0] <= within[2] - 8 and within[1] + 8 <= p[1] <= within[3] - 8):
            continue
        if any(distance_to_segment(p, a, b) <= 8 for a, b in lines):
            continue
        return p
    n = math.hypot(*toward) or 1.0
    return xy[0] + toward[0] / n * r, xy[1] + toward[1] / n * r


def _stone_thrower(canvas: Canvas, crossbar: XY) -> Box:
    """A stone thrower seen from above, its throwing arm drawn back, the crossbar the distance
    is measured from at `crossbar`. Returns its box."""
    x, y = crossbar
    for side in (-1, 1):
        canvas.draw.rectangle((x + side * 15 - 3, y + 2, x + side * 15 + 3, y + 58), fill=INK_SOFT, outline=INK)
    canvas.draw.rectangle((x - 18, y + 52, x + 18, y + 58), fill=INK_SOFT, outline=INK)
    canvas.draw.rectangle((x - 12, y + 24, x + 12, y + 28), fill=INK)
    canvas.draw.rectangle((x - 3, y + 6, x + 3, y + 46), fill=INK_SOFT, outline=INK)
    canvas.draw.ellipse((x - 7, y + 38, x + 7, y + 52), fill=INK_SOFT, outline=INK)
    canvas.draw.rectangle((x - 21, y, x + 21, y + 5), fill=INK)
    return x - 21, y, x + 21, y + 58


# The target area.


def _scatter_arrow(
    shot: StoneShot, aim: XY, centre: XY, hole: float, centre_base: Box | None, fire: tuple[XY, XY],
) -> tuple[XY, XY] | None:
    """The scatter arrow from where the template was placed to where it came down. Its head
    stops at the edge of the centre hole's model when it comes in from outside it (so the base
    stays in sight), else short of the hole; an arrow back down the line of fire is set aside
    from it, parallel, so it is seen."""
    length = math.dist(aim, centre)
    if not _moved(shot) or length < 4:
        return None
    ux, uy = (centre[0] - aim[0]) / length, (centre[1] - aim[1]) / length
    stop = hole + 3
    if centre_base is not None:
        inside = clip_segment(aim, centre, grow(centre_base, 2))
        if inside is not None and inside[0] != aim:
            stop = max(stop, math.dist(inside[0], centre))
    stop = min(stop, max(length - 10, 0.0))
    tip = (centre[0] - ux * stop, centre[1] - uy * stop)
    samples = [(aim[0] + (tip[0] - aim[0]) * k, aim[1] + (tip[1] - aim[1]) * k) for k in (0.25, 0.5, 0.75)]
    if sum(distance_to_segment(p, *fire) <= 6 for p in samples) >= 2:
        off = 3 / 2 + _SCATTER_EDGE + 6
        aim, tip = (aim[0] + off, aim[1]), (tip[0] + off, tip[1])
    return aim, tip


def _draw_panel(canvas: Canvas, shot: StoneShot, layout: PictureLayout) -> tuple:
    """The target area in layers: table and grid, bases and the unit's front; the line of fire,
    the template's edge where it came down and the dashed circle where it was placed, the
    outline round the models the centre hole lay over, the scatter arrow, the centre hole; the
    notes' leaders and the names of ranks and files; then the template's tint over the ground
    under it, and the notes. Returns the fields of :class:`_Drawing` from `template` to
    `choice`, in order."""
    vp, f = layout.panel, shot.formation
    hit_bases, bar = draw_unit(canvas, vp, f, shot.hits, _style, layout.grid)

    aim = vp.at(shot.aim)
    r = vp.span(shot.radius)
    hole = max(vp.span(shot.weapon.template.hole / 2), _HOLE_MIN)
    fire = (vp.px(0.0, vp.y0), aim)
    canvas.line(fire, fill=INK, width=2)
    template = (vp.at(shot.centre), r) if shot.fired else None
    placed = (aim, r) if not shot.fired or _moved(shot) else None
    if placed is not None:
        canvas.dashed_circle(aim, r, fill=MUTED if shot.fired else INK_SOFT, width=2, dash=9, gap=6)
    if template is not None:
        _template(canvas, *template)
    choice = None
    if shot.centre_choice:
        cells = [f.cell_of(*rank_file) for rank_file in shot.centre_choice]
        boxes = [vp.rect(*f.base_rect(*cell)) for cell in cells]
        choice = grow((min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                       max(b[3] for b in boxes)), 4)
        canvas.dashed_rect(choice, fill=INK, width=2, dash=6, gap=4)
    centre_base = next((box for hit, box in hit_bases if hit.kind is TemplateHitKind.CENTRE), None)
    scatter = None
    if template is not None:
        scatter = _scatter_arrow(shot, aim, template[0], hole, centre_base, fire)
        for hit, box in hit_bases:  # the hits' edges again over the line of fire
            draw_base_edge(canvas, box, _style(hit))
        if scatter is not None:
            canvas.arrow(*scatter, fill=SCATTER, width=3, head=12, casing=WHITE, edge=_SCATTER_EDGE)
        _hole(canvas, template[0], hole)

    # What the notes keep clear of: the line of fire and the scatter arrow (no leader runs along
    # them), the circles, the centre hole, the hit bases (no leader crosses them if it can help
    # it), the front bar, the names; they would rather not
    # cover the unit's plain bases nor the template either.
    lines: list[Line] = [(*fire, 2)]
    canvas.keep_clear_of_line(*fire, path=True)
    if scatter is not None:
        canvas.keep_clear_of_line(*scatter, path=True)
        lines.append((*scatter, 3 + 2 * _SCATTER_EDGE))
    rings: list[Ring] = []
    for circle in (template, placed):
        if circle is not None:
            rings.append((circle[0], circle[1], 2))
            for a, b in _ring_segments(*circle):
                canvas.keep_clear_of_line(a, b)
    if template is not None:
        c = template[0]
        canvas.keep_clear(grow((c[0], c[1], c[0], c[1]), hole + 4))
    keep_clear_of_hits(canvas, hit_bases)
    if choice is not None:
        canvas.keep_clear(choice, crossing=HIT_CROSSING)
    keep_notes_off_unit(canvas, f, vp)
    if template is not None:
        canvas.rather_not_cover(grow((*template[0], *template[0]), r), cost=UNIT_COVER)
    canvas.keep_clear(grow(bar, 2), crossing=BAR_CROSSING)
    names_clear_of(canvas, unit_names(f, vp, bar, lines, rings=rings, size=name_size(canvas.image.width),
                                      aimed=shot.aimed_model))

    avoid = [fire, *([scatter] if scatter else [])]
    unit_box = grow(vp.rect(f.left, f.near, f.right, f.far), 8)
    notes = _place_notes(canvas, shot, vp, template, placed, unit_box, avoid)
    names = name_unit(canvas, f, vp, bar, lines, notes, rings=rings, aimed=shot.aimed_model)
    if template is not None:
        canvas.tint_circle(template[0], r, TINTS, within=vp.box)
    finish_panel(canvas, vp, notes)
    return template, placed, hole, fire, scatter, names, hit_bases, choice


def _away(shot: StoneShot, vp: Viewport, xy: XY) -> XY:
    """The direction, in pixels, from the unit's middle out through `xy` (straight toward the
    firer when `xy` is in the middle)."""
    f = shot.formation
    mid = vp.at(Point((f.left + f.right) / 2, (f.near + f.far) / 2))
    dx, dy = xy[0] - mid[0], xy[1] - mid[1]
    return (dx, dy) if math.hypot(dx, dy) > 4 else (0.0, 1.0)


def _place_notes(
    canvas: Canvas, shot: StoneShot, vp: Viewport, template: tuple[XY, float] | None, placed: tuple[XY, float] | None,
    unit: Box, avoid: Sequence[tuple[XY, XY]],
) -> list[Label]:
    """The notes on the target area, each by the edge of the circle it is about (off the `unit`
    and the lines to `avoid` where the circle allows): how the template moved and what lies
    under its centre hole, by where it came down, on the side it moved to; where it was placed,
    by the dashed circle, on the side it moved from."""
    within = grow(vp.box, -4)
    aimed = who(*shot.aimed_model)

    def edge(circle: tuple[XY, float], toward: XY) -> XY:
        return _on_ring(*circle, toward, clear_of=unit, lines=avoid, within=within)

    if template is None:
        anchor = edge(placed, _away(shot, vp, placed[0]))
        return [canvas.place(anchor, [f"template placed over {aimed}", "not fired"], size=LABEL, within=within)]
    centre = template[0]
    centre_hit = _centre_hit(shot)
    lines = _scatter_lines(shot)
    lines.append(f"centre hole over {who(centre_hit.rank, centre_hit.file)}" if centre_hit else "centre hole over no model")
    if placed is not None:
        out = (centre[0] - placed[0][0], centre[1] - placed[0][1])
        notes = [canvas.place(edge(template, out), lines, size=LABEL, within=within)]
        back = edge(placed, (-out[0], -out[1]))
        notes.append(canvas.place(back, [f"placed over {aimed}"], size=LABEL, within=within, fill=INK_SOFT))
        return notes
    return [canvas.place(edge(template, _away(shot, vp, centre)), lines, size=LABEL, within=within)]


# The shortened stretch, the stone thrower, the whole shot.


def _draw_strip(canvas: Canvas, shot: StoneShot, layout: PictureLayout, *, inset: bool) -> Viewport | None:
    name = shot.weapon.name if shot.fired else f"{shot.weapon.name}: misfired"
    box = draw_stretch(
        canvas, layout.frame, distance=f"crossbar to target {length_text(shot.distance, shot.unit)}", name=name,
        machine=_stone_thrower, unit=shot.unit, inset=inset,
    )
    return _draw_inset(canvas, shot, layout, box) if box is not None else None


def _draw_inset(canvas: Canvas, shot: StoneShot, layout: PictureLayout, box: Box) -> Viewport:
    """The whole shot at true scale in `box`: the stone thrower, the unit, (dashed) the stretch
    the target area shows, the line of fire to where the template was placed (thin and grey),
    and the template where it came down (or, not fired, where it was placed)."""
    vp = draw_inset_frame(canvas, box, layout.panel, shot.formation, _touched(shot))
    origin, aim = vp.px(0.0, 0.0), vp.at(shot.aim)
    canvas.line([origin, aim], fill=MUTED)
    r = max(vp.span(shot.radius), 2.0)
    if shot.fired:
        x, y = vp.at(shot.centre)
        canvas.draw.ellipse((x - r, y - r, x + r, y + r), fill=TINTS[TABLE], outline=INK)
    else:
        x, y = aim
        canvas.draw.ellipse((x - r, y - r, x + r, y + r), outline=INK_SOFT)
    draw_inset_machine(canvas, vp)
    return vp


# The key.


def _legend(shot: StoneShot, vp: Viewport, grid: int) -> tuple[LegendItem, ...]:
    """The key: only the marks this picture shows, and the grid's squares."""

    def template(c: Canvas, b: Box) -> None:
        x, y = middle(b)
        c.draw.rectangle(b, fill=TABLE)
        c.draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=TINTS[TABLE])
        _template(c, (x, y), 8)

    def dashed(ink: tuple[int, int, int]):
        return lambda c, b: c.dashed_circle(middle(b), 8, fill=ink, width=2, dash=5, gap=3)

    def outline(c: Canvas, b: Box) -> None:
        c.dashed_rect(grow(b, -1), fill=INK, width=2, dash=5, gap=3)

    items = [fire_line_item("crossbar to target")]
    if shot.fired:
        diameter = length_text(2 * shot.radius, shot.unit)
        items.append(LegendItem(f"the template ({diameter} across)", template))
        items.append(LegendItem("its centre hole", lambda c, b: _hole(c, middle(b), _HOLE_MIN)))
        if _moved(shot):
            items.append(LegendItem("where it was placed", dashed(MUTED)))
            what = "scatter (the hit's small arrow)" if shot.scatter.is_hit else "scatter"
            items.append(LegendItem(what, lambda c, b: c.arrow(*across(b), fill=SCATTER, width=3, head=9)))
    else:
        items.append(LegendItem("template placed, not fired", dashed(INK_SOFT)))
    centre = _centre_hit(shot)
    if centre is not None:
        wounds = f", {centre.wounds_die.value} wounds" if centre.wounds_die else ""
        items.append(base_item(f"under the hole: S{centre.strength}{wounds}", BaseStyle.SOLID))
    strengths = sorted({h.strength for h in shot.hits if h.kind is TemplateHitKind.TEMPLATE})
    if strengths:
        items.append(base_item(f"under the template: {', '.join(f'S{s}' for s in strengths)}", BaseStyle.HATCHED))
    if shot.centre_choice:
        items.append(LegendItem("the hole lay over these", outline))
    if any(is_slain(h) for h in shot.hits):
        items.append(base_item("slain", BaseStyle.PLAIN, slain=True))
    items.append(front_item())
    items.append(grid_item(grid, shot.unit))
    return tuple(items)
