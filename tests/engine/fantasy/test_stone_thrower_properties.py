"""Hypothesis properties of fire_stone_thrower: any valid input with the bot's dice gives a record
that keeps the rulebook's invariants; any invalid input raises RulesError. Also Formation's
under_circle against brute force, the centre hole's candidates (every base it lies over: it is
``weapon.template.hole`` wide) against brute force, and pick_at_random's faces for 1 to 6 things.

The geometry checks lay the unit out again here, independently of engine/fantasy/formation.py
(the aimed model's centre on (0, distance), bases touching and squared to the line of fire, from
the flank a base's depth across the line; the engine's documented numbering), and decide whether
a base is under the template, or under the centre hole, with a different test from the
engine's: the circle meets a rectangle when its centre lies in the rectangle grown by the radius
along x or along y, or within the radius of one of its corners.
"""

from __future__ import annotations

import collections
import math
import string
from dataclasses import dataclass, replace

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from config.gamedata import fantasy
from tests.engine.replay import assert_replays
from engine.dice import Dice, DieKind, DieRoll, EnteredDice, RandomDice, Roller, pick_at_random, split_faces
from engine.errors import DiceError, RulesError
from engine.fantasy.formation import (
    BASE_WIDTHS,
    MAX_BASE_DEPTH,
    MAX_FILES,
    MAX_RANKS,
    MIN_BASE_DEPTH,
    Facing,
    Formation,
    TargetUnit,
)
from engine.fantasy.stone_thrower import StoneShot, TemplateHitKind, fire_stone_thrower
from engine.fantasy.wounding import Profile, armour_save_needed, to_wound_needed
from engine.geometry import Point

DATA = fantasy()
STONE = DATA.stone_throwers["stone-thrower"]
CHART = DATA.misfire_charts["stone-thrower"]
MM = 25.4
EPS = 1e-7
LARGEST_ARTILLERY = 10
"""The farthest the template can move: an arrow with a 10, or an indirect hit with a 10 and BS 0."""
PICK = "which model is under the centre hole"

PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
QUICK = settings(max_examples=100, deadline=None)


class RecordingDice(Dice):
    """Passes every request to `inner` and keeps each die it hands back, in order."""

    def __init__(self, inner: Dice) -> None:
        self.inner = inner
        self.rolled: list[DieRoll] = []
        self.small_arrow: list[bool] = []

    def roll(self, kind: DieKind, purpose: str, *, small_arrow: bool = False) -> DieRoll:
        die = self.inner.roll(kind, purpose, small_arrow=small_arrow)
        assert die.kind is kind and die.purpose == purpose
        self.rolled.append(die)
        self.small_arrow.append(small_arrow)
        return die

    def finish(self) -> None:
        self.inner.finish()


@dataclass(frozen=True)
class Shot:
    unit: TargetUnit
    distance: float
    indirect: bool
    ballistic_skill: int | None
    aim_rank: int | None
    aim_file: int | None
    seed: int

    def fire(self, dice: Dice) -> StoneShot:
        return fire_stone_thrower(STONE, CHART, self.unit, self.distance, dice, indirect=self.indirect,
                                  ballistic_skill=self.ballistic_skill, aim_rank=self.aim_rank,
                                  aim_file=self.aim_file)


profiles = st.none() | st.builds(
    Profile,
    toughness=st.integers(1, 10),
    wounds=st.integers(1, 20),
    save=st.none() | st.integers(1, 6),
    ward=st.none() | st.integers(2, 6),
)


@st.composite
def units(draw, max_ranks=MAX_RANKS, max_files=MAX_FILES) -> TargetUnit:
    ranks = draw(st.integers(1, max_ranks))
    files = draw(st.integers(1, max_files))
    return TargetUnit(
        ranks, files, DATA.troops[draw(st.sampled_from(sorted(DATA.troops)))],
        draw(st.sampled_from(BASE_WIDTHS)), draw(st.integers(MIN_BASE_DEPTH, MAX_BASE_DEPTH)),
        draw(st.sampled_from(list(Facing))), draw(profiles),
    )


