"""The picture of a Warhammer 40,000 ordnance shot (trial vehicle rules: Ordnance Weapons,
Ordnance Barrages, Shooting at Vehicles).

:func:`render_ordnance` draws an :class:`~engine.wh40k.ordnance.OrdnanceShot` as the engine
recorded it, for players to repeat on the table:

* the title bar: normal ordnance or a barrage, Strength, distance, what happened; the dice;
* an automatic miss (out of range, hole out of sight, no shot on the move, minimum range) as a
  banner: nothing else happened;
* the target area at true scale on a grid of 1" squares: the firer is below (an arrow down to it
  with the distance), the line of fire comes up to where the marker was placed; the large Blast
  marker where it came down as a tinted circle with its hole, and where it was placed as a faint
  dashed circle with the scatter arrow between them, labelled with inches and clock direction;
* a squad: every round base at true size, a dark solid base for a model wholly under the marker
  (hit), a light hatched base with its D6 for one partly under and hit on the 4+, a plain dashed
  base with its D6 for one partly under that was missed, plain bases outside; each model's number
  (and a partly covered model's D6, on a small die) written inside its own base, never over a
  neighbour;
* a vehicle: the hull with its facings and their Armour Values (F, S, R), the side struck drawn
  thick with an arrow showing where the shot came from (the firer, or for a barrage the hole),
  and what penetration and damage did;
* a scale bar in inches, the notes, and a compact key with only what the picture shows. Labels
  are big enough to read in Discord's 400-pixel preview and keep off the models, the hull and the
  lines of the shot (docs/pictures.md).
"""

from __future__ import annotations

import math

from engine.geometry import Point, clock_face
from engine.wh40k.blast import Coverage
from engine.wh40k.ordnance import ModelUnder, OrdnanceShot
from engine.wh40k.penetration import VehicleHit
from engine.wh40k.squad import Facing
from renders.canvas import (
    BASE, BASE_EDGE, BOUNCE, BOUNCE_HATCH, DIRECT, GRID, INK, INK_SOFT, LABEL, MARK, MUTED, NAME, SCATTER, TABLE, TEMPLATE,
    WHITE, Box, Canvas, LegendItem, Viewport, XY, aside, key_size, legible, length_text, line_height, mix, text_width, wrap,
)

WIDTH = 760
TITLE_HEIGHT = 60
PANEL_MAX_HEIGHT = 460
MARGIN = 16
FOOT = 150
"""Room under the panel for the firer's arrow, the scale bar, the notes and the key."""
PAD = 1.5
"""Inches of table shown round everything drawn."""
TINTS = {c: mix(c, TEMPLATE, 0.4) for c in (TABLE, GRID, BASE, BASE_EDGE)}
NOTE = 16
"""Text size of the notes under the target area."""


def _circle(centre: XY, r: float, sides: int = 24) -> list[XY]:
    """A round base's outline as a polygon (for the legibility rule's geometry)."""
    return [(centre[0] + r * math.cos(2 * math.pi * k / sides), centre[1] + r * math.sin(2 * math.pi * k / sides))
            for k in range(sides)]


def render_ordnance(shot: OrdnanceShot, *, width: int = WIDTH) -> bytes:
    """The picture of `shot` as PNG bytes: a pure function of the record."""
    return _draw(shot, width).png()


def _title(shot: OrdnanceShot) -> tuple[str, str]:
    what = "Ordnance barrage" if shot.barrage else "Ordnance"
    title = f"{what} S{shot.strength}, {length_text(shot.distance, shot.unit)} ahead"
    if shot.miss is not None:
        title += f": {shot.miss}"
    elif not shot.scatter_distance:
        title += ": on target"
    else:
        title += f": scattered {length_text(shot.scatter_distance, shot.unit)} at {clock_face(shot.scatter_direction)}"
    if shot.miss is None and shot.fired:  # the count of hits in the title, where it reads at 400 px (issue 30)
        if shot.squad is not None:
            title += f" · {shot.hits} of {shot.squad.models} hit"
        elif shot.vehicle is not None:
            title += " · the vehicle is hit" if shot.hull_hit else " · the vehicle is missed"
    dice = " ".join(d.face for d in shot.dice) or "none"
    if shot.squad is not None:
        target = f"{shot.squad.models} models, {shot.squad.base} mm bases"
        if shot.fired and shot.miss is None:
            target += f"; {shot.hits} hit"
    else:
        v = shot.vehicle
        target = f"vehicle F{v.front} S{v.side} R{v.rear}, {v.facing.value} toward the firer"
    return title, f"{target} · dice {dice}"


