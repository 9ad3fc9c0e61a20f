"""How Warmaster shooting reads: ``/wm shoot``, ``/wm cannon`` and ``/wm helblaster``.

Pure functions of the engine's records: they word what the record holds and never work a rule
out again. Core rulebook rules are named as core, seed rules by their section.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.common.replies import COLOUR_BAD, COLOUR_MISS, COLOUR_OK, Reply, clip_lines, dice_lines, dice_summary
from engine.warmaster.cannon import CannonShot
from engine.warmaster.helblaster import HelblasterShot
from engine.warmaster.shooting import NEVER_DRIVEN_BACK, AttackResult, Shooting, Side

SYSTEM = "warmaster"
CORE = "Warmaster core rules (hits, armour, drive backs, confusion)"


def cm(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".") + " cm"


def faces(rolled) -> str:
    return " ".join(d.face for d in rolled) or "-"


_IRREGULAR = {"six": "sixes", "die": "dice"}


def plural(n: int, word: str) -> str:
    """`n` and the word, plural unless n is 1: "1 stand", "2 stands", "2 sixes", "3 dice"."""
    if n == 1:
        return f"1 {word}"
    last = word.split()[-1]
    many = _IRREGULAR.get(last, last + "s")
    return f"{n} {word[:len(word) - len(last)]}{many}"


def attack_lines(r: AttackResult) -> list[str]:
    """One unit's attacks, step by step."""
    t = r.target
    counted = r.counts_as.value + ("" if r.counts_as is t.position else f", {t.position.value} counted as {r.counts_as.value}")
    friend = "the shooter's own side, " if t.side is Side.FRIEND else ""  # enemies are the rule, not worth a word
    lines = [f"{t.name} ({friend}{plural(t.stands, 'stand')}, Hits {t.hits}): {plural(r.attacks, 'attack')} needing "
             f"{r.to_hit_needed}+ ({counted}): {faces(r.to_hit)} -> {plural(r.hits, 'hit')}"]
    if r.hits:
        if r.save_needed is None:
            lines.append("  no armour roll")
        else:
            lines.append(f"  armour {r.save_needed}+: {faces(r.saves)} -> {r.saved} saved")
    if r.hits_taken:
        # Hits short of a stand: an engaged or charging unit carries them into the combat round
        # (they count in its result); any other unit has them disregarded at the end of the phase.
        carried = t.engaged or t.charging
        over = "carried into the combat round" if carried else "disregarded at the end of the phase"
        lines.append(f"  {plural(r.hits_taken, 'hit')} taken: {plural(r.stands_lost, 'stand')} lost"
                     + (" (wiped out)" if r.wiped_out else "")
                     + (f", {plural(r.odd_hits, 'hit')} over ({over})" if r.odd_hits else ""))
    if r.wiped_out and t.equipment in NEVER_DRIVEN_BACK and not t.charging:
        lines.append(f"  {NEVER_DRIVEN_BACK[t.equipment]} destroyed by shooting: the unit inside abandons it and fights on")
    d = r.drive_back
    if d is not None:
        extra = f", {d.dice_less} fewer for {t.position.value}" if d.dice_less else ""
        state = []
        if d.confused:
            state.append("confused (a 6)")
        if d.destroyed:
            state.append(f"destroyed: further than its {d.full_pace} cm full pace")
        if d.mantlets_lost:
            state.append(f"its mantlets left behind (further than half its {d.full_pace} cm pace)")
        lines.append(f"  driven back {cm(d.distance)} ({faces(d.dice)}{extra})" + (f": {', '.join(state)}" if state else ""))
    elif r.hits_taken:
        lines.append(f"  no drive back: {r.no_drive_back}")
    return lines


def attack_json(r: AttackResult) -> dict[str, Any]:
    d = r.drive_back
    return {
        "name": r.target.name, "side": r.target.side.value, "attacks": r.attacks, "to_hit": r.to_hit_needed,
        "counts_as": r.counts_as.value, "hits": r.hits, "save": r.save_needed, "saved": r.saved,
        "hits_taken": r.hits_taken, "stands_lost": r.stands_lost, "odd_hits": r.odd_hits, "wiped_out": r.wiped_out,
        "drive_back": None if d is None else {"dice": [x.value for x in d.dice], "distance": d.distance,
                                               "confused": d.confused, "destroyed": d.destroyed},
        "in_tower": r.target.in_tower, "equipment": r.target.equipment, "mantlets_lost": d is not None and d.mantlets_lost,
        "no_drive_back": r.no_drive_back,
        "carried_into_combat": r.hits_taken if (r.target.engaged or r.target.charging) else 0,
    }


def outcome_words(r: AttackResult) -> str:
    text = f"{plural(r.hits_taken, 'hit')} on {r.target.name}"
    if r.stands_lost:
        text += f", {plural(r.stands_lost, 'stand')} lost"
    if r.drive_back is not None:
        text += f", driven back {cm(r.drive_back.distance)}"
        if r.drive_back.destroyed:
            text += " and destroyed"
        elif r.drive_back.confused:
            text += " and confused"
    return text