@st.composite
def valid_shots(draw) -> Shot:
    # Mostly small units, where the template covers a good part of the unit; sometimes big ones.
    unit = draw(units(6, 8) | units())
    distance = draw(
        st.floats(STONE.min_range, STONE.max_range, allow_nan=False) | st.integers(STONE.min_range, STONE.max_range)
    )
    indirect = draw(st.booleans())
    bs = draw(st.integers(0, 10)) if indirect else draw(st.none() | st.integers(0, 10))
    aim_rank = draw(st.none() | st.integers(1, unit.ranks))
    aim_file = draw(st.none() | st.integers(1, unit.files))
    return Shot(unit, distance, indirect, bs, aim_rank, aim_file, draw(st.integers(0, 2**64 - 1)))


# --- an independent layout and an independent circle test ----------------------------------------------


def rows_cols(unit: TargetUnit) -> tuple[int, int, float, float]:
    """(rows, cols, across, along): rows as the firer sees them, and a base's size in inches."""
    w, d = unit.base_width / MM, unit.base_depth / MM
    if unit.facing is Facing.FLANK:
        return unit.files, unit.ranks, d, w
    return unit.ranks, unit.files, w, d


def cell(unit: TargetUnit, rank: int, file: int) -> tuple[int, int]:
    if unit.facing is Facing.FRONT:
        return rank - 1, file - 1
    if unit.facing is Facing.REAR:
        return unit.ranks - rank, file - 1
    return file - 1, rank - 1


def rank_file(unit: TargetUnit, row: int, col: int) -> tuple[int, int]:
    if unit.facing is Facing.FRONT:
        return row + 1, col + 1
    if unit.facing is Facing.REAR:
        return unit.ranks - row, col + 1
    return col + 1, row + 1


def rects(shot: StoneShot) -> dict[tuple[int, int], tuple[float, float, float, float]]:
    """(rank, file) -> (x0, y0, x1, y1) of every base, with the aimed model's centre on the aim."""
    unit = shot.target
    rows, cols, across, along = rows_cols(unit)
    arow, acol = cell(unit, *shot.aimed_model)
    out = {}
    for row in range(rows):
        for col in range(cols):
            x0 = (col - acol - 0.5) * across
            y0 = shot.distance + (row - arow - 0.5) * along
            out[rank_file(unit, row, col)] = (x0, y0, x0 + across, y0 + along)
    return out


def meets(c: Point, r: float, box, eps: float = 0.0) -> bool:
    """The circle (c, r) and the rectangle `box` share a point (a rounded-rectangle test); `eps`
    grows (positive) or shrinks (negative) the radius."""
    x0, y0, x1, y1 = box
    r = r + eps
    if x0 - r <= c.x <= x1 + r and y0 <= c.y <= y1:
        return True
    if x0 <= c.x <= x1 and y0 - r <= c.y <= y1 + r:
        return True
    return any(math.hypot(c.x - x, c.y - y) <= r for x in (x0, x1) for y in (y0, y1))


def dist(a: Point, b: Point) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def picked(n: int, dice) -> int:
    """The index pick_at_random chose among `n` from its dice, by the FACES table below; every die
    but the last must have asked for another."""
    assert all(FACES[n][d.value - 1] is None for d in dice[:-1])
    index = FACES[n][dice[-1].value - 1]
    assert index is not None
    return index


def wound_dice(hit) -> list[DieRoll]:
    w = hit.wound
    return [] if w is None else [d for d in (w.to_wound, w.save, w.ward, w.multiple_wounds) if d is not None]


# --- valid input: the invariants ---------------------------------------------------------------------


