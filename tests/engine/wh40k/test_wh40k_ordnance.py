"""Ordnance and ordnance barrages (engine/wh40k/ordnance.py, blast.py, squad.py) with entered
dice: automatic misses, firing on the move, scatter, who is under the marker (wholly, partly on a
4+, outside, from real circle-against-base geometry), vehicles hit when partly under, the hole's
half Strength, the side a barrage strikes, open-topped double hits; Hypothesis properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from config.gamedata import wh40k
from engine.dice import EnteredDice, RandomDice
from engine.errors import RulesError
from engine.geometry import Point
from engine.wh40k.blast import Coverage, base_coverage
from engine.wh40k.ordnance import fire_ordnance
from engine.wh40k.penetration import HitResult
from engine.wh40k.squad import Facing, Squad, VehicleTarget
from engine.wh40k.vehicle import VehicleState
from tests.engine.replay import assert_replays

DATA = wh40k()
MARKER = DATA.blast_markers["large"]
R = MARKER.radius
INCH_BASE = 25.4  # a 1" base makes the arithmetic plain


def fire(dice="", seed=0, **kwargs):
    kwargs.setdefault("strength", 8)
    kwargs.setdefault("distance", 30)
    if "vehicle" not in kwargs:
        kwargs.setdefault("squad", Squad(10, 25))
    return fire_ordnance(MARKER, DATA.penetration["ordnance"], DATA.damage_tables, DATA.wounds,
                         EnteredDice(dice, RandomDice(seed)), pinning_modifier=DATA.pinning_modifier, **kwargs)


def test_coverage_is_wholly_partly_or_outside_by_the_circle_and_the_base():
    # 1" bases (radius 0.5") at 1.9", 2.0", 2.5", 3.0" and 3.1" from the middle of a 2.5" marker.
    xs = np.array([1.9, 2.0, 2.5, 3.0, 3.1])
    got = base_coverage(Point(0, 0), R, xs, np.zeros(5), INCH_BASE)
    assert got.tolist() == [0, 0, 1, 1, 2]


def test_a_hit_lands_on_target_and_models_wholly_under_are_hit_without_a_roll():
    shot = fire("H 3", squad=Squad(1, 25))
    assert shot.scatter.is_hit and shot.scatter_distance == 0 and shot.centre == shot.aim
    (m,) = shot.models
    assert m.coverage is Coverage.WHOLLY and m.hit and m.roll is None


def test_an_arrow_moves_the_marker_the_d6_in_inches():
    shot = fire("@90 4", squad=Squad(1, 25))
    assert shot.scatter_distance == 4.0 and math.isclose(shot.centre.x, 4.0) and math.isclose(shot.centre.y, 30.0)
    # 4" right of a lone model: 4 - 0.49 > 2.5, so it is outside.
    assert shot.models[0].coverage is Coverage.OUTSIDE and shot.hits == 0


@pytest.mark.parametrize("roll, hit", [(3, False), (4, True)])
def test_a_model_partly_under_is_hit_on_a_four(roll, hit):
    # A lone model on a 40 mm base (0.79" radius) 3" left of the marker's middle: partly under.
    shot = fire(f"@90 3 {roll}", squad=Squad(1, 40))
    (m,) = shot.models
    assert m.coverage is Coverage.PARTLY and m.roll.value == roll and m.hit is hit
    # A 25 mm base 2" off: its far edge 2.49" out, wholly under, no roll.
    assert fire("@90 2", squad=Squad(1, 25)).models[0].coverage is Coverage.WHOLLY


def test_out_of_range_and_an_unseen_hole_miss_automatically_with_no_dice():
    shot = fire("", distance=80, max_range=72)
    assert shot.miss == "out of range" and shot.dice == () and not shot.fired
    shot = fire("", in_sight=False)
    assert shot.miss == "hole out of sight" and shot.dice == ()


@pytest.mark.parametrize("roll, fired", [(3, False), (4, True)])
def test_on_the_move_ordnance_rolls_to_hit_first(roll, fired):
    shot = fire(f"{roll} H 1" if fired else f"{roll}", moved=True, ballistic_skill=3)
    assert shot.to_hit.value == roll and shot.to_hit_needed == 4
    assert (shot.miss is None) is fired and shot.fired is fired


def test_a_barrage_rolls_the_d6_then_the_scatter_die_and_two_d6_out_of_sight():
    shot = fire("3 @0", barrage=True, squad=Squad(1, 25))
    assert [d.purpose for d in shot.dice] == ["scatter distance", "scatter"] and shot.scatter_distance == 3
    shot = fire("3 4 @180", barrage=True, in_sight=False, squad=Squad(1, 25))
    assert shot.scatter_distance == 7 and math.isclose(shot.centre.y, 23.0)


def test_a_barrage_inside_its_minimum_range_misses():
    assert fire("", barrage=True, min_range=12, distance=10).miss == "within minimum range"
    shot = fire("6 5 @180", barrage=True, in_sight=False, min_range=20, distance=30)
    assert shot.miss == "within minimum range" and shot.centre.y < 20


def test_a_barrage_cannot_fire_on_the_move():
    with pytest.raises(RulesError, match="not moved"):
        fire("", barrage=True, moved=True, ballistic_skill=3)


PREDATOR = VehicleTarget(13, 11, 10)


def test_a_vehicle_partly_under_is_hit_at_half_strength_from_the_firers_side():
    # Normal ordnance: the marker 4" right of the hull's middle; the hull's right edge is 1.75"
    # out, so the marker's edge (1.5" from there) still covers it: hit at S4 on the front.
    shot = fire("@90 4 6 1", vehicle=PREDATOR)
    assert shot.hull_hit and not shot.hole_over and shot.facing_hit is Facing.FRONT
    (h,) = shot.vehicle_hits
    assert h.penetration.effective_strength == 4 and h.penetration.armour == 13 and h.penetration.total == 10
    assert h.damage is None


def test_a_hole_over_the_hull_is_full_strength():
    shot = fire("H 2 5 3 1", vehicle=PREDATOR)
    (h,) = shot.vehicle_hits
    assert shot.hole_over and h.penetration.effective_strength == 8 and h.penetration.total == 13
    assert h.penetration.result is HitResult.GLANCING and h.damage.result == "crew shaken"


def test_a_barrage_behind_the_vehicle_strikes_the_rear_at_half_strength():
    # The hole 3" beyond the middle: past the hull's far end (2.375"), over the rear.
    shot = fire("3 @0 6 2 3", vehicle=PREDATOR, barrage=True)
    assert shot.facing_hit is Facing.REAR and not shot.hole_over
    (h,) = shot.vehicle_hits
    assert h.penetration.armour == 10 and h.penetration.effective_strength == 4 and h.penetration.total == 10
    assert h.damage.table.key == "glancing" and h.damage.result == "crew stunned"


def test_a_barrage_beside_the_vehicle_strikes_its_side():
    shot = fire("3 @90 1 1", vehicle=PREDATOR, barrage=True)
    assert shot.facing_hit is Facing.SIDE and shot.vehicle_hits[0].penetration.armour == 11


def test_normal_ordnance_behind_the_vehicle_still_strikes_the_side_facing_the_firer():
    shot = fire("@0 3 1 1", vehicle=PREDATOR)
    assert shot.facing_hit is Facing.FRONT


def test_a_marker_clear_of_the_hull_does_not_hit_it():
    shot = fire("@90 6", vehicle=PREDATOR)
    assert not shot.hull_hit and shot.vehicle_hits == ()


def test_an_open_topped_vehicle_takes_two_hits():
    shot = fire("H 1 1 1 1 1", vehicle=VehicleTarget(10, 10, 10), vehicle_state=VehicleState(open_topped=True))
    assert len(shot.vehicle_hits) == 2


def test_a_barrage_that_causes_hits_calls_for_a_pinning_test_at_minus_one():
    shot = fire("1 H", barrage=True, leadership=8, squad=Squad(1, 25))
    assert shot.hits == 1 and shot.pinning_test == 7


@pytest.mark.parametrize("kwargs, message", [
    (dict(vehicle=PREDATOR, squad=Squad(1, 25)), "not both"),
    (dict(moved=True), "bs"),
    (dict(min_range=6), "Only a barrage"),
    (dict(squad=None), "Give the target"),
])
def test_bad_input_is_a_rules_error(kwargs, message):
    with pytest.raises(RulesError, match=message):
        fire("", **kwargs)


@pytest.mark.parametrize("kwargs, message", [
    (lambda: Squad(0, 25), "Models 0"), (lambda: Squad(5, 25, gap=9), "Gap 9"),
    (lambda: VehicleTarget(15, 11, 10), "Front armour 15"), (lambda: VehicleTarget(13, 11, 10, length=20), "Hull length 20"),
])
def test_bad_targets_are_rules_errors(kwargs, message):
    with pytest.raises(RulesError, match=message):
        kwargs()


@settings(max_examples=120, deadline=None)
@given(models=st.integers(1, 30), base=st.sampled_from(DATA.base_sizes), per_row=st.integers(1, 10),
       gap=st.floats(0, 3), distance=st.floats(6, 60), seed=st.integers(0, 2**32), barrage=st.booleans(),
       in_sight=st.booleans())
def test_any_squad_shot_keeps_the_invariants(models, base, per_row, gap, distance, seed, barrage, in_sight):
    squad = Squad(models, base, per_row, gap)
    shot = fire_ordnance(MARKER, DATA.penetration["ordnance"], DATA.damage_tables, DATA.wounds, RandomDice(seed),
                         strength=8, distance=distance, squad=squad, barrage=barrage, in_sight=in_sight or not barrage)
    assert shot.miss is None and len(shot.models) == models
    r = squad.base_radius
    for m in shot.models:
        d = math.dist((m.at.x, m.at.y), (shot.centre.x, shot.centre.y))
        assert m.coverage is (Coverage.WHOLLY if d + r <= R else Coverage.PARTLY if d - r <= R else Coverage.OUTSIDE)
        assert (m.roll is not None) == (m.coverage is Coverage.PARTLY)
        assert m.hit == (m.coverage is Coverage.WHOLLY or (m.roll is not None and m.roll.value >= 4))
    # Scatter: a HIT stays on target, an arrow moves the marker by the D6s.
    moved = math.dist((shot.aim.x, shot.aim.y), (shot.centre.x, shot.centre.y))
    assert math.isclose(moved, shot.scatter_distance, abs_tol=1e-9)
    assert shot.scatter_distance == (0 if shot.scatter.is_hit else sum(d.value for d in shot.distance_dice))
    # Replay: the same faces entered by hand give the same record.
    again = fire_ordnance(MARKER, DATA.penetration["ordnance"], DATA.damage_tables, DATA.wounds,
                          EnteredDice([d.face for d in shot.dice], RandomDice(0)), strength=8, distance=distance,
                          squad=squad, barrage=barrage, in_sight=in_sight or not barrage)
    assert [(m.coverage, m.hit) for m in again.models] == [(m.coverage, m.hit) for m in shot.models]


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32), facing=st.sampled_from(list(Facing)), barrage=st.booleans(),
       open_topped=st.booleans())
def test_any_vehicle_shot_keeps_the_invariants(seed, facing, barrage, open_topped):
    v = VehicleTarget(13, 11, 10, facing=facing)
    shot = fire_ordnance(MARKER, DATA.penetration["ordnance"], DATA.damage_tables, DATA.wounds, RandomDice(seed),
                         strength=9, distance=30, vehicle=v, vehicle_state=VehicleState(open_topped=open_topped),
                         barrage=barrage)
    first_destroyed = bool(shot.vehicle_hits) and shot.vehicle_hits[0].damage is not None and shot.vehicle_hits[0].damage.destroyed
    assert len(shot.vehicle_hits) == (0 if not shot.hull_hit else 2 if open_topped and not first_destroyed else 1)
    for h in shot.vehicle_hits:
        assert h.penetration.effective_strength == (9 if shot.hole_over else 5)
        assert h.penetration.armour == v.armour(shot.facing_hit)
    if shot.hull_hit and (not barrage or shot.hole_over):
        assert shot.facing_hit is facing


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), barrage=st.booleans(), vehicle=st.booleans(), models=st.integers(1, 30))
def test_any_shot_replays_from_the_bots_faces(seed, barrage, vehicle, models):
    target = dict(vehicle=VehicleTarget(11, 10, 10)) if vehicle else dict(squad=Squad(models, 25))
    assert_replays(lambda dice: fire_ordnance(MARKER, DATA.penetration["ordnance"], DATA.damage_tables, DATA.wounds,
                                              dice, strength=9, distance=30, barrage=barrage, **target), seed)
