"""How the siege commands read (seed 001, Siege & Fortresses): structure tests and the fortress.

Pure functions of engine records."""

from __future__ import annotations

import discord

from cogs.replies import COLOUR_BAD, COLOUR_MISS, COLOUR_OK, Reply, clip_lines, dice_lines, dice_summary
from cogs.warmaster_shooting_reply import SYSTEM, faces, plural
from engine.warmaster.structure import Fortress, StructureTest

SOURCE = "Warmaster Siege & Fortresses: Structure tests"


def structure_reply(t: StructureTest, section: str | None, image: bytes | None) -> Reply:
    what = f"{t.structure.name}{' gate' if t.gate else ''}" + (f" '{section}'" if section else "")
    if not t.tested:
        outcome = f"{what}: no hits and no Destruction Tokens, so no structure test."
    elif t.destroyed:
        outcome = f"{what} falls! {t.total} against {t.points} structure points: destroyed, and any stand on it is lost."
    else:
        outcome = (f"{what} holds: {t.total}, needed {t.needed}. "
                   + ("It gains a Destruction Token" if t.token_added else "No token: no hits this round")
                   + f" ({t.tokens_after} now).")
    lines = []
    if t.shots:
        lines.append(f"To hit: {plural(t.shots, 'shot')} needing {t.to_hit_needed}+: {faces(t.to_hit)} -> {plural(t.hits, 'hit')}")
    else:
        lines.append(f"Hits this round: {t.hits} (rolled at the table)")
    lines.append(f"Destruction Tokens before: {t.tokens_before}")
    if t.tested:
        lines.append(f"Structure test: {len(t.test_dice)} {'die' if len(t.test_dice) == 1 else 'dice'} ({t.hits} for hits + {t.tokens_before} for tokens): "
                     f"{faces(t.test_dice)} = {t.total}, needs more than {t.points}")
    colour = COLOUR_OK if t.destroyed else (COLOUR_MISS if not t.tested else COLOUR_BAD)
    embed = discord.Embed(title=f"Structure test: {what}", description=f"**{outcome}**", colour=colour)
    embed.add_field(name="Dice", value=dice_lines(t.dice), inline=False)
    embed.add_field(name="Test", value=clip_lines(lines), inline=False)
    if section:
        embed.add_field(name="Siege", value="Tokens are kept for this section in this channel until it falls or "
                                            "`/wm siege reset`.", inline=False)
    embed.set_footer(text=SOURCE)
    fields = {
        "section": section,
        "structure": {"kind": t.structure.key, "gate": t.gate, "points": t.points, "hits": t.hits, "tokens_before": t.tokens_before,
                      "dice_total": t.total, "tested": t.tested, "destroyed": t.destroyed, "token_added": t.token_added,
                      "tokens_after": t.tokens_after},
    }
    return Reply(embed=embed, image=image, filename="fortress.png" if image else "", command="wm siege structure", system=SYSTEM,
                 dice=t.dice, summary=(outcome, dice_summary(t.dice), *lines), fields=fields)


def fortress_reply(f: Fortress, image: bytes, command: str = "wm siege fortress", note: str | None = None) -> Reply:
    lines = [f"{s.name}: {s.structure.name}{' gate' if s.gate else ''}, "
             + ("fallen" if s.breached else f"{plural(s.tokens, 'token')}") for s in f.sections]
    outcome = note or f"The siege in this channel: {plural(len(f.sections), 'section')}."
    embed = discord.Embed(title="Siege", description=f"**{outcome}**", colour=COLOUR_MISS)
    embed.add_field(name="Sections", value=clip_lines(lines) or "none yet", inline=False)
    embed.set_footer(text=SOURCE)
    fields = {"sections": [{"section": s.name, "kind": s.structure.key, "gate": s.gate, "tokens": s.tokens, "breached": s.breached}
                           for s in f.sections]}
    return Reply(embed=embed, image=image, filename="fortress.png", command=command, system=SYSTEM, dice=(),
                 summary=(outcome, *lines), fields=fields)


def batter_reply(b, section: str | None, image: bytes | None) -> Reply:
    """``/wm siege batter``: the defenders' fire, then the ram's hits and the structure test."""
    from cogs.warmaster_shooting_reply import attack_lines

    what = f"{b.structure.name}{' gate' if b.gate else ''}" + (f" '{section}'" if section else "")
    who = {"ram": "battering ram", "log-ram": "log rams", "giant": "giant"}[b.batterer.value]
    if b.failed:
        outcome = (f"The {who} attempt fails: {plural(b.stands_lost, 'stand')} lost to the defenders; "
                   f"the unit retreats {b.retreat} cm.")
    elif b.destroyed:
        outcome = (f"{what} collapses under the {who} ({b.test.total} against {b.test.points})! The unit may advance "
                   "or fall back as if it had destroyed its first enemy.")
    else:
        outcome = (f"{what} stands ({b.test.total}, needed {b.test.needed}): it gains a Destruction Token "
                   f"({b.tokens_after} now) and the unit falls back {b.fall_back} cm.")
    lines = []
    if b.shooting is not None:
        lines += ["Stand and shoot:"] + attack_lines(b.shooting)
    if b.oil is not None:
        lines += [f"Boiling oil: D6 {b.oil_roll.value} -> {plural(b.oil.attacks, 'attack')}"] + (attack_lines(b.oil) if b.oil.attacks else [])
    if b.shooting is None and b.oil is None:
        lines.append("The defenders neither shot nor poured oil.")
    else:
        lines.append(f"Together: {plural(b.hits_taken, 'hit')} taken, {plural(b.stands_lost, 'stand')} lost")
    if b.test is not None:
        t = b.test
        lines.append(f"{plural(b.rams, b.batterer.value)}: {plural(t.hits, 'automatic hit')}; structure test "
                     f"{faces(t.test_dice)} = {t.total} ({t.hits} + {t.tokens_before} tokens), needs more than {t.points}")
    colour = COLOUR_BAD if b.failed else (COLOUR_OK if b.destroyed else COLOUR_MISS)
    embed = discord.Embed(title=f"Battering: {what}", description=f"**{outcome}**", colour=colour)
    embed.add_field(name="Dice", value=dice_lines(b.dice), inline=False)
    embed.add_field(name="Attempt", value=clip_lines(lines), inline=False)
    embed.set_footer(text="Warmaster Siege & Fortresses: Battering")
    t = b.test
    fields = {
        "section": section, "batterer": b.batterer.value, "failed": b.failed, "retreat": b.retreat, "hits_taken": b.hits_taken,
        "stands_lost": b.stands_lost, "fall_back": b.fall_back,
        "structure": None if t is None else {"kind": t.structure.key, "gate": t.gate, "points": t.points, "hits": t.hits,
                                             "tokens_before": t.tokens_before, "dice_total": t.total, "tested": t.tested,
                                             "destroyed": t.destroyed, "token_added": t.token_added, "tokens_after": t.tokens_after},
    }
    return Reply(embed=embed, image=image, filename="fortress.png" if image else "", command="wm siege batter", system=SYSTEM,
                 dice=b.dice, summary=(outcome, dice_summary(b.dice), *lines), fields=fields)
