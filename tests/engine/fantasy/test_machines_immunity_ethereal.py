"""Immunity (Multiple Wounds), Immunity (Armour Piercing) and Ethereal against every Fantasy war
machine, with entered dice (seed 003:101 Ethereal, 003:246 Immunity; seed 000 for the machines).

A war machine's shot is a mundane attack: an Ethereal model takes a 2+ ward save against each
wound. A model Immune to Multiple Wounds ignores that rule and nothing else: each unsaved wound is
one wound and no wounds die is rolled; Immune to Armour Piercing, its save is worse by Strength
alone. Each test fires the same shot with and without the rule, so it fails if the rule is lost.
"""

from __future__ import annotations

import pytest

from config.gamedata import fantasy
from engine.dice import DieKind, EnteredDice
from engine.errors import RulesError
from engine.fantasy.bolt_thrower import fire_bolt_thrower
from engine.fantasy.cannon import HitKind, fire_cannon
from engine.fantasy.fire_thrower import fire_fire_thrower
from engine.fantasy.formation import Facing, TargetUnit
from engine.fantasy.grapeshot import fire_grapeshot
from engine.fantasy.special_rules import TargetRules
from engine.fantasy.stone_thrower import TemplateHitKind, fire_stone_thrower
from engine.fantasy.wounding import Profile
from tests.engine.conftest import NoDice

DATA = fantasy()
CANNON, GREAT = DATA.cannons["cannon"], DATA.cannons["great-cannon"]
STONE = DATA.stone_throwers["stone-thrower"]
BOLT = DATA.bolt_throwers["bolt-thrower"]
FLAMER = DATA.fire_throwers["fire-thrower"]
BLACK_POWDER = DATA.misfire_charts["black-powder"]
IMMUNE_MW = TargetRules(immune=("multiple-wounds",))
ETHEREAL = TargetRules(ethereal=True)


def unit(troop="infantry", ranks=1, files=1, profile=None, facing=Facing.FRONT, width=20, depth=20):
    return TargetUnit(ranks, files, DATA.troops[troop], width, depth, facing, profile)


def dice(faces: str) -> EnteredDice:
    return EnteredDice(faces, NoDice())


def purposes(shot) -> list[str]:
    return [d.purpose for d in shot.dice]


# --- Cannons: D6 direct, D3 (D6 for a great cannon) on the bounce ----------------------------------


def test_a_monster_immune_to_multiple_wounds_takes_one_wound_from_the_direct_hit_and_stops_the_ball():
    monster = unit("monster", profile=Profile(6, 6))
    plain = fire_cannon(GREAT, BLACK_POWDER, monster, 30, dice("H 8 6 6 5"))
    assert plain.hits[0].wound.wounds == 5 and plain.hits[0].wounds_die is DieKind.D6
    shot = fire_cannon(GREAT, BLACK_POWDER, monster, 30, dice("H 8 6 6"), target_rules=IMMUNE_MW)
    hit = shot.hits[0]
    assert hit.kind is HitKind.DIRECT and hit.wounds_die is None
    assert hit.wound.wounded and hit.wound.multiple_wounds is None and hit.wound.wounds == 1 and not hit.wound.slain
    assert shot.stopped_by == 0 and shot.unsaved == 1 and shot.casualties == 0
    assert not any("Multiple Wounds" in p for p in purposes(shot))
    assert shot.immunity == ("multiple-wounds",)
    assert any(r.startswith("Immunity (multiple-wounds)") and "one wound" in r for r in shot.applied.rules)


def test_the_bounce_on_a_unit_immune_to_multiple_wounds_is_one_wound_a_hit_pooled_on_the_unit():
    # 4 ranks of W2 infantry: the direct hit and three bounce hits, each a 6 to wound, no save.
    block = unit(ranks=4, files=5, profile=Profile(3, 2))
    plain = fire_cannon(CANNON, BLACK_POWDER, block, 30, dice("H 8 2 6 6 6 3 6 3 6 3"))  # a wounds die after each
    assert [h.wound.wounds for h in plain.hits] == [2, 2, 2, 2] and plain.casualties == 4
    shot = fire_cannon(CANNON, BLACK_POWDER, block, 30, dice("H 8 2 6 6 6 6"), target_rules=IMMUNE_MW)
    assert [h.kind for h in shot.hits] == [HitKind.DIRECT] + [HitKind.BOUNCE] * 3
    assert [h.wounds_die for h in shot.hits] == [None] * 4
    assert [h.wound.wounds for h in shot.hits] == [1, 1, 1, 1]
    assert (shot.unsaved, shot.casualties) == (4, 2)


