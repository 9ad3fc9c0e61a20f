"""The picture says why a target's special rules changed what a Fantasy war machine did (issue 26's
read-through): under "Models hit", Immune to Multiple Wounds (one wound a hit), Immune to Armour
Piercing, Ethereal's 2+ ward save; nothing when the target has none of them."""

from __future__ import annotations

import pytest

from config.gamedata import fantasy
from engine.dice import EnteredDice, RandomDice
from engine.fantasy.bolt_thrower import fire_bolt_thrower
from engine.fantasy.cannon import fire_cannon
from engine.fantasy.fire_thrower import fire_fire_thrower
from engine.fantasy.formation import TargetUnit
from engine.fantasy.special_rules import TargetRules
from engine.fantasy.stone_thrower import fire_stone_thrower
from engine.fantasy.wounding import Profile
from renders.fantasy import bolt_thrower, cannon, fire_thrower, stone_thrower

DATA = fantasy()
UNIT = TargetUnit(3, 5, DATA.troops["infantry"], 20, 20, profile=Profile(3, 3, 4))
POWDER = DATA.misfire_charts["black-powder"]


def written(draw, shot) -> list[str]:
    return [w.text for w in draw(shot, width=900, max_panel_height=720, inset=True).canvas.written]


def cannon_shot(rules):
    return fire_cannon(DATA.cannons["cannon"], POWDER, UNIT, 30, EnteredDice("H 8", RandomDice(1)), target_rules=rules)


def stone_shot(rules):
    return fire_stone_thrower(DATA.stone_throwers["stone-thrower"], DATA.misfire_charts["stone-thrower"], UNIT, 30,
                              EnteredDice("H 4", RandomDice(1)), target_rules=rules)


def bolt_shot(rules):
    return fire_bolt_thrower(DATA.bolt_throwers["bolt-thrower"], DATA.to_hit_penalties, UNIT, 20, EnteredDice("6", RandomDice(1)),
                             ballistic_skill=3, target_rules=rules)


def flame_shot(rules):
    return fire_fire_thrower(DATA.fire_throwers["fire-thrower"], POWDER, DATA.flaming_attacks, UNIT, 8,
                             EnteredDice("4", RandomDice(1)), target_rules=rules)


@pytest.mark.parametrize(("fire", "draw", "rules", "line"), [
    (cannon_shot, cannon._draw, TargetRules(immune=("multiple-wounds",)), "Immune to Multiple Wounds: 1 wound a hit"),
    (stone_shot, stone_thrower._draw, TargetRules(immune=("multiple-wounds",)), "Immune to Multiple Wounds: 1 wound a hit"),
    (bolt_shot, bolt_thrower._draw, TargetRules(immune=("armour-piercing",)), "Immune to Armour Piercing"),
    (cannon_shot, cannon._draw, TargetRules(ethereal=True), "Ethereal: a 2+ ward save"),
    (flame_shot, fire_thrower._draw, TargetRules(ethereal=True), "Ethereal: a 2+ ward save"),
])
def test_the_rule_that_changed_the_shot_is_under_models_hit(fire, draw, rules, line):
    shot = fire(rules)
    assert shot.hits
    texts = written(draw, shot)
    assert line in texts
    assert texts.index(line) == next(i for i, t in enumerate(texts) if t.startswith("Models hit")) + 1
    assert line not in written(draw, fire(TargetRules()))  # a target without the rule: not said
