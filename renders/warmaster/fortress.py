"""The picture of a siege's fortress: every section the players named, in a row, with its
Destruction Tokens and breaches (seed 001, Structure tests).

Walls and palisades are long blocks, towers square, gateways carry a gate; a breached section is
drawn as rubble (hatched, dashed edge) and labelled. Each section shows its tokens as dots with
the count and its Structure points; the section just tested is outlined thick.
"""

from __future__ import annotations

from engine.warmaster.structure import Fortress, SectionState
from renders.canvas import (
    BANNER, BASE, BASE_EDGE, DIRECT, INK, INK_SOFT, MUTED, TABLE, WHITE, Canvas, LegendItem, fit_text,
)

WIDTH = 900
TITLE_H = 64
SLOT = 150
ROW_TOP = TITLE_H + 40
PER_ROW = 5


def _section(canvas: Canvas, s: SectionState, x: float, y: float, tested: bool) -> None:
    key = s.structure.key
    tall = key in ("tower", "palisade-tower", "gateway-tower")
    w, h = (90, 90) if tall else (120, 50)
    left, top = x + (SLOT - 10 - w) / 2, y + (100 - h)
    box = (left, top, left + w, top + h)
    if s.breached:
        canvas.draw.rectangle(box, fill=TABLE)
        canvas.hatch(box, fill=BASE_EDGE, spacing=6)
        canvas.dashed_rect(box, fill=BANNER, width=2)
        canvas.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "BREACHED", size=13, fill=BANNER, anchor="mm", halo=True)
    else:
        canvas.draw.rectangle(box, fill=BASE, outline=BASE_EDGE, width=2)
        for cx in range(int(left) + 4, int(left + w) - 8, 16):  # crenellations
            canvas.draw.rectangle((cx, top - 8, cx + 9, top), fill=BASE, outline=BASE_EDGE)
        if key in ("gateway", "gateway-tower"):
            gx = (box[0] + box[2]) / 2
            canvas.draw.rectangle((gx - 14, box[3] - 30, gx + 14, box[3]), fill=INK_SOFT if not s.gate else DIRECT, outline=INK)
        # Tokens: a dot each (up to 12), and the count.
        for i in range(min(s.tokens, 12)):
            cx, cy = left + 10 + (i % 6) * 14, top + 12 + (i // 6) * 14
            canvas.draw.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=DIRECT, outline=WHITE)
    if tested:
        canvas.draw.rectangle((box[0] - 5, box[1] - 13, box[2] + 5, box[3] + 5), outline=INK, width=3)
    label_y = y + 108
    canvas.text((x + (SLOT - 10) / 2, label_y), fit_text(s.name, size=13, width=SLOT - 14), size=13, fill=INK, anchor="mt")
    what = f"{s.structure.name}{' gate' if s.gate else ''}"
    canvas.text((x + (SLOT - 10) / 2, label_y + 17), fit_text(what, size=11, width=SLOT - 14), size=11, fill=INK_SOFT, anchor="mt")
    points = s.structure.gate_points if s.gate else s.structure.points
    state = "fallen" if s.breached else f"{s.tokens} token{'s' * (s.tokens != 1)} · {points} pts"
    canvas.text((x + (SLOT - 10) / 2, label_y + 32), state, size=11, fill=BANNER if s.breached else INK_SOFT, anchor="mt")


def render_fortress(fortress: Fortress) -> bytes:
    n = max(1, len(fortress.sections))
    rows = (n + PER_ROW - 1) // PER_ROW
    height = ROW_TOP + rows * 170 + 135
    canvas = Canvas(WIDTH, height)
    fallen = sum(1 for s in fortress.sections if s.breached)
    tokens = sum(s.tokens for s in fortress.sections)
    canvas.title_bar("Siege: the fortress", f"{len(fortress.sections)} section{'s' * (len(fortress.sections) != 1)}, {fallen} fallen, {tokens} Destruction Tokens"
                     " · Warmaster Siege & Fortresses: Structure tests", height=TITLE_H)
    if not fortress.sections:
        canvas.text((WIDTH / 2, ROW_TOP + 60), "No sections yet: name one with /siege structure section:...", size=14,
                    fill=INK_SOFT, anchor="mm")
    for i, s in enumerate(fortress.sections):
        x = 20 + (i % PER_ROW) * SLOT + (WIDTH - 40 - PER_ROW * SLOT) / 2
        y = ROW_TOP + (i // PER_ROW) * 170
        _section(canvas, s, x, y, s.name == fortress.tested)

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

    canvas.legend((20, height - 125), (LegendItem("Destruction Token", dot), LegendItem("standing section", standing),
                                        LegendItem("fallen (breached) section", rubble), LegendItem("section just tested", tested)))
    canvas.legend((300, height - 125), (LegendItem("gate targeted on its own", gate),), title="Gateway tower")
    canvas.draw.line([(0, height - 1), (WIDTH, height - 1)], fill=MUTED)
    return canvas.png()
