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
    face = ("+" if d.exploded else "") + d.face
    if d.rerolled:
        return f"~~{face}~~"
    if d.dropped:
        return f"({face})"
    if d.success:
        return f"**{face}**"
    if d.failure:
        return f"__{face}__"
    return face


def scatter_text(face: str, direction: int | None) -> str:
    if face.startswith("H"):
        return "HIT"
    return f"arrow @{direction} ({clock_face(direction)})"


def outcome(e: ExpressionResult) -> str:
    """``2d6+1: 9``, ``20d6>=4: 11 successes``, ``1a: MISFIRE``, ``1s: HIT``; with what the dice
    were read as when the notation says more than it shows (a D66, advantage, a bound reached)."""
    if e.kind is ExpressionKind.SCATTER:
        shown = ", ".join(scatter_text(d.face, d.direction) for d in e.dice)
        return f"{e.expression.text}: {shown}"
    notes = notes_of(e)
    tail = f" ({'; '.join(notes)})" if notes else ""
    if e.kind is ExpressionKind.POOL:
        n = e.total
        t = e.terms[0]
        of = sum(1 for d in t.dice if not d.rerolled and not d.dropped)
        failures = sum(1 for d in t.dice if d.failure)
        if failures:
            return (f"{e.expression.text}: {n} (successes less {failures} failure{'s' * (failures != 1)}) "
                    f"of {of}{tail}")
        return f"{e.expression.text}: {n} success{'es' * (n != 1)} of {of}{tail}"
    if e.misfire:
        return f"{e.expression.text}: MISFIRE{tail}"
    return f"{e.expression.text}: {e.total}{tail}"


def notes_of(e: ExpressionResult) -> list[str]:
    """What a reader of the notation should be told it meant here."""
    notes: list[str] = []
    for t in e.terms:
        term = t.term
        if term.special is not None and term.special.value == "d66":
            notes.append("D66: two D6, tens and units")
        elif term.special is not None:
            notes.append("dF: -1, 0 or +1 each")
        if term.alias:
            notes.append(f"{term.alias}: 2d{term.sides}, the {'higher' if term.alias == 'advantage' else 'lower'} kept")
        if term.explode is not None and not term.explode_again:
            notes.append(f"e: each die explodes once at most, on {term.explode.face}+; ie goes on")
        if t.bounded:
            notes.append("re-rolls or explosions stopped at the bound")
    if e.expression.tree is not None and any(op == "/" for op in _ops(e.expression.tree)):
        notes.append("division rounds down")
    return list(dict.fromkeys(notes))


def _ops(node: tuple):
    if node[0] == "t":
        return
    if node[0] == "neg":
        yield from _ops(node[1])
        return
    yield node[0]
    yield from _ops(node[1])
    yield from _ops(node[2])


def _term_dice(t: TermResult) -> list[str]:
    """The dice as thrown, each re-roll or explosion right after the die it came from (``~~1~~ 5``)."""
    return [die_text(d) for d in t.in_order()]


def _leaf(t: TermResult) -> str:
    return str(t.term.constant) if t.term.constant is not None else f"[{' '.join(_term_dice(t))}]"


def _tree_text(node: tuple, terms: tuple[TermResult, ...], parent: int = 0, right: bool = False) -> str:
    """An expression with * / or parentheses, each term replaced by its dice: ``([4 6] + 1) * 2``."""
    if node[0] == "t":
        return _leaf(terms[node[1]])
    if node[0] == "neg":
        return "-" + _tree_text(node[1], terms, 3)
    level = 1 if node[0] in "+-" else 2
    text = f"{_tree_text(node[1], terms, level)} {node[0]} {_tree_text(node[2], terms, level, True)}"
    return f"({text})" if level < parent or (right and level == parent) else text


def dice_text(e: ExpressionResult, limit: int) -> str:
    """The expression's dice term by term (``4 6 +1``), within `limit` characters."""
    if e.expression.tree is not None:
        text = _tree_text(e.expression.tree, e.terms)
        return text if len(text) <= limit else _tallied(e, limit)
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
    counts = Counter(d.face for t in e.terms for d in t.dice if not d.rerolled)
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
            "notes": notes_of(e),
            "label": e.expression.label,
            "bounded": e.bounded,
            "terms": [
                {
                    "term": t.term.text,
                    "value": t.value,
                    "alias": t.term.alias,
                    "special": None if t.term.special is None else t.term.special.value,
                    "dice": [
                        {"die": d.roll.die, "face": d.roll.face, "by": d.roll.by.value, "rerolled": d.rerolled,
                         "dropped": d.dropped, "success": d.success, "value": d.value, "shown": d.face,
                         "exploded": d.exploded, "failure": d.failure,
                         "units": None if d.units is None else d.units.face}
                        for d in t.dice
                    ],
                }
                for t in e.terms
            ],
        }
        for e in r.expressions
    ]


def roll_summary(r: RollResult) -> tuple[str, ...]:
    """One line per expression, its label (when one was written) leading it: what the roll log
    keeps as the result."""
    # each expression's label leads its line (so the glance's title carries the first)
    return tuple(f"{e.expression.label} — {outcome(e)}" if e.expression.label else outcome(e) for e in r.expressions)


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
    fields: dict[str, Any] = {"expressions": roll_json(r), "log": None, "label": r.label}
    if entry is not None:
        embed.set_footer(text=f"Roll #{entry.number} in the log · hash {entry.hash[:12]}")
        fields["log"] = {"roll": entry.number, "hash": entry.hash}
    elif any(d.by.value == "player" for d in r.dice):
        embed.set_footer(text="Entered dice are marked in the field names.")
    return Reply(
        embed=embed, image=None, filename="", command="roll", system="any", dice=r.dice,
        summary=tuple(plain), fields=fields,
    )
