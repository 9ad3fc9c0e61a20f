"""The wounding sequence: to wound, armour save, ward save, Multiple Wounds."""

from __future__ import annotations

import pytest

from engine.dice import DieKind, EnteredDice, Roller
from engine.errors import RulesError
from engine.fantasy.wounding import Profile, armour_save_needed, resolve_hit, to_wound_needed

# The Warhammer Fantasy to-wound chart, typed in as players print it: row = Strength 1-10,
# column = Toughness 1-10, the D6 score needed ("-" = cannot wound).
CHART = """
S1   4 5 6 6 - - - - - -
S2   3 4 5 6 6 - - - - -
S3   2 3 4 5 6 6 - - - -
S4   2 2 3 4 5 6 6 - - -
S5   2 2 2 3 4 5 6 6 - -
S6   2 2 2 2 3 4 5 6 6 -
S7   2 2 2 2 2 3 4 5 6 6
S8   2 2 2 2 2 2 3 4 5 6
S9   2 2 2 2 2 2 2 3 4 5
S10  2 2 2 2 2 2 2 2 3 4
"""


def _chart() -> dict[tuple[int, int], int | None]:
    out = {}
    for line in CHART.strip().splitlines():
        label, *cells = line.split()
        s = int(label[1:])
        for t, cell in enumerate(cells, 1):
            out[s, t] = None if cell == "-" else int(cell)
    return out


WOUND_CHART = _chart()


def test_the_typed_chart_has_all_hundred_pairs():
    assert sorted(WOUND_CHART) == [(s, t) for s in range(1, 11) for t in range(1, 11)]


@pytest.mark.parametrize(("strength", "toughness"), sorted(WOUND_CHART))
def test_to_wound_chart(strength, toughness):
    assert to_wound_needed(strength, toughness) == WOUND_CHART[strength, toughness]


@pytest.mark.parametrize(
    ("save", "strength", "ap", "needed"),
    [
        (4, 1, 0, 4), (4, 3, 0, 4),  # no modifier up to Strength 3
        (4, 4, 0, 5), (4, 5, 0, 6), (4, 6, 0, None),  # -1 per point above 3
        (3, 6, 0, 6), (2, 7, 0, 6), (1, 8, 0, 6), (1, 9, 0, None),
        (4, 10, 0, None), (1, 10, 0, None),  # S10 (the cannon): -7, nothing survives it
        (1, 3, 0, 2), (1, 4, 0, 2), (1, 5, 0, 3),  # a 1 always fails: never better than 2+
        (6, 3, 0, 6), (6, 4, 0, None),
        (4, 3, 1, 5), (3, 4, 1, 5), (5, 3, 2, None),  # Armour Piercing on top of Strength
        (None, 3, 0, None), (None, 10, 0, None),
    ],
)
def test_armour_save_needed(save, strength, ap, needed):
    assert armour_save_needed(save, strength, ap) == needed


def hit(faces, no_dice, *, strength=3, profile, multiple_wounds=None, ap=0):
    dice = EnteredDice(faces, no_dice)
    roll = resolve_hit(dice, strength=strength, profile=profile, multiple_wounds=multiple_wounds,
                       armour_piercing=ap, who="rank 1 file 2")
    dice.finish()  # every die given was used
    return roll


def test_a_hit_that_cannot_wound_rolls_nothing(no_dice):
    roll = hit("", no_dice, strength=3, profile=Profile(toughness=7))
    assert (roll.to_wound_needed, roll.to_wound, roll.wounded, roll.wounds, roll.slain) == (None, None, False, 0, False)


def test_failed_to_wound_roll_ends_the_sequence(no_dice):
    roll = hit("3", no_dice, profile=Profile(toughness=3, save=4, ward=4))
    assert roll.to_wound_needed == 4 and roll.to_wound.value == 3
    assert not roll.wounded and roll.save is None and roll.ward is None and roll.wounds == 0


def test_wound_on_the_needed_score_exactly(no_dice):
    roll = hit("6", no_dice, profile=Profile(toughness=6))  # S3 v T6 needs 6
    assert roll.wounded and roll.slain and roll.wounds == 1


def test_unarmoured_model_wounded_is_slain_without_a_save_roll(no_dice):
    roll = hit("4", no_dice, profile=Profile(toughness=3))
    assert roll.wounded and not roll.saved and roll.save_needed is None and roll.save is None
    assert (roll.wounds, roll.slain) == (1, True)


def test_armour_save_made(no_dice):
    roll = hit("4 4", no_dice, profile=Profile(toughness=3, save=4, ward=5))
    assert roll.save_needed == 4 and roll.save.value == 4
    assert roll.saved and roll.ward is None  # no ward roll once armour saved
    assert (roll.wounds, roll.slain) == (0, False)


def test_armour_save_worsened_by_strength(no_dice):
    roll = hit("4 5", no_dice, strength=5, profile=Profile(toughness=3, save=4))
    assert roll.save_needed == 6 and not roll.saved and roll.slain


def test_a_save_roll_of_one_always_fails(no_dice):
    roll = hit("4 1", no_dice, profile=Profile(toughness=3, save=1))
    assert roll.save_needed == 2 and not roll.saved and roll.slain


