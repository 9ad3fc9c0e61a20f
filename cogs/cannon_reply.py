"""How a cannon shot reads: the embed, the plain summary and the ``--json`` fields.

A pure function of the engine's :class:`~engine.fantasy.cannon.CannonShot`: it words what the
record holds and never works out a rule again.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.replies import COLOUR_BAD, COLOUR_MISS, COLOUR_OK, Reply, clip_lines, dice_lines, dice_summary
from engine.fantasy.cannon import CannonHit, CannonShot
from engine.fantasy.formation import Facing
from engine.fantasy.wounding import armour_save_needed
from engine.geometry import bearing, clock_face

SYSTEM = "warhammer-fantasy"


def _inches(x: float) -> str:
    """``30"``, ``30.25"``, ``2.1"``: at most two decimals, none when whole."""
    return f"{x:.2f}".rstrip("0").rstrip(".") + '"'


def target_text(shot: CannonShot) -> str:
    t = shot.target
    base = f"{t.base_width}x{t.base_depth} mm"
    side = {Facing.FRONT: "front", Facing.FLANK: "flank", Facing.REAR: "rear"}[t.facing]
    text = f"{t.ranks} rank{'s' * (t.ranks > 1)} x {t.files} file{'s' * (t.files > 1)} of {t.troop.name} ({base} bases), {side} toward the cannon"
    if t.profile is not None:
        text += f"; {t.profile.describe()}"
    return text


def hit_text(hit: CannonHit, weapon_name: str) -> str:
    """``R1 F3 direct hit: S10, D6 wounds`` or the wound rolls when the profile was given."""
    head = f"R{hit.rank} F{hit.file} {hit.kind.value}"
    w = hit.wound
    if w is None:
        line = f"{head}: S{hit.strength}, {hit.wounds_die.value} wounds if it wounds"
        return line + (" (only if the monster before it is slain)" if hit.conditional else "")
    if w.to_wound_needed is None:
        return f"{head}: S{w.strength} cannot wound"
    steps = [f"to wound {w.to_wound.value} (needs {w.to_wound_needed}+)"]
    if not w.wounded:
        return f"{head}: {steps[0]}, no wound"
    if w.save is not None:
        steps.append(f"armour {w.save.value} (needs {w.save_needed}+)")
    else:
        steps.append("no armour save")
    if w.ward is not None:
        steps.append(f"ward {w.ward.value} (needs {w.ward_needed}+)")
    if w.saved:
        return f"{head}: {', '.join(steps)}: saved"
    if w.multiple_wounds is not None:
        steps.append(f"{w.multiple_wounds.kind.value} {w.multiple_wounds.value}")
    outcome = "slain" if w.slain else "survives"
    return f"{head}: {', '.join(steps)}: {w.wounds} wound{'s' * (w.wounds != 1)}, {outcome}"


def outcome_line(shot: CannonShot) -> str:
    if shot.misfire is not None:
        row = shot.misfire.row
        return f"Misfire! {shot.misfire.chart.name} rolled {shot.misfire.roll.value}: {row.title.rstrip('!')}. Nothing is fired."
    start = "Direct hit on the marker" if shot.scatter.is_hit else f"Scattered {_inches(shot.scatter_distance)}"
    if shot.bounce.is_misfire:
        bounce = "no bounce (the ball thuds in)"
    elif shot.stopped_by is not None:
        bounce = f"bounce die {_inches(shot.bounce_distance)}"
    else:
        bounce = f"bounced {_inches(shot.bounce_distance)}"
    sure = [h for h in shot.hits if not h.conditional]
    if not shot.hits:
        hits = "no models hit"
    else:
        hits = f"{len(sure)} model{'s' * (len(sure) != 1)} hit"
        if len(sure) != len(shot.hits):
            hits += f" (+{len(shot.hits) - len(sure)} if the monster dies)"
    if shot.target.profile is not None and sure:
        slain = sum(1 for h in sure if h.wound and h.wound.slain)
        hits += f", {slain} slain"
    stop = ""
    if shot.stopped_by is not None:
        h = shot.hits[shot.stopped_by]
        stop = f"; stopped by the {shot.target.troop.name} at R{h.rank} F{h.file}"
    return f"{start}, {bounce}: {hits}{stop}."


