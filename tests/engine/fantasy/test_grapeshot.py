"""Grapeshot (Warhammer Fantasy, War Machines: Grapeshot), one branch at a time, with every die
entered by the players.

The book: range 12" (no minimum), Strength 5, Armour Piercing (1). Roll an artillery die and a D6
(entered in that order); a misfire on the artillery die sends you to the Black Powder Misfire
Chart (its D6 third) and nothing is fired; otherwise the shots are the artillery die plus the D6,
each rolled to hit with the crew's Ballistic Skill. The core rules' shooting modifiers apply:
long range (beyond half the range, so beyond 6") -1, soft cover -1, hard cover -2, and any other
the players name (+1 helps). Hits then go to wound, armour (S5 and AP1: 3 worse), ward.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from config.gamedata import fantasy
from engine.dice import Dice, DieKind, EnteredDice, RandomDice, Roller
from engine.errors import DiceError, RulesError
from engine.fantasy.grapeshot import GrapeshotShot, fire_grapeshot
from engine.fantasy.shooting import MAX_MODIFIER, Cover
from engine.fantasy.profiles import MisfireOutcome
from engine.fantasy.shooting import ToHit
from engine.fantasy.wounding import Profile

DATA = fantasy()
GRAPESHOT = DATA.grapeshot
CHART = DATA.misfire_charts["black-powder"]
PENALTIES = DATA.to_hit_penalties

SHOTS_DICE = [(DieKind.ARTILLERY, "shots (artillery die)"), (DieKind.D6, "shots (D6)")]


@pytest.fixture
def blast(no_dice: Dice) -> Callable[..., GrapeshotShot]:
    """``blast(distance, "4 2 3 5 6 1 4 4", ballistic_skill=3, cover=..., modifier=..., profile=...)``:
    grapeshot with every die entered. The fallback fails the test if asked for a die; every die
    in the record must be the players' and the record must hold exactly the dice given."""

    def _blast(distance: float, faces: str, *, ballistic_skill: int = 3, **options) -> GrapeshotShot:
        entered = EnteredDice(faces, no_dice)
        shot = fire_grapeshot(GRAPESHOT, CHART, PENALTIES, distance, entered, ballistic_skill=ballistic_skill, **options)
        assert [d.by for d in shot.dice] == [Roller.PLAYER] * len(shot.dice)
        assert len(shot.dice) == entered.given
        return shot

    return _blast


def phases(shot: GrapeshotShot) -> list[str]:
    """Each die's step, from its purpose (the words before the shot number)."""
    out = []
    for d in shot.dice:
        for name in ("shots", "to hit", "to wound", "armour save", "ward save", "Multiple Wounds", "Black Powder"):
            if d.purpose.startswith(name):
                out.append(name)
                break
        else:
            raise AssertionError(d.purpose)
    return out


# --- The number of shots, and the misfire -------------------------------------------------------------

MISFIRES = {1: MisfireOutcome.DESTROYED, 2: MisfireOutcome.DESTROYED, 3: MisfireOutcome.MALFUNCTION,
            4: MisfireOutcome.MALFUNCTION, 5: MisfireOutcome.MAY_NOT_SHOOT, 6: MisfireOutcome.MAY_NOT_SHOOT}


@pytest.mark.parametrize("score", range(1, 7))
@pytest.mark.parametrize("d6", [1, 6])
def test_misfire_rolls_on_the_black_powder_chart_and_nothing_is_fired(blast, score, d6):
    shot = blast(5, f"M {d6} {score}", profile=Profile(toughness=3, save=4))
    assert not shot.fired
    assert shot.misfire.chart is CHART and shot.misfire.chart.key == "black-powder"
    assert shot.misfire.roll.value == score and shot.misfire.roll is shot.dice[2]
    assert shot.misfire.row.outcome is MISFIRES[score]
    assert [(d.kind, d.purpose) for d in shot.dice] == SHOTS_DICE + [(DieKind.D6, "Black Powder Misfire Chart")]
    assert shot.artillery.is_misfire and shot.artillery is shot.dice[0]
    assert shot.shots_die.value == d6 and shot.shots_die is shot.dice[1]
    assert shot.shots == 0 and shot.volley is None


