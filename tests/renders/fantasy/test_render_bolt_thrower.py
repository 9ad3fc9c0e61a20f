"""The bolt thrower picture (renders/fantasy/bolt_thrower.py): a valid PNG, the same bytes for the same
record, the golden pictures, the roll to hit with its dice, the bolt's path through the models
struck with the Strength at each, where it stops, the hits that wait on the models before them,
the random pick in a small unit, the list of models hit, a key with only what the picture shows,
and nothing off the picture whatever the shot.

Every record comes from the real engine (fire_bolt_thrower with the shipped game data and
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
from engine.fantasy.bolt_thrower import BoltShot, fire_bolt_thrower
from engine.fantasy.formation import Facing, TargetUnit
from engine.fantasy.shooting import Cover
from engine.fantasy.wounding import Profile
from renders.fantasy import bolt_thrower as rb
from renders import canvas
from renders.fantasy.bolt_thrower import render_bolt_thrower
from renders.fantasy.units import LABEL
from renders.canvas import clip_segment

DATA = fantasy()
BOLT = DATA.bolt_throwers["bolt-thrower"]
TROOPS = DATA.troops


def infantry(ranks: int = 4, files: int = 5, **kwargs) -> TargetUnit:
    """`ranks` of `files` infantry on 20 mm bases."""
    return TargetUnit(ranks, files, TROOPS["infantry"], 20, 20, **kwargs)


def fire(unit: TargetUnit, distance: float, dice: str, *, bs: int = 3, seed: int = 0, **kwargs) -> BoltShot:
    return fire_bolt_thrower(BOLT, DATA.to_hit_penalties, unit, distance, EnteredDice(dice, RandomDice(seed)),
                             ballistic_skill=bs, **kwargs)


SCENARIOS: dict[str, Callable[[], BoltShot]] = {
    # At 30" (long range, over 24") BS 3 needs 5+; a 2 misses.
    "miss": lambda: fire(infantry(), 30, "2", cover=Cover.NONE),
    # 5 ranks of T3 Sv 5+: hit on a 4; R1-R4 slain at S6, S5, S4, S3 (wound rolls 2, 3, 5, 6, no
    # save left until S3, whose 6+ save fails on a 2); the bot's 4 does not wound R5 at S2 (5+):
    # the bolt stops there.
    "stops": lambda: fire(infantry(5, 5, profile=Profile(3, 1, 5)), 20, "4 2 3 5 6 2"),
    # No profile: R1 F3 is struck; R2-R4 only if every model before them is slain.
    "no_profile": lambda: fire(infantry(), 20, "5"),
    # Cavalry showing its flank: the files count as ranks, six of them, S6 down to S1.
    "flank": lambda: fire(TargetUnit(3, 6, TROOPS["cavalry"], 25, 50, facing=Facing.FLANK), 20, "4"),
    # From the rear: the last rank (R4) first, on toward the front.
    "rear": lambda: fire(infantry(facing=Facing.REAR), 20, "4"),
    # Three models, fewer than five: the model in the rank is picked at random, a 5 picks F3.
    "small": lambda: fire(infantry(1, 3), 20, "4 5"),
    # BS 1 at long range needs 7+: a 6, then a 5 (4+ needed). T3 Sv 3+: R1 slain (no save left
    # at S6), R2 slain (save 5, needs 6+), R3 saves at S4 (6, needs 5+): the bolt stops there.
    "seven": lambda: fire(infantry(profile=Profile(3, 1, 3)), 30, "6 5 4 3 5 5 6", bs=1),
}


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


@pytest.fixture(scope="module")
def shots() -> dict[str, BoltShot]:
    return {name: build() for name, build in SCENARIOS.items()}


@pytest.fixture(scope="module")
def drawings(shots: dict[str, BoltShot]) -> dict[str, rb._Drawing]:
    return {name: rb._draw(shot, width=900, max_panel_height=720, inset=True) for name, shot in shots.items()}


@pytest.fixture(scope="module")
def pictures(shots: dict[str, BoltShot]) -> dict[str, bytes]:
    return {name: render_bolt_thrower(shot) for name, shot in shots.items()}


def pixels_of(png: bytes) -> np.ndarray:
    return np.asarray(decode(png))


def texts(drawing: rb._Drawing) -> list[list[str]]:
    """The list of models hit: each entry's lines."""
    return [[line.text for line in c.lines] for c in drawing.layout.callouts]


