"""The vehicle being hit: what the damage rules need to know about it.

Warhammer 40,000 trial vehicle rules: Obscured Targets and Glancing Hits, Open-Topped Vehicles,
Notes (crew and passengers, stun results, immobilised vehicles), the Damage tables' fine print.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import RulesError
from engine.inputs import check_list, read_float

MIN_ARMOUR, MAX_ARMOUR = 10, 14
"""Armour Values run from 10 (the lightest vehicle) to 14."""
MAX_PASSENGERS = 30
MAX_NEARBY = 40
MAX_NEARBY_DISTANCE = 12.0


def check_armour(armour: object, what: str = "Armour") -> int:
    if isinstance(armour, bool) or not isinstance(armour, int) or not MIN_ARMOUR <= armour <= MAX_ARMOUR:
        raise RulesError(f"{what} {armour!r} is not an Armour Value: give {MIN_ARMOUR} to {MAX_ARMOUR}.")
    return armour


def check_save(save: object, what: str) -> int | None:
    if save is None:
        return None
    if isinstance(save, bool) or not isinstance(save, int) or not 2 <= save <= 6:
        raise RulesError(f"{what} {save!r} is not a saving throw: give 2 to 6 (4 for a 4+ save).")
    return save


@dataclass(frozen=True, slots=True)
class VehicleState:
    """The hit vehicle's type and state, as far as a hit on it cares."""

    open_topped: bool = False
    """+1 to every damage roll; blasts and templates hit it twice."""
    skimmer_fast: bool = False
    """A skimmer that ended its move more than 6" from where it started: penetrating hits count
    as glancing, and being immobilised crashes and destroys it."""
    skimmer: bool = False
    """A skimmer, however far it moved: stunned, it drifts D6" in its next Movement phase
    (``skimmer_fast`` is a skimmer too)."""
    hull_down: bool = False
    """In or behind cover: penetrating hits count as glancing."""
    smoke: bool = False
    """Hidden by its smoke launchers this enemy turn: penetrating hits count as glancing."""
    immobilised: bool = False
    """Already immobilised before this hit."""
    stunned: bool = False
    """Its crew already stunned this turn (stuns do not add up)."""
    main_weapons: bool = True
    """It still has a main weapon (Strength 6 or more)."""
    passengers: int = 0
    """Models embarked."""
    passenger_save: int | None = None
    """Their armour save (4 for 4+); None when they have none or the players roll saves."""
    nearby: tuple[float, ...] = ()
    """Models near the vehicle: each one's distance in inches from the hull's edge, for the
    explosion rows."""
    nearby_save: int | None = None
    """Those models' armour save."""

    def __post_init__(self) -> None:
        if isinstance(self.passengers, bool) or not isinstance(self.passengers, int) or not 0 <= self.passengers <= MAX_PASSENGERS:
            raise RulesError(f"Passengers {self.passengers!r} is not possible: give 0 to {MAX_PASSENGERS} models.")
        check_save(self.passenger_save, "Passenger save")
        check_save(self.nearby_save, "Nearby save")
        if self.passenger_save is not None and not self.passengers:
            raise RulesError(f"Passenger save {self.passenger_save}+ with no passengers aboard: give passengers "
                             "(how many models), or leave the save out.")
        if self.nearby_save is not None and not self.nearby:
            raise RulesError(f"Nearby save {self.nearby_save}+ with no models nearby: give nearby (each model's inches "
                             "from the hull), or leave the save out.")
        if len(self.nearby) > MAX_NEARBY:
            raise RulesError(f"{len(self.nearby)} nearby models is more than we roll for: give at most {MAX_NEARBY}.")
        for d in self.nearby:
            if not 0 <= d <= MAX_NEARBY_DISTANCE:
                raise RulesError(
                    f"Nearby model at {d:g}\" is not possible: give each model's distance from the hull, 0 to {MAX_NEARBY_DISTANCE:g}\"."
                )

    @property
    def is_skimmer(self) -> bool:
        return self.skimmer or self.skimmer_fast

    @property
    def obscured_by(self) -> tuple[str, ...]:
        """Why a penetrating hit would count as glancing: "skimmer moving fast", "hull down",
        "smoke"; empty when nothing does."""
        reasons = (("skimmer moving fast", self.skimmer_fast), ("hull down", self.hull_down), ("smoke", self.smoke))
        return tuple(name for name, on in reasons if on)


def parse_distances(text: str | None) -> tuple[float, ...]:
    """The `nearby` option: distances in inches separated by spaces or commas ("1 2.5 4")."""
    if not text or not text.strip():
        return ()
    tokens = text.replace(",", " ").split()
    check_list(len(tokens), MAX_NEARBY, "Nearby: models")
    return tuple(read_float(token.rstrip('"'), "Nearby: a distance in inches") for token in tokens)