def test_without_a_profile_the_immune_cannon_hits_carry_no_wounds_die():
    shot = fire_cannon(CANNON, BLACK_POWDER, unit(ranks=3, files=3), 30, dice("H 8 2"), target_rules=IMMUNE_MW)
    assert len(shot.hits) == 3 and all(h.wounds_die is None and h.wound is None for h in shot.hits)
    assert shot.applied is None and shot.immunity == ("multiple-wounds",)


def test_an_ethereal_model_takes_a_2_plus_ward_against_the_cannon_ball():
    ghost = unit(profile=Profile(3, 1))
    plain = fire_cannon(CANNON, BLACK_POWDER, ghost, 30, dice("H 8 2 6"))
    assert plain.hits[0].wound.slain and plain.casualties == 1
    saved = fire_cannon(CANNON, BLACK_POWDER, ghost, 30, dice("H 8 2 6 2"), target_rules=ETHEREAL)
    w = saved.hits[0].wound
    assert w.ward_needed == 2 and w.ward.value == 2 and w.saved and saved.casualties == 0
    failed = fire_cannon(CANNON, BLACK_POWDER, ghost, 30, dice("H 8 2 6 1"), target_rules=ETHEREAL)
    assert failed.hits[0].wound.slain and failed.casualties == 1
    assert "ward save Ethereal (2+ against mundane attacks)" in saved.applied.rules


def test_ethereal_beats_the_models_own_worse_ward():
    shot = fire_cannon(CANNON, BLACK_POWDER, unit(profile=Profile(3, 1, None, 5)), 30, dice("H 8 2 6 3"),
                       target_rules=ETHEREAL)
    assert shot.hits[0].wound.ward_needed == 2 and shot.hits[0].wound.saved


# --- Stone thrower: Multiple Wounds (D6) on the centre hole's hit only -----------------------------


def test_the_centre_hole_hit_on_a_monster_immune_to_multiple_wounds_is_one_wound():
    monster = unit("monster", profile=Profile(5, 6))
    plain = fire_stone_thrower(STONE, DATA.misfire_charts[STONE.misfire_chart], monster, 30, dice("H 4 6 6"))
    assert plain.hits[0].wound.wounds == 6 and plain.casualties == 1
    shot = fire_stone_thrower(STONE, DATA.misfire_charts[STONE.misfire_chart], monster, 30, dice("H 4 6"),
                              target_rules=IMMUNE_MW)
    (centre,) = shot.hits
    assert centre.kind is TemplateHitKind.CENTRE and centre.strength == 10 and centre.wounds_die is None
    assert centre.wound.wounds == 1 and (shot.unsaved, shot.casualties) == (1, 0)
    assert not any("Multiple Wounds" in p for p in purposes(shot))


def test_an_ethereal_unit_wards_every_hit_under_the_stone_thrower_template():
    ghosts = unit(ranks=1, files=3, profile=Profile(3, 1))
    # Three models under the template: the centre (S10, no save) and two at S4 (4+ to wound vs T3 -> 3+).
    shot = fire_stone_thrower(STONE, DATA.misfire_charts[STONE.misfire_chart], ghosts, 30, dice("H 4 6 2 6 1 4 1"),
                              target_rules=ETHEREAL)
    assert [h.kind for h in shot.hits] == [TemplateHitKind.CENTRE] + [TemplateHitKind.TEMPLATE] * 2
    assert [h.wound.ward_needed for h in shot.hits] == [2, 2, 2]
    assert [h.wound.saved for h in shot.hits] == [True, False, False] and shot.casualties == 2
    plain = fire_stone_thrower(STONE, DATA.misfire_charts[STONE.misfire_chart], ghosts, 30, dice("H 4 6 6 4"))
    assert plain.casualties == 3