def _window(shot: OrdnanceShot) -> Box:
    r = shot.marker.radius
    xs, ys = [shot.aim.x - r, shot.aim.x + r], [shot.aim.y - r, shot.aim.y + r]
    if shot.centre is not None:
        xs += [shot.centre.x - r, shot.centre.x + r]
        ys += [shot.centre.y - r, shot.centre.y + r]
    if shot.squad is not None:
        xs_, ys_ = shot.squad.positions(shot.aim)
        br = shot.squad.base_radius
        xs += [float(xs_.min()) - br, float(xs_.max()) + br]
        ys += [float(ys_.min()) - br, float(ys_.max()) + br]
    else:
        v = shot.vehicle
        xs += [shot.aim.x - v.half_across - 0.8, shot.aim.x + v.half_across + 0.8]
        ys += [shot.aim.y - v.half_along - 0.8, shot.aim.y + v.half_along + 0.8]
    return min(xs) - PAD, min(ys) - PAD, max(xs) + PAD, max(ys) + PAD


def _draw(shot: OrdnanceShot, width: int) -> Canvas:
    x0, y0, x1, y1 = _window(shot)
    inner = width - 2 * MARGIN
    scale = min(inner / (x1 - x0), PANEL_MAX_HEIGHT / (y1 - y0))
    panel_h = (y1 - y0) * scale
    banner = 54 if shot.miss is not None else 0
    top = TITLE_HEIGHT + 10 + banner
    items = _legend(shot)
    _, legend_h = key_size(items, width=width - 2 * MARGIN)
    notes = _note_lines(shot, width - 2 * MARGIN)
    foot = 70 + line_height(NOTE) * len(notes) + 10 + legend_h + 12
    height = int(top + panel_h + foot)
    canvas = Canvas(width, height, extra=tuple(TINTS.values()))
    title, subtitle = _title(shot)
    canvas.title_bar(title, subtitle, height=TITLE_HEIGHT)
    if banner:
        canvas.banner((0, TITLE_HEIGHT, width, TITLE_HEIGHT + banner), [_miss_text(shot), "No harm is done."], [18, 16])
    vp = Viewport.fit((x0, y0, x1, y1), (MARGIN, top, width - MARGIN, top + panel_h))
    canvas.target = vp.box
    _table(canvas, vp)
    # The line of fire from the firer (below the panel) to where the marker was placed.
    bottom = vp.px(shot.aim.x, vp.y0)
    canvas.dashed(bottom, vp.at(shot.aim), fill=INK_SOFT, width=1)
    canvas.path([bottom, vp.at(shot.aim)], beneath=True)
    canvas.keep_clear_of_line(bottom, vp.at(shot.aim))
    r_px = vp.span(shot.marker.radius)
    if shot.squad is not None:
        arrow = [(vp.at(shot.aim), vp.at(shot.centre))] if shot.centre is not None and shot.scatter_distance else []
        for m in shot.models or _unfired_models(shot):
            _base(canvas, vp, m, shot.squad.base_radius, arrow)
    else:
        _hull(canvas, vp, shot)
    a = vp.at(shot.aim)
    if shot.centre is not None:
        c = vp.at(shot.centre)
        # The clear marker tints the table and the plain bases under it; hits keep their colours.
        canvas.tint_circle(c, r_px, TINTS, within=vp.box)
        canvas.draw.ellipse((c[0] - r_px, c[1] - r_px, c[0] + r_px, c[1] + r_px), outline=INK, width=2)
        h = max(3.0, vp.span(shot.marker.hole / 2))
        canvas.draw.ellipse((c[0] - h, c[1] - h, c[0] + h, c[1] + h), outline=INK, fill=WHITE, width=2)
    if shot.centre is None or shot.scatter_distance:
        canvas.dashed_circle(a, r_px, fill=MUTED, width=2)
        canvas.draw.line([(a[0] - 5, a[1]), (a[0] + 5, a[1])], fill=MUTED, width=2)
        canvas.draw.line([(a[0], a[1] - 5), (a[0], a[1] + 5)], fill=MUTED, width=2)
    if shot.centre is not None and shot.scatter_distance:
        c = vp.at(shot.centre)
        canvas.arrow(a, c, fill=SCATTER, width=3, casing=WHITE)
        canvas.keep_clear_of_line(a, c)
        canvas.path([a, c])
    if shot.vehicle is not None:
        _struck(canvas, vp, shot)  # over the scatter arrow: a barrage's blow may run along it
    labels = []
    if shot.vehicle is not None:
        labels.append(_vehicle_label(canvas, vp, shot))
    if shot.centre is not None and shot.scatter_distance:
        c = vp.at(shot.centre)
        mid = ((a[0] + c[0]) / 2, (a[1] + c[1]) / 2)
        labels.append(canvas.place(mid, [f"scatter {length_text(shot.scatter_distance, shot.unit)}",
                                         f"{shot.scatter_direction}° ({clock_face(shot.scatter_direction)})"],
                                   size=NOTE, within=vp.box, fill=SCATTER))
    for label in labels:
        if label is not None:
            canvas.leader(label)
    for label in labels:
        if label is not None:
            canvas.plate(label)
    canvas.draw.rectangle(vp.box, outline=MUTED)
    _foot(canvas, vp, shot, top + panel_h, items, notes)
    return canvas


