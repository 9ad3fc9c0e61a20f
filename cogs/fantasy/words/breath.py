"""How a Breath Weapon's shooting attack reads: embed, summary, ``--json`` fields.

A pure function of the engine's :class:`~engine.fantasy.breath_weapon.BreathShot`.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.fantasy.words.common import SYSTEM, inches, one_model_each, pooled_text, target_text, wound_text
from cogs.common.replies import COLOUR_MISS, COLOUR_OK, Reply, clip_lines, dice_lines, dice_summary
from engine.fantasy.breath_weapon import BreathShot


def breath_reply(shot: BreathShot) -> Reply:
    if not shot.breathed:
        outcome = f"Out of breath: rolled {shot.out_of_breath.value}, needs 4+. No breath this turn."
    elif shot.no_effect or (shot.applied is not None and shot.applied.no_effect):
        outcome = "The breath does nothing: the target is Immune to it, and a breath is not a physical attack."
    else:
        n = len(shot.hits)
        outcome = f"{n} model{'s' * (n != 1)} under the template, hit at S{shot.strength}"
        if shot.casualties is not None:
            outcome += "; " + pooled_text(shot.unsaved, shot.casualties, shot.target.profile.wounds)
        outcome += "."
    lines = [wound_text(f"R{h.rank} F{h.file}", h.wound, one_model=one_model_each(shot.target)) if h.wound else f"R{h.rank} F{h.file}: S{shot.strength}"
             for h in shot.hits]
    rules = ["Breath Weapon: flame template from the base, automatic hits"]
    rules += list(shot.applied.rules) if shot.applied else []
    if shot.no_effect and shot.applied is None:  # no profile given: the Immunity still undoes the breath
        rules.append(f"Immunity ({', '.join(shot.undone_by)}): the attacks are not physical, "
                     "so they do nothing to it")
    t = shot.template
    where = (f"Template's narrow end touching the breather's base, the wide end toward the target model "
             f"{inches(shot.distance)} away; {t.name} {inches(t.length)} long ({t.source}).")
    embed = discord.Embed(title=f"Breath Weapon: {inches(shot.distance)} to the target", description=f"**{outcome}**",
                          colour=COLOUR_OK if shot.hits else COLOUR_MISS)
    if shot.dice:
        embed.add_field(name="Dice", value=dice_lines(shot.dice), inline=False)
    embed.add_field(name="Hits", value=clip_lines(lines) or "none", inline=False)
    embed.add_field(name="Template", value=where, inline=False)
    embed.add_field(name="Target", value=target_text(shot.target, "breather"), inline=False)
    embed.add_field(name="Rules applied", value=clip_lines(rules), inline=False)
    embed.set_footer(text="Warhammer Fantasy Battles, Special Rules: Breath Weapons")
    summary = [outcome] + ([dice_summary(shot.dice)] if shot.dice else []) + [f"Hit: {x}" for x in lines] + [where,
               f"Rules applied: {'; '.join(rules)}"]
    fields: dict[str, Any] = {
        "distance": shot.distance, "strength": shot.strength, "breathed": shot.breathed,
        "hits": [{"rank": h.rank, "file": h.file, "wounds": None if h.wound is None else h.wound.wounds,
                  "slain": None if h.wound is None else h.wound.slain} for h in shot.hits],
        "casualties": shot.casualties, "unsaved": shot.unsaved, "rules": rules, "no_effect": shot.no_effect,
    }
    return Reply(embed=embed, image=None, filename="", command="breath", system=SYSTEM, dice=shot.dice,
                 summary=tuple(summary), fields=fields)
