"""Close combat and the special rules of seed 003 that change its rolls, and seed 000's War
Machines in Close Combat, with entered dice: one test per branch."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.gamedata import fantasy
from engine.dice import DieKind, EnteredDice, RandomDice
from engine.errors import RulesError
from engine.fantasy.close_combat import (
    CombatSide, Fighter, Reroll, Strikes, assault_party, breath_in_combat, combat_result, impact_hits, make_attacks,
    strike_order, to_hit_in_combat, war_machine_panic,
)
from engine.fantasy.special_rules import AttackRules, TargetRules
from engine.fantasy.wounding import Profile
from tests.engine.conftest import NoDice
from tests.engine.replay import assert_replays

TROOPS = fantasy().troops


def entered(faces):
    return EnteredDice(faces, NoDice())


# --- Strike order ------------------------------------------------------------------------------


def test_always_strikes_first_on_both_sides_goes_to_the_higher_initiative_who_re_rolls_failed_hits():
    order = strike_order(Fighter(6, Strikes.FIRST), Fighter(4, Strikes.FIRST))
    assert order.first == "attacker" and "both Always Strike First" in order.reason
    assert order.attacker_reroll is Reroll.FAILED and order.defender_reroll is Reroll.NONE


def test_always_strikes_first_on_both_sides_with_equal_initiative_strike_together_and_nobody_re_rolls():
    order = strike_order(Fighter(5, Strikes.FIRST), Fighter(5, Strikes.FIRST))
    assert order.first is None and order.attacker_reroll is order.defender_reroll is Reroll.NONE


def test_always_strikes_first_beats_a_higher_initiative_but_re_rolls_only_when_its_own_is_higher():
    order = strike_order(Fighter(3, Strikes.FIRST), Fighter(7))
    assert order.first == "attacker" and order.attacker_reroll is Reroll.NONE
    order = strike_order(Fighter(3), Fighter(5, Strikes.FIRST))
    assert order.first == "defender" and order.defender_reroll is Reroll.FAILED


def test_always_strikes_last_goes_after_a_lower_initiative_and_must_re_roll_hits_when_slower():
    order = strike_order(Fighter(6, Strikes.LAST), Fighter(2))
    assert order.first == "defender" and order.attacker_reroll is Reroll.NONE
    order = strike_order(Fighter(2, Strikes.LAST), Fighter(4))
    assert order.first == "defender" and order.attacker_reroll is Reroll.SUCCESSFUL


def test_always_strikes_last_on_both_sides_goes_by_initiative():
    order = strike_order(Fighter(2, Strikes.LAST), Fighter(4, Strikes.LAST))
    assert order.first == "defender" and order.attacker_reroll is Reroll.SUCCESSFUL


def test_first_against_last():
    order = strike_order(Fighter(1, Strikes.LAST), Fighter(1, Strikes.FIRST))
    assert order.first == "defender" and "Always Strikes First" in order.reason


def test_both_rules_on_one_model_cancel_and_it_uses_initiative():
    order = strike_order(Fighter(5, Strikes.BOTH), Fighter(3))
    assert order.first == "attacker" and order.attacker_reroll is Reroll.NONE
    assert any("cancel" in n for n in order.notes)
    order = strike_order(Fighter(3, Strikes.BOTH), Fighter(2, Strikes.FIRST))
    assert order.first == "defender"


def test_plain_initiative_order():
    assert strike_order(Fighter(3), Fighter(4)).first == "defender"
    assert strike_order(Fighter(4), Fighter(4)).first is None


@pytest.mark.parametrize("ws, enemy, needed", [(4, 3, 3), (3, 3, 4), (3, 6, 4), (3, 7, 5), (1, 3, 5), (10, 1, 3)])
def test_the_weapon_skill_chart(ws, enemy, needed):
    assert to_hit_in_combat(ws, enemy) == needed


# --- Attacks -------------------------------------------------------------------------------------

BASE = dict(weapon_skill=4, enemy_weapon_skill=4, strength=4, profile=Profile(4))


def test_attacks_hit_then_wound():
    r = make_attacks(entered("4 3 5"), attacks=2, **BASE)
    assert [b.hit for b in r.blows] == [True, False] and r.unsaved == 1 and r.slain == 1


def test_hatred_re_rolls_failed_hits_in_the_first_round():
    r = make_attacks(entered("2 5 4 4 4"), attacks=2, hatred=True, **BASE)
    first, second = r.blows
    assert first.reroll.value == 4 and first.hit and second.reroll is None and r.hits == 2
    assert "Hatred" in r.rules[0]


def test_the_strike_orders_re_roll_of_failed_hits():
    r = make_attacks(entered("1 6 1"), attacks=1, strike_reroll=Reroll.FAILED, **BASE)
    assert r.blows[0].reroll.value == 6 and r.hits == 1


def test_always_strikes_last_must_re_roll_successful_hits():
    r = make_attacks(entered("5 2 2"), attacks=2, strike_reroll=Reroll.SUCCESSFUL, **BASE)
    assert r.blows[0].reroll.value == 2 and not r.blows[0].hit and r.blows[1].reroll is None and r.hits == 0


def test_hatred_and_always_strikes_last_cancel():
    r = make_attacks(entered("5 4"), attacks=1, hatred=True, strike_reroll=Reroll.SUCCESSFUL, **BASE)
    assert r.blows[0].reroll is None and r.reroll is Reroll.NONE and any("neither" in x for x in r.rules)


def test_devastating_charge_adds_an_attack():
    r = make_attacks(entered("1 1 1"), attacks=2, devastating_charge=True, **BASE)
    assert r.attacks == 3 and len(r.blows) == 3


def test_charging_a_war_machine_loses_devastating_charge():
    r = make_attacks(entered("1 1"), attacks=2, devastating_charge=True, against_war_machine=True, **BASE)
    assert r.attacks == 2 and any("lost" in x for x in r.rules)


def test_killing_blow_in_combat_slays_infantry():
    r = make_attacks(entered("4 6"), attacks=1, troop=TROOPS["infantry"], attack=AttackRules(killing_blow=True),
                     weapon_skill=4, enemy_weapon_skill=4, strength=3, profile=Profile(4, 2, 2))
    assert r.wounds[0].killing_blow and r.wounds[0].slain and r.slain == 1


def test_dodge_is_lost_against_always_strikes_first_attacks():
    r = make_attacks(entered("4 4"), attacks=1, attack=AttackRules(always_strikes_first=True),
                     target_rules=TargetRules(dodge=4), **BASE)
    assert r.wounds[0].ward is None and r.unsaved == 1


# --- Impact Hits and breath weapons -----------------------------------------------------------------


def test_impact_hits_roll_their_number_and_wound_with_dodge_allowed():
    r = impact_hits(entered("3 4 1 6 5 2"), hits=DieKind.D6, strength=5, profile=Profile(4), target_rules=TargetRules(dodge=5))
    assert r.hits == 3 and r.unsaved == 1  # wounds on 4, 6 (1 fails); dodge 5 saves one, 2 fails


def test_impact_hits_are_lost_charging_a_war_machine():
    r = impact_hits(entered(""), hits=3, strength=5, profile=Profile(4), against_war_machine=True)
    assert r.hits == 0 and r.dice == ()


def test_a_breath_weapon_hits_no_model_twice():
    r = breath_in_combat(entered("6 5 2 2 2"), strength=4, models=3, profile=Profile(3))
    assert r.rolled_hits == 11 and r.hits == 3 and any("no model is hit twice" in x for x in r.rules)


def test_a_breath_weapon_used_before_may_be_out_of_breath():
    r = breath_in_combat(entered("3"), strength=4, models=10, profile=Profile(3), used_before=True)
    assert r.hits == 0 and r.out_of_breath.value == 3
    r = breath_in_combat(entered("4 1 1 2 2"), strength=4, models=10, profile=Profile(3), used_before=True)
    assert r.hits == 2


def test_a_flaming_breath_re_rolls_failed_wounds_on_flammable():
    # 2D6 1+1: two hits; to wound 1 and 4 (4+ needed), then the 1 re-rolled: 5.
    r = breath_in_combat(entered("1 1 1 4 5"), strength=3, models=10, profile=Profile(3),
                         breath_rules=AttackRules(flaming=True), target_rules=TargetRules(flammable=True))
    assert r.hits == 2 and [w.reroll.value if w.reroll else None for w in r.wounds] == [5, None]
    assert r.unsaved == 2


# --- Combat result ---------------------------------------------------------------------------------


def test_fear_adds_one():
    r = combat_result(entered(""), CombatSide(wounds=2, causes_fear=True), CombatSide(wounds=2))
    assert r.scores == (3, 2) and r.winner == "attacker"


def test_fear_with_double_the_unit_strength_adds_two():
    r = combat_result(entered(""), CombatSide(wounds=0, causes_fear=True, fear_double=True), CombatSide(wounds=1))
    assert r.scores == (2, 1)


def test_fear_is_ignored_by_a_fear_causing_enemy():
    r = combat_result(entered(""), CombatSide(wounds=1, causes_fear=True), CombatSide(wounds=1, immune_to_fear=True))
    assert r.scores == (1, 1) and r.winner is None


def test_a_war_machine_has_no_flank_or_rear_and_is_destroyed_when_it_breaks():
    r = combat_result(entered("5 4"), CombatSide(wounds=1, flank=True, rear=True), CombatSide(wounds=0, war_machine=True),
                      loser_leadership=7)
    assert r.scores == (1, 0) and r.break_test.needed == 6 and not r.break_test.passed
    assert "war machine is destroyed" in r.outcome


def test_a_winning_war_machine_never_pursues():
    r = combat_result(entered("1 1"), CombatSide(wounds=0), CombatSide(wounds=2, war_machine=True), loser_leadership=7)
    assert r.winner == "defender" and "never pursues" in r.outcome and r.break_test.passed


def test_flank_and_rear_count_against_a_unit():
    assert combat_result(entered(""), CombatSide(flank=True, rear=True), CombatSide()).scores == (3, 0)


@pytest.mark.parametrize("models, us, party", [(20, 1, 6), (4, 1, 4), (10, 2, 3), (5, 3, 2), (3, 5, 1), (1, 10, 1)])
def test_the_assault_party_is_unit_strength_six_and_never_fewer_than_one(models, us, party):
    assert assault_party(models, us) == party


def test_a_war_machine_failing_panic_dives_for_cover():
    r = war_machine_panic(entered("6 5"), 7)
    assert not r.test.passed and "cannot shoot" in r.outcome and "misfire" in r.outcome
    assert war_machine_panic(entered("3 4"), 7).test.passed


@pytest.mark.parametrize("call, message", [
    (lambda: to_hit_in_combat(0, 3), "Weapon Skill 0"),
    (lambda: Fighter(11), "Initiative 11"),
    (lambda: make_attacks(RandomDice(0), attacks=0, **BASE), "Attacks 0"),
    (lambda: CombatSide(ranks=4), "Rank bonus 4"),
    (lambda: combat_result(RandomDice(0), CombatSide(war_machine=True), CombatSide(war_machine=True)), "war machine"),
    (lambda: assault_party(0, 1), "Models 0"),
])
def test_bad_input_is_refused(call, message):
    with pytest.raises(RulesError, match=message):
        call()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(attacks=st.integers(1, 10), ws=st.integers(1, 10), enemy=st.integers(1, 10), s=st.integers(1, 10),
       t=st.integers(1, 10), hatred=st.booleans(), reroll=st.sampled_from(list(Reroll)), dc=st.booleans(),
       wm=st.booleans(), kb=st.booleans(), seed=st.integers(0, 2**32))
def test_any_attacks_keep_the_invariants_and_replay(attacks, ws, enemy, s, t, hatred, reroll, dc, wm, kb, seed):
    def fire(dice):
        return make_attacks(dice, attacks=attacks, weapon_skill=ws, enemy_weapon_skill=enemy, strength=s,
                            profile=Profile(t, 2, 4), troop=TROOPS["infantry"], attack=AttackRules(killing_blow=kb),
                            strike_reroll=reroll, hatred=hatred, devastating_charge=dc, against_war_machine=wm)

    r = fire(RandomDice(seed))
    assert r.attacks == attacks + (1 if dc and not wm else 0) == len(r.blows)
    for b in r.blows:
        final = (b.reroll or b.roll).value
        assert b.hit == (final >= r.to_hit)
        if b.reroll is not None:
            assert (r.reroll is Reroll.FAILED and b.roll.value < r.to_hit) or (r.reroll is Reroll.SUCCESSFUL and b.roll.value >= r.to_hit)
    assert len(r.wounds) == r.hits
    assert_replays(fire, seed)


@settings(max_examples=80, deadline=None)
@given(ia=st.integers(1, 10), id_=st.integers(1, 10), sa=st.sampled_from(list(Strikes)), sd=st.sampled_from(list(Strikes)))
def test_the_strike_order_is_symmetric(ia, id_, sa, sd):
    one, two = strike_order(Fighter(ia, sa), Fighter(id_, sd)), strike_order(Fighter(id_, sd), Fighter(ia, sa))
    swap = {"attacker": "defender", "defender": "attacker", None: None}
    assert swap[one.first] == two.first
    assert (one.attacker_reroll, one.defender_reroll) == (two.defender_reroll, two.attacker_reroll)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.one_of(st.integers(1, 10), st.sampled_from([DieKind.D3, DieKind.D6])), s=st.integers(1, 10),
       t=st.integers(1, 10), dodge=st.one_of(st.none(), st.integers(2, 6)), wm=st.booleans(), seed=st.integers(0, 2**32))
def test_any_impact_hits_replay(count, s, t, dodge, wm, seed):
    def fire(dice):
        return impact_hits(dice, hits=count, strength=s, profile=Profile(t, 1, 5), target_rules=TargetRules(dodge=dodge),
                           against_war_machine=wm)

    r = fire(RandomDice(seed))
    assert len(r.wounds) == r.hits and (r.hits == 0 if wm else r.hits >= 1)
    assert_replays(fire, seed)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models=st.integers(1, 20), s=st.integers(1, 10), t=st.integers(1, 10), used=st.booleans(),
       flaming=st.booleans(), seed=st.integers(0, 2**32))
def test_any_breath_in_combat_hits_no_model_twice_and_replays(models, s, t, used, flaming, seed):
    def fire(dice):
        return breath_in_combat(dice, strength=s, models=models, profile=Profile(t), used_before=used,
                                breath_rules=AttackRules(flaming=flaming), target_rules=TargetRules(flammable=True))

    r = fire(RandomDice(seed))
    assert r.hits <= models and len(r.wounds) == r.hits
    if r.out_of_breath is None or r.out_of_breath.value >= 4:
        assert 2 <= r.rolled_hits <= 12 and r.hits == min(models, r.rolled_hits)
    assert_replays(fire, seed)


@settings(max_examples=80, deadline=None)
@given(w=st.integers(0, 6), ew=st.integers(0, 6), fear=st.booleans(), immune=st.booleans(), wm=st.booleans(),
       flank=st.booleans(), ld=st.one_of(st.none(), st.integers(1, 10)), seed=st.integers(0, 2**32))
def test_any_combat_result_replays(w, ew, fear, immune, wm, flank, ld, seed):
    def fire(dice):
        return combat_result(dice, CombatSide(wounds=w, causes_fear=fear, flank=flank),
                             CombatSide(wounds=ew, immune_to_fear=immune, war_machine=wm), loser_leadership=ld)

    r = fire(RandomDice(seed))
    assert r.scores[0] == w + (1 if fear and not immune else 0) + (1 if flank and not wm else 0)
    assert (r.break_test is not None) == (r.winner is not None and ld is not None)
    assert_replays(fire, seed)
