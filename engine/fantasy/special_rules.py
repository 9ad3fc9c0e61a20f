"""Special rules (Warhammer Fantasy, Special Rules, seed 003) that change the rolls of an attack:
what the attacks carry (:class:`AttackRules`), what the target has (:class:`TargetRules`), and
how they combine into the wounding sequence's options, with the rules applied named for the reply.

* Armour Piercing (n): armour saves n worse, on top of Strength.
* Multiple Wounds (X): each unsaved wound becomes X wounds, never more than the model has.
* Ignores Armour Saves: no armour save; ward saves as normal.
* Flaming Attacks against a Flammable model: failed wound rolls are re-rolled.
* Killing Blow: a 6 to wound slays Infantry, Cavalry and War Beasts outright (no armour save,
  ward saves as normal); against other troop types it is one wound with no armour save.
* Dodge (n): a ward save of n+ against attacks in the model's front arc only, not against attacks with Always Strikes First, nor magical
  attacks that hit automatically, nor for a model subject to Always Strikes Last, nor for a
  mounted model; Dodge from several sources adds up (each source one better).
* Ethereal: a 2+ ward save against mundane attacks, 5+ against Magical Attacks.

A model takes one ward save: the best it has (core rules).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.dice import DieKind
from engine.errors import RulesError
from engine.fantasy.profiles import TroopType
from engine.fantasy.wounding import Profile

KILLING_BLOW_SLAYS = ("infantry", "cavalry", "war-beast")
"""Troop types a Killing Blow slays outright (Special Rules: Killing Blow)."""
MOUNTED = ("cavalry", "monstrous-cavalry", "chariot")
"""Mounted troop types, which cannot Dodge unless their rules say so."""
ETHEREAL_WARD, ETHEREAL_MAGIC_WARD = 2, 5
MAX_AP = 6
IMMUNITIES = ("flaming", "killing-blow", "multiple-wounds", "armour-piercing")
"""The rules an Immunity (...) may name that the bot's attacks carry."""
PANIC_IMMUNITIES = ("panic", "psychology")
"""Immunities that spare a unit its Panic test (003:248-250): Immunity (Panic), or Immunity
(Psychology), which every Frenzied unit has (003:190)."""


@dataclass(frozen=True, slots=True)
class AttackRules:
    """The special rules the attacks carry."""

    armour_piercing: int = 0
    multiple_wounds: DieKind | None = None
    ignores_armour: bool = False
    flaming: bool = False
    killing_blow: bool = False
    magical: bool = False
    always_strikes_first: bool = False
    automatic: bool = False
    """The attacks hit automatically (templates, Impact Hits, breath weapons)."""
    physical: bool = True
    """False for attacks that are not physical (breath weapons): against a model Immune to one
    of their rules they do nothing at all."""

    def __post_init__(self) -> None:
        if isinstance(self.armour_piercing, bool) or not 0 <= self.armour_piercing <= MAX_AP:
            raise RulesError(f"Armour Piercing ({self.armour_piercing}) is not possible here: give 0 to {MAX_AP}.")
        if self.multiple_wounds not in (None, DieKind.D3, DieKind.D6):
            raise RulesError(f"Multiple Wounds ({self.multiple_wounds}) is not a die we roll: give D3 or D6.")


@dataclass(frozen=True, slots=True)
class TargetRules:
    """The special rules of the models attacked."""

    flammable: bool = False
    dodge: int | None = None
    """Dodge (n): a ward save of n+."""
    ethereal: bool = False
    always_strikes_last: bool = False
    """Subject to Always Strikes Last (it cannot Dodge then)."""
    front_arc: bool = True
    """The attacks come from within the models' front arc (Dodge works against no others)."""
    immune: tuple[str, ...] = ()
    """Immunity (...): the rules it ignores, of "flaming", "killing-blow", "multiple-wounds",
    "armour-piercing", and "panic" or "psychology" (no Panic test)."""

    def seen_from(self, front: bool) -> TargetRules:
        """These rules against an attack that comes from the unit's front (`front`) or from elsewhere:
        Dodge works only against attacks within the models' front arc (003:94)."""
        return self if front or not self.front_arc else replace(self, front_arc=False)

    def __post_init__(self) -> None:
        if self.dodge is not None and (isinstance(self.dodge, bool) or not 2 <= self.dodge <= 6):
            raise RulesError(f"Dodge ({self.dodge}+) is not possible: give 2 to 6.")
        bad = [r for r in self.immune if r not in IMMUNITIES + PANIC_IMMUNITIES]
        if bad:
            raise RulesError(f"Immunity ({', '.join(bad)}) is not one the bot applies: give "
                             f"{', '.join(IMMUNITIES + PANIC_IMMUNITIES)}.")


def immune_to_panic(target: TargetRules) -> str | None:
    """The Immunity that spares the unit a Panic test ("Panic" or "Psychology"), or None (003:248-250)."""
    for rule in PANIC_IMMUNITIES:
        if rule in target.immune:
            return rule.capitalize()
    return None



