"""Hypothesis properties of the fire thrower: the teardrop's coverage agrees with a brute-force
check of each base against the template's shape, and any shot with the bot's dice keeps the
rulebook's invariants and replays from its own faces; bad input raises RulesError.

The shape is worked out here independently of engine/fantasy/formation.py: a point is under the
teardrop when it lies within r(t) of c(t) for some t in [0, 1], where c(t) runs from the narrow
end's centre to the wide end's and r(t) from the narrow radius to the wide one (the convex hull
of the two circles is the union of those circles).
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.gamedata import fantasy
from engine.dice import RandomDice
from engine.fantasy.fire_thrower import fire_fire_thrower
from engine.fantasy.formation import Facing, TargetUnit, lay_out
from engine.fantasy.wounding import Profile
from engine.geometry import Point
from tests.engine.replay import assert_replays

DATA = fantasy()
FLAMER = DATA.fire_throwers["fire-thrower"]
CHART = DATA.misfire_charts["black-powder"]
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

T = np.linspace(0.0, 1.0, 801)


def under_by_brute_force(x0, y0, x1, y1, tip: Point, length: float, r1: float, r2: float) -> tuple[bool, float]:
    """Whether the base's rectangle meets the teardrop, from the nearest point of the rectangle
    to each circle of the sweep; with how close the decision was (inches)."""
    cy = tip.y + r1 + T * (length - r1 - r2)
    r = r1 + T * (r2 - r1)
    dx = np.maximum(np.maximum(x0 - tip.x, tip.x - x1), 0.0)
    dy = np.maximum(np.maximum(y0 - cy, cy - y1), 0.0)
    gap = np.hypot(dx, dy) - r
    return bool(gap.min() <= 0), float(abs(gap.min()))


@PROPERTY
@given(
    ranks=st.integers(1, 8), files=st.integers(1, 12), width=st.sampled_from([20, 25, 40, 50]),
    depth=st.sampled_from([20, 25, 40, 50, 100]), distance=st.floats(2, 20),
    tip_x=st.floats(-4, 4), tip_y=st.floats(0, 20),
    facing=st.sampled_from(list(Facing)),
)
def test_coverage_agrees_with_the_shape_base_by_base(ranks, files, width, depth, distance, tip_x, tip_y, facing):
    target = TargetUnit(ranks, files, DATA.troops["infantry"], width, depth, facing=facing)
    f, _ = lay_out(target, distance)
    t = FLAMER.template
    tip = Point(tip_x, tip_y)
    got = set(f.under_teardrop(tip, t.length, t.narrow_radius, t.wide_radius))
    assert got == set(sorted(got))
    for row in range(f.rows):
        for col in range(f.cols):
            want, margin = under_by_brute_force(*f.base_rect(row, col), tip, t.length, t.narrow_radius, t.wide_radius)
            if margin > 1e-3:  # the sweep is sampled: leave the last thousandth of an inch
                assert ((row, col) in got) == want, (row, col)
    assert f.under_teardrop(tip, t.length, t.narrow_radius, t.wide_radius) == sorted(got)


targets = st.builds(
    lambda ranks, files, troop, facing, profile: TargetUnit(
        ranks, files, DATA.troops[troop], DATA.troops[troop].base_width, DATA.troops[troop].base_depth, facing, profile),
    st.integers(1, 10), st.integers(1, 10), st.sampled_from(["infantry", "cavalry", "monster", "war-beast"]),
    st.sampled_from(list(Facing)),
    st.one_of(st.none(), st.builds(Profile, st.integers(1, 10), st.integers(1, 5), st.one_of(st.none(), st.integers(1, 6)),
                                   st.one_of(st.none(), st.integers(2, 6)))),
)


@PROPERTY
@given(target=targets, distance=st.floats(1, 30), start=st.floats(0, 1), flammable=st.booleans(),
       leadership=st.one_of(st.none(), st.integers(1, 10)), seed=st.integers(0, 2**32))
def test_any_shot_keeps_the_invariants_and_replays(target, distance, start, flammable, leadership, seed):
    start = round(start * min(distance - 0.01, 6), 2)
    options = dict(range=6 if start else None, start=start, flammable=flammable, leadership=leadership)

    def fire(dice):
        return fire_fire_thrower(FLAMER, CHART, DATA.flaming_attacks, target, distance, dice, **options)

    shot = fire(RandomDice(seed))
    if not shot.fired:
        assert shot.hits == () and shot.panic is None and shot.dice[0].is_misfire and len(shot.dice) == 2
    else:
        assert shot.moved == shot.artillery.value and shot.tip.y == start + shot.moved
        t = FLAMER.template
        cells = shot.formation.under_teardrop(shot.tip, t.length, t.narrow_radius, t.wide_radius)
        assert [(h.rank, h.file) for h in shot.hits] == [shot.formation.rank_file(*c) for c in cells]
        assert all(h.strength == 5 for h in shot.hits)
        if target.profile is None:
            assert all(h.wound is None for h in shot.hits) and shot.panic is None
        else:
            # the wounds pool on the unit (issue 28 item 1; seed 000:144): whole models per full set of Wounds
            pooled = sum(h.wound.wounds for h in shot.hits)
            assert shot.unsaved == pooled
            assert shot.casualties == min(target.ranks * target.files, pooled // target.profile.wounds)
            assert shot.casualties >= sum(h.wound.slain for h in shot.hits)
            # a Panic test after any casualty, by the models left (none when the unit is wiped out)
            assert (shot.panic is not None) == bool(shot.casualties and leadership and not shot.wiped_out)
            for h in shot.hits:
                assert (h.wound.reroll is not None) == (flammable and h.wound.to_wound_needed is not None
                                                        and h.wound.to_wound.value < h.wound.to_wound_needed)
        fears = flammable or target.troop.key in ("war-beast", "cavalry", "chariot")
        assert shot.panic_modifiers == ((("Flaming Attacks", -1),) if fears else ())
    assert_replays(fire, seed)
