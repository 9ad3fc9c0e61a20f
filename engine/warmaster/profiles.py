"""Warmaster game data as frozen records (loaded from ``config/warmaster.toml`` by
``config.gamedata.warmaster``). Every record names its source: a seed section, or "core" for the
Warmaster core rulebook rules the seeds lean on (to hit by position, drive backs, full pace)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

UNIT = "cm"


class Position(enum.Enum):
    """Where a target stands, which sets the score to hit it (core rulebook)."""

    OPEN = "open"
    DEFENDED = "defended"
    FORTIFIED = "fortified"

    def shifted(self, steps: int) -> Position:
        """This position counted `steps` better for the shooter (fortified -> defended -> open)."""
        order = (Position.OPEN, Position.DEFENDED, Position.FORTIFIED)
        return order[max(0, order.index(self) - steps)]


@dataclass(frozen=True, slots=True)
class PositionRule:
    """A target position: core rulebook, Shooting."""

    position: Position
    name: str
    to_hit: int
    """The score needed to hit: 4+ in the open, 5+ defended, 6+ fortified."""
    drive_back_dice_less: int
    """Drive-back dice taken away: 0 in the open, 1 defended, 2 fortified."""
    source: str


@dataclass(frozen=True, slots=True)
class Troop:
    """A troop type's full pace move (core rulebook): driven back further, the unit is destroyed."""

    key: str
    name: str
    full_pace: int


@dataclass(frozen=True, slots=True)
class Artillery:
    """A Warmaster artillery piece or machine (seed 002)."""

    key: str
    name: str
    range: int
    """Maximum range, cm."""
    attacks: int
    """Shooting attacks per machine (0 when they come from range bands or stands skewered)."""
    effects: tuple[str, ...]
    """Its rules in our own words."""
    source: str
    bounce: int = 0
    """Cannon: how far the ball goes on beyond the stand it strikes, cm."""
    armour: str = "normal"
    """``normal``, ``ignored`` or ``worse`` (one worse)."""
    position_shift: int = 0
    """Steps a target's position counts better for it (cannon: fortified as defended)."""
    to_hit_bonus: int = 0
    bands: tuple[tuple[int, int], ...] = ()
    """Helblaster: (up to cm, attacks), nearest first."""
    skewers: int = 0
    """Bone thrower: stands it can strike in a line."""
    grapeshot_attacks: int = 0
    cut_off: bool = False
    """The seed's text stops partway through this entry."""


@dataclass(frozen=True, slots=True)
class Structure:
    """A fortification section's Structure points (seed 001, Fortification list)."""

    key: str
    name: str
    points: int
    source: str
    gate_points: int | None = None
    """A gateway tower's gate, a target of its own."""
    on_destroyed: str = ""
    """What its fall does, in our own words."""


@dataclass(frozen=True, slots=True)
class OilRow:
    low: int
    high: int
    attacks: int
    effect: str


@dataclass(frozen=True, slots=True)
class OilChart:
    """Boiling oil and rock droppers (seed 001): a D6 for the attacks on an assaulting unit."""

    name: str
    rows: tuple[OilRow, ...]
    armour_worse: int
    equipment_save: int
    """The save a unit under a sow or siege tower uses instead of its own."""
    source: str

    def row(self, roll: int) -> OilRow:
        return next(r for r in self.rows if r.low <= roll <= r.high)


@dataclass(frozen=True, slots=True)
class TroopProfile:
    """A profile line of the seed's tables: Type, Attack, Hits, Armour, Points, Min/max."""

    key: str
    name: str
    type: str
    attack: str
    hits: int
    armour: int
    """0 for none."""
    points: int
    min_max: str
    source: str


@dataclass(frozen=True, slots=True)
class SiegeArtillery:
    """Tribock, bombard, mangonel (seed 001)."""

    key: str
    name: str
    min_range: int
    range: int
    attacks: int
    corridor: int
    """Width of the straight-ahead sight corridor, cm."""
    bounce: bool
    position_shift: int
    effects: tuple[str, ...]
    source: str


@dataclass(frozen=True, slots=True)
class SiegeRules:
    ram_hits: int
    failed_batter_fall_back: int
    sally_gate_dice: int
    breaching_per_1000: int
    wall_breaching: tuple[str, ...]
    source: str
    giant_hits: int = 8
    """A Giant's Hits (core army lists): the battering unit's defaults when a giant batters."""
    giant_armour: int = 5
    """A Giant's Armour (5 for 5+, core army lists)."""
    siege_tower_reach: int = 4
    """cm: a unit thrown back from its siege tower this far or less is still in it (Siege towers)."""
    kindreds: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Kindreds an item may be barred to (the bombard: "Elves of any kindred, or Bretonnians"), each
    with the words that place an army name in it ("Dark Elf", "Sea Elves": elves)."""
    armies: tuple[str, ...] = ()
    """Warmaster armies a list may name (core rulebook and army books): a name neither here nor in a
    kindred is refused, so that a ban is never missed for a misspelt name."""


@dataclass(frozen=True, slots=True)
class Scenario:
    key: str
    name: str
    last_turn: int
    source: str
    ends_from_turn: int = 0
    ends_on: int = 0
    relief_from_turn: int = 0
    relief_on: int = 0
    dispatch_bonus: int = 0
    max_points: int = 0
    """The most points a side may have (0: no limit). The watchtower: 2000."""
    attacker_buys: tuple[str, ...] = ()
    """The only siege items the attacker may buy (empty: any). The watchtower: sows and mantlets."""
    garrison_units: int = 0
    """Units the defender may place inside the tower (the watchtower: 2)."""
    garrison_cost: int = 1
    """What units inside the tower cost, times their points (the watchtower: 3)."""
    contingent_share: int = 0
    """The defence of the tower may take at most 1/N of the defender's points (the watchtower: 4)."""
    fortification_share: int = 0
    """The defender should spend about 1/N of his points on fortifications, the front side only
    (into the breach: 2); a guide, not a limit."""


@dataclass(frozen=True, slots=True)
class Equipment:
    """An item of the siege equipment lists (seed 001): its points and limits."""

    key: str
    name: str
    list: str
    """"fortification", "siege equipment", "siege artillery", or "army" (an army list's own
    wall-breacher, counted but not priced here)."""
    cost: int
    """Points each (0 for an army item)."""
    side: str
    """Who may buy it: "defender", "attacker" or "both"."""
    min: int = 0
    max: int | None = None
    """Per 1000 points (the gateway's minimum: one for a fortified defender)."""
    breaching: bool = False
    """Wall-breaching artillery."""
    not_for: tuple[str, ...] = ()
    """Kindreds that may not field it (keys of :attr:`SiegeRules.kindreds`)."""
    note: str = ""
    source: str = "Warmaster Siege & Fortresses: Siege equipment lists"
