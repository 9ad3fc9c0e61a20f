"""How a volley from ``/shoot`` reads: the embed, the plain summary and the ``--json`` fields.

A pure function of the engine's :class:`~engine.fantasy.shooting_sequence.MissileFire`.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.fantasy.words.common import SYSTEM, needs_to_hit, wound_text
from cogs.common.replies import COLOUR_MISS, COLOUR_OK, Reply, clip_lines, dice_lines, dice_summary
from engine.fantasy.shooting_sequence import CREW, MissileFire

SOURCE = "Warhammer Fantasy Battles: Shooting (core rules); War Machines: Shooting at War Machines; Special Rules"


def to_hit_line(fire: MissileFire) -> str:
    parts = []
    if fire.long_range:
        parts.append("long range")
    if fire.cover.value != "none":
        parts.append(f"{fire.cover.value} cover")
    if fire.modifier:
        parts.append(f"other modifiers {fire.modifier:+d}")
    mods = f" with {', '.join(parts)}" if parts else ""
    return f"BS {fire.ballistic_skill}{mods}: {needs_to_hit(fire.to_hit)}"


def outcome_line(fire: MissileFire) -> str:
    v = fire.volley
    line = f"{len(v.shots)} shot{'s' * (len(v.shots) != 1)}, {v.hits} hit{'s' * (v.hits != 1)}, {v.unsaved} unsaved wound{'s' * (v.unsaved != 1)}"
    if fire.crew is not None:
        line += f": {fire.crew_lost} crew lost"
        if fire.shares:
            line += f" ({share_outcomes(fire)})"
        line += ", the war machine is destroyed" if fire.machine_destroyed else f", {fire.crew - fire.crew_lost} left"
    else:
        slain = v.models_slain
        line += f", {slain} model{'s' * (slain != 1)} slain"
    return line + "."


def share_outcomes(fire: MissileFire) -> str:
    """What the hits did to each part of a mixed crew: "1 of 3 crew, the engineer 1 of 2 wounds"."""
    parts = []
    for share in fire.shares:
        if share.model == CREW:
            parts.append(f"{share.lost} of {share.models} crew")
        elif share.lost:
            parts.append(f"the {share.model} slain")
        else:
            parts.append(f"the {share.model} stands, {share.unsaved} of {share.profile.wounds} wound{'s' * (share.profile.wounds != 1)} lost")
    return ", ".join(parts)


def shot_lines(fire: MissileFire) -> list[str]:
    went = {h.shot: h.model for h in fire.allocation}
    lines = []
    for n, s in enumerate(fire.volley.shots, 1):
        if s.hit and n in went and s.wound is None:
            lines.append(f"Shot {n} on the {went[n]}: no effect")
        elif s.hit and s.wound is not None:
            who = f"Shot {n} on the {went[n]}" if n in went else f"Shot {n}"
            lines.append(wound_text(who, s.wound, one_model=False))
    return lines


def target_line(fire: MissileFire) -> str:
    p = fire.profile
    if fire.shares:
        parts = []
        for share in fire.shares:
            q = share.profile
            saves = (f"Sv {q.save}+" if q.save else "no save") + (f", ward {q.ward}+" if q.ward else "")
            parts.append(f"{share.models} crew ({saves}, each wound removes one)" if share.model == CREW
                         else f"{share.model} (W{q.wounds}, {saves}; wounds beyond these are lost)")
        return (f"War machine: its Toughness {p.toughness}; {'; '.join(parts)}; each hit randomised among the "
                f"{fire.crew} crew models, as for characters in a unit")
    if fire.crew is not None:
        save = f"crew save {p.save}+" if p.save else "no crew save"
        return f"War machine: its Toughness {p.toughness}, {save}, {fire.crew} crew (each wound removes one)"
    troop = f"{fire.troop.name}, " if fire.troop is not None else ""
    return f"{troop}{p.describe()}"


def war_machine_fields(fire: MissileFire) -> dict[str, Any]:
    out: dict[str, Any] = {"crew": fire.crew, "crew_lost": fire.crew_lost, "destroyed": fire.machine_destroyed}
    if fire.shares:  # a mixed crew: what each part took, and where each hit went
        out["models"] = [{
            "model": share.model, "models": share.models, "wounds": 1 if share.model == CREW else share.profile.wounds,
            "save": share.profile.save, "ward": share.profile.ward, "shots": list(share.shots),
            "unsaved": share.unsaved, "lost": share.lost,
        } for share in fire.shares]
        out["allocation"] = [{"shot": h.shot, "model": h.model, "die": None if h.die is None else h.die.value}
                             for h in fire.allocation]
    return out


def json_fields(fire: MissileFire) -> dict[str, Any]:
    v = fire.volley

    def shot(n: int, s) -> dict[str, Any]:
        w = s.wound
        return {
            "shot": n, "to_hit": [d.value for d in s.to_hit], "hit": s.hit,
            "wounded": None if w is None else w.wounded,
            "rerolled": None if w is None or w.reroll is None else w.reroll.value,
            "killing_blow": None if w is None else w.killing_blow,
            "saved": None if w is None else w.saved,
            "wounds": None if w is None else w.wounds,
        }

    return {
        "shots": len(v.shots),
        "to_hit": fire.to_hit.needed,
        "strength": fire.strength,
        "hits": v.hits,
        "unsaved": v.unsaved,
        "slain": None if fire.crew is not None else v.models_slain,
        "ward": fire.applied.ward,
        "rules": list(fire.applied.rules),
        "war_machine": None if fire.crew is None else war_machine_fields(fire),
        "results": [shot(n, s) for n, s in enumerate(v.shots, 1)],
    }


def shoot_reply(fire: MissileFire) -> Reply:
    outcome = outcome_line(fire)
    embed = discord.Embed(title=f"Shooting: {len(fire.volley.shots)} shot{'s' * (len(fire.volley.shots) != 1)} at S{fire.strength}",
                          description=f"**{outcome}**", colour=COLOUR_OK if fire.volley.unsaved else COLOUR_MISS)
    embed.add_field(name="Dice", value=dice_lines(fire.dice), inline=False)
    hits = shot_lines(fire)
    embed.add_field(name="Hits", value=clip_lines(hits) or "none", inline=False)
    details = [to_hit_line(fire), f"Target: {target_line(fire)}"]
    embed.add_field(name="Shooting", value="\n".join(details), inline=False)
    rules = list(fire.applied.rules) or ["none"]
    embed.add_field(name="Rules applied", value=clip_lines(rules), inline=False)
    embed.set_footer(text=SOURCE)
    summary = [outcome, dice_summary(fire.dice), *[f"Hit: {h}" for h in hits], *details,
               f"Rules applied: {'; '.join(rules)}"]
    return Reply(embed=embed, image=None, filename="", command="shoot", system=SYSTEM, dice=fire.dice,
                 summary=tuple(summary), fields=json_fields(fire))
