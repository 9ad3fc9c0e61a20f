"""Cannon and great cannon (Warhammer Fantasy, War Machines: Cannons), one branch at a time, with
every die entered by the players.

Frame (engine/geometry.py): muzzle at the origin, line of fire along +y, x to the firer's right.
Unless a test says otherwise the target is infantry on 20 mm bases, 4 ranks of 5, showing its
front, with the marker 30" away over the centre model of the front rank (rank 1, file 3): the
unit spans x -1.9685..+1.9685 and y 29.6063..32.7559, each rank 0.7874" deep.
"""

from __future__ import annotations

import math

import pytest

from config.gamedata import fantasy
from engine.dice import DieKind, EnteredDice, RandomDice
from engine.errors import DiceError, RulesError
from engine.fantasy.cannon import HitKind, fire_cannon
from engine.fantasy.formation import BASE_WIDTHS, MAX_FILES, MAX_RANKS, Facing, TargetUnit
from engine.fantasy.profiles import MisfireOutcome
from engine.fantasy.wounding import Profile
from engine.geometry import Point

DATA = fantasy()
CANNON = DATA.cannons["cannon"]
GREAT = DATA.cannons["great-cannon"]
W20 = 20 / 25.4  # a 20 mm base, inches
NEAR = 30 - W20 / 2  # the front rank's front edge at 30"


def unit(troop="infantry", ranks=4, files=5, width=20, depth=20, facing=Facing.FRONT, profile=None):
    return TargetUnit(ranks, files, DATA.troops[troop], width, depth, facing, profile)


def placed(shot):
    """(rank, file) of each model hit, in order."""
    return [(h.rank, h.file) for h in shot.hits]


def close(p: Point, x: float, y: float, eps=1e-9) -> bool:
    return abs(p.x - x) < eps and abs(p.y - y) < eps


# --- Fire! and the misfire chart ---------------------------------------------------------------------

MISFIRES = {1: MisfireOutcome.DESTROYED, 2: MisfireOutcome.DESTROYED, 3: MisfireOutcome.MALFUNCTION,
            4: MisfireOutcome.MALFUNCTION, 5: MisfireOutcome.MAY_NOT_SHOOT, 6: MisfireOutcome.MAY_NOT_SHOOT}


@pytest.mark.parametrize("score", range(1, 7))
@pytest.mark.parametrize("scatter", ["H", "@90"])
def test_misfire_rolls_on_the_black_powder_chart_and_nothing_is_fired(fire, score, scatter):
    shot = fire(CANNON, unit(), 30, f"{scatter} M {score}")
    assert not shot.fired
    assert shot.misfire.chart.key == "black-powder"
    assert shot.misfire.roll.value == score
    assert shot.misfire.row.outcome is MISFIRES[score]
    assert [(d.kind, d.purpose) for d in shot.dice] == [
        (DieKind.SCATTER, "scatter"),
        (DieKind.ARTILLERY, "scatter distance"),
        (DieKind.D6, "Black Powder Misfire Chart"),
    ]
    assert shot.hits == ()
    assert shot.landing is shot.rest is shot.path_end is shot.bounce is None
    assert shot.scatter_distance == 0 and shot.bounce_distance == 0


def test_great_cannon_misfires_on_the_same_chart(fire):
    shot = fire(GREAT, unit(), 50, "H M 3")
    assert shot.misfire.row.outcome is MisfireOutcome.MALFUNCTION
    assert shot.misfire.row.silent_turns == 2


@pytest.mark.parametrize("machine", ["cannon", "stone thrower", "grapeshot"])
def test_players_dice_that_end_at_a_misfire_leave_the_chart_to_them(machine):
    """The players rolled the shot at the table and gave no chart die: the procedure stops at the
    chart (the reply offers Roll the misfire chart) instead of the bot rolling it."""
    from engine.fantasy.grapeshot import fire_grapeshot
    from engine.fantasy.stone_thrower import fire_stone_thrower

    players = EnteredDice("H M" if machine != "grapeshot" else "M", RandomDice(0))
    if machine == "cannon":
        shot = fire_cannon(CANNON, DATA.misfire_charts["black-powder"], unit(), 30, players)
    elif machine == "stone thrower":
        stone = DATA.stone_throwers["stone-thrower"]
        shot = fire_stone_thrower(stone, DATA.misfire_charts[stone.misfire_chart], unit(), 30, players)
    else:
        g = DATA.grapeshot
        shot = fire_grapeshot(g, DATA.misfire_charts[g.misfire_chart], DATA.to_hit_penalties, 8, players, ballistic_skill=3)
    assert not shot.fired and shot.misfire.awaits_roll
    assert shot.misfire.roll is None and shot.misfire.row is None
    assert all(d.purpose != shot.misfire.chart.name for d in shot.dice)