@PROPERTY
@given(valid_shots())
def test_any_valid_shot_keeps_the_invariants(s: Shot):
    recorder = RecordingDice(RandomDice(s.seed))
    shot = s.fire(recorder)
    unit = s.unit

    # Every die the procedure rolled is in the record, in order, and the bot rolled them all.
    assert shot.dice == tuple(recorder.rolled)
    assert all(d.by is Roller.BOT for d in shot.dice)
    assert [d.kind for d in shot.dice[:2]] == [DieKind.SCATTER, DieKind.ARTILLERY]
    assert [d.purpose for d in shot.dice[:2]] == ["scatter", "scatter distance"]
    assert recorder.small_arrow[0] is s.indirect, "the small arrow is read for an indirect shot only"
    assert shot.scatter is shot.dice[0] and shot.artillery is shot.dice[1]
    assert shot.aim == Point(0.0, float(s.distance)) and shot.radius == STONE.template.radius == 1.5
    assert shot.indirect is s.indirect and shot.ballistic_skill == s.ballistic_skill

    if shot.artillery.is_misfire:
        event("misfire")
        assert not shot.fired
        assert shot.hits == () and shot.centre is None and shot.centre_choice == ()
        assert len(shot.dice) == 3 and shot.dice[2].kind is DieKind.D6 and shot.misfire.roll is shot.dice[2]
        assert shot.misfire.chart is CHART
        assert shot.misfire.row.low <= shot.misfire.roll.value <= shot.misfire.row.high
        return
    assert shot.fired and shot.misfire is None

    # Scatter.
    moved = dist(shot.centre, shot.aim)
    assert moved <= LARGEST_ARTILLERY + EPS
    assert moved == pytest.approx(shot.scatter_distance, abs=1e-9)
    if not shot.scatter.is_hit:
        assert shot.scatter_distance == shot.artillery.value  # the whole number, not halved
    elif s.indirect:
        assert shot.scatter.face == f"H@{shot.scatter.direction}"
        assert shot.scatter_distance == max(0, shot.artillery.value - s.ballistic_skill)
    else:
        assert shot.centre == shot.aim and shot.scatter_distance == 0 and shot.scatter_direction is None
    if shot.scatter_distance:
        assert shot.scatter_direction == shot.scatter.direction
        bearing = math.degrees(math.atan2(shot.centre.x - shot.aim.x, shot.centre.y - shot.aim.y)) % 360
        off = abs(bearing - shot.scatter_direction)
        assert min(off, 360 - off) < 1e-6

    # Who is under the template, by this file's own geometry.
    boxes = rects(shot)
    hits = shot.hits
    where = [(h.rank, h.file) for h in hits]
    assert len(set(where)) == len(where), "no model is hit twice"
    assert set(where) <= set(boxes)
    c, r = shot.centre, shot.radius
    for key in where:
        assert meets(c, r, boxes[key], EPS), f"{key} is hit but its base is clear of the template"
    for key, box in boxes.items():
        if meets(c, r, box, -EPS):
            assert key in where, f"{key} is under the template but not hit"

    event("a centre hit" if any(h.kind is TemplateHitKind.CENTRE for h in hits) else "no centre hit")
    event("template hits" if any(h.kind is TemplateHitKind.TEMPLATE for h in hits) else "no template hits")

    # The centre hole (0.2" across): exactly one model when it lies over any base, none when it
    # does not; with several under it, one of them picked with a D6.
    hole = STONE.template.hole / 2
    centres = [h for h in hits if h.kind is TemplateHitKind.CENTRE]
    over = [k for k, box in boxes.items() if meets(c, hole, box, -EPS)]
    near = [k for k, box in boxes.items() if meets(c, hole, box, EPS)]
    if over:
        assert len(centres) == 1 and hits[0].kind is TemplateHitKind.CENTRE
    if not near:
        assert centres == [] and shot.centre_choice == ()
    assert len(centres) <= 1
    if centres:
        assert hits[0] is centres[0]
        assert (centres[0].rank, centres[0].file) in near, "the centre hit is a model under the hole"
    if len(over) > 1:
        assert shot.centre_choice, "several models under the hole, and no random pick"
    if len(near) <= 1:
        assert shot.centre_choice == ()
    picks = [d for d in shot.dice[2:] if d.purpose == PICK]
    assert [d.purpose for d in shot.dice[2:2 + len(picks)]] == [PICK] * len(picks)
    assert bool(picks) == bool(shot.centre_choice)
    if shot.centre_choice:
        choice = shot.centre_choice
        event(f"{len(choice)} under the hole")
        assert 2 <= len(choice) <= 4, "a 0.2\" hole over bases at least 20 mm wide meets at most 2 x 2"
        assert set(over) <= set(choice) <= set(near)
        assert [cell(unit, *k) for k in choice] == sorted(cell(unit, *k) for k in choice)
        assert all(d.kind is DieKind.D6 for d in picks)
        assert (hits[0].rank, hits[0].file) == choice[picked(len(choice), picks)]
        assert len(set(choice)) == len(choice)
        assert set(choice) - {(hits[0].rank, hits[0].file)} <= set(where[1:]), "the others are template hits"

    # Strengths: the centre at S10 with Multiple Wounds (D6); the rest at S4, one wound each.
    for h in hits:
        if h.kind is TemplateHitKind.CENTRE:
            assert (h.strength, h.wounds_die) == (STONE.centre_strength, STONE.centre_wounds) == (10, DieKind.D6)
        else:
            assert (h.strength, h.wounds_die) == (STONE.strength, None) == (4, None)
    # The template hits: nearest rank (as the firer sees) first, left to right.
    rest = [cell(unit, h.rank, h.file) for h in hits if h.kind is TemplateHitKind.TEMPLATE]
    assert rest == sorted(rest)

    # Wounds and the dice they rolled, hit by hit after the scatter and any pick.
    if unit.profile is None:
        assert all(h.wound is None for h in hits)
        assert len(shot.dice) == 2 + len(picks)
    else:
        p = unit.profile
        for h in hits:
            w = h.wound
            assert w.strength == h.strength
            assert w.to_wound_needed == to_wound_needed(h.strength, p.toughness)
            if w.wounded:
                assert w.save_needed == armour_save_needed(p.save, h.strength)
            if h.strength == 10:
                assert w.save is None, "S10 leaves no armour save"
            assert 0 <= w.wounds <= p.wounds and w.slain == (w.wounds == p.wounds)
            if h.kind is TemplateHitKind.TEMPLATE:
                assert w.multiple_wounds is None and w.wounds <= 1
            elif w.multiple_wounds is not None:
                assert w.multiple_wounds.kind is DieKind.D6
        assert list(shot.dice[2 + len(picks):]) == [d for h in hits for d in wound_dice(h)]


