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
* under the strip the models hit (direct or bounce, with their wounds; counted as the title
  counts them, hits that need a monster to die apart; a run of bounce hits alike on one line)
  and a compact key.

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

The layout, the target area's table, bases and names, the strip and the column are shared with
the stone thrower's picture (renders/fantasy/units.py); what is drawn here is the cannon's own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.fantasy.cannon import CannonHit, CannonShot, HitKind
from engine.fantasy.wounding import wounds_a_hit
from engine.geometry import Point, clock_face
from renders.canvas import (
    INK, INK_SOFT, MUTED, SCATTER, WHITE, RGB, Box, Canvas, Label, LegendItem, Swatch, Viewport, XY, clip_segment,
    distance_to_segment, grow, length_text, wrap,
)
from renders.fantasy.units import (
    rules_heading,
    chart_face, chart_title,
    BAR_CROSSING, LABEL, BaseStyle, CalloutLine, Line, PictureLayout, across, base_item, callouts_per_hit,
    below_heading, check_width, column_foot, draw_base_edge, draw_column, draw_inset_frame,
    draw_inset_machine, draw_stretch, draw_unit, finish_panel, fire_line_item, frame, front_item, grid_item, grid_step,
    holds, is_slain, keep_clear_of_hits, keep_notes_off_unit, middle, misfire_banner, name_size, name_unit, names_clear_of,
    panel_top, render_png, start_picture, target_text, unit_names, who, wound_text,
)

_BALL = 6
_AIM = 9
_LABEL = LABEL


class _Style:
    """How a cannon's hits are drawn: the direct hit solid and dark, the bounce light and
    hatched, a hit that counts only if a monster dies hatched on white with a dashed edge."""

    PLAIN = BaseStyle.PLAIN
    DIRECT = BaseStyle.SOLID
    BOUNCE = BaseStyle.HATCHED
    CONDITIONAL = BaseStyle.CONDITIONAL


@dataclass(frozen=True, slots=True, kw_only=True)
class _Layout(PictureLayout):
    """Where everything goes on the picture."""

    marks: _Marks
    """How big the shot's marks are drawn on the target area."""


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


def render_cannon(shot: CannonShot, *, width: int = 900, max_panel_height: int = 720, inset: bool = True) -> bytes:
    """The picture of `shot` as PNG bytes (:func:`renders.fantasy.units.render_png`)."""
    return render_png(_draw, shot, width=width, max_panel_height=max_panel_height, inset=inset)


def _draw(shot: CannonShot, *, width: int, max_panel_height: int, inset: bool) -> _Drawing:
    """The picture of `shot`, drawn, with where its parts went."""
    check_width(width, "cannon")
    layout = _layout(shot, width, max_panel_height)
    canvas = start_picture(layout, _title(shot), _subtitle(shot))
    lines, names, hit_bases = _draw_panel(canvas, shot, layout)
    whole = _draw_strip(canvas, shot, layout, inset=inset)
    draw_column(canvas, layout, empty=_empty(shot))
    return _Drawing(canvas, layout, lines, names, hit_bases, whole)


# Words.


def _dice(shot: CannonShot) -> str:
    faces = [f"scatter {shot.scatter.face}", f"artillery {shot.artillery.face}"]
    if shot.misfire is not None:
        faces.append(f"misfire chart {chart_face(shot.misfire)}")
    else:
        faces.append(f"bounce {shot.bounce.face}")
    return "dice: " + ", ".join(faces)


def _title(shot: CannonShot) -> str:
    start = f"{shot.weapon.name} · {length_text(shot.distance, shot.unit)} to the marker"
    if shot.misfire is not None:
        return f"{start} · MISFIRE: {chart_title(shot.misfire)}"
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
    if not shot.hits:
        return (("Models hit", 20),)
    n, maybe = _counts(shot)
    rules = rules_heading(shot.target_rules, shot.immunity, width)
    if not maybe:
        return ((f"Models hit ({n})", 20), *rules)
    monsters = "monster dies" if maybe == 1 else "monsters die"
    text = f"Models hit ({n}, +{maybe} only if the {monsters})"
    return (*((line, 20) for line in wrap(text, size=20, width=width)), *rules)