def _miss_text(shot: OrdnanceShot) -> str:
    if shot.miss == "out of range":
        return f"Out of range: the marker is beyond {length_text(shot.max_range or 0, shot.unit)}"
    if shot.miss == "hole out of sight":
        return "The firer cannot see the marker's hole: an automatic miss"
    if shot.miss == "missed on the move":
        return f"On the move: to hit {shot.to_hit.value}, needed {shot.to_hit_needed}+: no shot"
    return f"Within the {length_text(shot.min_range or 0, shot.unit)} minimum range: a miss"


def _table(canvas: Canvas, vp: Viewport) -> None:
    canvas.draw.rectangle(vp.box, fill=TABLE)
    for x in range(math.ceil(vp.x0), math.floor(vp.x1) + 1):
        canvas.line([vp.px(x, vp.y0), vp.px(x, vp.y1)], fill=GRID)
    for y in range(math.ceil(vp.y0), math.floor(vp.y1) + 1):
        canvas.line([vp.px(vp.x0, y), vp.px(vp.x1, y)], fill=GRID)


def _unfired_models(shot: OrdnanceShot) -> tuple[ModelUnder, ...]:
    xs, ys = shot.squad.positions(shot.aim)
    return tuple(ModelUnder(i + 1, Point(float(x), float(y)), Coverage.OUTSIDE, None, False) for i, (x, y) in enumerate(zip(xs, ys)))


