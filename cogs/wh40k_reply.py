"""How each ``/40k`` answer reads: the embed, the plain summary and the ``--json`` fields.

Pure functions of the engine's records (:mod:`engine.wh40k`).
"""

from __future__ import annotations

import discord

from cogs.replies import COLOUR_BAD, COLOUR_MISS, COLOUR_OK, Reply, clip_lines, dice_lines, dice_summary
from cogs.wh40k_text import (
    SOURCE, SYSTEM, damage_json, damage_lines, hit_outcome, penetration_json, penetration_text, vehicle_state_text,
)
from engine.wh40k.penetration import VehicleHit


def _colour(hit: VehicleHit) -> discord.Colour:
    if hit.damage is None:
        return COLOUR_MISS
    return COLOUR_BAD if hit.damage.destroyed else COLOUR_OK


def penetrate_reply(hit: VehicleHit) -> Reply:
    p = hit.penetration
    outcome = hit_outcome(hit)
    title = f"{p.weapon.name} ({p.weapon.describe()}) against Armour {p.armour}"
    embed = discord.Embed(title=title, description=f"**{outcome}**", colour=_colour(hit))
    embed.add_field(name="Dice", value=dice_lines(hit.dice), inline=False)
    embed.add_field(name="Penetration", value=penetration_text(p), inline=False)
    lines = damage_lines(hit.damage) if hit.damage is not None else []
    if lines:
        embed.add_field(name="Damage", value=clip_lines(lines), inline=False)
    embed.add_field(name="Vehicle", value=vehicle_state_text(hit), inline=False)
    footer = p.weapon.source if hit.damage is None else f"{p.weapon.source} · {hit.damage.table.source}"
    embed.set_footer(text=footer)
    summary = [outcome, dice_summary(hit.dice), f"Penetration: {penetration_text(p)}", *lines]
    return Reply(
        embed=embed, image=None, filename="penetrate.png", command="40k penetrate", system=SYSTEM, dice=hit.dice,
        summary=tuple(summary), fields={"penetration": penetration_json(p), "damage": damage_json(hit.damage)},
    )