def block(drawing: rb._Drawing) -> list[str]:
    """The roll to hit's lines of text."""
    return [text for _, text, _, _ in drawing.layout.block.texts]


def block_dice(drawing: rb._Drawing) -> list[tuple[list[str], list[str], str]]:
    """The roll to hit's rows of dice: faces, captions, what they came to."""
    return [([d.face for d, _ in row], [c for _, c in row], result) for _, row, result in drawing.layout.block.dice]


def notes(drawing: rb._Drawing) -> list[tuple[str, ...]]:
    return [label.lines for label in drawing.canvas.labels]


def key(drawing: rb._Drawing) -> list[str]:
    return [item.label for item in drawing.layout.legend]


def test_the_scenarios_are_the_cases_they_claim(shots: dict[str, BoltShot]) -> None:
    miss = shots["miss"]
    assert not miss.hit and miss.long_range and miss.to_hit.needed == 5 and not miss.hits
    stops = shots["stops"]
    assert [h.strength for h in stops.hits] == [6, 5, 4, 3, 2]
    assert [h.wound.slain for h in stops.hits] == [True, True, True, True, False]
    assert not stops.hits[-1].wound.wounded
    no_profile = shots["no_profile"]
    assert [h.conditional for h in no_profile.hits] == [False, True, True, True]
    assert [h.strength for h in shots["flank"].hits] == [6, 5, 4, 3, 2, 1]
    assert [(h.rank, h.file) for h in shots["flank"].hits][:2] == [(2, 1), (2, 2)]
    assert [h.rank for h in shots["rear"].hits] == [4, 3, 2, 1]
    small = shots["small"]
    assert not small.ranked and [d.face for d in small.pick] == ["5"] and (small.hits[0].rank, small.hits[0].file) == (1, 3)
    seven = shots["seven"]
    assert seven.to_hit.needed == 7 and [d.face for d in seven.to_hit_dice] == ["6", "5"]
    assert [h.wound.saved for h in seven.hits] == [False, False, True]


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
    golden(f"bolt_thrower_{name}", pictures[name])


def test_the_same_record_gives_the_same_bytes() -> None:
    shot = SCENARIOS["stops"]()
    first = render_bolt_thrower(shot)
    assert render_bolt_thrower(shot) == first
    assert render_bolt_thrower(SCENARIOS["stops"]()) == first
    canvas._glyphs.cache_clear()
    canvas._extent.cache_clear()
    assert render_bolt_thrower(shot) == first


def test_options_are_keyword_only_and_change_the_picture() -> None:
    shot = SCENARIOS["no_profile"]()
    with pytest.raises(TypeError):
        render_bolt_thrower(shot, 700)  # type: ignore[misc]
    assert decode(render_bolt_thrower(shot, width=1200)).width == 1200
    assert render_bolt_thrower(shot, inset=False) != render_bolt_thrower(shot)
    with pytest.raises(ValueError, match="width 500"):
        render_bolt_thrower(shot, width=500)


# The roll to hit.


def test_the_roll_to_hit_says_what_was_needed_and_why(drawings: dict[str, rb._Drawing]) -> None:
    assert block(drawings["miss"])[:2] == ["To hit", 'BS 3: needs 5+ (long range: over 24")']
    assert block_dice(drawings["miss"]) == [(["2"], ["needs 5+"], "MISSED")]
    assert block(drawings["stops"])[:2] == ["To hit", "BS 3: needs 4+"]
    assert block_dice(drawings["stops"]) == [(["4"], ["needs 4+"], "HIT")]
    soft = rb._draw(fire(infantry(), 10, "6", cover=Cover.SOFT, modifier=1), width=900, max_panel_height=720, inset=True)
    assert block(soft)[1] == "BS 3: needs 4+ (soft cover, other modifiers +1)"


