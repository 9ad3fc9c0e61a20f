"""Bolt thrower (Warhammer Fantasy, War Machines: Bolt Throwers), one branch at a time, with every
die entered by the players.

The book: range 48" (no minimum), Strength 6, Multiple Wounds (D3), Armour Piercing (1). Roll to
hit with the crew's Ballistic Skill and the normal shooting modifiers (long range beyond 24" -1,
soft cover -1, hard cover -2, any other the players name; +1 helps). A miss lands harmlessly. A
hit on a unit of five or more ranked-up models strikes a trooper in the rank facing the machine
(the first rank from the front, the last from the rear, the files counting as ranks from a flank)
at Strength 6; each model slain lets the bolt go on into the rank behind at one less Strength,
until the unit runs out of ranks or the bolt fails to slay. Against fewer than five models the
model in the rank is chosen at random (a D6, rerolled when it does not split evenly).

The engine strikes the centre model of the facing rank (left of centre when the count is even).
Dice in order: to hit, [a second to-hit die after a 6 when 7+ is needed], [the random pick],
then for each model struck, front to back: to wound, armour save, ward save, Multiple Wounds.

Unless a test says otherwise the target is infantry on 20 mm bases, 4 ranks of 5, showing its
front, 20" away, and the crew have BS 3 (4+ to hit).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from config.gamedata import fantasy
from engine.dice import Dice, DieKind, EnteredDice, RandomDice, Roller
from engine.errors import DiceError, RulesError
from engine.fantasy.bolt_thrower import BoltShot, fire_bolt_thrower
from engine.fantasy.formation import Facing, TargetUnit
from engine.fantasy.shooting import Cover, ToHit
from engine.fantasy.wounding import Profile

DATA = fantasy()
BOLT = DATA.bolt_throwers["bolt-thrower"]
PENALTIES = DATA.to_hit_penalties


def unit(ranks=4, files=5, facing=Facing.FRONT, profile=None, troop="infantry", width=20, depth=20) -> TargetUnit:
    return TargetUnit(ranks, files, DATA.troops[troop], width, depth, facing, profile)


def placed(shot: BoltShot) -> list[tuple[int, int]]:
    """(rank, file) of each model struck, front to back."""
    return [(h.rank, h.file) for h in shot.hits]


def purposes(shot: BoltShot) -> list[str]:
    return [d.purpose for d in shot.dice]


@pytest.fixture
def bolt(no_dice: Dice) -> Callable[..., BoltShot]:
    """``bolt(target, distance, "4 2 3", ballistic_skill=3, cover=..., modifier=...)``: a bolt
    thrower shot with every die entered. The fallback fails the test if asked for a die; every
    die in the record must be the players' and the record must hold exactly the dice given."""

    def _bolt(target: TargetUnit, distance: float, faces: str, *, ballistic_skill: int = 3, **options) -> BoltShot:
        entered = EnteredDice(faces, no_dice)
        shot = fire_bolt_thrower(BOLT, PENALTIES, target, distance, entered, ballistic_skill=ballistic_skill, **options)
        assert [d.by for d in shot.dice] == [Roller.PLAYER] * len(shot.dice)
        assert len(shot.dice) == entered.given
        return shot

    return _bolt


# --- To hit: the Ballistic Skill chart and the shooting modifiers ----------------------------------------


@pytest.mark.parametrize(("bs", "needed"), [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (6, 2), (10, 2)])
def test_the_ballistic_skill_chart_is_seven_minus_bs_never_better_than_two(bolt, bs, needed):
    shot = bolt(unit(), 20, str(needed), ballistic_skill=bs)
    assert shot.to_hit == ToHit(needed) and shot.hit
    assert shot.to_hit_dice == shot.dice[:1] and shot.dice[0].purpose == "to hit the bolt"
    # One pip short misses (for 2+ that is the 1, which always misses).
    miss = bolt(unit(), 20, str(needed - 1), ballistic_skill=bs)
    assert not miss.hit and miss.hits == ()


@pytest.mark.parametrize(("distance", "long_range"), [
    (0.01, False), (12, False), (24, False),  # exactly half the range: not long range
    (24.01, True), (36, True), (48, True),  # the full range is allowed
])
def test_long_range_is_beyond_24_inches_and_costs_one(bolt, distance, long_range):
    shot = bolt(unit(), distance, "4")
    assert shot.long_range is long_range
    assert shot.to_hit.needed == (5 if long_range else 4)
    assert shot.hit is (not long_range)
    assert shot.distance == float(distance) and shot.unit == "in"


@pytest.mark.parametrize(("cover", "needed"), [(Cover.NONE, 4), (Cover.SOFT, 5), (Cover.HARD, 6)])
def test_soft_cover_costs_one_and_hard_cover_two(bolt, cover, needed):
    assert bolt(unit(), 20, str(needed), cover=cover).hit
    shot = bolt(unit(), 20, str(needed - 1), cover=cover)
    assert not shot.hit and shot.cover is cover and shot.to_hit.needed == needed


