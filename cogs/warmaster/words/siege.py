"""How the siege commands read (seed 001, Siege & Fortresses): structure tests and the fortress.

Pure functions of engine records."""

from __future__ import annotations

import discord

from cogs.common.replies import COLOUR_BAD, COLOUR_MISS, COLOUR_OK, Reply, clip_lines, dice_lines, dice_summary
from cogs.warmaster.words.shooting import SYSTEM, faces, plural
from engine.warmaster.structure import Fortress, StructureTest

SOURCE = "Warmaster Siege & Fortresses: Structure tests"


def fall_words(t: StructureTest) -> str:
    """What the fall does: a gateway tower's gate alone leaves the tower standing."""
    if t.gate:
        return "The gate is blown apart; the tower stands and its defenders may still shoot or pour oil."
    return t.structure.on_destroyed


def breach_line(t: StructureTest) -> str | None:
    """What the stands lost in a fallen wall or tower do to their units (seed 001, Breaches): as
    hits from shooting, with a drive back; None when nothing on it is lost (a gate alone)."""
    if not t.destroyed or t.gate or t.structure.key == "gateway":
        return None
    return ("Stands lost with it: each counts as hits on its unit equal to its Hits value, as if from shooting. "
            "The defender picks which stand goes (even one that leaves a section unguarded); the unit rolls a "
            "drive-back die per hit, less its position's dice (fortified: 2 fewer), and goes directly away from the wall.")


def structure_reply(t: StructureTest, section: str | None, image: bytes | None) -> Reply:
    what = f"{t.structure.name}{' gate' if t.gate else ''}" + (f" '{section}'" if section else "")
    if not t.tested:
        outcome = f"{what}: no hits and no Destruction Tokens, so no structure test."
    elif t.destroyed:
        outcome = f"{what} falls! {t.total} against {t.points} structure points. {fall_words(t)}"
    else:
        outcome = (f"{what} holds: {t.total}, needed {t.needed}. "
                   + ("It gains a Destruction Token" if t.token_added else "No token: no hits this round")
                   + f" ({t.tokens_after} now). It tests again at the end of the attacker's next Shooting phase, hit or not.")
    lines = []
    if t.shots:
        lines.append(f"To hit: {plural(t.shots, 'shot')} needing {t.to_hit_needed}+: {faces(t.to_hit)} -> {plural(t.hits, 'hit')}")
    else:
        lines.append(f"Hits this round: {t.hits} (rolled at the table)")
    lines.append(f"Destruction Tokens before: {t.tokens_before}")
    if breach_line(t):
        lines.append(breach_line(t))
    if t.tested:
        lines.append(f"Structure test: {len(t.test_dice)} {'die' if len(t.test_dice) == 1 else 'dice'} ({t.hits} for hits + {t.tokens_before} for tokens): "
                     f"{faces(t.test_dice)} = {t.total}, needs more than {t.points}")
    colour = COLOUR_OK if t.destroyed else (COLOUR_MISS if not t.tested else COLOUR_BAD)
    embed = discord.Embed(title=f"Structure test: {what}", description=f"**{outcome}**", colour=colour)
    embed.add_field(name="Dice", value=dice_lines(t.dice), inline=False)
    embed.add_field(name="Test", value=clip_lines(lines), inline=False)
    if section:
        embed.add_field(name="Siege", value="Tokens are kept for this section in this channel until it falls or "
                                            "`/siege reset`.", inline=False)
    embed.set_footer(text=SOURCE)
    fields = {
        "section": section,
        "structure": {"kind": t.structure.key, "gate": t.gate, "points": t.points, "hits": t.hits, "tokens_before": t.tokens_before,
                      "dice_total": t.total, "tested": t.tested, "destroyed": t.destroyed, "token_added": t.token_added,
                      "tokens_after": t.tokens_after},
    }
    return Reply(embed=embed, image=image, filename="fortress.png" if image else "", command="siege structure", system=SYSTEM,
                 dice=t.dice, summary=(outcome, dice_summary(t.dice), *lines), fields=fields)


