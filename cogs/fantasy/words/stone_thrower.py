"""How a stone thrower shot reads: the embed, the plain summary and the ``--json`` fields.

A pure function of the engine's :class:`~engine.fantasy.stone_thrower.StoneShot`.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.fantasy.words.common import (
    SYSTEM, inches, misfire_json, misfire_line, misfire_outcome, one_model_each, pooled_text, target_text, wound_text,
)
from cogs.common.replies import COLOUR_BAD, COLOUR_MISS, COLOUR_OK, Reply, clip_lines, dice_lines, dice_summary
from engine.fantasy.stone_thrower import StoneShot, TemplateHit, TemplateHitKind
from engine.fantasy.wounding import wounds_a_hit
from engine.geometry import clock_face
from cogs.fantasy.words.common import rules_lines


def hit_text(hit: TemplateHit, one_model: bool = True) -> str:
    """``R1 F3 centre hole: S10, D6 wounds if it wounds`` or the wound rolls."""
    where = "centre hole" if hit.kind is TemplateHitKind.CENTRE else "under the template"
    head = f"R{hit.rank} F{hit.file} {where}"
    if hit.wound is not None:
        return wound_text(head, hit.wound, one_model=one_model)
    return f"{head}: S{hit.strength}, {wounds_a_hit(hit.wounds_die)} if it wounds"


def outcome_line(shot: StoneShot) -> str:
    if shot.misfire is not None:
        return misfire_outcome(shot.misfire)
    if not shot.scatter_distance:
        start = "On target" if shot.scatter.is_hit and not shot.indirect else "Indirect HIT, no scatter"
    else:
        start = f"Scattered {inches(shot.scatter_distance)}"
    centre = [h for h in shot.hits if h.kind is TemplateHitKind.CENTRE]
    others = len(shot.hits) - len(centre)
    parts = []
    if centre:
        parts.append(f"R{centre[0].rank} F{centre[0].file} under the centre hole")
    if others:  # "more" only beside a model under the hole
        parts.append(f"{others} more under the template" if centre else f"{others} under the template, none under the hole")
    hits = ", ".join(parts) if parts else "no models under the template"
    if shot.casualties is not None and shot.hits:
        hits += "; " + pooled_text(shot.unsaved, shot.casualties, shot.target.profile.wounds)
    return f"{start}: {hits}."


def shot_lines(shot: StoneShot) -> list[str]:
    """Where the template went, for a player with a tape measure."""
    aimed = f"R{shot.aimed_model[0]} F{shot.aimed_model[1]}"
    lines = [f"Template centre placed {inches(shot.distance)} straight ahead of the crossbar, over {aimed}."]
    if shot.misfire is not None:
        return lines
    art = shot.artillery.value
    if shot.scatter.is_hit and not shot.indirect:
        lines.append(f"Scatter die HIT: the template stays on target (artillery {art} ignored).")
    elif shot.scatter.is_hit:
        d = shot.scatter.direction  # the small arrow on the die, whether or not the template moved
        moves = f"moves {inches(shot.scatter_distance)}" if shot.scatter_distance else "does not move"
        lines.append(
            f"Indirect fire, scatter die HIT: along the small arrow {d}° ({clock_face(d)}) the template {moves}: "
            f"artillery {art} less BS {shot.ballistic_skill}, never below nothing."
        )
    else:
        d = shot.scatter_direction
        lines.append(f"Scatter arrow {d}° ({clock_face(d)}): the template moves the full artillery {art}, {inches(shot.scatter_distance)}.")
    if shot.centre_choice:
        among = ", ".join(f"R{r} F{f}" for r, f in shot.centre_choice)
        lines.append(f"The centre hole lies over {among}: one picked at random.")
    off = shot.centre.x
    side = "on the line of fire" if abs(off) < 0.005 else f"{inches(abs(off))} {'right' if off > 0 else 'left'} of the line of fire"
    lines.append(f"Centre comes down {inches(shot.centre.y)} ahead of the crossbar, {side}.")
    return lines


def json_fields(shot: StoneShot) -> dict[str, Any]:
    def hit(h: TemplateHit) -> dict[str, Any]:
        w = h.wound
        if w is not None:
            wounds: Any = w.wounds
        else:
            wounds = h.wounds_die.value if h.wounds_die else 1
        return {"rank": h.rank, "file": h.file, "kind": h.kind.value, "strength": h.strength, "wounds": wounds,
                "slain": None if w is None else w.slain}

    return {
        "weapon": shot.weapon.key,
        "unit": shot.unit,
        "distance": shot.distance,
        "indirect": shot.indirect,
        "misfire": misfire_json(shot.misfire),
        "scatter": None if shot.misfire else {
            "hit": shot.scatter.is_hit, "direction_deg": shot.scatter_direction, "distance": shot.scatter_distance,
        },
        "centre": None if shot.centre is None else {"x": round(shot.centre.x, 3), "y": round(shot.centre.y, 3)},
        "centre_choice": [{"rank": r, "file": f} for r, f in shot.centre_choice],
        "hits": [hit(h) for h in shot.hits],
        "unsaved": shot.unsaved,
        "casualties": shot.casualties,
        "dodge": shot.target_rules.dodge,
        "ethereal": shot.target_rules.ethereal,
        "immune": list(shot.immunity),
        "rules": list(shot.applied.rules) if shot.applied is not None else [],
    }


def stone_thrower_reply(shot: StoneShot, image: bytes | None) -> Reply:
    outcome = outcome_line(shot)
    colour = COLOUR_BAD if shot.misfire else (COLOUR_OK if shot.hits else COLOUR_MISS)
    title = f"{shot.weapon.name}{' (indirect)' if shot.indirect else ''}: {inches(shot.distance)} at the target"
    embed = discord.Embed(title=title, description=f"**{outcome}**", colour=colour)
    embed.add_field(name="Dice", value=dice_lines(shot.dice), inline=False)
    hit_lines = [hit_text(h, one_model_each(shot.target)) for h in shot.hits]
    if shot.misfire is not None:
        embed.add_field(name="Misfire", value=misfire_line(shot.misfire), inline=False)
    else:
        embed.add_field(name="Hits", value=clip_lines(hit_lines) or "none", inline=False)
    embed.add_field(name="Shot", value=clip_lines(shot_lines(shot)), inline=False)
    embed.add_field(name="Target", value=target_text(shot.target, "stone thrower"), inline=False)
    rules = [] if shot.misfire is not None else rules_lines(shot.applied, shot.immunity, shot.target_rules, shot.target.troop)
    if rules:
        embed.add_field(name="Rules applied", value=clip_lines(rules), inline=False)
    if shot.target.profile is None and shot.hits:
        w = shot.weapon
        embed.add_field(
            name="Your rolls",
            value=(f"No profile given: roll to wound at S{w.centre_strength} for the centre hole (then its "
                   f"{'1 wound: Immune to Multiple Wounds' if 'multiple-wounds' in shot.immunity else w.centre_wounds.value + ' wounds'}) "
                   f"and at S{w.strength} for the rest, with saves."),
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