def test_more_than_6_to_hit_shows_both_dice(drawings: dict[str, rb._Drawing], shots: dict[str, BoltShot]) -> None:
    drawing = drawings["seven"]
    assert block(drawing)[1:3] == ['BS 1: needs 7+ (long range: over 24")', "more than 6: a 6, then 4+ on a second die"]
    assert block_dice(drawing) == [(["6", "5"], ["needs 6", "then 4+"], "HIT")]
    assert "to hit 6 5" in rb._subtitle(shots["seven"])
    # A first die short of the 6 is the whole roll.
    missed = rb._draw(fire(infantry(), 30, "5", bs=1), width=900, max_panel_height=720, inset=True)
    assert block_dice(missed) == [(["5"], ["needs 6"], "MISSED")]


def test_a_shot_that_cannot_hit_rolls_no_die() -> None:
    shot = fire(infantry(), 40, "", bs=1, cover=Cover.HARD, modifier=-1)
    drawing = rb._draw(shot, width=900, max_panel_height=720, inset=True)
    assert block_dice(drawing) == []
    assert "no roll: 10+ cannot be rolled" in block(drawing)
    assert "CANNOT HIT (needs 10+)" in rb._title(shot)
    assert rb._subtitle(shot).endswith("dice: none")


# The bolt.


def test_a_miss_ends_short_of_the_unit_and_strikes_nothing(
    drawings: dict[str, rb._Drawing], pictures: dict[str, bytes], shots: dict[str, BoltShot],
) -> None:
    drawing, shot = drawings["miss"], shots["miss"]
    path = drawing.path
    assert path.miss is not None and not path.sure and path.maybe is None
    f, vp = shot.formation, drawing.layout.panel
    unit = vp.rect(f.left, f.near, f.right, f.far)
    assert clip_segment(*path.miss, canvas.grow(unit, 4)) is None, "the missed bolt keeps off the unit"
    assert path.miss[1][1] > unit[3], "it ends short of the unit's front"
    assert notes(drawing) == [("MISSED (rolled 2, needs 5+)", "the bolt lands harmlessly")]
    assert texts(drawing) == [] and ("none: the bolt missed", LABEL) in drawing.layout.heading
    left, top, right, bottom = (round(v) for v in vp.box)
    panel = pixels_of(pictures["miss"])[top:bottom, left:right]
    assert not np.all(panel == canvas.DIRECT, axis=2).any()
    assert key(drawing)[0] == "the bolt: missed, lands harmlessly"


@pytest.mark.parametrize("name", ["stops", "no_profile", "flank", "rear", "small", "seven"])
def test_the_bolt_runs_straight_through_the_models_struck(name: str, drawings: dict[str, rb._Drawing]) -> None:
    """From the bottom edge to the first model struck, then straight on up the file (the rank,
    from the flank) through every model struck, its head past the last or at the stop."""
    drawing = drawings[name]
    path, vp = drawing.path, drawing.layout.panel
    assert path.sure[0][1] == pytest.approx(vp.box[3])
    boxes = [box for _, box in drawing.hit_bases]
    x = path.tip[0]
    for box in boxes:
        assert box[0] < x < box[2]
    ends = [p for seg in path.lines for p in seg]
    assert all(p[0] == pytest.approx(x) for p in ends[1:])
    near = max(box[3] for box in boxes)
    far = min(box[1] for box in boxes)
    assert path.sure[-2 if len(path.sure) > 2 else 0][1] >= near - 0.5
    if path.stop is None:
        assert path.tip[1] < far, "on through the last model struck"
    else:
        _, last = max(drawing.hit_bases, key=lambda hit_box: hit_box[0].row)
        assert last[1] <= path.stop[1] <= last[3], "stops inside the last model struck"


def test_the_bolt_stops_in_the_model_it_failed_to_slay(drawings: dict[str, rb._Drawing]) -> None:
    for name, words in (("stops", "stops here: R5 F3 not wounded"), ("seven", "stops here: R3 F3 saved")):
        drawing = drawings[name]
        last_hit, last_box = max(drawing.hit_bases, key=lambda hb: hb[0].row)
        assert last_box[1] < drawing.path.stop[1] < last_box[3]
        assert drawing.path.tip == drawing.path.stop
        assert (words,) in notes(drawing)
        assert texts(drawing)[0][-1] == "the bolt stops here"
        assert "the bolt stops here" in key(drawing)
    assert drawings["no_profile"].path.stop is None and drawings["flank"].path.stop is None