def test_the_bot_rolls_the_chart_when_it_rolls_the_shot():
    shot = fire_cannon(CANNON, DATA.misfire_charts["black-powder"], unit(), 30, ScriptedBot(["H", "M", "4"]))
    assert not shot.misfire.awaits_roll and shot.misfire.roll.value == 4


class ScriptedBot(RandomDice):
    """The bot's dice with chosen faces (entered faces marked as the bot's): a bot never leaves
    a chart to the players."""

    def __init__(self, faces):
        super().__init__(0)
        self._faces = EnteredDice(faces, RandomDice(1))

    def roll(self, kind, purpose, *, small_arrow=False, sides=None):
        return self._faces.roll(kind, purpose, small_arrow=small_arrow)


def test_a_misfire_leaves_no_room_for_more_dice():
    with pytest.raises(DiceError, match="left over"):
        fire_cannon(CANNON, DATA.misfire_charts["black-powder"], unit(), 30, EnteredDice("H M 3 4", RandomDice(0)))


# --- Scatter ---------------------------------------------------------------------------------------


def test_hit_lands_on_the_marker_ignoring_the_artillery_number(fire):
    shot = fire(CANNON, unit(), 30, "H 8 2")
    assert shot.fired and shot.scatter.is_hit and shot.artillery.value == 8
    assert shot.scatter_distance == 0
    assert shot.landing == shot.aim == Point(0.0, 30.0)
    assert [d.purpose for d in shot.dice] == ["scatter", "scatter distance", "bounce"]


@pytest.mark.parametrize(
    ("face", "artillery", "x", "y"),
    [
        ("@0", 10, 0.0, 35.0),  # straight on, away from the firer
        ("@90", 4, 2.0, 30.0),  # to the firer's right, +x
        ("@180", 6, 0.0, 27.0),  # back toward the firer
        ("@270", 8, -4.0, 30.0),  # to the firer's left
        ("@45", 2, math.sqrt(0.5), 30 + math.sqrt(0.5)),
        ("@-30", 4, -1.0, 30 + math.sqrt(3)),
    ],
)
def test_arrow_moves_the_marker_half_the_artillery_number_clockwise_from_the_line_of_fire(fire, face, artillery, x, y):
    shot = fire(CANNON, unit(), 30, f"{face} {artillery} M")
    assert shot.scatter_distance == artillery / 2
    assert close(shot.landing, x, y)


def test_arrow_at_90_lands_on_the_file_to_the_firers_right(fire):
    # 1" right of the aimed model: the next file to the right as the firer sees the unit.
    shot = fire(CANNON, unit(), 30, "@90 2 M")
    assert placed(shot) == [(1, 4)]


def test_arrow_at_270_lands_on_the_file_to_the_firers_left(fire):
    shot = fire(CANNON, unit(), 30, "@270 2 M")
    assert placed(shot) == [(1, 2)]


# --- The bounce and who is hit -----------------------------------------------------------------------


def test_direct_hit_then_the_bounce_hits_one_model_in_each_rank_behind(fire):
    shot = fire(CANNON, unit(), 30, "H 8 2")
    assert placed(shot) == [(1, 3), (2, 3), (3, 3), (4, 3)]
    assert [h.kind for h in shot.hits] == [HitKind.DIRECT] + [HitKind.BOUNCE] * 3
    assert [h.row for h in shot.hits] == [1, 2, 3, 4]
    # rank 4 starts 2.5 bases (1.9685") past the landing point, inside the 2" bounce
    assert [h.travelled for h in shot.hits] == pytest.approx([0, W20 / 2, 1.5 * W20, 2.5 * W20])
    assert shot.bounce_distance == 2
    assert close(shot.path_end, 0, 32) and shot.rest == shot.path_end
    assert shot.stopped_by is None


