"""The stone thrower picture (renders/fantasy/stone_thrower.py): a valid PNG, the same bytes for the same
record, the golden pictures, the template at true scale, the centre hole's model apart from the
template's hits, the models the hole was picked among, the models hit grouped by rank, a key
with only what the picture shows, and nothing off the picture whatever the shot.

Every record comes from the real engine (fire_stone_thrower with the shipped game data and
entered dice), never built by hand.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from config.gamedata import fantasy
from engine.dice import EnteredDice, PcgDice as RandomDice  # the golden scenes were drawn with roll log version 2's dice
from engine.fantasy.formation import Facing, TargetUnit
from engine.fantasy.stone_thrower import StoneShot, TemplateHitKind, fire_stone_thrower
from engine.fantasy.wounding import Profile
from renders import canvas
from renders.fantasy import stone_thrower as rs
from renders.canvas import clip_segment
from renders.fantasy.stone_thrower import render_stone_thrower

DATA = fantasy()
STONE = DATA.stone_throwers["stone-thrower"]
CHART = DATA.misfire_charts["stone-thrower"]
TROOPS = DATA.troops


def infantry(ranks: int = 4, files: int = 5, **kwargs) -> TargetUnit:
    """`ranks` of `files` infantry on 20 mm bases."""
    return TargetUnit(ranks, files, TROOPS["infantry"], 20, 20, **kwargs)


def fire(unit: TargetUnit, distance: float, dice: str, seed: int = 0, **kwargs) -> StoneShot:
    return fire_stone_thrower(STONE, CHART, unit, distance, EnteredDice(dice, RandomDice(seed)), **kwargs)


SCENARIOS: dict[str, Callable[[], StoneShot]] = {
    # The hit symbol: the template comes down over R1 F3 of a 4 x 5 unit, 13 models under it.
    "hit": lambda: fire(infantry(), 30, "H 4"),
    # An arrow to 8 o'clock, 2": the template hangs off the unit's front left corner; its centre
    # hole is over no model, and every base hit is only partly under it. The profile's wound
    # rolls come from the bot.
    "edge": lambda: fire(infantry(profile=Profile(3, 1, 5)), 30, "@240 2", seed=3),
    # Indirect fire: a HIT still scatters, along the small arrow (10 o'clock), by the artillery
    # die less the crew's Ballistic Skill: 6 - 4 = 2".
    "indirect": lambda: fire(infantry(), 30, "H@300 6", indirect=True, ballistic_skill=4),
    # 2" right of R1 F4 on 20 mm bases is 50.8 mm: 0.8 mm past the line between F6 and F7, under
    # the 0.2" centre hole both ways. A D6 of 5 picks R1 F7.
    "centre_on_line": lambda: fire(infantry(4, 7), 30, "@90 2 5"),
    # The artillery die misfires; 2 on the Stone Thrower Misfire Chart: nothing is fired.
    "misfire": lambda: fire(infantry(), 30, "H M 2"),
    # A 10 x 10 horde, 4" toward 1 o'clock into its middle: 21 models hit, wound rolls by the bot.
    "horde": lambda: fire(infantry(10, 10, profile=Profile(3, 1, 6)), 30, "@20 4", seed=1),
}


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


@pytest.fixture(scope="module")
def shots() -> dict[str, StoneShot]:
    return {name: build() for name, build in SCENARIOS.items()}


@pytest.fixture(scope="module")
def pictures(shots: dict[str, StoneShot]) -> dict[str, bytes]:
    return {name: render_stone_thrower(shot) for name, shot in shots.items()}


@pytest.fixture(scope="module")
def drawings(shots: dict[str, StoneShot]) -> dict[str, rs._Drawing]:
    return {name: rs._draw(shot, width=900, max_panel_height=720, inset=True) for name, shot in shots.items()}


def pixels_of(png: bytes) -> np.ndarray:
    return np.asarray(decode(png))


def test_the_scenarios_are_the_cases_they_claim(shots: dict[str, StoneShot]) -> None:
    hit = shots["hit"]
    assert hit.scatter.is_hit and not hit.scatter_distance and hit.hits[0].kind is TemplateHitKind.CENTRE
    assert len(hit.hits) == 13
    edge = shots["edge"]
    assert edge.hits and all(h.kind is TemplateHitKind.TEMPLATE for h in edge.hits)
    assert all(h.wound is not None for h in edge.hits)
    indirect = shots["indirect"]
    assert indirect.indirect and indirect.scatter.is_hit and indirect.scatter_distance == 2
    line = shots["centre_on_line"]
    assert line.centre_choice == ((1, 6), (1, 7)) and (line.hits[0].rank, line.hits[0].file) == (1, 7)
    assert shots["misfire"].misfire is not None and shots["misfire"].centre is None
    assert len(shots["horde"].hits) == 21


@pytest.mark.parametrize("name", SCENARIOS)
def test_is_a_valid_png_of_the_asked_width(name: str, pictures: dict[str, bytes]) -> None:
    png = pictures[name]
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    Image.open(io.BytesIO(png)).verify()
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "P"
    assert image.width == 900
    assert 500 <= image.height <= 1800


@pytest.mark.parametrize("name", SCENARIOS)
def test_matches_the_golden_picture(name: str, pictures: dict[str, bytes], golden: Callable[[str, bytes], None]) -> None:
    golden(f"stone_thrower_{name}", pictures[name])


def test_the_same_record_gives_the_same_bytes() -> None:
    shot = SCENARIOS["edge"]()
    first = render_stone_thrower(shot)
    assert render_stone_thrower(shot) == first
    assert render_stone_thrower(SCENARIOS["edge"]()) == first
    canvas._glyphs.cache_clear()
    canvas._extent.cache_clear()
    assert render_stone_thrower(shot) == first


def test_options_are_keyword_only_and_change_the_picture() -> None:
    shot = SCENARIOS["indirect"]()
    with pytest.raises(TypeError):
        render_stone_thrower(shot, 700)  # type: ignore[misc]
    assert decode(render_stone_thrower(shot, width=1200)).width == 1200
    assert render_stone_thrower(shot, inset=False) != render_stone_thrower(shot)
    with pytest.raises(ValueError, match="width 500"):
        render_stone_thrower(shot, width=500)


def test_the_template_is_drawn_at_true_scale(shots: dict[str, StoneShot], drawings: dict[str, rs._Drawing]) -> None:
    """Measured on the picture: the tint of the table under the template runs out to 1.5" from
    its centre, as the scale bar counts inches, and no further."""
    drawing, shot = drawings["edge"], shots["edge"]
    (cx, cy), r = drawing.template
    assert r == pytest.approx(drawing.layout.panel.span(1.5))
    assert r == pytest.approx(drawing.layout.panel.span(shot.radius))
    left, top, right, bottom = (round(v) for v in drawing.layout.panel.box)
    pixels = np.asarray(decode(drawing.canvas.png()))[top:bottom, left:right]
    tinted = np.all(pixels == rs.TINTS[canvas.TABLE], axis=2)
    ys, xs = np.nonzero(tinted)
    ys, xs = ys + top, xs + left
    reach = np.hypot(xs + 0.5 - cx, ys + 0.5 - cy)
    assert reach.max() <= r + 1
    assert reach.max() >= r - 3


def test_the_centre_hole_model_stands_apart_from_the_template_hits(
    pictures: dict[str, bytes], drawings: dict[str, rs._Drawing],
) -> None:
    left, top, right, bottom = (round(v) for v in drawings["hit"].layout.panel.box)
    pixels = pixels_of(pictures["hit"])[top:bottom, left:right]
    solid = np.all(pixels == canvas.DIRECT, axis=2)
    light = np.all(pixels == canvas.BOUNCE, axis=2) | np.all(pixels == canvas.BOUNCE_HATCH, axis=2)
    assert np.all(pixels == canvas.BOUNCE_HATCH, axis=2).any(), "the template's hits are hatched"
    assert light.sum() > 8 * solid.sum() > 0, "12 light bases against one solid"
    # The edge shot's hole is over no model: nothing is solid but the key.
    edge = pixels_of(pictures["edge"])[:, :590]
    assert not np.all(edge == canvas.DIRECT, axis=2).any()


def test_a_misfire_shows_its_banner_and_nothing_fired(pictures: dict[str, bytes], drawings: dict[str, rs._Drawing]) -> None:
    pixels = pixels_of(pictures["misfire"])
    banner = np.all(pixels == canvas.BANNER, axis=2)
    assert banner[70:100].any(axis=1).all(), "the banner runs under the title"
    for colour in (canvas.DIRECT, canvas.BOUNCE, canvas.SCATTER, rs.TINTS[canvas.TABLE]):
        assert not np.all(pixels == colour, axis=2).any()
    drawing = drawings["misfire"]
    assert drawing.template is None and drawing.placed is not None
    assert [label.lines for label in drawing.canvas.labels] == [("template placed over R1 F3", "not fired")]


def test_the_scatter_arrow_runs_from_where_it_was_placed(shots: dict[str, StoneShot], drawings: dict[str, rs._Drawing]) -> None:
    for name in ("edge", "indirect", "centre_on_line", "horde"):
        drawing, shot = drawings[name], shots[name]
        tail, tip = drawing.scatter
        vp = drawing.layout.panel
        assert math.dist(tail, vp.at(shot.aim)) < 1
        assert math.dist(tip, vp.at(shot.centre)) < math.dist(tail, vp.at(shot.centre))
    assert drawings["hit"].scatter is None and drawings["hit"].placed is None


def test_the_notes_say_how_the_template_moved(drawings: dict[str, rs._Drawing]) -> None:
    def notes(name: str) -> list[str]:
        return [line for label in drawings[name].canvas.labels for line in label.lines]

    assert notes("hit") == ["HIT: on target", "centre hole over R1 F3"]
    assert notes("indirect")[:3] == [
        "indirect HIT: small arrow to 10 o'clock (300°)", 'artillery 6 - BS 4 = 2"', "centre hole over R2 F1",
    ]
    assert "placed over R1 F3" in notes("indirect")
    assert notes("edge")[:2] == ['scatter 2" toward 8 o\'clock (240°)', "centre hole over no model"]


def test_an_indirect_hit_within_the_crews_skill_lands_on_target() -> None:
    shot = fire(infantry(), 30, "H@90 2", indirect=True, ballistic_skill=3)
    drawing = rs._draw(shot, width=900, max_panel_height=720, inset=True)
    assert drawing.scatter is None and drawing.placed is None
    assert [label.lines for label in drawing.canvas.labels] == [
        ("indirect HIT: on target", "artillery 2 - BS 3: no scatter", "centre hole over R1 F3"),
    ]


def test_the_models_the_hole_lay_over_are_outlined(shots: dict[str, StoneShot], drawings: dict[str, rs._Drawing]) -> None:
    drawing, shot = drawings["centre_on_line"], shots["centre_on_line"]
    bases = {(hit.rank, hit.file): box for hit, box in drawing.hit_bases}
    for rank_file in shot.centre_choice:
        box = bases[rank_file]
        assert drawing.choice[0] < box[0] and box[2] < drawing.choice[2]
        assert drawing.choice[1] < box[1] and box[3] < drawing.choice[3]
    text = [line.text for c in drawing.layout.callouts for line in c.lines]
    assert "R1 F7 centre hole: S10, D6 wounds" in text
    assert any("R1 F6 and R1 F7" in line for line in text) and any("rolled 5" in line for line in text)
    assert "the hole lay over these" in [item.label for item in drawing.layout.legend]
    assert "centre hole pick 5" in rs._subtitle(shot)
    assert drawings["hit"].choice is None


def test_the_models_hit_are_listed_a_rank_at_a_time(drawings: dict[str, rs._Drawing]) -> None:
    def entries(name: str) -> list[list[str]]:
        return [[line.text for line in c.lines] for c in drawings[name].layout.callouts]

    assert entries("hit") == [
        ["R3 F2-F4: S4"], ["R2 F1-F5: S4"], ["R1 F3 centre hole: S10, D6 wounds", "R1 F1-F2, R1 F4-F5: S4"],
    ]
    horde = entries("horde")
    assert len(horde) == 5, "21 models in five ranks"
    assert horde[2][:2] == ["R6 F7 centre hole: S10, 1 wound, slain", "R6 F5-F6, R6 F8-F9: S4"]
    assert horde[2][2] == "F5-F6, F9 slain; F8 not wounded"
    assert all(len(lines) <= 4 for lines in horde)
    # Each entry is joined to the rightmost hit base of its rank, and lies in the column.
    for name in SCENARIOS:
        layout = drawings[name].layout
        for callout in layout.callouts:
            assert layout.frame.column[0] <= layout.frame.column[2]
            assert callout.base in [box for _, box in drawings[name].hit_bases]


def test_from_the_flank_a_rank_of_hits_is_a_file() -> None:
    shot = fire(TargetUnit(3, 6, TROOPS["cavalry"], 25, 50, facing=Facing.FLANK), 40, "H 2")
    drawing = rs._draw(shot, width=900, max_panel_height=720, inset=True)
    heads = [c.lines[-1].text for c in drawing.layout.callouts]
    assert "R1-R3 F2: S4" in heads or "R1-R2 F2: S4" in heads


def test_the_key_shows_only_what_the_picture_shows(drawings: dict[str, rs._Drawing]) -> None:
    def key(name: str) -> list[str]:
        return [item.label for item in drawings[name].layout.legend]

    assert key("hit") == [
        "line of fire, crossbar to target", 'the template (3" across)', "its centre hole",
        "under the hole: S10, D6 wounds", "under the template: S4", "the unit's front", "grid: 1 inch squares",
    ]
    assert key("misfire") == [
        "line of fire, crossbar to target", "template placed, not fired", "the unit's front", "grid: 1 inch squares",
    ]
    assert "scatter (the hit's small arrow)" in key("indirect")
    assert "slain" in key("edge") and "under the hole: S10, D6 wounds" not in key("edge")
    for name in SCENARIOS:
        layout = drawings[name].layout
        assert key(name)[-1] == f"grid: {layout.grid} inch squares"
        assert layout.panel.span(layout.grid) >= 12


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_notes_stay_off_the_hits_and_names_off_the_lines(name: str, drawings: dict[str, rs._Drawing]) -> None:
    drawing = drawings[name]
    hit_boxes = [box for _, box in drawing.hit_bases]
    for label in drawing.canvas.labels:
        assert not any(canvas.overlaps(label.box, box) for box in hit_boxes), f"{label.lines[0]!r} covers a hit"
        assert canvas.union([label.box, drawing.layout.panel.box]) == drawing.layout.panel.box
    assert drawing.names
    lines = [drawing.fire] + ([drawing.scatter] if drawing.scatter else [])
    for box in drawing.names:
        for a, b in lines:
            assert clip_segment(a, b, box) is None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    troop=st.sampled_from(sorted(TROOPS)),
    ranks=st.integers(1, 10),
    files=st.integers(1, 12),
    facing=st.sampled_from(list(Facing)),
    seed=st.integers(0, 2**32 - 1),
    indirect=st.booleans(),
    with_profile=st.booleans(),
    width=st.sampled_from([640, 900, 1300]),
)
def test_any_shot_renders(troop: str, ranks: int, files: int, facing: Facing, seed: int, indirect: bool,
                          with_profile: bool, width: int) -> None:
    kind = TROOPS[troop]
    unit = TargetUnit(ranks, files, kind, kind.base_width, kind.base_depth, facing=facing,
                      profile=Profile(4, 3, 4) if with_profile else None)
    distance = STONE.min_range + seed % (STONE.max_range - STONE.min_range + 1)
    shot = fire_stone_thrower(STONE, CHART, unit, distance, RandomDice(seed), indirect=indirect,
                              ballistic_skill=seed % 6 if indirect else None)
    image = decode(render_stone_thrower(shot, width=width))
    assert image.width == width and image.height > 400
    # Nothing runs off the picture: below the title and banner, which span the width, the
    # outermost pixels on every side are bare paper.
    pixels = np.asarray(image)
    body = pixels[np.all(pixels[:, 0] == canvas.PAPER, axis=1)]
    for edge in (body[:, :3], body[:, -3:], pixels[-3:]):
        assert np.all(edge == canvas.PAPER)
