"""Stone thrower (Warhammer Fantasy, War Machines: Stone Throwers, Firing Indirectly, Stone Thrower
Misfire Chart), one branch at a time, with every die entered by the players.

Frame (engine/geometry.py): crossbar at the origin, line of fire along +y, x to the firer's right.
Unless a test says otherwise the target is infantry on 20 mm bases, 4 ranks of 5, showing its
front, with the template's centre placed 30" away over the centre model of the front rank (rank 1,
file 3): the unit spans x -1.9685..+1.9685 and y 29.6063..32.7559, each base 0.7874" (W) square.
The small round template is 3" across: radius 1.5". Its centre hole is 0.2" across (radius 0.1"):
every base it lies over, wholly or partly, is a candidate for the centre hit, and with more than
one a D6 picks among them.

Distances to a base are from the template's centre to the nearest point of the base's rectangle,
worked here by hand from the base sizes, not read from the engine's layout: a base is under the
hole when that distance is at most 0.1", under the template when at most 1.5".
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from config.gamedata import fantasy
from engine.dice import DieKind, EnteredDice, RandomDice, Roller, pick_at_random
from engine.errors import DiceError, RulesError
from engine.fantasy import stone_thrower as stone_thrower_module
from engine.fantasy.formation import Facing, Formation, TargetUnit
from engine.fantasy.profiles import MisfireOutcome
from engine.fantasy.stone_thrower import TemplateHitKind, fire_stone_thrower
from engine.fantasy.wounding import Profile
from engine.geometry import Point

DATA = fantasy()
STONE = DATA.stone_throwers["stone-thrower"]
CHART = DATA.misfire_charts["stone-thrower"]
CANNON = DATA.cannons["cannon"]
W = 20 / 25.4  # a 20 mm base, inches
NEAR = 30 - W / 2  # the front rank's front edge
R = 1.5  # the small round template's radius
HOLE = 0.1  # the centre hole's radius: it is 0.2" across
CENTRE, TEMPLATE = TemplateHitKind.CENTRE, TemplateHitKind.TEMPLATE
PICK = "which model is under the centre hole"


def unit(troop="infantry", ranks=4, files=5, width=20, depth=20, facing=Facing.FRONT, profile=None):
    return TargetUnit(ranks, files, DATA.troops[troop], width, depth, facing, profile)


def placed(shot):
    """(rank, file) of each model hit, in order."""
    return [(h.rank, h.file) for h in shot.hits]


def kinds(shot):
    return [h.kind for h in shot.hits]


def close(p: Point, x: float, y: float, eps=1e-9) -> bool:
    return abs(p.x - x) < eps and abs(p.y - y) < eps


def gap(centre: tuple[float, float], box: tuple[float, float, float, float]) -> float:
    """From a point to the nearest point of the rectangle (x0, y0, x1, y1); 0 inside it."""
    (x, y), (x0, y0, x1, y1) = centre, box
    return math.hypot(max(x0 - x, 0, x - x1), max(y0 - y, 0, y - y1))


def base(rank: int, file: int, w=W, d=W, files=5, aim_file=3) -> tuple[float, float, float, float]:
    """The rectangle of a front-facing unit's (rank, file), by hand: the aimed file's centre on x = 0,
    the front rank's centre on y = 30."""
    x0 = (file - aim_file - 0.5) * w
    y0 = 30 - d / 2 + (rank - 1) * d
    return x0, y0, x0 + w, y0 + d


def throw_with(faces: str, target=None, distance=30, **options):
    """Fire at `target` (the default unit) with the given faces and the bot for the rest."""
    return fire_stone_thrower(STONE, CHART, target or unit(), distance, EnteredDice(faces, RandomDice(0)), **options)


# --- the Stone Thrower Misfire Chart: one test per row ---------------------------------------------------


def assert_misfired(shot, score):
    assert not shot.fired
    assert shot.misfire.chart.key == "stone-thrower" and shot.misfire.chart is CHART
    assert shot.misfire.roll.value == score and shot.misfire.roll.kind is DieKind.D6
    assert [(d.kind, d.purpose) for d in shot.dice] == [
        (DieKind.SCATTER, "scatter"),
        (DieKind.ARTILLERY, "scatter distance"),
        (DieKind.D6, "Stone Thrower Misfire Chart"),
    ]
    assert shot.misfire.roll is shot.dice[2]
    assert shot.hits == () and shot.centre is None and shot.centre_choice == ()
    assert shot.scatter_distance == 0 and shot.scatter_direction is None


@pytest.mark.parametrize("scatter", ["H", "@90"])
def test_misfire_1_destroyed(throw, scatter):
    shot = throw(unit(), 30, f"{scatter} M 1")
    assert_misfired(shot, 1)
    row = shot.misfire.row
    assert (row.outcome, row.title) == (MisfireOutcome.DESTROYED, "Destroyed!")
    assert (row.low, row.high) == (1, 1)
    assert row.silent_turns == 0 and row.wounds == 0


@pytest.mark.parametrize("score", [2, 3])
@pytest.mark.parametrize("scatter", ["H", "@90"])
def test_misfire_2_3_disabled_one_wound_no_armour_save_no_shot_this_turn_nor_next(throw, score, scatter):
    shot = throw(unit(), 30, f"{scatter} M {score}")
    assert_misfired(shot, score)
    row = shot.misfire.row
    assert (row.outcome, row.title) == (MisfireOutcome.DISABLED, "Disabled")
    assert (row.low, row.high) == (2, 3)
    assert row.wounds == 1
    assert "no armour save" in row.effect
    assert row.silent_turns == 2  # this turn and the controlling player's next


@pytest.mark.parametrize("score", [4, 5, 6])
@pytest.mark.parametrize("scatter", ["H", "@90"])
def test_misfire_4_6_may_not_shoot_this_turn_only(throw, score, scatter):
    shot = throw(unit(), 30, f"{scatter} M {score}")
    assert_misfired(shot, score)
    row = shot.misfire.row
    assert (row.outcome, row.title) == (MisfireOutcome.MAY_NOT_SHOOT, "May Not Shoot")
    assert (row.low, row.high) == (4, 6)
    assert row.silent_turns == 1 and row.wounds == 0


def test_a_stone_thrower_never_rolls_on_the_black_powder_chart(throw):
    # A 2 is Destroyed! on the black powder chart, Disabled on the stone thrower's.
    shot = throw(unit(), 30, "H M 2")
    assert shot.misfire.chart.name == "Stone Thrower Misfire Chart"
    assert shot.misfire.row.outcome is MisfireOutcome.DISABLED


def test_an_indirect_shot_misfires_on_the_same_chart(throw):
    shot = throw(unit(), 30, "H@30 M 3", indirect=True, ballistic_skill=3)
    assert_misfired(shot, 3)
    assert shot.misfire.row.outcome is MisfireOutcome.DISABLED


def test_a_misfire_leaves_no_room_for_more_dice():
    with pytest.raises(DiceError, match="1 left over \\(4\\)"):
        throw_with("H M 3 4")


def test_a_misfire_with_a_profile_rolls_no_wound_dice(throw):
    shot = throw(unit(profile=Profile(toughness=3)), 30, "H M 5")
    assert len(shot.dice) == 3 and shot.hits == ()


