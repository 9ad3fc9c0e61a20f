"""How ``/combat`` answers read: the embed, the plain summary and the ``--json`` fields.

Pure functions of the records of engine/fantasy/close_combat.py.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.fantasy.words.common import SYSTEM, leadership_json, leadership_text, wound_text
from cogs.common.replies import COLOUR_MISS, COLOUR_OK, Reply, clip_lines, dice_lines, dice_summary
from engine.fantasy.close_combat import AutomaticHits, CombatAttacks, CombatResult, Restraint, StrikeOrder, WarMachinePanic

SOURCE = "Warhammer Fantasy Battles: Special Rules; War Machines in Close Combat; core rules (WS chart, combat result)"


def _reply(command: str, title: str, outcome: str, fields: dict[str, Any], *, dice=(), sections=(), ok=True) -> Reply:
    embed = discord.Embed(title=title, description=f"**{outcome}**", colour=COLOUR_OK if ok else COLOUR_MISS)
    if dice:
        embed.add_field(name="Dice", value=dice_lines(dice), inline=False)
    summary = [outcome] + ([dice_summary(dice)] if dice else [])
    for name, lines in sections:
        embed.add_field(name=name, value=clip_lines(list(lines)) or "none", inline=False)
        summary += [f"{name}: {line}" for line in lines]
    embed.set_footer(text=SOURCE)
    return Reply(embed=embed, image=None, filename="", command=command, system=SYSTEM, dice=tuple(dice),
                 summary=tuple(summary), fields=fields)


def strike_order_reply(order: StrikeOrder) -> Reply:
    outcome = ("Both strike at the same time" if order.first is None else f"The {order.first} strikes first") + f": {order.reason}."
    fields = {"first": order.first, "reason": order.reason, "attacker_reroll": order.attacker_reroll.value,
              "defender_reroll": order.defender_reroll.value, "rules": list(order.notes)}
    return _reply("combat strike-order", "Strike order", outcome, fields, sections=[("Rules applied", order.notes or ("none",))])


def attacks_reply(r: CombatAttacks, order: StrikeOrder | None) -> Reply:
    outcome = f"{r.attacks} attack{'s' * (r.attacks != 1)}, {r.hits} hit{'s' * (r.hits != 1)} ({r.to_hit}+), {r.unsaved} unsaved wound{'s' * (r.unsaved != 1)}, {r.slain} slain."
    hits = [n for n, b in enumerate(r.blows, 1) if b.hit]
    lines = [wound_text(f"Attack {n}", w, one_model=False) for n, w in zip(hits, r.wounds)]
    rules = list(r.rules) or ["none"]
    sections = [("Wounds", lines), ("Rules applied", rules)]
    if order is not None:
        sections.insert(0, ("Strike order", [("both at once" if order.first is None else f"{order.first} first") + f": {order.reason}"]))
    fields = {
        "attacks": r.attacks, "to_hit": r.to_hit, "reroll": r.reroll.value, "hits": r.hits, "unsaved": r.unsaved,
        "slain": r.slain, "rules": rules,
        "strike_order": None if order is None else {"first": order.first, "reason": order.reason},
        "results": [{"attack": n, "to_hit": [d.value for d in (b.roll, b.reroll) if d is not None], "hit": b.hit}
                    for n, b in enumerate(r.blows, 1)],
    }
    return _reply("combat attacks", "Close combat attacks", outcome, fields, dice=r.dice, sections=sections, ok=bool(r.unsaved))


def automatic_reply(r: AutomaticHits, command: str) -> Reply:
    outcome = f"{r.kind}: {r.hits} hit{'s' * (r.hits != 1)}, {r.unsaved} unsaved wound{'s' * (r.unsaved != 1)}, {r.slain} slain."
    if r.out_of_breath is not None and r.out_of_breath.value < 4:  # the reason is the answer, not "0 hits"
        outcome = (f"{r.kind}: out of breath (rolled {r.out_of_breath.value}, needs 4+): no breath this round; "
                   "the model may attack normally instead.")
    elif r.no_effect:
        outcome = (f"{r.kind}: {r.rolled_hits} hit{'s' * (r.rolled_hits != 1)}, and they do nothing: the target is Immune "
                   "to it, and a breath is not a physical attack.")
    lines = [wound_text(f"Hit {n}", w, one_model=False) for n, w in enumerate(r.wounds, 1)]
    fields = {"kind": r.kind, "rolled_hits": r.rolled_hits, "hits": r.hits, "unsaved": r.unsaved, "slain": r.slain,
              "out_of_breath": None if r.out_of_breath is None else r.out_of_breath.value < 4, "rules": list(r.rules),
              "no_effect": r.no_effect}
    return _reply(command, r.kind, outcome, fields, dice=r.dice, sections=[("Wounds", lines), ("Rules applied", r.rules)],
                  ok=bool(r.unsaved))


def result_reply(r: CombatResult) -> Reply:
    outcome = f"Combat result {r.scores[0]} to {r.scores[1]}. {r.outcome}"
    sections = [(side.capitalize(), [f"{what} +{v}" if v >= 0 else f"{what} {v}" for what, v in parts])
                for side, parts in zip(("attacker", "defender"), r.parts)]
    if r.break_test is not None:
        sections.append(("Break test", [leadership_text(r.break_test)]))
    fields = {"scores": list(r.scores), "winner": r.winner, "outcome": r.outcome, "break_test": leadership_json(r.break_test),
              "parts": [[{"what": what, "score": v} for what, v in parts] for parts in r.parts]}
    return _reply("combat result", "Combat result", outcome, fields, dice=r.dice, sections=sections)


def war_machine_reply(party: int | None, models: int | None, unit_strength: int | None, panic: WarMachinePanic | None) -> Reply:
    lines = []
    if party is not None:
        lines.append(f"Assault party: {party} of {models} models (Unit Strength {unit_strength} each; up to 6 in all, never fewer than one).")
    lines += [
        "Chargers lose all charge bonuses, those of special rules included.",
        "The crew fight with their own WS, Strength, Initiative and Attacks; attacks on them use the crew's majority Toughness and their save.",
        "The combat result ignores flanks and rear; a winning machine never pursues; a beaten one that fails its Break test is destroyed.",
    ]
    dice = ()
    if panic is not None:
        lines.append(f"{leadership_text(panic.test)}. {panic.outcome}")
        dice = panic.dice
    outcome = lines[0]
    fields = {"assault_party": party, "panic": None if panic is None else {**leadership_json(panic.test), "outcome": panic.outcome}}
    return _reply("combat war-machine", "War machine in close combat", outcome, fields, dice=dice, sections=[("Rules", lines[1:])])


def pursuit_reply(r: Restraint) -> Reply:
    """``/combat pursuit``: whether the winners hold back from pursuing."""
    outcome = ("They hold back: no pursuit." if r.restrained else "They cannot hold back: they must pursue.")
    lines = [leadership_text(r.test)] + ([leadership_text(r.reroll)] if r.reroll is not None else [])
    fields = {"restrained": r.restrained, "test": leadership_json(r.test), "reroll": leadership_json(r.reroll),
              "rules": list(r.rules)}
    return _reply("combat pursuit", "Restraining pursuit", outcome, fields, dice=r.dice,
                  sections=[("Test", lines), ("Rules applied", r.rules or ("none",))], ok=r.restrained)