def test_bounce_stops_short_of_the_next_rank(fire):
    shot = fire(CANNON, unit(ranks=6), 30, "H 8 2")
    assert placed(shot) == [(1, 3), (2, 3), (3, 3), (4, 3)]  # rank 5 starts at 32.756", past 32"


def test_scatter_short_of_the_unit_bounces_into_it(fire):
    # 3" back toward the firer: the ball lands at 27" and bounces 4" to 31".
    shot = fire(CANNON, unit(), 30, "@180 6 4")
    assert close(shot.landing, 0, 27)
    assert placed(shot) == [(1, 3), (2, 3)]
    assert [h.kind for h in shot.hits] == [HitKind.BOUNCE, HitKind.BOUNCE]
    assert [h.travelled for h in shot.hits] == pytest.approx([NEAR - 27, NEAR + W20 - 27])
    assert [h.at.y for h in shot.hits] == pytest.approx([NEAR, NEAR + W20])
    assert close(shot.rest, 0, 31)


def test_scatter_short_that_bounces_too_little_hits_nothing(fire):
    shot = fire(CANNON, unit(), 30, "@180 10 2")  # lands at 25", bounces to 27"
    assert shot.hits == ()
    assert close(shot.rest, 0, 27)


def test_scatter_wide_misses_the_unit(fire):
    # 5" to the right of a 3.94" wide unit, and the line from the muzzle only runs further out.
    shot = fire(CANNON, unit(), 30, "@90 10 10")
    assert close(shot.landing, 5, 30)
    assert shot.hits == ()
    k = 10 / math.hypot(5, 30)
    assert close(shot.path_end, 5 + 5 * k, 30 + 30 * k) and shot.rest == shot.path_end


def test_scatter_long_past_the_unit_hits_nothing(fire):
    shot = fire(CANNON, unit(), 30, "@0 10 6")  # lands at 35", the unit ends at 32.76"
    assert close(shot.landing, 0, 35)
    assert shot.hits == ()
    assert close(shot.rest, 0, 41)


def test_bounce_misfire_hits_only_the_model_under_the_landing_spot(fire):
    shot = fire(CANNON, unit(), 30, "H 4 M")
    assert shot.bounce.is_misfire and shot.bounce_distance == 0
    assert placed(shot) == [(1, 3)] and shot.hits[0].kind is HitKind.DIRECT
    assert shot.rest == shot.path_end == shot.landing


def test_bounce_misfire_off_the_unit_hits_nobody(fire):
    shot = fire(CANNON, unit(), 30, "@180 6 M")
    assert shot.hits == ()
    assert close(shot.rest, 0, 27)


def test_a_ball_landing_in_a_rank_hits_only_the_model_under_it_in_that_rank(fire):
    # Chariots on 50 x 100 mm bases, 2 ranks of 5, marker 24" over rank 1 file 3. Arrow @120,
    # artillery 6: the ball lands 3" away at (2.598, 22.5), on rank 1 (y 22.031..25.969) file 4
    # (x 0.984..2.953). The shot line x = 0.11547 y crosses into file 5 at y 25.57, still in
    # rank 1, so that chariot is spared; rank 2 is met at x 2.999, file 5.
    w, d = 50 / 25.4, 100 / 25.4
    shot = fire(CANNON, unit("chariot", ranks=2, width=50, depth=100), 24, "@120 6 10")
    assert close(shot.landing, 3 * math.sin(math.radians(120)), 22.5)
    slope = shot.landing.x / shot.landing.y
    assert 1.5 * w / slope < 24 + d / 2  # file 5's edge is crossed inside rank 1
    assert [(h.rank, h.file, h.kind) for h in shot.hits] == [(1, 4, HitKind.DIRECT), (2, 5, HitKind.BOUNCE)]


