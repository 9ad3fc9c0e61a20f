"""How a grapeshot blast reads: the embed, the plain summary and the ``--json`` fields.

A pure function of the engine's :class:`~engine.fantasy.grapeshot.GrapeshotShot`.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.fantasy.words.common import SYSTEM, inches, rules_lines, to_hit_text, misfire_json, misfire_line, misfire_outcome, wound_text
from cogs.common.replies import COLOUR_BAD, COLOUR_MISS, COLOUR_OK, Reply, clip_lines, dice_lines, dice_summary
from engine.fantasy.grapeshot import GrapeshotShot
from engine.fantasy.wounding import armour_save_modifier


def to_hit_line(shot: GrapeshotShot) -> str:
    line = to_hit_text(ballistic_skill=shot.ballistic_skill, to_hit=shot.to_hit, long_range=shot.long_range,
                       max_range=shot.weapon.range, cover=shot.cover, modifier=shot.modifier)
    return line


def outcome_line(shot: GrapeshotShot) -> str:
    if shot.misfire is not None:
        return misfire_outcome(shot.misfire)
    v = shot.volley
    line = f"{shot.shots} shots ({shot.artillery.value} + {shot.shots_die.value}), {v.hits} hit{'s' * (v.hits != 1)}"
    if v.profile is not None and v.hits:
        line += f"; {v.unsaved} unsaved wound{'s' * (v.unsaved != 1)}, {v.models_slain} model{'s' * (v.models_slain != 1)} slain"
    return line + "."


def shot_lines(shot: GrapeshotShot) -> list[str]:
    """Each shot that hit, with its wound rolls when the profile was given."""
    lines = []
    for n, s in enumerate(shot.volley.shots, 1):
        if not s.hit:
            continue
        if s.wound is None:
            lines.append(f"Shot {n}: hit ({'-'.join(d.face for d in s.to_hit)})")
        else:
            lines.append(wound_text(f"Shot {n}", s.wound, one_model=False))
    return lines


def json_fields(shot: GrapeshotShot) -> dict[str, Any]:
    v = shot.volley
    return {
        "weapon": shot.weapon.key,
        "unit": shot.unit,
        "distance": shot.distance,
        "misfire": misfire_json(shot.misfire),
        "shots": shot.shots,
        "to_hit": shot.to_hit.needed,
        "long_range": shot.long_range,
        "cover": shot.cover.value,
        "hits": 0 if v is None else v.hits,
        "unsaved": None if v is None or v.profile is None else v.unsaved,
        "slain": None if v is None or v.profile is None else v.models_slain,
        "ethereal": shot.target_rules.ethereal,
        "immune": list(shot.immunity),
        "rules": list(shot.applied.rules) if shot.applied is not None else [],
    }


def grapeshot_reply(shot: GrapeshotShot) -> Reply:
    outcome = outcome_line(shot)
    colour = COLOUR_BAD if shot.misfire else (COLOUR_OK if shot.volley.hits else COLOUR_MISS)
    embed = discord.Embed(title=f"Grapeshot: {inches(shot.distance)} at the target", description=f"**{outcome}**", colour=colour)
    embed.add_field(name="Dice", value=dice_lines(shot.dice), inline=False)
    # A misfire fires nothing: no to-hit line, only the chart.
    details = [] if shot.misfire is not None else [to_hit_line(shot)]
    if shot.misfire is not None:
        embed.add_field(name="Misfire", value=misfire_line(shot.misfire), inline=False)
    else:
        hits = shot_lines(shot)
        embed.add_field(name="Hits", value=clip_lines(hits) or "none", inline=False)
        if shot.profile is None and shot.volley.hits:
            w = shot.weapon
            immune = "armour-piercing" in shot.immunity
            worse = armour_save_modifier(w.strength) if immune else armour_save_modifier(w.strength, w.armour_piercing)
            why = "Immune to Armour Piercing" if immune else f"AP {w.armour_piercing} included"
            details.append(f"No profile given: roll to wound at S{w.strength}, armour saves {worse} worse ({why}).")
        elif shot.profile is not None:
            details.append(f"Target: {shot.profile.describe()}")
    rules = [] if shot.misfire is not None else rules_lines(shot.applied, shot.immunity, shot.target_rules)
    if details:
        embed.add_field(name="Shooting", value="\n".join(details), inline=False)
    if rules:
        embed.add_field(name="Rules applied", value=clip_lines(rules), inline=False)
    embed.set_footer(text=f"{shot.weapon.source} · S{shot.weapon.strength}, {', '.join(shot.weapon.special_rules)}")
    summary = [outcome, dice_summary(shot.dice)]
    summary += [misfire_line(shot.misfire)] if shot.misfire is not None else [f"Hit: {line}" for line in shot_lines(shot)]
    summary += details + ([f"Rules applied: {'; '.join(rules)}"] if rules else [])
    return Reply(
        embed=embed, image=None, filename="", command="fire grapeshot", system=SYSTEM, dice=shot.dice,
        summary=tuple(summary), fields=json_fields(shot),
        awaits_profile=shot.profile is None and shot.volley is not None and bool(shot.volley.hits),
        awaits_chart=shot.misfire is not None and shot.misfire.awaits_roll,
    )
