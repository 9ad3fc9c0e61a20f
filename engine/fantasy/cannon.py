"""Firing a cannon or great cannon (Warhammer Fantasy, War Machines: Cannons).

:func:`fire_cannon` follows the book in its order: choose the target and place the marker; fire
(scatter die and artillery die together; a misfire goes to the misfire chart and nothing is
fired); the shot line from the barrel through the marker; the bounce (the artillery die again; a
misfire means no bounce); who has been hit (one model per rank, monsters that survive stop the
ball); then the damage, D6 wounds for the direct hit and the profile's die for the bounce.

Whether a monstrous model stops the ball is decided by its own hit (000:84), and a hit's Multiple
Wounds never go beyond its own model's Wounds (000:122); the casualties the unit takes are the
unsaved wounds of all the hits pooled on it, a whole model for each full set of Wounds. Dodge (n)
is a ward save against the ball, the bounce being a kind of template (000:81; 003:94), when the
cannon is in the models' front arc. Ethereal models take their 2+ ward save: the ball is a mundane
attack (003:101). A model Immune to Multiple Wounds ignores that rule and nothing else: each of its
unsaved wounds is one wound, direct hit or bounce, and no wounds die is rolled (003:246).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.dice import Dice, DieKind, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.fantasy.formation import Facing, Formation, TargetUnit, lay_out
from engine.fantasy.misfire import Misfire, roll_on_misfire_chart
from engine.fantasy.profiles import CannonProfile, MisfireChart
from engine.fantasy.special_rules import Applied, AttackRules, TargetRules, apply_rules, immune_rules, multiplied
from engine.fantasy.wounding import WoundRoll, pooled_casualties, resolve_hits
from engine.geometry import Point, heading

UNIT = "in"


class HitKind(enum.Enum):
    DIRECT = "direct"
    """The model the ball lands on, where the marker ends up after scatter."""
    BOUNCE = "bounce"
    """A model whose base the bounce crosses."""


@dataclass(frozen=True, slots=True)
class CannonHit:
    """One model hit by the cannon ball."""

    rank: int
    """The unit's own rank (1 = front rank)."""
    file: int
    """The unit's own file, counted left to right as the cannon sees the unit."""
    row: int
    """The rank as the cannon sees it, 1 nearest; the book's "one model per rank" counts these."""
    kind: HitKind
    strength: int
    wounds_die: DieKind | None
    """The Multiple Wounds die this hit carries (D6 direct; D3 bounce for a cannon); None when the
    target is Immune to Multiple Wounds (one wound)."""
    at: Point
    """Where the ball meets the base."""
    travelled: float
    """How far past the landing point that is, inches."""
    wound: WoundRoll | None
    """The wounding sequence when the profile was given; None leaves it to the players."""
    conditional: bool
    """True when an earlier monstrous model was hit without a profile: this model is hit only
    if the players' rolls slay that one."""


@dataclass(frozen=True, slots=True)
class CannonShot:
    """Everything a cannon shot did, in the order it happened."""

    weapon: CannonProfile
    target: TargetUnit
    formation: Formation
    """Where the target's bases stand in the shot frame (muzzle at the origin, fire along +y)."""
    distance: float
    """Muzzle to aim marker, inches."""
    aim: Point
    """Where the marker was placed: the aimed model's centre, straight ahead."""
    aimed_model: tuple[int, int]
    """The aimed model's (rank, file)."""
    dice: tuple[DieRoll, ...]
    """Every die in the order rolled."""
    misfire: Misfire | None
    """The misfire chart result when the artillery die misfired; then nothing was fired."""
    scatter: DieRoll | None
    artillery: DieRoll | None
    scatter_distance: float
    """How far the marker moved: 0 on a hit, else half the artillery die."""
    landing: Point | None
    """Where the ball first strikes the ground."""
    bounce: DieRoll | None
    """The artillery die rolled for the bounce."""
    bounce_distance: float
    """How far the ball bounces: 0 when the bounce die misfired."""
    path_end: Point | None
    """Where the full bounce would end."""
    rest: Point | None
    """Where the ball comes to rest: the path's end, or the monster that stopped it."""
    stopped_by: int | None
    """Index in `hits` of the monstrous model that stopped the ball."""
    hits: tuple[CannonHit, ...]
    """Models hit, in the order the ball reached them."""
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
    """The ball's rules the target is Immune to, and so ignores ("multiple-wounds"), profile or none."""

    @property
    def fired(self) -> bool:
        return self.misfire is None