def fortress_reply(f: Fortress, image: bytes, command: str = "siege fortress", note: str | None = None) -> Reply:
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


def due_words(b, section: str | None) -> str:
    """How to roll the structure test a failed battering attempt leaves due (seed 001: a building
    with tokens tests at the end of the attacker's Shooting phase, even with no hits)."""
    where = f"section:{section}" if section else f"tokens:{b.tokens_before}"
    gate = " gate:true" if b.gate else ""
    return (f"{plural(b.tokens_before, 'die')} for its tokens, plus one for each hit your artillery scores on it this phase. "
            f"Roll it once the shooting is done with `/siege structure kind:{b.structure.key} {where}{gate} hits:N` "
            "(N = those hits, 0 if none).")


def batter_reply(b, section: str | None, image: bytes | None) -> Reply:
    """``/siege batter``: the defenders' fire, then the ram's hits and the structure test."""
    from cogs.warmaster.words.shooting import attack_lines

    what = f"{b.structure.name}{' gate' if b.gate else ''}" + (f" '{section}'" if section else "")
    who = {"ram": "battering ram", "log-ram": "log rams", "giant": "giant"}[b.batterer.value]
    if b.failed and b.unit_destroyed:
        outcome = (f"The {who} attempt fails: the defenders' fire takes its last stand, "
                   + ("and the giant is dead." if b.batterer.value == "giant" else "and the battering unit is destroyed."))
        if b.test_due:
            outcome += f" {what} still takes its structure test at the end of the Shooting phase: {due_words(b, section)}"
    elif b.failed:
        outcome = (f"The {who} attempt fails: {plural(b.stands_lost, 'stand')} lost to the defenders; "
                   f"the unit retreats {b.retreat} cm.")
        if b.test_due:
            outcome += f" {what} still takes its structure test at the end of the Shooting phase: {due_words(b, section)}"
    elif b.destroyed:
        outcome = (f"{what} collapses under the {who} ({b.test.total} against {b.test.points})! The unit may advance "
                   f"or fall back as if it had destroyed its first enemy. {fall_words(b.test)}")
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
        if breach_line(t):
            lines.append(breach_line(t))
    if b.batterer.value == "giant":
        lines.append("A giant batters only when no troops on the ramparts are in his reach to fight; otherwise he must "
                     "fight them (/siege assault).")
    colour = COLOUR_BAD if b.failed else (COLOUR_OK if b.destroyed else COLOUR_MISS)
    embed = discord.Embed(title=f"Battering: {what}", description=f"**{outcome}**", colour=colour)
    embed.add_field(name="Dice", value=dice_lines(b.dice), inline=False)
    embed.add_field(name="Attempt", value=clip_lines(lines), inline=False)
    embed.set_footer(text="Warmaster Siege & Fortresses: Battering")
    t = b.test
    fields = {
        "section": section, "batterer": b.batterer.value, "failed": b.failed, "retreat": b.retreat, "hits_taken": b.hits_taken,
        "stands_lost": b.stands_lost, "fall_back": b.fall_back, "structure_test_due": b.test_due,
        "unit_destroyed": b.unit_destroyed,
        "structure": None if t is None else {"kind": t.structure.key, "gate": t.gate, "points": t.points, "hits": t.hits,
                                             "tokens_before": t.tokens_before, "dice_total": t.total, "tested": t.tested,
                                             "destroyed": t.destroyed, "token_added": t.token_added, "tokens_after": t.tokens_after},
    }
    return Reply(embed=embed, image=image, filename="fortress.png" if image else "", command="siege batter", system=SYSTEM,
                 dice=b.dice, summary=(outcome, dice_summary(b.dice), *lines), fields=fields)


def _plain(title: str, outcome: str, colour, dice, lines: list[str], footer: str, command: str, fields: dict) -> Reply:
    embed = discord.Embed(title=title, description=f"**{outcome}**", colour=colour)
    if dice:
        embed.add_field(name="Dice", value=dice_lines(dice), inline=False)
    if lines:
        embed.add_field(name="Details", value=clip_lines(lines), inline=False)
    embed.set_footer(text=footer)
    return Reply(embed=embed, image=None, filename="", command=command, system=SYSTEM, dice=tuple(dice),
                 summary=(outcome, *([dice_summary(tuple(dice))] if dice else []), *lines), fields=fields)


