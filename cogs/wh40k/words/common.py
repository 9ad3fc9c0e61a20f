"""Wording shared by every Warhammer 40,000 reply: inches, penetration, damage, wound rolls.

Pure functions of engine records; they word what the record holds and never work a rule out again.
"""

from __future__ import annotations

from typing import Any

from engine.geometry import clock_face
from engine.wh40k.damage import Damage, WoundTest
from engine.wh40k.penetration import HitResult, Penetration, VehicleHit
from engine.wh40k.vehicle import VehicleState

SYSTEM = "wh40k"
SOURCE = "Warhammer 40,000 trial vehicle rules"


def inches(x: float) -> str:
    """``5"``, ``2.5"``: at most two decimals, none when whole."""
    return f"{x:.2f}".rstrip("0").rstrip(".") + '"'


def penetration_text(p: Penetration) -> str:
    """``S9 + D6 4 = 13 against Armour 13: glancing hit``."""
    faces = " ".join(d.face for d in p.dice)
    if len(p.dice) > 1:
        faces = f"{faces} ({p.weapon.read.value} {p.roll})"
    strength = f"S{p.effective_strength}"
    if p.off_centre:
        strength += f" (S{p.strength} halved, hole off the vehicle)"
    verdict = {HitResult.NO_EFFECT: "too low to harm it", HitResult.GLANCING: "glancing hit",
               HitResult.PENETRATING: "penetrating hit"}[p.result]
    dice = "D6" if len(p.dice) == 1 else f"{len(p.dice)}D6"
    text = f"{strength} + {dice} {faces} = {p.total} against Armour {p.armour}: {verdict}"
    if p.obscured_by:
        text += f", counted as glancing ({', '.join(p.obscured_by)})"
    return text


def damage_headline(d: Damage) -> str:
    """``Penetrating Hit table, 5: wreck slews`` with what the fine print made of it."""
    roll = f"{d.die.value}+{d.modifier}={d.roll}" if d.modifier else str(d.roll)
    text = f"{d.table.name} table, {roll}: {d.row.name}"
    if d.counts_as:
        text += f", counts as {d.counts_as}"
    if d.also:
        text += f", and {', '.join(d.also)}"
    return text


def wound_text(t: WoundTest) -> str:
    """``passenger 2: wound 5, save 3 failed`` etc."""
    if not t.wounded:
        return f"{t.who}: {t.wound.value}, unhurt"
    if t.save is None:
        return f"{t.who}: {t.wound.value}, one wound (no save given)"
    return f"{t.who}: {t.wound.value}, wounded; save {t.save.value} {'saved' if t.saved else 'failed: one wound'}"


def damage_lines(d: Damage) -> list[str]:
    """The damage roll in full: the row's effect, the fine print, the wreck, debris, passengers."""
    lines = [damage_headline(d) + ".", d.row.effect]
    lines += list(d.notes)
    if d.wreck_scatter is not None:
        if d.flipped:
            lines.append("Wreck: scatter die HIT, it flips onto its side or roof where it stands.")
        else:
            direction = d.wreck_scatter.direction
            lines.append(f"Wreck slews {inches(d.slew)} toward {direction}° ({clock_face(direction)}) from the line of fire.")
    if d.radius is not None:
        how = f"D6 {d.radius_die.value}" if d.radius_die is not None else "fixed"
        lines.append(f"Explosion reach {inches(d.radius)} from the hull's edge ({how}); vehicles are unharmed.")
        if d.debris:
            unsaved = sum(t.unsaved for t in d.debris)
            lines.append(f"Models in reach: {len(d.debris)}, {unsaved} wound{'s' * (unsaved != 1)} unsaved.")
            lines += [f"  {wound_text(t)}" for t in d.debris]
    p = d.passengers
    if p is not None:
        if p.killed_all:
            lines.append(f"Passengers: all {p.models} killed, no saves of any kind.")
        elif p.tests:
            lines.append(
                f"Passengers: {p.models}, each wounded on a 4+ (saves allowed): {p.unsaved} unsaved; survivors go within "
                "2\" of the wreck and are pinned for their next turn."
            )
            lines += [f"  {wound_text(t)}" for t in p.tests]
        elif p.must_get_out:
            lines.append(f"Passengers: all {p.models} must get out at once.")
    return lines