def fire_cannon(
    weapon: CannonProfile,
    misfire_chart: MisfireChart,
    target: TargetUnit,
    distance: float,
    dice: Dice,
    *,
    aim_rank: int | None = None,
    aim_file: int | None = None,
    target_rules: TargetRules = TargetRules(),
) -> CannonShot:
    """Fire `weapon` at `target`, the aim marker `distance` inches from the muzzle over the
    model at `aim_rank`, `aim_file`: by default the centre model of the rank facing the cannon.
    `target_rules`: the target's Dodge, Ethereal and Immunity (Multiple Wounds)."""
    # Choose target: the marker within range, over a model of the target unit.
    if not weapon.min_range <= distance <= weapon.max_range:
        raise RulesError(
            f"Distance {distance:g}\" is outside the {weapon.name.lower()}'s range: the marker must be "
            f"{weapon.min_range}-{weapon.max_range}\" from the muzzle."
        )
    formation, aimed = lay_out(target, distance, aim_rank, aim_file)
    marker = Point(0.0, float(distance))
    # Dodge works only against attacks in the models' front arc: the unit's front must face the cannon.
    target_rules = target_rules.seen_from(target.facing is Facing.FRONT)
    # The ball's Multiple Wounds (D6 direct, the profile's die on the bounce), unless the target is Immune to them.
    attack = AttackRules(multiple_wounds=weapon.direct_wounds, automatic=True)
    immunity = tuple(immune_rules(attack, target_rules))
    dies = {HitKind.DIRECT: weapon.direct_wounds, HitKind.BOUNCE: weapon.bounce_wounds}
    if not multiplied(attack, target_rules, immunity):
        dies = {HitKind.DIRECT: None, HitKind.BOUNCE: None}
    applied = None
    if target.profile is not None:
        both = weapon.direct_wounds.value if weapon.direct_wounds is weapon.bounce_wounds else \
            f"{weapon.direct_wounds.value} direct, {weapon.bounce_wounds.value} bounce"
        applied = apply_rules(attack, target_rules, target.profile, target.troop, multiple_wounds=both)
    dice = RecordingDice(dice)

    # Fire! The scatter die and the artillery die together.
    scatter = dice.scatter("scatter")
    artillery = dice.artillery("scatter distance")
    if artillery.is_misfire:
        misfire = roll_on_misfire_chart(dice, misfire_chart)
        dice.finish()
        return CannonShot(
            weapon, target, formation, float(distance), marker, aimed, tuple(dice.rolled), misfire,
            scatter, artillery, 0.0, None, None, 0.0, None, None, None, (), UNIT, target_rules, applied,
            immunity=immunity,
        )
    scatter_distance = 0.0 if scatter.is_hit else artillery.value / 2
    landing = marker if scatter.is_hit else marker.along(heading(scatter.direction), scatter_distance)

    # The shot line runs from the barrel through the landing point; the ball bounces along it.
    line = landing.unit()
    bounce = dice.artillery("bounce")
    bounce_distance = 0.0 if bounce.is_misfire else float(bounce.value)
    path_end = landing.along(line, bounce_distance)

    # Who's been hit: the model under the landing point, then each rank the bounce crosses.
    struck: list[tuple[int, int, float, HitKind]] = []
    under = formation.cell_at(landing)
    if under is not None:
        struck.append((under[0], under[1], 0.0, HitKind.DIRECT))
    if bounce_distance:
        struck.extend(
            (row, col, t, HitKind.BOUNCE)
            for row, col, t in formation.crossings(landing, line, bounce_distance)
            if under is None or row != under[0]  # at most one model per rank
        )

    # Damage, model by model in the order the ball reaches them; a monstrous model that
    # survives robs the ball of its momentum.
    hits: list[CannonHit] = []
    rest, stopped_by, after_monster = path_end, None, False
    for row, col, t, kind in struck:
        rank, file = formation.rank_file(row, col)
        who = f"rank {rank} file {file}"
        die = dies[kind]
        wound = None
        if target.profile is not None:
            (wound,) = resolve_hits(dice, names=[who], strength=weapon.strength, profile=target.profile,
                                    multiple_wounds=die, ward=applied.ward)
        at = landing.along(line, t)
        hits.append(CannonHit(rank, file, row + 1, kind, weapon.strength, die, at, t, wound, after_monster))
        if target.troop.monstrous:
            if wound is None:
                after_monster = True
            elif not wound.slain:
                rest, stopped_by = at, len(hits) - 1
                break
    # The unit's casualties: every hit's unsaved wounds pooled on it.
    unsaved = casualties = None
    if target.profile is not None:
        unsaved, casualties = pooled_casualties([h.wound for h in hits], target.profile, target.ranks * target.files)
    dice.finish()
    return CannonShot(
        weapon, target, formation, float(distance), marker, aimed, tuple(dice.rolled), None,
        scatter, artillery, scatter_distance, landing, bounce, bounce_distance, path_end, rest,
        stopped_by, tuple(hits), UNIT, target_rules, applied, unsaved, casualties, immunity,
    )