# --- Scatter -------------------------------------------------------------------------------------------


def test_hit_lands_on_target_ignoring_the_artillery_number(throw):
    shot = throw(unit(), 30, "H 10")
    assert shot.fired and shot.scatter.is_hit and shot.artillery.value == 10
    assert shot.centre == shot.aim == Point(0.0, 30.0)
    assert shot.scatter_distance == 0 and shot.scatter_direction is None
    assert [d.purpose for d in shot.dice] == ["scatter", "scatter distance"]
    assert shot.hits[0].kind is CENTRE and placed(shot)[0] == (1, 3)


@pytest.mark.parametrize(
    ("face", "artillery", "x", "y"),
    [
        ("@0", 10, 0.0, 40.0),  # straight on, away from the firer
        ("@90", 4, 4.0, 30.0),  # to the firer's right, +x
        ("@180", 6, 0.0, 24.0),  # back toward the firer
        ("@270", 8, -8.0, 30.0),  # to the firer's left
        ("@45", 2, math.sqrt(2), 30 + math.sqrt(2)),
        ("@-30", 4, -2.0, 30 + 2 * math.sqrt(3)),
        ("@450", 2, 2.0, 30.0),  # folded to 90
    ],
)
def test_arrow_moves_the_template_the_full_artillery_number_clockwise_from_the_line_of_fire(
    throw, face, artillery, x, y
):
    shot = throw(unit(), 30, f"{face} {artillery}")
    assert shot.scatter_distance == artillery  # the whole number: the cannon halves it, the stone thrower does not
    assert shot.scatter_direction == int(face[1:]) % 360
    assert close(shot.centre, x, y)
    assert shot.aim == Point(0.0, 30.0)


def test_the_same_arrow_moves_a_cannon_half_as_far(throw, fire):
    stone = throw(unit(), 30, "@90 4")
    ball = fire(CANNON, unit(), 30, "@90 4 M")
    assert close(stone.centre, 4, 30) and close(ball.landing, 2, 30)


def test_arrow_at_90_moves_the_template_to_the_firers_right(throw):
    # 2" right: the centre (2, 30) is just past file 5's right edge (2.5W = 1.9685), 0.0315" off
    # it: within the hole's 0.1", so rank 1 file 5 is under the hole and takes the centre hit.
    # Only the two right-hand files are under the template (file 3 is 2 - 0.5W = 1.6063" across).
    shot = throw(unit(), 30, "@90 2")
    assert close(shot.centre, 2, 30)
    assert {f for _, f in placed(shot)} == {4, 5}
    assert shot.hits[0].kind is CENTRE and placed(shot)[0] == (1, 5)
    assert kinds(shot).count(CENTRE) == 1 and shot.centre_choice == ()


def test_arrow_at_270_moves_the_template_to_the_firers_left(throw):
    shot = throw(unit(), 30, "@270 2")
    assert close(shot.centre, -2, 30)
    assert {f for _, f in placed(shot)} == {1, 2}


# --- Firing indirectly ------------------------------------------------------------------------------------


def test_an_indirect_shot_needs_the_crews_ballistic_skill():
    with pytest.raises(RulesError, match="indirect shot .* Ballistic Skill: give bs") as err:
        throw_with("H@90 8", indirect=True)
    assert not isinstance(err.value, DiceError)


@pytest.mark.parametrize("bs", [0, 3, 10])
def test_an_indirect_arrow_scatters_as_normal_whatever_the_ballistic_skill(throw, bs):
    shot = throw(unit(), 30, "@90 4", indirect=True, ballistic_skill=bs)
    assert shot.indirect and shot.ballistic_skill == bs
    assert shot.scatter_distance == 4 and shot.scatter_direction == 90
    assert close(shot.centre, 4, 30)


@pytest.mark.parametrize(
    ("face", "artillery", "bs", "moved", "x", "y"),
    [
        ("H@90", 8, 3, 5, 5.0, 30.0),  # 8 - 3 along the small arrow, to the firer's right
        ("H@0", 10, 4, 6, 0.0, 36.0),
        ("H@180", 6, 0, 6, 0.0, 24.0),  # Ballistic Skill 0: the whole artillery number
        ("H@270", 4, 3, 1, -1.0, 30.0),
        ("H@-90", 10, 1, 9, -9.0, 30.0),
        ("H@60", 10, 8, 2, math.sqrt(3), 31.0),
    ],
)
def test_an_indirect_hit_scatters_along_the_small_arrow_by_artillery_less_bs(throw, face, artillery, bs, moved, x, y):
    shot = throw(unit(), 30, f"{face} {artillery}", indirect=True, ballistic_skill=bs)
    assert shot.scatter.is_hit and shot.scatter.face == f"H@{int(face[2:]) % 360}"
    assert shot.scatter_distance == moved
    assert shot.scatter_direction == int(face[2:]) % 360
    assert close(shot.centre, x, y)


@pytest.mark.parametrize(("artillery", "bs"), [(4, 4), (2, 7), (6, 10), (10, 10)])
def test_an_indirect_hit_never_scatters_below_nothing(throw, artillery, bs):
    # Ballistic Skill as large as the die or larger: the template stays where it was placed
    # (it is not pulled back the other way).
    shot = throw(unit(), 30, f"H@90 {artillery}", indirect=True, ballistic_skill=bs)
    assert shot.scatter_distance == 0
    assert shot.centre == shot.aim == Point(0.0, 30.0)
    assert shot.hits[0].kind is CENTRE and placed(shot)[0] == (1, 3)
    assert placed(shot) == placed(throw(unit(), 30, "H 4"))  # as a direct hit on target


def test_an_indirect_hit_that_does_not_move_records_no_scatter_direction(throw):
    # BS 4 takes the whole artillery 4: the template stays put, so there is no direction to
    # record, though the small arrow pointed at 90.
    shot = throw(unit(), 30, "H@90 4", indirect=True, ballistic_skill=4)
    assert shot.scatter.direction == 90
    assert shot.scatter_distance == 0
    assert shot.scatter_direction is None


def test_a_plain_hit_is_a_dice_error_for_an_indirect_shot():
    with pytest.raises(DiceError, match="'H' \\(die 1\\).*H@DEG"):
        throw_with("H 8", indirect=True, ballistic_skill=3)


def test_a_direct_shot_ignores_the_small_arrow(throw):
    shot = throw(unit(), 30, "H@90 8")
    assert shot.scatter.face == "H" and shot.scatter.direction is None
    assert shot.centre == shot.aim and shot.scatter_distance == 0


def test_a_direct_shot_ignores_a_ballistic_skill_given_with_it(throw):
    hit = throw(unit(), 30, "H 8", ballistic_skill=3)
    arrow = throw(unit(), 30, "@90 4", ballistic_skill=3)
    assert not hit.indirect and hit.centre == hit.aim
    assert arrow.scatter_distance == 4


