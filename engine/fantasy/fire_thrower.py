"""Firing a fire thrower (Warhammer Fantasy, War Machines: Fire Throwers).

:func:`fire_fire_thrower` follows the book in its order: lay the teardrop-shaped template along
the line of fire, its narrow end at the barrel (or, for a fire thrower with a range value,
anywhere within that range), its wide end toward the target model; roll the artillery die (a
misfire goes to the Black Powder Misfire Chart and nothing is fired) and move the template
straight forward that many inches, past the target if it comes to that; every model under it is
hit at Strength 5 with Flaming Attacks; a unit that suffers any casualty takes a Panic test.

The wounds of all the hits pool on the unit (seed 000:144 counts the unit's casualties): a unit of
multi-Wound models loses a whole model for each full set of Wounds among the unsaved wounds.
Fire throwers are not physical attacks (000:144): a model with Immunity (Flaming Attacks) takes
nothing from them (003:246). A unit Immune to Panic or to Psychology (every Frenzied unit: 003:190)
takes no Panic test (003:248-250). Dodge (n) is a ward save against the template when the machine
is in the models' front arc (003:94).

Flaming Attacks (Special Rules): against a Flammable model failed wound rolls are re-rolled; a
Panic test a flaming attack causes is taken at -1 Leadership by War Beasts, Cavalry, Chariots
and Flammable models. The template's size is the core rulebook's flame template (not in the
seeds; config/fantasy.toml).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.fantasy.formation import Facing, Formation, TargetUnit, lay_out
from engine.fantasy.misfire import Misfire, roll_on_misfire_chart
from engine.fantasy.profiles import FireThrowerProfile, FlamingAttacks, MisfireChart
from engine.fantasy.psychology import LeadershipTest, check_leadership, take_leadership_test
from engine.fantasy.special_rules import Applied, AttackRules, TargetRules, apply_rules, immune_to_panic
from engine.fantasy.wounding import WoundRoll, pooled_casualties, resolve_hits
from engine.geometry import Point

UNIT = "in"
MAX_DISTANCE = 48
"""Inches to the target model: the flame reaches at most the range, the template and 10"."""


@dataclass(frozen=True, slots=True)
class FlameHit:
    """One model under the template."""

    rank: int
    file: int
    strength: int
    wound: WoundRoll | None
    """The wounding sequence when the profile was given; None leaves it to the players."""


@dataclass(frozen=True, slots=True)
class FireThrowerShot:
    """Everything a fire thrower shot did, in the order it happened."""

    weapon: FireThrowerProfile
    target: TargetUnit
    formation: Formation
    """The target's bases in the shot frame (barrel at the origin, fire along +y)."""
    distance: float
    """Barrel to the target model's centre, inches."""
    aimed_model: tuple[int, int]
    range: float | None
    """The fire thrower's range value, when it has one: the narrow end may go anywhere within it."""
    start: float
    """Barrel to the narrow end as the template was placed, inches (0: touching the barrel)."""
    flammable: bool
    """The target is Flammable: failed wound rolls are re-rolled, and it fears the flames."""
    leadership: int | None
    dice: tuple[DieRoll, ...]
    artillery: DieRoll
    misfire: Misfire | None
    moved: float
    """How far the template moved straight forward (the artillery die), inches; 0 on a misfire."""
    length: float
    """The template's length, inches."""
    narrow_radius: float
    wide_radius: float
    hits: tuple[FlameHit, ...]
    """Nearest rank (as the machine sees them) first, left to right."""
    casualties: int | None
    """Models slain, the unsaved wounds pooled on the unit; None when no profile was given (the
    players roll)."""
    panic_modifiers: tuple[tuple[str, int], ...]
    """Leadership modifiers of the Panic test: Flaming Attacks against those that fear them."""
    panic: LeadershipTest | None
    """The Panic test, rolled when the unit suffered casualties and its Leadership was given."""
    unit: str = UNIT
    target_rules: TargetRules = TargetRules()
    """The target's special rules: Dodge, Immunity (Flaming Attacks, Panic, Psychology)."""
    applied: Applied | None = None
    """The special rules as they came out against the target's profile; None without a profile."""
    unsaved: int | None = None
    """Unsaved wounds of all the hits together (each hit's kept to one model's Wounds); None
    without a profile."""
    no_effect: bool = False
    """Immunity (Flaming Attacks): the flame, not a physical attack, does nothing to the unit."""
    panic_immunity: str | None = None
    """The Immunity that spares the unit its Panic test ("Panic", "Psychology"); None when it has none."""

    @property
    def fired(self) -> bool:
        return self.misfire is None

    @property
    def placed_tip(self) -> Point:
        """The narrow end's tip where the template was placed."""
        return Point(0.0, self.start)

    @property
    def tip(self) -> Point | None:
        """The narrow end's tip where the flame landed; None on a misfire."""
        return None if self.misfire else Point(0.0, self.start + self.moved)

    @property
    def wiped_out(self) -> bool:
        """Every model of the unit slain: no one is left to take a Panic test."""
        return self.casualties is not None and self.casualties >= self.target.ranks * self.target.files

    @property
    def panic_required(self) -> bool | None:
        """Whether the unit must take a Panic test: True after any casualty while models are
        left, None when no profile was given and any model slain by the players' rolls means a test."""
        if not self.fired or self.wiped_out:
            return False
        if self.no_effect or self.panic_immunity is not None:
            return False
        if self.casualties is None:
            return None if self.hits else False
        return self.casualties > 0


