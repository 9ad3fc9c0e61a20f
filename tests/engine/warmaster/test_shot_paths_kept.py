"""A Warmaster cannon's path and a Bone Thrower's line are worked out once per placing (issue 26):
they depend on where the units stand, never on the dice, and ``/odds`` throws the same shot
thousands of times. Kept, they give the same shots as worked out afresh; a refused placing is
refused every time; a new placing is worked out anew."""

from __future__ import annotations

import pytest

from config.gamedata import warmaster
from engine.dice import EnteredDice, RandomDice
from engine.errors import RulesError
from engine.geometry import Point
from engine.warmaster.bone_thrower import fire_bone_thrower, the_bolt
from engine.warmaster.cannon import PlacedUnit, fire_cannons, the_path
from engine.warmaster.profiles import Position
from engine.warmaster.shooting import Side, Unit
from engine.warmaster.stands import Formation, lay_out

W = warmaster()
INF = W.troops["infantry"]


def placed(name, formation, stands, front, side=Side.ENEMY):
    return PlacedUnit(Unit(name, stands, 3, None, Position.OPEN, INF, side), lay_out(formation, stands, front))


def entered(faces: str) -> EnteredDice:
    """`faces` first, then the same seeded dice every time (the drive backs and the rest)."""
    return EnteredDice(faces, RandomDice(7))


@pytest.fixture(autouse=True)
def fresh():
    the_path.cache_clear()
    the_bolt.cache_clear()


def test_a_cannon_shot_again_at_the_same_placing_is_the_same_shot_without_its_path_worked_out_again():
    target = placed("target", Formation.COLUMN, 3, Point(0, 30))
    friend = placed("friend 1", Formation.LINE, 3, Point(2, 39), side=Side.FRIEND)
    first = fire_cannons(W.artillery["cannon"], W.positions, target, entered("6 6 6 1  3 3  6  2"), cannons=2, others=(friend,))
    assert the_path.cache_info().misses == 1
    # the same placing built anew (as each /odds throw builds it), the same dice: the same shot
    again = fire_cannons(W.artillery["cannon"], W.positions, placed("target", Formation.COLUMN, 3, Point(0, 30)),
                         entered("6 6 6 1  3 3  6  2"), cannons=2, others=[placed("friend 1", Formation.LINE, 3, Point(2, 39),
                                                                                    side=Side.FRIEND)])
    assert again == first
    assert the_path.cache_info().hits == 1 and the_path.cache_info().misses == 1
    the_path.cache_clear()
    assert fire_cannons(W.artillery["cannon"], W.positions, target, entered("6 6 6 1  3 3  6  2"), cannons=2,
                        others=(friend,)) == first  # worked out afresh: the same


def test_other_dice_at_the_same_placing_roll_their_own_attacks_on_the_kept_path():
    target = placed("target", Formation.COLUMN, 3, Point(0, 30))
    hits = fire_cannons(W.artillery["cannon"], W.positions, target, entered("6 6 6 6  1 1"))
    misses = fire_cannons(W.artillery["cannon"], W.positions, target, entered("1 1 1 1"))
    assert hits.target.through == misses.target.through and hits.end == misses.end
    assert hits.target.result.hits == 4 and misses.target.result.hits == 0


def test_a_new_placing_is_worked_out_anew():
    near = fire_cannons(W.artillery["cannon"], W.positions, placed("target", Formation.COLUMN, 3, Point(0, 30)), entered("1 1 1 1"))
    far = fire_cannons(W.artillery["cannon"], W.positions, placed("target", Formation.COLUMN, 3, Point(0, 50)), entered("1 1 1 1"))
    assert the_path.cache_info().misses == 2
    assert far.distance > near.distance


@pytest.mark.parametrize("attempt", range(3))
def test_a_refused_placing_is_refused_every_time(attempt):
    beyond = placed("target", Formation.LINE, 1, Point(0, 200))
    with pytest.raises(RulesError, match="beyond"):
        fire_cannons(W.artillery["cannon"], W.positions, beyond, entered("6 6"))
    with pytest.raises(RulesError, match="beyond"):
        fire_bone_thrower(W.artillery["bone-thrower"], W.positions, beyond, entered("6"))


def test_a_bone_thrower_bolt_is_kept_for_its_placing_and_its_tower():
    target = placed("target", Formation.COLUMN, 3, Point(0, 20))
    first = fire_bone_thrower(W.artillery["bone-thrower"], W.positions, target, entered("6 6 6  1 1"))
    again = fire_bone_thrower(W.artillery["bone-thrower"], W.positions, placed("target", Formation.COLUMN, 3, Point(0, 20)),
                              entered("6 6 6  1 1"))
    assert again == first and len(first.skewered) == 3
    assert the_bolt.cache_info().misses == 1 and the_bolt.cache_info().hits == 1
    towered = fire_bone_thrower(W.artillery["bone-thrower"], W.positions, target, entered("6"), in_tower=True)
    assert towered.skewered == (("target", 0),) and towered.target.placed.unit.in_tower  # its own line: the tower stops the bolt
    assert the_bolt.cache_info().misses == 2