def test_the_bots_indirect_hit_comes_with_a_small_arrow():
    # Seeds until the bot rolls a hit: it must carry a direction and scatter along it.
    for seed in range(200):
        shot = fire_stone_thrower(STONE, CHART, unit(), 30, RandomDice(seed), indirect=True, ballistic_skill=2)
        if shot.fired and shot.scatter.is_hit:
            break
    else:  # pragma: no cover
        pytest.fail("no hit in 200 seeds")
    d = shot.scatter.direction
    assert shot.scatter.face == f"H@{d}" and shot.scatter.by is Roller.BOT
    assert shot.scatter_distance == max(0, shot.artillery.value - 2)


# --- Damage: who is under the template ---------------------------------------------------------------------


def test_hit_on_target_centre_model_at_s10_d6_every_other_model_under_the_template_at_s4(throw):
    # Centre (0, 30). By file, the gap across to the base: files 1, 5: 2W - W/2 = 1.1811; files
    # 2, 4: W/2 = 0.3937; file 3: 0. By rank, the gap along: rank 1: 0; rank 2: 0.3937;
    # rank 3: 1.1811; rank 4: 2W - W/2 + ... = 1.9685 (beyond 1.5: nobody).
    # Rank 3 files 1, 5: hypot(1.1811, 1.1811) = 1.6703 > 1.5, clear of the template.
    shot = throw(unit(), 30, "H 4")
    assert placed(shot) == [
        (1, 3),
        (1, 1), (1, 2), (1, 4), (1, 5),
        (2, 1), (2, 2), (2, 3), (2, 4), (2, 5),
        (3, 2), (3, 3), (3, 4),
    ]
    assert kinds(shot) == [CENTRE] + [TEMPLATE] * 12
    assert [(h.strength, h.wounds_die) for h in shot.hits] == [(10, DieKind.D6)] + [(4, None)] * 12
    assert all(h.wound is None for h in shot.hits)


def test_hand_worked_distances_clipped_bases_are_hit_those_just_clear_are_not(throw):
    shot = throw(unit(), 30, "H 4")
    hit = set(placed(shot))
    # Rank 2 file 1: its centre (-2W, 30 + W) is 1.7607" from the template's centre, outside it,
    # but its corner (-1.5W, 30 + W/2) is only hypot(1.1811, 0.3937) = 1.2450" away: clipped, hit.
    assert math.hypot(-2 * W, W) == pytest.approx(1.7607, abs=1e-4)
    assert gap((0, 30), base(2, 1)) == pytest.approx(math.hypot(1.5 * W, 0.5 * W)) == pytest.approx(1.2450, abs=1e-4)
    assert (2, 1) in hit
    # Rank 3 file 1: its nearest corner (-1.5W, 30 + 1.5W) is 1.6703" away: just clear.
    assert gap((0, 30), base(3, 1)) == pytest.approx(math.hypot(1.5 * W, 1.5 * W)) == pytest.approx(1.6703, abs=1e-4)
    assert (3, 1) not in hit and (3, 5) not in hit
    # Rank 4 file 3: its front edge is at 30 + 2.5W, 1.9685" on: clear.
    assert gap((0, 30), base(4, 3)) == pytest.approx(2.5 * W)
    assert not any(r == 4 for r, _ in hit)


def test_centre_just_off_the_units_right_edge_still_has_the_edge_model_under_the_hole(throw):
    # Centre (2, 30), 0.0315" right of the unit (its right edge is 2.5W = 1.9685). Under the hole
    # (0.1"): rank 1 file 5, 0.0315" across, alone; rank 2 file 5 is hypot(0.0315, 0.3937) =
    # 0.3950" off. Under the template (1.5"): file 4 is 2 - 1.5W = 0.8189" across, file 3
    # 2 - 0.5W = 1.6063" (clear). Rank 2 file 4: hypot(0.8189, 0.3937) = 0.9086; rank 3 file 5:
    # hypot(0.0315, 1.1811) = 1.1815; rank 3 file 4: hypot(0.8189, 1.1811) = 1.4372 (clipped,
    # hit); rank 4 file 5: hypot(0.0315, 1.9685) = 1.9688 (clear).
    shot = throw(unit(), 30, "@90 2")
    assert gap((2, 30), base(1, 5)) == pytest.approx(2 - 2.5 * W) == pytest.approx(0.0315, abs=1e-4)
    assert gap((2, 30), base(1, 5)) <= HOLE < gap((2, 30), base(2, 5)) == pytest.approx(0.3950, abs=1e-4)
    assert gap((2, 30), base(2, 4)) == pytest.approx(0.9086, abs=1e-4)
    assert gap((2, 30), base(3, 5)) == pytest.approx(1.1815, abs=1e-4)
    assert gap((2, 30), base(3, 4)) == pytest.approx(1.4372, abs=1e-4)
    assert gap((2, 30), base(1, 3)) == pytest.approx(1.6063, abs=1e-4)
    assert gap((2, 30), base(4, 5)) == pytest.approx(1.9688, abs=1e-4)
    assert placed(shot) == [(1, 5), (1, 4), (2, 4), (2, 5), (3, 4), (3, 5)]
    assert kinds(shot) == [CENTRE] + [TEMPLATE] * 5 and shot.centre_choice == ()
    assert [d.purpose for d in shot.dice] == ["scatter", "scatter distance"]  # one candidate: no pick


def test_template_short_of_the_unit_by_more_than_its_radius_hits_nothing(throw):
    # Centre (0, 28): the front edge is at 29.6063, 1.6063" away.
    shot = throw(unit(), 30, "@180 2")
    assert shot.fired and close(shot.centre, 0, 28)
    assert gap((0, 28), base(1, 3)) == pytest.approx(NEAR - 28)
    assert shot.hits == ()


def test_template_short_of_the_unit_clips_the_front_rank(throw):
    # Monstrous infantry on 40 mm bases (1.5748"), 2 ranks of 5; centre 2" short at (0, 28). The
    # front edge is at 30 - 0.7874 = 29.2126, 1.2126" on: files 2-4 are under the edge of the
    # template (files 2 and 4 by their corners: hypot(0.7874, 1.2126) = 1.4458), files 1 and 5
    # are 2.3622" across, clear; rank 2 is 2.7874" on, clear. Nobody under the hole.
    w = 40 / 25.4
    shot = throw(unit("monstrous-infantry", ranks=2, files=5, width=40, depth=40), 30, "@180 2")
    assert gap((0, 28), base(1, 2, w, w)) == pytest.approx(1.4458, abs=1e-4)
    assert gap((0, 28), base(1, 1, w, w)) == pytest.approx(math.hypot(1.5 * w, 30 - w / 2 - 28))
    assert placed(shot) == [(1, 2), (1, 3), (1, 4)]
    assert kinds(shot) == [TEMPLATE] * 3


@pytest.mark.parametrize(("face", "x", "y"), [("@0 10", 0, 40), ("@90 10", 10, 30), ("@270 4", -4, 30)])
def test_template_well_off_the_unit_hits_nothing(throw, face, x, y):
    shot = throw(unit(), 30, face)
    assert close(shot.centre, x, y) and shot.fired and shot.hits == ()


