"""Firing a bolt thrower (Warhammer Fantasy, War Machines: Bolt Throwers).

:func:`fire_bolt_thrower` follows the book: roll to hit with the crew's Ballistic Skill and the
normal shooting modifiers (a miss lands harmlessly); a hit on a unit of five or more rank-and-file
models strikes a trooper in the rank facing the machine (the first rank from the front, the last
from the rear, the files counting as ranks from the flank) at full Strength; each model it slays
lets it go on into the rank behind at one less Strength; it stops at the last rank or at the first
model it does not kill. Every hit carries Multiple Wounds. Against fewer than five rank-and-file models
the model hit in the rank is chosen at random.

The target's special rules (seed 003): Ethereal models take their 2+ ward save, the bolt being a
mundane attack (003:101); Dodge (n) is a ward save when the machine is in the models' front arc
(003:94); a model Immune to Multiple Wounds or to Armour Piercing ignores that rule and nothing
else (003:246): each unsaved wound is one wound (no wounds die), or the save is worse by Strength
alone. The bolt goes on past a model its own hit slays, so past a one-Wound model as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice, DieKind, DieRoll, RecordingDice, pick_at_random
from engine.errors import RulesError
from engine.fantasy.formation import Facing, Formation, TargetUnit, lay_out
from engine.fantasy.profiles import BoltThrowerProfile, ToHitPenalties
from engine.fantasy.shooting import Cover, ToHit, roll_to_hit, to_hit_needed, to_hit_penalty
from engine.fantasy.special_rules import Applied, AttackRules, TargetRules, apply_rules, immune_rules, multiplied
from engine.fantasy.wounding import WoundRoll, resolve_hits

UNIT = "in"


@dataclass(frozen=True, slots=True)
class BoltHit:
    """One model the bolt strikes."""

    rank: int
    """The unit's own rank (1 = front rank)."""
    file: int
    """The unit's own file, counted left to right as the machine sees the unit."""
    row: int
    """The rank as the machine sees it, 1 nearest: the bolt goes one row further per kill."""
    strength: int
    """Full Strength for the first model, one less for each slain before it."""
    wound: WoundRoll | None
    """The wounding sequence when the profile was given; None leaves it to the players."""
    conditional: bool
    """Without a profile: this model is struck only if the players' rolls slay every one before it."""


@dataclass(frozen=True, slots=True)
class BoltShot:
    """Everything a bolt thrower shot did, in the order it happened."""

    weapon: BoltThrowerProfile
    target: TargetUnit
    formation: Formation
    """Where the target's bases stand in the shot frame (the machine at the origin, fire along +y)."""
    distance: float
    """Inches to the target."""
    aimed_model: tuple[int, int]
    """The (rank, file) the bolt is aimed at: the centre model of the rank facing the machine."""
    ballistic_skill: int
    long_range: bool
    cover: Cover
    modifier: int
    to_hit: ToHit
    dice: tuple[DieRoll, ...]
    """Every die in the order rolled."""
    to_hit_dice: tuple[DieRoll, ...]
    """The to-hit D6, and a second after a 6 when more than 6 is needed."""
    hit: bool
    ranked: bool
    """Five or more rank-and-file models: the bolt goes through the ranks."""
    pick: tuple[DieRoll, ...]
    """The D6s that chose the model in the rank when the unit was too small to be ranked."""
    hits: tuple[BoltHit, ...]
    """The models struck, front to back."""
    unit: str = UNIT
    target_rules: TargetRules = TargetRules()
    """The target's special rules (Ethereal, Dodge, Immunity), its front arc as the shot found it."""
    applied: Applied | None = None
    """The special rules as they came out against the target's profile; None without a profile."""
    wounds_die: DieKind | None = None
    """The Multiple Wounds die each hit carries; None when the target is Immune to Multiple Wounds."""
    immunity: tuple[str, ...] = ()
    """The bolt's rules the target is Immune to, and so ignores ("multiple-wounds", "armour-piercing")."""


def fire_bolt_thrower(
    weapon: BoltThrowerProfile,
    penalties: ToHitPenalties,
    target: TargetUnit,
    distance: float,
    dice: Dice,
    *,
    ballistic_skill: int,
    cover: Cover = Cover.NONE,
    modifier: int = 0,
    target_rules: TargetRules = TargetRules(),
) -> BoltShot:
    """Fire `weapon` at `target`, `distance` inches away, with the crew's best `ballistic_skill`.
    The trooper struck in the rank facing the machine is its centre model (any rank-and-file
    model will do by the book; the centre one keeps the picture plain). `target_rules`: the
    target's Ethereal, Dodge and Immunity (Multiple Wounds, Armour Piercing)."""
    # Select a target according to the normal rules for shooting: within range.
    if not 0 < distance <= weapon.range:
        raise RulesError(f"Distance {distance:g}\" is outside the {weapon.name.lower()}'s range: the target must be within {weapon.range}\".")
    long_range, penalty = to_hit_penalty(penalties, distance=distance, max_range=weapon.range, cover=cover, modifier=modifier)
    to_hit = to_hit_needed(ballistic_skill, penalty)
    formation, aimed = lay_out(target, distance)
    ranked = target.ranks * target.files >= weapon.ranked_target
    # The bolt's rules against the target's: Dodge only from the front, Immunity takes a rule away.
    target_rules = target_rules.seen_from(target.facing is Facing.FRONT)
    attack = AttackRules(armour_piercing=weapon.armour_piercing, multiple_wounds=weapon.multiple_wounds)
    wounds_die = weapon.multiple_wounds if multiplied(attack, target_rules) else None
    immunity = tuple(immune_rules(attack, target_rules))
    applied = None if target.profile is None else apply_rules(attack, target_rules, target.profile, target.troop)
    dice = RecordingDice(dice)

    def record(to_hit_dice, hit, pick=(), hits=()) -> BoltShot:
        dice.finish()
        return BoltShot(weapon, target, formation, float(distance), aimed, ballistic_skill, long_range, cover,
                        modifier, to_hit, tuple(dice.rolled), to_hit_dice, hit, ranked, tuple(pick), tuple(hits),
                        UNIT, target_rules, applied, wounds_die, immunity)

    # Roll to hit; a miss lands harmlessly some way off.
    to_hit_dice, hit = roll_to_hit(dice, to_hit, "the bolt")
    if not hit:
        return record(to_hit_dice, False)

    # A unit of five or more rank and file: a trooper in the rank facing the machine, then on
    # through the ranks behind while each model struck is slain, one Strength less each time.
    row, col = formation.cell_of(*aimed)
    pick: tuple[DieRoll, ...] = ()
    if not ranked:
        index, pick = pick_at_random(dice, formation.cols, "which model in the rank is hit")
        col = index
    hits: list[BoltHit] = []
    conditional = False
    for depth in range(formation.rows - row):
        strength = weapon.strength - depth
        if strength < 1:
            break
        rank, file = formation.rank_file(row + depth, col)
        wound = None
        if target.profile is not None:
            (wound,) = resolve_hits(dice, names=[f"rank {rank} file {file}"], strength=strength, profile=target.profile,
                                    multiple_wounds=applied.multiple_wounds, armour_piercing=applied.armour_piercing,
                                    ward=applied.ward)
        hits.append(BoltHit(rank, file, row + depth + 1, strength, wound, conditional))
        if wound is None:
            conditional = True
        elif not wound.slain:
            break
    return record(to_hit_dice, True, pick, hits)
