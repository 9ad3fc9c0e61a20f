"""The 40k ordnance picture (renders/wh40k/ordnance.py): a valid PNG, the same bytes for the same record,
the golden pictures (an ordnance blast with partial hits; a barrage scattering onto a vehicle's
rear), and a picture for every kind of shot. Records come from the real engine with entered dice."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from config.gamedata import wh40k
from engine.dice import EnteredDice, PcgDice as RandomDice  # the golden scenes were drawn with roll log version 2's dice
from engine.wh40k.ordnance import OrdnanceShot, fire_ordnance
from engine.wh40k.squad import Facing, Squad, VehicleTarget
from engine.wh40k.vehicle import VehicleState
from renders.wh40k.ordnance import render_ordnance

DATA = wh40k()


def fire(dice: str, seed: int = 0, **kwargs) -> OrdnanceShot:
    kwargs.setdefault("strength", 8)
    kwargs.setdefault("distance", 30)
    return fire_ordnance(DATA.blast_markers["large"], DATA.penetration["ordnance"], DATA.damage_tables, DATA.wounds,
                         EnteredDice(dice, RandomDice(seed)), **kwargs)


SCENARIOS: dict[str, Callable[[], OrdnanceShot]] = {
    # A battle cannon scatters 2" toward 2 o'clock onto a ten-man squad: two models wholly under,
    # three partly under rolling for 4+ (4 and 5 hit, 2 missed).
    "wh40k_ordnance_partial": lambda: fire("@60 2 4 2 5", squad=Squad(10, 25), max_range=72),
    # An Earthshaker barrage aimed at a Predator (front toward the firer) scatters 3" beyond it: the
    # hole lies behind the hull, so it strikes the rear (10) at half Strength: 5 + 5 = 10, glancing,
    # and the crew are stunned.
    "wh40k_barrage_rear": lambda: fire("3 @0 5 2 3", strength=9, barrage=True, vehicle=VehicleTarget(13, 11, 10),
                                       max_range=120, min_range=12),
}


@pytest.mark.parametrize("name", SCENARIOS)
def test_golden(name, golden):
    golden(name, render_ordnance(SCENARIOS[name]()))


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_same_record_gives_the_same_bytes(name):
    shot = SCENARIOS[name]()
    assert render_ordnance(shot) == render_ordnance(shot)


@pytest.mark.parametrize("shot", [
    lambda: fire("", distance=80, max_range=72, squad=Squad(5, 25)),
    lambda: fire("2", moved=True, ballistic_skill=3, squad=Squad(5, 25)),
    lambda: fire("H 3 1 1", vehicle=VehicleTarget(10, 10, 10, facing=Facing.SIDE), vehicle_state=VehicleState(open_topped=True)),
    lambda: fire("@90 6", vehicle=VehicleTarget(14, 13, 12, facing=Facing.REAR)),
], ids=["out-of-range", "missed-on-the-move", "open-topped-side", "clear-of-the-hull"])
def test_every_kind_of_shot_draws(shot):
    image = Image.open(io.BytesIO(render_ordnance(shot())))
    assert image.format == "PNG" and image.width == 760 and image.height > 300


@settings(max_examples=25, deadline=None)
@given(models=st.integers(1, 30), seed=st.integers(0, 2**32), base=st.sampled_from(DATA.base_sizes))
def test_any_squad_shot_draws(models, seed, base):
    shot = fire_ordnance(DATA.blast_markers["large"], DATA.penetration["ordnance"], DATA.damage_tables, DATA.wounds,
                         RandomDice(seed), strength=8, distance=30, squad=Squad(models, base))
    assert Image.open(io.BytesIO(render_ordnance(shot))).format == "PNG"


@pytest.mark.parametrize("open_topped", [False, True])
def test_a_vehicle_struck_side_on_has_one_edge_drawn_struck_the_one_toward_the_firer(open_topped):
    """Issue 18: a vehicle side-on to the firer has two side edges; only the one the shot struck
    (toward the firer) is drawn as struck, open-topped or not."""
    from renders.canvas import Viewport
    from renders.wh40k.ordnance import _sides, _window, struck_edge

    shot = fire("H 3 1 1", vehicle=VehicleTarget(10, 10, 10, facing=Facing.SIDE),
                vehicle_state=VehicleState(open_topped=open_topped))
    assert shot.facing_hit is Facing.SIDE
    vp = Viewport.fit(_window(shot), (0, 0, 900, 600))
    sides = [ab for f, ab in _sides(shot, vp) if f is Facing.SIDE]
    assert len(sides) == 2  # the near and the far edge are both its side
    edge = struck_edge(shot, vp)
    near_y = vp.px(shot.aim.x, shot.aim.y - shot.vehicle.half_along)[1]
    assert edge[0][1] == edge[1][1] == near_y  # the edge nearest the firer, not both
