"""Firing grapeshot (Warhammer Fantasy, War Machines: Grapeshot).

:func:`fire_grapeshot` follows the book: choose a target as for normal shooting; roll an
artillery die and a D6 for the number of shots (a misfire on the artillery die goes to the Black
Powder Misfire Chart and nothing is fired); roll each shot to hit with the crew's Ballistic Skill
and resolve the hits with the grapeshot profile (Strength 5, Armour Piercing 1).

The to-hit modifiers are the core rulebook's shooting ones that a war machine can suffer: long
range (beyond half the maximum range) and soft or hard cover, plus any other the players name;
war machines ignore the penalties for moving and for multiple shots.

The target's special rules (seed 003): Ethereal models take their 2+ ward save, grapeshot being a
mundane attack (003:101); a model Immune to Armour Piercing saves worse by Strength alone (003:246).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.fantasy.misfire import Misfire, roll_on_misfire_chart
from engine.fantasy.profiles import GrapeshotProfile, MisfireChart, ToHitPenalties
from engine.fantasy.shooting import Cover, ToHit, Volley, shoot, to_hit_needed, to_hit_penalty
from engine.fantasy.special_rules import Applied, AttackRules, TargetRules, apply_rules, immune_rules
from engine.fantasy.wounding import Profile

UNIT = "in"


@dataclass(frozen=True, slots=True)
class GrapeshotShot:
    """Everything a grapeshot blast did, in the order it happened."""

    weapon: GrapeshotProfile
    distance: float
    """Inches to the target."""
    ballistic_skill: int
    long_range: bool
    """Beyond half the maximum range."""
    cover: Cover
    modifier: int
    """Other to-hit modifiers the players named: +1 helps, -1 hinders."""
    penalty: int
    """All to-hit penalties together, in points (positive is worse)."""
    to_hit: ToHit
    profile: Profile | None
    dice: tuple[DieRoll, ...]
    """Every die in the order rolled."""
    artillery: DieRoll
    shots_die: DieRoll
    """The D6 added to the artillery die."""
    misfire: Misfire | None
    shots: int
    """How many shots were fired: artillery + D6; 0 after a misfire."""
    volley: Volley | None
    """The shots rolled to hit and wound; None after a misfire."""
    unit: str = UNIT
    target_rules: TargetRules = TargetRules()
    """The target's special rules (Ethereal, Immunity)."""
    applied: Applied | None = None
    """The special rules as they came out against the target's profile; None without a profile."""
    immunity: tuple[str, ...] = ()
    """Grapeshot's rules the target is Immune to, and so ignores ("armour-piercing")."""

    @property
    def fired(self) -> bool:
        return self.misfire is None


def fire_grapeshot(
    weapon: GrapeshotProfile,
    misfire_chart: MisfireChart,
    penalties: ToHitPenalties,
    distance: float,
    dice: Dice,
    *,
    ballistic_skill: int,
    cover: Cover = Cover.NONE,
    modifier: int = 0,
    profile: Profile | None = None,
    target_rules: TargetRules = TargetRules(),
) -> GrapeshotShot:
    """Fire grapeshot at a target `distance` inches away with the crew's best `ballistic_skill`.
    `target_rules`: the target's Ethereal and Immunity (Armour Piercing)."""
    # Choose a target as for normal shooting: within range.
    if not 0 < distance <= weapon.range:
        raise RulesError(f"Distance {distance:g}\" is outside grapeshot's range: the target must be within {weapon.range}\".")
    long_range, penalty = to_hit_penalty(penalties, distance=distance, max_range=weapon.range, cover=cover, modifier=modifier)
    to_hit = to_hit_needed(ballistic_skill, penalty)
    # Grapeshot's Armour Piercing against the target's rules (Ethereal's ward, Immunity).
    attack = AttackRules(armour_piercing=weapon.armour_piercing)
    immunity = tuple(immune_rules(attack, target_rules))
    applied = None if profile is None else apply_rules(attack, target_rules, profile, None)

    dice = RecordingDice(dice)

    def record(misfire: Misfire | None, shots: int, volley: Volley | None) -> GrapeshotShot:
        dice.finish()
        return GrapeshotShot(weapon, float(distance), ballistic_skill, long_range, cover, modifier, penalty, to_hit,
                             profile, tuple(dice.rolled), artillery, shots_die, misfire, shots, volley, UNIT,
                             target_rules, applied, immunity)

    # An artillery die and a D6 for the number of shots; a misfire goes to the chart.
    artillery = dice.artillery("shots (artillery die)")
    shots_die = dice.d6("shots (D6)")
    if artillery.is_misfire:
        return record(roll_on_misfire_chart(dice, misfire_chart), 0, None)

    # Roll to hit with each shot, then resolve the hits with the grapeshot profile.
    shots = artillery.value + shots_die.value
    volley = shoot(dice, shots=shots, to_hit=to_hit, strength=weapon.strength, profile=profile,
                   armour_piercing=weapon.armour_piercing if applied is None else applied.armour_piercing,
                   ward=True if applied is None else applied.ward)  # (no profile: no wounds rolled, no ward)
    return record(None, shots, volley)
