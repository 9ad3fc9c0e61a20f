"""Issue 28, Warhammer Fantasy: templates on multi-Wound units, Immunity and Dodge on every machine.

Each test names the seed lines that decide it (files in ../shared/seeds/; ``000:144`` is line 144 of
000_*.txt): the wounds of a template pool on the unit, any casualty means a Panic test (000:144);
fire throwers are not physical attacks (000:144) and a model Immune to Flaming Attacks takes
nothing from them (003:246); a unit Immune to Panic or Psychology, a Frenzied one included, takes no
Panic test (003:190, 003:248-250); Dodge works against templates in the front arc (003:94), the
cannon's bounce being a kind of template (000:81).
"""

from __future__ import annotations

import pytest

from config.gamedata import fantasy
from engine.dice import EnteredDice, RandomDice
from engine.errors import RulesError
from engine.fantasy.breath_weapon import breathe
from engine.fantasy.cannon import fire_cannon
from engine.fantasy.close_combat import breath_in_combat
from engine.fantasy.fire_thrower import fire_fire_thrower
from engine.fantasy.formation import Facing, TargetUnit
from engine.fantasy.special_rules import AttackRules, TargetRules
from engine.fantasy.stone_thrower import fire_stone_thrower
from engine.fantasy.wounding import Profile

DATA = fantasy()
FLAMER = DATA.fire_throwers["fire-thrower"]
STONE = DATA.stone_throwers["stone-thrower"]
CANNON = DATA.cannons["cannon"]
BLACK_POWDER = DATA.misfire_charts["black-powder"]


def unit(ranks=2, files=5, troop="infantry", profile=Profile(3, 2), facing=Facing.FRONT) -> TargetUnit:
    t = DATA.troops[troop]
    return TargetUnit(ranks, files, t, t.base_width, t.base_depth, facing, profile)


def flame(target, faces, **options):
    """The flame 2" forward at a 2x5 unit 4" away: R1-R2, F2-F4 under it (six models)."""
    entered = EnteredDice(faces, RandomDice(0))
    shot = fire_fire_thrower(FLAMER, BLACK_POWDER, DATA.flaming_attacks, target, 4, entered, **options)
    assert len(shot.dice) == entered.given
    return shot


# Item 1. 000:144 "A unit suffering any casualties must take a Panic test": the unit's casualties.

def test_fire_thrower_wounds_pool_on_a_unit_of_two_wound_models():
    # six models hit, S5 against T3 wounds on 3+, each one wound: no model takes two, yet six
    # wounds pool on a W2 unit as three models slain, and the unit takes its Panic test
    shot = flame(unit(), "2 6 6 6 6 6 6 3 3", leadership=7)
    assert len(shot.hits) == 6 and not any(h.wound.slain for h in shot.hits)
    assert (shot.unsaved, shot.casualties) == (6, 3)
    assert shot.panic_required is True and shot.panic is not None and shot.panic.passed


def test_fire_thrower_one_wound_models_are_counted_as_before():
    shot = flame(unit(profile=Profile(3)), "2 6 6 1 1 6 6")
    assert shot.casualties == 4 == sum(h.wound.slain for h in shot.hits)


def test_stone_thrower_template_wounds_pool_and_the_centre_keeps_its_own_model():
    # 000:122: Multiple Wounds (D6) only on the centre hit and never past that model's two Wounds;
    # the nine S4 hits at T3 wound on 3+; 2 (centre) + 5 unsaved pool as 3 of the W2 models
    faces = "H 4 " + "6 6 " + "6 6 6 6 6 1 1 1 1"
    shot = fire_stone_thrower(STONE, DATA.misfire_charts["stone-thrower"], unit(), 30, EnteredDice(faces, RandomDice(0)))
    centre = shot.hits[0]
    assert centre.wound.multiple_wounds.value == 6 and centre.wound.wounds == 2 and centre.wound.slain
    assert (shot.unsaved, shot.casualties) == (7, 3)
    assert sum(h.wound.slain for h in shot.hits) == 1  # the old count, model by model


def test_breath_wounds_pool_on_the_unit():
    shot = breathe(DATA.flame_templates["flame"], unit(), 2, EnteredDice("6 6 6 6 6 1", RandomDice(0)), strength=4)
    assert len(shot.hits) == 6 and (shot.unsaved, shot.casualties) == (5, 2)