@PROPERTY
@given(valid_shots())
def test_entering_the_bots_faces_replays_the_same_shot(s: Shot):
    assert_replays(s.fire, s.seed)


# --- Formation.under_circle and the centre hole against brute force -----------------------------------

dyadic = st.integers(-400, 400).map(lambda n: n / 8)  # exact in binary: no rounding anywhere


@st.composite
def grids(draw, exact: bool):
    rows, cols = draw(st.integers(1, MAX_RANKS)), draw(st.integers(1, MAX_FILES))
    if exact:
        w, d = draw(st.integers(1, 48).map(lambda n: n / 8)), draw(st.integers(1, 48).map(lambda n: n / 8))
        left, near = draw(dyadic), draw(dyadic)
    else:
        w, d = draw(st.floats(0.5, 6)), draw(st.floats(0.5, 6))
        left, near = draw(st.floats(-50, 50)), draw(st.floats(-50, 50))
    unit = TargetUnit(1, 1, DATA.troops["infantry"], 20, 20)
    return Formation(unit, rows, cols, w, d, left, near)


def boxes_of(f: Formation):
    for row in range(f.rows):
        for col in range(f.cols):
            x0, y0 = f.left + col * f.cell_width, f.near + row * f.cell_depth
            yield (row, col), (x0, y0, x0 + f.cell_width, y0 + f.cell_depth)


