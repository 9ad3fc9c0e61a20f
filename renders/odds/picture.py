"""The ``/odds`` picture: how likely each model of the target is to be hit, and how the outcomes
(or the models slain) are spread.

Top: the target unit as a grid of its models, front rank nearest the shooter (at the bottom, as
the shot pictures draw it), each model shaded by its chance of being hit and the likeliest marked
with its percentage. Below: a bar per outcome, in the order and with the names and numbers the
words give them (no hit, each misfire, then the counts from 0 up), its chance written beside it as
the words write it (one decimal). With two shots (``compare:``), their bars side by side in two colours.
Text is sized to stay legible at Discord's 400-pixel preview. A pure function of an
:class:`OddsPicture` (plain values the cog builds)."""

from __future__ import annotations

from dataclasses import dataclass

from renders.canvas import (
    BASE_EDGE, BOUNCE_HATCH, DIRECT, INK, INK_SOFT, PAPER, TABLE, WHITE, LABEL, MARK, Canvas, fit_text, mix,
)

WIDTH = 900
TITLE_H = 70
PAD = 24
TEXT = 22
"""Label size: 22 px at 900 px wide is about 10 px at a 400-pixel preview."""
SMALL = 18
BAR_H = 34
BARS_SHOWN = 10
LEVELS = 8
"""Shades from untouched paper to the hit colour."""
SHADES = tuple(mix(PAPER, DIRECT, (i + 1) / LEVELS) for i in range(LEVELS))
SECOND = BOUNCE_HATCH


@dataclass(frozen=True, slots=True)
class OddsPicture:
    title: str
    subtitle: str
    bars_title: str
    bars: tuple[tuple[str, float, float | None], ...]
    """(label, chance of the first shot, chance of the second shot or None)."""
    grid: tuple[tuple[float, ...], ...] = ()
    """The target's models, front rank first: each one's chance of being hit."""
    grid_title: str = ""
    legend: tuple[str, ...] = ()
    """What the two colours are (compare), or nothing."""
    landing: tuple[float, float] | None = None
    """The centre of landing: (ranks back from the front edge, files across from the left edge),
    marked with a cross on the grid (at its edge, with an arrow, when it falls off the unit)."""


def _cell(files: int) -> tuple[float, float]:
    """A model's cell in the heat map, width and depth: one sum for the drawing and its height."""
    cell = min((WIDTH - 2 * PAD) / files, max(64.0, 0.52 * WIDTH / files), 160.0)
    return cell, min(cell * 0.8, 64.0)


def _grid_height(p: OddsPicture) -> float:
    if not p.grid:
        return 0
    _, depth = _cell(len(p.grid[0]))
    return 44 + len(p.grid) * depth + 48


def picture_height(p: OddsPicture) -> int:
    """The picture's height: everything it draws, every bar included (never cut off)."""
    bars = p.bars[:BARS_SHOWN]
    return int(TITLE_H + 16 + _grid_height(p) + 40 + len(bars) * (BAR_H + 8) + (40 if p.legend else 0) + 20)


def render_odds(p: OddsPicture) -> bytes:
    """PNG bytes of the odds picture."""
    bars = p.bars[:BARS_SHOWN]
    c = Canvas(WIDTH, picture_height(p), extra=SHADES)
    c.title_bar(p.title, p.subtitle, height=TITLE_H - 8)
    y = TITLE_H + 16
    if p.grid:
        y = _draw_grid(c, p, y)
    else:
        c.target = (PAD, y, WIDTH - PAD, y + 40 + len(bars) * (BAR_H + 8))
    c.text((PAD, y), fit_text(p.bars_title, size=TEXT, width=WIDTH - 2 * PAD), size=TEXT, fill=INK, anchor="lt")
    y += 40
    label_w = 330
    bar_x, bar_w = PAD + label_w + 10, WIDTH - PAD - 120 - (PAD + label_w + 10)
    for label, first, second in bars:
        c.text((PAD, y + BAR_H / 2), fit_text(label, size=SMALL, width=label_w), size=SMALL, fill=INK, anchor="lm",
               role=LABEL)
        rows = [(first, DIRECT)] + ([(second, SECOND)] if second is not None else [])
        h = (BAR_H - 4) / len(rows)
        for k, (chance, colour) in enumerate(rows):
            top = y + 2 + k * h
            c.draw.rectangle((bar_x, top, bar_x + bar_w, top + h - 2), fill=TABLE)
            if chance > 0:
                c.draw.rectangle((bar_x, top, bar_x + max(2.0, bar_w * chance), top + h - 2), fill=colour)
        words = " / ".join(f"{chance * 100:.1f}%" if chance is not None else "-" for chance, _ in rows)
        c.text((WIDTH - PAD, y + BAR_H / 2), words, size=SMALL, fill=INK, anchor="rm")
        y += BAR_H + 8
    if p.legend:
        x = PAD
        for text, colour in zip(p.legend, (DIRECT, SECOND)):
            c.draw.rectangle((x, y + 8, x + 22, y + 30), fill=colour)
            box = c.text((x + 30, y + 19), fit_text(text, size=SMALL, width=WIDTH / 2 - 70), size=SMALL, fill=INK, anchor="lm")
            x = box[2] + 30
    return c.png()


