"""Pictures of Warmaster shots (seed 002): the cannon's bounce through stands and the Bone
Thrower's skewer (the same picture: a path through stands, with the attacks on each unit).

:func:`render_cannon` draws a :class:`~engine.warmaster.cannon.CannonShot` as the engine recorded
it, for players to repeat on the table:

* the title bar: the battery, the distance to the point struck, the attacks on each unit;
* the area round the stands at true scale on a 1 cm grid (5 cm when the area is large): every
  stand (the target's in sand, other enemies' grey, friends' pale blue, engaged units with a
  dashed edge), numbered within its unit; the stands the path runs through are hatched;
* the line of fire from the closest cannon (the cannon itself when it fits, otherwise an arrow
  from the panel's foot with the distance written on it), the point struck, the path through
  the struck stand and the 5 cm bounce, ending in an arrow head;
* a plate by each unit with its attacks, hits, stands lost and drive back; a unit the path only
  touches, along an edge or over a corner, is said to be so, and not hit (the engine's
  ``grazed``); one away from the path is "not on the path";
* under the area (which spans the whole width), the scale bar, then a strip: a small true-scale
  inset of the whole shot from the cannon beside a compact key. Labels are big enough to read
  in Discord's 400-pixel preview and keep off the stands and the path (docs/pictures.md).
"""

from __future__ import annotations

import math

from engine.geometry import Point
from engine.warmaster.bone_thrower import BoneThrowerShot
from engine.warmaster.cannon import CannonShot, PlacedUnit, UnitOnPath
from engine.warmaster.shooting import Side
from engine.warmaster.stands import Stand
from renders.canvas import (
    BASE, BASE_EDGE, BOUNCE, BOUNCE_HATCH, DIRECT, GRID, INK, INK_SOFT, LABEL, MUTED, NAME, TABLE, TITLE_SUB, WHITE, RGB,
    Box, Canvas, LegendItem, Viewport, XY, aside, key_size, legible,
)

FRIEND: RGB = BOUNCE
"""Friendly stands: pale blue."""
ENEMY_OTHER: RGB = TITLE_SUB
"""Enemy stands other than the target: grey."""
PATH: RGB = DIRECT
"""The path of the ball."""

WIDTH = 900
TITLE_H = 64
PANEL: Box = (20, TITLE_H + 14, WIDTH - 20, TITLE_H + 14 + 500)
"""The area round the stands, across the whole width."""
STRIP_TOP = PANEL[3] + 40
"""The top of the strip under the scale bar: the inset, then the key beside it."""
INSET: Box = (20, STRIP_TOP, 320, STRIP_TOP + 210)
PLATE = legible(WIDTH)
"""Text size of the plates by each unit: what each unit took."""
NUMBER = legible(WIDTH)
"""Text size of the stands' numbers, written on them: each stand's label, legible in the preview."""


def _polygon(vp: Viewport, s: Stand) -> list[XY]:
    return [vp.at(c) for c in s.corners()]


def _fill(placed: PlacedUnit, target: bool) -> RGB:
    if target:
        return BASE
    return FRIEND if placed.unit.side is Side.FRIEND else ENEMY_OTHER


def _hatch_polygon(canvas: Canvas, poly: list[XY], ink: RGB) -> None:
    """Hatching clipped to a stand's outline: the hatch over its box, masked by the polygon."""
    from PIL import Image, ImageDraw

    xs = [p[0] for p in poly]; ys = [p[1] for p in poly]
    box = (int(min(xs)) - 1, int(min(ys)) - 1, int(max(xs)) + 2, int(max(ys)) + 2)
    w, h = box[2] - box[0], box[3] - box[1]
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).polygon([(x - box[0], y - box[1]) for x, y in poly], fill=255)
    layer = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(layer)
    for c in range(-h, w + h, 5):
        d.line([(c, h), (c + h, 0)], fill=255, width=1)
    from PIL import ImageChops

    canvas.paint(ink, box[:2], ImageChops.multiply(mask, layer))


def _window(shot: CannonShot) -> tuple[float, float, float, float]:
    pts = [c for p in shot.placed for s in p.stands for c in s.corners()] + [shot.strike, shot.end]
    x0 = min(p.x for p in pts) - 4; x1 = max(p.x for p in pts) + 4
    y0 = min(p.y for p in pts) - 5; y1 = max(p.y for p in pts) + 4
    if y0 < 8:  # close enough: show the cannon itself
        y0 = min(y0, -4)
    return x0, y0, x1, y1