@PROPERTY
@given(grids(exact=True), dyadic, dyadic, st.integers(0, 48).map(lambda n: n / 8))
def test_under_circle_matches_brute_force_exactly_on_a_dyadic_grid(f, cx, cy, r):
    # Every figure is a multiple of 1/8 (or 1/64 squared): the engine and the brute force agree
    # to the last bit, tangent bases included (a touch counts as partly under).
    c = Point(cx, cy)
    expected = [k for k, box in boxes_of(f) if meets(c, r, box)]
    assert f.under_circle(c, r) == expected  # row by row, left to right


@PROPERTY
@given(grids(exact=False), st.floats(-80, 80), st.floats(-80, 80), st.floats(0.05, 8))
def test_under_circle_matches_brute_force(f, cx, cy, r):
    c = Point(cx, cy)
    got = f.under_circle(c, r)
    assert got == sorted(got) and len(set(got)) == len(got)
    for k, box in boxes_of(f):
        if meets(c, r, box, -1e-9):
            assert k in got
        elif not meets(c, r, box, 1e-9):
            assert k not in got


@st.composite
def short_scatters(draw) -> tuple[Shot, str]:
    """An indirect hit on a small unit scattering 0 to 4" (artillery less BS) on a whole bearing,
    with the faces to enter. Mostly the bearing is one that brings the centre within 0.15" of a
    line between two bases, or of both lines at a corner (by this file's own layout), so that the
    hole's 0.1" is tried on both sides of the lines."""
    unit = draw(units(6, 8))
    distance = draw(st.floats(STONE.min_range, STONE.max_range, allow_nan=False))
    artillery = draw(st.sampled_from([4, 6, 8, 10]))
    moved = draw(st.integers(0, 4))
    aim_rank, aim_file = draw(st.integers(1, unit.ranks)), draw(st.integers(1, unit.files))
    rows, cols, across, along = rows_cols(unit)
    arow, acol = cell(unit, aim_rank, aim_file)
    xs = [(k - acol - 0.5) * across for k in range(cols + 1)]  # base edges across, the aim at 0
    ys = [(k - arow - 0.5) * along for k in range(rows + 1)]  # and along

    def lines_near(bearing: int) -> int:
        """How many lines between bases (0, 1 or 2) lie within 0.15" of where the centre lands."""
        x, y = moved * math.sin(math.radians(bearing)), moved * math.cos(math.radians(bearing))
        if not (xs[0] < x < xs[-1] and ys[0] < y < ys[-1]):
            return 0
        return any(abs(x - e) < 0.15 for e in xs[1:-1]) + any(abs(y - e) < 0.15 for e in ys[1:-1])

    near = {n: [b for b in range(360) if lines_near(b) == n] for n in (1, 2)}
    aims = [st.sampled_from(bs) for bs in (near[2], near[1]) if bs] + [st.integers(0, 359)]
    bearing = draw(st.one_of(aims))
    shot = Shot(unit, distance, True, artillery - moved, aim_rank, aim_file, draw(st.integers(0, 2**64 - 1)))
    return shot, f"H@{bearing} {artillery}"


@PROPERTY
@given(short_scatters())
def test_the_centre_hole_candidates_are_every_base_within_half_its_width(drawn):
    # The candidates for the centre hit are the bases whose rectangle comes within hole / 2 of the
    # centre, by this file's own layout and circle test; a base within EPS of that edge may go
    # either way (float noise), any other must be decided exactly. Exactly one centre hit when
    # there is any candidate, none otherwise.
    s, faces = drawn
    shot = s.fire(EnteredDice(faces, RandomDice(s.seed)))
    assert shot.fired and shot.scatter_distance == max(0, shot.artillery.value - s.ballistic_skill) <= 4
    c, hole = shot.centre, STONE.template.hole / 2
    assert hole == 0.1
    boxes = rects(shot)
    over = [k for k, box in boxes.items() if meets(c, hole, box, -EPS)]
    near = [k for k, box in boxes.items() if meets(c, hole, box, EPS)]
    centres = [(h.rank, h.file) for h in shot.hits if h.kind is TemplateHitKind.CENTRE]
    candidates = list(shot.centre_choice) or centres
    event(f"{len(candidates)} under the hole")
    assert set(over) <= set(candidates) <= set(near)
    if over == near:
        assert sorted(candidates) == sorted(over), "exactly the bases within hole / 2"
    assert len(shot.centre_choice) != 1, "one model under the hole needs no pick"
    assert [cell(s.unit, *k) for k in candidates] == sorted(cell(s.unit, *k) for k in candidates)
    assert len(centres) == (1 if candidates else 0)
    if candidates:
        assert shot.hits[0].kind is TemplateHitKind.CENTRE and centres[0] in candidates
        assert shot.hits[0].strength == STONE.centre_strength
    picks = [d for d in shot.dice[2:] if d.purpose == PICK]
    assert bool(picks) == (len(candidates) > 1)
    if picks:
        assert centres[0] == candidates[picked(len(candidates), picks)]


