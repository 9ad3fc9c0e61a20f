"""How each ``/40k`` answer reads: the embed, the plain summary and the ``--json`` fields.

Pure functions of the engine's records (:mod:`engine.wh40k`).
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.replies import COLOUR_BAD, COLOUR_MISS, COLOUR_OK, Reply, clip_lines, dice_lines, dice_summary
from cogs.wh40k_text import (
    SOURCE, SYSTEM, damage_json, damage_lines, hit_outcome, inches, penetration_json, penetration_text, vehicle_state_text,
)
from engine.geometry import clock_face
from engine.wh40k.blast import Coverage
from engine.wh40k.ordnance import ModelUnder, OrdnanceShot
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


# /40k ordnance

def ordnance_outcome(shot: OrdnanceShot) -> str:
    what = "Barrage" if shot.barrage else "Ordnance"
    if shot.miss == "out of range":
        return f"Automatic miss: the marker at {inches(shot.distance)} is beyond the {inches(shot.max_range or 0)} range."
    if shot.miss == "hole out of sight":
        return "Automatic miss: the firer cannot see the marker's hole."
    if shot.miss == "missed on the move":
        return f"No shot: the to-hit roll on the move failed ({shot.to_hit.value}, needed {shot.to_hit_needed}+)."
    if shot.miss == "within minimum range":
        return f"Miss: the marker is within the {inches(shot.min_range or 0)} minimum range."
    where = "on target" if not shot.scatter_distance else f"scattered {inches(shot.scatter_distance)}"
    if shot.squad is not None:
        partial = [m for m in shot.models if m.coverage is Coverage.PARTLY]
        wholly = sum(m.coverage is Coverage.WHOLLY for m in shot.models)
        text = f"{what} {where}: {shot.hits} of {shot.squad.models} models hit ({wholly} wholly under"
        text += f", {sum(m.hit for m in partial)} of {len(partial)} partly under on a {shot.marker.partial_hit}+)." if partial else ")."
        return text
    if not shot.hull_hit:
        return f"{what} {where}: the marker misses the vehicle."
    hits = "; ".join(hit_outcome(h).rstrip(".") for h in shot.vehicle_hits)
    side = f"{shot.facing_hit.value} armour {shot.vehicle.armour(shot.facing_hit)}"
    return f"{what} {where}, the vehicle is hit on its {side}: {hits}."


def ordnance_lines(shot: OrdnanceShot) -> list[str]:
    """Where the marker went, for a player with a tape measure."""
    ranges = [f"range {inches(shot.max_range)}"] if shot.max_range else []
    ranges += [f"minimum {inches(shot.min_range)}"] if shot.min_range else []
    lines = [f"Marker placed {inches(shot.distance)} straight ahead of the firer" + (f" ({', '.join(ranges)})." if ranges else ".")]
    if shot.to_hit is not None:
        lines.append(f"On the move: to hit with BS {shot.ballistic_skill} needs {shot.to_hit_needed}+, rolled {shot.to_hit.value}.")
    if shot.scatter is None:
        return lines
    sum_text = " + ".join(str(d.value) for d in shot.distance_dice)
    if shot.scatter.is_hit:
        lines.append(f"Scatter die HIT: the marker stays on target (D6 {sum_text} ignored).")
    else:
        d = shot.scatter_direction
        lines.append(f"Scatter arrow {d}° ({clock_face(d)}): the marker moves {sum_text} = {inches(shot.scatter_distance)}.")
    c = shot.centre
    off = "on the line of fire" if abs(c.x) < 0.005 else f"{inches(abs(c.x))} {'right' if c.x > 0 else 'left'} of the line of fire"
    lines.append(f"Marker comes down {inches(c.y)} ahead of the firer, {off}.")
    if shot.vehicle is not None and shot.hull_hit:
        if shot.hole_over:
            lines.append(f"The hole is over the hull: full Strength {shot.strength}, from the firer's side ({shot.facing_hit.value}).")
        else:
            from_where = "from the firer's side" if not shot.barrage else "from the hole, beyond the hull's"
            lines.append(f"The hole is off the hull: Strength {shot.strength} halved to {(shot.strength + 1) // 2}, "
                         f"{from_where} {shot.facing_hit.value}.")
        if len(shot.vehicle_hits) > 1:
            lines.append("Open-topped: the blast hits it twice.")
    if shot.pinning_test is not None and (shot.hits or shot.vehicle_hits):
        lines.append(f"Incoming! If the unit takes casualties it tests Leadership at {shot.leadership}{shot.pinning_modifier:+d}: "
                     f"2D6 of {shot.pinning_test} or less, or it is pinned next turn.")
    return lines


def model_text(m: ModelUnder) -> str:
    if m.coverage is Coverage.WHOLLY:
        return f"#{m.number} wholly under: hit"
    return f"#{m.number} partly under: {m.roll.value}, {'hit' if m.hit else 'missed'}"


def ordnance_json(shot: OrdnanceShot) -> dict[str, Any]:
    return {
        "barrage": shot.barrage, "strength": shot.strength, "distance": shot.distance, "unit": shot.unit,
        "miss": shot.miss,
        "to_hit": None if shot.to_hit is None else {"roll": shot.to_hit.value, "needed": shot.to_hit_needed},
        "scatter": None if shot.scatter is None else {
            "hit": shot.scatter.is_hit, "direction_deg": shot.scatter_direction, "distance": shot.scatter_distance},
        "centre": None if shot.centre is None else {"x": round(shot.centre.x, 3), "y": round(shot.centre.y, 3)},
        "models": [{"number": m.number, "x": round(m.at.x, 3), "y": round(m.at.y, 3), "coverage": m.coverage.value,
                    "roll": None if m.roll is None else m.roll.value, "hit": m.hit} for m in shot.models],
        "hits": shot.hits,
        "vehicle": None if shot.vehicle is None else {
            "hit": shot.hull_hit, "hole_over": shot.hole_over,
            "facing": None if shot.facing_hit is None else shot.facing_hit.value,
            "hits": [{"penetration": penetration_json(h.penetration), "damage": damage_json(h.damage)} for h in shot.vehicle_hits],
        },
        "pinning_test": shot.pinning_test,
    }


def ordnance_reply(shot: OrdnanceShot, image: bytes | None) -> Reply:
    outcome = ordnance_outcome(shot)
    destroyed = any(h.damage and h.damage.destroyed for h in shot.vehicle_hits)
    colour = COLOUR_BAD if destroyed else (COLOUR_OK if shot.hits or any(h.damage for h in shot.vehicle_hits) else COLOUR_MISS)
    what = "Ordnance barrage" if shot.barrage else "Ordnance"
    target = f"{shot.squad.models} models on {shot.squad.base} mm bases" if shot.squad else (
        f"vehicle {shot.vehicle.front}/{shot.vehicle.side}/{shot.vehicle.rear}, {shot.vehicle.facing.value} toward the firer")
    embed = discord.Embed(title=f"{what} S{shot.strength} at {target}", description=f"**{outcome}**", colour=colour)
    embed.add_field(name="Dice", value=dice_lines(shot.dice), inline=False)
    if shot.models:
        under = [model_text(m) for m in shot.models if m.coverage is not Coverage.OUTSIDE]
        embed.add_field(name="Under the marker", value=clip_lines(under) or "nobody", inline=False)
    hit_lines: list[str] = []
    for i, h in enumerate(shot.vehicle_hits, 1):
        hit_lines.append(f"Hit {i}: {penetration_text(h.penetration)}")
        if h.damage is not None:
            hit_lines += damage_lines(h.damage)
    if hit_lines:
        embed.add_field(name="Vehicle", value=clip_lines(hit_lines), inline=False)
    embed.add_field(name="Shot", value=clip_lines(ordnance_lines(shot)), inline=False)
    if shot.squad is not None and shot.hits:
        embed.add_field(name="Your rolls", value=f"Resolve {shot.hits} hit{'s' * (shot.hits != 1)} at S{shot.strength} with the weapon's AP.", inline=False)
    embed.set_footer(text=f"{SOURCE}, {'Ordnance Barrages' if shot.barrage else 'Ordnance Weapons'} · {shot.marker.name} {inches(shot.marker.diameter)}")
    summary = [outcome, dice_summary(shot.dice)]
    summary += [model_text(m) for m in shot.models if m.coverage is not Coverage.OUTSIDE]
    summary += hit_lines + ordnance_lines(shot)
    key = "barrage" if shot.barrage else "ordnance"
    return Reply(embed=embed, image=image, filename=f"{key}.png", command="40k ordnance", system=SYSTEM,
                 dice=shot.dice, summary=tuple(summary), fields=ordnance_json(shot))