def _unit_plate(u: UnitOnPath) -> list[str]:
    r = u.result
    lines = [f"{u.placed.unit.name}: {u.attacks} attack{'s' * (u.attacks != 1)}, {r.to_hit_needed}+ to hit",
             f"{r.hits_taken} hit{'s' * (r.hits_taken != 1)}, {r.stands_lost} stand{'s' * (r.stands_lost != 1)} lost"]
    if r.drive_back is not None:
        extra = " (destroyed)" if r.drive_back.destroyed else (" (confused)" if r.drive_back.confused else "")
        lines.append(f"driven back {r.drive_back.distance} cm{extra}")
    elif r.hits_taken:
        lines.append(f"no drive back: {r.no_drive_back.split(':')[0]}")
    return lines


def hits_words(shot) -> str:
    """The count of hits, as the picture's title carries it (issue 30: not in a subtitle):
    ``3 hits``, ``no hits``; with more than one unit struck, ``3 hits on 2 units``."""
    hits = sum(u.result.hits_taken for u in shot.units)
    struck = sum(1 for u in shot.units if u.result.hits_taken)
    lost = sum(u.result.stands_lost for u in shot.units)
    words = f"{hits or 'no'} hit{'s' * (hits != 1)}" + (f" on {struck} units" if struck > 1 else "")
    return words + (f", {lost} stand{'s' * (lost != 1)} lost" if lost else "")


def render_cannon(shot: CannonShot) -> bytes:
    """The cannon shot as a PNG."""
    name = shot.weapon.name
    kind = "Grapeshot" if shot.grapeshot else name
    title = f"{kind}: {shot.cannons} {name.lower()}{'s' * (shot.cannons != 1)}, {shot.distance:.1f} cm · {hits_words(shot)}"
    section = "Cannons" if shot.weapon.key == "cannon" else name
    source = "Artillery and Machines" if shot.weapon.key == "cannon" else "Siege & Fortresses"
    return _render(shot, title, section, f"closest {name.lower()}", cannon_path_words(shot), shot.grapeshot or shot.in_tower,
                   source)


def cannon_path_words(shot: CannonShot) -> str:
    """The key's words for the path: a bounce only when the ball bounced."""
    if shot.grapeshot:
        return "grapeshot: no bounce"
    if shot.in_tower:
        return "ball strikes, no bounce (in a tower)"
    return f"ball through the stand + {shot.weapon.bounce:g} cm"


def render_bone_thrower(shot: BoneThrowerShot) -> bytes:
    """The Bone Thrower's skewer as a PNG: the line of flight and the stands it strikes."""
    title = (f"Bone Thrower: {shot.distance:.1f} cm, {len(shot.skewered)} stand{'s' * (len(shot.skewered) != 1)} "
             f"skewered · {hits_words(shot)}")
    return _render(shot, title, "Undead Bone Thrower", "Bone Thrower", bone_path_words(shot), False,
                   "Artillery and Machines")


def bone_path_words(shot: BoneThrowerShot) -> str:
    """The key's words for the bolt's path: a tower's stonework stops it in the first stand."""
    if shot.in_tower:
        return "bolt stops in the first stand (in a tower)"
    return f"bolt through touching stands (max {shot.weapon.skewers})"


def _render(shot, title: str, section: str, machine: str, path_words: str, grapeshot: bool, source: str) -> bytes:
    return draw(shot, title, section, machine, path_words, grapeshot, source).png()


