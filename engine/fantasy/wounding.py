"""The wounding sequence of Warhammer Fantasy, for one hit on one model.

In the rulebook's order: roll to wound (Strength against Toughness), the armour save (worse by
one for each point of Strength above 3, and by Armour Piercing), the ward save (never modified),
then Multiple Wounds multiplies an unsaved wound, never beyond the wounds the model has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.dice import Dice, DieKind, DieRoll
from engine.errors import RulesError

MAX_TOUGHNESS = 10
MAX_WOUNDS = 20


@dataclass(frozen=True, slots=True)
class Profile:
    """The part of a model's profile that decides whether a hit hurts it."""

    toughness: int
    """Toughness, 1 to 10."""
    wounds: int = 1
    """Wounds each model has."""
    save: int | None = None
    """Armour save: 4 means 4+. None for no armour."""
    ward: int | None = None
    """Ward save: 5 means 5+. None for no ward save."""

    def __post_init__(self) -> None:
        if not 1 <= self.toughness <= MAX_TOUGHNESS:
            raise RulesError(f"Toughness {self.toughness} is not possible: it runs from 1 to {MAX_TOUGHNESS}.")
        if not 1 <= self.wounds <= MAX_WOUNDS:
            raise RulesError(f"Wounds {self.wounds} is not possible here: give 1 to {MAX_WOUNDS}.")
        if self.save is not None and not 1 <= self.save <= 6:
            raise RulesError(f"Armour save {self.save}+ is not possible: give 1 to 6 (leave it out for none).")
        if self.ward is not None and not 2 <= self.ward <= 6:
            raise RulesError(f"Ward save {self.ward}+ is not possible: give 2 to 6 (leave it out for none).")

    def describe(self) -> str:
        parts = [f"T{self.toughness}", f"W{self.wounds}"]
        parts.append(f"Sv {self.save}+" if self.save else "no save")
        if self.ward:
            parts.append(f"ward {self.ward}+")
        return " ".join(parts)


def to_wound_needed(strength: int, toughness: int) -> int | None:
    """The standard wound chart: the D6 score needed, or None when the hit cannot wound."""
    gap = toughness - strength
    if gap <= -2:
        return 2
    if gap >= 4:
        return None
    return {-1: 3, 0: 4, 1: 5, 2: 6, 3: 6}[gap]


def wounds_a_hit(multiple_wounds: DieKind | None) -> str:
    """What each unsaved wound of a hit does, in words: its Multiple Wounds die ("D6 wounds"), or
    "1 wound" without one (a model Immune to Multiple Wounds ignores the die)."""
    return "1 wound" if multiple_wounds is None else f"{multiple_wounds.value} wounds"


def armour_save_modifier(strength: int, armour_piercing: int = 0) -> int:
    """How many points worse an armour save is: one per point of Strength above 3, plus Armour
    Piercing."""
    return max(0, strength - 3) + armour_piercing


def armour_save_needed(save: int | None, strength: int, armour_piercing: int = 0) -> int | None:
    """The D6 score the armour save needs after Strength and Armour Piercing, or None when no
    save is left. A roll of 1 always fails, so no save is better than 2+."""
    if save is None:
        return None
    needed = save + armour_save_modifier(strength, armour_piercing)
    return None if needed > 6 else max(2, needed)


@dataclass(frozen=True, slots=True)
class WoundRoll:
    """How one hit on one model was resolved."""

    strength: int
    to_wound_needed: int | None
    """Score needed to wound, None when it cannot wound."""
    to_wound: DieRoll | None
    wounded: bool
    save_needed: int | None
    """Armour save needed after modifiers; None when no save is allowed."""
    save: DieRoll | None
    ward_needed: int | None
    ward: DieRoll | None
    saved: bool
    """Saved by armour or ward."""
    multiple_wounds: DieRoll | None
    """The Multiple Wounds die, rolled for an unsaved wound on a model with more than one Wound."""
    wounds: int
    """Wounds the model loses (0 when not wounded or saved), never more than it has."""
    slain: bool
    reroll: DieRoll | None = None
    """The to-wound re-roll of a failed roll (Flaming Attacks against a Flammable model); the
    outcome follows it."""
    killing_blow: bool = False
    """A 6 to wound with Killing Blow: no armour save; the model slain outright (infantry,
    cavalry, war beasts) or one wound."""