def test_hits_that_wait_on_the_models_before_are_dashed(drawings: dict[str, rb._Drawing]) -> None:
    drawing = drawings["no_profile"]
    path = drawing.path
    assert path.maybe is not None
    first = next(box for hit, box in drawing.hit_bases if not hit.conditional)
    assert path.maybe[0][1] == pytest.approx(first[1], abs=0.5), "the dashed part starts past the first model"
    assert ("this far only if each", "model struck is slain") in notes(drawing)
    assert "on only if each model is slain" in key(drawing)
    assert "struck only if those before die" in key(drawing)
    assert drawings["stops"].path.maybe is None


def test_each_model_struck_has_its_strength_by_the_path(drawings: dict[str, rb._Drawing], shots: dict[str, BoltShot]) -> None:
    for name in ("stops", "flank", "rear", "small"):
        drawing = drawings[name]
        bases = {id(hit): box for hit, box in drawing.hit_bases}
        tags = drawing.tags
        assert len(tags) == len(shots[name].hits)
        for hit, tag in tags:
            base = bases[id(hit)]
            assert base[1] <= tag[1] and tag[3] <= base[3], f"S{hit.strength}'s tag is level with its base"
            assert tag[2] < drawing.path.tip[0], "left of the path"
        for (_, a), (_, b) in zip(tags, tags[1:]):
            assert not canvas.overlaps(a, b)
    pixels = pixels_of(rb.render_bolt_thrower(shots["stops"]))
    assert np.all(pixels == canvas.DIRECT, axis=2).any()


def test_a_dense_unit_drawn_small_lists_the_strengths_in_a_note() -> None:
    shot = fire(infantry(20, 30, profile=Profile(3, 1, 6)), 40, "6 4", bs=4, seed=5)
    drawing = rb._draw(shot, width=640, max_panel_height=300, inset=True)
    assert drawing.tags == () and not drawing.layout.marks.tags
    assert ("HIT: into R1 F15 at S6", "then S5, S4, S3, S2 in the ranks behind") in notes(drawing)
    assert not any(label.startswith("Strength") for label in key(drawing))


def test_a_bolt_out_of_strength_is_spent_with_ranks_still_behind() -> None:
    unit = TargetUnit(10, 8, TROOPS["cavalry"], 25, 50, facing=Facing.FLANK, profile=Profile(3, 1, 4))
    shot = fire(unit, 12, "5 2 2 3 4 5", seed=1)
    assert [h.strength for h in shot.hits] == [6, 5, 4, 3, 2, 1] and all(h.wound.slain for h in shot.hits)
    drawing = rb._draw(shot, width=900, max_panel_height=720, inset=True)
    assert drawing.path.stop is not None
    assert ("spent: no Strength left",) in notes(drawing)
    assert "the bolt is spent here" in key(drawing)
    assert texts(drawing)[0][-1] == "the bolt is spent here: no Strength left"


# Small units.


def test_a_small_unit_shows_the_random_pick(drawings: dict[str, rb._Drawing], shots: dict[str, BoltShot]) -> None:
    drawing = drawings["small"]
    lines = block(drawing)
    assert "Which model" in lines
    assert block_dice(drawing)[1] == (["5"], ["D6"], "R1 F3")
    assert ("HIT: into R1 F3 at S6", "picked at random (D6 5)") in notes(drawing)
    assert texts(drawing) == [["R1 F3: S6, D3 wounds", "picked at random in its rank"]]
    assert "pick 5" in rb._subtitle(shots["small"])
    # The bolt turns from the line of fire to the model picked.
    path = drawing.path
    assert len(path.sure) == 3 and path.sure[0][0] != path.sure[1][0]
    # A ranked unit and a rank of one model roll no pick.
    assert "Which model" not in block(drawings["stops"])
    lone = rb._draw(fire(TargetUnit(1, 1, TROOPS["monster"], 50, 100), 10, "4"), width=900, max_panel_height=720, inset=True)
    assert "Which model" not in block(lone) and len(lone.path.sure) == 2


