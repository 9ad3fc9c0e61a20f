"""How a `/roll` reads: the embed, the plain summary and the ``--json`` fields.

A pure function of the engine's :class:`~engine.roll.RollResult` (and, when the roll was logged,
its log entry). Every die is listed: re-rolled ones struck through (~~1~~), dice left out by keep
highest/lowest in brackets, successes in bold. A field that would pass Discord's limits lists as
many dice as fit and then counts every face, so no die goes unaccounted; ``--json`` has them all.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import discord

from cogs.common.replies import COLOUR_BAD, COLOUR_OK, Reply
from engine.geometry import clock_face
from engine.ledger import Entry
from engine.roll import ExpressionKind, ExpressionResult, RolledDie, RollResult, TermResult

EMBED_BUDGET = 5000
"""Characters the dice fields may use together (Discord allows 6000 per embed)."""


def die_text(d: RolledDie) -> str:
    face = d.roll.face
    if d.rerolled:
        return f"~~{face}~~"
    if d.dropped:
        return f"({face})"
    if d.success:
        return f"**{face}**"
    return face


def scatter_text(face: str, direction: int | None) -> str:
    if face.startswith("H"):
        return "HIT"
    return f"arrow @{direction} ({clock_face(direction)})"


def outcome(e: ExpressionResult) -> str:
    """``2d6+1: 9``, ``20d6>=4: 11 successes``, ``1a: MISFIRE``, ``1s: HIT``."""
    if e.kind is ExpressionKind.SCATTER:
        shown = ", ".join(scatter_text(d.face, d.direction) for d in e.dice)
        return f"{e.expression.text}: {shown}"
    if e.kind is ExpressionKind.POOL:
        n = e.total
        of = e.terms[0].term.count
        return f"{e.expression.text}: {n} success{'es' * (n != 1)} of {of}"
    if e.misfire:
        return f"{e.expression.text}: MISFIRE"
    return f"{e.expression.text}: {e.total}"


def _term_dice(t: TermResult) -> list[str]:
    """The dice as thrown, each re-roll right after the die it replaced (``~~1~~ 5``)."""
    first, again = t.dice[: t.term.count], iter(t.dice[t.term.count :])
    out = []
    for d in first:
        out.append(die_text(d))
        if d.rerolled:
            out.append(die_text(next(again)))
    return out


def dice_text(e: ExpressionResult, limit: int) -> str:
    """The expression's dice term by term (``4 6 +1``), within `limit` characters."""
    parts: list[str] = []
    for i, t in enumerate(e.terms):
        sign = "-" if t.term.sign < 0 else ("+" if i else "")
        if t.term.constant is not None:
            parts.append(f"{sign}{t.term.constant}")
        else:
            parts.append(f"{sign}[{' '.join(_term_dice(t))}]")
    text = " ".join(parts)
    if len(text) <= limit:
        return text
    return _tallied(e, limit)


def _tallied(e: ExpressionResult, limit: int) -> str:
    """Too many dice for the field: the first ones, then every face counted."""
    counts = Counter(d.roll.face for t in e.terms for d in t.dice if not d.rerolled)
    struck = sum(1 for t in e.terms for d in t.dice if d.rerolled)
    tally = "Faces: " + ", ".join(f"{face} x{n}" for face, n in sorted(counts.items(), key=lambda kv: _face_order(kv[0])))
    if struck:
        tally += f"; {struck} re-rolled (struck: not counted)"
    room = limit - len(tally) - 30
    shown: list[str] = []
    used = 0
    every = [text for t in e.terms for text in _term_dice(t)]
    for text in every:
        if used + len(text) + 1 > room:
            break
        shown.append(text)
        used += len(text) + 1
    return f"{' '.join(shown)} ... and {len(every) - len(shown)} more\n{tally}"


def _face_order(face: str) -> tuple[int, str]:
    return (int(face), "") if face.isdigit() and face.isascii() else (10_000, face)


def roll_json(r: RollResult) -> list[dict[str, Any]]:
    return [
        {
            "expression": e.expression.text,
            "kind": e.kind.value,
            "total": e.total,
            "misfire": e.misfire,
            "terms": [
                {
                    "term": t.term.text,
                    "value": t.value,
                    "dice": [
                        {"die": d.roll.die, "face": d.roll.face, "by": d.roll.by.value, "rerolled": d.rerolled,
                         "dropped": d.dropped, "success": d.success}
                        for d in t.dice
                    ],
                }
                for t in e.terms
            ],
        }
        for e in r.expressions
    ]


def roll_summary(r: RollResult) -> tuple[str, ...]:
    """One line per expression: what the roll log keeps as the result."""
    return tuple(outcome(e) for e in r.expressions)


def roll_reply(r: RollResult, entry: Entry | None = None) -> Reply:
    lines = roll_summary(r)
    misfired = any(e.misfire for e in r.expressions)
    embed = discord.Embed(
        title=f"Roll {r.text}"[:256], description="\n".join(f"**{line}**" for line in lines),
        colour=COLOUR_BAD if misfired else COLOUR_OK,
    )
    budget = min(1000, EMBED_BUDGET // len(r.expressions))
    plain = list(lines)
    for e in r.expressions:
        dice = dice_text(e, budget)
        by_players = sum(1 for d in e.dice if d.by.value == "player")
        name = e.expression.text if not by_players else f"{e.expression.text} ({by_players} entered)"
        embed.add_field(name=name[:256], value=dice, inline=False)
        plain.append(f"Dice {e.expression.text}: " + " ".join(
            f"{d.face}{'*' if d.by.value == 'player' else ''}" for d in e.dice
        ))
    fields: dict[str, Any] = {"expressions": roll_json(r), "log": None}
    if entry is not None:
        embed.set_footer(text=f"Roll #{entry.number} in the log · hash {entry.hash[:12]}")
        fields["log"] = {"roll": entry.number, "hash": entry.hash}
    elif any(d.by.value == "player" for d in r.dice):
        embed.set_footer(text="Entered dice are marked in the field names.")
    return Reply(
        embed=embed, image=None, filename="", command="roll", system="any", dice=r.dice,
        summary=tuple(plain), fields=fields,
    )