def draw(shot, title: str, section: str, machine: str, path_words: str, grapeshot: bool, source: str) -> Canvas:
    """The picture, drawn (its canvas, for the legibility rule's tests)."""
    vp = Viewport.fit(_window(shot), PANEL, max_scale=40)  # at most 40 pixels a centimetre
    step = 1 if (vp.x1 - vp.x0) <= 40 else 5  # cm between the grid's lines: 5 on a large area
    on_path = {id(u.placed): set(u.through) for u in shot.units}
    legend = _legend(shot, on_path, step, path_words)
    _, key_h = key_size(legend, width=WIDTH - INSET[2] - 40)
    height = int(max(INSET[3] + 26, STRIP_TOP + key_h) + 14)
    canvas = Canvas(WIDTH, height)
    canvas.target = PANEL
    sub = "; ".join(f"{u.placed.unit.name} {u.attacks} att., {u.result.hits_taken} hit{'s' * (u.result.hits_taken != 1)}" for u in shot.units)
    canvas.title_bar(title, sub + f" · Warmaster, {source}: {section}", height=TITLE_H)

    canvas.draw.rectangle(vp.box, fill=TABLE, outline=MUTED)
    gx = math.ceil(vp.x0 / step) * step
    while gx <= vp.x1:
        canvas.draw.line([vp.px(gx, vp.y0), vp.px(gx, vp.y1)], fill=GRID)
        gx += step
    gy = math.ceil(vp.y0 / step) * step
    while gy <= vp.y1:
        canvas.draw.line([vp.px(vp.x0, gy), vp.px(vp.x1, gy)], fill=GRID)
        gy += step

    numbers: list[tuple[XY, str, int]] = []
    for n, placed in enumerate(shot.placed):
        for i, s in enumerate(placed.stands):
            poly = _polygon(vp, s)
            canvas.draw.polygon(poly, fill=_fill(placed, n == 0))
            if i in on_path.get(id(placed), ()):
                _hatch_polygon(canvas, poly, DIRECT if n == 0 else BOUNCE_HATCH)
            canvas.draw.polygon(poly, outline=INK if i in on_path.get(id(placed), ()) else BASE_EDGE,
                                width=2 if i in on_path.get(id(placed), ()) else 1)
            if placed.unit.engaged:
                canvas.draw.polygon(poly, outline=INK_SOFT, width=3)
            body = canvas.body(poly)
            if vp.span(min(s.width, s.depth)) >= NUMBER + 6:
                numbers.append((vp.px(s.cx, s.cy), str(i + 1), body))
        canvas.keep_clear(_bbox([vp.at(c) for s in placed.stands for c in s.corners()]))

    # The line of fire from the closest cannon, the strike, the path and the bounce.
    strike, end = vp.at(shot.strike), vp.at(shot.end)
    origin = Point(0, 0)
    if vp.y0 <= -2:
        muzzle = vp.px(0, 0)
        cannon = Stand(0, -1.0, 0.0)
        canvas.draw.polygon(_polygon(vp, cannon), fill=INK_SOFT, outline=INK)
        canvas.text((muzzle[0], muzzle[1] + vp.span(2) + 4), machine, size=legible(WIDTH), fill=INK, anchor="mt", halo=True)
        start = muzzle
    else:
        # Where the line of fire enters the panel's foot.
        d = shot.strike.unit()
        t = (vp.y0 - origin.y) / d.y if d.y else 0
        start = vp.at(origin.along(d, t))
        canvas.text((start[0] + 8, start[1] - 6), f"from the {machine}, {shot.distance:.1f} cm", size=legible(WIDTH),
                    fill=INK, anchor="lb", halo=True)
    canvas.dashed(start, strike, fill=INK_SOFT, width=2)
    if not grapeshot:
        canvas.arrow(strike, end, fill=PATH, width=3, casing=WHITE)
    canvas.draw.ellipse((strike[0] - 5, strike[1] - 5, strike[0] + 5, strike[1] + 5), fill=PATH, outline=WHITE, width=2)
    canvas.keep_clear_of_line(start, strike)
    canvas.keep_clear_of_line(strike, end, path=True)
    canvas.path([start, strike])
    if not grapeshot:
        canvas.path([strike, end])
    # Each stand's number, on it; moved aside when the path runs by its middle.
    for centre, number, body in numbers:
        canvas.text(aside(centre, canvas.paths, NUMBER), number, size=NUMBER, fill=INK, anchor="mm", halo=True,
                    role=NAME, owner=body)

    # Plates by each unit: what it took; or why it took nothing.
    within = (vp.box[0] + 4, vp.box[1] + 4, vp.box[2] - 4, vp.box[3] - 4)
    for u in shot.units:
        s = u.placed.stands[min(u.through) if u.through else 0]
        label = canvas.place(vp.at(Point(s.cx, s.cy)), _unit_plate(u), size=PLATE, within=within, role=LABEL)
        canvas.leader(label)
        canvas.plate(label)
    grazed = getattr(shot, "grazed", ())
    for placed in shot.placed:
        if all(u.placed is not placed for u in shot.units):
            s = placed.stands[0]
            corner = min((vp.at(c) for c in s.corners()), key=lambda xy: (xy[1], xy[0]))  # its top corner: the
            # leader starts there, clear of the stand's number
            words = ([f"{placed.unit.name}: the path runs along its edge,", "not through a stand: not hit"]
                     if placed.unit.name in grazed else [f"{placed.unit.name}: not on the path"])
            label = canvas.place(corner, words, size=PLATE, within=within, fill=INK_SOFT)
            canvas.leader(label)
            canvas.plate(label)

    canvas.scale_bar((PANEL[0] + 6, PANEL[3] + 6), vp, "cm", longest=240)
    _inset(canvas, shot, INSET)
    canvas.key((INSET[2] + 20, STRIP_TOP), legend, width=WIDTH - INSET[2] - 40)
    return canvas