@pytest.mark.parametrize(("d6", "chosen"), [(1, (3, 3)), (3, (3, 3)), (4, (4, 3)), (6, (4, 3))])
def test_scatter_into_a_rear_rank_puts_the_hole_over_it_and_the_rank_in_front(throw, d6, chosen):
    # @0 2: centre (0, 32). Rank 4 runs 31.9685..32.7559, so the hole is over rank 4 file 3; rank
    # 3's back edge (31.9685) is 0.0315" short of the centre, within the hole's 0.1": rank 3 file 3
    # is under the hole too, and a D6 picks (1-3 rank 3, 4-6 rank 4). Files 2 and 4 are 0.3937"
    # across: clear of the hole. Under the template: rank 2's back edge (31.1811) is 0.8189" short,
    # its file 1 hypot(1.1811, 0.8189) = 1.4372 (hit); ranks 3-4 file 1 are 1.1815 and 1.1811
    # (hit); rank 1's back edge (30.3937) is 1.6063" short: clear.
    shot = throw(unit(), 30, f"@0 2 {d6}")
    assert close(shot.centre, 0, 32)
    assert gap((0, 32), base(4, 3)) == 0
    assert gap((0, 32), base(3, 3)) == pytest.approx(32 - (30 + 2.5 * W)) == pytest.approx(0.0315, abs=1e-4)
    assert gap((0, 32), base(3, 3)) <= HOLE < gap((0, 32), base(4, 4)) == pytest.approx(W / 2)
    assert gap((0, 32), base(3, 4)) == pytest.approx(0.3950, abs=1e-4)
    assert gap((0, 32), base(1, 3)) == pytest.approx(32 - (30 + W / 2)) == pytest.approx(1.6063, abs=1e-4)
    assert gap((0, 32), base(2, 1)) == pytest.approx(math.hypot(1.5 * W, 32 - (30 + 1.5 * W)))
    assert gap((0, 32), base(2, 1)) == pytest.approx(1.4372, abs=1e-4)
    assert shot.centre_choice == ((3, 3), (4, 3))  # nearest rank first
    assert [d.purpose for d in shot.dice] == ["scatter", "scatter distance", PICK] and shot.dice[2].value == d6
    assert shot.hits[0].kind is CENTRE and placed(shot)[0] == chosen
    assert kinds(shot) == [CENTRE] + [TEMPLATE] * 14
    everyone = [(r, f) for r in (2, 3, 4) for f in range(1, 6)]
    assert placed(shot)[1:] == [k for k in everyone if k != chosen]


def test_a_single_monster_is_hit_once_by_the_payload(throw):
    shot = throw(unit("monster", ranks=1, files=1, width=50, depth=50), 30, "@90 2")
    # Its base is 50 mm (1.9685") across: the centre (2, 30) is 1.0157" right of its right edge,
    # so it is only under the template.
    assert placed(shot) == [(1, 1)] and kinds(shot) == [TEMPLATE]
    direct = throw(unit("monster", ranks=1, files=1, width=50, depth=50), 30, "H 6")
    assert placed(direct) == [(1, 1)] and kinds(direct) == [CENTRE]


def test_no_model_is_hit_twice_and_the_centre_model_is_not_also_a_template_hit(throw):
    shot = throw(unit(ranks=8, files=8), 30, "@45 2")
    assert len(set(placed(shot))) == len(shot.hits)
    assert kinds(shot).count(CENTRE) == 1 and shot.hits[0].kind is CENTRE


# --- The centre hole over two or more bases: one of them at random -----------------------------------------
#
# The hole is 0.2" across, so it lies over two bases whenever the centre comes within 0.1" of the
# line between them, and over all four round a corner within 0.1" of it. First the hole's width on
# the usual 20 mm unit; then centres exactly on a line: bases 127 mm (exactly 5") deep, and an
# indirect hit scattering 8 - 3 = 5" on a bearing whose sine or cosine is 1/2, which moves the
# template exactly half a base.


@pytest.mark.parametrize(("d6", "chosen"), [(1, (3, 4)), (3, (3, 4)), (4, (3, 5)), (6, (3, 5))])
def test_centre_0_05_from_the_line_between_two_files_picks_one_at_random(throw, d6, chosen):
    # @38 2: the centre moves 2 sin 38 = 1.2313 right and 2 cos 38 = 1.5760 on, to (1.2313,
    # 31.5760): in rank 3 (31.1811..31.9685, 0.3925" from its nearest edge) and file 5
    # (1.1811..1.9685), 0.0502" right of the line between files 4 and 5 (1.5W = 1.1811). The
    # hole's 0.1" reaches over that line, so rank 3 files 4 and 5 are both under it: a D6, 1-3
    # file 4, 4-6 file 5. Ranks 2 and 4 are 0.3949" and 0.3925" along: clear of the hole.
    # Under the template: files 3-5 of every rank (file 3 of rank 1 by its corner, hypot(1.2313 -
    # 0.3937, 31.5760 - 30.3937) = 1.4490); file 2 is 1.2313 + 0.3937 = 1.6250" across: clear.
    x, y = 2 * math.sin(math.radians(38)), 30 + 2 * math.cos(math.radians(38))
    shot = throw(unit(), 30, f"@38 2 {d6}")
    assert close(shot.centre, x, y)
    assert gap((x, y), base(3, 5)) == 0
    assert gap((x, y), base(3, 4)) == pytest.approx(x - 1.5 * W) == pytest.approx(0.0502, abs=1e-4)
    assert gap((x, y), base(3, 4)) <= HOLE
    assert HOLE < gap((x, y), base(4, 5)) == pytest.approx(0.3925, abs=1e-4)
    assert HOLE < gap((x, y), base(2, 5)) == pytest.approx(0.3949, abs=1e-4)
    assert R > gap((x, y), base(1, 3)) == pytest.approx(1.4490, abs=1e-4)
    assert R < gap((x, y), base(3, 2)) == pytest.approx(1.6250, abs=1e-4)
    assert shot.centre_choice == ((3, 4), (3, 5))  # left to right
    assert [d.purpose for d in shot.dice] == ["scatter", "scatter distance", PICK] and shot.dice[2].value == d6
    assert shot.hits[0].kind is CENTRE and placed(shot)[0] == chosen
    assert kinds(shot) == [CENTRE] + [TEMPLATE] * 11
    assert placed(shot)[1:] == [(r, f) for r in range(1, 5) for f in (3, 4, 5) if (r, f) != chosen]