def test_cannon_hits_pool_but_a_monster_still_stops_the_ball_by_its_own_hit():
    # direct hit D6 rolls 1, the bounce's D3 on rank 2 rolls 1: two wounds, one W2 model slain
    shot = fire_cannon(CANNON, BLACK_POWDER, unit(4, 5), 20, EnteredDice("H 2 6 6 1 6 1 1 1", RandomDice(0)))
    assert [h.wound.wounds for h in shot.hits] == [1, 1, 0, 0]
    assert (shot.unsaved, shot.casualties) == (2, 1) and not any(h.wound.slain for h in shot.hits)
    # 000:84: a monster that is not slain by its own hit stops the ball, whatever the pool
    monsters = unit(2, 2, "monster", Profile(6, 6))
    shot = fire_cannon(CANNON, BLACK_POWDER, monsters, 20, EnteredDice("H 2 6 6 2", RandomDice(0)))
    assert len(shot.hits) == 1 and shot.stopped_by == 0 and shot.casualties == 0


# Item 3. 000:144 "Fire Throwers are not physical attacks"; 003:246 Immunity; 003:190, 003:248-250.

def test_fire_thrower_does_nothing_to_models_immune_to_flaming_attacks():
    shot = flame(unit(), "2", leadership=7, target_rules=TargetRules(immune=("flaming",)))
    assert len(shot.hits) == 6 and shot.no_effect and all(h.wound is None for h in shot.hits)
    assert (shot.unsaved, shot.casualties) == (0, 0) and shot.panic is None and shot.panic_required is False
    # without a profile too: the flame does nothing, certainly
    shot = flame(unit(profile=None), "2", target_rules=TargetRules(immune=("flaming",)))
    assert shot.casualties == 0 and shot.panic_required is False


@pytest.mark.parametrize("immunity, name", [("panic", "Panic"), ("psychology", "Psychology")])
def test_a_unit_immune_to_panic_or_psychology_takes_no_panic_test(immunity, name):
    shot = flame(unit(), "2 6 6 6 6 6 6", leadership=7, target_rules=TargetRules(immune=(immunity,)))
    assert shot.casualties == 3 and shot.panic is None and shot.panic_required is False
    assert shot.panic_immunity == name and shot.panic_modifiers == ()


def test_combat_breath_does_nothing_to_models_immune_to_its_rule():
    r = breath_in_combat(EnteredDice("6 6", RandomDice(0)), strength=4, models=10, profile=Profile(3),
                         target_rules=TargetRules(immune=("flaming",)), breath_rules=AttackRules(flaming=True))
    assert r.rolled_hits == 12 and r.hits == 0 and r.slain == 0
    assert any("not physical" in x for x in r.rules)


def test_an_immunity_the_bot_does_not_know_is_refused_with_the_list():
    with pytest.raises(RulesError, match="fear.*flaming.*panic, psychology"):
        TargetRules(immune=("fear",))


# Item 4. 003:94 Dodge: "against attacks in their front arc (including templates...)".

def test_fire_thrower_dodge_is_a_ward_save_in_the_front_arc_only():
    one = unit(1, 1, profile=Profile(3, 1, None, None))
    shot = fire_fire_thrower(FLAMER, BLACK_POWDER, DATA.flaming_attacks, one, 2, EnteredDice("2 6 5", RandomDice(0)),
                             target_rules=TargetRules(dodge=5))
    w = shot.hits[0].wound
    assert w.ward.value == 5 and w.ward_needed == 5 and w.saved and shot.casualties == 0
    flank = unit(1, 1, profile=Profile(3), facing=Facing.FLANK)
    shot = fire_fire_thrower(FLAMER, BLACK_POWDER, DATA.flaming_attacks, flank, 2, EnteredDice("2 6", RandomDice(0)),
                             target_rules=TargetRules(dodge=5))
    assert shot.hits[0].wound.ward is None and shot.casualties == 1
    assert any("outside its front arc" in x for x in shot.applied.rules)


def test_stone_thrower_dodge_saves_the_template_hits():
    # 1x1 unit: the centre hit alone, wounded on 2+ at S10 against T3, no armour, Dodge 4+ rolled 4
    shot = fire_stone_thrower(STONE, DATA.misfire_charts["stone-thrower"], unit(1, 1, profile=Profile(3)), 30,
                              EnteredDice("H 4 6 4", RandomDice(0)), target_rules=TargetRules(dodge=4))
    assert shot.hits[0].wound.saved and shot.casualties == 0


