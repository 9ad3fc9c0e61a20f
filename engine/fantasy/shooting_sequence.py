"""The shooting sequence for any missile weapon (Warhammer Fantasy core rules, with seed 000's
Shooting at War Machines and seed 003's special rules).

:func:`fire_missiles` follows the sequence: roll each shot to hit with Ballistic Skill and the
to-hit modifiers (long range, cover, others), then for the hits roll to wound (Strength against
Toughness), take armour saves (worse by the Strength modifier and Armour Piercing), then ward
saves, then Multiple Wounds; the special rules change those rolls (engine/fantasy/special_rules).

Shooting at a war machine (`crew` given): the attack uses the machine's Toughness and the crew's
armour save; each wound removes a crew model, and when the last one goes the machine is removed.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.fantasy.profiles import ToHitPenalties, TroopType
from engine.fantasy.shooting import MAX_MODIFIER, MAX_SHOTS, Cover, ToHit, Volley, shoot, to_hit_needed
from engine.fantasy.special_rules import Applied, AttackRules, TargetRules, apply_rules
from engine.fantasy.wounding import Profile

MAX_STRENGTH = 10
MAX_CREW = 10


@dataclass(frozen=True, slots=True)
class MissileFire:
    """Everything a volley did, in the order it happened."""

    ballistic_skill: int
    long_range: bool
    cover: Cover
    modifier: int
    penalty: int
    """All to-hit penalties together, in points (positive is worse)."""
    to_hit: ToHit
    strength: int
    profile: Profile
    """The target's: for a war machine, the machine's Toughness, its crew as Wounds, the crew's save."""
    troop: TroopType | None
    attack: AttackRules
    target_rules: TargetRules
    applied: Applied
    crew: int | None
    """Crew models left before the volley, when shooting at a war machine."""
    dice: tuple[DieRoll, ...]
    volley: Volley

    @property
    def crew_lost(self) -> int | None:
        """Crew models removed, one per wound; None when the target is not a war machine."""
        return None if self.crew is None else min(self.crew, self.volley.unsaved)

    @property
    def machine_destroyed(self) -> bool:
        return self.crew is not None and self.crew_lost >= self.crew


def fire_missiles(
    dice: Dice,
    penalties: ToHitPenalties,
    *,
    shots: int,
    ballistic_skill: int,
    strength: int,
    profile: Profile,
    long_range: bool = False,
    cover: Cover = Cover.NONE,
    modifier: int = 0,
    troop: TroopType | None = None,
    attack: AttackRules = AttackRules(),
    target_rules: TargetRules = TargetRules(),
    crew: int | None = None,
) -> MissileFire:
    """`shots` at BS `ballistic_skill` and Strength `strength` at a target with `profile` (or at a
    war machine of `crew` models: `profile` then holds the machine's Toughness and the crew's
    save, and its Wounds are the crew)."""
    if isinstance(strength, bool) or not isinstance(strength, int) or not 1 <= strength <= MAX_STRENGTH:
        raise RulesError(f"Strength {strength!r} is not possible: give 1 to {MAX_STRENGTH}.")
    if isinstance(shots, bool) or not isinstance(shots, int) or not 1 <= shots <= MAX_SHOTS:
        raise RulesError(f"{shots!r} shots is not possible here: give 1 to {MAX_SHOTS}.")
    if isinstance(modifier, bool) or not isinstance(modifier, int) or abs(modifier) > MAX_MODIFIER:
        raise RulesError(f"To-hit modifier {modifier!r} is not possible here: give -{MAX_MODIFIER} to +{MAX_MODIFIER}.")
    if crew is not None:
        if not 1 <= crew <= MAX_CREW:
            raise RulesError(f"Crew {crew} is not possible here: give 1 to {MAX_CREW} crew models left.")
        profile = Profile(profile.toughness, crew, profile.save, profile.ward)
    penalty = (
        (penalties.long_range if long_range else 0)
        + {Cover.NONE: 0, Cover.SOFT: penalties.soft_cover, Cover.HARD: penalties.hard_cover}[cover]
        - modifier
    )
    to_hit = to_hit_needed(ballistic_skill, penalty)
    applied = apply_rules(attack, target_rules, profile, troop)
    dice = RecordingDice(dice)
    volley = shoot(
        dice, shots=shots, to_hit=to_hit, strength=strength, profile=profile,
        armour_piercing=applied.armour_piercing, multiple_wounds=applied.multiple_wounds,
        reroll_failed_wounds=applied.reroll_failed_wounds, ignores_armour=applied.ignores_armour,
        killing_blow=applied.killing_blow, killing_blow_slays=applied.killing_blow_slays, ward=applied.ward,
    )
    dice.finish()
    return MissileFire(ballistic_skill, long_range, cover, modifier, penalty, to_hit, strength, profile, troop, attack,
                       target_rules, applied, crew, tuple(dice.rolled), volley)
