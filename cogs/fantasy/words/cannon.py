"""How a cannon shot reads: the embed, the plain summary and the ``--json`` fields.

A pure function of the engine's :class:`~engine.fantasy.cannon.CannonShot`: it words what the
record holds and never works out a rule again.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.fantasy.words.common import (
    SYSTEM, inches, one_model_each, misfire_json, misfire_line, misfire_outcome, pooled_text, rules_lines, target_text, wound_text,
)
from cogs.common.replies import COLOUR_BAD, COLOUR_MISS, COLOUR_OK, Reply, clip_lines, dice_lines, dice_summary
from engine.fantasy.cannon import CannonHit, CannonShot
from engine.fantasy.wounding import wounds_a_hit
from engine.fantasy.wounding import armour_save_needed
from engine.geometry import bearing, clock_face

def hit_text(hit: CannonHit, one_model: bool = True) -> str:
    """``R1 F3 direct: S10, D6 wounds if it wounds`` or the wound rolls when the profile was given.
    `one_model`: say whether the model is slain by its own hit (one-Wound models, and monsters,
    whose own hit decides whether the ball goes on); otherwise its wounds pool on the unit."""
    head = f"R{hit.rank} F{hit.file} {hit.kind.value}"
    if hit.wound is None:
        line = f"{head}: S{hit.strength}, {wounds_a_hit(hit.wounds_die)} if it wounds"
        return line + (" (only if the monster before it is slain)" if hit.conditional else "")
    return wound_text(head, hit.wound, one_model=one_model)


def outcome_line(shot: CannonShot) -> str:
    if shot.misfire is not None:
        return misfire_outcome(shot.misfire)
    # the scatter is half the artillery die: said where the channel sees it, beside the die it halves
    start = ("Direct hit on the marker" if shot.scatter.is_hit
             else f"Scattered {inches(shot.scatter_distance)} (half the {shot.artillery.value})")
    if shot.bounce.is_misfire:
        bounce = "no bounce (the ball thuds in)"
    elif shot.stopped_by is not None:
        bounce = f"bounce die {inches(shot.bounce_distance)}"
    else:
        bounce = f"bounced {inches(shot.bounce_distance)}"
    sure = [h for h in shot.hits if not h.conditional]
    if not shot.hits:
        hits = "no models hit"
    else:
        hits = f"{len(sure)} model{'s' * (len(sure) != 1)} hit"
        if len(sure) != len(shot.hits):
            hits += f" (+{len(shot.hits) - len(sure)} if the monster dies)"
    if shot.casualties is not None and sure:
        hits += ", " + pooled_text(shot.unsaved, shot.casualties, shot.target.profile.wounds)
    stop = ""
    if shot.stopped_by is not None:
        h = shot.hits[shot.stopped_by]
        stop = f"; stopped by the {shot.target.troop.name} at R{h.rank} F{h.file}"
    return f"{start}, {bounce}: {hits}{stop}."


def shot_lines(shot: CannonShot) -> list[str]:
    """Where the ball went, for a player with a tape measure."""
    lines = [f"Marker {inches(shot.distance)} straight ahead of the muzzle, over R{shot.aimed_model[0]} F{shot.aimed_model[1]}."]
    if shot.misfire is not None:
        return lines
    if shot.scatter.is_hit:
        lines.append(f"Scatter die HIT: the ball lands on the marker (artillery {shot.artillery.face} ignored).")
    else:
        d = shot.scatter.direction
        lines.append(
            f"Scatter arrow {d}° ({clock_face(d)}): marker moves {inches(shot.scatter_distance)} "
            f"(half the artillery die's {shot.artillery.value})."
        )
    off = shot.landing.x
    side = "on the line of fire" if abs(off) < 0.05 else f"{inches(abs(off))} {'right' if off > 0 else 'left'} of the line of fire"
    lines.append(f"Lands {inches(shot.landing.length())} from the muzzle, {side}; the shot line runs from the barrel through it ({bearing(shot.landing):.0f}°).")
    if shot.bounce.is_misfire:
        lines.append("Bounce die misfire: the ball stops where it lands; only a model under that spot is hit.")
    elif shot.stopped_by is not None:
        h = shot.hits[shot.stopped_by]
        where = "where it lands" if h.travelled == 0 else f"{inches(h.travelled)} past the landing point"
        lines.append(
            f"Bounce die {shot.bounce.value}, but the {shot.target.troop.name} at R{h.rank} F{h.file} survives and stops "
            f"the ball {where}, {inches(shot.rest.length())} from the muzzle."
        )
    else:
        lines.append(f"Bounce {inches(shot.bounce_distance)} on along the shot line; it comes to rest {inches(shot.rest.length())} from the muzzle.")
    return lines


def your_rolls(shot: CannonShot) -> str:
    """What the players roll themselves when no profile was given."""
    s = shot.weapon.strength
    saves = "no armour save is possible" if armour_save_needed(1, s) is None else f"armour saves at -{s - 3}"
    if "multiple-wounds" in shot.immunity:
        return f"No profile given: roll to wound at S{s} ({saves}), then ward saves; each unsaved hit is one wound (Immune to Multiple Wounds)."
    return f"No profile given: roll to wound at S{s} ({saves}), then ward saves, then each unsaved hit's wounds die."


def json_fields(shot: CannonShot) -> dict[str, Any]:
    def point(p):
        return None if p is None else {"x": round(p.x, 3), "y": round(p.y, 3)}

    def hit(h: CannonHit) -> dict[str, Any]:
        w = h.wound
        return {
            "rank": h.rank, "file": h.file, "kind": h.kind.value, "strength": h.strength,
            "wounds": (h.wounds_die.value if h.wounds_die is not None else 1) if w is None else w.wounds,
            "conditional": h.conditional,
            "slain": None if w is None else w.slain,
            "at": point(h.at),
        }

    return {
        "weapon": shot.weapon.key,
        "unit": shot.unit,
        "distance": shot.distance,
        "misfire": misfire_json(shot.misfire),
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
        "unsaved": shot.unsaved,
        "casualties": shot.casualties,
        "dodge": shot.target_rules.dodge,
        "ethereal": shot.target_rules.ethereal,
        "immune": list(shot.immunity),
        "rules": list(shot.applied.rules) if shot.applied is not None else [],
    }


def cannon_reply(shot: CannonShot, image: bytes | None) -> Reply:
    outcome = outcome_line(shot)
    if shot.misfire is not None:
        colour = COLOUR_BAD
    else:
        colour = COLOUR_OK if shot.hits else COLOUR_MISS
    embed = discord.Embed(title=f"{shot.weapon.name}: {inches(shot.distance)} at the target", description=f"**{outcome}**", colour=colour)
    embed.add_field(name="Dice", value=dice_lines(shot.dice), inline=False)
    hit_lines = [hit_text(h, one_model_each(shot.target) or shot.target.troop.monstrous) for h in shot.hits]
    if shot.misfire is not None:
        embed.add_field(name="Misfire", value=misfire_line(shot.misfire), inline=False)
    else:
        embed.add_field(name="Hits", value=clip_lines(hit_lines) or "none", inline=False)
    embed.add_field(name="Shot", value=clip_lines(shot_lines(shot)), inline=False)
    embed.add_field(name="Target", value=target_text(shot.target, "cannon"), inline=False)
    rules = [] if shot.misfire is not None else rules_lines(shot.applied, shot.immunity, shot.target_rules, shot.target.troop)
    if rules:
        embed.add_field(name="Rules applied", value=clip_lines(rules), inline=False)
    if shot.target.profile is None and shot.hits:
        embed.add_field(
            name="Your rolls",
            value=your_rolls(shot),
            inline=False,
        )
    embed.set_footer(text=f"{shot.weapon.source} · {', '.join(shot.weapon.special_rules)}")
    summary = [outcome, dice_summary(shot.dice)]
    summary += [misfire_line(shot.misfire)] if shot.misfire is not None else [f"Hit: {line}" for line in hit_lines]
    summary += shot_lines(shot) + ([f"Rules applied: {'; '.join(rules)}"] if rules else [])
    return Reply(
        embed=embed, image=image, filename=f"{shot.weapon.key}.png", command=f"fire {shot.weapon.key}",
        system=SYSTEM, dice=shot.dice, summary=tuple(summary), fields=json_fields(shot),
        awaits_profile=shot.target.profile is None and bool(shot.hits),
        awaits_chart=shot.misfire is not None and shot.misfire.awaits_roll,
    )