# --- Bolt thrower: S6, Multiple Wounds (D3), Armour Piercing (1) -----------------------------------


def fire_bolt(target, faces, **options):
    return fire_bolt_thrower(BOLT, DATA.to_hit_penalties, target, 20, dice(faces), ballistic_skill=3, **options)


def test_a_bolt_at_a_model_immune_to_multiple_wounds_and_armour_piercing():
    troll = unit("monster", profile=Profile(3, 6, 2))  # a 2+ save: 5+ after S6, 6+ with AP (1)
    plain = fire_bolt(troll, "5 6 5 3")
    w = plain.hits[0].wound
    assert w.save_needed == 6 and not w.saved and w.multiple_wounds.value == 3 and w.wounds == 3
    immune = TargetRules(immune=("multiple-wounds", "armour-piercing"))
    shot = fire_bolt(troll, "5 6 5", target_rules=immune)
    w = shot.hits[0].wound
    assert w.save_needed == 5 and w.saved and w.wounds == 0
    shot = fire_bolt(troll, "5 6 4", target_rules=immune)
    w = shot.hits[0].wound
    assert not w.saved and w.multiple_wounds is None and w.wounds == 1 and not w.slain
    assert shot.wounds_die is None and shot.immunity == ("multiple-wounds", "armour-piercing")


def test_only_multiple_wounds_immunity_keeps_the_armour_piercing():
    shot = fire_bolt(unit("monster", profile=Profile(3, 6, 2)), "5 6 5", target_rules=IMMUNE_MW)
    w = shot.hits[0].wound
    assert w.save_needed == 6 and not w.saved and w.wounds == 1 and shot.wounds_die is None


def test_an_ethereal_trooper_that_wards_the_bolt_stops_it():
    ghosts = unit(ranks=4, files=5, profile=Profile(3, 1))
    plain = fire_bolt(ghosts, "4 6 6 6 6")
    assert len(plain.hits) == 4 and all(h.wound.slain for h in plain.hits)
    shot = fire_bolt(ghosts, "4 6 1 6 2", target_rules=ETHEREAL)
    assert [h.wound.slain for h in shot.hits] == [True, False]  # the first fails its ward, the second saves
    assert [h.wound.ward_needed for h in shot.hits] == [2, 2]
    assert purposes(shot)[2] == "ward save rank 1 file 3"


def test_dodge_is_a_ward_against_the_bolt_only_from_the_front():
    front = fire_bolt(unit(profile=Profile(3, 1)), "4 6 5", target_rules=TargetRules(dodge=5))
    assert front.hits[0].wound.saved
    flank = fire_bolt(unit(profile=Profile(3, 1), facing=Facing.FLANK), "4 6", target_rules=TargetRules(dodge=5))
    assert flank.hits[0].wound.slain and any("outside its front arc" in r for r in flank.applied.rules)


# --- Grapeshot: S5, Armour Piercing (1) ------------------------------------------------------------


def blast(faces, profile, **options):
    return fire_grapeshot(DATA.grapeshot, BLACK_POWDER, DATA.to_hit_penalties, 6, dice(faces), ballistic_skill=3,
                          profile=profile, **options)


def test_ethereal_targets_ward_each_grapeshot_wound_at_2_plus():
    # 2 + 1 = 3 shots, three 4s hit, three 6s wound T3, no armour; wards 1 2 2.
    shot = blast("2 1 4 4 4 6 6 6 1 2 2", Profile(3, 1), target_rules=ETHEREAL)
    assert shot.volley.hits == 3 and shot.volley.unsaved == 1
    assert [s.wound.ward_needed for s in shot.volley.shots] == [2, 2, 2]
    plain = blast("2 1 4 4 4 6 6 6", Profile(3, 1))
    assert plain.volley.unsaved == 3