@pytest.mark.parametrize(("modifier", "needed"), [(-3, 7), (-2, 6), (-1, 5), (0, 4), (1, 3), (2, 2), (3, 2)])
def test_other_modifiers_plus_one_helps(bolt, modifier, needed):
    faces = "6 4" if needed == 7 else str(needed)
    shot = bolt(unit(), 20, faces, modifier=modifier)
    assert shot.modifier == modifier and shot.to_hit.needed == needed and shot.hit


def test_long_range_and_hard_cover_make_a_seven_a_six_then_a_four(bolt):
    # BS 3 at 30" behind a wall: 4+ worsened by 1 + 2 = 7+.
    shot = bolt(unit(), 30, "6 4", cover=Cover.HARD)
    assert (shot.long_range, shot.to_hit.needed, shot.to_hit.then) == (True, 7, 4)
    assert shot.hit and [d.face for d in shot.to_hit_dice] == ["6", "4"]
    assert purposes(shot) == ["to hit the bolt", "to hit the bolt, after the 6"]
    assert not bolt(unit(), 30, "6 3", cover=Cover.HARD).hit


@pytest.mark.parametrize(("bs", "needed", "then"), [(3, 7, 4), (2, 8, 5), (1, 9, 6)])
@pytest.mark.parametrize("second", range(1, 7))
def test_above_six_a_six_then_a_second_die(bolt, bs, needed, then, second):
    shot = bolt(unit(), 30, f"6 {second}", ballistic_skill=bs, cover=Cover.HARD)
    assert shot.to_hit.needed == needed
    assert shot.hit is (second >= then)
    assert len(shot.to_hit_dice) == 2
    assert len(shot.hits) == (4 if shot.hit else 0)


@pytest.mark.parametrize("face", range(1, 6))
def test_above_six_anything_but_a_six_misses_with_no_second_die(bolt, face):
    shot = bolt(unit(), 30, str(face), cover=Cover.HARD)
    assert shot.to_hit.needed == 7 and not shot.hit
    assert [d.face for d in shot.to_hit_dice] == [str(face)] and shot.hits == ()


def test_ten_or_more_cannot_hit_and_rolls_no_dice(bolt):
    # BS 1 at long range in hard cover, and -1 more: 6 + 1 + 2 + 1 = 10+.
    shot = bolt(unit(profile=Profile(toughness=1)), 30, "", ballistic_skill=1, cover=Cover.HARD, modifier=-1)
    assert shot.to_hit.needed == 10 and not shot.to_hit.possible
    assert not shot.hit and shot.dice == () and shot.to_hit_dice == () and shot.hits == ()


@pytest.mark.parametrize("bs", [5, 10])
def test_a_one_always_misses(bolt, bs):
    # Even with +3 for other modifiers the best is 2+.
    shot = bolt(unit(), 10, "1", ballistic_skill=bs, modifier=3)
    assert shot.to_hit.needed == 2 and not shot.hit and shot.hits == ()
    assert bolt(unit(), 10, "2", ballistic_skill=bs, modifier=3).hit


@pytest.mark.parametrize("target", [
    unit(profile=Profile(toughness=3, wounds=2, save=4, ward=5)),
    unit(ranks=1, files=3, profile=Profile(toughness=3)),  # too few: a hit would pick a model
])
@pytest.mark.parametrize("faces", ["3", "1", "6 3"])
def test_a_miss_strikes_nobody_and_rolls_no_more_dice(bolt, target, faces):
    shot = bolt(target, 30 if " " in faces else 20, faces, cover=Cover.HARD if " " in faces else Cover.NONE)
    assert not shot.hit
    assert shot.hits == () and shot.pick == ()
    assert shot.dice == shot.to_hit_dice and len(shot.dice) == len(faces.split())


def test_dice_after_a_miss_are_left_over(no_dice):
    with pytest.raises(DiceError, match=r"1 left over \(4\); only 1 of the 2 given were needed"):
        fire_bolt_thrower(BOLT, PENALTIES, unit(profile=Profile(toughness=3)), 20, EnteredDice("3 4", no_dice),
                          ballistic_skill=3)


# --- Where the bolt strikes a ranked unit, and on through the ranks -------------------------------------


@pytest.mark.parametrize(("ranks", "files", "first"), [
    (4, 5, (1, 3)), (4, 6, (1, 3)),  # six files: left of centre as the machine sees them
    (3, 7, (1, 4)), (5, 1, (1, 1)), (1, 5, (1, 3)), (2, 10, (1, 5)),
])
def test_from_the_front_the_bolt_strikes_the_centre_of_the_first_rank(bolt, ranks, files, first):
    shot = bolt(unit(ranks, files), 20, "4")
    assert shot.ranked and shot.pick == ()
    assert shot.aimed_model == first and placed(shot)[0] == first
    assert placed(shot) == [(r, first[1]) for r in range(1, min(ranks, 6) + 1)]


