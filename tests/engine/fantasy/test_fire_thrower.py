"""fire_fire_thrower with entered dice: one test per branch (War Machines: Fire Throwers; Special
Rules: Flaming Attacks, Flammable)."""

from __future__ import annotations

import pytest

from config.gamedata import fantasy
from engine.dice import EnteredDice, RandomDice, Roller
from engine.errors import RulesError
from engine.fantasy.fire_thrower import fire_fire_thrower
from engine.fantasy.formation import Facing, TargetUnit
from engine.fantasy.wounding import Profile

DATA = fantasy()
FLAMER = DATA.fire_throwers["fire-thrower"]
CHART = DATA.misfire_charts["black-powder"]


def unit(ranks=1, files=1, troop="infantry", **kwargs) -> TargetUnit:
    t = DATA.troops[troop]
    return TargetUnit(ranks, files, t, t.base_width, t.base_depth, **kwargs)


def flame(target, distance, faces, **options):
    entered = EnteredDice(faces, RandomDice(0))
    shot = fire_fire_thrower(FLAMER, CHART, DATA.flaming_attacks, target, distance, entered, **options)
    assert [d.by for d in shot.dice] == [Roller.PLAYER] * len(shot.dice)
    assert len(shot.dice) == entered.given
    return shot


def test_the_profile_is_the_books():
    assert (FLAMER.strength, FLAMER.special_rules, FLAMER.misfire_chart) == (5, ("Flaming Attacks",), "black-powder")
    t = FLAMER.template
    assert (t.length, t.narrow, t.wide) == (8, 1, 3) and "not in the seeds" in t.source


@pytest.mark.parametrize("roll, outcome", [(1, "destroyed"), (2, "destroyed"), (3, "malfunction"), (4, "malfunction"),
                                           (5, "may not shoot"), (6, "may not shoot")])
def test_a_misfire_goes_to_the_black_powder_chart_and_nothing_is_fired(roll, outcome):
    shot = flame(unit(4, 5, profile=Profile(3)), 8, f"M {roll}", leadership=7)
    assert shot.misfire.row.outcome.value == outcome and shot.misfire.chart is CHART
    assert not shot.fired and shot.hits == () and shot.moved == 0 and shot.panic is None
    assert shot.panic_required is False and shot.tip is None


@pytest.mark.parametrize("distance, artillery, hit", [
    (10, "2", True),    # the template runs 2-10": its wide end reaches the model's base (9.6-10.4")
    (10.5, "2", False), # the base starts at 10.1": past the wide end
    (10, "10", True),   # 10-18": the narrow end touches the base's far edge
    (5, "10", False),   # 10-18": the flame overshoots the model at 5"
    (14, "6", True),
])
def test_the_template_moves_straight_forward_the_artillery_number(distance, artillery, hit):
    shot = flame(unit(), distance, artillery)
    assert shot.moved == int(artillery) and shot.tip.y == int(artillery) and shot.tip.x == 0
    assert bool(shot.hits) is hit


def test_every_model_under_the_wide_end_is_hit_and_none_beside_it():
    # Wide end's circle (1.5" radius) centred 2 + 6.5 = 8.5" out: in a rank of 9 on 20 mm bases
    # the files 2 either side of the centre reach within 1.5", the third ones do not (1.97").
    shot = flame(unit(1, 9), 8.5, "2")
    assert [(h.rank, h.file) for h in shot.hits] == [(1, f) for f in range(3, 8)]
    assert {h.strength for h in shot.hits} == {5}


def test_a_start_within_the_range_moves_the_whole_template_out():
    shot = flame(unit(), 16, "2", range=6, start=6)
    assert shot.tip.y == 8 and shot.placed_tip.y == 6 and len(shot.hits) == 1


def test_hits_roll_to_wound_at_s5_with_no_armour_left_for_a_5_plus_save():
    shot = flame(unit(1, 3, profile=Profile(3, 1, 5)), 8.5, "2 1 2 6")
    assert [h.wound.to_wound.value for h in shot.hits] == [1, 2, 6]
    assert [h.wound.slain for h in shot.hits] == [False, True, True]
    assert all(h.wound.save is None for h in shot.hits) and shot.casualties == 2


