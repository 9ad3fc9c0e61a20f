"""Armour penetration and the damage tables (engine/wh40k/penetration.py, damage.py) with entered
dice: every variant, every table row, every modifier and piece of fine print, and the rulebook's
worked example (a lascannon against a Predator's front armour)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from config.gamedata import wh40k
from engine.dice import EnteredDice, RandomDice, Roller
from engine.errors import DiceError, RulesError
from engine.wh40k.penetration import HitResult, penetrate
from engine.wh40k.vehicle import VehicleState
from tests.engine.replay import assert_replays

DATA = wh40k()
W = DATA.penetration
TABLES = DATA.damage_tables


def hit(weapon="normal", armour=10, dice="", strength=None, off_centre=False, seed=0, **vehicle):
    if strength is None and W[weapon].strength is None:
        strength = 9
    return penetrate(W[weapon], armour, VehicleState(**vehicle), EnteredDice(dice, RandomDice(seed)), TABLES,
                     DATA.wounds, strength=strength, off_centre=off_centre)


def test_the_lascannon_against_the_predators_front_is_a_glancing_hit():
    # The book's example: lascannon S9, D6 roll 4, total 13 against the Predator's front armour 13.
    h = hit("normal", 13, "4 1", strength=9)
    p = h.penetration
    assert (p.roll, p.total, p.armour, p.result) == (4, 13, 13, HitResult.GLANCING)
    assert h.damage.table.key == "glancing" and h.damage.result == "crew shaken"


@pytest.mark.parametrize("roll, result", [(3, HitResult.NO_EFFECT), (4, HitResult.GLANCING), (5, HitResult.PENETRATING)])
def test_lower_bounces_equal_glances_higher_penetrates(roll, result):
    h = hit("normal", 13, f"{roll} 1" if roll > 3 else "3", strength=9)
    assert h.penetration.result is result
    assert (h.damage is None) == (result is HitResult.NO_EFFECT)


def test_ordnance_keeps_the_highest_of_two_dice_and_rolls_on_the_ordnance_table():
    h = hit("ordnance", 12, "2 5 1", strength=8)
    assert h.penetration.roll == 5 and h.penetration.total == 13
    assert h.damage.table.key == "ordnance" and h.damage.result == "crew stunned"


def test_an_ordnance_glancing_hit_rolls_on_the_glancing_table():
    h = hit("ordnance", 12, "4 1 3", strength=8)
    assert h.penetration.result is HitResult.GLANCING and h.damage.table.key == "glancing"


def test_a_monstrous_creature_adds_two_dice():
    h = hit("monstrous", 14, "3 4", strength=6)
    assert h.penetration.roll == 7 and h.penetration.total == 13
    assert h.penetration.result is HitResult.NO_EFFECT and h.damage is None


def test_a_melta_bomb_is_eight_plus_two_dice():
    h = hit("melta-bomb", 14, "3 4 2")
    assert (h.penetration.strength, h.penetration.roll, h.penetration.total) == (8, 7, 15)
    assert h.damage.table.key == "penetrating" and h.damage.result == "armament destroyed"


def test_a_krak_grenade_is_six_plus_one_die():
    h = hit("krak", 10, "4 1")
    assert (h.penetration.strength, h.penetration.total, h.penetration.result) == (6, 10, HitResult.GLANCING)


def test_a_blast_off_the_vehicle_halves_strength_rounding_up():
    h = hit("ordnance", 10, "5 1 1", strength=9, off_centre=True)
    assert h.penetration.effective_strength == 5 and h.penetration.total == 10
    assert h.penetration.result is HitResult.GLANCING


@pytest.mark.parametrize("flag", ["skimmer_fast", "hull_down", "smoke"])
def test_obscured_vehicles_count_penetrating_hits_as_glancing(flag):
    h = hit("normal", 10, "6 3", strength=9, **{flag: True})
    assert h.penetration.result is HitResult.PENETRATING and h.penetration.counts_as is HitResult.GLANCING
    assert h.damage.table.key == "glancing" and h.damage.result == "crew stunned"


def test_an_obscured_ordnance_hit_goes_to_the_glancing_table():
    h = hit("ordnance", 10, "6 6 6", strength=9, hull_down=True)
    assert h.damage.table.key == "glancing" and h.damage.result == "vehicle destroyed"


GLANCING = [(1, "crew shaken"), (2, "crew shaken"), (3, "crew stunned"), (4, "armament destroyed"),
            (5, "immobilised"), (6, "vehicle destroyed")]
PENETRATING = [(1, "crew stunned"), (2, "armament destroyed"), (3, "immobilised"), (4, "vehicle destroyed"),
               (5, "wreck slews"), (6, "vehicle explodes")]
ORDNANCE = [(1, "crew stunned"), (2, "armament destroyed"), (3, "immobilised"), (4, "wreck slews"),
            (5, "vehicle explodes"), (6, "vehicle annihilated")]


@pytest.mark.parametrize("face, name", GLANCING)
def test_every_glancing_row(face, name):
    h = hit("normal", 13, f"4 {face}", strength=9, seed=1)
    assert h.damage.table.key == "glancing" and h.damage.result == name and h.damage.roll == face
    assert h.damage.destroyed == (name == "vehicle destroyed")


@pytest.mark.parametrize("face, name", PENETRATING)
def test_every_penetrating_row(face, name):
    h = hit("normal", 10, f"6 {face}", strength=9, seed=1)
    assert h.damage.table.key == "penetrating" and h.damage.result == name
    assert h.damage.destroyed == (face >= 4)


@pytest.mark.parametrize("face, name", ORDNANCE)
def test_every_ordnance_row(face, name):
    h = hit("ordnance", 10, f"6 6 {face}", strength=9, seed=1)
    assert h.damage.table.key == "ordnance" and h.damage.result == name
    assert h.damage.destroyed == (face >= 4)


def test_open_topped_adds_one_to_the_damage_roll_and_seven_reads_the_last_row():
    h = hit("normal", 13, "4 6", strength=9, open_topped=True)
    assert (h.damage.die.value, h.damage.modifier, h.damage.roll, h.damage.result) == (6, 1, 7, "vehicle destroyed")
    h = hit("normal", 13, "4 2", strength=9, open_topped=True)
    assert h.damage.roll == 3 and h.damage.result == "crew stunned"


def test_armament_with_no_main_weapon_left_stuns_the_crew_as_well():
    h = hit("normal", 13, "4 4", strength=9, main_weapons=False)
    assert h.damage.result == "armament destroyed" and h.damage.also == ("crew stunned",)
    assert hit("normal", 13, "4 4", strength=9).damage.also == ()


def test_a_glancing_immobilised_on_an_immobilised_vehicle_is_crew_stunned():
    h = hit("normal", 13, "4 5", strength=9, immobilised=True)
    assert h.damage.result == "immobilised" and h.damage.counts_as == "crew stunned" and not h.damage.destroyed


def test_a_penetrating_immobilised_on_an_immobilised_vehicle_has_no_further_effect():
    h = hit("normal", 10, "6 3", strength=9, immobilised=True)
    assert h.damage.counts_as is None and any("Already immobilised" in n for n in h.damage.notes)


@pytest.mark.parametrize("weapon, dice", [("normal", "6 3"), ("ordnance", "6 6 3")])
def test_a_fast_skimmer_immobilised_crashes_and_is_destroyed(weapon, dice):
    # A fast skimmer counts penetrating hits as glancing: the glancing 5 immobilises it.
    h = hit(weapon, 13, "4 5" if weapon == "normal" else "4 1 5", strength=9, skimmer_fast=True, passengers=2)
    assert h.damage.result == "immobilised" and h.damage.counts_as == "vehicle destroyed" and h.damage.destroyed
    assert len(h.damage.passengers.tests) == 2


def test_stuns_do_not_add_up():
    h = hit("normal", 13, "4 3", strength=9, stunned=True)
    assert any("do not add up" in n for n in h.damage.notes)


def test_a_slewing_wreck_moves_d6_by_the_scatter_die_or_flips_on_a_hit():
    h = hit("normal", 10, "6 5 @90 4", strength=9)
    assert (h.damage.flipped, h.damage.slew, h.damage.wreck_scatter.direction) == (False, 4.0, 90)
    h = hit("normal", 10, "6 5 H", strength=9)
    assert h.damage.flipped and h.damage.slew == 0.0 and h.damage.wreck_die is None


def test_an_explosion_wounds_models_in_reach_on_a_four_with_saves():
    # D6 reach 3: the models at 1" and 3" are in reach, the one at 5" is not; nearest first.
    h = hit("normal", 10, "6 6 3 4 2 6 5", strength=9, nearby=(5.0, 3.0, 1.0), nearby_save=3)
    d = h.damage
    assert d.radius == 3 and [t.distance for t in d.debris] == [1.0, 3.0]
    first, second = d.debris
    assert first.wounded and first.save.value == 2 and first.unsaved
    assert second.wounded and second.saved


def test_annihilation_reaches_six_inches_and_kills_every_passenger():
    h = hit("ordnance", 10, "6 6 6 1", strength=9, nearby=(6.0, 6.5), passengers=5)
    d = h.damage
    assert d.radius == 6 and d.radius_die is None and [t.distance for t in d.debris] == [6.0]
    assert d.passengers.killed_all and d.passengers.unsaved == 5 and not d.passengers.tests


def test_passengers_of_a_destroyed_vehicle_are_wounded_on_a_four_and_pinned():
    h = hit("normal", 10, "6 4 3 4 5", strength=9, passengers=2, passenger_save=5)
    p = h.damage.passengers
    assert [t.wounded for t in p.tests] == [False, True] and p.tests[1].saved and p.pinned and p.unsaved == 0


@pytest.mark.parametrize("dice, out", [("6 2", True), ("6 3", True), ("6 1", False), ("4 4", False)])
def test_passengers_must_get_out_after_penetrating_armament_or_immobilised(dice, out):
    h = hit("normal", 10 if dice.startswith("6") else 13, dice, strength=9, passengers=4)
    assert h.damage.passengers.must_get_out is out and not h.damage.passengers.tests


@pytest.mark.parametrize("kwargs, message", [
    (dict(weapon="normal", strength=None), "needs its Strength"),
    (dict(weapon="krak", strength=5), "always Strength 6"),
    (dict(weapon="melta-bomb", off_centre=True), "not a blast"),
    (dict(armour=15), "Armour 15"),
    (dict(strength=11), "Strength 11"),
])
def test_bad_input_is_a_rules_error_quoting_it(kwargs, message):
    weapon = kwargs.pop("weapon", "normal")
    armour = kwargs.pop("armour", 12)
    strength = kwargs.pop("strength", 9 if W[weapon].strength is None else None)
    with pytest.raises(RulesError, match=message):
        penetrate(W[weapon], armour, VehicleState(), RandomDice(1), TABLES, DATA.wounds, strength=strength, **kwargs)


def test_dice_left_over_are_an_error():
    with pytest.raises(DiceError, match="left over"):
        hit("normal", 14, "1 1 1", strength=9)


@settings(max_examples=150, deadline=None)
@given(
    weapon=st.sampled_from(sorted(W)), armour=st.integers(10, 14), strength=st.integers(1, 10),
    seed=st.integers(0, 2**32), open_topped=st.booleans(), fast=st.booleans(), hull=st.booleans(),
    immobilised=st.booleans(), passengers=st.integers(0, 10), nearby=st.lists(st.floats(0, 12), max_size=5),
)
def test_any_hit_keeps_the_invariants(weapon, armour, strength, seed, open_topped, fast, hull, immobilised, passengers, nearby):
    s = None if W[weapon].strength is not None else strength
    v = VehicleState(open_topped=open_topped, skimmer_fast=fast, hull_down=hull, immobilised=immobilised,
                     passengers=passengers, nearby=tuple(nearby))
    h = penetrate(W[weapon], armour, v, RandomDice(seed), TABLES, DATA.wounds, strength=s)
    p = h.penetration
    assert p.total == p.effective_strength + p.roll and all(d.by is Roller.BOT for d in h.dice)
    assert (p.total < armour) == (p.result is HitResult.NO_EFFECT)
    if fast or hull:
        assert p.counts_as is not HitResult.PENETRATING
    if h.damage is not None:
        d = h.damage
        assert d.roll == d.die.value + (1 if open_topped else 0)
        assert d.table.row(d.roll) == d.row
        if d.radius is not None:
            assert all(t.distance <= d.radius for t in d.debris)
        if d.passengers is not None and d.passengers.killed_all:
            assert d.result == "vehicle annihilated"
    # Replaying the bot's faces by hand gives the same record.
    again = penetrate(W[weapon], armour, v, EnteredDice([x.face for x in h.dice], RandomDice(0)), TABLES, DATA.wounds, strength=s)
    assert again.penetration.total == p.total and again.table == h.table
    assert (again.damage and again.damage.result) == (h.damage and h.damage.result)
    assert [x.face for x in again.dice] == [x.face for x in h.dice]


@settings(max_examples=100, deadline=None)
@given(strength=st.integers(-5, 20), armour=st.integers(0, 25))
def test_any_impossible_strength_or_armour_is_a_rules_error(strength, armour):
    if 1 <= strength <= 10 and 10 <= armour <= 14:
        return
    with pytest.raises(RulesError):
        penetrate(W["normal"], armour, VehicleState(), RandomDice(0), TABLES, DATA.wounds, strength=strength)


@settings(max_examples=60, deadline=None)
@given(weapon=st.sampled_from(sorted(W)), armour=st.integers(10, 14), seed=st.integers(0, 2**32),
       open_topped=st.booleans(), passengers=st.integers(0, 6), nearby=st.lists(st.floats(0, 12), max_size=4))
def test_any_hit_replays_from_the_bots_faces(weapon, armour, seed, open_topped, passengers, nearby):
    s = None if W[weapon].strength is not None else 8
    v = VehicleState(open_topped=open_topped, passengers=passengers, nearby=tuple(nearby), nearby_save=4 if nearby else None)
    assert_replays(lambda dice: penetrate(W[weapon], armour, v, dice, TABLES, DATA.wounds, strength=s), seed)