def test_a_diagonal_ball_crossing_two_bases_of_a_rank_hits_only_the_first(fire):
    # 40 mm bases, 3 ranks of 5, marker 24" over rank 1 file 3. Arrow @150, artillery 8: the
    # marker moves 4" to (2, 20.536). The shot line x = 0.09739 y enters rank 1 (y 23.213) at
    # x 2.261 (file 4, 0.787..2.362), crosses into file 5 at y 24.25, still in rank 1 (ends
    # 24.787), then meets rank 2 at x 2.414 and rank 3 at x 2.567 (file 5, 2.362..3.937).
    w = 40 / 25.4
    shot = fire(CANNON, unit(ranks=3, width=40, depth=40), 24, "@150 8 10")
    assert close(shot.landing, 2, 24 - 4 * math.cos(math.radians(30)))
    slope = shot.landing.x / shot.landing.y
    assert (24 - w / 2) * slope < 1.5 * w < (24 + w / 2) * slope  # file 5's edge is crossed inside rank 1
    assert placed(shot) == [(1, 4), (2, 5), (3, 5)]
    entries = [24 - w / 2, 24 + w / 2, 24 + 1.5 * w]  # where the ball meets each rank, y
    assert [h.at.x for h in shot.hits] == pytest.approx([y * slope for y in entries])


# --- Facing: flank and rear -----------------------------------------------------------------------------


def test_flank_shot_files_count_as_ranks_one_model_per_file(fire):
    # 2 ranks of 5 seen from the flank: 5 "ranks" of 2 across the line of fire. The default aim
    # is rank 1 file 1 (the file nearest the firer, front rank on the firer's left).
    shot = fire(CANNON, unit(ranks=2, files=5, facing=Facing.FLANK), 30, "H 10 10")
    assert shot.aimed_model == (1, 1)
    assert placed(shot) == [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5)]
    assert [h.row for h in shot.hits] == [1, 2, 3, 4, 5]


def test_the_same_unit_from_the_front_loses_one_model_per_rank(fire):
    shot = fire(CANNON, unit(ranks=2, files=5), 30, "H 10 10")
    assert placed(shot) == [(1, 3), (2, 3)]


def test_flank_shot_uses_base_depth_across_and_width_along_the_line(fire):
    # Cavalry 25 x 50 mm, 3 ranks of 4, from the flank: each file is 25 mm deep along the line
    # of fire and each rank 50 mm wide across it. A 2" bounce from the centre of file 1 reaches
    # files 2, 3 (starting 0.49" and 1.48" on) but not file 4 (2.46").
    shot = fire(CANNON, unit("cavalry", ranks=3, files=4, width=25, depth=50, facing=Facing.FLANK), 30, "H 8 2",
                aim_rank=2, aim_file=1)
    f = shot.formation
    assert (f.rows, f.cols) == (4, 3)
    assert f.cell_width == pytest.approx(50 / 25.4) and f.cell_depth == pytest.approx(25 / 25.4)
    assert placed(shot) == [(2, 1), (2, 2), (2, 3)]


def test_flank_shot_aimed_deeper_hits_only_the_files_behind(fire):
    shot = fire(CANNON, unit(ranks=2, files=5, facing=Facing.FLANK), 30, "H 10 10", aim_rank=2, aim_file=3)
    assert placed(shot) == [(2, 3), (2, 4), (2, 5)]


def test_rear_shot_meets_the_last_rank_first(fire):
    shot = fire(CANNON, unit(facing=Facing.REAR), 30, "H 10 10")
    assert shot.aimed_model == (4, 3)
    assert placed(shot) == [(4, 3), (3, 3), (2, 3), (1, 3)]
    assert [h.row for h in shot.hits] == [1, 2, 3, 4]


def test_rear_shot_files_still_count_left_to_right_as_the_firer_sees(fire):
    shot = fire(CANNON, unit(facing=Facing.REAR), 30, "@90 2 M")
    assert placed(shot) == [(4, 4)]


# --- Monsters stop the ball --------------------------------------------------------------------------

TROLLS = dict(troop="monstrous-infantry", ranks=3, files=3, width=40, depth=40)
TROLL = Profile(toughness=4, wounds=3, save=5)  # S10 leaves no armour save; 2+ to wound
W40 = 40 / 25.4