def shot_lines(shot: CannonShot) -> list[str]:
    """Where the ball went, for a player with a tape measure."""
    lines = [f"Marker {_inches(shot.distance)} straight ahead of the muzzle, over R{shot.aimed_model[0]} F{shot.aimed_model[1]}."]
    if shot.misfire is not None:
        return lines
    if shot.scatter.is_hit:
        lines.append(f"Scatter die HIT: the ball lands on the marker (artillery {shot.artillery.face} ignored).")
    else:
        d = shot.scatter.direction
        lines.append(
            f"Scatter arrow {d}° ({clock_face(d)}): marker moves {_inches(shot.scatter_distance)} "
            f"(half the artillery die's {shot.artillery.value})."
        )
    off = shot.landing.x
    side = "on the line of fire" if abs(off) < 0.05 else f"{_inches(abs(off))} {'right' if off > 0 else 'left'} of the line of fire"
    lines.append(f"Lands {_inches(shot.landing.length())} from the muzzle, {side}; the shot line runs from the barrel through it ({bearing(shot.landing):.0f}°).")
    if shot.bounce.is_misfire:
        lines.append("Bounce die misfire: the ball stops where it lands; only a model under that spot is hit.")
    elif shot.stopped_by is not None:
        h = shot.hits[shot.stopped_by]
        where = "where it lands" if h.travelled == 0 else f"{_inches(h.travelled)} past the landing point"
        lines.append(
            f"Bounce die {shot.bounce.value}, but the {shot.target.troop.name} at R{h.rank} F{h.file} survives and stops "
            f"the ball {where}, {_inches(shot.rest.length())} from the muzzle."
        )
    else:
        lines.append(f"Bounce {_inches(shot.bounce_distance)} on along the shot line; it comes to rest {_inches(shot.rest.length())} from the muzzle.")
    return lines


def misfire_lines(shot: CannonShot) -> list[str]:
    m = shot.misfire
    return [f"{m.chart.name}: D6 {m.roll.value} -> {m.row.title.rstrip('!')}: {m.row.effect}"]


def your_rolls(shot: CannonShot) -> str:
    """What the players roll themselves when no profile was given."""
    s = shot.weapon.strength
    saves = "no armour save is possible" if armour_save_needed(1, s) is None else f"armour saves at -{s - 3}"
    return f"No profile given: roll to wound at S{s} ({saves}), then ward saves, then each unsaved hit's wounds die."


def json_fields(shot: CannonShot) -> dict[str, Any]:
    def point(p):
        return None if p is None else {"x": round(p.x, 3), "y": round(p.y, 3)}

    def hit(h: CannonHit) -> dict[str, Any]:
        w = h.wound
        return {
            "rank": h.rank, "file": h.file, "kind": h.kind.value, "strength": h.strength,
            "wounds": h.wounds_die.value if w is None else w.wounds,
            "conditional": h.conditional,
            "slain": None if w is None else w.slain,
            "at": point(h.at),
        }

    return {
        "weapon": shot.weapon.key,
        "unit": shot.unit,
        "distance": shot.distance,
        "misfire": None if shot.misfire is None else {"roll": shot.misfire.roll.value, "result": shot.misfire.row.outcome.value},
        "scatter": None if shot.scatter is None or shot.misfire else {
            "hit": shot.scatter.is_hit, "direction": shot.scatter.direction, "distance": shot.scatter_distance,
        },
        "landing": point(shot.landing),
        "bounce": None if shot.misfire else shot.bounce_distance,
        "bounce_misfire": None if shot.misfire else shot.bounce.is_misfire,
        "rest": point(shot.rest),
        "stopped_by": None if shot.stopped_by is None else {
            "rank": shot.hits[shot.stopped_by].rank, "file": shot.hits[shot.stopped_by].file,
        },
        "hits": [hit(h) for h in shot.hits],
    }


def cannon_reply(shot: CannonShot, image: bytes | None) -> Reply:
    outcome = outcome_line(shot)
    if shot.misfire is not None:
        colour = COLOUR_BAD
    else:
        colour = COLOUR_OK if shot.hits else COLOUR_MISS
    embed = discord.Embed(title=f"{shot.weapon.name}: {_inches(shot.distance)} at the target", description=f"**{outcome}**", colour=colour)
    embed.add_field(name="Dice", value=dice_lines(shot.dice), inline=False)
    hit_lines = [hit_text(h, shot.weapon.name) for h in shot.hits]
    if shot.misfire is not None:
        embed.add_field(name="Misfire", value=misfire_lines(shot)[0], inline=False)
    else:
        embed.add_field(name="Hits", value=clip_lines(hit_lines) or "none", inline=False)
    embed.add_field(name="Shot", value=clip_lines(shot_lines(shot)), inline=False)
    embed.add_field(name="Target", value=target_text(shot), inline=False)
    if shot.target.profile is None and shot.hits:
        embed.add_field(
            name="Your rolls",
            value=your_rolls(shot),
            inline=False,
        )
    embed.set_footer(text=f"{shot.weapon.source} · {', '.join(shot.weapon.special_rules)}")
    summary = [outcome, dice_summary(shot.dice)]
    summary += misfire_lines(shot) if shot.misfire is not None else [f"Hit: {line}" for line in hit_lines]
    summary += shot_lines(shot)
    return Reply(
        embed=embed, image=image, filename=f"{shot.weapon.key}.png", command=f"fire {shot.weapon.key}",
        system=SYSTEM, dice=shot.dice, summary=tuple(summary), fields=json_fields(shot),
    )
