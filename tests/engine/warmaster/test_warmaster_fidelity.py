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


# 4. Stand and shoot. Seed 002, Helblaster: "A Helblaster can shoot at charging enemy in the usual
# way and can hold its fire until the last moment"; Bone Thrower: "Bone Throwers can shoot at
# charging enemy and can do so at any point as the enemy charge". Hits on a charger carry into the
# combat; it is not driven back.

def test_helblaster_stands_and_shoots_hits_carry_no_drive_back():
    from engine.warmaster.helblaster import fire_helblaster

    shot = fire_helblaster(W.artillery["helblaster"], W.positions, unit(charging=True), 5, entered("6 6 6 4 4 1"))
    r = shot.result
    assert not shot.exploded and (r.hits_taken, r.stands_lost) == (5, 1)
    assert r.drive_back is None and r.no_drive_back.startswith("charging")


def test_bone_thrower_stands_and_shoots_hits_carry_no_drive_back():
    from engine.warmaster.bone_thrower import fire_bone_thrower

    t = PlacedUnit(unit(charging=True), lay_out(Formation.COLUMN, 3, Point(0, 20)))
    shot = fire_bone_thrower(W.artillery["bone-thrower"], W.positions, t, entered("6 6 5"))
    r = shot.target.result
    assert (r.hits_taken, r.stands_lost) == (3, 1) and r.drive_back is None


# 8. Details.

def test_the_grapeshot_key_shows_no_bounce():
    from renders.warmaster.artillery import cannon_path_words

    t = PlacedUnit(unit(), lay_out(Formation.COLUMN, 3, Point(0, 10)))
    grape = fire_cannons(CANNON, W.positions, t, entered("1 1 1 1"), cannons=2, grapeshot=True)
    assert "bounce" in cannon_path_words(grape) and "no bounce" in cannon_path_words(grape)
    ball = fire_cannons(CANNON, W.positions, t, entered("1 1 1 1 1 1 1 1"), cannons=2)
    assert cannon_path_words(ball).endswith("+ 5 cm")


def test_a_unit_turned_90_degrees_shows_its_flank_centred_on_the_line_of_fire():
    from engine.warmaster.stands import lay_out_centred

    # A column of three turned 90: its middle stand sits across the line of fire, the nearest
    # edge still 20 cm away; the ball goes through that stand (not along an edge).
    stands = lay_out_centred(Formation.COLUMN, 3, Point(0, 20), turn=90)
    assert [round(s.cx, 6) for s in stands] == [-2, 0, 2]
    assert min(c.y for s in stands for c in s.corners()) == 20
    shot = fire_cannons(CANNON, W.positions, PlacedUnit(unit(), stands), entered("1 1 1 1"), cannons=2)
    assert shot.target.through == (1,) and shot.strike.x == 0
    assert lay_out_centred(Formation.LINE, 3, Point(0, 20)) == lay_out(Formation.LINE, 3, Point(0, 20))


# 7. Points and list limits. Seed 001, Fortification list: Gateway 40 (1/-), Gateway tower 150,
# Wall 55, Sally gate +10 (-/1), Tower 200, Palisade tower 165, Palisade wall 45, Earthwork 15;
# Siege equipment list: boiling oil 5, log rams 5, ladders 5, sow 5, mantlets 10, siege towers 20,
# battering ram 10; Siege artillery list: mangonel 80, bombard 130, tribock 120, each -/1.

def test_every_item_costs_what_the_lists_say():
    costs = {k: e.cost for k, e in W.equipment.items() if e.list != "army"}
    assert costs == {"gateway": 40, "gateway-tower": 150, "wall": 55, "sally-gate": 10, "tower": 200, "palisade-tower": 165,
                     "palisade-wall": 45, "earthwork": 15, "boiling-oil": 5, "log-rams": 5, "ladders": 5, "sow": 5,
                     "mantlets": 10, "siege-tower": 20, "battering-ram": 10, "mangonel": 80, "bombard": 130, "tribock": 120}
    assert {k for k, e in W.equipment.items() if e.max == 1} == {"sally-gate", "mangonel", "bombard", "tribock"}


def items(**counts):
    return tuple((W.equipment[k.replace("_", "-")], n) for k, n in counts.items())


def test_a_list_within_every_limit():
    from engine.warmaster.siege_lists import check_list

    c = check_list(W.siege, 2000, items(gateway=1, wall=4, tower=2, boiling_oil=2, tribock=1, cannon=2), defender=True)
    assert c.ok and c.cost == 40 + 220 + 400 + 10 + 120 and c.breaching == 3 and c.breaching_allowed == 4


