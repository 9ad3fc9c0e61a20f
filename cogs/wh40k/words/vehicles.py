"""How each ``/40k`` answer reads: the embed, the plain summary and the ``--json`` fields.

Pure functions of the engine's records (:mod:`engine.wh40k`).
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.common.replies import COLOUR_BAD, COLOUR_MISS, COLOUR_OK, Reply, clip_lines, dice_lines, dice_summary
from cogs.wh40k.words.common import (
    SOURCE, SYSTEM, damage_headline, damage_json, damage_lines, hit_outcome, inches, penetration_json, penetration_text,
    vehicle_json, vehicle_state_text,
)
from engine.geometry import clock_face
from engine.wh40k.assault import Assault
from engine.wh40k.blast import Coverage
from engine.wh40k.damage import DamageOnly
from engine.wh40k.firing import FiringAnswer
from engine.wh40k.ordnance import ModelUnder, OrdnanceShot
from engine.wh40k.penetration import VehicleHit
from engine.wh40k.tank_shock import TankShock
from engine.wh40k.terrain import Mover, TerrainTest


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
    if hit.vehicle.open_topped and (p.weapon.key == "ordnance" or p.off_centre):
        note = "Open-topped: a blast or template hits it twice; roll the second hit as another penetrate."
        embed.add_field(name="Note", value=note, inline=False)
        lines.append(note)
    footer = p.weapon.source if hit.damage is None else f"{p.weapon.source} · {hit.damage.table.source}"
    embed.set_footer(text=footer)
    summary = [outcome, dice_summary(hit.dice), f"Penetration: {penetration_text(p)}", *lines]
    return Reply(
        embed=embed, image=None, filename="penetrate.png", command="40k penetrate", system=SYSTEM, dice=hit.dice,
        summary=tuple(summary), fields={"penetration": penetration_json(p), "damage": damage_json(hit.damage),
                                        "vehicle_after": vehicle_json(hit.after)},
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
    hits = "; ".join(_lower_first(hit_outcome(h).rstrip(".")) for h in shot.vehicle_hits)
    side = f"{shot.facing_hit.value} armour {shot.vehicle.armour(shot.facing_hit)}"
    return f"{what} {where}, the vehicle is hit on its {side}: {hits}."


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


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
        moves = inches(shot.scatter_distance) if len(shot.distance_dice) == 1 else f"{sum_text} = {inches(shot.scatter_distance)}"
        lines.append(f"Scatter arrow {d}° ({clock_face(d)}): the marker moves {moves}.")
    c = shot.centre
    off = "on the line of fire" if abs(c.x) < 0.005 else f"{inches(abs(c.x))} {'right' if c.x > 0 else 'left'} of the line of fire"
    lines.append(f"Marker comes down {inches(c.y)} ahead of the firer, {off}.")
    if shot.vehicle is not None and shot.hull_hit:
        if shot.hole_over:
            lines.append(f"The hole is over the hull: full Strength {shot.strength}, against the {shot.facing_hit.value} armour, "
                         "which faces the firer.")
        else:
            from_where = "which faces the firer" if not shot.barrage else "which faces the hole"
            lines.append(f"The hole is off the hull: Strength {shot.strength} halved to {(shot.strength + 1) // 2}, "
                         f"against the {shot.facing_hit.value} armour, {from_where}.")
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
            "hits": [_hit_json(h) for h in shot.vehicle_hits],
            "after": vehicle_json(shot.vehicle_hits[-1].after) if shot.vehicle_hits else None,
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


def _hits_lines(results: tuple[VehicleHit, ...]) -> list[str]:
    lines: list[str] = []
    for i, h in enumerate(results, 1):
        lines.append(f"Hit {i}: {penetration_text(h.penetration)}")
        if h.damage is not None:
            lines += damage_lines(h.damage)
    return lines


def _hit_json(h: VehicleHit) -> dict[str, Any]:
    return {"penetration": penetration_json(h.penetration), "damage": damage_json(h.damage), "after": vehicle_json(h.after)}


# /40k assault

def assault_reply(a: Assault) -> Reply:
    if a.needed is None:
        rolled = f"All {a.attacks} attacks hit: {a.why}."
    else:
        faces = " ".join(d.face for d in a.to_hit)
        rolled = f"{a.hits} of {a.attacks} attacks hit on {a.needed}+ ({a.why}): {faces}."
    outcome = f"{a.hits} hit{'s' * (a.hits != 1)}"
    damaging = [h for h in a.results if h.damage is not None]
    if a.destroyed:
        outcome += ": the vehicle is destroyed."
    elif damaging:
        outcome += ": " + "; ".join(hit_outcome(h).rstrip(".") for h in damaging) + "."
    else:
        outcome += ", no damage." if a.hits else "."
    if a.destroyed and len(a.results) < a.hits:
        rolled += f" The vehicle was destroyed by hit {len(a.results)}: the other hits are not rolled."
    lines = _hits_lines(a.results)
    embed = discord.Embed(title=f"Assault on a vehicle: {a.attacks} attack{'s' * (a.attacks != 1)}, {a.weapon.name.lower()} ({a.weapon.describe()})",
                          description=f"**{outcome}**", colour=COLOUR_BAD if a.destroyed else (COLOUR_OK if damaging else COLOUR_MISS))
    embed.add_field(name="Dice", value=dice_lines(a.dice), inline=False)
    embed.add_field(name="To hit", value=rolled, inline=False)
    if lines:
        embed.add_field(name="Hits", value=clip_lines(lines), inline=False)
    embed.set_footer(text=f"{SOURCE}, Infantry Assaulting Vehicles · {a.weapon.source.split(', ')[-1]}")
    return Reply(
        embed=embed, image=None, filename="assault.png", command="40k assault", system=SYSTEM, dice=a.dice,
        summary=(outcome, dice_summary(a.dice), rolled, *lines),
        fields={"attacks": a.attacks, "needed": a.needed, "to_hit": [d.value for d in a.to_hit], "hits": a.hits,
                "destroyed": a.destroyed, "results": [_hit_json(h) for h in a.results],
                "vehicle_after": vehicle_json(a.results[-1].after) if a.results else None},
    )


# /40k tank-shock

def tank_shock_reply(t: TankShock) -> Reply:
    m = f"Morale {t.morale[0].value} + {t.morale[1].value} = {t.morale_total} against Leadership {t.leadership}"
    if not t.passed:
        outcome = f"Failed: the unit falls back {t.fall_back_distance}\"."
        detail = [f"{m}: failed.", f"Falls back 2D6 = {t.fall_back[0].value} + {t.fall_back[1].value} = {t.fall_back_distance}\"; "
                  "models under the tank's path move aside. It may not regroup with an enemy (the tank) within 6\"."]
    else:
        detail = [f"{m}: passed. Models in the tank's path step aside, the unit is unharmed."]
        if t.death_or_glory is None:
            outcome = "Passed: the unit holds and lets the tank through."
        else:
            h = t.death_or_glory
            verdict = "the tank is stopped" if t.tank_stopped else "the hero is crushed (killed whatever his Wounds or saves)"
            outcome = f"Passed. Death or Glory: {hit_outcome(h).rstrip('.')}; {verdict}."
            detail.append("Death or Glory: one attack, hitting the front armour automatically.")
            detail += _hits_lines((h,))
            if not t.tank_stopped and h.damage is not None:
                detail.append("Only destroyed or immobilised stops the tank; crew shaken or stunned do not.")
    embed = discord.Embed(title="Tank Shock", description=f"**{outcome}**",
                          colour=COLOUR_OK if t.passed and t.tank_stopped else (COLOUR_BAD if not t.passed or t.hero_killed else COLOUR_MISS))
    embed.add_field(name="Dice", value=dice_lines(t.dice), inline=False)
    embed.add_field(name="What happened", value=clip_lines(detail), inline=False)
    embed.set_footer(text=f"{SOURCE}, Tank Shock · Death or Glory!")
    return Reply(
        embed=embed, image=None, filename="tank-shock.png", command="40k tank-shock", system=SYSTEM, dice=t.dice,
        summary=(outcome, dice_summary(t.dice), *detail),
        fields={"morale": {"roll": t.morale_total, "leadership": t.leadership, "passed": t.passed},
                "fall_back": t.fall_back_distance,
                "death_or_glory": None if t.death_or_glory is None else {
                    **_hit_json(t.death_or_glory), "tank_stopped": t.tank_stopped, "hero_killed": t.hero_killed}},
    )


# /40k terrain

def terrain_reply(t: TerrainTest) -> Reply:
    if t.mover is Mover.WALKER:
        a, b = t.dice
        outcome = f"The walker may move up to {t.walker_move}\" this turn (highest of {a.value} and {b.value})."
        detail = ["Walkers cross difficult terrain as infantry: 2D6, the highest is the most it may move."]
    else:
        d = t.dice[0].value
        ground = "especially hazardous ground" if t.hazardous else "difficult ground"
        need = f"1-{t.immobilised_on}" if t.immobilised_on > 1 else "1"
        if t.crashed:
            outcome = f"Rolled {d}: the skimmer is immobilised and, moving over 6\", crashes and is destroyed."
        elif t.immobilised:
            outcome = (f"Rolled {d}: immobilised for the rest of the game, halted where it met the terrain."
                       if t.mover is Mover.VEHICLE else f"Rolled {d}: immobilised; moving 6\" or less, the skimmer lands where it is.")
        else:
            outcome = f"Rolled {d}: through, it carries on moving."
        detail = [f"Difficult terrain test in {ground}: a D6, immobilised on {need}."]
        if t.mover is Mover.SKIMMER:
            detail.append("Skimmers test only when they start or end their move in difficult or impassable ground.")
    embed = discord.Embed(title=f"Difficult terrain: {t.mover.value}", description=f"**{outcome}**",
                          colour=COLOUR_BAD if t.immobilised else COLOUR_OK)
    embed.add_field(name="Dice", value=dice_lines(t.dice), inline=False)
    embed.add_field(name="Rule", value=clip_lines(detail), inline=False)
    embed.set_footer(text=f"{SOURCE}, Difficult Terrain")
    return Reply(
        embed=embed, image=None, filename="terrain.png", command="40k terrain", system=SYSTEM, dice=t.dice,
        summary=(outcome, dice_summary(t.dice), *detail),
        fields={"mover": t.mover.value, "roll": [d.value for d in t.dice], "immobilised": t.immobilised,
                "crashed": t.crashed, "walker_move": t.walker_move},
    )


# /40k firing

def firing_reply(f: FiringAnswer) -> Reply:
    s = f.summary
    outcome = f"{f.row.name}, moved {inches(f.moved)} ({s.speeds[f.column].name}): {f.weapons}."
    if f.road:
        outcome += f" It can only go that far along a road (+{s.road_bonus}\"), and then it may not shoot."
    table = ["type: " + " | ".join(sp.name for sp in s.speeds)]
    table += [f"{r.name}: " + " | ".join(r.weapons) for r in s.types]
    notes = [
        "Main weapons: Strength 6 or more (or a random Strength that can beat 6); defensive: Strength 5 or less.",
        "Firing ordnance means firing nothing else; a barrage only when stationary.",
        "Passengers may not fire from a vehicle that moved more than 12\".",
    ]
    embed = discord.Embed(title="Vehicle moving and firing", description=f"**{outcome}**", colour=COLOUR_OK)
    embed.add_field(name="Summary", value="\n".join(table), inline=False)
    embed.add_field(name="Remember", value="\n".join(notes), inline=False)
    embed.set_footer(text=s.source)
    return Reply(
        embed=embed, image=None, filename="firing.png", command="40k firing", system=SYSTEM, dice=(),
        summary=(outcome, *table, *notes),
        fields={"type": f.row.key, "moved": f.moved, "speed": s.speeds[f.column].name, "may_fire": f.weapons, "road": f.road},
    )


# /40k damage

def damage_reply(roll: DamageOnly) -> Reply:
    d = roll.damage
    outcome = damage_headline(d) + "."
    lines = damage_lines(d)
    embed = discord.Embed(title=f"{d.table.name} table", description=f"**{outcome}**",
                          colour=COLOUR_BAD if d.destroyed else COLOUR_OK)
    embed.add_field(name="Dice", value=dice_lines(roll.dice), inline=False)
    embed.add_field(name="Result", value=clip_lines(lines[1:]), inline=False)
    embed.add_field(name="The table", value="\n".join(f"{r.rolls}: {r.name}" for r in d.table.rows), inline=False)
    embed.set_footer(text=d.table.source)
    return Reply(embed=embed, image=None, filename="damage.png", command="40k damage", system=SYSTEM, dice=roll.dice,
                 summary=(outcome, dice_summary(roll.dice), *lines[1:]),
                 fields={"damage": damage_json(d), "vehicle_after": vehicle_json(roll.after)})