def test_centre_0_15_from_the_line_between_two_files_hits_only_the_model_it_is_over(throw):
    # @31 2: the centre moves 2 sin 31 = 1.0301 right and 2 cos 31 = 1.7143 on, to (1.0301,
    # 31.7143): rank 3 (0.2542" from its back edge, 0.5332" from its front), file 4 (0.3937..1.1811),
    # 1.1811 - 1.0301 = 0.1510" short of the line with file 5: beyond the hole's 0.1", so rank 3
    # file 4 alone is under the hole; no pick. Under the template: files 3-5 of every rank and
    # file 2 of ranks 3-4 (1.0301 + 0.3937 = 1.4238" across; rank 4's by its corner, 1.4463);
    # rank 2 file 2 is 1.5204 away, rank 1 file 2 1.9420: clear.
    x, y = 2 * math.sin(math.radians(31)), 30 + 2 * math.cos(math.radians(31))
    shot = throw(unit(), 30, "@31 2")
    assert close(shot.centre, x, y)
    assert gap((x, y), base(3, 4)) == 0
    assert gap((x, y), base(3, 5)) == pytest.approx(1.5 * W - x) == pytest.approx(0.1510, abs=1e-4)
    assert gap((x, y), base(3, 5)) > HOLE
    assert HOLE < gap((x, y), base(4, 4)) == pytest.approx(0.2542, abs=1e-4)
    assert R > gap((x, y), base(3, 2)) == pytest.approx(1.4238, abs=1e-4)
    assert R > gap((x, y), base(4, 2)) == pytest.approx(1.4463, abs=1e-4)
    assert R < gap((x, y), base(2, 2)) == pytest.approx(1.5204, abs=1e-4)
    assert shot.centre_choice == () and [d.purpose for d in shot.dice] == ["scatter", "scatter distance"]
    assert placed(shot) == [
        (3, 4),
        (1, 3), (1, 4), (1, 5),
        (2, 3), (2, 4), (2, 5),
        (3, 2), (3, 3), (3, 5),
        (4, 2), (4, 3), (4, 4), (4, 5),
    ]
    assert kinds(shot) == [CENTRE] + [TEMPLATE] * 13

CHARIOTS_127 = dict(troop="chariot", ranks=2, files=5, width=50, depth=127)


@pytest.mark.parametrize(("d6", "chosen"), [(1, (1, 5)), (2, (1, 5)), (3, (1, 5)), (4, (2, 5)), (5, (2, 5)), (6, (2, 5))])
def test_centre_on_the_line_between_two_ranks_picks_one_with_a_d6_1_3_or_4_6(throw, d6, chosen):
    # Chariots 50 x 127 mm, 2 ranks of 5, template over rank 1 file 3 at 30". H@60, 8 - BS 3 = 5":
    # the centre moves 5 sin 60 = 4.3301 right and 5 cos 60 = 2.5 on, to y = 32.5: the line
    # between rank 1 (27.5..32.5) and rank 2 (32.5..37.5). Across, file 5 runs 2.9528..4.9213.
    shot = throw(unit(**CHARIOTS_127), 30, f"H@60 8 {d6}", indirect=True, ballistic_skill=3)
    assert close(shot.centre, 5 * math.sin(math.radians(60)), 32.5)
    assert shot.centre_choice == ((1, 5), (2, 5))
    assert [d.purpose for d in shot.dice] == ["scatter", "scatter distance", PICK]
    assert shot.dice[2].kind is DieKind.D6 and shot.dice[2].value == d6
    assert shot.hits[0].kind is CENTRE and placed(shot)[0] == chosen
    assert shot.hits[0].strength == 10 and shot.hits[0].wounds_die is DieKind.D6
    # The other model under the hole is under the template too: a Strength 4 hit.
    other = ({(1, 5), (2, 5)} - {chosen}).pop()
    rest = {(h.rank, h.file): h for h in shot.hits[1:]}
    assert rest[other].kind is TEMPLATE and rest[other].strength == 4 and rest[other].wounds_die is None
    # File 4 (0.9843..2.9528) is 1.3773" across from the centre: under the template in both ranks.
    assert set(rest) == {other, (1, 4), (2, 4)}
    assert placed(shot)[1:] == sorted(rest)  # nearest rank first, left to right


def test_centre_on_the_line_between_two_ranks_on_the_left(throw):
    shot = throw(unit(**CHARIOTS_127), 30, "H@300 8 2", indirect=True, ballistic_skill=3)
    assert shot.centre_choice == ((1, 1), (2, 1))
    assert placed(shot)[0] == (1, 1) and shot.hits[0].kind is CENTRE


@pytest.mark.parametrize(("d6", "chosen"), [(3, (2, 3)), (4, (3, 3))])
def test_centre_on_the_line_between_two_files_seen_from_the_flank(throw, d6, chosen):
    # The same chariots, 3 ranks of 4, showing a flank: each rank is 127 mm = 5" across the line
    # of fire. Aim at rank 2 file 1 (the default): ranks run x -7.5..-2.5..2.5..7.5. H@30, 5":
    # x = 5 sin 30 = 2.5, the line between rank 2 and rank 3; y = 30 + 4.3301 is in file 3
    # (29.0157 + 2 x 1.9685 = 32.9528 .. 34.9213).
    shot = throw(unit("chariot", ranks=3, files=4, width=50, depth=127, facing=Facing.FLANK), 30,
                 f"H@30 8 {d6}", indirect=True, ballistic_skill=3)
    assert shot.aimed_model == (2, 1)
    assert shot.centre_choice == ((2, 3), (3, 3))
    assert placed(shot)[0] == chosen and shot.hits[0].kind is CENTRE
    assert ({(2, 3), (3, 3)} - {chosen}).pop() in placed(shot)[1:]


def test_the_mirror_image_shot_on_the_other_line_also_picks_at_random():
    # H@330 lands 2e-15" left of the line between ranks 1 and 2 (x = -2.500000000000002): float
    # noise, far inside the hole's 0.1", so both are under the hole as for H@30.
    flank = unit("chariot", ranks=3, files=4, width=50, depth=127, facing=Facing.FLANK)
    shot = throw_with("H@330 8", flank, indirect=True, ballistic_skill=3)
    assert shot.centre_choice == ((1, 3), (2, 3))


@pytest.mark.parametrize("d6", [2, 5])
def test_mirror_image_shots_h30_and_h330_both_pick_and_hit_mirror_images(throw, d6):
    # The flank chariots above: ranks 1, 2, 3 run x -7.5..-2.5..2.5..7.5, files 1-4 run y
    # 29.0157, 30.9843, 32.9528, 34.9213, 36.8898. H@30 and H@330 put the centre at x = +2.5
    # and -2.5, y = 34.3301 (file 3: 0.5912" from file 4, 1.3773" from file 2, both under the
    # template, neither under the hole). Each lies on a line between ranks: both models under the
    # hole, and the same D6 picks the left-hand one (1-3) or the right-hand one (4-6) of each pair.
    flank = unit("chariot", ranks=3, files=4, width=50, depth=127, facing=Facing.FLANK)
    right = throw(flank, 30, f"H@30 8 {d6}", indirect=True, ballistic_skill=3)
    left = throw(flank, 30, f"H@330 8 {d6}", indirect=True, ballistic_skill=3)
    assert close(right.centre, 2.5, 30 + 5 * math.cos(math.radians(30)))
    assert close(left.centre, -2.5, 30 + 5 * math.cos(math.radians(30)))
    assert right.centre_choice == ((2, 3), (3, 3)) and left.centre_choice == ((1, 3), (2, 3))
    for shot in (right, left):
        assert [d.purpose for d in shot.dice] == ["scatter", "scatter distance", PICK]
        assert shot.dice[2].value == d6
        assert kinds(shot) == [CENTRE] + [TEMPLATE] * 5
    index = 0 if d6 <= 3 else 1
    assert placed(right)[0] == right.centre_choice[index] and placed(left)[0] == left.centre_choice[index]
    # Mirrored across the line of fire, rank r is rank 4 - r: the same bases are under the template.
    assert {(4 - r, f) for r, f in placed(right)} == set(placed(left))
    assert placed(right)[1:] == [k for k in [(2, 2), (3, 2), (2, 3), (3, 3), (2, 4), (3, 4)] if k != placed(right)[0]]
    assert placed(left)[1:] == [k for k in [(1, 2), (2, 2), (1, 3), (2, 3), (1, 4), (2, 4)] if k != placed(left)[0]]