def strike_lines(r, by: str) -> list[str]:
    """One unit's attacks in a combat: to hit, armour and the hits it scored. Its stands are taken
    for the whole combat (seed 001: one combat), so no line here says how many a strike alone cost."""
    from cogs.warmaster.words.shooting import attack_lines

    kept = [line for line in attack_lines(r) if not (line.startswith("  ") and ("taken" in line or "drive back" in line))]
    kept[0] = f"{by} strike {kept[0]}"
    return kept + ([f"  {plural(r.hits_taken, 'hit')} taken"] if r.hits_taken else [])


def _combined(d: dict, lost: int, hits: int, of) -> dict:
    """A strike's --json with the stands its target loses in the whole combat (every unit's hits together)."""
    return {**d, "stands_lost": lost, "wiped_out": lost >= of.stands,
            "odd_hits": 0 if lost >= of.stands else hits - lost * of.hits, "stands_lost_in": "the whole combat"}


def siege_tower_words(a) -> str:
    if a.siege_tower == "stays":
        return (f" Thrown back {a.retreat} cm (4 cm or less), they are still in their siege tower and may assault again "
                "next turn.")
    if a.siege_tower == "pushed over":
        return (f" Thrown back {a.retreat} cm, more than 4 cm: the defenders holding the section push the siege tower over "
                "(destroyed).")
    return ""