def test_from_the_rear_the_bolt_strikes_the_last_rank_first(bolt):
    shot = bolt(unit(facing=Facing.REAR), 20, "4")
    assert placed(shot) == [(4, 3), (3, 3), (2, 3), (1, 3)]
    assert [h.row for h in shot.hits] == [1, 2, 3, 4]
    assert [h.strength for h in shot.hits] == [6, 5, 4, 3]
    assert shot.aimed_model == (4, 3)


def test_from_the_flank_the_files_count_as_ranks_file_one_nearest(bolt):
    # 4 ranks of 5 side on: five "ranks" (the files) of four; the centre of file 1 is rank 2
    # (left of centre: the unit's front is on the machine's left).
    shot = bolt(unit(facing=Facing.FLANK), 20, "4")
    assert shot.formation.rows == 5 and shot.formation.cols == 4
    assert shot.aimed_model == (2, 1)
    assert placed(shot) == [(2, 1), (2, 2), (2, 3), (2, 4), (2, 5)]
    assert [h.row for h in shot.hits] == [1, 2, 3, 4, 5]
    assert [h.strength for h in shot.hits] == [6, 5, 4, 3, 2]


def test_from_the_flank_of_a_three_deep_unit_the_middle_rank_is_struck(bolt):
    shot = bolt(unit(ranks=3, files=6, facing=Facing.FLANK), 20, "4")
    assert placed(shot) == [(2, f) for f in range(1, 7)]
    assert [h.strength for h in shot.hits] == [6, 5, 4, 3, 2, 1]


def test_without_a_profile_the_models_behind_the_first_are_conditional(bolt):
    shot = bolt(unit(), 20, "4")
    assert [h.conditional for h in shot.hits] == [False, True, True, True]
    assert all(h.wound is None for h in shot.hits)
    assert shot.dice == shot.to_hit_dice  # the players roll the wounds themselves


@pytest.mark.parametrize("ranks", [6, 7, 10, 20])
def test_a_strength_that_would_fall_below_one_stops_the_bolt(bolt, ranks):
    shot = bolt(unit(ranks=ranks), 20, "4")
    assert [h.strength for h in shot.hits] == [6, 5, 4, 3, 2, 1]
    assert placed(shot) == [(r, 3) for r in range(1, 7)]


def test_the_bolt_runs_out_of_ranks(bolt):
    assert placed(bolt(unit(ranks=2), 20, "4")) == [(1, 3), (2, 3)]
    assert placed(bolt(unit(ranks=1), 20, "4")) == [(1, 3)]


# --- Damage: Strength 6 and one less per model slain, Multiple Wounds (D3), Armour Piercing (1) --------


def test_each_model_slain_lets_the_bolt_into_the_next_rank_until_the_ranks_run_out(bolt):
    # T3 W1, no armour: S6 and S5 wound on 2+, S4 on 3+, S3 on 4+.
    shot = bolt(unit(profile=Profile(toughness=3)), 20, "4 2 2 3 4")
    assert placed(shot) == [(1, 3), (2, 3), (3, 3), (4, 3)]
    assert [h.strength for h in shot.hits] == [6, 5, 4, 3]
    assert [h.wound.to_wound_needed for h in shot.hits] == [2, 2, 3, 4]
    assert [h.wound.strength for h in shot.hits] == [6, 5, 4, 3]
    assert all(h.wound.slain and not h.conditional for h in shot.hits)
    assert purposes(shot) == ["to hit the bolt"] + [f"to wound rank {r} file 3" for r in range(1, 5)]


def test_a_model_not_wounded_stops_the_bolt(bolt):
    shot = bolt(unit(profile=Profile(toughness=3)), 20, "4 2 1")
    assert placed(shot) == [(1, 3), (2, 3)]
    first, second = shot.hits
    assert first.wound.slain
    assert (second.wound.wounded, second.wound.slain, second.wound.wounds) == (False, False, 0)


def test_a_strength_too_low_to_wound_stops_the_bolt_with_no_die(bolt):
    # T8: S6 and S5 wound on 6+, S4 cannot wound T8 at all.
    shot = bolt(unit(profile=Profile(toughness=8)), 20, "4 6 6")
    assert placed(shot) == [(1, 3), (2, 3), (3, 3)]
    assert [h.wound.to_wound_needed for h in shot.hits] == [6, 6, None]
    third = shot.hits[2].wound
    assert third.to_wound is None and not third.wounded and not third.slain


@pytest.mark.parametrize(("toughness", "needed"), [
    (1, 2), (2, 2), (3, 2), (4, 2), (5, 3), (6, 4), (7, 5), (8, 6), (9, 6), (10, None),
])
def test_strength_6_against_each_toughness(bolt, toughness, needed):
    # One rank of five: the first model only.
    faces = "4" + (f" {needed}" if needed else "")
    shot = bolt(unit(ranks=1, profile=Profile(toughness=toughness)), 20, faces)
    (hit,) = shot.hits
    assert hit.wound.to_wound_needed == needed
    assert hit.wound.slain is (needed is not None)
    if needed and needed > 2:
        assert not bolt(unit(ranks=1, profile=Profile(toughness=toughness)), 20, f"4 {needed - 1}").hits[0].wound.wounded


