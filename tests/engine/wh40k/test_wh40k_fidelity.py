"""Issue 16, Warhammer 40,000: scenario tests with entered dice, each quoting the seed line it follows."""

from __future__ import annotations

import math

import numpy as np
import pytest

from config.gamedata import wh40k
from engine.dice import EnteredDice
from engine.errors import RulesError
from engine.geometry import Point
from engine.wh40k.blast import Coverage, base_coverage
from engine.wh40k.damage import damage_roll
from engine.wh40k.firing import may_fire
from engine.wh40k.ordnance import fire_ordnance
from engine.wh40k.squad import Squad, VehicleTarget
from engine.wh40k.vehicle import VehicleState
from tests.engine.conftest import NoDice

DATA = wh40k()
MARKER = DATA.blast_markers["large"]


def entered(faces: str) -> EnteredDice:
    return EnteredDice(faces, NoDice())


def fire(dice: str, **kwargs):
    kwargs.setdefault("strength", 8)
    kwargs.setdefault("distance", 30)
    if "vehicle" not in kwargs:
        kwargs.setdefault("squad", Squad(1, 25))
    return fire_ordnance(MARKER, DATA.penetration["ordnance"], DATA.damage_tables, DATA.wounds, entered(dice),
                         pinning_modifier=DATA.pinning_modifier, **kwargs)


# 1. Seed 004, Vehicle Moving & Firing Summary: "More than 12"" ... "No weapons"; Movement, Roads:
# vehicles "who follow a road for the entire Movement phase may add 6" to their maximum speed ...
# if they do not shoot".

@pytest.mark.parametrize("kind, moved", [("normal", 13), ("normal", 18), ("fast", 13), ("fast", 24), ("fast", 30)])
def test_more_than_12_inches_fires_no_weapons(kind, moved):
    assert may_fire(DATA.firing, kind, moved).weapons == "no weapons"


def test_only_a_road_takes_a_normal_vehicle_past_12_and_not_a_walker():
    assert may_fire(DATA.firing, "normal", 15).road and not may_fire(DATA.firing, "fast", 15).road
    with pytest.raises(RulesError, match="at most 6"):
        may_fire(DATA.firing, "walker", 7)


# 2. Seed 004, Notes: "A skimmer with stunned crew drifts D6" in a direction indicated by rolling
# the Scatter dice in its next Movement phase" (any skimmer, not only one moving fast).

def test_any_skimmer_with_stunned_crew_drifts():
    d = damage_roll(DATA.damage_tables["glancing"], VehicleState(skimmer=True), entered("3"), DATA.wounds).damage
    assert d.row.name == "crew stunned" and any("drifts" in n for n in d.notes)
    # Not said to be a skimmer (/40k penetrate and /40k damage have no room for the option): the
    # note is conditional.
    other = damage_roll(DATA.damage_tables["glancing"], VehicleState(), entered("3"), DATA.wounds).damage
    assert any(n.startswith("If it is a skimmer") for n in other.notes)


# 3. Seed 004, Glancing Hit 5: "If the vehicle is already immobilised then treat this as a crew
# stunned result instead" -- ordnance takes the vehicle's state as penetration does.

def test_ordnance_glancing_5_on_an_immobilised_vehicle_reads_crew_stunned():
    # On target (H, D6 1); S8 + the higher of 5 2 = 13 against front 13: glancing; damage 5.
    shot = fire("H 1 5 2 5", vehicle=VehicleTarget(13, 11, 10), vehicle_state=VehicleState(immobilised=True))
    d = shot.vehicle_hits[0].damage
    assert d.table.key == "glancing" and d.row.name == "immobilised" and d.counts_as == "crew stunned"


def test_ordnance_passengers_take_their_save():
    # Penetrating: S8 + 6 = 14 against 13; ordnance table 4: destroyed, the wreck slews (H: flips).
    # Two passengers: wound 4 and 5, saves 3+: 3 saves, 1 does not.
    shot = fire("H 1 6 2 4 H 4 3 5 1", vehicle=VehicleTarget(13, 11, 10),
                vehicle_state=VehicleState(passengers=2, passenger_save=3))
    p = shot.vehicle_hits[0].damage.passengers
    assert p.pinned and p.unsaved == 1


# 4. Seed 004, Incoming!: "Units suffering casualties from an ordnance barrage must pass a
# Leadership test"; no model hit, no test.

def test_a_barrage_that_hits_nobody_calls_for_no_pinning_test():
    shot = fire("6 @0", barrage=True, leadership=8)
    assert shot.hits == 0 and shot.pinning_test is None


def test_a_base_exactly_touching_the_markers_edge_is_partly_under():
    # A 25 mm base whose edge touches the marker's edge, in every direction (rounding included).
    r = 25 / 25.4 / 2
    angles = np.radians(np.arange(0, 360, 7))
    d = MARKER.radius + r
    xs, ys = 3.1 + d * np.sin(angles), 17.3 + d * np.cos(angles)
    got = base_coverage(Point(3.1, 17.3), MARKER.radius, xs, ys, 25)
    assert set(got.tolist()) == {1}
    assert math.isclose(d, MARKER.radius + r) and Coverage.PARTLY.value == "partly"


@pytest.mark.parametrize("kwargs, message", [
    (dict(ballistic_skill=4), "only counts for ordnance fired on the move"),
    (dict(leadership=8), "barrage's pinning test only"),
    (dict(barrage=True, leadership=8, vehicle=VehicleTarget(13, 11, 10), squad=None), "a vehicle takes none"),
])
def test_options_that_do_not_apply_are_refused(kwargs, message):
    with pytest.raises(RulesError, match=message):
        fire("", **kwargs)
