"""The ``/battle status`` picture: each war machine's crew and state on a track of the battle's turns.

One row per machine: its name, kind and owner; a pip per crew model (filled while alive, hollow
once lost); and the turn track, with the current turn outlined, the turns a silenced machine
cannot fire hatched up to the turn it fires again (past silences kept), and a destroyed machine struck through from
the turn it was lost. Below them, when the channel has a siege, one row per fortification section
(Warmaster): its kind and structure points, a dot per Destruction Token, and a breached section as
hatched rubble. A pure function of a :class:`BattleBoard` (plain values the cog builds).
"""

from __future__ import annotations

from dataclasses import dataclass

from renders.canvas import (
    BANNER, BASE, BASE_EDGE, BOUNCE_HATCH, DIRECT, INK, INK_SOFT, MUTED, PAPER, TABLE, WHITE, LABEL, Canvas, fit_text, legible,
)


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One war machine on the board."""

    name: str
    kind: str
    owner: str
    crew: int
    crew_max: int
    state: str
    """``ready``, ``silenced`` or ``destroyed``."""
    until_turn: int | None
    """For a silenced machine, the turn it fires again."""
    lost_turn: int | None = None
    """For a machine destroyed in this battle, the turn it was lost."""
    silences: tuple[tuple[int, int], ...] = ()
    """Each time a shot silenced it in this battle: (the turn, the turn it could fire again)."""


@dataclass(frozen=True, slots=True)
class FortRow:
    """One fortification section of the channel's siege."""

    name: str
    kind: str
    """As shown: ``Gateway``, ``Gateway tower gate``."""
    points: int
    """Its structure points."""
    tokens: int
    breached: bool


@dataclass(frozen=True, slots=True)
class BattleBoard:
    title: str
    subtitle: str
    turn: int
    rows: tuple[BoardRow, ...]
    sections: tuple[FortRow, ...] = ()


WIDTH = 760
TITLE_H = 66
ROW_H = 52
NAME_W = 230
CREW_W = 130
TRACK_X = NAME_W + CREW_W + 20
CELL_MAX = 44
PAD = 14
NAME = legible(WIDTH)
"""Text size of each war machine's and section's name: legible in Discord's 400-pixel preview."""


def _track_turns(board: BattleBoard) -> int:
    last = max([board.turn + 2, *[(r.until_turn or 0) + 1 for r in board.rows]])
    return min(last, 20)