def _subtitle(shot: CannonShot) -> str:
    return f"{target_text(shot.target, 'cannon')} · {_dice(shot)}"


def _callout_lines(shot: CannonShot, index: int, width: float) -> tuple[CalloutLine, ...]:
    """What happened to the model hit `index`-th, wrapped to `width` pixels: after its swatch."""
    hit = shot.hits[index]
    kind = "direct hit" if hit.kind is HitKind.DIRECT else "bounce"
    # On a multi-Wound unit the hits' wounds pool (000:81, 000:122); a monster's line keeps
    # "survives", which is what stops the ball (000:84).
    pooled = shot.target.profile is not None and shot.target.profile.wounds > 1 and not shot.target.troop.monstrous
    result = wounds_a_hit(hit.wounds_die) if hit.wound is None else wound_text(hit.wound, pooled)
    headline = f"{who(hit.rank, hit.file)} {kind}: {result}"
    lines = [CalloutLine(line, _LABEL + 1) for line in wrap(headline, size=_LABEL + 1, width=width)]
    lines[0] = CalloutLine(lines[0].text, lines[0].size, _style(hit), is_slain(hit))
    notes = []
    if hit.conditional:
        before = [who(h.rank, h.file) for h in shot.hits[:index]]
        notes.append(f"hit only if {' and '.join(before)} die{'s' * (len(before) == 1)}")
    if index == shot.stopped_by:
        notes.append("stops the ball")
    lines += [CalloutLine(line, _LABEL - 1) for note in notes for line in wrap(note, size=_LABEL - 1, width=width)]
    return tuple(lines)


def _alike(shot: CannonShot, index: int) -> bool:
    """Whether the model hit `index`-th may share a line with its neighbours: a bounce hit whose
    wounds are still to roll (no profile), hit for certain, not the one that stopped the ball."""
    hit = shot.hits[index]
    return hit.kind is HitKind.BOUNCE and hit.wound is None and not hit.conditional and index != shot.stopped_by


def _runs(shot: CannonShot) -> list[list[int]]:
    """The models hit, in the order the ball reached them, as runs that share a line in the list:
    bounce hits alike (:func:`_alike`) one after another down one file (or along one rank), so
    that "R2-R9 F15 bounce: D3 wounds each" stands for eight lines that would say the same."""
    runs: list[list[int]] = []
    for i, hit in enumerate(shot.hits):
        if runs and _alike(shot, i) and _alike(shot, runs[-1][0]):
            members = [shot.hits[k] for k in runs[-1]]
            last = members[-1]
            down_file = all(h.file == hit.file for h in members) and abs(last.rank - hit.rank) == 1
            along_rank = all(h.rank == hit.rank for h in members) and abs(last.file - hit.file) == 1
            if down_file or along_rank:
                runs[-1].append(i)
                continue
        runs.append([i])
    return runs


def _run_lines(shot: CannonShot, run: Sequence[int], width: float) -> tuple[CalloutLine, ...]:
    """The list's line for a run of models hit alike (:func:`_runs`), or the model's own lines."""
    if len(run) == 1:
        return _callout_lines(shot, run[0], width)
    hits = [shot.hits[i] for i in run]
    ranks, files = sorted({h.rank for h in hits}), sorted({h.file for h in hits})
    span = (f"R{ranks[0]}-R{ranks[-1]} F{files[0]}" if len(files) == 1 else f"R{ranks[0]} F{files[0]}-F{files[-1]}")
    headline = f"{span} bounce: {wounds_a_hit(hits[0].wounds_die)} each"
    lines = [CalloutLine(line, _LABEL + 1) for line in wrap(headline, size=_LABEL + 1, width=width)]
    lines[0] = CalloutLine(lines[0].text, lines[0].size, _style(hits[0]), False)
    return tuple(lines)


def _empty(shot: CannonShot) -> str | None:
    """What the list of models hit says when there are none."""
    if not shot.fired:
        return "none: nothing was fired"
    if not shot.hits:
        return "none: the ball missed the unit"
    return None


# Layout.