# --- pick_at_random -------------------------------------------------------------------------------------------

# n things -> for each D6 face, the index chosen, or None to roll again.
FACES = {
    1: None,  # no die
    2: [0, 0, 0, 1, 1, 1],
    3: [0, 0, 1, 1, 2, 2],
    4: [0, 1, 2, 3, None, None],
    5: [0, 1, 2, 3, 4, None],
    6: [0, 1, 2, 3, 4, 5],
}


def test_pick_at_random_among_one_rolls_nothing(no_dice):
    assert pick_at_random(no_dice, 1, PICK) == (0, ())


@pytest.mark.parametrize("n", range(2, 7))
@pytest.mark.parametrize("face", range(1, 7))
def test_pick_at_random_maps_each_face(no_dice, n, face):
    chosen = FACES[n][face - 1]
    faces = f"{face}" if chosen is not None else f"{face} 1"
    index, dice = pick_at_random(EnteredDice(faces, no_dice), n, PICK)
    assert index == (chosen if chosen is not None else 0)
    assert [d.value for d in dice] == [int(f) for f in faces.split()]
    assert all(d.kind is DieKind.D6 and d.purpose == PICK for d in dice)


@QUICK
@given(st.integers(2, 6), st.lists(st.integers(1, 6), min_size=1, max_size=12))
def test_pick_at_random_rolls_until_a_face_decides(n, faces):
    deciding = next((i for i, f in enumerate(faces) if FACES[n][f - 1] is not None), None)
    assume(deciding is not None)
    used = faces[: deciding + 1]
    dice = EnteredDice(" ".join(map(str, used)), RandomDice(0))
    index, rolled = pick_at_random(dice, n, PICK)
    dice.finish()  # every face entered was used
    assert index == FACES[n][used[-1] - 1]
    assert [d.value for d in rolled] == used
    assert all(FACES[n][d.value - 1] is None for d in rolled[:-1])


@pytest.mark.parametrize("n", range(1, 7))
def test_pick_at_random_with_the_bots_dice_is_even(n):
    dice = RandomDice(n)
    counts = collections.Counter(pick_at_random(dice, n, PICK)[0] for _ in range(6000))
    assert set(counts) == set(range(n))
    assert all(abs(k - 6000 / n) < 0.1 * 6000 / n for k in counts.values()), counts


@pytest.mark.parametrize("n", [0, 7, -1])
def test_pick_at_random_beyond_a_d6_is_a_bug_not_a_rules_error(n, no_dice):
    with pytest.raises(ValueError) as err:
        pick_at_random(no_dice, n, PICK)
    assert not isinstance(err.value, RulesError)


# --- invalid input: RulesError -----------------------------------------------------------------------------


@QUICK
@given(st.floats(max_value=STONE.min_range, exclude_max=True) | st.floats(min_value=STONE.max_range, exclude_min=True)
       | st.just(math.nan), st.booleans())
def test_template_out_of_range_is_a_rules_error(distance, indirect):
    unit = TargetUnit(3, 3, DATA.troops["infantry"], 20, 20)
    with pytest.raises(RulesError, match="12-60"):
        fire_stone_thrower(STONE, CHART, unit, distance, RandomDice(0), indirect=indirect, ballistic_skill=3)