@pytest.mark.parametrize(("score", "silent_turns"), [(1, 0), (3, 2), (4, 2), (5, 1), (6, 1)])
def test_misfire_rows_say_how_long_the_gun_is_silent(blast, score, silent_turns):
    assert blast(5, f"M 2 {score}").misfire.row.silent_turns == silent_turns


def test_a_misfire_leaves_no_room_for_more_dice(no_dice):
    with pytest.raises(DiceError, match="1 left over"):
        fire_grapeshot(GRAPESHOT, CHART, PENALTIES, 5, EnteredDice("M 4 3 4", no_dice), ballistic_skill=3)


@pytest.mark.parametrize("artillery", [2, 4, 6, 8, 10])
@pytest.mark.parametrize("d6", range(1, 7))
def test_shots_are_the_artillery_die_plus_the_d6(blast, artillery, d6):
    shots = artillery + d6
    # BS 3 at 4": 4+. Every shot rolls a 4 and hits.
    shot = blast(4, f"{artillery} {d6} " + " ".join(["4"] * shots))
    assert shot.fired and shot.misfire is None
    assert (shot.artillery.value, shot.shots_die.value, shot.shots) == (artillery, d6, shots)
    assert len(shot.volley.shots) == shots and shot.volley.hits == shots
    assert [(d.kind, d.purpose) for d in shot.dice] == SHOTS_DICE + [
        (DieKind.D6, f"to hit shot {n}") for n in range(1, shots + 1)]


def test_too_few_to_hit_dice_given_is_not_an_error_the_bot_would_roll_them():
    # The fallback rolls the dice not given (here: the last two shots).
    shot = fire_grapeshot(GRAPESHOT, CHART, PENALTIES, 4, EnteredDice("2 2 4 4", RandomDice(1)), ballistic_skill=3)
    assert shot.shots == 4 and [d.by for d in shot.dice] == [Roller.PLAYER] * 4 + [Roller.BOT] * 2


def test_to_hit_dice_after_the_shots(blast):
    # BS 3 at 4", no cover: 4+. Shots 2 + 1 = 3: 3 misses, 4 and 6 hit.
    shot = blast(4, "2 1 3 4 6")
    assert [s.hit for s in shot.volley.shots] == [False, True, True]
    assert [s.to_hit[0].face for s in shot.volley.shots] == ["3", "4", "6"]
    assert shot.volley.hits == 2 and shot.to_hit == ToHit(4)


def test_a_one_always_misses(blast):
    # BS 5 with +3 from other modifiers: 2+ at best, and a 1 still misses.
    shot = blast(4, "2 1 1 2 6", ballistic_skill=5, modifier=3)
    assert shot.to_hit.needed == 2
    assert [s.hit for s in shot.volley.shots] == [False, True, True]


# --- Range and to-hit modifiers --------------------------------------------------------------------------


@pytest.mark.parametrize(("distance", "long_range", "needed", "hit"), [
    (0.01, False, 4, True),
    (3, False, 4, True),
    (6, False, 4, True),  # exactly half the range: not long range
    (6.01, True, 5, False),  # beyond half: long range, -1
    (9, True, 5, False),
    (12, True, 5, False),  # the full range is allowed
])
def test_long_range_is_beyond_six_inches(blast, distance, long_range, needed, hit):
    shot = blast(distance, "2 1 4 4 4")  # three shots, each a 4
    assert shot.long_range is long_range
    assert shot.penalty == (1 if long_range else 0)
    assert shot.to_hit.needed == needed
    assert shot.volley.hits == (3 if hit else 0)
    assert shot.distance == float(distance) and shot.unit == "in"


@pytest.mark.parametrize(("cover", "penalty", "needed"), [(Cover.NONE, 0, 4), (Cover.SOFT, 1, 5), (Cover.HARD, 2, 6)])
def test_cover(blast, cover, penalty, needed):
    shot = blast(4, f"2 1 {needed - 1} {needed} 6", cover=cover)
    assert shot.cover is cover and shot.penalty == penalty and shot.to_hit.needed == needed
    assert [s.hit for s in shot.volley.shots] == [False, True, True]


