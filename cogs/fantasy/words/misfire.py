"""How a misfire chart consulted on its own (``/misfire``) reads."""

from __future__ import annotations

import discord

from cogs.fantasy.words.common import SYSTEM, misfire_json
from cogs.common.replies import COLOUR_BAD, COLOUR_OK, Reply, dice_lines, dice_summary
from engine.fantasy.misfire import Misfire
from engine.fantasy.profiles import MisfireOutcome


def misfire_reply(m: Misfire, chart: str) -> Reply:
    """`chart` is the option as the user chose it (``blackpowder``), echoed in ``--json``."""
    row = m.row
    outcome = f"{m.chart.name}: {m.roll.value} -> {row.title.rstrip('!')}."
    embed = discord.Embed(
        title=m.chart.name, description=f"**{outcome}**",
        colour=COLOUR_BAD if row.outcome is MisfireOutcome.DESTROYED else COLOUR_OK,
    )
    embed.add_field(name="Dice", value=dice_lines((m.roll,)), inline=False)
    embed.add_field(name=row.title.rstrip("!"), value=row.effect, inline=False)
    embed.add_field(name="The chart", value="\n".join(
        f"{r.low}{'-' + str(r.high) if r.high != r.low else ''}: {r.title.rstrip('!')}" for r in m.chart.rows
    ), inline=False)
    embed.set_footer(text=m.chart.source)
    return Reply(
        embed=embed, image=None, filename="", command="misfire", system=SYSTEM, dice=(m.roll,),
        summary=(outcome, dice_summary((m.roll,)), row.effect),
        fields={"chart": chart, "misfire": misfire_json(m), "wounds": row.wounds, "silent_turns": row.silent_turns},
    )
