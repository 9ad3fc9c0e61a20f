"""Firing a stone thrower (Warhammer Fantasy, War Machines: Stone Throwers, Firing Indirectly).

:func:`fire_stone_thrower` follows the book in its order: choose the target and put the small
round template's centre over it; roll the scatter die and the artillery die (a misfire goes to
the Stone Thrower Misfire Chart and nothing is fired); an arrow moves the template the artillery
number in inches; a HIT lands on target, or for an indirect shot scatters along the hit symbol's
small arrow by the artillery number less the crew's Ballistic Skill (never below nothing); then
the damage: the model under the centre hole at the higher Strength with Multiple Wounds, every
other model under the template at the lower Strength.

The wounds of all the hits pool on the unit (as seed 000:144 counts a template's casualties by the
unit): the centre hit's Multiple Wounds never go beyond its own model's Wounds (000:122), and the
unit loses a whole model for each full set of Wounds among the unsaved wounds together. Dodge (n)
is a ward save against the template when the machine is in the models' front arc (003:94).
Ethereal models take their 2+ ward save: the stone is a mundane attack (003:101). A model Immune
to Multiple Wounds ignores that rule and nothing else: the centre hole's unsaved wound is one
wound, and no wounds die is rolled (003:246).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.dice import Dice, DieKind, DieRoll, RecordingDice, pick_at_random
from engine.errors import RulesError
from engine.fantasy.formation import Facing, Formation, TargetUnit, lay_out
from engine.fantasy.misfire import Misfire, roll_on_misfire_chart
from engine.fantasy.profiles import MisfireChart, StoneThrowerProfile
from engine.fantasy.special_rules import Applied, AttackRules, TargetRules, apply_rules, immune_rules, multiplied
from engine.fantasy.wounding import WoundRoll, pooled_casualties, resolve_hits
from engine.geometry import Point, heading

UNIT = "in"
MAX_BS = 10


class TemplateHitKind(enum.Enum):
    CENTRE = "centre"
    """The model under the centre hole: the higher Strength, Multiple Wounds."""
    TEMPLATE = "template"
    """Any other model wholly or partly under the template: the lower Strength."""


@dataclass(frozen=True, slots=True)
class TemplateHit:
    """One model under the template."""

    rank: int
    """The unit's own rank (1 = front rank)."""
    file: int
    """The unit's own file, counted left to right as the machine sees the unit."""
    kind: TemplateHitKind
    strength: int
    wounds_die: DieKind | None
    """The Multiple Wounds die (the centre hit only); None for one wound (the other hits, and the
    centre hit on a target Immune to Multiple Wounds)."""
    wound: WoundRoll | None
    """The wounding sequence when the profile was given; None leaves it to the players."""


@dataclass(frozen=True, slots=True)
class StoneShot:
    """Everything a stone thrower shot did, in the order it happened."""

    weapon: StoneThrowerProfile
    target: TargetUnit
    formation: Formation
    """Where the target's bases stand in the shot frame (crossbar at the origin, fire along +y)."""
    distance: float
    """Crossbar to the aimed model's centre, inches."""
    aim: Point
    """Where the template's centre was placed."""
    aimed_model: tuple[int, int]
    """The aimed model's (rank, file)."""
    indirect: bool
    """Fired indirectly: a HIT still scatters, along the small arrow."""
    ballistic_skill: int | None
    """The crew's best Ballistic Skill, for an indirect HIT."""
    dice: tuple[DieRoll, ...]
    """Every die in the order rolled."""
    misfire: Misfire | None
    scatter: DieRoll
    artillery: DieRoll
    scatter_direction: int | None
    """Degrees clockwise from the line of fire the template moved; None when it did not move."""
    scatter_distance: float
    """How far the template moved, inches."""
    centre: Point | None
    """Where the template's centre comes down; None after a misfire."""
    radius: float
    """The template's radius, inches."""
    centre_choice: tuple[tuple[int, int], ...]
    """The (rank, file) of every model the centre hole lay over when it lay over more than one
    (it is ``weapon.template.hole`` wide), before the random pick; empty otherwise."""
    centre_pick: tuple[DieRoll, ...]
    """The D6s rolled to pick among `centre_choice`; empty when there was no choice."""
    hits: tuple[TemplateHit, ...]
    """The centre hit first, then the other models, nearest rank first and left to right."""
    unit: str = UNIT
    target_rules: TargetRules = TargetRules()
    """The target's special rules (Dodge, Ethereal, Immunity), its front arc as the shot found it."""
    applied: Applied | None = None
    """The special rules as they came out against the target's profile; None without a profile."""
    unsaved: int | None = None
    """Unsaved wounds of all the hits together; None without a profile (or nothing fired)."""
    casualties: int | None = None
    """Models slain, the unsaved wounds pooled on the unit; None without a profile (or nothing fired)."""
    immunity: tuple[str, ...] = ()
    """The stone's rules the target is Immune to, and so ignores ("multiple-wounds"), profile or none."""

    @property
    def fired(self) -> bool:
        return self.misfire is None