def test_cannon_dodge_against_the_ball_but_not_for_mounted_models():
    shot = fire_cannon(CANNON, BLACK_POWDER, unit(1, 1, profile=Profile(3)), 20, EnteredDice("H 2 6 6 6", RandomDice(0)),
                       target_rules=TargetRules(dodge=6))
    assert shot.hits[0].wound.ward.value == 6 and shot.hits[0].wound.saved and shot.casualties == 0
    riders = unit(1, 1, "cavalry", Profile(3))
    shot = fire_cannon(CANNON, BLACK_POWDER, riders, 20, EnteredDice("H 2 6 6", RandomDice(0)),
                       target_rules=TargetRules(dodge=6))
    assert shot.hits[0].wound.ward is None and shot.casualties == 1
    assert any("mounted" in x for x in shot.applied.rules)


@pytest.mark.parametrize("wounds", [1, 2, 3])
def test_every_template_pools_its_wounds_for_any_dice(wounds):
    """Any throw (seeded): the casualties are the pooled unsaved wounds, a model per full set of
    Wounds and never more than the unit, and never fewer than the models slain by their own hit."""
    target = unit(3, 5, profile=Profile(3, wounds, 5))
    shots = (
        lambda d: fire_fire_thrower(FLAMER, BLACK_POWDER, DATA.flaming_attacks, target, 4, d),
        lambda d: fire_stone_thrower(STONE, DATA.misfire_charts["stone-thrower"], target, 30, d),
        lambda d: breathe(DATA.flame_templates["flame"], target, 2, d, strength=5),
        lambda d: fire_cannon(CANNON, BLACK_POWDER, target, 20, d),
    )
    for fire in shots:
        for seed in range(60):
            shot = fire(RandomDice(seed))
            if getattr(shot, "misfire", None) is not None:
                continue
            pooled = sum(h.wound.wounds for h in shot.hits)
            assert shot.unsaved == pooled
            assert shot.casualties == min(15, pooled // wounds)
            assert shot.casualties >= sum(h.wound.slain for h in shot.hits)


# T28 (independent check). 003:70 "Breath Weapons are not physical attacks, and certain models may be
# Immune to the effects of some Breath Weapons"; 003:246 "the model only ignores the effects of the rule
# itself unless the attack is also listed as being non-physical". The Immunity undoes the breath with a
# profile or without one, as the fire thrower's does; a breath the target is not Immune to still hits.

def test_breath_does_nothing_to_models_immune_to_its_rule_without_a_profile_too():
    immune = TargetRules(immune=("flaming",))
    for profile in (None, Profile(3, 2)):
        shot = breathe(DATA.flame_templates["flame"], unit(profile=profile), 2, EnteredDice("", RandomDice(0)), strength=4,
                       attack=AttackRules(flaming=True), target_rules=immune)
        assert shot.no_effect and shot.undone_by == ("flaming",) and shot.hits == ()
        assert (shot.unsaved, shot.casualties) == (0, 0) and shot.dice == ()
    shot = breathe(DATA.flame_templates["flame"], unit(profile=None), 2, RandomDice(0), strength=4, target_rules=immune)
    assert not shot.no_effect and len(shot.hits) == 6 and shot.casualties is None  # not a flaming breath
    out = breathe(DATA.flame_templates["flame"], unit(profile=None), 2, EnteredDice("2", RandomDice(0)), strength=4,
                  attack=AttackRules(flaming=True), target_rules=immune, used_before=True)
    assert not out.breathed and not out.no_effect and out.casualties is None  # out of breath is its own answer


def test_combat_breath_marks_the_hits_an_immunity_undid():
    r = breath_in_combat(EnteredDice("3 3", RandomDice(0)), strength=4, models=10, profile=Profile(3),
                         target_rules=TargetRules(immune=("flaming",)), breath_rules=AttackRules(flaming=True))
    assert r.no_effect and (r.rolled_hits, r.hits) == (6, 0)
    r = breath_in_combat(EnteredDice("3 3 6 6 6 6 6 6", RandomDice(0)), strength=4, models=10, profile=Profile(3),
                         breath_rules=AttackRules(flaming=True))
    assert not r.no_effect and r.hits == 6


def test_the_fire_thrower_picture_title_says_the_flame_did_nothing():
    # T28: 000:144 / 003:246: the picture alone must not read as nine models burnt
    from renders.fantasy.fire_thrower import _title
    shot = flame(unit(), "2", target_rules=TargetRules(immune=("flaming",)))
    assert _title(shot).endswith("6 models hit · Immune: no effect")
    assert "Immune" not in _title(flame(unit(), "2 1 1 1 1 1 1"))