def render_battle(board: BattleBoard) -> bytes:
    """PNG bytes of the board."""
    turns = _track_turns(board)
    rows = board.rows or (None,)
    height = TITLE_H + 34 + ROW_H * len(rows) + 36 + _fortifications_height(board.sections)
    c = Canvas(WIDTH, height)
    c.target = (0, TITLE_H, WIDTH, TITLE_H + 34 + ROW_H * len(rows))
    c.title_bar(board.title, board.subtitle, height=TITLE_H - 6)
    cell = min(CELL_MAX, (WIDTH - TRACK_X - PAD) / turns)
    top = TITLE_H + 8
    c.text((PAD, top + 6), "War machine", size=NAME, fill=INK_SOFT, anchor="lt")
    c.text((NAME_W, top + 6), "Crew", size=NAME, fill=INK_SOFT, anchor="lt")
    for t in range(1, turns + 1):
        x = TRACK_X + (t - 1) * cell
        c.text((x + cell / 2, top + 6), str(t), size=NAME, fill=INK if t == board.turn else INK_SOFT, anchor="mt")
    y0 = top + 26
    for i, row in enumerate(rows):
        y = y0 + i * ROW_H
        if i % 2 == 0:
            c.draw.rectangle((0, y, WIDTH, y + ROW_H), fill=TABLE)
        if row is None:
            c.text((PAD, y + 14), "No war machines in this battle yet: /machine add.", size=NAME, fill=INK_SOFT, anchor="lt")
            continue
        colour = {"ready": BOUNCE_HATCH, "silenced": DIRECT}.get(row.state, BANNER)
        c.text((PAD, y + 5), fit_text(row.name, size=NAME, width=NAME_W - PAD - 8), size=NAME, fill=INK, anchor="lt",
               role=LABEL)
        c.text((PAD, y + 28), fit_text(f"{row.kind} · {row.owner}", size=NAME, width=NAME_W - PAD - 8), size=NAME,
               fill=INK_SOFT, anchor="lt")
        pip = min(12.0, (CREW_W - 10) / max(row.crew_max, 1) - 3)
        for k in range(row.crew_max):
            x = NAME_W + k * (pip + 3)
            alive = k < row.crew
            c.draw.ellipse((x, y + 20, x + pip, y + 20 + pip), fill=INK if alive else PAPER,
                           outline=INK if alive else MUTED, width=1)
        for t in range(1, turns + 1):
            x = TRACK_X + (t - 1) * cell
            box = (x + 2, y + 8, x + cell - 2, y + ROW_H - 8)
            c.draw.rectangle(box, fill=WHITE if t >= board.turn else BASE, outline=BASE_EDGE, width=1)
            if (row.state == "silenced" and row.until_turn and board.turn <= t < row.until_turn) or any(
                    start <= t < until for start, until in row.silences):
                c.hatch(box, fill=DIRECT, spacing=5, width=2)  # silenced now, or in a turn gone by
            if row.state == "destroyed" and t >= (row.lost_turn or board.turn):
                c.draw.line((box[0], box[3], box[2], box[1]), fill=BANNER, width=3)
            if row.state == "silenced" and t == row.until_turn:
                c.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "fires", size=NAME, fill=BOUNCE_HATCH, anchor="mm")
        words = {"ready": "ready", "silenced": f"until turn {row.until_turn}", "destroyed": "destroyed"}[row.state]
        c.draw.rectangle((NAME_W, y + 38, NAME_W + CREW_W - 12, y + 39), fill=colour)
        c.text((NAME_W, y + 2), words, size=NAME, fill=colour, anchor="lt")
    # the current turn, outlined over every row
    if board.rows:
        x = TRACK_X + (board.turn - 1) * cell
        c.draw.rectangle((x, top + 2, x + cell, y0 + ROW_H * len(rows)), outline=INK, width=2)
    foot = y0 + ROW_H * len(rows) + 10
    if board.sections:
        _fortifications(c, board.sections, foot)
        foot += _fortifications_height(board.sections)
    c.text((PAD, foot), "Outlined: this turn. Hatched: cannot fire. Struck through: destroyed. Pips: crew left.",
           size=NAME, fill=INK_SOFT, anchor="lt")
    return c.png()


FORT_H = 46
TOKENS_SHOWN = 16


def _fortifications_height(sections: tuple[FortRow, ...]) -> int:
    return 30 + FORT_H * len(sections) + 8 if sections else 0


def _fortifications(c: Canvas, sections: tuple[FortRow, ...], top: float) -> None:
    """The siege's sections: name and kind, structure points, a dot per Destruction Token, breaches."""
    fallen = sum(s.breached for s in sections)
    c.text((PAD, top + 6), f"Fortifications (Warmaster siege): {len(sections)} section{'s' * (len(sections) != 1)}, "
           f"{fallen} breached · a dot per Destruction Token", size=NAME, fill=INK_SOFT, anchor="lt")
    y0 = top + 28
    for i, s in enumerate(sections):
        y = y0 + i * FORT_H
        if i % 2 == 0:
            c.draw.rectangle((0, y, WIDTH, y + FORT_H), fill=TABLE)
        c.text((PAD, y + 3), fit_text(s.name, size=NAME, width=NAME_W - PAD - 8), size=NAME, fill=INK, anchor="lt",
               role=LABEL)
        c.text((PAD, y + 25), fit_text(f"{s.kind} · {s.points} points", size=NAME, width=NAME_W - PAD - 8),
               size=NAME, fill=INK_SOFT, anchor="lt")
        if s.breached:
            box = (NAME_W, y + 6, WIDTH - PAD, y + FORT_H - 6)
            c.draw.rectangle(box, fill=TABLE)
            c.hatch(box, fill=BASE_EDGE, spacing=6)
            c.draw.rectangle(box, outline=BANNER, width=2)
            c.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "BREACHED", size=NAME, fill=BANNER, anchor="mm", halo=True)
            continue
        for k in range(min(s.tokens, TOKENS_SHOWN)):
            cx, cy = NAME_W + 8 + k * 16, y + FORT_H / 2
            c.draw.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), fill=DIRECT, outline=WHITE)
        words = f"{s.tokens} token{'s' * (s.tokens != 1)}: +{s.tokens} {'die' if s.tokens == 1 else 'dice'} a test"
        c.text((WIDTH - PAD, y + FORT_H / 2), words if s.tokens else "no tokens: standing", size=NAME, fill=INK_SOFT,
               anchor="rm")