def test_immune_to_armour_piercing_grapeshot_is_saved_by_strength_alone():
    plain = blast("2 1 4 1 1 6 5", Profile(3, 1, 3))  # one hit; 3+ save at S5 and AP1 needs 6+
    assert plain.volley.shots[0].wound.save_needed == 6 and plain.volley.unsaved == 1
    shot = blast("2 1 4 1 1 6 5", Profile(3, 1, 3), target_rules=TargetRules(immune=("armour-piercing",)))
    assert shot.volley.shots[0].wound.save_needed == 5 and shot.volley.unsaved == 0
    assert shot.immunity == ("armour-piercing",)


# --- Fire thrower: Flaming Attacks, not a physical attack, still mundane --------------------------


def flame(faces, target, rules):
    return fire_fire_thrower(FLAMER, BLACK_POWDER, DATA.flaming_attacks, target, 6, dice(faces), target_rules=rules)


def test_an_ethereal_unit_takes_a_2_plus_ward_against_the_fire_thrower():
    ghosts = unit("swarm", ranks=1, files=3, profile=Profile(3, 4), width=40, depth=40)
    plain = flame("4 3 3 1", ghosts, TargetRules())
    assert plain.unsaved == 2
    shot = flame("4 3 3 1 1 2", ghosts, ETHEREAL)
    assert [h.wound.ward_needed for h in shot.hits] == [2, 2, None]
    assert [h.wound.saved for h in shot.hits] == [False, True, False] and shot.unsaved == 1
    assert any(r == "ward save Ethereal (2+ against mundane attacks)" for r in shot.applied.rules)


def test_an_ethereal_unit_immune_to_flaming_attacks_takes_nothing_at_all():
    ghosts = unit("swarm", ranks=1, files=3, profile=Profile(3, 4), width=40, depth=40)
    shot = flame("4", ghosts, TargetRules(ethereal=True, immune=("flaming",)))
    assert shot.no_effect and shot.unsaved == 0 and len(shot.dice) == 1


def test_an_immunity_the_engine_does_not_know_is_refused():
    with pytest.raises(RulesError, match="Immunity \\(poison\\)"):
        TargetRules(immune=("poison",))


# --- Properties: the bot's dice, any unit and profile ----------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from engine.dice import RandomDice  # noqa: E402

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
profiles = st.builds(Profile, st.integers(1, 10), st.integers(1, 8), st.none() | st.integers(1, 6), st.none() | st.integers(2, 6))
machines = st.sampled_from(["cannon", "great-cannon", "stone-thrower", "bolt-thrower"])


def shoot_with(machine, target, seed, rules):
    if machine in ("cannon", "great-cannon"):
        return fire_cannon(DATA.cannons[machine], BLACK_POWDER, target, 30, RandomDice(seed), target_rules=rules)
    if machine == "stone-thrower":
        return fire_stone_thrower(STONE, DATA.misfire_charts[STONE.misfire_chart], target, 30, RandomDice(seed),
                                  target_rules=rules)
    return fire_bolt_thrower(BOLT, DATA.to_hit_penalties, target, 20, RandomDice(seed), ballistic_skill=4, target_rules=rules)


@PROPERTY
@given(machine=machines, profile=profiles, ranks=st.integers(1, 5), files=st.integers(1, 6), seed=st.integers(0, 2**32 - 1),
       ethereal=st.booleans())
def test_immune_to_multiple_wounds_no_hit_does_more_than_one_wound_and_no_wounds_die_is_rolled(
        machine, profile, ranks, files, seed, ethereal):
    troop = "monster" if ranks * files == 1 else "infantry"
    shot = shoot_with(machine, unit(troop, ranks, files, profile), seed,
                      TargetRules(ethereal=ethereal, immune=("multiple-wounds",)))
    assert not any(d.purpose.startswith("Multiple Wounds") for d in shot.dice)
    assert all(h.wound is None or h.wound.wounds <= 1 for h in shot.hits)
    assert "multiple-wounds" in shot.immunity
    # Every wound that got through had to pass a 2+ ward when Ethereal (the best ward there is).
    for h in shot.hits:
        if h.wound is not None and h.wound.wounded:
            assert h.wound.ward_needed == (2 if ethereal else profile.ward)