def _base(canvas: Canvas, vp: Viewport, m: ModelUnder, radius: float, arrow: list[tuple[XY, XY]]) -> None:
    """One model's base, drawn by what happened to it, its number (and D6) inside: moved aside
    within the base, away from the scatter `arrow` drawn over it, when the arrow runs by its
    middle."""
    cx, cy = vp.at(m.at)
    x, y = aside((cx, cy), arrow, vp.span(radius) * 0.55)
    r = vp.span(radius)
    box = (cx - r, cy - r, cx + r, cy + r)
    if m.coverage is Coverage.WHOLLY:
        canvas.draw.ellipse(box, fill=DIRECT, outline=INK, width=2)
    elif m.hit:
        canvas.draw.ellipse(box, fill=BOUNCE, outline=BOUNCE_HATCH, width=3)
    else:
        canvas.draw.ellipse(box, fill=BASE, outline=BASE_EDGE, width=1)
        if m.coverage is Coverage.PARTLY:
            canvas.dashed_circle((cx, cy), r, fill=INK, width=2, dash=4, gap=3)
    body = canvas.body(_circle((cx, cy), r))
    number = f"#{m.number}"
    # The model's number on its base, legible in the preview (smaller only when the base is
    # narrower than the number); a partly covered model's D6 on a small die under it.
    size = legible(canvas.image.width)
    while size > 9 and text_width(number, size=size) > 2 * r - 2:
        size -= 1
    die = legible(canvas.image.width)  # the D6 carries information: as big as any label (issue 30)
    if m.roll is not None and 2 * r >= size + die + 12:  # on a smaller base the notes give the D6 in words
        canvas.text((x, y - die * 0.45), number, size=size, fill=INK, anchor="mm", halo=True, role=NAME, owner=body)
        side = die + 4
        face = (x - side / 2, y + die * 0.2, x + side / 2, y + die * 0.2 + side)
        canvas.draw.rectangle(face, fill=WHITE, outline=INK)
        canvas.text(((face[0] + face[2]) / 2, (face[1] + face[3]) / 2), str(m.roll.value), size=die, anchor="mm",
                    role=MARK, owner=body)
    else:
        canvas.text((x, y), number, size=size, fill=WHITE if m.hit and m.coverage is Coverage.WHOLLY else INK,
                    anchor="mm", halo=not (m.hit and m.coverage is Coverage.WHOLLY), role=NAME, owner=body)
    canvas.keep_clear(box)


def _hull_box(vp: Viewport, shot: OrdnanceShot) -> Box:
    v, c = shot.vehicle, shot.aim
    return vp.rect(c.x - v.half_across, c.y - v.half_along, c.x + v.half_across, c.y + v.half_along)


def _hull(canvas: Canvas, vp: Viewport, shot: OrdnanceShot) -> None:
    """The hull, filled by what happened to it."""
    destroyed = any(h.damage and h.damage.destroyed for h in shot.vehicle_hits)
    fill = DIRECT if destroyed else (BOUNCE if shot.hull_hit else BASE)
    canvas.draw.rectangle(_hull_box(vp, shot), fill=fill, outline=INK, width=2)
    canvas.body(_hull_box(vp, shot))
    canvas.keep_clear(_hull_box(vp, shot), crossing=0)


def _struck(canvas: Canvas, vp: Viewport, shot: OrdnanceShot) -> None:
    """The side struck drawn thick, the arrow from where the shot came, each side's Armour."""
    v = shot.vehicle
    box = _hull_box(vp, shot)
    sides = _sides(shot, vp)
    edge = struck_edge(shot, vp)
    if edge is not None:
        a, b = edge
        canvas.line([a, b], fill=DIRECT, width=7)
        end = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        if shot.barrage and not shot.hole_over and shot.centre is not None:
            src = vp.at(shot.centre)
        else:
            src = (end[0], min(end[1] + 60, vp.box[3] - 4))
        canvas.arrow(src, end, fill=DIRECT, width=3, casing=WHITE, shorten=4)
        canvas.keep_clear_of_line(src, end)
        canvas.path([src, end])
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    for facing, (a, b) in sides:
        # A third of the way along the edge, clear of the line of fire through the middle.
        mid = (a[0] + (b[0] - a[0]) * 0.28, a[1] + (b[1] - a[1]) * 0.28)
        k = 18 / max(1.0, math.dist(mid, (cx, cy)))
        at = (mid[0] + (cx - mid[0]) * k, mid[1] + (cy - mid[1]) * k)
        name = {Facing.FRONT: "F", Facing.SIDE: "S", Facing.REAR: "R"}[facing]
        canvas.keep_clear(canvas.text(at, f"{name}{v.armour(facing)}", size=16, anchor="mm", halo=True, role=MARK,
                                      owner=len(canvas.bodies) - 1))


def _vehicle_label(canvas: Canvas, vp: Viewport, shot: OrdnanceShot):
    lines = [_hit_line(i, h, len(shot.vehicle_hits)) for i, h in enumerate(shot.vehicle_hits, 1)]
    if not shot.hull_hit and shot.fired and shot.miss is None:
        lines.append("not under the marker")
    if not lines:
        return None
    box = _hull_box(vp, shot)
    return canvas.place(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), lines, size=legible(canvas.image.width),
                        within=vp.box, role=LABEL)