def test_a_small_unit_re_rolls_the_pick_above_its_models() -> None:
    shot = fire(infantry(1, 4), 20, "4 6 5 2")
    assert [d.face for d in shot.pick] == ["6", "5", "2"]
    drawing = rb._draw(shot, width=900, max_panel_height=720, inset=True)
    assert block_dice(drawing)[1] == (["6", "5", "2"], ["again", "again", "D6"], "R1 F2")


# The list of models hit.


def test_the_models_hit_are_listed_with_strength_and_result(drawings: dict[str, rb._Drawing]) -> None:
    assert texts(drawings["stops"]) == [
        ["R5 F3: S2, not wounded", "to wound 4 (5+)", "the bolt stops here"],
        ["R4 F3: S3, 1 wound, slain", "to wound 6 (4+), armour 2 (6+)"],
        ["R3 F3: S4, 1 wound, slain", "to wound 5 (3+), no armour save left"],
        ["R2 F3: S5, 1 wound, slain", "to wound 3 (2+), no armour save left"],
        ["R1 F3: S6, 1 wound, slain", "to wound 2 (2+), no armour save left"],
    ]
    assert texts(drawings["seven"])[0] == ["R3 F3: S4, saved", "to wound 5 (3+), armour 6 (5+)", "the bolt stops here"]
    assert rb._title(SCENARIOS["stops"]()).endswith("HIT · 5 models hit, 4 slain")
    assert rb._heading(SCENARIOS["stops"](), 300) == (("Models hit (5)", 20),)


def test_hits_without_a_profile_say_what_must_die_first(drawings: dict[str, rb._Drawing]) -> None:
    assert texts(drawings["no_profile"]) == [
        ["R4 F3: S3, D3 wounds", "only if R1-R3 F3 all die"],
        ["R3 F3: S4, D3 wounds", "only if R1 F3 and R2 F3 die"],
        ["R2 F3: S5, D3 wounds", "only if R1 F3 dies"],
        ["R1 F3: S6, D3 wounds"],
    ]
    # From the rear the ranks run the other way; from the flank the rows are files.
    assert [t[1] for t in texts(drawings["rear"])[:3]] == [
        "only if R2-R4 F3 all die", "only if R4 F3 and R3 F3 die", "only if R4 F3 dies",
    ]
    assert texts(drawings["flank"])[-2] == ["R2 F2: S5, D3 wounds", "only if R2 F1 dies"]
    assert texts(drawings["flank"])[0] == ["R2 F6: S1, D3 wounds", "only if R2 F1-F5 all die"]
    assert rb._heading(SCENARIOS["no_profile"](), 600) == (("Models hit (1, +3 only if each is slain)", 20),)
    assert rb._title(SCENARIOS["no_profile"]()).endswith("HIT · 1 model hit, up to 3 more if each is slain in turn")


def test_a_survivor_with_wounds_left_stops_the_bolt() -> None:
    unit = TargetUnit(3, 3, TROOPS["monstrous-infantry"], 40, 40, profile=Profile(4, 3, 4))
    shot = fire(unit, 15, "4 3 2")
    drawing = rb._draw(shot, width=900, max_panel_height=720, inset=True)
    (entry,) = texts(drawing)
    assert entry[0] == "R1 F2: S6, 2 wounds, survives" and entry[-1] == "the bolt stops here"
    assert " ".join(entry[1:-1]) == "to wound 3 (2+), no armour save left, Multiple Wounds 2"
    assert ("stops here: R1 F2 survives",) in notes(drawing)
    assert rb._title(shot).endswith("1 model hit, none slain")