def _embed(title: str, outcome: str, colour, dice, details: list[str], footer: str) -> discord.Embed:
    embed = discord.Embed(title=title, description=f"**{outcome}**", colour=colour)
    embed.add_field(name="Dice", value=dice_lines(dice), inline=False)
    embed.add_field(name="Attacks", value=clip_lines(details) or "none", inline=False)
    embed.set_footer(text=footer)
    return embed


def shoot_reply(s: Shooting) -> Reply:
    r = s.result
    outcome = outcome_words(r) + "."
    mods = []
    if s.to_hit_bonus:
        mods.append(f"{s.to_hit_bonus:+d} to hit")
    if s.armour_ignored:
        mods.append("no armour roll")
    elif s.armour_worse:
        mods.append(f"armour {s.armour_worse} worse")
    details = attack_lines(r) + ([f"Weapon: {', '.join(mods)}"] if mods else [])
    embed = _embed(f"Shooting: {plural(r.attacks, 'attack')} at {r.target.name}", outcome,
                   COLOUR_OK if r.hits_taken else COLOUR_MISS, s.dice, details, CORE)
    return Reply(embed=embed, image=None, filename="", command="wm shoot", system=SYSTEM, dice=s.dice,
                 summary=(outcome, dice_summary(s.dice), *details), fields={"unit": s.unit, "target": attack_json(r)})


def cannon_reply(shot: CannonShot, image: bytes | None) -> Reply:
    kind = "grapeshot" if shot.grapeshot else "cannon"
    units = "; ".join(outcome_words(u.result) for u in shot.units)
    name = shot.weapon.name.lower()
    verb = "fires" if shot.cannons == 1 else "fire"
    outcome = f"{plural(shot.cannons, name)} {verb}{' grapeshot' if shot.grapeshot else ''}: {units}."
    where = [f"Strikes stand {shot.struck_stand + 1} of {shot.target.placed.unit.name} {cm(shot.distance)} from the closest cannon"
             + ("." if shot.grapeshot else (": the target mans a tower, so no bounce-through and no drive back." if shot.in_tower
                                             else f", leaves it and bounces {cm(shot.weapon.bounce)} on."))]
    for u in shot.units:
        where.append(f"{u.placed.unit.name}: stands {', '.join(str(i + 1) for i in u.through) or '-'} on the path -> {plural(u.attacks, 'attack')}")
    for name in shot.grazed:
        where.append(f"{name}: the path runs along its edge (or over a corner), not through a stand: not hit.")
    details = where + [line for u in shot.units for line in attack_lines(u.result)]
    any_hit = any(u.result.hits_taken for u in shot.units)
    embed = _embed(f"{'Grapeshot' if shot.grapeshot else shot.weapon.name}: {cm(shot.distance)} to {shot.target.placed.unit.name}",
                   outcome, COLOUR_OK if any_hit else COLOUR_MISS, shot.dice, details,
                   f"{shot.weapon.source} · {CORE}")
    fields = {
        "unit": shot.unit, "cannons": shot.cannons, "grapeshot": shot.grapeshot, "in_tower": shot.in_tower, "distance": round(shot.distance, 3),
        "path": {"strike": _xy(shot.strike), "exit": _xy(shot.exit),
                 "end": _xy(shot.end)},
        "units": [{**attack_json(u.result), "stands_on_path": [i + 1 for i in u.through]} for u in shot.units],
        "grazed": list(shot.grazed),
    }
    return Reply(embed=embed, image=image, filename="wm_cannon.png", command=f"wm {kind}" if shot.grapeshot else "wm cannon",
                 system=SYSTEM, dice=shot.dice, summary=(outcome, dice_summary(shot.dice), *details), fields=fields)


def helblaster_reply(shot: HelblasterShot) -> Reply:
    band = f"{cm(shot.range)}: {plural(shot.band_attacks, 'attack')} allowed, {shot.attacks} rolled"
    if shot.exploded:
        outcome = f"The Helblaster explodes! {plural(shot.ones, 'one')} against {plural(shot.sixes, 'six')}: destroyed, no shot."
        details = [band, f"to hit: {faces(shot.dice)}"]
        colour = COLOUR_BAD
    else:
        outcome = outcome_words(shot.result) + "."
        details = [band, f"1s {shot.ones}, 6s {shot.sixes}: no explosion"] + attack_lines(shot.result)
        details.append("Armour counts one worse (6+ none).")
        if shot.result.target.charging:
            outcome = "Stand and shoot: " + outcome[0].lower() + outcome[1:] + " The hits carry into the combat."
        colour = COLOUR_OK if shot.result.hits_taken else COLOUR_MISS
    embed = _embed("Helblaster", outcome, colour, shot.dice, details, f"{shot.weapon.source} · {CORE}")
    return Reply(embed=embed, image=None, filename="", command="wm helblaster", system=SYSTEM, dice=shot.dice,
                 summary=(outcome, dice_summary(shot.dice), *details),
                 fields={"unit": shot.unit, "range": shot.range, "band_attacks": shot.band_attacks, "attacks": shot.attacks,
                         "exploded": shot.exploded, "hits": shot.hits,
                         "target": None if shot.result is None else attack_json(shot.result)})