def _thing(key: str, name: str) -> str:
    """What strikes the armour, as a player says it: ``the shot``, ``the krak grenade``,
    ``the melta bomb``, ``the blow`` (a monstrous creature's)."""
    if key in ("krak", "melta-bomb"):
        return f"the {name.lower()}"
    if key == "monstrous":
        return "the blow"
    return "the shot"


def hit_outcome(hit: VehicleHit) -> str:
    """One line: ``Glancing hit: crew stunned.``"""
    p = hit.penetration
    if hit.damage is None:  # said once (the line under it gives the sum); a grenade or a blow is no "shot"
        return f"{_thing(p.weapon.key, p.weapon.name).capitalize()} bounces off: no effect."
    kind = "Glancing hit" if p.counts_as is HitResult.GLANCING else (
        "Ordnance penetrating hit" if hit.damage.table.key == "ordnance" else "Penetrating hit")
    if p.obscured_by:
        kind = f"Penetrating hit counted as glancing ({', '.join(p.obscured_by)})"
    result = hit.damage.counts_as or hit.damage.result
    extra = f" and {', '.join(hit.damage.also)}" if hit.damage.also else ""
    if hit.damage.landed:
        extra += ", the skimmer lands where it is for the rest of the game"
    return f"{kind}: {result}{extra}."


def penetration_json(p: Penetration) -> dict[str, Any]:
    return {
        "weapon": p.weapon.key, "strength": p.strength, "effective_strength": p.effective_strength,
        "off_centre": p.off_centre, "dice": [d.value for d in p.dice], "roll": p.roll, "total": p.total,
        "armour": p.armour, "result": p.counts_as.value, "by_the_numbers": p.result.value,
        "obscured_by": list(p.obscured_by),
    }


def _wound_json(t: WoundTest) -> dict[str, Any]:
    return {"who": t.who, "distance": t.distance, "wound": t.wound.value, "wounded": t.wounded,
            "save": None if t.save is None else t.save.value, "unsaved": t.unsaved}


def damage_json(d: Damage | None) -> dict[str, Any] | None:
    if d is None:
        return None
    p = d.passengers
    return {
        "table": d.table.key, "die": d.die.value, "modifier": d.modifier, "roll": d.roll, "result": d.row.name,
        "counts_as": d.counts_as, "also": list(d.also), "destroyed": d.destroyed, "notes": list(d.notes),
        "landed": d.landed, "crew_stunned": d.crew_stunned,
        "wreck": None if d.wreck_scatter is None else {
            "flipped": d.flipped, "direction_deg": None if d.flipped else d.wreck_scatter.direction, "distance": d.slew},
        "explosion": None if d.radius is None else {"radius": d.radius, "models": [_wound_json(t) for t in d.debris]},
        "passengers": None if p is None else {
            "models": p.models, "killed_all": p.killed_all, "must_get_out": p.must_get_out, "pinned": p.pinned,
            "unsaved": p.unsaved, "rolls": [_wound_json(t) for t in p.tests]},
    }


def vehicle_json(v: VehicleState | None) -> dict[str, Any] | None:
    """The vehicle's state as the next hit finds it (``after``): what the players note on it."""
    if v is None:
        return None
    return {"immobilised": v.immobilised, "landed": v.immobilised and v.skimmer and not v.skimmer_fast,
            "stunned": v.stunned, "skimmer": v.is_skimmer, "skimmer_fast": v.skimmer_fast, "open_topped": v.open_topped,
            "passengers": v.passengers}


def vehicle_state_text(hit: VehicleHit) -> str:
    v = hit.vehicle
    flags = [name for name, on in (
        ("open-topped", v.open_topped), ("skimmer moving fast", v.skimmer_fast),
        ("skimmer", v.skimmer and not v.skimmer_fast), ("hull down", v.hull_down),
        ("smoke", v.smoke), ("already immobilised", v.immobilised), ("already stunned", v.stunned),
        ("no main weapon left", not v.main_weapons)) if on]
    if v.passengers:
        flags.append(f"{v.passengers} passengers" + (f" ({v.passenger_save}+ save)" if v.passenger_save else ""))
    if v.nearby:
        flags.append(f"{len(v.nearby)} models nearby" + (f" ({v.nearby_save}+ save)" if v.nearby_save else ""))
    return ", ".join(flags) or "no special rules"