@pytest.mark.parametrize(("save", "needed"), [(1, 5), (2, 6), (3, None), (4, None), (5, None), (6, None)])
def test_strength_6_and_armour_piercing_make_the_save_four_worse(bolt, save, needed):
    # S6: -3; Armour Piercing (1): -1 more.
    target = unit(ranks=1, profile=Profile(toughness=3, save=save))
    shot = bolt(target, 20, "4 2" + (f" {needed}" if needed else ""))
    wound = shot.hits[0].wound
    assert wound.save_needed == needed
    if needed is None:
        assert wound.save is None and wound.slain  # no save left: no die
    else:
        assert wound.saved and not wound.slain  # the score needed exactly saves
        assert bolt(target, 20, f"4 2 {needed - 1}").hits[0].wound.slain


def test_as_strength_falls_rank_by_rank_the_armour_save_gets_better(bolt):
    # T1 W1 with a 1+ save, every save failed with a 1, eight ranks deep.
    # Save needed: 1 + (S - 3 above S3) + 1 for Armour Piercing = S6 5+, S5 4+, S4 3+, S3 2+,
    # S2 2+, S1 2+. To wound T1: S6-S3 2+, S2 3+, S1 4+.
    shot = bolt(unit(ranks=8, profile=Profile(toughness=1, save=1)), 20, "4  2 1  2 1  2 1  2 1  3 1  4 1")
    assert [h.strength for h in shot.hits] == [6, 5, 4, 3, 2, 1]
    assert [h.wound.save_needed for h in shot.hits] == [5, 4, 3, 2, 2, 2]
    assert [h.wound.to_wound_needed for h in shot.hits] == [2, 2, 2, 2, 3, 4]
    assert all(h.wound.slain for h in shot.hits)  # the last slain too: the Strength ran out
    assert len(shot.hits) == 6


def test_a_saved_wound_stops_the_bolt(bolt):
    # 1+ save: 5+ against S6, 4+ against S5. Rank 1 fails (4), rank 2 saves (4).
    shot = bolt(unit(profile=Profile(toughness=3, save=1)), 20, "4 2 4 2 4")
    assert placed(shot) == [(1, 3), (2, 3)]
    first, second = (h.wound for h in shot.hits)
    assert (first.save_needed, first.saved, first.slain) == (5, False, True)
    assert (second.save_needed, second.saved, second.slain, second.wounds) == (4, True, False, 0)
    assert purposes(shot) == ["to hit the bolt", "to wound rank 1 file 3", "armour save rank 1 file 3",
                              "to wound rank 2 file 3", "armour save rank 2 file 3"]


def test_the_ward_save_is_not_worsened_and_a_ward_that_saves_stops_the_bolt(bolt):
    # A 5+ ward, no armour: rank 1's ward fails (4), rank 2's saves (5).
    shot = bolt(unit(profile=Profile(toughness=3, ward=5)), 20, "4 2 4 2 5")
    assert placed(shot) == [(1, 3), (2, 3)]
    first, second = (h.wound for h in shot.hits)
    assert (first.ward_needed, first.ward.face, first.slain) == (5, "4", True)
    assert (second.ward_needed, second.ward.face, second.saved, second.slain) == (5, "5", True, False)
    assert purposes(shot)[2::2] == ["ward save rank 1 file 3", "ward save rank 2 file 3"]


def test_the_ward_is_rolled_only_when_the_armour_fails(bolt):
    # 1+ armour (5+ against S6) and a 4+ ward: the armour saves, no ward die.
    shot = bolt(unit(ranks=1, profile=Profile(toughness=3, save=1, ward=4)), 20, "4 2 6")
    wound = shot.hits[0].wound
    assert wound.saved and wound.ward is None and len(shot.dice) == 3


@pytest.mark.parametrize(("wounds", "face", "lost", "slain"), [
    (2, 1, 1, False), (2, 2, 2, True), (2, 3, 2, True),  # never more than the model has
    (3, 1, 1, False), (3, 2, 2, False), (3, 3, 3, True), (4, 3, 3, False), (20, 3, 3, False),
])
def test_multiple_wounds_d3_capped_at_the_models_wounds(bolt, wounds, face, lost, slain):
    shot = bolt(unit(ranks=1, profile=Profile(toughness=3, wounds=wounds)), 20, f"4 2 {face}")
    wound = shot.hits[0].wound
    assert wound.multiple_wounds.kind is DieKind.D3 and wound.multiple_wounds.value == face
    assert wound.multiple_wounds.purpose == "Multiple Wounds (D3) rank 1 file 3"
    assert (wound.wounds, wound.slain) == (lost, slain)


def test_a_multi_wound_model_left_standing_stops_the_bolt(bolt):
    shot = bolt(unit(profile=Profile(toughness=3, wounds=3)), 20, "4 2 2")
    assert placed(shot) == [(1, 3)]
    assert (shot.hits[0].wound.wounds, shot.hits[0].wound.slain) == (2, False)