def test_flammable_targets_re_roll_failed_wound_rolls():
    shot = flame(unit(1, 2, profile=Profile(4)), 8.5, "2 2 5 4", flammable=True)
    first, second = shot.hits
    assert first.wound.to_wound.value == 2 and first.wound.reroll.value == 4 and first.wound.wounded
    assert second.wound.reroll is None and second.wound.wounded


def test_without_flammable_a_failed_wound_roll_stands():
    shot = flame(unit(1, 1, profile=Profile(4)), 8.5, "2 2")
    assert shot.hits[0].wound.reroll is None and not shot.hits[0].wound.wounded
    assert shot.casualties == 0 and shot.panic_required is False and shot.panic is None


def test_a_casualty_means_a_panic_test_rolled_against_leadership():
    # Two models in file: the front one slain (5), the second survives (1); the Panic test 3 + 4.
    shot = flame(unit(2, 1, profile=Profile(3)), 8.5, "2 5 1 3 4", leadership=7)
    assert shot.casualties == 1 and shot.panic_required
    assert (shot.panic.total, shot.panic.needed, shot.panic.passed) == (7, 7, True)
    assert shot.panic_modifiers == ()


def test_cavalry_take_the_panic_test_at_minus_one_for_flaming_attacks():
    shot = flame(unit(2, 1, "cavalry", profile=Profile(3)), 8.5, "2 5 1 3 4", leadership=7)
    assert shot.panic_modifiers == (("Flaming Attacks", -1),)
    assert (shot.panic.needed, shot.panic.passed) == (6, False)


def test_flammable_infantry_fear_the_flames_too():
    shot = flame(unit(2, 1, profile=Profile(3)), 8.5, "2 5 1 1 1 1", leadership=7, flammable=True)
    assert shot.panic_modifiers == (("Flaming Attacks", -1),) and shot.panic.passed


def test_a_casualty_without_leadership_says_the_test_is_due_without_rolling_it():
    shot = flame(unit(2, 1, profile=Profile(3)), 8.5, "2 5 1")
    assert shot.panic_required is True and shot.panic is None


def test_a_unit_with_no_models_left_takes_no_panic_test():
    # Seed 000, Fire throwers: a unit that suffers casualties takes a Panic test; issue 16: not a
    # unit wiped out, which has no one left to test. One model, slain by the flame: no test rolled.
    shot = flame(unit(1, 1, profile=Profile(3)), 8.5, "2 5", leadership=7)
    assert shot.casualties == 1 and shot.wiped_out
    assert shot.panic_required is False and shot.panic is None


def test_without_a_profile_the_panic_test_hangs_on_the_players_rolls():
    shot = flame(unit(2, 2), 8.5, "2", leadership=7)
    assert shot.casualties is None and shot.panic_required is None and shot.panic is None


def test_from_the_flank_files_count_as_ranks():
    shot = flame(unit(2, 6, facing=Facing.FLANK), 8.5, "2")
    # The machine sees 6 rows of 2: the template's narrow half reaches the nearest rows.
    assert all(h.rank in (1, 2) for h in shot.hits) and shot.hits


@pytest.mark.parametrize("options, message", [
    (dict(start=2), "needs a range"),
    (dict(range=4, start=5), "beyond the fire thrower's range"),
    (dict(range=12, start=9), "not short of the target"),
    (dict(leadership=11), "Leadership 11"),
    (dict(start=-1), "at or beyond the barrel"),
])
def test_bad_options_are_refused(options, message):
    with pytest.raises(RulesError, match=message):
        fire_fire_thrower(FLAMER, CHART, DATA.flaming_attacks, unit(), 8, RandomDice(0), **options)


@pytest.mark.parametrize("distance", [0, -3, 49])
def test_a_distance_out_of_reach_is_refused(distance):
    with pytest.raises(RulesError, match="Distance"):
        fire_fire_thrower(FLAMER, CHART, DATA.flaming_attacks, unit(), distance, RandomDice(0))
