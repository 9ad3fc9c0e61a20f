"""Wording shared by every Warhammer Fantasy reply: lengths, the target, wound rolls, misfires.

Pure functions of engine records; they word what the record holds and never work a rule out again.
"""

from __future__ import annotations

from typing import Any

from engine.fantasy.formation import TargetUnit
from engine.fantasy.misfire import Misfire
from engine.fantasy.psychology import LeadershipTest
from engine.fantasy.shooting import Cover, ToHit
from engine.fantasy.special_rules import ETHEREAL_WARD, MOUNTED
from engine.fantasy.wounding import WoundRoll

SYSTEM = "warhammer-fantasy"


def inches(x: float) -> str:
    """``30"``, ``30.25"``, ``2.1"``: at most two decimals, none when whole."""
    return f"{x:.2f}".rstrip("0").rstrip(".") + '"'


def target_text(t: TargetUnit, machine: str) -> str:
    """``4 ranks x 5 files of infantry (20x20 mm bases), front toward the cannon; T3 W1 no save``."""
    text = (
        f"{t.ranks} rank{'s' * (t.ranks > 1)} x {t.files} file{'s' * (t.files > 1)} of {t.troop.name} "
        f"({t.base_width}x{t.base_depth} mm bases), {t.facing.value} toward the {machine}"
    )
    if t.profile is not None:
        text += f"; {t.profile.describe()}"
    return text


def to_hit_text(*, ballistic_skill: int, to_hit: ToHit, long_range: bool, max_range: float, cover: Cover,
                 modifier: int) -> str:
    """``BS 3 with long range (over 6"), soft cover: needs 6+ to hit``."""
    parts = []
    if long_range:
        parts.append(f"long range (over {inches(max_range / 2)})")
    if cover is not Cover.NONE:
        parts.append(f"{cover.value} cover")
    if modifier:
        parts.append(f"other modifiers {modifier:+d}")
    mods = f" with {', '.join(parts)}" if parts else ""
    return f"BS {ballistic_skill}{mods}: {needs_to_hit(to_hit)}"


def needs_to_hit(to_hit) -> str:
    """``needs 4+ to hit``, ``needs 8+ (a 6, then 5+) to hit`` or ``needs 10+: cannot hit``."""
    return f"needs {to_hit.describe()}" + (" to hit" if to_hit.possible else "")


def wound_text(head: str, w: WoundRoll, *, one_model: bool = True) -> str:
    """One hit's wounding sequence: ``R1 F3 centre: to wound 4 (needs 2+), no armour save, D6 5: ...``.
    With `one_model` the hit is the only one on its model, so it says whether the model is slain;
    hits on a unit (a volley) add up on the unit and say only the wounds."""
    if w.to_wound_needed is None:
        return f"{head}: S{w.strength} cannot wound"
    rolled = f"{w.to_wound.value}, re-rolled {w.reroll.value}" if w.reroll is not None else f"{w.to_wound.value}"
    steps = [f"to wound {rolled} (needs {w.to_wound_needed}+)"]
    if not w.wounded:
        return f"{head}: {steps[0]}, no wound"
    if w.killing_blow:
        steps.append("Killing Blow, no armour save")
    else:
        steps.append(f"armour {w.save.value} (needs {w.save_needed}+)" if w.save is not None else "no armour save")
    if w.ward is not None:
        steps.append(f"ward {w.ward.value} (needs {w.ward_needed}+)")
    if w.saved:
        return f"{head}: {', '.join(steps)}: saved"
    if w.multiple_wounds is not None:
        steps.append(f"{w.multiple_wounds.kind.value} {w.multiple_wounds.value}")
    wounds = f"{w.wounds} wound{'s' * (w.wounds != 1)}"
    if not one_model:
        return f"{head}: {', '.join(steps)}: {wounds}"
    return f"{head}: {', '.join(steps)}: {wounds}, {'slain' if w.slain else 'survives'}"


def leadership_text(test: LeadershipTest) -> str:
    """``Panic test: 2D6 3+5 = 8 against Ld 7 (Flaming Attacks -1 -> 6): failed``."""
    mods = "".join(f", {why} {m:+d}" for why, m in test.modifiers)
    against = f"Ld {test.leadership}{mods}" + (f" = {test.needed}" if test.modifiers else "")
    result = "passed" if test.passed else "failed"
    return f"{test.name}: 2D6 {test.dice[0].value}+{test.dice[1].value} = {test.total} against {against}: {result}"


def leadership_json(test: LeadershipTest | None) -> dict[str, Any] | None:
    if test is None:
        return None
    return {"leadership": test.leadership, "needed": test.needed, "roll": test.total, "passed": test.passed,
            "modifiers": [{"rule": why, "modifier": m} for why, m in test.modifiers]}