def test_the_random_pick_d6_refuses_a_face_it_cannot_show():
    with pytest.raises(DiceError, match=f"'7' \\(die 3\\) does not fit the D6 rolled for {PICK}"):
        throw_with("H@60 8 7", unit(**CHARIOTS_127), indirect=True, ballistic_skill=3)


def test_the_random_pick_is_rolled_before_any_wound_dice(throw):
    # Chariots T4 W3 5+: the pick (4: rank 2), then the centre's to wound (2+), Multiple Wounds
    # D6, then the template hits rank by rank: S4 v T4 wounds on 4+, save 5 + 1 = 6+.
    chariots = unit(**CHARIOTS_127, profile=Profile(toughness=4, wounds=3, save=5))
    shot = throw(chariots, 30, "H@60 8 4 2 2 3 4 6 1", indirect=True, ballistic_skill=3)
    assert [(d.purpose, d.face) for d in shot.dice[2:]] == [
        (PICK, "4"),
        ("to wound rank 2 file 5", "2"), ("Multiple Wounds (D6) rank 2 file 5", "2"),
        ("to wound rank 1 file 4", "3"),
        ("to wound rank 1 file 5", "4"), ("armour save rank 1 file 5", "6"),
        ("to wound rank 2 file 4", "1"),
    ]
    assert [h.wound.wounds for h in shot.hits] == [2, 0, 0, 0]


def test_centre_off_any_line_records_no_choice_and_rolls_no_pick(throw):
    shot = throw(unit(), 30, "H 4")
    assert shot.centre_choice == () and [d.purpose for d in shot.dice] == ["scatter", "scatter distance"]


def grid_lay_out(unit, distance, aim_rank=None, aim_file=None):
    """A stand-in for lay_out: 2" square cells, 4 x 4, x -4..4, y 28..36, so that a HIT at 30"
    puts the centre hole on the corner of four bases, (0, 30)."""
    return Formation(unit, 4, 4, 2.0, 2.0, -4.0, 28.0), (1, 2)


@pytest.mark.parametrize(
    ("faces", "chosen", "picks"),
    [("1", (1, 2), 1), ("2", (1, 3), 1), ("3", (2, 2), 1), ("4", (2, 3), 1),
     ("5 6 5 3", (2, 2), 4), ("6 4", (2, 3), 2)],
)
def test_centre_on_the_corner_of_four_bases_rolls_again_on_5_or_6(monkeypatch, faces, chosen, picks):
    # The procedure is given a grid of 2" cells whose four middle bases meet exactly at the aim:
    # the hole (0.1" round the corner) lies over all four.
    monkeypatch.setattr(stone_thrower_module, "lay_out", grid_lay_out)
    shot = throw_with(f"H 4 {faces}", unit(ranks=4, files=4))
    assert close(shot.centre, 0, 30)
    assert shot.centre_choice == ((1, 2), (1, 3), (2, 2), (2, 3))  # nearest rank first, left to right
    assert [d.purpose for d in shot.dice[2:]] == [PICK] * picks
    assert shot.hits[0].kind is CENTRE and placed(shot)[0] == chosen
    assert kinds(shot).count(CENTRE) == 1
    assert {(h.rank, h.file) for h in shot.hits if h.kind is TEMPLATE} >= {(1, 2), (1, 3), (2, 2), (2, 3)} - {chosen}


def test_pick_at_random_among_four_as_the_procedure_uses_it(no_dice):
    index, dice = pick_at_random(EnteredDice("6 5 6 2", no_dice), 4, PICK)
    assert index == 1 and [d.value for d in dice] == [6, 5, 6, 2]


# --- Facings -----------------------------------------------------------------------------------------------


def test_flank_shot_hits_files_as_ranks_nearest_first(throw):
    # 4 ranks of 5 seen from the flank: 5 rows (files 1..5, file 1 nearest) of 4 (ranks 1..4,
    # rank 1 on the firer's left). Default aim: rank 2 file 1. The same 20 mm grid as the front
    # shot, with the centre one base right of the left edge: rows 1-2 all four, row 3 all but
    # rank 4 (hypot(1.1811, 1.1811) = 1.6703 clear).
    shot = throw(unit(facing=Facing.FLANK), 30, "H 4")
    assert shot.aimed_model == (2, 1)
    assert placed(shot) == [
        (2, 1),
        (1, 1), (3, 1), (4, 1),
        (1, 2), (2, 2), (3, 2), (4, 2),
        (1, 3), (2, 3), (3, 3),
    ]
    assert kinds(shot) == [CENTRE] + [TEMPLATE] * 10


def test_flank_shot_arrow_right_moves_toward_the_rear_ranks(throw):
    # From this flank the front rank is on the firer's left, so the firer's right is toward the
    # rear. Ranks run x -1.1811 (rank 1) .. 1.9685 (rank 4), 0.7874" each; file 1 runs y
    # 29.6063..30.3937. An indirect hit H@90 scattering 4 - 3 = 1" puts the hole at x = 1, over
    # rank 3 (0.3937..1.1811), file 1, 0.1811" from rank 4 and 0.3937" from file 2: no other.
    shot = throw(unit(facing=Facing.FLANK), 30, "H@90 4", indirect=True, ballistic_skill=3)
    assert close(shot.centre, 1, 30)
    assert shot.hits[0].kind is CENTRE and placed(shot)[0] == (3, 1) and shot.centre_choice == ()
    # An arrow @90 2 goes 0.0315" past rank 4's outer edge (1.9685): within the hole's 0.1", so
    # rank 4 file 1 is under it, alone (file 2: hypot(0.0315, 0.3937) = 0.3950). Under the
    # template: rank 3 (0.8189" across) in files 1-3 (file 3 by its corner, hypot(0.8189,
    # 1.1811) = 1.4372), rank 4 in files 1-3 (file 3: 1.1815; file 4: 1.9688, clear); rank 2 is
    # 1.6063" across, clear.
    past = throw(unit(facing=Facing.FLANK), 30, "@90 2")
    assert close(past.centre, 2, 30)
    assert placed(past) == [(4, 1), (3, 1), (3, 2), (4, 2), (3, 3), (4, 3)]
    assert kinds(past) == [CENTRE] + [TEMPLATE] * 5 and past.centre_choice == ()


def test_rear_shot_meets_the_last_rank_first(throw):
    shot = throw(unit(facing=Facing.REAR), 30, "H 4")
    assert shot.aimed_model == (4, 3)
    assert placed(shot) == [
        (4, 3),
        (4, 1), (4, 2), (4, 4), (4, 5),
        (3, 1), (3, 2), (3, 3), (3, 4), (3, 5),
        (2, 2), (2, 3), (2, 4),
    ]


