"""breathe: a Breath Weapon's shooting attack with the flame template (Special Rules: Breath
Weapons), with entered dice."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.gamedata import fantasy
from engine.dice import EnteredDice, RandomDice
from engine.errors import RulesError
from engine.fantasy.breath_weapon import breathe
from engine.fantasy.formation import TargetUnit
from engine.fantasy.special_rules import AttackRules, TargetRules
from engine.fantasy.wounding import Profile
from engine.geometry import Point
from tests.engine.conftest import NoDice
from tests.engine.replay import assert_replays

DATA = fantasy()
FLAME = DATA.flame_templates["flame"]
INFANTRY = DATA.troops["infantry"]


def unit(ranks=1, files=9, **kwargs):
    return TargetUnit(ranks, files, INFANTRY, 20, 20, **kwargs)


def test_every_model_under_the_template_from_the_base_is_hit_without_dice():
    shot = breathe(FLAME, unit(), 6.5, EnteredDice("", NoDice()), strength=4)
    # The wide end's circle is centred 6.5" out, 1.5" round: files 3-7 of 9 on 20 mm bases.
    assert [(h.rank, h.file) for h in shot.hits] == [(1, f) for f in range(3, 8)] and shot.dice == ()


def test_the_breaths_own_rules_apply_to_the_wound_rolls():
    shot = breathe(FLAME, unit(1, 1, profile=Profile(4, 1, 3)), 6.5, EnteredDice("2 5", NoDice()), strength=4,
                   attack=AttackRules(flaming=True, ignores_armour=True), target_rules=TargetRules(flammable=True))
    w = shot.hits[0].wound
    assert w.reroll.value == 5 and w.save is None and w.slain and shot.casualties == 1


def test_out_of_breath_on_a_1_to_3():
    shot = breathe(FLAME, unit(), 6.5, EnteredDice("3", NoDice()), strength=4, used_before=True)
    assert not shot.breathed and shot.hits == ()
    assert breathe(FLAME, unit(), 6.5, EnteredDice("4", NoDice()), strength=4, used_before=True).hits


@pytest.mark.parametrize("kwargs, message", [(dict(strength=0), "Strength 0"), (dict(strength=4, distance=9), "beyond the flame template")])
def test_bad_input_is_refused(kwargs, message):
    distance = kwargs.pop("distance", 4)
    with pytest.raises(RulesError, match=message):
        breathe(FLAME, unit(), distance, RandomDice(0), **kwargs)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ranks=st.integers(1, 8), files=st.integers(1, 10), distance=st.floats(0.5, 8), s=st.integers(1, 10),
       t=st.integers(1, 10), used=st.booleans(), seed=st.integers(0, 2**32))
def test_any_breath_covers_what_the_template_covers_and_replays(ranks, files, distance, s, t, used, seed):
    target = unit(ranks, files, profile=Profile(t, 1, 5))

    def fire(dice):
        return breathe(FLAME, target, distance, dice, strength=s, used_before=used)

    shot = fire(RandomDice(seed))
    if shot.breathed:
        cells = shot.formation.under_teardrop(Point(0, 0), FLAME.length, FLAME.narrow_radius, FLAME.wide_radius)
        assert [(h.rank, h.file) for h in shot.hits] == [shot.formation.rank_file(*c) for c in cells]
    assert_replays(fire, seed)
