"""How a fire thrower shot reads: the embed, the plain summary and the ``--json`` fields.

A pure function of the engine's :class:`~engine.fantasy.fire_thrower.FireThrowerShot`.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.fantasy.words.common import (
    SYSTEM, inches, leadership_json, leadership_text, misfire_json, misfire_line, misfire_outcome, one_model_each,
    pooled_text, target_text, ward_lines, wound_text,
)
from cogs.common.replies import COLOUR_BAD, COLOUR_MISS, COLOUR_OK, Reply, clip_lines, dice_lines, dice_summary
from engine.fantasy.fire_thrower import FireThrowerShot, FlameHit


def hit_text(hit: FlameHit, one_model: bool = True) -> str:
    head = f"R{hit.rank} F{hit.file}"
    if hit.wound is not None:
        return wound_text(head, hit.wound, one_model=one_model)
    return f"{head}: S{hit.strength}, Flaming Attacks"


NO_EFFECT = "Immune to Flaming Attacks: the flame, not a physical attack, does nothing to them"


def outcome_line(shot: FireThrowerShot) -> str:
    if shot.misfire is not None:
        return misfire_outcome(shot.misfire)
    n = len(shot.hits)
    line = f"The flame goes {inches(shot.moved)} forward: {n} model{'s' * (n != 1)} under the template"
    if shot.no_effect and n:
        line += f"; {NO_EFFECT}"
    elif shot.casualties is not None and n:
        line += ", " + pooled_text(shot.unsaved, shot.casualties, shot.target.profile.wounds)
    return line + "."


def panic_line(shot: FireThrowerShot) -> str | None:
    """Whether the unit takes a Panic test, and the test when it was rolled."""
    if shot.fired and shot.wiped_out:
        return "Every model slain: no one is left to take a Panic test."
    if shot.fired and shot.panic_immunity is not None:
        frenzy = " (as every Frenzied unit is)" if shot.panic_immunity == "Psychology" else ""
        return f"Immune to {shot.panic_immunity}{frenzy}: the unit takes no Panic test."
    if not shot.fired or shot.panic_required is False:
        return None if not shot.fired else "No casualties: no Panic test."
    mods = "".join(f", {why} {m:+d} Ld" for why, m in shot.panic_modifiers)
    if shot.panic is not None:
        return f"{shot.casualties} casualt{'ies' if shot.casualties != 1 else 'y'}: the unit takes a Panic test. {leadership_text(shot.panic)}."
    if shot.panic_required is None:
        return f"If any model is slain, the unit takes a Panic test (2D6 against its Leadership{mods})."
    return f"The unit suffered casualties: it must take a Panic test (2D6 against its Leadership{mods}); give leadership to have the bot roll it."


def shot_lines(shot: FireThrowerShot) -> list[str]:
    """Where the template went, for a player with a tape measure."""
    aimed = f"R{shot.aimed_model[0]} F{shot.aimed_model[1]}"
    where = "touching the barrel" if not shot.start else f"{inches(shot.start)} out from the barrel"
    lines = [f"Template ({inches(shot.length)} teardrop) placed with its narrow end {where}, wide end toward {aimed} "
             f"at {inches(shot.distance)}."]
    if shot.range is not None and shot.range != shot.start:
        lines[0] += f" Range {inches(shot.range)}."
    if shot.fired:
        tip = shot.tip
        lines.append(f"Artillery {shot.artillery.value}: moved straight forward {inches(shot.moved)}; the narrow end now "
                     f"{inches(tip.y)} from the barrel, the wide end {inches(tip.y + shot.length)}.")
    return lines


def json_fields(shot: FireThrowerShot) -> dict[str, Any]:
    def hit(h: FlameHit) -> dict[str, Any]:
        w = h.wound
        return {"rank": h.rank, "file": h.file, "strength": h.strength, "wounds": None if w is None else w.wounds,
                "slain": None if w is None else w.slain}

    r = shot.target_rules

    return {
        "weapon": shot.weapon.key,
        "unit": shot.unit,
        "distance": shot.distance,
        "start": shot.start,
        "range": shot.range,
        "misfire": misfire_json(shot.misfire),
        "moved": shot.moved,
        "template": {"length": shot.length, "narrow": 2 * shot.narrow_radius, "wide": 2 * shot.wide_radius},
        "hits": [hit(h) for h in shot.hits],
        "casualties": shot.casualties,
        "unsaved": shot.unsaved,
        "wiped_out": shot.wiped_out,
        "immune": list(r.immune),
        "dodge": r.dodge,
        "ethereal": r.ethereal,
        "no_effect": shot.no_effect,
        "panic": {
            "required": shot.panic_required,
            "modifiers": [{"rule": why, "modifier": m} for why, m in shot.panic_modifiers],
            "test": leadership_json(shot.panic),
            "immunity": shot.panic_immunity,
        },
        "rules": rules_applied(shot),
    }


def rules_applied(shot: FireThrowerShot) -> list[str]:
    """The special rules the shot met, in words: Flaming Attacks, Flammable, Dodge, Immunities."""
    rules = ["Flaming Attacks"] + (["Flammable: failed wound rolls re-rolled"] if shot.flammable and not shot.no_effect else [])
    if shot.no_effect:
        rules.append(NO_EFFECT)
    if shot.applied is not None:
        rules += [x for x in shot.applied.rules if not x.startswith(("Flaming Attacks against Flammable", "Immunity ("))]
    else:
        rules += ward_lines(None, shot.target_rules, shot.target.troop)
    if shot.panic_immunity is not None:
        rules.append(f"Immunity ({shot.panic_immunity}): no Panic test")
    return rules


def fire_thrower_reply(shot: FireThrowerShot, image: bytes | None) -> Reply:
    outcome = outcome_line(shot)
    colour = COLOUR_BAD if shot.misfire else (COLOUR_OK if shot.hits else COLOUR_MISS)
    embed = discord.Embed(title=f"{shot.weapon.name}: {inches(shot.distance)} at the target", description=f"**{outcome}**",
                          colour=colour)
    embed.add_field(name="Dice", value=dice_lines(shot.dice), inline=False)
    hit_lines = [hit_text(h, one_model_each(shot.target)) for h in shot.hits]
    panic = panic_line(shot)
    if shot.misfire is not None:
        embed.add_field(name="Misfire", value=misfire_line(shot.misfire), inline=False)
    else:
        embed.add_field(name="Hits", value=clip_lines(hit_lines) or "none", inline=False)
        embed.add_field(name="Panic", value=panic, inline=False)
    embed.add_field(name="Shot", value=clip_lines(shot_lines(shot)), inline=False)
    target = target_text(shot.target, "fire thrower") + ("; Flammable" if shot.flammable else "")
    embed.add_field(name="Target", value=target, inline=False)
    rules = ["Flaming Attacks"] + (["Flammable (failed wound rolls re-rolled)"] if shot.flammable and not shot.no_effect else [])
    rules += rules_applied(shot)[1 + (shot.flammable and not shot.no_effect):]
    if shot.panic_modifiers:
        rules.append("Flaming Attacks: Panic test at -1 Ld")
    embed.add_field(name="Rules applied", value="; ".join(rules), inline=False)
    if shot.target.profile is None and shot.hits and not shot.no_effect:
        embed.add_field(name="Your rolls", value=f"No profile given: roll to wound at S{shot.weapon.strength} for each model, with saves.",
                        inline=False)
    t = shot.weapon.template
    embed.set_footer(text=f"{shot.weapon.source} · S{shot.weapon.strength}, {', '.join(shot.weapon.special_rules)} · "
                          f"template: {t.source}")
    summary = [outcome, dice_summary(shot.dice)]
    if shot.misfire is not None:
        summary.append(misfire_line(shot.misfire))
    else:
        summary += [f"Hit: {line}" for line in hit_lines] + [panic]
    summary += shot_lines(shot) + [f"Rules applied: {'; '.join(rules)}"]
    return Reply(
        embed=embed, image=image, filename=f"{shot.weapon.key}.png", command=f"fire {shot.weapon.key}",
        system=SYSTEM, dice=shot.dice, summary=tuple(summary), fields=json_fields(shot),
        awaits_profile=shot.target.profile is None and bool(shot.hits),
        awaits_chart=shot.misfire is not None and shot.misfire.awaits_roll,
    )
