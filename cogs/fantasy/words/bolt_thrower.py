"""How a bolt thrower shot reads: the embed, the plain summary and the ``--json`` fields.

A pure function of the engine's :class:`~engine.fantasy.bolt_thrower.BoltShot`.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.fantasy.words.common import SYSTEM, inches, rules_lines, to_hit_text, target_text, wound_text
from cogs.common.replies import COLOUR_MISS, COLOUR_OK, Reply, clip_lines, dice_lines, dice_summary
from engine.dice import DieKind
from engine.fantasy.bolt_thrower import BoltHit, BoltShot
from engine.fantasy.wounding import wounds_a_hit


def to_hit_line(shot: BoltShot) -> str:
    line = to_hit_text(ballistic_skill=shot.ballistic_skill, to_hit=shot.to_hit, long_range=shot.long_range,
                       max_range=shot.weapon.range, cover=shot.cover, modifier=shot.modifier)
    rolled = " then ".join(d.face for d in shot.to_hit_dice) or "no roll"
    return f"{line}; rolled {rolled}"


def hit_text(hit: BoltHit, wounds_die: DieKind | None = DieKind.D3) -> str:
    """``R1 F3 at S6: D3 wounds if it wounds`` (one wound on a target Immune to Multiple Wounds)."""
    head = f"R{hit.rank} F{hit.file} at S{hit.strength}"
    if hit.wound is not None:
        return wound_text(head, hit.wound)
    line = f"{head}: {wounds_a_hit(wounds_die)} if it wounds"
    return line + (" (only if every model before it is slain)" if hit.conditional else "")


def outcome_line(shot: BoltShot) -> str:
    if not shot.hit:
        return "Missed: the bolt lands harmlessly away from the target."
    sure = [h for h in shot.hits if not h.conditional]
    line = f"Hit: the bolt strikes R{shot.hits[0].rank} F{shot.hits[0].file}"
    if shot.target.profile is not None:
        slain = sum(1 for h in shot.hits if h.wound.slain)
        line += f" and goes through {len(shot.hits)} model{'s' * (len(shot.hits) != 1)}, {slain} slain"
    elif len(shot.hits) > len(sure):
        line += f"; each model it slays lets it on into the next rank ({len(shot.hits) - 1} more possible)"
    return line + "."


def json_fields(shot: BoltShot) -> dict[str, Any]:
    def hit(h: BoltHit) -> dict[str, Any]:
        w = h.wound
        return {"rank": h.rank, "file": h.file, "strength": h.strength,
                "wounds": (shot.wounds_die.value if shot.wounds_die is not None else 1) if w is None else w.wounds,
                "slain": None if w is None else w.slain, "conditional": h.conditional}

    return {
        "weapon": shot.weapon.key,
        "unit": shot.unit,
        "distance": shot.distance,
        "to_hit": shot.to_hit.needed,
        "hit": shot.hit,
        "ranked": shot.ranked,
        "hits": [hit(h) for h in shot.hits],
        "unsaved": None if shot.target.profile is None else sum(h.wound.wounds for h in shot.hits),
        "ethereal": shot.target_rules.ethereal,
        "immune": list(shot.immunity),
        "rules": list(shot.applied.rules) if shot.applied is not None else [],
    }


def bolt_thrower_reply(shot: BoltShot, image: bytes | None) -> Reply:
    outcome = outcome_line(shot)
    embed = discord.Embed(title=f"Bolt Thrower: {inches(shot.distance)} at the target", description=f"**{outcome}**",
                          colour=COLOUR_OK if shot.hit else COLOUR_MISS)
    embed.add_field(name="Dice", value=dice_lines(shot.dice), inline=False)
    hit_lines = [hit_text(h, shot.wounds_die) for h in shot.hits]
    if shot.hit:
        embed.add_field(name="Through the ranks", value=clip_lines(hit_lines), inline=False)
    details = [to_hit_line(shot)]
    if shot.hit and not shot.ranked:
        if shot.pick:
            picked = ", ".join(d.face for d in shot.pick)
            details.append(f"Fewer than {shot.weapon.ranked_target} models: the model in the rank was picked at random (D6 {picked}).")
        else:
            details.append(f"Fewer than {shot.weapon.ranked_target} models: one model in the rank, so it is the one hit (no die needed).")
    embed.add_field(name="Shooting", value="\n".join(details), inline=False)
    embed.add_field(name="Target", value=target_text(shot.target, "bolt thrower"), inline=False)
    rules = rules_lines(shot.applied, shot.immunity, shot.target_rules, shot.target.troop) if shot.hit else []
    if rules:
        embed.add_field(name="Rules applied", value=clip_lines(rules), inline=False)
    embed.set_footer(text=f"{shot.weapon.source} · S{shot.weapon.strength}, {', '.join(shot.weapon.special_rules)}")
    summary = [outcome, dice_summary(shot.dice)] + [f"Hit: {line}" for line in hit_lines] + details
    summary += [f"Rules applied: {'; '.join(rules)}"] if rules else []
    return Reply(
        embed=embed, image=image, filename=f"{shot.weapon.key}.png", command=f"fire {shot.weapon.key}",
        system=SYSTEM, dice=shot.dice, summary=tuple(summary), fields=json_fields(shot),
        awaits_profile=shot.target.profile is None and shot.hit,
    )