def assault_reply(a) -> Reply:
    from cogs.warmaster.words.shooting import attack_json

    att, dfn = a.attackers.unit.name, a.defenders.unit.name
    if a.others:
        att = "the attackers"
    flyers = a.attackers.flyers and all(o.fighters.flyers for o in a.others)
    giants = a.attackers.giant and all(o.fighters.giant for o in a.others)
    GIANT_STAYS = "stay at the foot of the wall (a giant clears the ramparts but cannot take or hold them)"
    if a.outcome.value == "failed":
        if a.attackers_destroyed:
            outcome = (f"The assault fails before it starts: {plural(a.shot_hits, 'hit')} from stand and shoot destroy "
                       f"the last stand of {a.attackers.unit.name}.")
        else:
            outcome = (f"The assault fails before it starts: {plural(a.shot_hits, 'hit')} from stand and shoot cost a stand; "
                       f"{att} retreat {a.retreat} cm.") + siege_tower_words(a)
    elif a.outcome.value == "attackers win" and a.defenders_destroyed and not a.defenders_hold and (
            a.defenders_lost >= a.defenders.unit.stands):
        take = ("hold their ground or fall back (flyers never occupy a fortification)" if flyers else
                GIANT_STAYS if giants else "take their place")
        outcome = (f"{att.capitalize()} wipe out {dfn} ({a.attackers_result}:{a.defenders_result}) and {take}"
                   + (" (in a tower: they may advance once into the next defending unit)." if a.kind.value == "tower" else "."))
    elif a.defenders_hold and not a.fight_on:
        outcome = (f"{att.capitalize()} win {a.attackers_result}:{a.defenders_result}, but flyers never occupy a fortification: "
                   f"they stand their ground or fall back, with no second round, and {dfn} stay in the tower (defenders of a "
                   "tower never retreat).")
    elif a.defenders_hold:
        outcome = (f"{att.capitalize()} win {a.attackers_result}:{a.defenders_result}, but {dfn} are never driven out of a tower: "
                   "the fight goes on next round with the defenders defended and the attackers +1 attack a stand.")
        if a.flyers_stop:
            outcome += " Flyers among them fight no second round: they stand their ground or fall back."
    elif a.outcome.value == "attackers win":
        if a.defenders_destroyed:
            end = "are destroyed: they have nowhere to go" if a.kind.value in ("ramparts", "courtyard") else \
                "are destroyed: artillery forced to retreat is lost"
        else:
            end = "retreat off the ramparts (artillery stands forced to retreat are destroyed)"
        take = ("hold their ground or fall back (flyers never occupy a fortification)" if flyers else
                GIANT_STAYS if giants else "take the ramparts")
        outcome = f"{att.capitalize()} win {a.attackers_result}:{a.defenders_result}: {dfn} {end}, and {att} {take}."
        if a.flyers_stop and not flyers:
            outcome += " Flyers among them hold their ground or fall back (they never occupy a fortification)."
    elif a.outcome.value == "draw":
        outcome = f"A draw, {a.attackers_result}:{a.defenders_result}: the fight carries on next combat phase."
    else:
        sides = ((a.attackers.flyers, a.attackers.unit.name, a.attackers_destroyed),
                 *((o.fighters.flyers, o.fighters.unit.name, o.destroyed) for o in a.others))
        flown = [n for f, n, d in sides if d and f]
        wiped = [n for f, n, d in sides if d and not f]
        survivors = [n for f, n, d in sides if not d]
        if a.attackers_destroyed and not a.others and not a.attackers.flyers:
            outcome = f"{dfn.capitalize()} hold {a.defenders_result}:{a.attackers_result}: {att} lose their last stand and are destroyed."
        elif not survivors:  # every attacking unit destroyed: none is left to be thrown back
            outcome = f"{dfn.capitalize()} hold {a.defenders_result}:{a.attackers_result}."
            if flown:
                outcome += f" Flyers that lose a round are destroyed: {', '.join(flown)}."
            if wiped:
                outcome += f" {', '.join(wiped).capitalize()} lose their last stand and are destroyed."
        else:
            back = att if not (flown or wiped) else ", ".join(survivors)
            outcome = f"{dfn.capitalize()} hold {a.defenders_result}:{a.attackers_result}: {back} are thrown back {a.retreat} cm."
            if flown:
                outcome += f" Flyers that lose a round are destroyed: {', '.join(flown)}."
            if wiped:
                outcome += f" {', '.join(wiped).capitalize()} lose their last stand and are destroyed."
            outcome += siege_tower_words(a)
    if a.giant_stays and not giants:
        outcome += " A giant among them stays at the foot of the wall: he clears the ramparts but cannot take or hold them."
    if a.attackers_struck is not None and 0 < a.defenders_lost < a.defenders.unit.stands:
        outcome += (f" {dfn.capitalize()} lose {plural(a.defenders_lost, 'stand')}"
                    + (" to every attacking unit's hits together." if a.others else "."))
    position = {"wall": "fortified", "siege-tower": "in the open", "ramparts": "in the open", "courtyard": "defended",
                "tower": "defended" if a.won_before else "fortified"}[a.kind.value]
    lines = [f"Assault: {a.kind.value}, defenders {position}" + (f"; attackers +{a.attacker_bonus} attack a stand" if a.attacker_bonus else ""),
             f"Stand and shoot / oil hits carried in: {a.shot_hits}"]
    if a.attackers_struck is not None:
        lines += strike_lines(a.attackers_struck, a.attackers.unit.name.capitalize())
        for o in a.others:
            lines += strike_lines(o.struck, o.fighters.unit.name.capitalize())
        lines += strike_lines(a.defenders_struck, dfn.capitalize())
        for o in a.others:
            lines += strike_lines(o.struck_back, dfn.capitalize())
        lines.append(f"One combat: {dfn} take {plural(a.defenders_hits_taken, 'hit')} from every attacking unit together "
                     f"(Hits {a.defenders.unit.hits}): {plural(a.defenders_lost, 'stand')} lost"
                     + (" (wiped out)." if a.defenders_lost >= a.defenders.unit.stands else "."))
    def gone(flyers: bool, destroyed: bool, lost: int, stands: int) -> str:  # flyers that lost: destroyed whatever they lost
        return ", and are destroyed (flyers that lose a round)" if flyers and destroyed and lost < stands else ""

    lines.append(f"{a.attackers.unit.name} lose {plural(a.attackers_lost, 'stand')} in all"
                 + gone(a.attackers.flyers, a.attackers_destroyed, a.attackers_lost, a.attackers.unit.stands) + "."
                 + "".join(f" {o.fighters.unit.name} lose {plural(o.lost, 'stand')}"
                           + gone(o.fighters.flyers, o.destroyed, o.lost, o.fighters.unit.stands) + "." for o in a.others))
    back_hits = (a.defenders_struck.hits_taken if a.defenders_struck is not None else 0) + a.shot_hits

    def on_defenders(r):
        return _combined(attack_json(r), a.defenders_lost, a.defenders_hits_taken, a.defenders.unit)

    fields = {"kind": a.kind.value, "outcome": a.outcome.value, "attackers_result": a.attackers_result,
              "defenders_result": a.defenders_result, "retreat": a.retreat, "defenders_destroyed": a.defenders_destroyed,
              "attackers_lost": a.attackers_lost, "shot_hits": a.shot_hits,
              "attackers_struck": None if a.attackers_struck is None else on_defenders(a.attackers_struck),
              "defenders_struck": None if a.defenders_struck is None else _combined(
                  attack_json(a.defenders_struck), a.attackers_lost, back_hits, a.attackers.unit),
              "defenders_hold": a.defenders_hold, "attackers_destroyed": a.attackers_destroyed,
              "defenders_hits_taken": a.defenders_hits_taken, "defenders_lost": a.defenders_lost,
              "fight_on": a.fight_on, "flyers_stop": a.flyers_stop, "giant_stays": a.giant_stays, "siege_tower": a.siege_tower,
              "others": [{"name": o.fighters.unit.name, "struck": on_defenders(o.struck), "struck_back": attack_json(o.struck_back),
                          "lost": o.lost, "destroyed": o.destroyed} for o in a.others]}
    colour = COLOUR_OK if a.outcome.value == "attackers win" else (COLOUR_MISS if a.outcome.value == "draw" else COLOUR_BAD)
    return _plain(f"Assault: {att} against {dfn}", outcome, colour, a.dice, lines,
                  "Warmaster Siege & Fortresses: Assaults · core rules: charge bonus, combat result", "siege assault", fields)