@dataclass(frozen=True, slots=True)
class Applied:
    """What the special rules come to for one attack on one target."""

    armour_piercing: int
    multiple_wounds: DieKind | None
    reroll_failed_wounds: bool
    ignores_armour: bool
    killing_blow: bool
    killing_blow_slays: bool
    ward: int | None
    """The ward save the target takes: the best of its own, Dodge and Ethereal."""
    rules: tuple[str, ...]
    """Each special rule applied, and each one that did not apply and why, in words."""
    no_effect: bool = False
    """Attacks that are not physical against a model Immune to one of their rules: nothing."""


def immune_rules(attack: AttackRules, target: TargetRules) -> list[str]:
    """The rules of `attack` the target is Immune to (Special Rules: Immunity); against an attack
    that is not physical any one of them means the attack does nothing, profile or none."""
    carried = {"panic": False, "psychology": False, "flaming": attack.flaming, "killing-blow": attack.killing_blow,
               "multiple-wounds": attack.multiple_wounds is not None, "armour-piercing": bool(attack.armour_piercing)}
    return [r for r in target.immune if carried.get(r, False)]


def multiplied(attack: AttackRules, target: TargetRules, immunity: Sequence[str] | None = None) -> bool:
    """Whether the attack's Multiple Wounds multiply its unsaved wounds on this target: not when
    the target is Immune to Multiple Wounds (each unsaved wound is then one wound, 003:246).
    `immunity`: :func:`immune_rules` of the two, when the caller has it already."""
    if immunity is None:
        immunity = immune_rules(attack, target)
    return attack.multiple_wounds is not None and "multiple-wounds" not in immunity


def apply_rules(attack: AttackRules, target: TargetRules, profile: Profile, troop: TroopType | None, *,
                multiple_wounds: str | None = None) -> Applied:
    """The wounding sequence's options for `attack` on a model with `profile` and `target`'s rules.
    `multiple_wounds`: how the attack's Multiple Wounds read when its one die does not say it all
    ("D6 direct, D3 bounce" for a cannon)."""
    rules: list[str] = []
    # Immunity: the model ignores the rules named; attacks that are not physical and carry one of
    # them do nothing at all (Special Rules: Immunity).
    ignored = immune_rules(attack, target)
    if ignored and not attack.physical:
        why = ", ".join(ignored)
        return Applied(0, None, False, False, False, False, None,
                       (f"Immunity ({why}): the attacks are not physical, so they do nothing to it",), no_effect=True)
    if ignored:
        one = " (each unsaved wound is one wound)" if "multiple-wounds" in ignored else ""
        rules.append(f"Immunity ({', '.join(ignored)}): those rules are ignored; the attacks still hurt as normal{one}")
        attack = replace(attack, flaming=attack.flaming and "flaming" not in ignored,
                         killing_blow=attack.killing_blow and "killing-blow" not in ignored,
                         multiple_wounds=None if "multiple-wounds" in ignored else attack.multiple_wounds,
                         armour_piercing=0 if "armour-piercing" in ignored else attack.armour_piercing)
    if attack.armour_piercing:
        rules.append(f"Armour Piercing ({attack.armour_piercing}): armour saves {attack.armour_piercing} worse")
    if attack.multiple_wounds is not None:
        rules.append(f"Multiple Wounds ({multiple_wounds or attack.multiple_wounds.value})")
    if attack.ignores_armour:
        rules.append("Ignores Armour Saves: no armour save")
    reroll = attack.flaming and target.flammable
    if reroll:
        rules.append("Flaming Attacks against Flammable: failed wound rolls re-rolled")
    elif target.flammable:
        rules.append("Flammable: no effect (the attacks are not Flaming)")
    slays = troop is None or troop.key in KILLING_BLOW_SLAYS
    if attack.killing_blow:
        if troop is None:
            rules.append("Killing Blow: a 6 to wound slays outright (give troop if the target is not infantry, cavalry or war beasts)")
        elif slays:
            rules.append(f"Killing Blow: a 6 to wound slays {troop.name} outright, no armour save")
        else:
            rules.append(f"Killing Blow: against {troop.name} a 6 to wound is one wound with no armour save")

    wards: list[tuple[int, str]] = []
    if profile.ward is not None:
        wards.append((profile.ward, f"its own ward {profile.ward}+"))
    if target.dodge is not None:
        why_not = (
            "the attacks come from outside its front arc" if not target.front_arc else
            "the attacks Always Strike First" if attack.always_strikes_first else
            "the target is subject to Always Strikes Last" if target.always_strikes_last else
            "magical attacks that hit automatically" if attack.magical and attack.automatic else
            f"{troop.name} are mounted" if troop is not None and troop.key in MOUNTED else None
        )
        if why_not:
            rules.append(f"Dodge ({target.dodge}+): not used, {why_not}")
        else:
            wards.append((target.dodge, f"Dodge ({target.dodge}+)"))
    if target.ethereal:
        ward = ETHEREAL_MAGIC_WARD if attack.magical else ETHEREAL_WARD
        wards.append((ward, f"Ethereal ({ward}+ against {'magical' if attack.magical else 'mundane'} attacks)"))
    best = min(wards, default=None)
    if best is not None:
        note = "ward save " + best[1]
        if len(wards) > 1:
            note += " (the best of " + ", ".join(w for _, w in wards) + "; one ward save only)"
        rules.append(note)
    return Applied(attack.armour_piercing, attack.multiple_wounds, reroll, attack.ignores_armour, attack.killing_blow,
                   slays, None if best is None else best[0], tuple(rules))