def _hit_line(i: int, h: VehicleHit, n: int) -> str:
    p = h.penetration
    head = f"hit {i}: " if n > 1 else ""
    text = f"{head}S{p.effective_strength}+{p.roll}={p.total} vs {p.armour}: {p.counts_as.value}"
    if h.damage is not None:
        text += f", {h.damage.roll} {h.damage.counts_as or h.damage.result}"
    return text


def struck_edge(shot: OrdnanceShot, vp: Viewport) -> tuple[XY, XY] | None:
    """The one edge of the hull the shot struck (pixel ends): of the edges of the facing hit (a
    vehicle side-on, or any vehicle's two sides, has two), the one toward where the shot came
    from: the barrage's hole when it was off the hull, else the firer (the bottom of the picture)."""
    edges = [ab for f, ab in _sides(shot, vp) if f is shot.facing_hit]
    if not edges:
        return None

    def middle(ab: tuple[XY, XY]) -> XY:
        return ((ab[0][0] + ab[1][0]) / 2, (ab[0][1] + ab[1][1]) / 2)

    if shot.barrage and not shot.hole_over and shot.centre is not None:
        src = vp.at(shot.centre)
        return min(edges, key=lambda ab: math.dist(middle(ab), src))
    return max(edges, key=lambda ab: middle(ab)[1])


def _sides(shot: OrdnanceShot, vp: Viewport) -> list[tuple[Facing, tuple[XY, XY]]]:
    """Each edge of the hull as drawn (pixel ends) with the facing it is."""
    v, c = shot.vehicle, shot.aim
    ax, al = v.half_across, v.half_along
    near = (c.x - ax, c.y - al), (c.x + ax, c.y - al)
    far = (c.x - ax, c.y + al), (c.x + ax, c.y + al)
    left = (c.x - ax, c.y - al), (c.x - ax, c.y + al)
    right = (c.x + ax, c.y - al), (c.x + ax, c.y + al)
    if v.facing is Facing.FRONT:
        edges = [(Facing.FRONT, near), (Facing.REAR, far), (Facing.SIDE, left), (Facing.SIDE, right)]
    elif v.facing is Facing.REAR:
        edges = [(Facing.REAR, near), (Facing.FRONT, far), (Facing.SIDE, left), (Facing.SIDE, right)]
    else:
        edges = [(Facing.SIDE, near), (Facing.SIDE, far), (Facing.REAR, left), (Facing.FRONT, right)]
    return [(f, (vp.px(*a), vp.px(*b))) for f, (a, b) in edges]


def _foot(canvas: Canvas, vp: Viewport, shot: OrdnanceShot, panel_bottom: float, items: list[LegendItem],
          notes: list[str]) -> None:
    """Under the target area: the arrow down to the firer, the scale bar, the notes, the key."""
    x = MARGIN
    y = panel_bottom + 6
    aim_x = vp.px(shot.aim.x, vp.y0)[0]
    canvas.arrow((aim_x, y), (aim_x, y + 26), fill=INK_SOFT, width=2, head=9)
    words = f"to the firer: {length_text(shot.distance, shot.unit)} from the placed marker"
    right = aim_x + 8 + text_width(words, size=NOTE) <= canvas.image.width - MARGIN
    canvas.text((aim_x + 8, y + 12) if right else (aim_x - 8, y + 12), words, size=NOTE, fill=INK_SOFT,
                anchor="lm" if right else "rm")
    canvas.scale_bar((x, y + 34), vp, shot.unit)
    ny = y + 70
    for line in notes:
        canvas.text((x, ny), line, size=NOTE, anchor="lt")
        ny += line_height(NOTE)
    canvas.key((x, ny + 10), items, width=canvas.image.width - 2 * MARGIN)


def _note_lines(shot: OrdnanceShot, width: float) -> list[str]:
    """The notes, wrapped to `width` pixels."""
    return [line for note in _notes(shot) for line in wrap(note, size=NOTE, width=width)]