def _bbox(points: list[XY]) -> Box:
    xs = [p[0] for p in points]; ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _inset(canvas: Canvas, shot: CannonShot, box: Box) -> None:
    """The whole shot at true scale: the cannon, the line of fire, every unit."""
    pts = [c for p in shot.placed for s in p.stands for c in s.corners()] + [shot.end, Point(0, -2)]
    window = (min(p.x for p in pts) - 3, min(p.y for p in pts) - 2, max(p.x for p in pts) + 3, max(p.y for p in pts) + 3)
    inner = (box[0] + 6, box[1] + 26, box[2] - 6, box[3] - 6)
    vp = Viewport.fit(window, inner)
    canvas.draw.rectangle(box, fill=WHITE, outline=MUTED)
    canvas.text((box[0] + 8, box[1] + 5), "Whole shot, true scale", size=legible(WIDTH), fill=INK_SOFT, anchor="lt")
    canvas.draw.rectangle(vp.box, fill=TABLE)
    for n, placed in enumerate(shot.placed):
        for s in placed.stands:
            canvas.draw.polygon(_polygon(vp, s), fill=_fill(placed, n == 0), outline=BASE_EDGE)
    canvas.draw.polygon(_polygon(vp, Stand(0, -1.0, 0.0)), fill=INK_SOFT, outline=INK)
    canvas.line([vp.px(0, 0), vp.at(shot.strike)], fill=INK_SOFT, width=1)
    canvas.line([vp.at(shot.strike), vp.at(shot.end)], fill=PATH, width=2)
    canvas.scale_bar((box[0] + 8, box[3] + 4), vp, "cm", longest=120)


def _legend(shot, on_path: dict[int, set[int]], step: int, path_words: str) -> tuple[LegendItem, ...]:
    """The key: only what the picture draws (the target's stands, on the path or not; other
    enemies; friends; stands of theirs on the path; engaged units), the line of fire, the path
    and the grid."""
    def rect(fill: RGB, hatch: RGB | None = None):
        def draw(c: Canvas, b: Box) -> None:
            c.draw.rectangle(b, fill=fill, outline=BASE_EDGE)
            if hatch is not None:
                c.hatch(b, fill=hatch)
        return draw

    def engaged(c: Canvas, b: Box) -> None:
        c.draw.rectangle(b, fill=ENEMY_OTHER, outline=INK_SOFT, width=3)

    def path(c: Canvas, b: Box) -> None:
        c.arrow((b[0], (b[1] + b[3]) / 2), (b[2], (b[1] + b[3]) / 2), fill=PATH, width=3, head=8)

    def fire(c: Canvas, b: Box) -> None:
        c.dashed((b[0], (b[1] + b[3]) / 2), (b[2], (b[1] + b[3]) / 2), fill=INK_SOFT, width=2, dash=5, gap=3)

    target, others = shot.placed[0], shot.placed[1:]
    target_on = on_path.get(id(target), set())
    items = []
    if len(target_on) < len(target.stands):
        items.append(LegendItem("target stand", rect(BASE)))
    if target_on:
        items.append(LegendItem("target stand on the path", rect(BASE, DIRECT)))
    if any(p.unit.side is not Side.FRIEND for p in others):
        items.append(LegendItem("other enemy stand", rect(ENEMY_OTHER)))
    if any(p.unit.side is Side.FRIEND for p in others):
        items.append(LegendItem("friendly stand", rect(FRIEND)))
    if any(on_path.get(id(p)) for p in others):
        items.append(LegendItem("other stand on the path", rect(ENEMY_OTHER, BOUNCE_HATCH)))
    if any(p.unit.engaged for p in shot.placed):
        items.append(LegendItem("unit engaged in combat", engaged))
    items += [LegendItem("line of fire", fire), LegendItem(path_words, path), LegendItem(f"grid: {step} cm", rect(TABLE))]
    return tuple(items)