def resolve_hit(
    dice: Dice,
    *,
    strength: int,
    profile: Profile,
    multiple_wounds: DieKind | None,
    armour_piercing: int = 0,
    who: str,
) -> WoundRoll:
    """Resolve one hit of `strength` on a model with `profile`. `who` names the model in each
    die's purpose ("rank 2 file 3")."""
    needed = to_wound_needed(strength, profile.toughness)
    if needed is None:
        return WoundRoll(strength, None, None, False, None, None, None, None, False, None, 0, False)
    to_wound = dice.d6(f"to wound {who}")
    if to_wound.value < needed:
        return WoundRoll(strength, needed, to_wound, False, None, None, None, None, False, None, 0, False)

    save_needed = armour_save_needed(profile.save, strength, armour_piercing)
    save = dice.d6(f"armour save {who}") if save_needed else None
    saved = save is not None and save.value >= save_needed
    ward = None
    if not saved and profile.ward:
        ward = dice.d6(f"ward save {who}")
        saved = ward.value >= profile.ward
    if saved:
        return WoundRoll(strength, needed, to_wound, True, save_needed, save, profile.ward, ward, True, None, 0, False)

    multiple = None
    wounds = 1
    if multiple_wounds is not None and profile.wounds > 1:
        multiple = dice.roll(multiple_wounds, f"Multiple Wounds ({multiple_wounds.value}) {who}")
        wounds = min(multiple.value, profile.wounds)
    return WoundRoll(
        strength, needed, to_wound, True, save_needed, save, profile.ward, ward, False,
        multiple, wounds, wounds >= profile.wounds,
    )


def resolve_hits(
    dice: Dice,
    *,
    names: Sequence[str],
    strength: int,
    profile: Profile,
    multiple_wounds: DieKind | None = None,
    armour_piercing: int = 0,
    reroll_failed_wounds: bool = False,
    ignores_armour: bool = False,
    killing_blow: bool = False,
    killing_blow_slays: bool = True,
    ward: int | None | bool = True,
) -> tuple[WoundRoll, ...]:
    """Resolve like hits, one per name in `names`, the way players roll them at the table: every
    to-wound die at once (then the re-rolls of the failed ones, with `reroll_failed_wounds`),
    then the armour saves for the wounds, then the ward saves for those unsaved, then the
    Multiple Wounds dice. Each die's purpose names its hit ("to wound shot 3").

    Special rules (seed 003): `ignores_armour` allows no armour save; `killing_blow` makes a 6 to
    wound a Killing Blow: no armour save, and the model is slain outright when
    `killing_blow_slays` (infantry, cavalry, war beasts), else it is one wound. `ward` replaces
    the profile's ward save when an int or None is given (Dodge, Ethereal: the best one)."""
    ward_needed = profile.ward if ward is True else (ward or None)
    needed = to_wound_needed(strength, profile.toughness)
    if needed is None:
        return tuple(WoundRoll(strength, None, None, False, None, None, None, None, False, None, 0, False)
                     for _ in names)
    to_wound = [dice.d6(f"to wound {name}") for name in names]
    rerolls = [
        dice.d6(f"to wound {name}, re-roll") if reroll_failed_wounds and d.value < needed else None
        for name, d in zip(names, to_wound)
    ]
    final = [r or d for d, r in zip(to_wound, rerolls)]
    wounded = [d.value >= needed for d in final]
    blows = [killing_blow and d.value == 6 for d in final]
    save_needed = None if ignores_armour else armour_save_needed(profile.save, strength, armour_piercing)
    saves = [dice.d6(f"armour save {name}") if ok and save_needed and not kb else None
             for name, ok, kb in zip(names, wounded, blows)]
    saved = [s is not None and s.value >= save_needed for s in saves]
    wards = [
        dice.d6(f"ward save {name}") if ok and not sv and ward_needed else None
        for name, ok, sv in zip(names, wounded, saved)
    ]
    saved = [sv or (w is not None and w.value >= ward_needed) for sv, w in zip(saved, wards)]
    out = []
    for name, die, reroll, ok, kb, save, ward_die, sv in zip(names, to_wound, rerolls, wounded, blows, saves, wards, saved):
        multiple, wounds = None, 0
        if ok and not sv:
            wounds = 1
            if kb:
                wounds = profile.wounds if killing_blow_slays else 1
            elif multiple_wounds is not None and profile.wounds > 1:
                multiple = dice.roll(multiple_wounds, f"Multiple Wounds ({multiple_wounds.value}) {name}")
                wounds = min(multiple.value, profile.wounds)
        out.append(WoundRoll(
            strength, needed, die, ok, (None if kb else save_needed) if ok else None, save,
            ward_needed if ok else None, ward_die, sv, multiple, wounds, wounds >= profile.wounds, reroll, kb,
        ))
    return tuple(out)


def pooled_casualties(wounds: Sequence[WoundRoll | None], profile: Profile, models: int) -> tuple[int, int]:
    """What the hits of one attack do to a unit of `models` models with `profile`, as the wounds
    pool on it (core rules, seed 000:144): the unsaved wounds of every hit added up (each hit's
    Multiple Wounds already kept to one model's Wounds, seed 000:122), and a whole model lost for
    each full set of Wounds among them, never more models than the unit has. Returns (unsaved
    wounds, models slain). With one Wound a model this is one model per unsaved wound, as before."""
    unsaved = sum(w.wounds for w in wounds if w is not None)
    return unsaved, min(models, unsaved // profile.wounds)