@pytest.mark.parametrize(("modifier", "needed"), [(-3, 7), (-2, 6), (-1, 5), (0, 4), (1, 3), (2, 2), (3, 2)])
def test_other_modifiers_plus_one_helps(blast, modifier, needed):
    # At 7+ the three first dice (6 6 6) come before the three second dice (4 4 4).
    shot = blast(4, "2 1 " + ("6 6 6 4 4 4" if needed == 7 else " ".join([str(needed)] * 3)), modifier=modifier)
    assert shot.modifier == modifier and shot.penalty == -modifier
    assert shot.to_hit.needed == needed and shot.volley.hits == 3


def test_long_range_and_hard_cover_add_up_to_a_six_then_four(blast):
    # BS 3 at 8" in hard cover: 4+ worsened by 1 + 2 = 7+: a 6, then 4+.
    # First dice 6 6 5, then the two 6s' second dice 4 (hit) and 3 (miss).
    shot = blast(8, "2 1 6 6 5 4 3", cover=Cover.HARD)
    assert (shot.long_range, shot.penalty, shot.to_hit.needed) == (True, 3, 7)
    assert [[d.face for d in s.to_hit] for s in shot.volley.shots] == [["6", "4"], ["6", "3"], ["5"]]
    assert [s.hit for s in shot.volley.shots] == [True, False, False]
    assert [d.purpose for d in shot.dice[2:7]] == [
        "to hit shot 1", "to hit shot 2", "to hit shot 3", "to hit shot 1, after the 6", "to hit shot 2, after the 6"]


def test_bs1_at_long_range_in_hard_cover_needs_a_six_then_a_six(blast):
    # First dice 5 6 6, then the two 6s' second dice 6 (hit at 9+) and 4 (miss).
    shot = blast(10, "2 1 5 6 6 6 4", ballistic_skill=1, cover=Cover.HARD)
    assert shot.to_hit.needed == 9 and shot.to_hit.then == 6
    assert [s.hit for s in shot.volley.shots] == [False, True, False]


def test_ten_or_more_to_hit_fires_the_shots_but_rolls_no_to_hit_dice(blast):
    # BS 1, long range, hard cover and -1 more: 10+, no hit possible.
    shot = blast(10, "4 2", ballistic_skill=1, cover=Cover.HARD, modifier=-1, profile=Profile(toughness=1))
    assert shot.fired and shot.shots == 6 and not shot.to_hit.possible
    assert all(s.to_hit == () and not s.hit for s in shot.volley.shots)
    assert shot.volley.hits == 0 and shot.volley.unsaved == 0 and len(shot.dice) == 2


def test_a_bonus_can_offset_long_range_and_cover(blast):
    # +3 against long range (-1) and soft cover (-1): one better than the chart.
    shot = blast(10, "2 1 3 3 3", cover=Cover.SOFT, modifier=3)
    assert shot.penalty == -1 and shot.to_hit.needed == 3 and shot.volley.hits == 3


def test_the_record_keeps_what_was_asked(blast):
    shot = blast(7.5, "2 1 6 6 6", ballistic_skill=4, cover=Cover.SOFT, modifier=-1)
    assert shot.weapon is GRAPESHOT and shot.ballistic_skill == 4
    assert (shot.distance, shot.cover, shot.modifier, shot.penalty) == (7.5, Cover.SOFT, -1, 3)
    assert shot.to_hit.needed == 6 and shot.profile is None
    assert shot.volley.strength == 5 and shot.volley.armour_piercing == 1 and shot.volley.to_hit is shot.to_hit


# --- Wounding with the grapeshot profile ------------------------------------------------------------------


