"""Vehicle moving and firing (Warhammer 40,000 trial vehicle rules: Moving and Shooting, the
Vehicle Moving & Firing Summary): what a vehicle of each type may fire after moving so far. Main
weapons are Strength 6 or more (or a random Strength that can beat 6), defensive ones Strength 5
or less; a vehicle that fires ordnance fires nothing else; passengers may not fire from a
vehicle that moved more than 12". A vehicle that moved more than 12" fires no weapons (the
summary's last column); a normal or fast vehicle may go 6" further along a road (Movement: Roads),
and then may not shoot at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import RulesError
from engine.wh40k.profiles import FiringRow, FiringSummary

MAX_MOVE = 30.0


@dataclass(frozen=True, slots=True)
class FiringAnswer:
    summary: FiringSummary
    row: FiringRow
    moved: float
    column: int
    """Index of the speed column that applies."""
    road: bool = False
    """It moved further than its type can cross country: only along a road (+6"), which lets it
    shoot nothing that turn."""

    @property
    def weapons(self) -> str:
        return "no weapons" if self.road else self.row.weapons[self.column]


def may_fire(summary: FiringSummary, vehicle_type: str, moved: float) -> FiringAnswer:
    rows = {r.key: r for r in summary.types}
    if vehicle_type not in rows:
        raise RulesError(f"Vehicle type '{vehicle_type}' is not one of {', '.join(rows)}.")
    if not 0 <= moved <= MAX_MOVE:
        raise RulesError(f"Moved {moved:g}\" is not possible here: give 0 to {MAX_MOVE:g}\".")
    row = rows[vehicle_type]
    road = row.key in summary.road_types and row.max_move < moved <= row.max_move + summary.road_bonus
    if moved > row.max_move and not road:
        most = row.max_move + (summary.road_bonus if row.key in summary.road_types else 0)
        raise RulesError(f"A {row.name.lower()} moves at most {most}\" in the Movement phase"
                         + (" (on a road)" if most > row.max_move else "") + f", not {moved:g}\".")
    for i, speed in enumerate(summary.speeds):
        if speed.up_to is None or moved <= speed.up_to:
            return FiringAnswer(summary, row, float(moved), i, road)
    raise AssertionError("the last speed column covers any distance")  # the data test checks it