def _draw_grid(c: Canvas, p: OddsPicture, y: float) -> float:
    ranks, files = len(p.grid), len(p.grid[0])
    cell, depth = _cell(files)
    c.text((PAD, y), fit_text(p.grid_title, size=TEXT, width=WIDTH - 2 * PAD), size=TEXT, fill=INK, anchor="lt")
    left = (WIDTH - files * cell) / 2
    top = y + 44
    peak = max((v for row in p.grid for v in row), default=0.0)
    best = None
    for r, row in enumerate(p.grid):  # front rank (r = 0) at the bottom, nearest the shooter
        for f, chance in enumerate(row):
            x0 = left + f * cell
            y0 = top + (ranks - 1 - r) * depth
            level = 0 if peak <= 0 else min(LEVELS - 1, int(chance / peak * (LEVELS - 1) + 0.5))
            fill = PAPER if chance <= 0 else SHADES[level]
            c.draw.rectangle((x0 + 1, y0 + 1, x0 + cell - 1, y0 + depth - 1), fill=fill, outline=BASE_EDGE)
            body = c.body((x0 + 1, y0 + 1, x0 + cell - 1, y0 + depth - 1))
            if best is None or chance > best[0]:
                best = (chance, x0, y0, body)
    bottom = top + ranks * depth
    c.target = (left, top, left + files * cell, bottom)
    marked = None
    if p.landing is not None:
        marked = _landing_mark(c, p.landing, left=left, bottom=bottom, cell=cell, depth=depth, ranks=ranks, files=files)
    if best is not None and best[0] > 0 and cell >= 40:
        _, x0, y0, body = best
        if marked is None or not (x0 <= marked[0] <= x0 + cell and y0 <= marked[1] <= y0 + depth):
            c.text((x0 + cell / 2, y0 + depth / 2), f"{best[0] * 100:.0f}%", size=SMALL, fill=WHITE, anchor="mm", halo=False,
                   role=MARK, owner=body)
    words = "front rank, facing the shot" + ("  ·  + centre of landing" if marked is not None else "")
    c.text((WIDTH / 2, bottom + 8), words, size=SMALL, fill=INK_SOFT, anchor="mt")
    return bottom + 48


def _landing_mark(c: Canvas, landing: tuple[float, float], *, left: float, bottom: float, cell: float, depth: float,
                  ranks: int, files: int) -> tuple[float, float]:
    """The centre of landing as a cross in a ring, where it falls on the grid (front edge at
    `bottom`); off the unit, on the grid's edge with a short arrow pointing where it lies."""
    rank, file = landing
    x, y = left + file * cell, bottom - rank * depth
    inside_x = min(max(x, left), left + files * cell)
    inside_y = min(max(y, bottom - ranks * depth), bottom)
    r = max(9.0, min(cell, depth) * 0.28)
    if (inside_x, inside_y) != (x, y):  # off the unit: an arrow from the edge toward it
        dx, dy = x - inside_x, y - inside_y
        n = (dx * dx + dy * dy) ** 0.5
        tip = (inside_x + dx / n * 2.2 * r, inside_y + dy / n * 2.2 * r)
        c.draw.line((inside_x, inside_y, *tip), fill=INK, width=3)
        x, y = inside_x, inside_y
    c.draw.ellipse((x - r, y - r, x + r, y + r), outline=WHITE, width=5)
    c.draw.ellipse((x - r, y - r, x + r, y + r), outline=INK, width=3)
    c.draw.line((x - r * 1.5, y, x + r * 1.5, y), fill=INK, width=3)
    c.draw.line((x, y - r * 1.5, x, y + r * 1.5), fill=INK, width=3)
    return x, y