def test_no_multiple_wounds_die_for_a_single_wound_model(bolt):
    shot = bolt(unit(ranks=1, profile=Profile(toughness=3)), 20, "4 2")
    assert shot.hits[0].wound.multiple_wounds is None and shot.hits[0].wound.wounds == 1


def test_every_hit_at_any_strength_inflicts_multiple_wounds(bolt):
    # T4 W3: S6 wounds on 2+, S5 on 3+, S4 on 4+. D3 3, 3 slay the first two; a 1 leaves the
    # third with two wounds, and the bolt stops there with a rank still behind it.
    shot = bolt(unit(profile=Profile(toughness=4, wounds=3)), 20, "4 2 3 3 3 4 1")
    assert placed(shot) == [(1, 3), (2, 3), (3, 3)]
    assert [h.wound.to_wound_needed for h in shot.hits] == [2, 3, 4]
    assert [h.wound.multiple_wounds.value for h in shot.hits] == [3, 3, 1]
    assert [h.wound.slain for h in shot.hits] == [True, True, False]
    assert purposes(shot) == [
        "to hit the bolt",
        "to wound rank 1 file 3", "Multiple Wounds (D3) rank 1 file 3",
        "to wound rank 2 file 3", "Multiple Wounds (D3) rank 2 file 3",
        "to wound rank 3 file 3", "Multiple Wounds (D3) rank 3 file 3",
    ]


def test_with_a_profile_nothing_is_conditional(bolt):
    shot = bolt(unit(profile=Profile(toughness=1)), 20, "4 2 2 2 2")
    assert [h.conditional for h in shot.hits] == [False] * 4


def test_dice_in_order_to_hit_second_die_pick_then_each_model_front_to_back(bolt):
    # Two ranks of two (fewer than five): BS 3 at 30" in hard cover needs 7+: a 6, then a 4.
    # The pick: a 5 of 1-3 / 4-6 is file 2. Rank 1 file 2: T4 W2, 2+ armour (6+ against S6),
    # 6+ ward. To wound 3 (2+), armour 5 fails, ward 2 fails, D3 2: slain. Rank 2 file 2 at S5:
    # to wound 3 (3+), armour 4 fails (5+), ward 6 saves: the bolt stops.
    shot = bolt(unit(2, 2, profile=Profile(toughness=4, wounds=2, save=2, ward=6)), 30, "6 4 5 3 5 2 2 3 4 6",
                cover=Cover.HARD)
    assert purposes(shot) == [
        "to hit the bolt", "to hit the bolt, after the 6", "which model in the rank is hit",
        "to wound rank 1 file 2", "armour save rank 1 file 2", "ward save rank 1 file 2",
        "Multiple Wounds (D3) rank 1 file 2",
        "to wound rank 2 file 2", "armour save rank 2 file 2", "ward save rank 2 file 2",
    ]
    assert [d.kind for d in shot.dice] == [DieKind.D6] * 6 + [DieKind.D3] + [DieKind.D6] * 3
    assert shot.to_hit_dice == shot.dice[:2] and shot.pick == shot.dice[2:3]
    assert placed(shot) == [(1, 2), (2, 2)]
    first, second = (h.wound for h in shot.hits)
    assert (first.save_needed, first.wounds, first.slain) == (6, 2, True)
    assert (second.save_needed, second.saved, second.slain) == (5, True, False)
    assert first.to_wound is shot.dice[3] and first.multiple_wounds is shot.dice[6]


# --- Fewer than five models: the model in the rank is chosen at random --------------------------------


@pytest.mark.parametrize(("face", "file"), [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 2)])
def test_two_models_in_the_rank_split_the_d6_one_to_three_and_four_to_six(bolt, face, file):
    shot = bolt(unit(1, 2), 20, f"4 {face}")
    assert not shot.ranked
    assert [(d.face, d.purpose) for d in shot.pick] == [(str(face), "which model in the rank is hit")]
    assert placed(shot) == [(1, file)]


