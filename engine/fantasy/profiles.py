"""Record types for Warhammer Fantasy game data.

The numbers live in ``config/fantasy.toml``; ``config.gamedata`` loads them into these frozen
records once and hands them to the procedures. Code here holds shapes, never numbers.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.dice import DieKind


@dataclass(frozen=True, slots=True)
class CannonProfile:
    """A cannon's profile (War Machines: Cannons)."""

    key: str
    """The command's name for it: ``"cannon"``, ``"great-cannon"``."""
    name: str
    """As the rulebook names it."""
    min_range: int
    """Minimum range in inches; the aim marker must be at least this far."""
    max_range: int
    """Maximum range in inches."""
    strength: int
    """Strength of every hit, direct or bounce."""
    direct_wounds: DieKind
    """Multiple Wounds die for the model the ball lands on."""
    bounce_wounds: DieKind
    """Multiple Wounds die for the models the bounce hits."""
    special_rules: tuple[str, ...]
    """Special rules as the profile lists them."""
    misfire_chart: str
    """Key of the misfire chart a misfire sends you to."""
    source: str
    """Game and section, for players to check their book."""


@dataclass(frozen=True, slots=True)
class Template:
    """A round template."""

    key: str
    name: str
    diameter: float
    """Inches across."""
    hole: float
    """The centre hole's width in inches: every model it lies over is a candidate for the
    centre hit."""

    @property
    def radius(self) -> float:
        return self.diameter / 2


@dataclass(frozen=True, slots=True)
class TeardropTemplate:
    """The teardrop-shaped (flame) template: two circles, a small one at the narrow end and a
    large one at the wide end, and everything between them (their convex hull). Its size is not
    in the seeds: it is the core rulebook's flame template (see config/fantasy.toml)."""

    key: str
    name: str
    length: float
    """Inches from the tip of the narrow end to the far edge of the wide end."""
    narrow: float
    """Inches across the narrow end (the small circle's diameter)."""
    wide: float
    """Inches across the wide end (the large circle's diameter)."""
    source: str

    @property
    def narrow_radius(self) -> float:
        return self.narrow / 2

    @property
    def wide_radius(self) -> float:
        return self.wide / 2


@dataclass(frozen=True, slots=True)
class FireThrowerProfile:
    """A fire thrower's profile (War Machines: Fire Throwers): no range of its own (the template
    starts at the barrel), Strength 5, Flaming Attacks."""

    key: str
    name: str
    strength: int
    special_rules: tuple[str, ...]
    template: TeardropTemplate
    misfire_chart: str
    source: str


@dataclass(frozen=True, slots=True)
class FlamingAttacks:
    """What Flaming Attacks do to a Panic test (Special Rules: Flaming Attacks): the troop types
    (and Flammable models) that fear them take the test at this much less Leadership."""

    panic_penalty: int
    troops: tuple[str, ...]
    """Troop type keys that fear flames."""


@dataclass(frozen=True, slots=True)
class StoneThrowerProfile:
    """A stone thrower's profile (War Machines: Stone Throwers)."""

    key: str
    name: str
    min_range: int
    max_range: int
    strength: int
    """The lower Strength: every model under the template but the one under the centre hole."""
    centre_strength: int
    """The higher Strength (the bracketed one): the model under the centre hole."""
    centre_wounds: DieKind
    """Multiple Wounds die, for the centre hole's hit only."""
    template: Template
    special_rules: tuple[str, ...]
    misfire_chart: str
    source: str


@dataclass(frozen=True, slots=True)
class BoltThrowerProfile:
    """A bolt thrower's profile (War Machines: Bolt Throwers)."""

    key: str
    name: str
    range: int
    """Maximum range in inches; no minimum."""
    strength: int
    """Strength against the first model; one less for each model slain before."""
    multiple_wounds: DieKind
    armour_piercing: int
    special_rules: tuple[str, ...]
    ranked_target: int
    """The fewest rank-and-file models for the bolt to go through the ranks; below it the model
    hit in the rank is chosen at random."""
    source: str


@dataclass(frozen=True, slots=True)
class GrapeshotProfile:
    """Grapeshot, the cannon's other load (War Machines: Grapeshot)."""

    key: str
    name: str
    range: int
    """Maximum range in inches; no minimum."""
    strength: int
    armour_piercing: int
    special_rules: tuple[str, ...]
    misfire_chart: str
    source: str


@dataclass(frozen=True, slots=True)
class ToHitPenalties:
    """The shooting modifiers a war machine can suffer, as points of penalty to hit. (War machines
    ignore the penalties for moving and for multiple shots.)"""

    long_range: int
    """Beyond half the weapon's maximum range."""
    soft_cover: int
    hard_cover: int


class MisfireOutcome(enum.Enum):
    """What a misfire chart row does to the machine."""

    DESTROYED = "destroyed"
    MALFUNCTION = "malfunction"
    DISABLED = "disabled"
    MAY_NOT_SHOOT = "may not shoot"


@dataclass(frozen=True, slots=True)
class MisfireRow:
    """One row of a misfire chart."""

    low: int
    """Lowest D6 score of the row."""
    high: int
    """Highest D6 score of the row."""
    outcome: MisfireOutcome
    """What happens."""
    title: str
    """The row's heading."""
    effect: str
    """What it means for the machine, in our words."""
    silent_turns: int
    """How many of the controlling player's turns, counting this one, the machine cannot fire."""
    wounds: int
    """Wounds the machine suffers, with no armour save."""


@dataclass(frozen=True, slots=True)
class MisfireChart:
    """A D6 misfire chart."""

    key: str
    name: str
    rows: tuple[MisfireRow, ...]
    source: str

    def row_for(self, score: int) -> MisfireRow:
        for row in self.rows:
            if row.low <= score <= row.high:
                return row
        raise ValueError(f"{self.name} has no row for {score}")  # data validated at load: a bug


@dataclass(frozen=True, slots=True)
class TroopType:
    """A troop type (Warhammer Fantasy's Bestiary classes) as far as war machines care."""

    key: str
    """Option value: ``"infantry"``, ``"monstrous-infantry"``..."""
    name: str
    """As players say it."""
    monstrous: bool
    """Monsters and monstrous infantry, cavalry and beasts: a cannon ball that hits one and does
    not slay it stops there."""
    base_width: int
    """Usual base width in millimetres."""
    base_depth: int
    """Usual base depth in millimetres."""