AWAITED_CHART = ("your dice ended at the misfire, so the chart roll is yours: run the command again with "
                 "your D6 added at the end of dice:, or press Roll the misfire chart")


def misfire_outcome(m: Misfire) -> str:
    """The one-line outcome of a misfire: nothing is fired."""
    if m.awaits_roll:
        return f"Misfire! Nothing is fired; the {m.chart.name} waits for your D6."
    return f"Misfire! {m.chart.name} rolled {m.roll.value}: {m.row.title.rstrip('!')}. Nothing is fired."


def misfire_line(m: Misfire) -> str:
    """The chart row in full: ``Black Powder Misfire Chart: D6 3 -> Malfunction: ...``."""
    if m.awaits_roll:
        return f"{m.chart.name}: {AWAITED_CHART}."
    return f"{m.chart.name}: D6 {m.roll.value} -> {m.row.title.rstrip('!')}: {m.row.effect}"


def misfire_json(m: Misfire | None) -> dict[str, Any] | None:
    """``null``, or the chart's ``roll`` and ``result``; ``{"roll": null, "result": "awaiting roll"}``
    while the chart waits for the players' D6."""
    if m is None:
        return None
    if m.awaits_roll:
        return {"roll": None, "result": "awaiting roll"}
    return {"roll": m.roll.value, "result": m.row.outcome.value}


def pooled_text(unsaved: int | None, casualties: int | None, wounds_each: int) -> str:
    """The casualties of many hits on one unit: ``3 slain``, or for models of several Wounds
    ``5 unsaved wounds pool on the unit: 2 slain`` (the wounds pool, seed 000:144)."""
    if casualties is None:
        return ""
    if wounds_each == 1 or unsaved is None:
        return f"{casualties} slain"
    text = f"{unsaved} unsaved wound{'s' * (unsaved != 1)} pool{'s' * (unsaved == 1)} on the unit (W{wounds_each}): {casualties} slain"
    rest = unsaved - casualties * wounds_each
    if 0 < rest < wounds_each:  # short of a whole model: they stay on the next one (the unit keeps them)
        text += f", {rest} wound{'s' * (rest != 1)} on a model still standing"
    return text


def one_model_each(target: TargetUnit) -> bool:
    """Whether each hit's line may say its model is slain or survives: only when a model has one
    Wound; with more the wounds pool on the unit and the line gives the wounds alone."""
    return target.profile is None or target.profile.wounds == 1


def ward_lines(applied, target_rules, troop=None) -> list[str]:
    """What the target's ward saves from its rules, Dodge and Ethereal, did against a war machine's
    shot, in words (empty without either): the rules applied against its profile, or, with no
    profile, the ward save the players roll. A war machine's shot is a mundane attack, so Ethereal
    is its 2+ ward (003:101)."""
    if target_rules.dodge is None and not target_rules.ethereal:
        return []
    if applied is not None:
        return [x for x in applied.rules if "Dodge" in x or x.startswith("ward save")]
    lines = []
    if target_rules.dodge is not None:
        if not target_rules.front_arc:
            lines.append(f"Dodge ({target_rules.dodge}+): not used, the machine is outside its front arc")
        elif troop is not None and troop.key in MOUNTED:
            lines.append(f"Dodge ({target_rules.dodge}+): not used, {troop.name} are mounted")
        else:
            lines.append(f"Dodge ({target_rules.dodge}+): a ward save against each wound (the machine is in its front arc)")
    if target_rules.ethereal:
        lines.append(f"Ethereal: a {ETHEREAL_WARD}+ ward save against each wound (a mundane attack; one ward save only, the best)")
    return lines


IMMUNITY_WORDS = {"multiple-wounds": "each unsaved wound is one wound, no wounds die",
                  "armour-piercing": "armour saves worse by Strength alone"}


def immunity_lines(applied, immunity: tuple[str, ...]) -> list[str]:
    """What the target's Immunity took away from a war machine's shot (`immunity`: the shot's rules
    it is Immune to, from the record): the line applied against its profile, or with no profile
    what the players leave out."""
    if not immunity:
        return []
    if applied is not None:
        return [x for x in applied.rules if x.startswith("Immunity (")]
    return [f"Immunity ({rule}): {IMMUNITY_WORDS.get(rule, 'ignored')}" for rule in immunity]


def rules_lines(applied, immunity: tuple[str, ...], target_rules, troop=None) -> list[str]:
    """Each of the target's special rules that changed a war machine's shot, in words: its Immunity,
    then its ward saves (:func:`immunity_lines`, :func:`ward_lines`)."""
    return immunity_lines(applied, immunity) + ward_lines(applied, target_rules, troop)