def _touched(shot: CannonShot) -> list[Point]:
    """Every point the shot touched: the aim marker, where the ball landed, ended and rested."""
    return [shot.aim] + [p for p in (shot.landing, shot.path_end, shot.rest) if p is not None]


def _layout(shot: CannonShot, width: int, max_panel_height: int) -> _Layout:
    banner = misfire_banner(shot.misfire, "cannon", width)
    fr = frame(shot.formation, _touched(shot), width=width, top=panel_top(banner), max_panel_height=max_panel_height)
    panel, column = fr.panel, fr.column
    heading = _heading(shot, column[2] - column[0])
    below = below_heading(column[1], heading)
    entries = callouts_per_hit(shot.formation, shot.hits, fr, below, lambda run, room: _run_lines(shot, run, room),
                               runs=_runs(shot))
    marks = _marks(shot, panel)
    grid = grid_step(panel)
    legend = _legend(shot, marks, grid)
    top, height = column_foot(fr, entries, below, legend)
    return _Layout(
        width=width, height=height, banner=banner, frame=fr, heading=heading, callouts=entries, legend=legend,
        legend_top=top, marks=marks, grid=grid,
    )


# Marks.


def _style(hit: CannonHit | None) -> BaseStyle:
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
    hit_bases, bar = draw_unit(canvas, vp, f, shot.hits, _style, layout.grid)

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
    keep_clear_of_hits(canvas, hit_bases)
    keep_notes_off_unit(canvas, f, vp)
    canvas.keep_clear(grow(bar, 2), crossing=BAR_CROSSING)
    drawn = _drawn_lines(lines, fire_line, marks)
    names_clear_of(canvas, unit_names(f, vp, bar, drawn, size=name_size(canvas.image.width), aimed=shot.aimed_model))

    notes = _place_notes(canvas, shot, vp)
    name_boxes = name_unit(canvas, f, vp, bar, drawn, notes, aimed=shot.aimed_model)
    # Over a direct hit's solid base the markers go without their white rings, which would
    # cover it.
    direct = next((box for hit, box in hit_bases if hit.kind is HitKind.DIRECT), None)
    _aim_marker(canvas, aim, marks.aim, halo=direct is None or not holds(direct, aim, 0))
    if shot.fired:
        landing = vp.at(shot.landing)
        _ball(canvas, landing, marks.ball, ring=direct is None or not holds(direct, landing, marks.ball + 2))
    finish_panel(canvas, vp, notes)
    return lines, name_boxes, hit_bases


def _drawn_lines(lines: _Shot | None, fire: tuple[XY, XY], marks: _Marks) -> list[Line]:
    """The lines of the shot as drawn, with their widths."""
    if lines is None:
        return [(*fire, 2)]
    widths = {
        "fire": 2, "flight": 2, "scatter": 3 + 2 * _SCATTER_EDGE, "bounce": marks.path + 2 * marks.edge, "unused": 2,
    }
    return [(*getattr(lines, k), w) for k, w in widths.items() if getattr(lines, k) is not None]


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
        draw_base_edge(canvas, box, _style(hit))
    if lines.unused is not None:
        _stop_bar(canvas, lines.unused[0], lines.unused[1])
    if lines.scatter is not None:
        canvas.arrow(*lines.scatter, fill=SCATTER, width=3, head=12, casing=WHITE, edge=_SCATTER_EDGE)


def _place_notes(canvas: Canvas, shot: CannonShot, vp: Viewport) -> list[Label]:
    """The notes on the target area, most important first, each placed clear of the rest."""
    within = grow(vp.box, -4)
    aimed = who(*shot.aimed_model)
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
        stopped = f"stopped by {who(stopper.rank, stopper.file)}"
        notes.append(canvas.place(vp.at(shot.rest), [stopped], size=_LABEL, within=within))
        unused = f"the {bounce} bounce would end here"
        notes.append(canvas.place(vp.at(shot.path_end), [unused], size=_LABEL, within=within, fill=INK_SOFT))
    elif shot.bounce_distance:
        ends = f"bounce {bounce}: ball ends here"
        notes.append(canvas.place(vp.at(shot.rest), [ends], size=_LABEL, within=within))
    return notes