def test_what_breaks_which_limit():
    from engine.warmaster.siege_lists import check_list

    # Seed 001: "No army may ever have more than two wallbreaching artillery per 1000 points";
    # the bombard "May not be used by Elves of any kindred, or Bretonnians"; fortifications "Only
    # defenders"; ladders "Attackers only"; the defender's maximums "rounding up to the nearest 1000".
    c = check_list(W.siege, 1500, items(wall=2, bombard=2, tribock=3, ladders=1), defender=True, army="Bretonnians")
    assert c.minimum_limits == 1000 and c.maximum_limits == 2000
    assert c.problems == (
        "Bombard: Bretonnians may not field one.",
        "Tribock x3: at most 1 per 1000 points, 2 for a 2000-point defender's maximums.",
        "Ladders: the attacker's only, not the defender's.",
        "Gateway: a defender who buys fortifications needs at least one gateway (or gateway tower).",
        "Wall-breaching artillery x5: at most 2 per whole 1000 points, 2 for 1500 points.",
    )
    attacker = check_list(W.siege, 1500, items(tribock=2, tower=1), defender=False)
    assert "Tribock x2: at most 1 per 1000 points, 1 for a 1000-point attacker's maximums." in attacker.problems
    assert "Tower: the defender's only, not the attacker's." in attacker.problems


# 3. Assaults (seed 001, Assaults, Counter attacks on ramparts, Towers, Flyers attacking fortifications).

def fighters(name, stands=3, hits=3, armour=None, fighting=1, attack=3, troop="infantry", **kw):
    from engine.warmaster.assault import Fighters

    return Fighters(Unit(name, stands, hits, armour, Position.OPEN, W.troops[troop]), fighting, attack, **kw)


def test_the_ogres_counter_attack_is_two_units_each_with_its_own_hits():
    # "The result of the Bowmen's four attacks is 6-6-3-2, the Men-at-arms' is 6-4-3-2, and the
    # ogres save none. The Ogres hit the Bowmen with 6-5-1-1 and the Men-at-arms with 6-4-3-3 (the
    # Men-at-arms save none). The combat result is 4:4".
    from engine.warmaster.assault import AssaultKind, assault

    a = assault(entered("6 6 3 2 1 2  6 4 3 2 3 4  6 5 1 1  6 4 3 3 1 2"), W.positions,
                fighters("bowmen"), fighters("ogres", stands=3, hits=4, armour=5, attack=4),
                kind=AssaultKind.RAMPARTS, others=(fighters("men-at-arms", armour=6, struck_by=1),))
    assert (a.attackers_result, a.defenders_result) == (4, 4) and a.outcome.value == "draw"
    assert a.attackers_struck.hits_taken == 2 and a.others[0].struck.hits_taken == 2
    assert a.defenders_struck.hits_taken == 2 and a.others[0].struck_back.hits_taken == 2


def test_a_courtyard_counter_charge_finds_the_rampart_defended():
    # "Stands holding the ramparts of walls against attacks from the inner side of the fortress do
    # not count as being fortified. Because of the advantage of height they count as being defended."
    from engine.warmaster.assault import AssaultKind, assault

    a = assault(entered("5 5 5 4  1 1 1"), W.positions, fighters("chargers", attack=4), fighters("holders"),
                kind=AssaultKind.COURTYARD)
    assert a.attackers_struck.to_hit_needed == 5 and a.attacker_bonus == 0
    assert a.outcome.value == "attackers win" and a.defenders_destroyed


def test_tower_defenders_are_never_driven_out_and_then_count_as_defended():
    # "When charged, the defending stands in a tower count as fortified. If the attacker wins the
    # first round ... the attacker will gain the normal pursuit bonus. The defender has defended
    # status in the following rounds ... Defenders of a tower can never be driven out of a tower".
    from engine.warmaster.assault import AssaultKind, assault

    first = assault(entered("6 6 1  1 1 1"), W.positions, fighters("grave guard"), fighters("cannons"), kind=AssaultKind.TOWER)
    assert first.attackers_struck.to_hit_needed == 6 and first.outcome.value == "attackers win"
    assert first.defenders_hold and first.retreat == 0 and not first.defenders_destroyed
    later = assault(entered("5 1 1 1  1 1 1"), W.positions, fighters("grave guard"), fighters("cannons"), kind=AssaultKind.TOWER,
                    won_before=True)
    assert later.attackers_struck.to_hit_needed == 5 and later.attacker_bonus == 1 and later.attackers_struck.attacks == 4


def test_flyers_that_lose_a_round_are_destroyed():
    # "if they are attacked and lose a round of combat or if they are pushed back they are destroyed."
    from engine.warmaster.assault import AssaultKind, assault

    a = assault(entered("1 1 1  6 6 1"), W.positions, fighters("bats", flyers=True), fighters("helblaster"),
                kind=AssaultKind.TOWER)
    assert a.outcome.value == "defenders win" and a.attackers_destroyed


def test_artillery_forced_to_retreat_is_destroyed():
    # "Artillery stands are automatically destroyed if forced to retreat."
    from engine.warmaster.assault import AssaultKind, assault

    a = assault(entered("6 6 6  1 1 1"), W.positions, fighters("orcs"), fighters("cannons", hits=2, troop="artillery"),
                kind=AssaultKind.WALL)
    assert a.outcome.value == "attackers win" and a.defenders_destroyed
