"""Issue 16, Warmaster: scenario tests with entered dice, each quoting the seed line it follows."""

from __future__ import annotations

from config.gamedata import warmaster
from engine.dice import EnteredDice
from engine.geometry import Point
from engine.warmaster.battering import Batterer, batter
from engine.warmaster.cannon import PlacedUnit, fire_cannons
from engine.warmaster.profiles import Position
from engine.warmaster.shooting import Side, Unit, shoot
from engine.warmaster.stands import Formation, lay_out
from tests.engine.conftest import NoDice

W = warmaster()
INF = W.troops["infantry"]
CANNON = W.artillery["cannon"]


def entered(faces: str) -> EnteredDice:
    return EnteredDice(faces, NoDice())


def unit(name="target", stands=3, hits=3, armour=None, position=Position.OPEN, **kw) -> Unit:
    return Unit(name, stands, hits, armour, position, INF, Side.ENEMY, **kw)


# 1. Troops in a tower.
# Seed 001, The watchtower: "cannons shooting at troops manning the tower have no bounce-through
# effect. Also remember that troops within the tower do not roll for drive back and are never confused."

def test_cannon_at_troops_in_a_tower_no_bounce_no_drive_back_never_confused():
    t = PlacedUnit(unit(position=Position.FORTIFIED), lay_out(Formation.COLUMN, 3, Point(0, 30)))
    # 2 cannons: 2 attacks each, no bounce-through: 4 attacks; fortified counts as defended: 5+.
    # Four 6s: 4 hits, 1 stand lost, 1 over. No drive-back die is rolled (NoDice would refuse one).
    shot = fire_cannons(CANNON, W.positions, t, entered("6 6 6 6"), cannons=2, in_tower=True)
    r = shot.target.result
    assert shot.target.attacks == 4 and shot.end == shot.strike
    assert (r.hits_taken, r.stands_lost) == (4, 1)
    assert r.drive_back is None and "tower" in r.no_drive_back
    assert len(shot.dice) == 4


def test_shooting_at_a_unit_in_a_tower_rolls_no_drive_back():
    s = shoot(entered("6 6"), unit(position=Position.FORTIFIED, in_tower=True), 2, W.positions)
    assert s.result.hits_taken == 2 and s.result.drive_back is None
    assert s.result.no_drive_back.startswith("in a tower")


# 2. A gateway tower and its gate (the engine side: the gate's own points; the linking is the
# cog's, tests/cogs/warmaster/test_warmaster_fidelity_cog.py).
# Seed 001, Fortification list, footnote 2: "The gateway may be destroyed independently with a
# Structure Point value of 12." The list puts footnote 2 on the palisade tower too.

def test_a_palisade_tower_may_carry_a_gateway_tested_at_12():
    from engine.warmaster.structure import structure_test

    t = structure_test(W.structures["palisade-tower"], entered("6 6 1"), hits=3, gate=True)
    assert t.points == 12 and t.total == 13 and t.destroyed
    tower = structure_test(W.structures["palisade-tower"], entered("6 6 1"), hits=3)
    assert tower.points == 25 and not tower.destroyed


# 5. Tokens test even without hits; a failed battering attempt leaves the test due.
# Seed 001, Structure tests: "If there are Destruction Tokens on a building it must make a
# Structure Test at the end of the attacker's Shooting phase, even if it took no hits in the current round."

def test_a_failed_battering_attempt_on_a_section_with_tokens_leaves_its_test_due():
    who = unit(name="battering unit", stands=3, hits=3, armour=5)
    # 6 stand-and-shoot attacks at the ram (3+ save): six 6s hit; saves 1 1 1 -> 3 taken, a stand lost.
    b = batter(W.structures["wall"], W.siege, W.oil, W.positions, who, entered("6 6 6 6 6 6 1 1 1 1 1 1"),
               batterer=Batterer.RAM, shots=6, tokens=4)
    assert b.failed and b.test is None and b.test_due and b.tokens_after == 4


def test_a_failed_attempt_on_a_section_without_tokens_leaves_nothing_due():
    who = unit(name="battering unit", stands=3, hits=3)
    b = batter(W.structures["wall"], W.siege, W.oil, W.positions, who, entered("6 6 6 6 6 6 1 1 1 1 1 1"), shots=6)
    assert b.failed and not b.test_due