def test_monster_hit_directly_and_not_slain_stops_the_ball(fire):
    shot = fire(CANNON, unit(**TROLLS, profile=TROLL), 30, "H 4 10 2 2")  # wound, D6 Multiple Wounds: 2
    assert placed(shot) == [(1, 2)]
    assert shot.hits[0].wound.wounds == 2 and not shot.hits[0].wound.slain
    assert shot.stopped_by == 0
    assert shot.rest == shot.landing and close(shot.path_end, 0, 40)


def test_monster_that_fails_to_be_wounded_stops_the_ball(fire):
    shot = fire(CANNON, unit(**TROLLS, profile=TROLL), 30, "H 4 10 1")
    assert placed(shot) == [(1, 2)] and not shot.hits[0].wound.wounded
    assert shot.stopped_by == 0


def test_slain_monster_lets_the_ball_go_on_to_the_next_which_stops_it(fire):
    shot = fire(CANNON, unit(**TROLLS, profile=TROLL), 30, "H 4 10 2 5 2 1")  # D6 5: slain; D3 1: not
    assert placed(shot) == [(1, 2), (2, 2)]
    assert [h.wound.slain for h in shot.hits] == [True, False]
    assert shot.stopped_by == 1
    assert close(shot.rest, 0, 30 + W40 / 2)  # where the ball meets rank 2's base
    assert shot.rest == shot.hits[1].at


def test_every_monster_slain_the_ball_bounces_its_full_distance(fire):
    shot = fire(CANNON, unit(**TROLLS, profile=TROLL), 30, "H 4 10 2 6 2 3 2 3")
    assert placed(shot) == [(1, 2), (2, 2), (3, 2)]
    assert shot.stopped_by is None and close(shot.rest, 0, 40)


def test_monster_without_a_profile_later_hits_are_conditional(fire):
    shot = fire(CANNON, unit(**TROLLS), 30, "H 4 10")
    assert placed(shot) == [(1, 2), (2, 2), (3, 2)]
    assert [h.conditional for h in shot.hits] == [False, True, True]
    assert all(h.wound is None for h in shot.hits)
    assert shot.stopped_by is None and shot.rest == shot.path_end


@pytest.mark.parametrize("troop", ["monster", "monstrous-cavalry", "monstrous-beast"])
def test_every_monstrous_type_stops_the_ball(fire, troop):
    shot = fire(CANNON, unit(troop, ranks=2, files=1, width=50, depth=50, profile=Profile(toughness=6, wounds=6)),
                30, "H 4 10 2 1")
    assert shot.stopped_by == 0 and len(shot.hits) == 1


def test_non_monstrous_model_not_slain_does_not_stop_the_ball(fire):
    ogre_sized_infantry = Profile(toughness=3, wounds=3)
    shot = fire(CANNON, unit(profile=ogre_sized_infantry), 30, "H 4 2 2 1 2 1 2 1 2 1")
    assert placed(shot) == [(1, 3), (2, 3), (3, 3), (4, 3)]
    assert not any(h.wound.slain for h in shot.hits)
    assert shot.stopped_by is None and all(not h.conditional for h in shot.hits)


def test_non_monstrous_hits_without_a_profile_are_not_conditional(fire):
    shot = fire(CANNON, unit(), 30, "H 4 10")
    assert shot.hits and not any(h.conditional for h in shot.hits)


# --- Damage: cannon against great cannon ----------------------------------------------------------------


def test_cannon_direct_hit_d6_wounds_bounce_d3(fire):
    shot = fire(CANNON, unit(), 30, "H 4 2")
    assert [h.wounds_die for h in shot.hits] == [DieKind.D6, DieKind.D3, DieKind.D3, DieKind.D3]
    assert all(h.strength == 10 for h in shot.hits)


def test_great_cannon_d6_wounds_direct_and_bounce(fire):
    shot = fire(GREAT, unit(), 30, "H 4 2")
    assert [h.wounds_die for h in shot.hits] == [DieKind.D6] * 4