def dig_reply(d) -> Reply:
    """``/siege dig``: each section's dice and whether a 6 destroyed it."""
    gone = d.destroyed
    outcome = (f"Earthwork section{'s' if len(gone) > 1 else ''} {', '.join(map(str, gone))} destroyed: the way is open."
               if gone else "No 6: every earthwork section holds.")
    lines = [f"Section {s.section}: {plural(s.stands, 'stand')} x {d.attacks_per_stand} = {plural(s.attacks, 'attack')}: "
             f"{faces(s.rolled)} -> " + ("destroyed (a 6)" if s.destroyed else "holds") for s in d.sections]
    lines.append("Infantry only, not in combat at the start of the combat phase; each stand in contact rolls its basic "
                 "attacks (no charge bonus) at the section declared for it.")
    return _plain("Digging out earthworks", outcome, COLOUR_OK if gone else COLOUR_MISS, d.dice, lines,
                  "Warmaster Siege & Fortresses: Earthworks", "siege dig",
                  {"attacks_per_stand": d.attacks_per_stand, "declared": list(d.declared), "sixes": d.hits,
                   "destroyed": list(gone),
                   "sections": [{"section": s.section, "stands": s.stands, "attacks": s.attacks,
                                 "dice": [x.value for x in s.rolled], "destroyed": s.destroyed} for s in d.sections]})


def sally_gate_reply(g) -> Reply:
    state = "open: it takes a successful order to close it, and counts as defended meanwhile" if g.open else "closed behind them"
    outcome = f"Sally gate: {faces(g.dice)} = {g.total} against {g.distance:g} cm to the nearest enemy: {state}."
    return _plain("Sally gate", outcome, COLOUR_BAD if g.open else COLOUR_OK, g.dice, [], "Warmaster Siege & Fortresses: Sally gate",
                  "siege sally-gate", {"unit": g.unit, "distance": g.distance, "total": g.total, "open": g.open})