def test_hits_wound_at_strength_5_then_armour_then_ward(blast):
    # T4 (3+ to wound against S5), 2+ armour (5+ after S5 and AP1), 5+ ward, one wound each.
    shot = blast(
        4,
        "2 3"  # 5 shots
        " 4 4 3 4 4"  # to hit (4+): shots 1, 2, 4, 5 hit
        " 3 2 6 4"  # to wound (3+): shots 1, 4, 5 wound
        " 5 4 1"  # armour (5+): shot 1 saved
        " 5 4",  # ward (5+): shot 4 saved, shot 5 not
        profile=Profile(toughness=4, save=2, ward=5),
    )
    assert phases(shot) == ["shots"] * 2 + ["to hit"] * 5 + ["to wound"] * 4 + ["armour save"] * 3 + ["ward save"] * 2
    assert [d.purpose for d in shot.dice[7:]] == [
        "to wound shot 1", "to wound shot 2", "to wound shot 4", "to wound shot 5",
        "armour save shot 1", "armour save shot 4", "armour save shot 5",
        "ward save shot 4", "ward save shot 5",
    ]
    s1, s2, s3, s4, s5 = shot.volley.shots
    assert s3.wound is None and not s3.hit
    assert all(s.wound.strength == 5 and s.wound.to_wound_needed == 3 for s in (s1, s2, s4, s5))
    assert (s1.wound.save_needed, s1.wound.saved, s1.wound.ward) == (5, True, None)
    assert (s2.wound.wounded, s2.wound.save) == (False, None)
    assert (s4.wound.ward.face, s4.wound.saved, s4.wound.wounds) == ("5", True, 0)
    assert (s5.wound.ward.face, s5.wound.saved, s5.wound.wounds, s5.wound.slain) == ("4", False, 1, True)
    assert (shot.volley.hits, shot.volley.unsaved, shot.volley.models_slain) == (4, 1, 1)


@pytest.mark.parametrize(("save", "needed"), [(1, 4), (2, 5), (3, 6), (4, None), (5, None), (6, None)])
def test_armour_piercing_1_and_strength_5_make_saves_three_worse(blast, save, needed):
    # Strength 5: -2; Armour Piercing (1): -1 more.
    shot = blast(4, "2 1 4 1 1  2" + (f" {needed}" if needed else ""), profile=Profile(toughness=3, save=save))
    (wound,) = [s.wound for s in shot.volley.shots if s.hit]
    assert wound.save_needed == needed
    if needed is None:
        assert wound.save is None and not wound.saved and wound.slain  # no save roll at all
    else:
        assert wound.save.value == needed and wound.saved  # the needed score exactly saves


def test_the_ward_save_is_not_worsened(blast):
    # A 4+ ward against S5 AP1: a 4 still saves, with no armour left to roll.
    shot = blast(4, "2 1 4 1 1  2 4", profile=Profile(toughness=3, save=4, ward=4))
    (wound,) = [s.wound for s in shot.volley.shots if s.hit]
    assert (wound.save_needed, wound.save, wound.ward_needed, wound.ward.face, wound.saved) == (None, None, 4, "4", True)


@pytest.mark.parametrize(("toughness", "needed"), [(1, 2), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6), (8, 6), (9, None),
                                                   (10, None)])
def test_strength_5_against_each_toughness(blast, toughness, needed):
    shot = blast(4, "2 1 4 1 1" + (f" {needed}" if needed else ""), profile=Profile(toughness=toughness))
    (wound,) = [s.wound for s in shot.volley.shots if s.hit]
    assert wound.to_wound_needed == needed
    if needed is None:
        assert wound.to_wound is None and not wound.wounded and len(shot.dice) == 5
    else:
        assert wound.wounded and shot.volley.unsaved == 1


def test_grapeshot_has_no_multiple_wounds(blast):
    # Seven hits, all wounding 3-wound models: 7 wounds, 2 whole models.
    shot = blast(4, "4 3 " + " ".join(["4"] * 7) + " " + " ".join(["2"] * 7), profile=Profile(toughness=3, wounds=3))
    assert all(s.wound.multiple_wounds is None and s.wound.wounds == 1 and not s.wound.slain for s in shot.volley.shots)
    assert (shot.volley.unsaved, shot.volley.models_slain) == (7, 2)
    assert "Multiple Wounds" not in phases(shot)