def fire_stone_thrower(
    weapon: StoneThrowerProfile,
    misfire_chart: MisfireChart,
    target: TargetUnit,
    distance: float,
    dice: Dice,
    *,
    indirect: bool = False,
    ballistic_skill: int | None = None,
    aim_rank: int | None = None,
    aim_file: int | None = None,
    target_rules: TargetRules = TargetRules(),
) -> StoneShot:
    """Fire `weapon` at `target`, the template's centre `distance` inches from the crossbar over
    the model at `aim_rank`, `aim_file` (by default the centre model of the rank facing the
    machine). An `indirect` shot needs the crew's `ballistic_skill`. `target_rules`: the target's
    Dodge, Ethereal and Immunity (Multiple Wounds)."""
    # Choose target: in range, the template's centre over a model of the target unit.
    if not weapon.min_range <= distance <= weapon.max_range:
        raise RulesError(
            f"Distance {distance:g}\" is outside the {weapon.name.lower()}'s range: the target must be "
            f"{weapon.min_range}-{weapon.max_range}\" from the crossbar."
        )
    if ballistic_skill is not None and (isinstance(ballistic_skill, bool) or not isinstance(ballistic_skill, int)
                                        or not 0 <= ballistic_skill <= MAX_BS):
        raise RulesError(f"Ballistic Skill {ballistic_skill!r} is not possible: give 0 to {MAX_BS}.")
    if indirect and ballistic_skill is None:
        raise RulesError("An indirect shot scatters by the artillery die less the crew's Ballistic Skill: give bs.")
    formation, aimed = lay_out(target, distance, aim_rank, aim_file)
    aim = Point(0.0, float(distance))
    # Dodge works only against attacks in the models' front arc: the unit's front must face the machine.
    target_rules = target_rules.seen_from(target.facing is Facing.FRONT)
    # The centre hit's Multiple Wounds, unless the target is Immune to them.
    attack = AttackRules(multiple_wounds=weapon.centre_wounds, automatic=True)
    centre_wounds = weapon.centre_wounds if multiplied(attack, target_rules) else None
    immunity = tuple(immune_rules(attack, target_rules))
    applied = None if target.profile is None else apply_rules(
        attack, target_rules, target.profile, target.troop, multiple_wounds=f"{weapon.centre_wounds.value}, the centre hole only")
    dice = RecordingDice(dice)

    def record(misfire, direction, moved, centre, choice, picked, hits) -> StoneShot:
        dice.finish()
        unsaved = casualties = None
        if target.profile is not None and misfire is None:
            unsaved, casualties = pooled_casualties([h.wound for h in hits], target.profile, target.ranks * target.files)
        return StoneShot(
            weapon, target, formation, float(distance), aim, aimed, indirect, ballistic_skill, tuple(dice.rolled),
            misfire, scatter, artillery, direction, moved, centre, weapon.template.radius, choice, picked, hits,
            UNIT, target_rules, applied, unsaved, casualties, immunity,
        )

    # Scatter: the scatter die and the artillery die together.
    scatter = dice.scatter("scatter", small_arrow=indirect)
    artillery = dice.artillery("scatter distance")
    if artillery.is_misfire:
        misfire = roll_on_misfire_chart(dice, misfire_chart)
        return record(misfire, None, 0.0, None, (), (), ())
    if not scatter.is_hit:
        direction, moved = scatter.direction, float(artillery.value)
    elif indirect:
        direction, moved = scatter.direction, float(max(0, artillery.value - ballistic_skill))
    else:
        direction, moved = None, 0.0
    if not moved:
        direction = None
    centre = aim if not moved else aim.along(heading(direction), moved)

    # Damage: the model under the centre hole (one at random if it lies over several), then
    # every other model wholly or partly under the template.
    under_hole = formation.under_circle(centre, weapon.template.hole / 2)
    choice: tuple[tuple[int, int], ...] = ()
    picked: tuple[DieRoll, ...] = ()
    if len(under_hole) > 1:
        choice = tuple(formation.rank_file(r, c) for r, c in under_hole)
        index, picked = pick_at_random(dice, len(under_hole), "which model is under the centre hole")
        under_hole = [under_hole[index]]
    hits: list[TemplateHit] = []
    for row, col in under_hole:
        hits.append(_hit(dice, target, formation.rank_file(row, col), TemplateHitKind.CENTRE,
                         weapon.centre_strength, centre_wounds, applied))
    for row, col in formation.under_circle(centre, weapon.template.radius):
        if (row, col) not in under_hole:
            hits.append(_hit(dice, target, formation.rank_file(row, col), TemplateHitKind.TEMPLATE,
                             weapon.strength, None, applied))
    return record(None, direction, moved, centre, choice, picked, tuple(hits))


def _hit(dice: Dice, target: TargetUnit, rank_file: tuple[int, int], kind: TemplateHitKind,
         strength: int, wounds_die: DieKind | None, applied: Applied | None) -> TemplateHit:
    """One model's hit, resolved on its own (to wound, armour, ward, Multiple Wounds)."""
    rank, file = rank_file
    wound = None
    if target.profile is not None:
        (wound,) = resolve_hits(dice, names=[f"rank {rank} file {file}"], strength=strength, profile=target.profile,
                                multiple_wounds=wounds_die, ward=applied.ward)
    return TemplateHit(rank, file, kind, strength, wounds_die, wound)