def scenario_reply(r, what: str) -> Reply:
    event = "the game ends" if r.scenario.key == "into-the-breach" else "the relief force arrives"
    not_event = "the game goes on" if r.scenario.key == "into-the-breach" else "no relief yet"
    outcome = f"{r.scenario.name}, turn {r.turn}: {event if r.happens else not_event} ({r.why})."
    return _plain(r.scenario.name, outcome, COLOUR_OK if r.happens else COLOUR_MISS, r.dice, [], r.scenario.source,
                  "siege scenario", {"scenario": r.scenario.key, "turn": r.turn, "roll": None if r.roll is None else r.roll.value,
                                     "bonus": r.bonus, "needed": r.needed, "happens": r.happens, "question": what})


def army_reply(c) -> Reply:
    side = "defender" if c.defender else "attacker"
    verdict = "within the limit" if c.ok else "over the limit"
    outcome = (f"{c.points}-point {side}: minimum unit limits of a {c.minimum_limits}-point army, maximum limits of a "
               f"{c.maximum_limits}-point army; {c.breaching} of at most {c.breaching_allowed} wall-breaching artillery ({verdict}).")
    lines = ["Wall-breaching: mangonels, bombards, tribocks, cannons, skull-chukkas, rock lobbers, trebuchets, earthshaker cannons."]
    return _plain("Siege army check", outcome, COLOUR_OK if c.ok else COLOUR_BAD, (), lines,
                  "Warmaster Siege & Fortresses: General siege rules, Siege artillery list", "siege army",
                  {"points": c.points, "side": side, "minimum_limits": c.minimum_limits, "maximum_limits": c.maximum_limits,
                   "breaching": c.breaching, "breaching_allowed": c.breaching_allowed, "ok": c.ok})


def list_reply(c) -> Reply:
    """``/siege army list:``: the items' points and every limit the list breaks."""
    side = "defender" if c.defender else "attacker"
    verdict = "within every limit" if c.ok else f"{plural(len(c.problems), 'limit')} broken"
    outcome = (f"{c.points}-point {side}" + (f" ({c.army.title()})" if c.army else "")
               + (f", {c.scenario.name}" if c.scenario else "") + f": siege items cost {c.cost} points"
               + (f", units inside the tower {c.garrison_cost}" if c.garrison else "") + f"; {verdict}.")
    lines = [f"{line.item.name} x{line.count}: " + (f"{line.cost} points ({line.item.cost} each)" if line.item.cost
                                                      else "priced in its army list") for line in c.lines]
    if c.garrison:
        lines.append(f"Inside the watchtower: {', '.join(f'{n} points' for n in c.garrison)}, at {c.scenario.garrison_cost} times: "
                     f"{c.garrison_cost} points")
    lines.append(f"Limits: minimums of a {c.minimum_limits}-point army, maximums of a {c.maximum_limits}-point army; "
                 f"wall-breaching artillery {c.breaching} of at most {c.breaching_allowed}.")
    lines += [f"Broken: {p}" for p in c.problems]
    lines += [f"Note: {n}" for n in c.notes]
    return _plain("Siege army list", outcome, COLOUR_OK if c.ok else COLOUR_BAD, (), lines,
                  "Warmaster Siege & Fortresses: General siege rules, Siege equipment lists", "siege army",
                  {"points": c.points, "side": side, "army": c.army, "cost": c.cost,
                   "items": [{"item": line.item.key, "count": line.count, "cost": line.cost} for line in c.lines],
                   "minimum_limits": c.minimum_limits, "maximum_limits": c.maximum_limits, "breaching": c.breaching,
                   "breaching_allowed": c.breaching_allowed, "problems": list(c.problems), "ok": c.ok,
                   "scenario": c.scenario.key if c.scenario else None, "garrison": list(c.garrison),
                   "garrison_cost": c.garrison_cost, "notes": list(c.notes)})