def test_rear_shot_files_count_left_to_right_as_the_firer_sees(throw):
    shot = throw(unit(facing=Facing.REAR), 30, "@90 2")
    assert {f for _, f in placed(shot)} == {4, 5}
    assert {r for r, _ in placed(shot)} == {4, 3, 2}


# --- Wounds with a profile ----------------------------------------------------------------------------------


def test_dice_order_centre_first_then_nearest_rank_left_to_right(throw):
    # Monsters on 60 mm (2.3622") bases, 2 ranks of 3, T5 W4 4+ save, 5+ ward. Centre over rank 1
    # file 2: files 1 and 3 are 1.1811" across (hit), rank 2 is 1.1811" on: file 2 hit, files 1
    # and 3 by hypot(1.1811, 1.1811) = 1.6703, clear.
    # Centre, S10: wounds on 2+, no armour save, ward fails on 3, Multiple Wounds D6 5 -> 4 (all).
    # Rank 1 file 1, S4 v T5: 5+ wounds; save 4 + 1 = 5+ fails on 4; ward saves on 6.
    # Rank 1 file 3: 4 fails to wound. Rank 2 file 2: wounds on 6, armour save made on 5.
    monsters = unit("monster", ranks=2, files=3, width=60, depth=60, profile=Profile(toughness=5, wounds=4, save=4, ward=5))
    shot = throw(monsters, 30, "H 4 2 3 5 5 4 6 4 6 5")
    assert placed(shot) == [(1, 2), (1, 1), (1, 3), (2, 2)]
    assert [(d.purpose, d.face) for d in shot.dice] == [
        ("scatter", "H"), ("scatter distance", "4"),
        ("to wound rank 1 file 2", "2"), ("ward save rank 1 file 2", "3"), ("Multiple Wounds (D6) rank 1 file 2", "5"),
        ("to wound rank 1 file 1", "5"), ("armour save rank 1 file 1", "4"), ("ward save rank 1 file 1", "6"),
        ("to wound rank 1 file 3", "4"),
        ("to wound rank 2 file 2", "6"), ("armour save rank 2 file 2", "5"),
    ]
    centre, left, right, behind = (h.wound for h in shot.hits)
    assert (centre.strength, centre.to_wound_needed, centre.save_needed) == (10, 2, None)
    assert centre.wounds == 4 and centre.slain
    assert (left.strength, left.to_wound_needed, left.save_needed) == (4, 5, 5)
    assert left.saved and left.wounds == 0
    assert not right.wounded and right.wounds == 0
    assert behind.saved and behind.wounds == 0


def test_s4_worsens_armour_saves_by_one_s10_leaves_none(throw):
    # One rank of 3 infantry, T3 4+: the centre wounds on 2+ with no save; the others wound on
    # 3+ and save on 5+ (4 + 1): 5 saves, 4 does not.
    shot = throw(unit(ranks=1, files=3, profile=Profile(toughness=3, save=4)), 30, "H 4 2 3 5 3 4")
    centre, left, right = (h.wound for h in shot.hits)
    assert placed(shot) == [(1, 2), (1, 1), (1, 3)]
    assert centre.save_needed is None and centre.save is None and centre.slain
    assert (left.to_wound_needed, left.save_needed, left.saved) == (3, 5, True)
    assert (right.save_needed, right.saved, right.slain) == (5, False, True)


def test_a_1_plus_save_is_a_2_plus_against_s4_and_gone_against_s10(throw):
    shot = throw(unit(ranks=1, files=3, profile=Profile(toughness=3, save=1)), 30, "H 4 2 3 2 3 1")
    centre, left, right = (h.wound for h in shot.hits)
    assert centre.save_needed is None and centre.slain
    assert left.save_needed == 2 and left.saved
    assert right.save_needed == 2 and not right.saved  # a 1 always fails


def test_multiple_wounds_only_for_the_centre_hit(throw):
    # T3 W3, no save: the centre's D6 (6) is capped at 3 Wounds; each template hit costs one.
    shot = throw(unit(ranks=1, files=3, profile=Profile(toughness=3, wounds=3)), 30, "H 4 2 6 3 3")
    centre, left, right = (h.wound for h in shot.hits)
    assert centre.multiple_wounds.kind is DieKind.D6 and centre.wounds == 3 and centre.slain
    for w in (left, right):
        assert w.multiple_wounds is None and w.wounds == 1 and not w.slain
    assert [d.purpose for d in shot.dice[2:]] == [
        "to wound rank 1 file 2", "Multiple Wounds (D6) rank 1 file 2",
        "to wound rank 1 file 1", "to wound rank 1 file 3",
    ]


def test_s4_cannot_wound_toughness_8_and_rolls_nothing_for_it(throw):
    # S10 v T8 wounds on 2+; S4 v T8 cannot wound at all (4 more Toughness than Strength).
    shot = throw(unit(ranks=1, files=3, profile=Profile(toughness=8)), 30, "H 4 3")
    centre, left, right = (h.wound for h in shot.hits)
    assert centre.to_wound_needed == 2 and centre.slain
    assert left.to_wound_needed is None and left.to_wound is None and not left.wounded
    assert len(shot.dice) == 3


def test_without_a_profile_no_wound_dice_are_rolled(throw):
    shot = throw(unit(), 30, "H 4")
    assert len(shot.dice) == 2 and all(h.wound is None for h in shot.hits)


def test_wound_dice_after_a_hit_that_landed_off_the_unit_are_template_only(throw):
    # The 40 mm monstrous infantry 2" short (above): the front edge is 1.2126" from the centre, far
    # beyond the hole's 0.1", so three template hits and no centre; T3 W2 no save: 3+ to wound,
    # never a Multiple Wounds die.
    target = unit("monstrous-infantry", ranks=2, files=5, width=40, depth=40, profile=Profile(toughness=3, wounds=2))
    shot = throw(target, 30, "@180 2 3 3 3")
    assert placed(shot) == [(1, 2), (1, 3), (1, 4)]
    assert all(h.kind is TEMPLATE and h.wound.wounds == 1 and h.wound.multiple_wounds is None for h in shot.hits)
    assert [d.purpose for d in shot.dice[2:]] == [f"to wound rank 1 file {f}" for f in (2, 3, 4)]
    assert len(shot.dice) == 5


# --- Range, Ballistic Skill, aim ---------------------------------------------------------------------------


@pytest.mark.parametrize("distance", [12, 12.0, 36.5, 60])
def test_range_band_ends_are_in_range(throw, distance):
    assert throw(unit(), distance, "H 4").fired


@pytest.mark.parametrize("distance", [11.99, 0, -30, 60.01, 100, math.nan, math.inf, -math.inf])
def test_template_outside_12_to_60_is_a_rules_error_naming_the_band(distance):
    with pytest.raises(RulesError) as err:
        throw_with("H 4", distance=distance)
    message = str(err.value)
    assert "12-60" in message and "stone thrower" in message and f'{distance:g}"' in message
    assert not isinstance(err.value, DiceError)


@pytest.mark.parametrize(("bs", "quoted"), [(-1, "-1"), (11, "11"), (2.5, "2.5"), ("3", "'3'"), (True, "True"), (3.0, "3.0")])
@pytest.mark.parametrize("indirect", [True, False])
def test_impossible_ballistic_skill_is_a_rules_error_quoting_it(bs, quoted, indirect):
    with pytest.raises(RulesError, match=f"Ballistic Skill {quoted} is not possible: give 0 to 10"):
        throw_with("H@90 4", indirect=indirect, ballistic_skill=bs)


