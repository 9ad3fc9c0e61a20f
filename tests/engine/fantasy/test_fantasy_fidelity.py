"""Issue 16, Warhammer Fantasy: scenario tests with entered dice, each quoting the seed line it follows."""

from __future__ import annotations

import pytest

from config.gamedata import fantasy
from engine.dice import EnteredDice
from engine.fantasy.breath_weapon import breathe
from engine.fantasy.close_combat import breath_in_combat, make_attacks
from engine.fantasy.formation import Facing, TargetUnit
from engine.fantasy.special_rules import AttackRules, TargetRules
from engine.fantasy.wounding import Profile
from engine.geometry import clock_face
from tests.engine.conftest import NoDice

DATA = fantasy()
FLAME = DATA.flame_templates["flame"]
INFANTRY = DATA.troops["infantry"]


def entered(faces: str) -> EnteredDice:
    return EnteredDice(faces, NoDice())


# 1. Dodge. Seed 003, Dodge: "Models with this rule gain a Ward save against attacks in their front
# arc (including templates, Stomp and Impact Hits)".

def test_dodge_saves_attacks_in_the_front_arc():
    # One hit (4), wounds (4), Dodge 5+ saves on a 5.
    r = make_attacks(entered("4 4 5"), attacks=1, weapon_skill=4, enemy_weapon_skill=4, strength=4, profile=Profile(4),
                     target_rules=TargetRules(dodge=5))
    assert r.unsaved == 0 and any(x.startswith("ward save Dodge (5+)") for x in r.rules)


def test_dodge_does_not_work_against_attacks_from_outside_the_front_arc():
    # The same blow from the flank: no ward save die at all (NoDice would refuse one).
    r = make_attacks(entered("4 4"), attacks=1, weapon_skill=4, enemy_weapon_skill=4, strength=4, profile=Profile(4),
                     target_rules=TargetRules(dodge=5, front_arc=False))
    assert r.unsaved == 1
    assert "Dodge (5+): not used, the attacks come from outside its front arc" in r.rules


def test_a_breath_on_a_units_flank_is_not_dodged():
    flank = TargetUnit(1, 1, INFANTRY, 20, 20, facing=Facing.FLANK, profile=Profile(3))
    shot = breathe(FLAME, flank, 6.5, entered("5"), strength=4, target_rules=TargetRules(dodge=4))
    assert shot.casualties == 1 and any("outside its front arc" in x for x in shot.applied.rules)
    front = TargetUnit(1, 1, INFANTRY, 20, 20, profile=Profile(3))
    shot = breathe(FLAME, front, 6.5, entered("5 4"), strength=4, target_rules=TargetRules(dodge=4))
    assert shot.casualties == 0


# 6 (in part). Seed 003, Dodge: it "cannot be used against Magical Attacks that Hit automatically";
# Breath Weapon Close Combat Attack: "2D6 automatic hits (resolved like shooting)".

def test_combat_breath_magical_is_not_dodged_and_mundane_is():
    magical = breath_in_combat(entered("1 1 6 6"), strength=4, models=5, profile=Profile(4),
                               target_rules=TargetRules(dodge=4), breath_rules=AttackRules(magical=True))
    assert magical.unsaved == 2 and any("magical attacks that hit automatically" in x for x in magical.rules)
    mundane = breath_in_combat(entered("1 1 6 6 4 4"), strength=4, models=5, profile=Profile(4),
                               target_rules=TargetRules(dodge=4))
    assert mundane.unsaved == 0


# 4. Clock faces: 30 degrees an hour, 12 o'clock straight on.

@pytest.mark.parametrize("degrees, face", [(0, "12 o'clock"), (30, "1 o'clock"), (45, "half past 1"), (60, "2 o'clock"),
                                           (90, "3 o'clock"), (180, "6 o'clock"), (315, "half past 10"), (350, "half past 11"),
                                           (353, "12 o'clock"), (-30, "11 o'clock")])
def test_clock_face_to_the_nearest_half_hour(degrees, face):
    assert clock_face(degrees) == face


# 6. Frenzy and Hatred. Seed 003, Frenzy: "Frenzied troops gain +1 Attack"; "if the Frenzied
# unit won the combat by 3 and the enemy unit flees, the Frenzied unit suffers -3 to its
# Leadership if it attempts to restrain from pursuing." Hatred: "they must also re-roll
# successful rolls to restrain from pursuit against enemies they have Hatred against."

def test_frenzy_gives_an_extra_attack():
    r = make_attacks(entered("1 1 1"), attacks=2, weapon_skill=4, enemy_weapon_skill=4, strength=3, profile=Profile(3),
                     frenzy=True)
    assert r.attacks == 3 and "Frenzy: +1 Attack" in r.rules


def test_frenzy_restrains_pursuit_at_minus_the_margin():
    from engine.fantasy.close_combat import restrain_pursuit

    r = restrain_pursuit(entered("3 3"), 8, won_by=3, frenzy=True)
    assert r.test.needed == 5 and not r.restrained


def test_hatred_re_rolls_a_passed_restraint():
    from engine.fantasy.close_combat import restrain_pursuit

    r = restrain_pursuit(entered("2 2 6 5"), 8, hatred=True)
    assert r.test.passed and r.reroll is not None and not r.restrained
    failed = restrain_pursuit(entered("6 6"), 8, hatred=True)
    assert failed.reroll is None and not failed.restrained


# 6. Immunity. Seed 003, Immunity: "the model only ignores the effects of the rule itself unless
# the attack is also listed as being non-physical. The physical attack still causes damage as
# normal"; Breath Weapons: "Breath Weapons are not physical attacks, and certain models may be
# Immune to the effects of some Breath Weapons".

def test_a_flaming_breath_does_nothing_to_a_model_immune_to_flaming():
    t = TargetUnit(1, 1, INFANTRY, 20, 20, profile=Profile(3))
    shot = breathe(FLAME, t, 6.5, entered(""), strength=4, attack=AttackRules(flaming=True),
                   target_rules=TargetRules(immune=("flaming",)))
    assert shot.applied.no_effect and shot.hits == () and shot.dice == ()
    combat = breath_in_combat(entered("3 3"), strength=4, models=5, profile=Profile(3),
                              target_rules=TargetRules(immune=("flaming",)), breath_rules=AttackRules(flaming=True))
    assert combat.hits == 0 and combat.unsaved == 0


def test_a_physical_flaming_attack_still_hurts_a_model_immune_to_flaming():
    # Flaming against Flammable would re-roll failed wounds; Immune to flaming, no re-roll, but it wounds.
    r = make_attacks(entered("4 1"), attacks=1, weapon_skill=4, enemy_weapon_skill=4, strength=4, profile=Profile(4),
                     attack=AttackRules(flaming=True), target_rules=TargetRules(flammable=True, immune=("flaming",)))
    assert r.unsaved == 0 and r.wounds[0].reroll is None
    assert any(x.startswith("Immunity (flaming)") for x in r.rules)
