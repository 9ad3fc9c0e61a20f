"""Infantry assaulting vehicles, Tank Shock, difficult terrain and the moving-and-firing summary
(engine/wh40k/assault.py, tank_shock.py, terrain.py, firing.py) with entered dice."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from config.gamedata import wh40k
from engine.dice import EnteredDice, RandomDice
from engine.errors import RulesError
from engine.wh40k.assault import Movement, assault_vehicle
from engine.wh40k.firing import may_fire
from engine.wh40k.penetration import HitResult
from engine.wh40k.tank_shock import tank_shock
from engine.wh40k.terrain import Mover, difficult_terrain_test
from engine.wh40k.vehicle import VehicleState
from tests.engine.replay import assert_replays

DATA = wh40k()
W = DATA.penetration


def assault(weapon="normal", attacks=3, armour=10, movement=Movement.STATIONARY, dice="", strength=None, seed=0,
            state=VehicleState(), **kwargs):
    return assault_vehicle(W[weapon], attacks, armour, movement, state, EnteredDice(dice, RandomDice(seed)),
                           DATA.damage_tables, DATA.wounds, strength=strength, **kwargs)


def test_a_stationary_vehicle_is_hit_automatically():
    a = assault(attacks=2, strength=4, dice="6 1 5")  # S4+6 = 10: glancing, shaken; S4+5: no effect
    assert a.needed is None and a.to_hit == () and a.hits == 2
    assert [h.penetration.result for h in a.results] == [HitResult.GLANCING, HitResult.NO_EFFECT]


@pytest.mark.parametrize("movement, needed", [(Movement.SLOW, 4), (Movement.FAST, 6)])
def test_a_moving_vehicle_is_hit_on_a_four_or_a_six(movement, needed):
    a = assault(attacks=3, strength=3, movement=movement, dice="3 4 6 1 1" if needed == 4 else "5 6 2 1")
    assert a.needed == needed and a.hits == (2 if needed == 4 else 1)


def test_a_skimmer_is_hit_only_on_a_six_unless_immobilised():
    assert assault(strength=3, skimmer=True, dice="5 5 5").needed == 6
    a = assault(strength=3, skimmer=True, state=VehicleState(immobilised=True), dice="1 1 1")
    assert a.needed is None and a.hits == 3


def test_a_fast_skimmer_counts_penetrating_hits_as_glancing():
    a = assault(attacks=1, strength=9, skimmer=True, movement=Movement.FAST, dice="6 6 1")
    assert a.results[0].penetration.counts_as is HitResult.GLANCING


def test_krak_grenades_and_melta_bombs():
    a = assault("krak", attacks=1, armour=11, dice="6 3")
    assert a.results[0].penetration.total == 12 and a.results[0].damage.table.key == "penetrating"
    a = assault("melta-bomb", attacks=1, armour=14, dice="3 4 4")
    assert a.results[0].penetration.total == 15 and a.results[0].damage.result == "vehicle destroyed"


def test_grenades_hit_a_mobile_walker_only_on_a_six_and_an_immobilised_one_normally():
    assert assault("krak", attacks=2, walker=True, dice="5 4").needed == 6
    a = assault("krak", attacks=1, walker=True, state=VehicleState(immobilised=True), dice="1")
    assert a.needed is None and a.hits == 1


def test_other_attacks_on_a_walker_are_close_combat_not_this_command():
    with pytest.raises(RulesError, match="Weapon Skill"):
        assault(strength=4, walker=True)


def test_hits_after_the_vehicle_is_destroyed_are_not_rolled_and_state_carries():
    a = assault(attacks=3, strength=9, dice="6 4")  # penetrating, vehicle destroyed on the first hit
    assert a.destroyed and len(a.results) == 1 and a.hits == 3
    a = assault(attacks=2, strength=9, dice="6 3 6 3")  # immobilised, then already immobilised
    assert a.results[1].vehicle.immobilised and a.results[1].damage.counts_as is None


def test_tank_shock_failed_falls_back_two_d6():
    t = tank_shock(7, EnteredDice("4 4 2 5", RandomDice(0)), DATA.damage_tables, DATA.wounds)
    assert not t.passed and t.fall_back_distance == 7 and t.death_or_glory is None


def test_tank_shock_passed_on_the_leadership_or_less():
    t = tank_shock(7, EnteredDice("3 4", RandomDice(0)), DATA.damage_tables, DATA.wounds)
    assert t.passed and t.fall_back == ()


@pytest.mark.parametrize("dice, stopped", [("1 1 6 5", True), ("1 1 6 6", True), ("1 1 6 3", False), ("1 1 1", False)])
def test_death_or_glory_kills_the_hero_unless_the_tank_is_destroyed_or_immobilised(dice, stopped):
    t = tank_shock(8, EnteredDice(dice, RandomDice(0)), DATA.damage_tables, DATA.wounds, hero=W["krak"], front_armour=12)
    assert t.tank_stopped is stopped and t.hero_killed is not stopped
    assert t.death_or_glory.penetration.armour == 12


def test_death_or_glory_needs_the_front_armour():
    with pytest.raises(RulesError, match="front"):
        tank_shock(8, RandomDice(0), DATA.damage_tables, DATA.wounds, hero=W["krak"])


@pytest.mark.parametrize("mover, hazardous, fast, roll, immobilised, crashed", [
    (Mover.VEHICLE, False, False, 1, True, False), (Mover.VEHICLE, False, False, 2, False, False),
    (Mover.VEHICLE, True, False, 3, True, False), (Mover.VEHICLE, True, False, 4, False, False),
    (Mover.SKIMMER, False, True, 1, True, True), (Mover.SKIMMER, False, False, 1, True, False),
])
def test_difficult_terrain(mover, hazardous, fast, roll, immobilised, crashed):
    t = difficult_terrain_test(mover, EnteredDice(str(roll), RandomDice(0)), hazardous=hazardous, fast=fast)
    assert (t.immobilised, t.crashed) == (immobilised, crashed)


def test_a_walker_moves_the_highest_of_two_d6():
    t = difficult_terrain_test(Mover.WALKER, EnteredDice("2 5", RandomDice(0)))
    assert t.walker_move == 5 and not t.immobilised


@pytest.mark.parametrize("kind, moved, weapons", [
    ("normal", 0, "all weapons"), ("normal", 6, "all defensive weapons and 1 main weapon"), ("normal", 6.5, "no weapons"),
    ("fast", 6, "all weapons"), ("fast", 12, "all defensive weapons and 1 main weapon"), ("fast", 13, "no weapons"),
    ("walker", 0, "all weapons"), ("walker", 4, "2 weapons (one per side or arm)"),
])
def test_the_moving_and_firing_summary(kind, moved, weapons):
    assert may_fire(DATA.firing, kind, moved).weapons == weapons


def test_a_vehicle_cannot_have_moved_beyond_its_move_even_on_a_road():
    # Issue 16: a normal vehicle moving 14" did so along a road (+6"): it fires no weapons
    # (tests/engine/wh40k/test_wh40k_fidelity.py); beyond 18" it cannot have moved at all.
    with pytest.raises(RulesError, match="at most 18"):
        may_fire(DATA.firing, "normal", 18.5)


@settings(max_examples=100, deadline=None)
@given(weapon=st.sampled_from(["normal", "monstrous", "krak", "melta-bomb"]), attacks=st.integers(1, 20),
       armour=st.integers(10, 14), movement=st.sampled_from(list(Movement)), skimmer=st.booleans(),
       seed=st.integers(0, 2**32))
def test_any_assault_keeps_the_invariants(weapon, attacks, armour, movement, skimmer, seed):
    s = None if W[weapon].strength is not None else 5
    a = assault_vehicle(W[weapon], attacks, armour, movement, VehicleState(), RandomDice(seed), DATA.damage_tables,
                        DATA.wounds, strength=s, skimmer=skimmer)
    assert a.hits == (attacks if a.needed is None else sum(d.value >= a.needed for d in a.to_hit))
    assert len(a.results) <= a.hits
    assert len(a.results) == a.hits or a.results[-1].damage.destroyed
    if skimmer:
        assert a.needed == 6


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), movement=st.sampled_from(list(Movement)), attacks=st.integers(1, 8),
       leadership=st.integers(2, 10))
def test_assaults_and_tank_shock_replay_from_the_bots_faces(seed, movement, attacks, leadership):
    assert_replays(lambda dice: assault_vehicle(W["normal"], attacks, 11, movement, VehicleState(passengers=3), dice,
                                                DATA.damage_tables, DATA.wounds, strength=6), seed)
    assert_replays(lambda dice: tank_shock(leadership, dice, DATA.damage_tables, DATA.wounds, hero=W["krak"],
                                           front_armour=11), seed)
    assert_replays(lambda dice: difficult_terrain_test(Mover.WALKER, dice), seed)