def _notes(shot: OrdnanceShot) -> list[str]:
    out = []
    if shot.squad is not None and shot.miss is None and shot.fired:
        partial = [m for m in shot.models if m.coverage is Coverage.PARTLY]
        out.append(f"{shot.hits} hit: {sum(m.coverage is Coverage.WHOLLY for m in shot.models)} wholly under, "
                   f"{sum(m.hit for m in partial)} of {len(partial)} partly under on {shot.marker.partial_hit}+")
        rolled = [m for m in partial if m.roll is not None]
        if rolled:
            out.append("partly under, D6 each: " + ", ".join(
                f"#{m.number} rolled {m.roll.value} ({'hit' if m.hit else 'missed'})" for m in rolled))
    if shot.vehicle is not None and shot.hull_hit:
        if shot.hole_over:
            out.append(f"hole over the hull: S{shot.strength}")
        else:
            out.append(f"hole off the hull: S{shot.strength} halved to {(shot.strength + 1) // 2}")
        if shot.facing_hit is not None:
            out.append(f"struck on the {shot.facing_hit.value} ({'from the hole' if shot.barrage and not shot.hole_over else 'from the firer'})")
    if shot.pinning_test is not None and (shot.hits or shot.vehicle_hits):
        out.append(f"pinning test if casualties: Ld {shot.pinning_test}")
    return out


def _legend(shot: OrdnanceShot) -> list[LegendItem]:
    def marker(c: Canvas, b: Box) -> None:
        x, y = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        c.draw.ellipse((x - 8, y - 8, x + 8, y + 8), fill=TINTS[TABLE], outline=INK, width=2)
        c.draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=WHITE, outline=INK)

    def circle(fill, outline, width, dashed=False):
        def swatch(c: Canvas, b: Box) -> None:
            x, y = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            c.draw.ellipse((x - 7, y - 7, x + 7, y + 7), fill=fill, outline=outline, width=width)
            if dashed:
                c.dashed_circle((x, y), 7, fill=INK, width=2, dash=4, gap=3)
        return swatch

    items = []
    if shot.fired:
        items.append(LegendItem(f"{shot.marker.name.lower()} ({length_text(shot.marker.diameter, shot.unit)})", marker))
    if shot.centre is None or shot.scatter_distance:
        items.append(LegendItem("where it was placed", lambda c, b: c.dashed_circle(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), 7, fill=MUTED, width=2, dash=4, gap=3)))
    if shot.scatter_distance:
        items.append(LegendItem("scatter", lambda c, b: c.arrow((b[0], (b[1] + b[3]) / 2), (b[2], (b[1] + b[3]) / 2), fill=SCATTER, width=3, head=9)))
    if shot.squad is not None:
        cov = {m.coverage for m in shot.models}
        if Coverage.WHOLLY in cov:
            items.append(LegendItem("wholly under: hit", circle(DIRECT, INK, 2)))
        if any(m.coverage is Coverage.PARTLY and m.hit for m in shot.models):
            items.append(LegendItem(f"partly under, D6 {shot.marker.partial_hit}+: hit", circle(BOUNCE, BOUNCE_HATCH, 3)))
        if any(m.coverage is Coverage.PARTLY and not m.hit for m in shot.models):
            items.append(LegendItem("partly under, D6: missed", circle(BASE, BASE_EDGE, 1, dashed=True)))
        items.append(LegendItem("not under it", circle(BASE, BASE_EDGE, 1)))
    else:
        if shot.facing_hit is not None:
            items.append(LegendItem("side struck, arrow from where", lambda c, b: c.line([(b[0], (b[1] + b[3]) / 2), (b[2], (b[1] + b[3]) / 2)], fill=DIRECT, width=6)))
        items.append(LegendItem("hull: F/S/R Armour Values", lambda c, b: c.draw.rectangle(b, fill=BOUNCE, outline=INK, width=2)))
    items.append(LegendItem(f"grid: {length_text(1, shot.unit)} squares", lambda c, b: c.draw.rectangle(b, fill=TABLE, outline=GRID)))
    return items