@pytest.mark.parametrize(("face", "file"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_three_models_in_the_rank_split_the_d6_in_pairs(bolt, face, file):
    assert placed(bolt(unit(1, 3), 20, f"4 {face}")) == [(1, file)]


@pytest.mark.parametrize("face", range(1, 5))
def test_four_models_in_the_rank_take_one_to_four(bolt, face):
    shot = bolt(unit(1, 4), 20, f"4 {face}")
    assert placed(shot) == [(1, face)] and len(shot.pick) == 1


def test_four_models_in_the_rank_reroll_fives_and_sixes(bolt):
    shot = bolt(unit(1, 4), 20, "4 6 5 3")
    assert [d.face for d in shot.pick] == ["6", "5", "3"]
    assert purposes(shot)[1:] == ["which model in the rank is hit"] * 3
    assert placed(shot) == [(1, 3)]


def test_a_small_unit_still_takes_the_bolt_through_its_ranks_in_the_file_picked(bolt):
    shot = bolt(unit(2, 2), 20, "4 5")
    assert placed(shot) == [(1, 2), (2, 2)]
    assert [h.strength for h in shot.hits] == [6, 5] and [h.conditional for h in shot.hits] == [False, True]
    # The aim is still the centre of the facing rank; the pick overrides the file.
    assert shot.aimed_model == (1, 1)


def test_a_small_unit_from_the_rear_picks_in_its_last_rank(bolt):
    assert placed(bolt(unit(2, 2, facing=Facing.REAR), 20, "4 1")) == [(2, 1), (1, 1)]


@pytest.mark.parametrize(("face", "rank"), [(2, 1), (5, 2)])
def test_a_small_unit_from_the_flank_picks_among_the_models_of_file_one(bolt, face, rank):
    # Side on, the "rank" facing the machine is file 1, one model from each of the unit's ranks.
    shot = bolt(unit(2, 2, facing=Facing.FLANK), 20, f"4 {face}")
    assert placed(shot) == [(rank, 1), (rank, 2)]


@pytest.mark.parametrize(("ranks", "files", "facing", "expected"), [
    (4, 1, Facing.FRONT, [(1, 1), (2, 1), (3, 1), (4, 1)]),
    (1, 4, Facing.FLANK, [(1, 1), (1, 2), (1, 3), (1, 4)]),
    (1, 1, Facing.FRONT, [(1, 1)]),
])
def test_one_model_in_the_rank_needs_no_die(bolt, ranks, files, facing, expected):
    shot = bolt(unit(ranks, files, facing=facing), 20, "4")
    assert not shot.ranked and shot.pick == ()
    assert placed(shot) == expected


@pytest.mark.parametrize(("ranks", "files", "ranked"), [
    (1, 4, False), (2, 2, False), (4, 1, False), (1, 5, True), (5, 1, True), (2, 3, True), (4, 5, True),
])
def test_five_or_more_models_go_through_the_ranks_without_a_pick(bolt, ranks, files, ranked):
    assert BOLT.ranked_target == 5
    faces = "4" if ranked or files == 1 else "4 1"  # front on: one model in the rank needs no pick
    shot = bolt(unit(ranks, files), 20, faces)
    assert shot.ranked is ranked
    assert (shot.pick == ()) is (ranked or files == 1)


def test_pick_is_a_d6_after_the_to_hit_and_before_the_wounds(bolt):
    shot = bolt(unit(1, 3, profile=Profile(toughness=3, save=1)), 20, "5 6 2 6")
    assert purposes(shot) == ["to hit the bolt", "which model in the rank is hit", "to wound rank 1 file 3",
                              "armour save rank 1 file 3"]
    assert placed(shot) == [(1, 3)] and shot.hits[0].wound.saved


# --- The record ----------------------------------------------------------------------------------------


def test_the_record_keeps_what_was_asked(bolt):
    target = unit(profile=Profile(toughness=3))
    shot = bolt(target, 30.5, "6 5 1", ballistic_skill=4, cover=Cover.SOFT, modifier=-1)
    assert shot.weapon is BOLT and shot.target is target and shot.formation.unit is target
    assert (shot.distance, shot.ballistic_skill, shot.cover, shot.modifier) == (30.5, 4, Cover.SOFT, -1)
    assert shot.long_range and shot.to_hit.needed == 6 and shot.unit == "in"
    assert shot.hit and shot.ranked and shot.to_hit_dice == shot.dice[:1]
    assert [h.wound for h in shot.hits][0].to_wound is shot.dice[1]


def test_the_aimed_model_stands_at_the_distance_straight_ahead(bolt):
    shot = bolt(unit(), 20, "4")
    row, col = shot.formation.cell_of(*shot.aimed_model)
    centre = shot.formation.centre(row, col)
    assert (centre.x, centre.y) == pytest.approx((0, 20))


def test_dice_not_given_are_rolled_by_the_bot():
    target = unit(profile=Profile(toughness=3))
    shot = fire_bolt_thrower(BOLT, PENALTIES, target, 20, EnteredDice("4 2", RandomDice(1)), ballistic_skill=3)
    assert [d.by for d in shot.dice][:2] == [Roller.PLAYER] * 2
    assert all(d.by is Roller.BOT for d in shot.dice[2:])


def test_ranked_describes_the_target_even_on_a_miss(bolt):
    # BoltShot.ranked: "Five or more rank-and-file models: the bolt goes through the ranks."
    shot = bolt(unit(), 20, "1")
    assert not shot.hit
    assert shot.ranked


# --- Errors --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("distance", "quoted"), [
    (0, '0"'), (-1, '-1"'), (-0.5, '-0.5"'), (48.01, '48.01"'), (49, '49"'), (100, '100"'),
    (float("nan"), 'nan"'), (float("inf"), 'inf"'),
])
def test_a_target_out_of_range_is_a_rules_error_quoting_the_distance(no_dice, distance, quoted):
    with pytest.raises(RulesError, match=f"^Distance {quoted} is outside the bolt thrower's range: "
                                         f"the target must be within 48\"\\.$"):
        fire_bolt_thrower(BOLT, PENALTIES, unit(), distance, no_dice, ballistic_skill=3)


