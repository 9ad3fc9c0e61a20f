"""The picture of a siege's fortress: every section the players named, in a row, with its
Destruction Tokens and breaches (seed 001, Structure tests).

Walls and palisades are long blocks, towers square; gateways, gateway towers and palisade towers
carry a gate (a palisade tower has a gateway of its own, seed 001 list footnote 2); a breached section is
drawn as rubble (hatched, dashed edge) and labelled. Each section shows its tokens as dots with
the count and its Structure points; the section just tested is outlined thick. A few sections
take the whole width, drawn larger; the key names only what the picture draws.
"""

from __future__ import annotations

from engine.warmaster.structure import Fortress, SectionState
from renders.canvas import (
    BANNER, BASE, BASE_EDGE, DIRECT, INK, INK_SOFT, LABEL, MARK, MUTED, TABLE, WHITE, Canvas, LegendItem, fit_text, key_size,
    legible, line_height,
)

WIDTH = 900
TITLE_H = 64
SLOT = 150
"""A section's slot at its plain size; fewer sections get wider slots."""
MAX_SCALE = 3.0
ROW_TOP = TITLE_H + 40
PER_ROW = 5


def _section(canvas: Canvas, s: SectionState, x: float, y: float, tested: bool, slot: float, gate_fallen: bool = False) -> None:
    """One section in its slot, drawn at the slot's scale (`slot` / :data:`SLOT`, up to twice).
    `gate_fallen`: a standing tower whose gate has fallen on its own shows its gateway open (rubble)."""
    k = min(MAX_SCALE, slot / SLOT)
    key = s.structure.key
    tall = key in ("tower", "palisade-tower", "gateway-tower")
    w, h = (90 * k, 90 * k) if tall else (120 * k, 50 * k)
    left, top = x + (slot - 10 - w) / 2, y + (100 * k - h)
    box = (left, top, left + w, top + h)
    body = canvas.body(box)
    if s.breached:
        canvas.draw.rectangle(box, fill=TABLE)
        canvas.hatch(box, fill=BASE_EDGE, spacing=6)
        canvas.dashed_rect(box, fill=BANNER, width=2)
        canvas.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "BREACHED", size=max(legible(WIDTH), min(round(15 * k), 24)), fill=BANNER,
                    anchor="mm", halo=True, role=MARK, owner=body)
    else:
        canvas.draw.rectangle(box, fill=BASE, outline=BASE_EDGE, width=2)
        step = 16 * k
        cx = left + 4 * k
        while cx < left + w - 8 * k:  # crenellations
            canvas.draw.rectangle((cx, top - 8 * k, cx + 9 * k, top), fill=BASE, outline=BASE_EDGE)
            cx += step
        if key == "gateway" or s.structure.gate_points is not None:  # a gateway, or a tower with a gate (001:376 †2)
            gx = (box[0] + box[2]) / 2
            doorway = (gx - 14 * k, box[3] - 30 * k, gx + 14 * k, box[3])
            if gate_fallen and not s.gate:  # the gate blown apart, the tower standing (001:376): an open, broken gateway
                canvas.draw.rectangle(doorway, fill=TABLE)
                canvas.hatch(doorway, fill=BASE_EDGE, spacing=4)
                canvas.dashed_rect(doorway, fill=BANNER, width=2, dash=4, gap=3)
            else:
                canvas.draw.rectangle(doorway, fill=INK_SOFT if not s.gate else DIRECT, outline=INK)
        # Tokens: a dot each (up to 12), and the count.
        r = 5 * k
        for i in range(min(s.tokens, 12)):
            cx, cy = left + 10 * k + (i % 6) * 14 * k, top + 12 * k + (i // 6) * 14 * k
            canvas.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DIRECT, outline=WHITE)
    if tested:
        canvas.draw.rectangle((box[0] - 5, box[1] - 8 * k - 5, box[2] + 5, box[3] + 5), outline=INK, width=3)
    label_y = y + 100 * k + 8
    big, small = _sizes(k)
    middle = x + (slot - 10) / 2
    canvas.text((middle, label_y), fit_text(s.name, size=big, width=slot - 14), size=big, fill=INK, anchor="mt",
                role=LABEL)
    what = f"{s.structure.name}{' gate' if s.gate else ''}"
    canvas.text((middle, label_y + line_height(big)), fit_text(what, size=small, width=slot - 14), size=small, fill=INK_SOFT, anchor="mt")
    points = s.structure.gate_points if s.gate else s.structure.points
    state = "fallen" if s.breached else f"{s.tokens} token{'s' * (s.tokens != 1)} · {points} pts"
    canvas.text((middle, label_y + line_height(big) + line_height(small)), fit_text(state, size=small, width=slot - 14), size=small,
                fill=BANNER if s.breached else INK_SOFT, anchor="mt")


