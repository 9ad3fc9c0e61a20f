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