@pytest.mark.parametrize("distance", [0.001, 1, 47.99, 48])
def test_any_distance_up_to_48_inches_is_in_range(bolt, distance):
    assert bolt(unit(), distance, "5").hit  # 5+ at long range, 4+ within 24"


@pytest.mark.parametrize("bs", [0, -2, 11, True, 2.5, None])
def test_an_impossible_ballistic_skill_is_a_rules_error(no_dice, bs):
    with pytest.raises(RulesError, match=rf"^Ballistic Skill {repr(bs)} is not possible: give 1 to 10"):
        fire_bolt_thrower(BOLT, PENALTIES, unit(), 20, no_dice, ballistic_skill=bs)


@pytest.mark.parametrize("modifier", [4, -4, 10, True, 1.0])
def test_an_impossible_modifier_is_a_rules_error(no_dice, modifier):
    with pytest.raises(RulesError, match=rf"^To-hit modifier {repr(modifier)} is not possible here: give -3 to \+3"):
        fire_bolt_thrower(BOLT, PENALTIES, unit(), 20, no_dice, ballistic_skill=3, modifier=modifier)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"ranks": 0}, "Ranks 0"), ({"ranks": 21}, "Ranks 21"), ({"files": 31}, "Files 31"),
    ({"width": 30}, "Base width 30 mm"), ({"depth": 10}, "Base depth 10 mm"),
])
def test_an_impossible_target_is_a_rules_error(kwargs, match):
    with pytest.raises(RulesError, match=match):
        unit(**kwargs)


def test_errors_are_raised_before_any_die_is_rolled(no_dice):
    for distance, kwargs in ((0, {"ballistic_skill": 3}), (20, {"ballistic_skill": 0}),
                             (20, {"ballistic_skill": 3, "modifier": 5})):
        with pytest.raises(RulesError):
            fire_bolt_thrower(BOLT, PENALTIES, unit(), distance, no_dice, **kwargs)


@pytest.mark.parametrize(("target", "faces", "message"), [
    (unit(), "7", "'7' \\(die 1\\) does not fit the D6 rolled for to hit the bolt; faces that fit: 1 to 6"),
    (unit(), "M", "'M' \\(die 1\\) does not fit the D6 rolled for to hit the bolt"),
    (unit(2, 2), "4 0", "'0' \\(die 2\\) does not fit the D6 rolled for which model in the rank is hit"),
    (unit(profile=Profile(toughness=3)), "4 H", "'H' \\(die 2\\) does not fit the D6 rolled for to wound rank 1 file 3"),
    (unit(profile=Profile(toughness=3, save=1)), "4 2 9",
     "'9' \\(die 3\\) does not fit the D6 rolled for armour save rank 1 file 3"),
    (unit(profile=Profile(toughness=3, wounds=2)), "4 2 4",
     "'4' \\(die 3\\) does not fit the D3 rolled for Multiple Wounds \\(D3\\) rank 1 file 3; faces that fit: 1 to 3"),
    (unit(), "4 2", "1 left over \\(2\\); only 1 of the 2 given were needed"),
    (unit(profile=Profile(toughness=3)), "4 1 5 5", "2 left over \\(5 5\\); only 2 of the 4 given were needed"),
])
def test_dice_that_do_not_fit_are_dice_errors_naming_the_die(no_dice, target, faces, message):
    with pytest.raises(DiceError, match=message):
        fire_bolt_thrower(BOLT, PENALTIES, target, 20, EnteredDice(faces, no_dice), ballistic_skill=3)


def test_a_second_to_hit_die_that_does_not_fit_names_the_six(no_dice):
    with pytest.raises(DiceError, match="does not fit the D6 rolled for to hit the bolt, after the 6"):
        fire_bolt_thrower(BOLT, PENALTIES, unit(), 30, EnteredDice("6 7", no_dice), ballistic_skill=3, cover=Cover.HARD)


# --- Shots worked by hand -------------------------------------------------------------------------------