def test_a_bounce_only_shot_never_rolls_d6_wounds_for_a_cannon(fire):
    shot = fire(CANNON, unit(), 30, "@180 6 4")
    assert [h.wounds_die for h in shot.hits] == [DieKind.D3, DieKind.D3]


def test_cannon_rolls_d3_multiple_wounds_on_the_bounce(fire):
    shot = fire(CANNON, unit(ranks=2, profile=Profile(toughness=3, wounds=3)), 30, "H 4 2 2 6 2 3")
    assert [h.wound.multiple_wounds.kind for h in shot.hits] == [DieKind.D6, DieKind.D3]
    assert [h.wound.wounds for h in shot.hits] == [3, 3]  # the D6's 6 capped at 3 Wounds
    assert [d.purpose for d in shot.dice[3:]] == [
        "to wound rank 1 file 3", "Multiple Wounds (D6) rank 1 file 3",
        "to wound rank 2 file 3", "Multiple Wounds (D3) rank 2 file 3",
    ]


def test_cannon_bounce_refuses_a_four_on_its_d3_where_a_great_cannon_takes_it(fire):
    target = unit(ranks=2, profile=Profile(toughness=3, wounds=3))
    with pytest.raises(DiceError, match="'4' .* D3 rolled for Multiple Wounds \\(D3\\) rank 2 file 3"):
        fire(CANNON, target, 30, "H 4 2 2 6 2 4")
    shot = fire(GREAT, target, 30, "H 4 2 2 6 2 4")
    assert [h.wound.wounds for h in shot.hits] == [3, 3]


# --- Damage: the wounding sequence with a profile ----------------------------------------------------------


def test_s10_leaves_a_4_plus_armour_save_nothing_and_the_ward_save_decides(fire):
    spearmen = Profile(toughness=3, save=4, ward=5)
    shot = fire(CANNON, unit(profile=spearmen), 30, "H 4 M 2 4")  # wounds on 2+, no save, ward fails on 4
    wound = shot.hits[0].wound
    assert wound.to_wound_needed == 2 and wound.wounded
    assert wound.save_needed is None and wound.save is None
    assert wound.ward_needed == 5 and wound.ward.value == 4
    assert wound.slain and wound.wounds == 1


def test_ward_save_saves_a_cannon_hit(fire):
    shot = fire(CANNON, unit(profile=Profile(toughness=3, ward=5)), 30, "H 4 M 2 5")
    assert shot.hits[0].wound.saved and not shot.hits[0].wound.slain


def test_even_a_1_plus_armour_save_is_gone_against_s10(fire):
    shot = fire(CANNON, unit(profile=Profile(toughness=3, save=1)), 30, "H 4 M 2")
    assert shot.hits[0].wound.save_needed is None and shot.hits[0].wound.slain


def test_toughness_10_needs_4_to_wound(fire):
    shot = fire(CANNON, unit(profile=Profile(toughness=10)), 30, "H 4 M 3")
    wound = shot.hits[0].wound
    assert wound.to_wound_needed == 4 and not wound.wounded and wound.wounds == 0


def test_toughness_9_needs_3_to_wound(fire):
    shot = fire(CANNON, unit(profile=Profile(toughness=9)), 30, "H 4 M 3")
    assert shot.hits[0].wound.to_wound_needed == 3 and shot.hits[0].wound.slain


def test_profile_dice_follow_the_ball_model_by_model(fire):
    # Each hit rolls to wound then its ward, in the order the ball reaches the models.
    shot = fire(CANNON, unit(ranks=2, profile=Profile(toughness=3, ward=6)), 30, "H 4 2 2 6 3 1")
    assert [(d.purpose, d.face) for d in shot.dice[3:]] == [
        ("to wound rank 1 file 3", "2"), ("ward save rank 1 file 3", "6"),
        ("to wound rank 2 file 3", "3"), ("ward save rank 2 file 3", "1"),
    ]
    assert [h.wound.slain for h in shot.hits] == [False, True]


def test_without_a_profile_no_wound_dice_are_rolled(fire):
    shot = fire(CANNON, unit(), 30, "H 4 10")
    assert len(shot.dice) == 3 and all(h.wound is None for h in shot.hits)