def _xy(p) -> list[float]:
    """A point for --json, to the tenth of a millimetre (and no -0.0)."""
    return [round(p.x, 3) + 0.0, round(p.y, 3) + 0.0]


def oil_reply(p) -> Reply:
    """``/siege oil``: the chart's row, the attacks and whether the assault failed."""
    r = p.result
    head = f"Boiling oil: D6 {p.roll.value} -> {plural(p.attacks, 'attack')}"
    if p.assault_failed:
        outcome = f"{head}; {plural(r.stands_lost, 'stand')} lost: the assault fails, the unit retreats {p.retreat} cm."
    elif p.attacks:
        outcome = f"{head}; {plural(r.hits_taken, 'hit')} carried into the combat, the assault goes on."
    else:
        outcome = f"{head}: no effect."
    details = [f"Chart: {p.row.effect}"] + (attack_lines(r) if p.attacks else [])
    if p.equipment:
        details.append("Under a sow or siege tower: the equipment's 3+ save, one worse.")
    embed = _embed("Boiling oil and rock droppers", outcome, COLOUR_BAD if p.assault_failed else (COLOUR_OK if r.hits_taken else COLOUR_MISS),
                   p.dice, details, f"{p.chart.source} · {CORE}")
    return Reply(embed=embed, image=None, filename="", command="siege oil", system=SYSTEM, dice=p.dice,
                 summary=(outcome, dice_summary(p.dice), *details),
                 fields={"unit": p.unit, "roll": p.roll.value, "attacks": p.attacks, "hits": r.hits_taken,
                         "stands_lost": r.stands_lost, "assault_failed": p.assault_failed, "retreat": p.retreat,
                         "target": attack_json(r)})


def bone_thrower_reply(shot, image: bytes | None) -> Reply:
    """``/wm bone-thrower``: the stands skewered and each unit's attacks."""
    units = "; ".join(outcome_words(u.result) for u in shot.units)
    outcome = f"The bolt skewers {plural(len(shot.skewered), 'stand')}: {units}."
    if shot.target.placed.unit.charging:
        outcome = "Stand and shoot: " + outcome[0].lower() + outcome[1:] + " The target's hits carry into the combat."
    details = ["Skewered, in order: " + ", ".join(f"{name} stand {i + 1}" for name, i in shot.skewered)]
    if shot.in_tower:
        details.append("The target mans a tower: its stonework stops the bolt in the first stand, and there is no drive back.")
    details += [line for u in shot.units for line in attack_lines(u.result)]
    embed = _embed(f"Bone Thrower: {cm(shot.distance)} to {shot.target.placed.unit.name}", outcome,
                   COLOUR_OK if any(u.result.hits_taken for u in shot.units) else COLOUR_MISS, shot.dice, details,
                   f"{shot.weapon.source} · {CORE}")
    fields = {"unit": shot.unit, "in_tower": shot.in_tower, "distance": round(shot.distance, 3),
              "path": {"strike": _xy(shot.strike), "end": _xy(shot.end)},
              "skewered": [{"unit": n, "stand": i + 1} for n, i in shot.skewered],
              "units": [{**attack_json(u.result), "stands_on_path": [i + 1 for i in u.through]} for u in shot.units]}
    return Reply(embed=embed, image=image, filename="wm_bone_thrower.png", command="wm bone-thrower", system=SYSTEM,
                 dice=shot.dice, summary=(outcome, dice_summary(shot.dice), *details), fields=fields)


def volley_reply(v, command: str, notes: tuple[str, ...] = ()) -> Reply:
    """Machines rolling a fixed number of attacks each (Elven Bolt Thrower, Rock Lobber, tribock, mangonel)."""
    r = v.result
    outcome = f"{plural(v.machines, v.weapon)} at {cm(v.distance)}: {outcome_words(r)}."
    details = attack_lines(r) + list(notes)
    embed = _embed(f"{v.weapon}: {cm(v.distance)}", outcome, COLOUR_OK if r.hits_taken else COLOUR_MISS, v.dice, details,
                   f"{v.source} · {CORE}")
    return Reply(embed=embed, image=None, filename="", command=command, system=SYSTEM, dice=v.dice,
                 summary=(outcome, dice_summary(v.dice), *details),
                 fields={"unit": v.unit, "weapon": v.weapon, "distance": v.distance, "machines": v.machines, "hits": r.hits_taken,
                         "target": attack_json(r)})