def _sizes(k: float) -> tuple[int, int]:
    """Text sizes of a section's name (legible in Discord's 400-pixel preview at least) and of
    its two lines under it, at the slot's scale `k`."""
    return max(legible(WIDTH), min(round(13 * k), 26)), max(legible(WIDTH), min(round(11 * k), 20))


def layout(n: int) -> tuple[int, float, float]:
    """Sections per row, each slot's width, and a row's height: few sections take the whole width,
    drawn up to three times the size, so the sections span at least half the picture's width."""
    per_row = max(1, min(PER_ROW, n))
    slot = min(SLOT * MAX_SCALE, (WIDTH - 40) / per_row)
    k = min(MAX_SCALE, slot / SLOT)
    big, small = _sizes(k)
    return per_row, slot, 100 * k + 8 + line_height(big) + 2 * line_height(small) + 24


def key(fortress: Fortress) -> tuple[LegendItem, ...]:
    """The key of the fortress picture: only what it draws."""
    sections = fortress.sections
    items = []

    def dot(c: Canvas, b) -> None:
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        c.draw.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=DIRECT, outline=WHITE)

    def standing(c: Canvas, b) -> None:
        c.draw.rectangle(b, fill=BASE, outline=BASE_EDGE)

    def rubble(c: Canvas, b) -> None:
        c.draw.rectangle(b, fill=TABLE)
        c.hatch(b, fill=BASE_EDGE)
        c.dashed_rect(b, fill=BANNER, width=2, dash=4, gap=3)

    def gate(c: Canvas, b) -> None:
        c.draw.rectangle(b, fill=DIRECT, outline=INK)

    def tested(c: Canvas, b) -> None:
        c.draw.rectangle(b, outline=INK, width=3)

    if any(s.tokens and not s.breached for s in sections):
        items.append(LegendItem("Destruction Token", dot))
    if any(not s.breached for s in sections):
        items.append(LegendItem("standing section", standing))
    if any(s.breached for s in sections):
        items.append(LegendItem("fallen (breached) section", rubble))
    if any(s.name == fortress.tested for s in sections):
        items.append(LegendItem("section just tested", tested))
    towers = sorted({s.structure.name.lower() for s in sections if s.gate and not s.breached})
    if towers:
        whose = f"a {towers[0]}'s" if len(towers) == 1 else "a tower's"
        items.append(LegendItem(f"{whose} gate, targeted on its own", gate))
    return tuple(items)


def render_fortress(fortress: Fortress) -> bytes:
    n = max(1, len(fortress.sections))
    per_row, slot, row_h = layout(n)
    rows = (n + per_row - 1) // per_row
    sections = fortress.sections
    items = key(fortress)
    _, legend_h = key_size(items, width=WIDTH - 40) if items else (0, 0)
    height = int(ROW_TOP + rows * row_h + (legend_h + 30 if items else 20))
    canvas = Canvas(WIDTH, height)
    widest = min(per_row, max(1, len(sections))) * slot
    canvas.target = ((WIDTH - widest) / 2, ROW_TOP, (WIDTH + widest) / 2, ROW_TOP + rows * row_h)
    fallen = sum(1 for s in sections if s.breached)
    tokens = sum(s.tokens for s in sections)
    canvas.title_bar("Siege: the fortress", f"{len(sections)} section{'s' * (len(sections) != 1)}, {fallen} fallen, {tokens} Destruction Token{'s' * (tokens != 1)}"
                     " · Warmaster Siege & Fortresses: Structure tests", height=TITLE_H)
    if not sections:
        canvas.text((WIDTH / 2, ROW_TOP + 60), "No sections yet: name one with /siege structure section:...", size=18,
                    fill=INK_SOFT, anchor="mm")
    for i, s in enumerate(sections):
        in_row = min(per_row, len(sections) - (i // per_row) * per_row)
        x = (WIDTH - in_row * slot) / 2 + (i % per_row) * slot + 5
        y = ROW_TOP + (i // per_row) * row_h
        gate_fallen = any(o.gate and o.breached and o.name == f"{s.name} (gate)" for o in sections)
        _section(canvas, s, x, y, s.name == fortress.tested, slot, gate_fallen)
    if items:
        canvas.key((20, ROW_TOP + rows * row_h + 10), items, width=WIDTH - 40)
    canvas.draw.line([(0, height - 1), (WIDTH, height - 1)], fill=MUTED)
    return canvas.png()
