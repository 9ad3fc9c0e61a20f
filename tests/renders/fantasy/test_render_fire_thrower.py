"""The fire thrower picture (renders/fantasy/fire_thrower.py): a valid PNG, the same bytes for the same
record, the golden pictures (the teardrop template over the unit), the template at true scale
where the flame landed and where it was placed, and nothing off the picture whatever the shot.

Every record comes from the real engine with the shipped game data and entered dice."""

from __future__ import annotations

import io
import math
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from config.gamedata import fantasy
from engine.dice import EnteredDice, PcgDice as RandomDice  # the golden scenes were drawn with roll log version 2's dice
from engine.fantasy.fire_thrower import FireThrowerShot, fire_fire_thrower
from engine.fantasy.formation import Facing, TargetUnit
from engine.fantasy.wounding import Profile
from engine.geometry import Point
from renders.fantasy import fire_thrower as rf
from renders.fantasy.fire_thrower import render_fire_thrower, teardrop

DATA = fantasy()
FLAMER = DATA.fire_throwers["fire-thrower"]
CHART = DATA.misfire_charts["black-powder"]


def unit(ranks=4, files=6, troop="infantry", **kwargs) -> TargetUnit:
    t = DATA.troops[troop]
    return TargetUnit(ranks, files, t, t.base_width, t.base_depth, **kwargs)


def flame(target, distance, dice, seed=0, **kwargs) -> FireThrowerShot:
    return fire_fire_thrower(FLAMER, CHART, DATA.flaming_attacks, target, distance, EnteredDice(dice, RandomDice(seed)), **kwargs)


SCENARIOS: dict[str, Callable[[], FireThrowerShot]] = {
    # 4" forward into a 4 x 6 unit 8" away: the wide end over ranks 2-4, the wound rolls and a
    # Panic test by the bot.
    "teardrop": lambda: flame(unit(profile=Profile(3, 1, 5)), 8, "4", seed=3, leadership=7),
    # Cavalry from the flank, no profile: the players roll.
    "flank": lambda: flame(unit(3, 8, "cavalry", facing=Facing.FLANK), 10, "6"),
    # A misfire: the template placed 4" out (the players' range), nothing fired.
    "misfire": lambda: flame(unit(3, 8), 14, "M 3", range=6, start=4),
}


@pytest.fixture(scope="module")
def shots() -> dict[str, FireThrowerShot]:
    return {name: build() for name, build in SCENARIOS.items()}


@pytest.fixture(scope="module")
def pictures(shots) -> dict[str, bytes]:
    return {name: render_fire_thrower(shot) for name, shot in shots.items()}


def test_the_scenarios_are_the_cases_they_claim(shots):
    assert shots["teardrop"].hits and shots["teardrop"].panic is not None
    assert shots["flank"].hits and shots["flank"].hits[0].wound is None
    assert shots["misfire"].misfire is not None


@pytest.mark.parametrize("name", SCENARIOS)
def test_is_a_valid_png_of_the_asked_width(name, pictures):
    image = Image.open(io.BytesIO(pictures[name]))
    assert image.format == "PNG" and image.mode == "P" and image.width == 900


@pytest.mark.parametrize("name", SCENARIOS)
def test_matches_the_golden_picture(name, pictures, golden):
    golden(f"fire_thrower_{name}", pictures[name])


def test_the_same_record_gives_the_same_bytes():
    shot = SCENARIOS["teardrop"]()
    assert render_fire_thrower(shot) == render_fire_thrower(SCENARIOS["teardrop"]())


def test_the_outline_is_the_templates_true_size():
    points = teardrop(Point(0, 2), 8, 0.5, 1.5)
    ys, xs = [p.y for p in points], [p.x for p in points]
    assert min(ys) == pytest.approx(2, abs=1e-6) and max(ys) == pytest.approx(10, abs=1e-6)
    assert max(xs) == pytest.approx(1.5, abs=0.01) and min(xs) == pytest.approx(-1.5, abs=0.01)


def test_the_template_is_drawn_where_the_flame_landed_at_true_scale(shots):
    shot = shots["teardrop"]
    d = rf._draw(shot, width=900, max_panel_height=720, inset=True)
    vp = d.layout.panel
    ys = [p[1] for p in d.template]
    assert max(ys) - min(ys) == pytest.approx(vp.span(shot.length), abs=1.5)
    assert max(ys) == pytest.approx(vp.px(0, shot.tip.y)[1], abs=1.5)  # the narrow end, nearest the barrel
    tail, head = d.move
    assert math.dist(tail, head) == pytest.approx(vp.span(shot.moved), abs=1.5)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ranks=st.integers(1, 10), files=st.integers(1, 12), distance=st.floats(1, 30), seed=st.integers(0, 1000),
       facing=st.sampled_from(list(Facing)))
def test_any_shot_draws_inside_the_picture(ranks, files, distance, seed, facing):
    shot = fire_fire_thrower(FLAMER, CHART, DATA.flaming_attacks, unit(ranks, files, facing=facing), distance, RandomDice(seed))
    d = rf._draw(shot, width=900, max_panel_height=720, inset=True)
    w, h = d.canvas.image.size
    for outline in (d.template or (), d.placed):
        assert all(0 <= x <= w and 0 <= y <= h for x, y in outline)


def test_rank_and_file_names_pushed_together_by_a_line_never_touch():
    """Issue 18: two file names moved aside to clear the flame's lines read as one ("F5F6"): the
    first stays, the one it would touch is left out."""
    from renders.fantasy.units import apart

    names = [((100.0, 10.0), "F5", 11, "mt"), ((112.0, 10.0), "F6", 11, "mt"), ((160.0, 10.0), "F7", 11, "mt")]
    assert [text for _, text, _, _ in apart(names)] == ["F5", "F7"]
    spread_out = [((100.0 + 40 * i, 10.0), f"F{i}", 11, "mt") for i in range(1, 6)]
    assert apart(spread_out) == spread_out