def fire_fire_thrower(
    weapon: FireThrowerProfile,
    misfire_chart: MisfireChart,
    flaming: FlamingAttacks,
    target: TargetUnit,
    distance: float,
    dice: Dice,
    *,
    range: float | None = None,
    start: float = 0.0,
    aim_rank: int | None = None,
    aim_file: int | None = None,
    flammable: bool = False,
    leadership: int | None = None,
    target_rules: TargetRules = TargetRules(),
) -> FireThrowerShot:
    """Fire `weapon` at `target`, its wide end aimed at the model `distance` inches from the
    barrel (by default the centre model of the rank facing the machine). A fire thrower with a
    `range` value may place the narrow end `start` inches out, up to that range. `target_rules`:
    the target's Dodge and Immunities (Flammable may come through either)."""
    if not 0 < distance <= MAX_DISTANCE:
        raise RulesError(f"Distance {distance:g}\" is not possible here: the target model must be within {MAX_DISTANCE}\".")
    if range is not None and not 0 < range <= MAX_DISTANCE:
        raise RulesError(f"Range {range:g}\" is not possible here: give up to {MAX_DISTANCE}\".")
    if start < 0:
        raise RulesError(f"Start {start:g}\" is not possible: the narrow end goes at or beyond the barrel.")
    if start > 0 and range is None:
        raise RulesError(f"Start {start:g}\" needs a range: a fire thrower without a range value places the narrow end touching the barrel.")
    if range is not None and start > range:
        raise RulesError(f"Start {start:g}\" is beyond the fire thrower's range of {range:g}\".")
    if start >= distance:
        raise RulesError(f"Start {start:g}\" is not short of the target at {distance:g}\": the wide end must be aimed at it.")
    check_leadership(leadership)
    formation, aimed = lay_out(target, distance, aim_rank, aim_file)
    flammable = flammable or target_rules.flammable
    # Dodge works only against attacks in the models' front arc: the unit's front must face the machine.
    target_rules = replace(target_rules.seen_from(target.facing is Facing.FRONT), flammable=flammable)
    attack = AttackRules(flaming=True, automatic=True, physical=False)
    t = weapon.template
    fears = flammable or target.troop.key in flaming.troops
    calm = immune_to_panic(target_rules)
    modifiers = (("Flaming Attacks", -flaming.panic_penalty),) if fears and calm is None else ()
    no_effect = "flaming" in target_rules.immune
    dice = RecordingDice(dice)

    def record(artillery, misfire, moved, hits, casualties, panic, applied=None, unsaved=None) -> FireThrowerShot:
        dice.finish()
        return FireThrowerShot(
            weapon, target, formation, float(distance), aimed, range, float(start), flammable, leadership,
            tuple(dice.rolled), artillery, misfire, moved, t.length, t.narrow_radius, t.wide_radius, hits, casualties,
            modifiers, panic, UNIT, target_rules, applied, unsaved, no_effect and misfire is None, calm,
        )

    # The artillery die: a misfire goes to the chart; otherwise the template moves straight on.
    artillery = dice.artillery("how far the flame goes")
    if artillery.is_misfire:
        return record(artillery, roll_on_misfire_chart(dice, misfire_chart), 0.0, (), None, None)
    moved = float(artillery.value)
    tip = Point(0.0, start + moved)

    # Every model under the template is hit: Strength 5, Flaming Attacks. Not a physical attack:
    # against Immunity (Flaming Attacks) it does nothing.
    cells = formation.under_teardrop(tip, t.length, t.narrow_radius, t.wide_radius)
    places = [formation.rank_file(r, c) for r, c in cells]
    wounds: tuple[WoundRoll | None, ...] = (None,) * len(places)
    applied = None
    if target.profile is not None:
        applied = apply_rules(attack, target_rules, target.profile, target.troop)
        if places and not no_effect:
            wounds = resolve_hits(dice, names=[f"rank {r} file {f}" for r, f in places], strength=weapon.strength,
                                  profile=target.profile, reroll_failed_wounds=applied.reroll_failed_wounds,
                                  ward=applied.ward)
    hits = tuple(FlameHit(r, f, weapon.strength, w) for (r, f), w in zip(places, wounds))

    # The wounds pool on the unit; a unit that suffers any casualty takes a Panic test (if any of
    # it is left to take one, and it is not Immune to Panic).
    unsaved = casualties = None
    if target.profile is not None:
        unsaved, casualties = pooled_casualties(wounds, target.profile, target.ranks * target.files)
    elif no_effect:
        unsaved, casualties = 0, 0
    panic = None
    if casualties and casualties < target.ranks * target.files and leadership is not None and calm is None:
        panic = take_leadership_test(dice, "Panic test", leadership, modifiers)
    return record(artillery, None, moved, hits, casualties, panic, applied, unsaved)