def test_ward_save_after_a_failed_armour_save(no_dice):
    roll = hit("4 3 5", no_dice, profile=Profile(toughness=3, save=4, ward=5))
    assert roll.save.value == 3 and roll.ward_needed == 5 and roll.ward.value == 5
    assert roll.saved and not roll.slain


def test_ward_save_failed(no_dice):
    roll = hit("4 3 4", no_dice, profile=Profile(toughness=3, save=4, ward=5))
    assert not roll.saved and roll.slain


def test_ward_save_is_not_worsened_by_strength(no_dice):
    # S10: no armour save left, but a 4+ ward still saves on a 4.
    roll = hit("2 4", no_dice, strength=10, profile=Profile(toughness=4, save=2, ward=4))
    assert roll.save_needed is None and roll.save is None
    assert roll.ward.value == 4 and roll.saved


@pytest.mark.parametrize(("die", "face", "wounds", "lost", "slain"), [
    (DieKind.D6, "2", 3, 2, False),
    (DieKind.D6, "3", 3, 3, True),
    (DieKind.D6, "6", 3, 3, True),  # capped at the model's Wounds
    (DieKind.D6, "6", 6, 6, True),
    (DieKind.D3, "3", 2, 2, True),
    (DieKind.D3, "1", 4, 1, False),
])
def test_multiple_wounds_multiply_an_unsaved_wound_capped_at_the_models_wounds(no_dice, die, face, wounds, lost, slain):
    roll = hit(f"2 {face}", no_dice, strength=10, profile=Profile(toughness=4, wounds=wounds), multiple_wounds=die)
    assert roll.multiple_wounds.kind is die and roll.multiple_wounds.face == face
    assert (roll.wounds, roll.slain) == (lost, slain)


def test_multiple_wounds_are_not_rolled_for_a_one_wound_model(no_dice):
    roll = hit("2", no_dice, strength=10, profile=Profile(toughness=3), multiple_wounds=DieKind.D6)
    assert roll.multiple_wounds is None and (roll.wounds, roll.slain) == (1, True)


def test_without_multiple_wounds_an_unsaved_wound_is_one_wound(no_dice):
    roll = hit("2", no_dice, strength=10, profile=Profile(toughness=3, wounds=3))
    assert roll.multiple_wounds is None and (roll.wounds, roll.slain) == (1, False)


def test_multiple_wounds_are_not_rolled_for_a_saved_wound(no_dice):
    roll = hit("4 6", no_dice, profile=Profile(toughness=3, wounds=3, ward=6), multiple_wounds=DieKind.D6)
    assert roll.saved and roll.multiple_wounds is None and roll.wounds == 0


def test_dice_are_rolled_in_the_books_order_with_their_purposes(no_dice):
    roll = hit("4 3 2 6", no_dice, strength=4, profile=Profile(toughness=3, wounds=4, save=3, ward=4),
               multiple_wounds=DieKind.D6)
    dice = [roll.to_wound, roll.save, roll.ward, roll.multiple_wounds]
    assert [d.face for d in dice] == ["4", "3", "2", "6"]
    assert [d.kind for d in dice] == [DieKind.D6] * 4
    assert [d.purpose for d in dice] == [
        "to wound rank 1 file 2", "armour save rank 1 file 2", "ward save rank 1 file 2",
        "Multiple Wounds (D6) rank 1 file 2",
    ]
    assert all(d.by is Roller.PLAYER for d in dice)
    assert roll.save_needed == 4 and (roll.wounds, roll.slain) == (4, True)


def test_a_multiple_wounds_d3_refuses_a_four(no_dice):
    with pytest.raises(RulesError, match="D3 rolled for Multiple Wounds"):
        hit("2 4", no_dice, strength=10, profile=Profile(toughness=3, wounds=3), multiple_wounds=DieKind.D3)


@pytest.mark.parametrize(("kwargs", "quoted"), [
    ({"toughness": 0}, "Toughness 0"), ({"toughness": 11}, "Toughness 11"),
    ({"toughness": 3, "wounds": 0}, "Wounds 0"), ({"toughness": 3, "wounds": 21}, "Wounds 21"),
    ({"toughness": 3, "save": 0}, "Armour save 0+"), ({"toughness": 3, "save": 7}, "Armour save 7+"),
    ({"toughness": 3, "ward": 1}, "Ward save 1+"), ({"toughness": 3, "ward": 7}, "Ward save 7+"),
])
def test_impossible_profile_values_are_rules_errors_quoting_the_value(kwargs, quoted):
    with pytest.raises(RulesError, match=quoted.replace("+", r"\+")):
        Profile(**kwargs)


def test_profile_extremes_are_accepted():
    Profile(toughness=1, wounds=1, save=1, ward=2)
    Profile(toughness=10, wounds=20, save=6, ward=6)


def test_profile_describe():
    assert Profile(toughness=4, wounds=3, save=5, ward=6).describe() == "T4 W3 Sv 5+ ward 6+"
    assert Profile(toughness=3).describe() == "T3 W1 no save"