# The shortened stretch, the cannon, the whole shot.


def _draw_strip(canvas: Canvas, shot: CannonShot, layout: _Layout, *, inset: bool) -> Viewport | None:
    """Under the target area: the stretch down to the cannon, shortened, with the true distance
    (:func:`renders.fantasy.units.draw_stretch`), and the whole shot to scale in the corner with
    room for it (returned, when drawn)."""
    name = shot.weapon.name if shot.fired else f"{shot.weapon.name}: misfired"
    box = draw_stretch(
        canvas, layout.frame, distance=f"muzzle to marker {length_text(shot.distance, shot.unit)}", name=name,
        machine=_cannon, unit=shot.unit, inset=inset,
    )
    return _draw_inset(canvas, shot, layout, box) if box is not None else None


def _draw_inset(canvas: Canvas, shot: CannonShot, layout: _Layout, box: Box) -> Viewport:
    """The whole shot at true scale in `box`: the cannon, the unit, (dashed) the stretch the
    target area shows, the line of fire to the aim marker (thin and grey), and the shot as it
    went: the shot line from the muzzle to where the ball lands (a dot), the bounce on along it
    to where the ball comes to rest, and past a monster that stopped it, the rest of the bounce
    (dashed grey). Returns the inset's viewport."""
    points = [shot.aim] + ([shot.landing, shot.path_end] if shot.fired else [])
    vp = draw_inset_frame(canvas, box, layout.panel, shot.formation, points)
    origin = vp.px(0.0, 0.0)
    canvas.line([origin, vp.at(shot.aim)], fill=MUTED)
    if shot.fired:
        landing, rest = vp.at(shot.landing), vp.at(shot.rest)
        if shot.stopped_by is not None:
            canvas.dashed(rest, vp.at(shot.path_end), fill=MUTED, dash=3, gap=2)
        canvas.line([origin, landing], fill=INK)
        if rest != landing:
            canvas.line([landing, rest], fill=INK, width=2)
        canvas.draw.ellipse(grow((landing[0], landing[1], landing[0], landing[1]), 2), fill=INK)
    draw_inset_machine(canvas, vp)
    return vp


def _legend(shot: CannonShot, marks: _Marks, grid: int) -> tuple[LegendItem, ...]:
    """The key: only the marks this picture shows, drawn as big as they are on it, and the
    grid's squares."""

    def dashed(ink: RGB) -> Swatch:
        return lambda c, b: c.dashed(*across(b), fill=ink, width=2, dash=6, gap=5)

    items = [
        LegendItem("aim marker", lambda c, b: _aim_marker(c, middle(b), r=5)),
        fire_line_item("muzzle to marker"),
    ]
    if shot.fired:
        items.append(LegendItem("where the ball lands", lambda c, b: _ball(c, middle(b), marks.ball)))
        if shot.landing.x != shot.aim.x:
            items.append(LegendItem("the ball's flight from the muzzle", dashed(INK)))
        if not shot.scatter.is_hit:
            items.append(LegendItem("scatter", lambda c, b: c.arrow(*across(b), fill=SCATTER, width=3, head=9)))
        if shot.rest != shot.landing:
            head = min(marks.head, 10)
            items.append(LegendItem("bounce", lambda c, b: c.arrow(*across(b), fill=INK, width=marks.path, head=head)))
        if shot.stopped_by is not None:
            items.append(LegendItem("stopped here", lambda c, b: _stop_bar(c, middle(b), (b[2], middle(b)[1]), half=7)))
            items.append(LegendItem("rest of the bounce, not travelled", dashed(MUTED)))
    styles = {_style(h) for h in shot.hits}
    for style, label in (
        (_Style.DIRECT, "direct hit"),
        (_Style.BOUNCE, "hit by the bounce"),
        (_Style.CONDITIONAL, "hit only if the monster dies"),
    ):
        if style in styles:
            items.append(base_item(label, style))
    if any(is_slain(h) for h in shot.hits):
        items.append(base_item("slain", _Style.PLAIN, slain=True))
    items.append(front_item())
    items.append(grid_item(grid, shot.unit))
    return tuple(items)


