"""Warmaster shooting (core rules), cannon (seed 002) and Helblaster (seed 002), with entered dice."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from config.gamedata import warmaster
from engine.dice import EnteredDice, RandomDice
from engine.errors import RulesError
from engine.geometry import Point
from engine.warmaster.cannon import PlacedUnit, fire_cannons
from engine.warmaster.helblaster import band_attacks, fire_helblaster
from engine.warmaster.profiles import Position
from engine.warmaster.shooting import Side, Unit, shoot
from engine.warmaster.stands import Formation, crossings, lay_out
from tests.engine.conftest import NoDice
from tests.engine.replay import assert_replays

W = warmaster()
INF = W.troops["infantry"]
CANNON = W.artillery["cannon"]
HEL = W.artillery["helblaster"]


def unit(name="target", stands=3, hits=3, armour=None, position=Position.OPEN, side=Side.ENEMY, engaged=False, charging=False):
    return Unit(name, stands, hits, armour, position, INF, side, engaged, charging)


def entered(faces: str) -> EnteredDice:
    return EnteredDice(faces, NoDice())


# Core: to hit by position, armour, stands, drive back.

@pytest.mark.parametrize("position, needed", [(Position.OPEN, 4), (Position.DEFENDED, 5), (Position.FORTIFIED, 6)])
def test_to_hit_by_position(position, needed):
    s = shoot(entered(f"{needed} {needed - 1}" + (" 1" if position is Position.OPEN else "")), unit(position=position), 2, W.positions)
    assert s.result.to_hit_needed == needed
    assert s.result.hits == 1


def test_armour_saves_on_its_value_and_stands_go_by_hits():
    # 4 attacks, 3 hit; armour 5+: 5 saves, 4 and 2 do not -> 2 taken, no stand lost, 2 drive-back dice.
    s = shoot(entered("4 5 6 1  5 4 2  3 6"), unit(armour=5), 4, W.positions)
    r = s.result
    assert (r.hits, r.saved, r.hits_taken, r.stands_lost, r.odd_hits) == (3, 1, 2, 0, 2)
    assert r.drive_back.distance == 9 and r.drive_back.confused and not r.drive_back.destroyed


def test_a_stand_is_lost_for_each_full_hits_value():
    s = shoot(entered("6 6 6 6  1 1 1 1"), unit(), 4, W.positions)
    assert (s.result.stands_lost, s.result.odd_hits) == (1, 1)
    assert s.result.drive_back.distance == 4


def test_defended_rolls_one_drive_back_die_fewer_and_fortified_two():
    d = shoot(entered("5 5  3"), unit(position=Position.DEFENDED), 2, W.positions)
    assert len(d.result.drive_back.dice) == 1 and d.result.drive_back.dice_less == 1
    f = shoot(entered("6 6"), unit(position=Position.FORTIFIED), 2, W.positions)
    assert f.result.drive_back is None and "every drive-back die" in f.result.no_drive_back


def test_driven_back_beyond_full_pace_is_destroyed():
    s = shoot(entered("4 4 4 4 4  5 5 5 5 5"), unit(stands=4, hits=6), 5, W.positions)
    assert s.result.drive_back.distance == 25 and s.result.drive_back.destroyed


def test_chargers_and_wiped_out_units_are_not_driven_back():
    c = shoot(entered("6 6"), unit(charging=True), 2, W.positions)
    assert c.result.drive_back is None and c.result.no_drive_back.startswith("charging")
    w = shoot(entered("6 6 6"), unit(stands=1), 3, W.positions)
    assert w.result.wiped_out and w.result.no_drive_back == "wiped out"


def test_armour_worse_and_ignored():
    s = shoot(entered("6  6"), unit(armour=6), 1, W.positions, armour_worse=1)
    assert s.result.save_needed is None and s.result.hits_taken == 1
    s = shoot(entered("6  4"), unit(armour=3), 1, W.positions, armour_ignored=True)
    assert s.result.save_needed is None


def test_bad_units_are_refused():
    with pytest.raises(RulesError, match="stands"):
        unit(stands=0)
    with pytest.raises(RulesError, match="Armour"):
        unit(armour=1)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), attacks=st.integers(1, 20), armour=st.sampled_from([None, 3, 4, 5, 6]),
       position=st.sampled_from(list(Position)))
def test_shooting_properties(seed, attacks, armour, position):
    fire = lambda dice: shoot(dice, unit(armour=armour, position=position, stands=4), attacks, W.positions)
    r = fire(RandomDice(seed)).result
    assert 0 <= r.hits_taken <= r.hits <= attacks
    assert r.stands_lost == min(4, r.hits_taken // 3)
    assert_replays(fire, seed)


# Cannon: the path, the bounce, attacks per unit.

def placed(name, formation, stands, front, side=Side.ENEMY, engaged=False, turn=0.0):
    return PlacedUnit(unit(name, stands=stands, side=side, engaged=engaged), lay_out(formation, stands, front, turn=turn))


def test_column_head_on_takes_two_plus_one_per_further_stand_per_cannon():
    t = placed("target", Formation.COLUMN, 3, Point(0, 30))
    shot = fire_cannons(CANNON, W.positions, t, entered("1 " * 8 + ""), cannons=2)
    assert shot.target.through == (0, 1, 2)
    assert shot.target.attacks == 8
    assert (shot.strike, shot.exit, shot.end) == (Point(0, 30), Point(0, 32), Point(0, 37))
    assert shot.target.result.save_needed is None


def test_line_head_on_takes_two_per_cannon_only():
    t = placed("target", Formation.LINE, 3, Point(0, 30))
    shot = fire_cannons(CANNON, W.positions, t, entered("1 1"), cannons=1)
    assert shot.target.through == (1,) and shot.target.attacks == 2


def test_fortified_counts_as_defended_and_defended_as_open():
    t = PlacedUnit(unit(position=Position.FORTIFIED), lay_out(Formation.LINE, 3, Point(0, 20)))
    shot = fire_cannons(CANNON, W.positions, t, entered("5 4"), cannons=1)
    assert shot.target.result.counts_as is Position.DEFENDED and shot.target.result.hits == 1
    # Fortified still takes two drive-back dice away: one hit, none left.
    assert shot.target.result.drive_back is None


def test_bounce_into_other_units_friends_last_engaged_carry_hits():
    t = placed("target", Formation.LINE, 1, Point(0, 30))
    friend = placed("friend 1", Formation.LINE, 1, Point(0, 33), side=Side.FRIEND)
    engaged = placed("enemy 1", Formation.LINE, 1, Point(0, 35.5), engaged=True)
    far = placed("enemy 2", Formation.LINE, 1, Point(0, 38))
    # Path 30 -> 32 -> 37: target stand, friend (33-35) and the engaged enemy (35.5-37.5); not enemy 2.
    dice = "4 4  6 6   4 4   6 6  1 1"
    shot = fire_cannons(CANNON, W.positions, t, entered(dice), cannons=2, others=(friend, far, engaged))
    names = [u.placed.unit.name for u in shot.units]
    assert names == ["target", "enemy 1", "friend 1"]
    assert [u.attacks for u in shot.units] == [4, 2, 2]
    enemy = shot.units[1].result
    assert enemy.drive_back is None and enemy.no_drive_back.startswith("engaged")
    assert shot.units[2].result.drive_back.distance == 2  # friends' drive back is rolled last


def test_grapeshot_two_attacks_armour_counts_no_bounce():
    t = PlacedUnit(unit(armour=4), lay_out(Formation.COLUMN, 3, Point(0, 5)))
    shot = fire_cannons(CANNON, W.positions, t, entered("6 6 6 6  4 1 1 1"), cannons=2, grapeshot=True)
    r = shot.target.result
    assert shot.target.attacks == 4 and shot.target.through == (0,)
    assert r.save_needed == 4 and r.hits_taken == 3 and r.stands_lost == 1
    assert r.drive_back is None and r.no_drive_back.startswith("charging")


def test_out_of_range_and_overlaps_are_refused():
    with pytest.raises(RulesError, match="beyond"):
        fire_cannons(CANNON, W.positions, placed("target", Formation.LINE, 1, Point(0, 61)), RandomDice(1))
    with pytest.raises(RulesError, match="overlap"):
        fire_cannons(CANNON, W.positions, placed("target", Formation.LINE, 1, Point(0, 30)), RandomDice(1),
                     others=(placed("enemy 1", Formation.LINE, 1, Point(1, 30)),))


def test_a_path_along_an_edge_or_over_a_corner_does_not_go_through():
    stands = lay_out(Formation.LINE, 2, Point(0, 10))
    assert list(crossings(stands, Point(0, 9), Point(0, 20))) == [0, 0]
    assert list(crossings(stands, Point(-5, 11), Point(-3, 9))) == [0, 0]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(1, 6), turn=st.floats(-80, 80), offset=st.floats(-10, 10),
       formation=st.sampled_from(list(Formation)), cannons=st.integers(1, 3))
def test_cannon_properties(seed, n, turn, offset, formation, cannons):
    t = PlacedUnit(unit(stands=n), lay_out(formation, n, Point(offset, 30), turn=turn))
    fire = lambda dice: fire_cannons(CANNON, W.positions, t, dice, cannons=cannons)
    shot = fire(RandomDice(seed))
    assert shot.struck_stand in shot.target.through
    assert shot.target.attacks == cannons * (2 + len(shot.target.through) - 1)
    assert abs((shot.end.length() - shot.exit.length()) - 5) < 1e-6
    assert_replays(fire, seed)


# Helblaster.

@pytest.mark.parametrize("distance, attacks", [(1, 6), (10, 6), (10.5, 3), (20, 3), (25, 1), (30, 1)])
def test_helblaster_bands(distance, attacks):
    assert band_attacks(HEL, distance) == attacks


def test_helblaster_explodes_on_more_ones_than_sixes():
    shot = fire_helblaster(HEL, W.positions, unit(), 5, entered("1 1 6 4 4 4"))
    assert shot.exploded and shot.result is None and len(shot.dice) == 6


def test_helblaster_does_not_explode_on_equal_ones_and_sixes_and_armour_is_worse():
    shot = fire_helblaster(HEL, W.positions, unit(armour=4), 15, entered("1 6 3  4  1"))
    assert not shot.exploded
    assert shot.result.save_needed == 5 and shot.result.hits == 1 and shot.result.hits_taken == 1


def test_helblaster_single_attack_never_explodes():
    shot = fire_helblaster(HEL, W.positions, unit(), 25, entered("1"))
    assert not shot.exploded and shot.hits == 0


def test_helblaster_fewer_attacks_and_bad_range():
    shot = fire_helblaster(HEL, W.positions, unit(), 5, entered("2 3"), attacks=2)
    assert shot.attacks == 2 and shot.band_attacks == 6
    with pytest.raises(RulesError, match="1 to 3"):
        fire_helblaster(HEL, W.positions, unit(), 15, RandomDice(1), attacks=4)
    with pytest.raises(RulesError, match="outside"):
        fire_helblaster(HEL, W.positions, unit(), 31, RandomDice(1))


# Bone Thrower, Elven Bolt Thrower, Rock Lobber, siege artillery.

from engine.warmaster.bolt_thrower import fire_elven_bolt_thrower, fire_rock_lobber  # noqa: E402
from engine.warmaster.bone_thrower import fire_bone_thrower  # noqa: E402
from engine.warmaster.siege_artillery import bombard_as_cannon, fire_siege_artillery  # noqa: E402

BONE = W.artillery["bone-thrower"]


def test_bone_thrower_skewers_three_touching_stands_across_units():
    t = placed("target", Formation.COLUMN, 2, Point(0, 20))
    friend = placed("friend 1", Formation.LINE, 3, Point(1, 24), side=Side.FRIEND)
    enemy = placed("enemy 1", Formation.LINE, 3, Point(1, 26), engaged=True)
    shot = fire_bone_thrower(BONE, W.positions, t, entered("6 6  1 1  6  6"), others=(enemy, friend))
    assert shot.skewered == (("target", 0), ("target", 1), ("friend 1", 1))
    assert [(u.placed.unit.name, u.attacks) for u in shot.units] == [("target", 2), ("friend 1", 1)]
    assert shot.target.result.save_needed is None
    assert shot.units[1].result.hits == 1 and shot.units[1].result.drive_back.distance == 6


def test_bone_thrower_stops_at_a_gap():
    t = placed("target", Formation.COLUMN, 2, Point(0, 20))
    behind = placed("enemy 1", Formation.LINE, 1, Point(0, 24.5))
    shot = fire_bone_thrower(BONE, W.positions, t, entered("1 1"), others=(behind,))
    assert shot.skewered == (("target", 0), ("target", 1)) and len(shot.units) == 1


def test_bone_thrower_engaged_units_carry_hits():
    t = placed("target", Formation.LINE, 1, Point(0, 20))
    engaged = placed("enemy 1", Formation.LINE, 1, Point(0, 22), engaged=True)
    shot = fire_bone_thrower(BONE, W.positions, t, entered("1  6"), others=(engaged,))
    r = shot.units[1].result
    assert r.hits_taken == 1 and r.drive_back is None and r.no_drive_back.startswith("engaged")


def test_elven_bolt_thrower_plus_one_to_hit_and_armour():
    v = fire_elven_bolt_thrower(W.artillery["elven-bolt-thrower"], W.positions, unit(armour=5, position=Position.FORTIFIED), 30,
                                entered("5 4 6  5 1"))
    assert v.result.to_hit_needed == 5 and v.result.hits == 2 and v.result.save_needed == 5 and v.result.hits_taken == 1
    with pytest.raises(RulesError, match="outside"):
        fire_elven_bolt_thrower(W.artillery["elven-bolt-thrower"], W.positions, unit(), 41, RandomDice(1))


def test_rock_lobber_profile_only():
    v = fire_rock_lobber(W.artillery["rock-lobber"], W.positions, unit(armour=4), 60, entered("4 1 1  4"), machines=1)
    assert v.result.attacks == 3 and v.result.save_needed == 4 and v.result.hits_taken == 0


def test_tribock_and_mangonel_ranges_corridor_no_save():
    tri, man = W.siege_artillery["tribock"], W.siege_artillery["mangonel"]
    v = fire_siege_artillery(tri, W.positions, unit(armour=3), 100, entered("6 1 1 1 1 1  2"))
    assert v.result.attacks == 6 and v.result.save_needed is None and v.result.hits_taken == 1
    with pytest.raises(RulesError, match="20-90"):
        fire_siege_artillery(man, W.positions, unit(), 19, RandomDice(1))
    with pytest.raises(RulesError, match="corridor"):
        fire_siege_artillery(man, W.positions, unit(), 50, RandomDice(1), offset=1.5)


def test_bombard_bounces_like_a_cannon_four_attacks():
    b = bombard_as_cannon(W.siege_artillery["bombard"])
    t = placed("target", Formation.COLUMN, 2, Point(0, 80))
    shot = fire_cannons(b, W.positions, t, entered("1 1 1 1 1"), corridor=2)
    assert shot.target.attacks == 5 and shot.end == Point(0, 87)
    with pytest.raises(RulesError, match="corridor"):
        fire_cannons(b, W.positions, placed("target", Formation.LINE, 1, Point(5, 50)), RandomDice(1), corridor=2)


def test_stands_at_given_centres_match_a_line():
    from engine.warmaster.stands import lay_out_at

    assert lay_out_at((Point(-2, 1), Point(2, 1)), Point(0, 30)) == tuple(sorted(lay_out(Formation.LINE, 2, Point(0, 30)), key=lambda s: s.cx))
    turned = lay_out_at((Point(0, 1),), Point(0, 30), turn=90)
    assert (round(turned[0].cx, 6), round(turned[0].cy, 6), turned[0].facing) == (1.0, 30.0, 270.0)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), distance=st.floats(0.5, 30), armour=st.sampled_from([None, 3, 4, 5, 6]), fewer=st.integers(0, 5))
def test_helblaster_properties(seed, distance, armour, fewer):
    allowed = band_attacks(HEL, distance)
    attacks = max(1, allowed - fewer)
    fire = lambda dice: fire_helblaster(HEL, W.positions, unit(armour=armour), distance, dice, attacks=attacks)
    shot = fire(RandomDice(seed))
    assert shot.exploded == (attacks > 1 and shot.ones > shot.sixes)
    assert shot.exploded == (shot.result is None)
    if armour is not None and shot.result is not None and shot.result.hits:
        assert shot.result.save_needed == (armour + 1 if armour < 6 else None)
    assert_replays(fire, seed)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(1, 5), formation=st.sampled_from(list(Formation)), turn=st.floats(-60, 60),
       behind=st.floats(0, 3))
def test_bone_thrower_properties(seed, n, formation, turn, behind):
    t = PlacedUnit(unit(stands=n), lay_out(formation, n, Point(0, 20), turn=turn))
    extra = placed("enemy 1", Formation.LINE, 3, Point(0, 40 + behind))
    fire = lambda dice: fire_bone_thrower(BONE, W.positions, t, dice, others=(extra,))
    shot = fire(RandomDice(seed))
    assert 1 <= len(shot.skewered) <= 3 and shot.skewered[0][0] == "target"
    assert sum(u.attacks for u in shot.units) == len(shot.skewered)
    assert all(u.result.save_needed is None for u in shot.units)
    assert_replays(fire, seed)


def test_no_bounce_through_troops_in_a_tower():
    t = placed("target", Formation.COLUMN, 3, Point(0, 30))
    shot = fire_cannons(CANNON, W.positions, t, entered("1 1 1 1"), cannons=2, in_tower=True)
    assert shot.target.through == (0,) and shot.target.attacks == 4 and shot.end == shot.strike


@settings(max_examples=60, deadline=None)
@given(tokens=st.integers(-5, 60), shots=st.integers(-5, 60), to_hit=st.integers(0, 8))
def test_structure_refuses_what_is_out_of_bounds(tokens, shots, to_hit):
    from engine.warmaster.structure import MAX_SHOTS, MAX_TOKENS, structure_test

    good = 0 <= tokens <= MAX_TOKENS and 0 <= shots <= MAX_SHOTS and 2 <= to_hit <= 6
    if good:
        structure_test(W.structures["wall"], RandomDice(1), shots=shots, tokens=tokens, to_hit=to_hit)
    else:
        with pytest.raises(RulesError):
            structure_test(W.structures["wall"], RandomDice(1), shots=shots, tokens=tokens, to_hit=to_hit)


def test_a_path_along_another_units_edge_does_not_go_through_and_the_unit_is_named_grazed():
    # The bounce runs straight up x = 0; the other unit's stands (4 cm wide, centred on x = 2) have
    # their left edge on x = 0: along an edge is not through, so it takes no attacks (seed 002).
    target = PlacedUnit(unit("target", 2), lay_out(Formation.COLUMN, 2, Point(0, 20)))
    side = PlacedUnit(unit("enemy 2", 2), lay_out(Formation.COLUMN, 2, Point(2, 25)))
    shot = fire_cannons(W.artillery["cannon"], W.positions, target, RandomDice(3), cannons=1, others=(side,))
    assert [u.placed.unit.name for u in shot.units] == ["target"]
    assert shot.grazed == ("enemy 2",)
    # A unit 1 cm further off is neither hit nor grazed; one 1 cm nearer is on the path.
    far = PlacedUnit(unit("enemy 2", 2), lay_out(Formation.COLUMN, 2, Point(3, 25)))
    assert fire_cannons(W.artillery["cannon"], W.positions, target, RandomDice(3), cannons=1, others=(far,)).grazed == ()
    near = PlacedUnit(unit("enemy 2", 2), lay_out(Formation.COLUMN, 2, Point(1, 25)))
    hit = fire_cannons(W.artillery["cannon"], W.positions, target, RandomDice(3), cannons=1, others=(near,))
    assert hit.grazed == () and [u.placed.unit.name for u in hit.units] == ["target", "enemy 2"]