def test_the_entries_run_down_the_column_in_the_order_of_their_bases(drawings: dict[str, rb._Drawing]) -> None:
    # The list sits under the strip, one entry under another, in the order of the bases from the
    # top of the picture down: no leader crosses the target area (docs/pictures.md).
    for name in ("stops", "flank", "rear"):
        layout = drawings[name].layout
        tops = [c.top for c in layout.callouts]
        assert tops == sorted(tops)
        assert [(c.base[1] + c.base[3]) / 2 for c in layout.callouts] == sorted((c.base[1] + c.base[3]) / 2 for c in layout.callouts)
        assert all(c.top >= layout.block.bottom and c.top > layout.frame.strip[3] for c in layout.callouts)


# The key, the notes, the names.


def test_the_key_shows_only_what_the_picture_shows(drawings: dict[str, rb._Drawing]) -> None:
    assert key(drawings["miss"]) == ["the bolt: missed, lands harmlessly", "the unit's front", "grid: 1 inch squares"]
    assert key(drawings["stops"]) == [
        "the bolt's path", "the bolt stops here", "Strength at that model (S6-S2)", "struck by the bolt", "slain",
        "the unit's front", "grid: 1 inch squares",
    ]
    assert key(drawings["no_profile"]) == [
        "the bolt's path", "on only if each model is slain", "Strength at that model (S6-S3)", "struck by the bolt",
        "struck only if those before die", "the unit's front", "grid: 1 inch squares",
    ]
    assert key(drawings["small"]) == [
        "the bolt's path", "Strength at that model (S6)", "struck by the bolt", "the unit's front", "grid: 1 inch squares",
    ]
    for name in SCENARIOS:
        layout = drawings[name].layout
        assert key(drawings[name])[-1] == f"grid: {layout.grid} inch squares"
        assert layout.panel.span(layout.grid) >= 12


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_notes_stay_off_the_hits_and_names_off_the_bolt(name: str, drawings: dict[str, rb._Drawing]) -> None:
    drawing = drawings[name]
    hit_boxes = [box for _, box in drawing.hit_bases] + [box for _, box in drawing.tags]
    for label in drawing.canvas.labels:
        assert not any(canvas.overlaps(label.box, box) for box in hit_boxes), f"{label.lines[0]!r} covers a hit"
        assert canvas.union([label.box, drawing.layout.panel.box]) == drawing.layout.panel.box
    assert drawing.names
    for box in drawing.names:
        for a, b in drawing.path.lines:
            assert clip_segment(a, b, box) is None
        for _, tag in drawing.tags:
            assert not canvas.overlaps(box, tag)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    troop=st.sampled_from(sorted(TROOPS)),
    ranks=st.integers(1, 10),
    files=st.integers(1, 12),
    facing=st.sampled_from(list(Facing)),
    seed=st.integers(0, 2**32 - 1),
    bs=st.integers(1, 6),
    cover=st.sampled_from(list(Cover)),
    with_profile=st.booleans(),
    width=st.sampled_from([640, 900, 1300]),
)
def test_any_shot_renders(troop: str, ranks: int, files: int, facing: Facing, seed: int, bs: int, cover: Cover,
                          with_profile: bool, width: int) -> None:
    kind = TROOPS[troop]
    unit = TargetUnit(ranks, files, kind, kind.base_width, kind.base_depth, facing=facing,
                      profile=Profile(3 + seed % 3, 1 + seed % 3, 4) if with_profile else None)
    distance = 1 + seed % BOLT.range
    shot = fire_bolt_thrower(BOLT, DATA.to_hit_penalties, unit, distance, RandomDice(seed), ballistic_skill=bs, cover=cover)
    drawing = rb._draw(shot, width=width, max_panel_height=720, inset=True)
    image = decode(drawing.canvas.png())
    assert image.width == width and image.height > 400
    # Nothing runs off the picture: below the title bar, which spans the width, the outermost
    # pixels on every side are bare paper.
    pixels = np.asarray(image)
    body = pixels[np.all(pixels[:, 0] == canvas.PAPER, axis=1)]
    for edge in (body[:, :3], body[:, -3:], pixels[-3:]):
        assert np.all(edge == canvas.PAPER)
    for label in drawing.canvas.labels:
        assert canvas.union([label.box, drawing.layout.panel.box]) == drawing.layout.panel.box
    assert math.isfinite(drawing.layout.legend_top)
