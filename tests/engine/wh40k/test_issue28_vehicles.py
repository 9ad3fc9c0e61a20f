"""Issue 28, Warhammer 40,000: the state a vehicle is in carries from hit to hit, the slow skimmer
that lands, and options that would be silently ignored.

Seed lines (004_*.txt): a template or Blast marker hits an open-topped vehicle twice (004:394); an
immobilised result on an immobilised vehicle is crew stunned instead (004:409); an immobilised
skimmer moving slowly makes a controlled landing and may not move again (004:128-130, 004:416), and
is then hit in an assault by the distance it moved, not only on a 6 (004:494); a skimmer with stunned
crew drifts (004:386), while a penetrating "armament destroyed" rocks the vehicle without naming its
crew stunned (004:427).
"""

from __future__ import annotations

import pytest

from config.gamedata import wh40k
from engine.dice import EnteredDice, RandomDice
from engine.errors import RulesError
from engine.wh40k.assault import Movement, assault_vehicle
from engine.wh40k.damage import damage_roll
from engine.wh40k.ordnance import fire_ordnance
from engine.wh40k.penetration import penetrate
from engine.wh40k.squad import VehicleTarget
from engine.wh40k.tank_shock import tank_shock
from engine.wh40k.vehicle import VehicleState

DATA = wh40k()
W, TABLES = DATA.penetration, DATA.damage_tables


def ordnance(dice, state):
    return fire_ordnance(DATA.blast_markers["large"], W["ordnance"], TABLES, DATA.wounds, EnteredDice(dice, RandomDice(0)),
                         strength=8, distance=30, vehicle=VehicleTarget(13, 11, 10), vehicle_state=state,
                         pinning_modifier=DATA.pinning_modifier)


# Item 2. 004:394 two hits on an open-topped vehicle; 004:409 "already immobilised": crew stunned.

def test_a_blast_on_an_open_topped_vehicle_finds_it_immobilised_the_second_time():
    # on target; each hit S8 + 2D6 (highest 5) = 13 against front 13: glancing; D6 4 +1 open-topped = 5
    shot = ordnance("H 1 5 2 4 5 2 4", VehicleState(open_topped=True))
    first, second = shot.vehicle_hits
    assert first.damage.result == "immobilised" and first.damage.counts_as is None
    assert second.vehicle.immobilised and second.damage.counts_as == "crew stunned"
    assert second.after.immobilised and second.after.stunned


def test_the_state_after_a_blast_that_made_the_passengers_get_out_has_none_aboard():
    # first hit penetrating (S8 + 6 = 14 > 13), ordnance table 2 +1 = 3: immobilised, everyone out;
    # the second hit finds nobody aboard
    shot = ordnance("H 1 6 1 2 6 1 1", VehicleState(open_topped=True, passengers=5))
    first, second = shot.vehicle_hits
    assert first.damage.passengers.must_get_out and first.after.passengers == 0
    assert second.vehicle.passengers == 0 and second.damage.passengers is None


# Item 5. 004:128-130, 004:416: the slow skimmer lands; 004:494: no longer hit only on 6s.

def test_an_immobilised_slow_skimmer_lands_and_its_state_says_so():
    hit = penetrate(W["normal"], 10, VehicleState(skimmer=True), EnteredDice("5 3", RandomDice(0)), TABLES, DATA.wounds,
                    strength=6)
    assert hit.damage.result == "immobilised" and hit.damage.landed and not hit.damage.destroyed
    assert any("lands where it is" in n for n in hit.damage.notes)
    assert hit.after.immobilised and hit.after.skimmer
    fast = penetrate(W["normal"], 10, VehicleState(skimmer_fast=True), EnteredDice("5 5", RandomDice(0)), TABLES,
                     DATA.wounds, strength=6)
    assert not fast.damage.landed  # a fast skimmer's penetration glances: a glancing 5 crashes it
    assert fast.damage.counts_as == "vehicle destroyed"