def test_with_no_profile_the_hits_are_counted_and_no_wound_dice_rolled(blast):
    shot = blast(4, "4 2 4 4 1 5 6 2")
    assert shot.profile is None and shot.volley.profile is None
    assert phases(shot) == ["shots"] * 2 + ["to hit"] * 6
    assert all(s.wound is None for s in shot.volley.shots)
    assert (shot.volley.hits, shot.volley.unsaved, shot.volley.models_slain) == (4, 0, 0)


def test_every_shot_missing_rolls_no_wound_dice(blast):
    shot = blast(4, "2 1 1 2 3", profile=Profile(toughness=3, save=4, ward=4))
    assert shot.volley.hits == 0 and all(s.wound is None for s in shot.volley.shots) and len(shot.dice) == 5


# --- Errors -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("distance", "quoted"), [
    (0, '0"'), (-1, '-1"'), (-0.5, '-0.5"'), (12.01, '12.01"'), (13, '13"'), (48, '48"'),
    (float("nan"), 'nan"'), (float("inf"), 'inf"'),
])
def test_a_target_out_of_range_is_a_rules_error_quoting_the_distance(no_dice, distance, quoted):
    with pytest.raises(RulesError, match=f"^Distance {quoted} is outside grapeshot's range: the target must be within 12\""):
        fire_grapeshot(GRAPESHOT, CHART, PENALTIES, distance, no_dice, ballistic_skill=3)


@pytest.mark.parametrize("bs", [0, -2, 11, True, 2.5])
def test_an_impossible_ballistic_skill_is_a_rules_error(no_dice, bs):
    with pytest.raises(RulesError, match=rf"^Ballistic Skill {repr(bs)} is not possible: give 1 to 10"):
        fire_grapeshot(GRAPESHOT, CHART, PENALTIES, 4, no_dice, ballistic_skill=bs)


@pytest.mark.parametrize("modifier", [4, -4, 10, True, 1.0])
def test_an_impossible_modifier_is_a_rules_error(no_dice, modifier):
    with pytest.raises(RulesError, match=rf"^To-hit modifier {repr(modifier)} is not possible here: give -3 to \+3"):
        fire_grapeshot(GRAPESHOT, CHART, PENALTIES, 4, no_dice, ballistic_skill=3, modifier=modifier)
    assert MAX_MODIFIER == 3


@pytest.mark.parametrize(("faces", "message"), [
    ("3 2", "'3' \\(die 1\\) does not fit the artillery die rolled for shots \\(artillery die\\); faces that fit: 2, 4, 6, 8, 10 or M"),
    ("H 2", "'H' \\(die 1\\) does not fit the artillery die rolled for shots \\(artillery die\\)"),
    ("4 M", "'M' \\(die 2\\) does not fit the D6 rolled for shots \\(D6\\); faces that fit: 1 to 6"),
    ("4 10", "'10' \\(die 2\\) does not fit the D6 rolled for shots \\(D6\\)"),
    ("2 1 4 7", "'7' \\(die 4\\) does not fit the D6 rolled for to hit shot 2"),
    ("M 2 8", "'8' \\(die 3\\) does not fit the D6 rolled for Black Powder Misfire Chart"),
    ("2 1 4 4 4 5", "1 left over \\(5\\); only 5 of the 6 given were needed"),
])
def test_dice_that_do_not_fit_are_dice_errors_naming_the_die(no_dice, faces, message):
    with pytest.raises(DiceError, match=message):
        fire_grapeshot(GRAPESHOT, CHART, PENALTIES, 4, EnteredDice(faces, no_dice), ballistic_skill=3)


def test_wound_dice_that_do_not_fit_name_the_shot(no_dice):
    with pytest.raises(DiceError, match="does not fit the D6 rolled for armour save shot 2"):
        fire_grapeshot(GRAPESHOT, CHART, PENALTIES, 4, EnteredDice("2 1 1 4 1 3 M", no_dice), ballistic_skill=3,
                       profile=Profile(toughness=3, save=1))