# --- Range ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("weapon", "distance"), [(CANNON, 12), (CANNON, 48), (GREAT, 12), (GREAT, 49), (GREAT, 60)])
def test_range_band_ends_are_in_range(fire, weapon, distance):
    assert fire(weapon, unit(), distance, "H 4 M").fired


@pytest.mark.parametrize(
    ("weapon", "distance", "band"),
    [(CANNON, 11.9, "12-48"), (CANNON, 48.1, "12-48"), (CANNON, 0, "12-48"), (CANNON, -30, "12-48"),
     (CANNON, 60, "12-48"), (GREAT, 11.99, "12-60"), (GREAT, 60.01, "12-60"), (GREAT, 100, "12-60"),
     (CANNON, math.nan, "12-48"), (GREAT, math.inf, "12-60")],
)
def test_marker_outside_the_range_band_is_a_rules_error_naming_the_band(weapon, distance, band):
    with pytest.raises(RulesError) as err:
        fire_cannon(weapon, DATA.misfire_charts["black-powder"], unit(), distance, EnteredDice("H 4 M", RandomDice(0)))
    assert band in str(err.value) and weapon.name.lower() in str(err.value)
    assert f'{distance:g}"' in str(err.value)


# --- Aim -------------------------------------------------------------------------------------------------


def test_aim_puts_the_marker_over_the_chosen_model(fire):
    shot = fire(CANNON, unit(), 30, "H 4 M", aim_rank=2, aim_file=4)
    assert shot.aimed_model == (2, 4)
    f = shot.formation
    centre = f.centre(*f.cell_of(2, 4))
    assert close(centre, 0, 30)
    assert placed(shot) == [(2, 4)]


def test_aim_at_a_rear_rank_lets_the_bounce_hit_only_the_ranks_behind(fire):
    shot = fire(CANNON, unit(), 30, "H 4 10", aim_rank=3, aim_file=1)
    assert placed(shot) == [(3, 1), (4, 1)]


def test_default_aim_is_the_centre_model_or_left_of_centre_of_the_facing_rank(fire):
    assert fire(CANNON, unit(files=5), 30, "H 4 M").aimed_model == (1, 3)
    assert fire(CANNON, unit(files=4), 30, "H 4 M").aimed_model == (1, 2)
    assert fire(CANNON, unit(files=1), 30, "H 4 M").aimed_model == (1, 1)
    assert fire(CANNON, unit(ranks=3, facing=Facing.FLANK), 30, "H 4 M").aimed_model == (2, 1)


def test_aim_rank_alone_keeps_the_default_file(fire):
    shot = fire(CANNON, unit(), 30, "H 4 M", aim_rank=3)
    assert shot.aimed_model == (3, 3) and placed(shot) == [(3, 3)]


def test_aim_file_alone_keeps_the_default_rank(fire):
    shot = fire(CANNON, unit(), 30, "H 4 M", aim_file=5)
    assert shot.aimed_model == (1, 5) and placed(shot) == [(1, 5)]


def test_aim_file_alone_from_the_rear_keeps_the_rank_facing_the_cannon(fire):
    shot = fire(CANNON, unit(facing=Facing.REAR), 30, "H 4 M", aim_file=1)
    assert shot.aimed_model == (4, 1)


@pytest.mark.parametrize(
    ("aim", "quoted"),
    [({"aim_rank": 0}, "Aim rank 0"), ({"aim_rank": 5}, "Aim rank 5"), ({"aim_file": 0}, "Aim file 0"),
     ({"aim_file": 6}, "Aim file 6"), ({"aim_rank": -1, "aim_file": 3}, "Aim rank -1")],
)
def test_aim_outside_the_unit_is_a_rules_error(aim, quoted):
    with pytest.raises(RulesError, match=quoted):
        fire_cannon(CANNON, DATA.misfire_charts["black-powder"], unit(), 30, EnteredDice("", RandomDice(0)), **aim)