@pytest.mark.parametrize("bs", [0, 1, 10])
def test_ballistic_skill_at_the_ends_is_accepted(throw, bs):
    assert throw(unit(), 30, "H@0 4", indirect=True, ballistic_skill=bs).ballistic_skill == bs


def test_aim_puts_the_template_over_the_chosen_model(throw):
    shot = throw(unit(), 30, "H 4", aim_rank=3, aim_file=5)
    assert shot.aimed_model == (3, 5)
    assert shot.hits[0].kind is CENTRE and placed(shot)[0] == (3, 5)
    # The front shot's pattern turned about: ranks 2-4 (at most W/2 along) in files 3-5 (at most
    # 1.5W across), rank 1 (1.5W along) only in files 4-5; rank 1 file 3 is hypot(1.5W, 1.5W) =
    # 1.6703 away, clear.
    assert placed(shot) == [(3, 5), (1, 4), (1, 5), (2, 3), (2, 4), (2, 5), (3, 3), (3, 4), (4, 3), (4, 4), (4, 5)]


@pytest.mark.parametrize(("aim", "quoted"), [({"aim_rank": 0}, "Aim rank 0"), ({"aim_file": 6}, "Aim file 6")])
def test_aim_outside_the_unit_is_a_rules_error(aim, quoted):
    with pytest.raises(RulesError, match=quoted):
        throw_with("H 4", **aim)


# --- Dice that do not fit the shot --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "options", "match"),
    [
        ("4 4", {}, "'4' \\(die 1\\) does not fit the scatter die rolled for scatter"),
        ("H 3", {}, "'3' \\(die 2\\) does not fit the artillery die rolled for scatter distance"),
        ("H M 7", {}, "'7' \\(die 3\\) does not fit the D6 rolled for Stone Thrower Misfire Chart"),
        ("H 4 2", {}, "1 left over \\(2\\)"),
        ("@90 2 M", {}, "1 left over \\(M\\)"),
        ("H 4", {"indirect": True, "ballistic_skill": 2}, "H@DEG"),
    ],
)
def test_dice_that_do_not_fit_the_shot_are_dice_errors(faces, options, match):
    with pytest.raises(DiceError, match=match):
        throw_with(faces, **options)


def test_dice_not_given_are_rolled_by_the_bot_after_the_players():
    shot = fire_stone_thrower(STONE, CHART, unit(profile=Profile(toughness=3)), 30, EnteredDice("@90", RandomDice(7)))
    assert shot.dice[0].by is Roller.PLAYER and shot.dice[0].face == "@90"
    assert all(d.by is Roller.BOT for d in shot.dice[1:])


# --- The record -----------------------------------------------------------------------------------------------


def test_the_record_carries_its_inputs_and_unit(throw):
    target = unit()
    shot = throw(target, 30, "@90 2", indirect=True, ballistic_skill=4)
    assert shot.weapon is STONE and shot.target is target
    assert shot.unit == "in" and shot.distance == 30.0 and isinstance(shot.distance, float)
    assert shot.aim == Point(0.0, 30.0) and shot.aimed_model == (1, 3)
    assert shot.indirect and shot.ballistic_skill == 4
    assert shot.radius == 1.5 == STONE.template.radius
    assert shot.weapon.template.hole == 2 * HOLE == 0.2
    assert shot.scatter is shot.dice[0] and shot.artillery is shot.dice[1]
    assert isinstance(shot.dice, tuple) and isinstance(shot.hits, tuple) and isinstance(shot.centre_choice, tuple)


def test_the_record_is_frozen(throw):
    shot = throw(unit(), 30, "H 4")
    with pytest.raises(dataclasses.FrozenInstanceError):
        shot.centre = None  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        shot.hits[0].strength = 3  # type: ignore[misc]


def test_a_house_rule_profile_changes_the_strengths_and_template(throw):
    # Profiles are data: a bigger stone thrower with a 5" template and S5 (10) works the same way.
    from engine.fantasy.profiles import Template

    big = dataclasses.replace(STONE, strength=5, template=Template("large-round", "large round template", 5.0, 0.2))
    shot = throw(unit(), 30, "H 4", weapon=big)
    assert shot.radius == 2.5
    assert [h.strength for h in shot.hits[1:]] == [5] * (len(shot.hits) - 1)
    assert len(shot.hits) == 20  # every base is within 2.5" (rank 4 file 1 corner: hypot(1.1811, 1.9685) = 2.2956)
    assert shot.hits[0].kind is CENTRE and placed(shot)[0] == (1, 3) and shot.centre_choice == ()


@pytest.mark.parametrize(("faces", "chosen"), [("1", (1, 2)), ("3", (1, 4)), ("5 6 4", (2, 3))])
def test_a_house_rule_hole_width_changes_who_is_under_it(throw, faces, chosen):
    # The hole is data too: 0.8" across (radius 0.4") on target at (0, 30) reaches files 2 and 4
    # (0.3937" across) and rank 2 (0.3937" on) besides file 3; the corners of rank 2 files 2 and 4
    # are hypot(0.3937, 0.3937) = 0.5568" off: clear. Four candidates: a D6, 5-6 rolled again.
    wide = dataclasses.replace(STONE, template=dataclasses.replace(STONE.template, hole=0.8))
    shot = throw(unit(), 30, f"H 4 {faces}", weapon=wide)
    assert gap((0, 30), base(1, 2)) == pytest.approx(W / 2) and gap((0, 30), base(2, 3)) == pytest.approx(W / 2)
    assert W / 2 < 0.4 < gap((0, 30), base(2, 2)) == pytest.approx(0.5568, abs=1e-4)
    assert shot.centre_choice == ((1, 2), (1, 3), (1, 4), (2, 3))
    assert [d.purpose for d in shot.dice[2:]] == [PICK] * len(faces.split())
    assert shot.hits[0].kind is CENTRE and placed(shot)[0] == chosen
    assert kinds(shot) == [CENTRE] + [TEMPLATE] * 12
    # The template is the same 3": the thirteen bases of the hit on target.
    assert set(placed(shot)) == set(placed(throw(unit(), 30, "H 4")))


def test_the_pick_dice_are_kept_apart_in_the_record(throw):
    # A 4 x 7 unit on 20 mm bases, aimed at R1 F4: @90 2 moves the centre 50.8 mm right, 0.8 mm
    # past the line between F6 and F7, so the 0.2" (5.08 mm) hole lies over both: a D6 picks.
    shot = throw(unit(ranks=4, files=7), 30, "@90 2 5")
    assert shot.centre_choice == ((1, 6), (1, 7))
    assert [d.face for d in shot.centre_pick] == ["5"]  # 4-6: the second
    assert (shot.hits[0].rank, shot.hits[0].file, shot.hits[0].kind) == (1, 7, TemplateHitKind.CENTRE)
    assert shot.centre_pick == tuple(d for d in shot.dice if d.purpose == "which model is under the centre hole")
