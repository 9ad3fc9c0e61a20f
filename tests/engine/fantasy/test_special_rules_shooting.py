"""fire_missiles and the special rules of seed 003, with entered dice: one test per rule and
branch; properties with the bot's dice and the replay check."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.gamedata import fantasy
from engine.dice import DieKind, EnteredDice, RandomDice, Roller
from engine.errors import RulesError
from engine.fantasy.shooting import Cover
from engine.fantasy.shooting_sequence import fire_missiles
from engine.fantasy.special_rules import AttackRules, TargetRules, apply_rules
from engine.fantasy.wounding import Profile
from tests.engine.replay import assert_replays
from tests.engine.conftest import NoDice

DATA = fantasy()
TROOPS = DATA.troops


def volley(faces: str, **options):
    dice = EnteredDice(faces, NoDice())
    fire = fire_missiles(dice, DATA.to_hit_penalties, **options)
    assert all(d.by is Roller.PLAYER for d in fire.dice) and len(fire.dice) == dice.given
    return fire


BASE = dict(shots=1, ballistic_skill=3, strength=4)


def test_a_plain_shot_hits_wounds_and_is_saved_in_the_books_order():
    fire = volley("4 4 3", **BASE, profile=Profile(4, 1, 4))  # 4+ to hit, 4+ to wound, 4+ save at S4 -> 5+
    w = fire.volley.shots[0].wound
    assert w.save_needed == 5 and w.save.value == 3 and not w.saved and fire.volley.unsaved == 1
    assert [d.purpose for d in fire.dice] == ["to hit shot 1", "to wound shot 1", "armour save shot 1"]


def test_long_range_and_cover_make_the_shot_harder():
    fire = volley("6 1", **BASE, profile=Profile(3), long_range=True, cover=Cover.HARD)  # 4+ +1 +2 = 7+
    assert fire.to_hit.needed == 7 and fire.volley.shots[0].hit is False


def test_armour_piercing_worsens_the_save_on_top_of_strength():
    # A 4+ save at S4 (-1) with Armour Piercing (2) would need 7+: no save is rolled.
    fire = volley("4 4", **BASE, profile=Profile(4, 1, 4), attack=AttackRules(armour_piercing=2))
    w = fire.volley.shots[0].wound
    assert w.save_needed is None and w.save is None and fire.volley.unsaved == 1
    assert "Armour Piercing (2)" in fire.applied.rules[0]


def test_armour_piercing_one_leaves_a_6_plus():
    w = volley("4 4 6", **BASE, profile=Profile(4, 1, 4), attack=AttackRules(armour_piercing=1)).volley.shots[0].wound
    assert w.save_needed == 6 and w.saved


def test_ignores_armour_saves_leaves_the_ward():
    fire = volley("4 4 5", **BASE, profile=Profile(4, 1, 2, 5), attack=AttackRules(ignores_armour=True))
    w = fire.volley.shots[0].wound
    assert w.save is None and w.ward.value == 5 and w.saved


def test_multiple_wounds_multiplies_an_unsaved_wound_up_to_the_models_wounds():
    w = volley("4 4 6", **BASE, profile=Profile(4, 3), attack=AttackRules(multiple_wounds=DieKind.D6)).volley.shots[0].wound
    assert w.multiple_wounds.value == 6 and w.wounds == 3 and w.slain


def test_flaming_against_flammable_re_rolls_failed_wounds():
    fire = volley("4 2 5", **BASE, profile=Profile(4), attack=AttackRules(flaming=True), target_rules=TargetRules(flammable=True))
    w = fire.volley.shots[0].wound
    assert w.to_wound.value == 2 and w.reroll.value == 5 and w.wounded and w.slain


def test_flammable_without_flaming_attacks_re_rolls_nothing():
    fire = volley("4 2", **BASE, profile=Profile(4), target_rules=TargetRules(flammable=True))
    assert fire.volley.shots[0].wound.reroll is None and "no effect" in fire.applied.rules[0]


def test_killing_blow_slays_infantry_outright_with_no_armour_save():
    fire = volley("4 6", **BASE, profile=Profile(4, 3, 1), troop=TROOPS["infantry"], attack=AttackRules(killing_blow=True))
    w = fire.volley.shots[0].wound
    assert w.killing_blow and w.save is None and w.wounds == 3 and w.slain


def test_killing_blow_against_a_monster_is_one_wound_with_no_armour_save():
    fire = volley("4 6", **BASE, profile=Profile(4, 6, 3), troop=TROOPS["monster"], attack=AttackRules(killing_blow=True))
    w = fire.volley.shots[0].wound
    assert w.killing_blow and w.save is None and w.wounds == 1 and not w.slain


def test_killing_blow_allows_ward_saves():
    w = volley("4 6 4", **BASE, profile=Profile(4, 2, 3, 4), troop=TROOPS["cavalry"],
               attack=AttackRules(killing_blow=True)).volley.shots[0].wound
    assert w.killing_blow and w.ward.value == 4 and w.saved


def test_a_5_to_wound_is_no_killing_blow():
    w = volley("4 5 6", **BASE, profile=Profile(4, 2, 4), troop=TROOPS["infantry"],
               attack=AttackRules(killing_blow=True)).volley.shots[0].wound
    assert not w.killing_blow and w.save.value == 6 and w.saved


def test_dodge_is_a_ward_save():
    w = volley("4 4 4", **BASE, profile=Profile(4), target_rules=TargetRules(dodge=4)).volley.shots[0].wound
    assert w.ward_needed == 4 and w.saved


@pytest.mark.parametrize("attack, target, troop, why", [
    (AttackRules(always_strikes_first=True), TargetRules(dodge=4), "infantry", "Always Strike First"),
    (AttackRules(), TargetRules(dodge=4, always_strikes_last=True), "infantry", "Always Strikes Last"),
    (AttackRules(magical=True, automatic=True), TargetRules(dodge=4), "infantry", "magical attacks"),
    (AttackRules(), TargetRules(dodge=4), "cavalry", "mounted"),
])
def test_dodge_is_not_used_where_the_rule_says(attack, target, troop, why):
    applied = apply_rules(attack, target, Profile(4), TROOPS[troop])
    assert applied.ward is None and any(why in r for r in applied.rules)


def test_ethereal_is_a_2_plus_ward_against_mundane_attacks_and_5_plus_against_magic():
    assert apply_rules(AttackRules(), TargetRules(ethereal=True), Profile(4), None).ward == 2
    assert apply_rules(AttackRules(magical=True), TargetRules(ethereal=True), Profile(4), None).ward == 5


def test_the_best_ward_save_is_taken_once():
    applied = apply_rules(AttackRules(magical=True), TargetRules(ethereal=True, dodge=4), Profile(4, ward=6), None)
    assert applied.ward == 4 and "one ward save only" in applied.rules[-1]


def test_shots_at_a_war_machine_use_its_toughness_the_crews_save_and_remove_a_crew_model_per_wound():
    # T7 machine, crew save 6+ (gone at S7), 3 crew; Multiple Wounds (D3): 2 then 3 wounds -> all 3 crew.
    fire = volley("6 6 1 4 5 2 3", shots=3, ballistic_skill=3, strength=7, profile=Profile(7, 1, 6), crew=3,
                  attack=AttackRules(multiple_wounds=DieKind.D3))
    assert fire.profile == Profile(7, 3, 6)
    assert fire.volley.hits == 2 and fire.volley.unsaved == 5
    assert fire.crew_lost == 3 and fire.machine_destroyed


def test_a_war_machine_loses_one_crew_per_wound():
    fire = volley("4 4", shots=1, ballistic_skill=3, strength=4, profile=Profile(7, 1, 5), crew=3)
    assert fire.volley.shots[0].wound.to_wound_needed == 6 and fire.crew_lost == 0
    fire = volley("4 6 1", shots=1, ballistic_skill=3, strength=4, profile=Profile(7, 1, 5), crew=3)
    assert fire.crew_lost == 1 and not fire.machine_destroyed


@pytest.mark.parametrize("options, message", [
    (dict(strength=11), "Strength 11"), (dict(shots=0), "0 shots"), (dict(modifier=4), "modifier 4"),
    (dict(crew=11), "Crew 11"), (dict(ballistic_skill=0), "Ballistic Skill 0"),
])
def test_bad_input_is_refused(options, message):
    with pytest.raises(RulesError, match=message):
        fire_missiles(RandomDice(0), DATA.to_hit_penalties, **{**BASE, "profile": Profile(3), **options})


@pytest.mark.parametrize("make, message", [
    (lambda: AttackRules(armour_piercing=7), "Armour Piercing"), (lambda: TargetRules(dodge=1), "Dodge"),
])
def test_bad_rules_are_refused(make, message):
    with pytest.raises(RulesError, match=message):
        make()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shots=st.integers(1, 20), bs=st.integers(1, 10), strength=st.integers(1, 10),
    profile=st.builds(Profile, st.integers(1, 10), st.integers(1, 5), st.one_of(st.none(), st.integers(1, 6)),
                      st.one_of(st.none(), st.integers(2, 6))),
    attack=st.builds(AttackRules, st.integers(0, 3), st.sampled_from([None, DieKind.D3, DieKind.D6]), st.booleans(),
                     st.booleans(), st.booleans(), st.booleans(), st.booleans()),
    target=st.builds(TargetRules, st.booleans(), st.one_of(st.none(), st.integers(2, 6)), st.booleans(), st.booleans()),
    troop=st.sampled_from([None, "infantry", "monster", "cavalry"]), crew=st.one_of(st.none(), st.integers(1, 6)),
    seed=st.integers(0, 2**32),
)
def test_any_volley_keeps_the_invariants_and_replays(shots, bs, strength, profile, attack, target, troop, crew, seed):
    def fire(dice):
        return fire_missiles(dice, DATA.to_hit_penalties, shots=shots, ballistic_skill=bs, strength=strength,
                             profile=profile, troop=None if troop is None else TROOPS[troop], attack=attack,
                             target_rules=target, crew=crew)

    result = fire(RandomDice(seed))
    v = result.volley
    assert len(v.shots) == shots and 0 <= v.hits <= shots
    for s in v.shots:
        w = s.wound
        if not s.hit:
            assert w is None
            continue
        if w.to_wound is None:
            continue
        if w.reroll is not None:
            assert attack.flaming and target.flammable and w.to_wound.value < w.to_wound_needed
        if attack.ignores_armour or w.killing_blow:
            assert w.save is None
        if w.killing_blow:
            assert (w.reroll or w.to_wound).value == 6
        assert w.ward_needed in (None, result.applied.ward)
        assert 0 <= w.wounds <= result.profile.wounds
    if crew is not None:
        assert result.crew_lost == min(crew, v.unsaved)
    assert_replays(fire, seed)