bad_bs = (
    st.integers(max_value=-1) | st.integers(min_value=11) | st.booleans()
    | st.floats(allow_nan=True) | st.text(max_size=3) | st.just([3])
)


@QUICK
@given(bad_bs, st.booleans())
def test_impossible_ballistic_skill_is_a_rules_error(bs, indirect):
    unit = TargetUnit(3, 3, DATA.troops["infantry"], 20, 20)
    with pytest.raises(RulesError, match="Ballistic Skill .* is not possible"):
        fire_stone_thrower(STONE, CHART, unit, 30, RandomDice(0), indirect=indirect, ballistic_skill=bs)


@QUICK
@given(valid_shots())
def test_an_indirect_shot_without_ballistic_skill_is_a_rules_error(s: Shot):
    with pytest.raises(RulesError, match="give bs"):
        replace(s, indirect=True, ballistic_skill=None).fire(RandomDice(s.seed))


def out_of(low: int, high: int):
    return st.integers(max_value=low - 1) | st.integers(min_value=high + 1)


@QUICK
@given(st.integers(1, MAX_RANKS), st.integers(1, MAX_FILES), st.sampled_from(list(Facing)), st.data())
def test_aim_outside_the_unit_is_a_rules_error(ranks, files, facing, data):
    unit = TargetUnit(ranks, files, DATA.troops["infantry"], 20, 20, facing)
    aim = data.draw(
        st.fixed_dictionaries({"aim_rank": out_of(1, ranks)}) | st.fixed_dictionaries({"aim_file": out_of(1, files)})
    )
    with pytest.raises(RulesError, match="Aim (rank|file)"):
        fire_stone_thrower(STONE, CHART, unit, 30, RandomDice(0), **aim)


def is_face(token: str) -> bool:
    try:
        return split_faces(token) == (token.upper(),)
    except DiceError:
        return False


junk = st.text(alphabet=string.ascii_letters + string.digits + "@.#-+!?/", min_size=1, max_size=6).filter(
    lambda t: not is_face(t)
)


@QUICK
@given(valid_shots(), junk, st.integers(0, 2))
def test_a_token_that_is_no_face_is_a_dice_error(s: Shot, token, where):
    faces = ["H@0" if s.indirect else "H", "4"]
    faces.insert(where, token)
    with pytest.raises(DiceError, match="is not a die face"):
        s.fire(EnteredDice(" ".join(faces), RandomDice(0)))


@QUICK
@given(valid_shots(), st.sampled_from(["1", "2", "6", "10", "M", "m"]))
def test_a_number_on_the_scatter_die_is_a_dice_error(s: Shot, face):
    with pytest.raises(DiceError, match="scatter die rolled for scatter"):
        s.fire(EnteredDice(f"{face} 4", RandomDice(0)))


@QUICK
@given(valid_shots(), st.sampled_from(["1", "3", "5", "7", "9", "H", "@90", "h@10"]))
def test_a_face_the_artillery_die_lacks_is_a_dice_error(s: Shot, face):
    with pytest.raises(DiceError, match="artillery die rolled for scatter distance"):
        s.fire(EnteredDice(f"@0 {face}", RandomDice(0)))


@QUICK
@given(valid_shots())
def test_a_plain_hit_is_a_dice_error_exactly_when_the_shot_is_indirect(s: Shot):
    dice = EnteredDice("H", RandomDice(s.seed))
    if s.indirect:
        with pytest.raises(DiceError, match="H@DEG"):
            s.fire(dice)
    else:
        assert s.fire(dice).scatter.face == "H"


@QUICK
@given(valid_shots(), st.lists(st.sampled_from(["1", "2", "3", "4", "5", "6"]), min_size=1, max_size=4))
def test_faces_left_over_are_a_dice_error(s: Shot, extra):
    faces = [d.face for d in s.fire(RandomDice(s.seed)).dice]
    with pytest.raises(DiceError, match=f"{len(extra)} left over"):
        s.fire(EnteredDice(" ".join(faces + extra), RandomDice(0)))
