"""A Breath Weapon's shooting attack (Warhammer Fantasy, Special Rules: Breath Weapons).

:func:`breathe` follows the rule: the flame template goes with its narrow end touching the
model's base and its wide end over the target unit (no scatter, no artillery die); every model
even partly under it is hit automatically, at the breath's own Strength and with its own
special rules (Ignores Cover is moot for automatic hits). A breath weapon used before needs a D6
of 4+ first (1-3: out of breath this turn). The wounds of all the hits pool on the unit: a unit
of multi-Wound models loses a whole model for each full set of Wounds among them (core rules; as
seed 000:144 counts a template's casualties by the unit).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.fantasy.formation import Facing, Formation, TargetUnit, lay_out
from engine.fantasy.profiles import TeardropTemplate
from engine.fantasy.special_rules import Applied, AttackRules, TargetRules, apply_rules, immune_rules
from engine.fantasy.wounding import WoundRoll, pooled_casualties, resolve_hits
from engine.geometry import Point

UNIT = "in"
MAX_STRENGTH = 10


@dataclass(frozen=True, slots=True)
class BreathHit:
    rank: int
    file: int
    wound: WoundRoll | None


@dataclass(frozen=True, slots=True)
class BreathShot:
    template: TeardropTemplate
    target: TargetUnit
    formation: Formation
    distance: float
    """The breathing model's base to the target model's centre, inches."""
    strength: int
    attack: AttackRules
    applied: Applied | None
    """The special rules as they came out against the target's profile; None without a profile."""
    out_of_breath: DieRoll | None
    """The D6 of a breath weapon used before; None when not rolled."""
    hits: tuple[BreathHit, ...]
    dice: tuple[DieRoll, ...]
    unit: str = UNIT
    undone_by: tuple[str, ...] = ()
    """The target's Immunities to the breath's rules: a breath is not a physical attack (003:70,
    003:246), so with any of them the models under the template take nothing, profile or none."""

    @property
    def no_effect(self) -> bool:
        return bool(self.undone_by) and self.breathed

    @property
    def breathed(self) -> bool:
        return self.out_of_breath is None or self.out_of_breath.value >= 4

    @property
    def unsaved(self) -> int | None:
        """Unsaved wounds of all the hits together; None without a profile."""
        if self.target.profile is None:
            return 0 if self.no_effect else None
        return pooled_casualties([h.wound for h in self.hits], self.target.profile, self.target.ranks * self.target.files)[0]

    @property
    def casualties(self) -> int | None:
        """Models slain, the unsaved wounds pooled on the unit; None without a profile."""
        if self.target.profile is None:
            return 0 if self.no_effect else None
        return pooled_casualties([h.wound for h in self.hits], self.target.profile, self.target.ranks * self.target.files)[1]


def breathe(
    template: TeardropTemplate,
    target: TargetUnit,
    distance: float,
    dice: Dice,
    *,
    strength: int,
    attack: AttackRules = AttackRules(),
    target_rules: TargetRules = TargetRules(),
    used_before: bool = False,
) -> BreathShot:
    """Breathe on `target`, its aimed model (the centre of the rank facing the breather)
    `distance` inches from the breather's base, where the template's narrow end touches."""
    if isinstance(strength, bool) or not isinstance(strength, int) or not 1 <= strength <= MAX_STRENGTH:
        raise RulesError(f"Strength {strength!r} is not possible: give 1 to {MAX_STRENGTH}.")
    if not 0 < distance <= template.length:
        raise RulesError(f"Distance {distance:g}\" is beyond the flame template: the target must be within {template.length:g}\" of the base.")
    formation, _ = lay_out(target, distance)
    # Dodge works only against attacks in the models' front arc: the unit's front must face the breather.
    target_rules = target_rules.seen_from(target.facing is Facing.FRONT)
    attack = AttackRules(attack.armour_piercing, attack.multiple_wounds, attack.ignores_armour, attack.flaming,
                         attack.killing_blow, attack.magical, attack.always_strikes_first, automatic=True, physical=False)
    dice = RecordingDice(dice)
    breath = dice.d6("breath again (4+)") if used_before else None
    hits: tuple[BreathHit, ...] = ()
    applied = None
    # Immune to a rule of an attack that is not physical: it does nothing, whether or not the
    # profile was given (Special Rules: Breath Weapons, Immunity).
    undone_by = tuple(immune_rules(attack, target_rules))
    if breath is None or breath.value >= 4:
        cells = formation.under_teardrop(Point(0.0, 0.0), template.length, template.narrow_radius, template.wide_radius)
        places = [formation.rank_file(r, c) for r, c in cells]
        wounds: tuple[WoundRoll | None, ...] = (None,) * len(places)
        if target.profile is not None:
            applied = apply_rules(attack, target_rules, target.profile, target.troop)
            if places and not undone_by:
                wounds = resolve_hits(
                    dice, names=[f"rank {r} file {f}" for r, f in places], strength=strength, profile=target.profile,
                    armour_piercing=applied.armour_piercing, multiple_wounds=applied.multiple_wounds,
                    reroll_failed_wounds=applied.reroll_failed_wounds, ignores_armour=applied.ignores_armour,
                    killing_blow=applied.killing_blow, killing_blow_slays=applied.killing_blow_slays, ward=applied.ward,
                )
        hits = tuple(BreathHit(r, f, w) for (r, f), w in zip(places, wounds))
    dice.finish()
    return BreathShot(template, target, formation, float(distance), strength, attack, applied, breath,
                      () if undone_by else hits, tuple(dice.rolled), UNIT, undone_by)