def test_a_landed_skimmer_is_hit_by_how_far_it_moved_in_the_next_assault():
    # first assault: a slow skimmer is hit only on 6s; the hit immobilises it and it lands
    first = assault_vehicle(W["normal"], 1, 10, Movement.SLOW, VehicleState(), EnteredDice("6 5 3", RandomDice(0)),
                            TABLES, DATA.wounds, strength=6, skimmer=True)
    assert first.needed == 6 and first.results[0].damage.landed
    after = first.results[0].after
    again = assault_vehicle(W["normal"], 1, 10, Movement.SLOW, after, EnteredDice("4 1", RandomDice(0)), TABLES,
                            DATA.wounds, strength=6, skimmer=True)
    assert again.needed == 4 and again.hits == 1


def test_damage_roll_on_its_own_lands_a_slow_skimmer():
    roll = damage_roll(TABLES["glancing"], VehicleState(skimmer=True), EnteredDice("5", RandomDice(0)), DATA.wounds)
    assert roll.damage.landed and roll.after.immobilised


# Item 9. 004:386 drift belongs to stunned crew; 004:427 armament destroyed does not stun the crew.

def test_a_skimmer_drifts_after_crew_stunned_but_not_after_armament_destroyed():
    stunned = penetrate(W["normal"], 10, VehicleState(skimmer=True), EnteredDice("5 1", RandomDice(0)), TABLES,
                        DATA.wounds, strength=6)
    assert stunned.damage.crew_stunned and any("drifts" in n for n in stunned.damage.notes)
    rocked = penetrate(W["normal"], 10, VehicleState(skimmer=True), EnteredDice("5 2", RandomDice(0)), TABLES,
                       DATA.wounds, strength=6)
    assert rocked.damage.result == "armament destroyed" and not rocked.damage.crew_stunned
    assert not any("drifts" in n for n in rocked.damage.notes)
    assert rocked.after.stunned  # it still may not move or shoot next turn, as the next hit finds it


def test_an_assault_takes_the_passengers_out_once():
    # two hits: penetrating armament destroyed (passengers out), then penetrating destroyed
    a = assault_vehicle(W["normal"], 2, 10, Movement.STATIONARY, VehicleState(passengers=4),
                        EnteredDice("5 2 5 4", RandomDice(0)), TABLES, DATA.wounds, strength=6)
    first, second = a.results
    assert first.damage.passengers.must_get_out
    assert second.damage.destroyed and second.damage.passengers is None


def test_options_that_would_be_ignored_are_refused():
    with pytest.raises(RulesError, match="Strength 6 is for a Death or Glory attack: give hero"):
        tank_shock(7, EnteredDice("3 3", RandomDice(0)), TABLES, DATA.wounds, strength=6)
    with pytest.raises(RulesError, match="Front 12 is for a Death or Glory"):
        tank_shock(7, EnteredDice("3 3", RandomDice(0)), TABLES, DATA.wounds, front_armour=12)
    with pytest.raises(RulesError, match="Passenger save 4\\+ with no passengers aboard: give passengers"):
        VehicleState(passenger_save=4)
    with pytest.raises(RulesError, match="Nearby save 5\\+ with no models nearby"):
        VehicleState(nearby_save=5)


# T28 (independent check). 004:128-130 "An immobilised skimmer travelling slowly makes a controlled
# landing and may not move again in the game"; 004:416 "If Immobilised while moving 6" or less the
# skimmer lands in its current position": a landed skimmer whose crew are then stunned (004:386) does
# not drift; a skimmer still flying does.

def test_a_landed_skimmer_with_stunned_crew_does_not_drift():
    landed = VehicleState(skimmer=True, immobilised=True)
    for table, die in (("glancing", "3"), ("glancing", "5"), ("penetrating", "1")):  # stunned; immobilised again
        roll = damage_roll(TABLES[table], landed, EnteredDice(die, RandomDice(0)), DATA.wounds)
        assert roll.damage.crew_stunned
        assert not any("drifts D6" in n for n in roll.damage.notes), roll.damage.notes
        assert any("does not drift" in n for n in roll.damage.notes)
    flying = damage_roll(TABLES["glancing"], VehicleState(skimmer=True), EnteredDice("3", RandomDice(0)), DATA.wounds)
    assert any("drifts D6" in n for n in flying.damage.notes)
    # a blast's second hit on an open-topped vehicle the first immobilised: no "if it is a skimmer, it drifts"
    shot = ordnance("H 1 5 2 4 5 2 4", VehicleState(open_topped=True))
    assert not any("drifts" in n for n in shot.vehicle_hits[1].damage.notes)