# --- Formation caps --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "quoted", "cap"),
    [
        ({"ranks": 0}, "Ranks 0", f"1 to {MAX_RANKS}"),
        ({"ranks": MAX_RANKS + 1}, f"Ranks {MAX_RANKS + 1}", f"1 to {MAX_RANKS}"),
        ({"files": 0}, "Files 0", f"1 to {MAX_FILES}"),
        ({"files": MAX_FILES + 1}, f"Files {MAX_FILES + 1}", f"1 to {MAX_FILES}"),
        ({"width": 30}, "Base width 30 mm", "20, 25, 40, 50, 60 mm"),
        ({"width": 0}, "Base width 0 mm", "20, 25, 40, 50, 60 mm"),
        ({"depth": 19}, "Base depth 19 mm", "20 to 150 mm"),
        ({"depth": 151}, "Base depth 151 mm", "20 to 150 mm"),
    ],
)
def test_formation_outside_the_caps_is_a_rules_error_with_the_cap(kwargs, quoted, cap):
    with pytest.raises(RulesError) as err:
        unit(**kwargs)
    assert quoted in str(err.value) and cap in str(err.value)


def test_formation_at_the_caps_is_accepted(fire):
    big = unit(ranks=MAX_RANKS, files=MAX_FILES, width=max(BASE_WIDTHS), depth=150)
    shot = fire(GREAT, big, 60, "H 4 10")
    assert len(shot.hits) == 3  # 150 mm ranks: a 10" bounce from mid-rank 1 reaches ranks 2 and 3


# --- Dice that do not fit the shot ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "match"),
    [
        ("4 4 2", "'4' \\(die 1\\) does not fit the scatter die rolled for scatter"),
        ("H 3 2", "'3' \\(die 2\\) does not fit the artillery die rolled for scatter distance"),
        ("H 4 7", "'7' \\(die 3\\) does not fit the artillery die rolled for bounce"),
        ("H M 7", "'7' \\(die 3\\) does not fit the D6 rolled for Black Powder Misfire Chart"),
        ("H 4 M 6", "1 left over \\(6\\)"),
        ("H 4 10 2 2", "2 left over \\(2 2\\)"),
        ("H Q", "'Q' \\(die 2\\) is not a die face"),
    ],
)
def test_dice_that_do_not_fit_the_shot_are_dice_errors(faces, match):
    with pytest.raises(DiceError, match=match):
        fire_cannon(CANNON, DATA.misfire_charts["black-powder"], unit(), 30, EnteredDice(faces, RandomDice(0)))


def test_dice_not_given_are_rolled_by_the_bot_after_the_players(fire):
    from engine.dice import Roller

    shot = fire_cannon(CANNON, DATA.misfire_charts["black-powder"], unit(), 30, EnteredDice("@90", RandomDice(7)))
    assert shot.dice[0].by is Roller.PLAYER and shot.dice[0].face == "@90"
    assert all(d.by is Roller.BOT for d in shot.dice[1:])


# --- The record ------------------------------------------------------------------------------------------


def test_the_record_carries_its_inputs_and_unit(fire):
    target = unit()
    shot = fire(CANNON, target, 30, "H 4 10")
    assert shot.weapon is CANNON and shot.target is target
    assert shot.unit == "in" and shot.distance == 30.0 and isinstance(shot.distance, float)
    assert shot.aim == Point(0.0, 30.0)
    assert isinstance(shot.dice, tuple) and isinstance(shot.hits, tuple)


def test_the_record_is_frozen(fire):
    import dataclasses

    shot = fire(CANNON, unit(), 30, "H 4 10")
    with pytest.raises(dataclasses.FrozenInstanceError):
        shot.rest = None  # type: ignore[misc]


# --- Whole numbers only: DESIGN.md's "bad input raises RulesError, quoting the bad value" -----------


@pytest.mark.parametrize("field", [{"ranks": 2.5}, {"files": 3.5}], ids=["ranks", "files"])
def test_a_fractional_number_of_ranks_or_files_is_a_rules_error(field):
    with pytest.raises(RulesError, match=r"\d\.5 is not a whole number"):
        unit(**field)


def test_a_fractional_aim_is_a_rules_error():
    with pytest.raises(RulesError, match="Aim rank 1.5 is not a whole number"):
        fire_cannon(CANNON, DATA.misfire_charts["black-powder"], unit(), 30, EnteredDice("H 4 M", RandomDice(0)),
                    aim_rank=1.5)