def test_scenario_halberdiers_behind_a_hedge_lose_three_ranks_to_one_bolt(bolt):
    """A bolt thrower with a BS 4 crew shoots at 20 halberdiers (infantry, 20 mm bases, 4 ranks
    of 5, T3 W1, 5+ armour) 30" away behind a hedge, facing the machine.

    To hit: BS 4 needs 7 - 4 = 3+; 30" is beyond half of 48" (long range, -1) and the hedge is
    soft cover (-1): 3 + 2 = 5+. The die shows 5: a hit.
    Twenty models, so the bolt goes through the ranks, starting with the centre of the front
    rank: rank 1, file (5 - 1) // 2 + 1 = 3.
    Rank 1: S6 against T3 wounds on 2+ (S is 3 more than T); a 3 wounds. The 5+ save is worsened
    by 6 - 3 = 3 and by Armour Piercing 1: 9+, no save. One wound on a one-wound model (no
    Multiple Wounds die): slain.
    Rank 2 at S5: still 2+ to wound (2 more than T); a 2 wounds. Save 5 + 2 + 1 = 8+: none. Slain.
    Rank 3 at S4: 3+ to wound (1 more than T); a 4 wounds. Save 5 + 1 + 1 = 7+: none. Slain.
    Rank 4 at S3: 4+ to wound (equal); a 3 fails. The halberdier lives and the bolt stops, its
    last rank reached anyway. Three dead: "5 3 2 4 3".
    """
    halberdiers = unit(profile=Profile(toughness=3, save=5))
    shot = bolt(halberdiers, 30, "5 3 2 4 3", ballistic_skill=4, cover=Cover.SOFT)
    assert (shot.long_range, shot.to_hit.needed, shot.hit, shot.ranked) == (True, 5, True, True)
    assert placed(shot) == [(1, 3), (2, 3), (3, 3), (4, 3)]
    assert [h.strength for h in shot.hits] == [6, 5, 4, 3]
    assert [h.wound.to_wound_needed for h in shot.hits] == [2, 2, 3, 4]
    # No save left at S6, S5 or S4; the S3 hit did not wound, so no save was asked for.
    assert [h.wound.save_needed for h in shot.hits] == [None, None, None, None]
    assert len(shot.dice) == 5
    assert [h.wound.slain for h in shot.hits] == [True, True, True, False]
    assert sum(h.wound.slain for h in shot.hits) == 3


def test_scenario_ogres_side_on_one_slain_the_next_left_standing(bolt):
    """A BS 3 crew shoots at six Ogre Bulls (monstrous infantry, 40 mm bases, 2 ranks of 3, T4 W3,
    5+ armour) 18" away, the machine in the Ogres' flank.

    To hit: 18" is not beyond 24", no cover: BS 3 needs 4+; a 4 hits.
    Six models: the bolt goes through. Side on, the files count as ranks: the nearest "rank" is
    file 1, which holds one Ogre from each of the two ranks; its centre (left of centre for two)
    is rank 1. So rank 1 file 1 first, then rank 1 file 2, then rank 1 file 3.
    Rank 1 file 1: S6 against T4 wounds on 2+; a 6. Save 5 + 3 + 1 = 9+: none. Multiple Wounds
    D3 shows 3: three wounds, the Ogre's all: slain, the bolt goes on.
    Rank 1 file 2 at S5: 3+ to wound (S one more than T); a 3. Save 5 + 2 + 1 = 8+: none. D3
    shows 2: two wounds of three, the Ogre stands, and the bolt stops there: "4 6 3 3 2".
    """
    ogres = unit(2, 3, Facing.FLANK, Profile(toughness=4, wounds=3, save=5), troop="monstrous-infantry",
                 width=40, depth=40)
    shot = bolt(ogres, 18, "4 6 3 3 2")
    assert (shot.long_range, shot.to_hit.needed, shot.ranked) == (False, 4, True)
    assert shot.aimed_model == (1, 1)
    assert placed(shot) == [(1, 1), (1, 2)]
    assert [h.row for h in shot.hits] == [1, 2]
    assert [h.strength for h in shot.hits] == [6, 5]
    assert [h.wound.to_wound_needed for h in shot.hits] == [2, 3]
    assert [h.wound.save_needed for h in shot.hits] == [None, None]
    assert [(h.wound.wounds, h.wound.slain) for h in shot.hits] == [(3, True), (2, False)]
    assert purposes(shot) == ["to hit the bolt", "to wound rank 1 file 1", "Multiple Wounds (D3) rank 1 file 1",
                              "to wound rank 1 file 2", "Multiple Wounds (D3) rank 1 file 2"]


def test_scenario_four_knights_one_picked_at_random_saves(bolt):
    """A BS 3 crew shoots at four knights (cavalry, 25 x 50 mm bases, one rank of 4, T3 W1, 1+
    armour) 40" away, facing the machine.

    To hit: long range (40" > 24"): 4 + 1 = 5+; a 6 hits.
    Four models, fewer than five: the knight in the rank is picked with a D6, 1-4 naming the
    file and 5-6 rolled again. A 5 (again), then a 2: file 2.
    S6 against T3: 2+ to wound; a 4 wounds. Save 1 + 3 + 1 = 5+; a 5 saves: no ward to roll,
    the knight lives and there is no rank behind anyway: "6 5 2 4 5".
    """
    knights = unit(1, 4, profile=Profile(toughness=3, save=1), troop="cavalry", width=25, depth=50)
    shot = bolt(knights, 40, "6 5 2 4 5")
    assert (shot.to_hit.needed, shot.hit, shot.ranked) == (5, True, False)
    assert [d.face for d in shot.pick] == ["5", "2"]
    assert placed(shot) == [(1, 2)]
    wound = shot.hits[0].wound
    assert (wound.to_wound_needed, wound.save_needed, wound.saved, wound.slain) == (2, 5, True, False)
