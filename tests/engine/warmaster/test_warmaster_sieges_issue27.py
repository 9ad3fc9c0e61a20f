"""Issue 27, Warmaster sieges (third fidelity pass): a test per item, with entered dice, each quoting
the seed lines it follows (`001:92` is line 92 of seed 001, Siege & Fortresses)."""

from __future__ import annotations

import pytest

from config.gamedata import warmaster
from engine.dice import EnteredDice, RandomDice
from engine.errors import RulesError
from engine.warmaster.assault import AssaultKind, Fighters, Outcome, assault
from engine.warmaster.profiles import Position
from engine.warmaster.shooting import Unit
from engine.warmaster.structure import structure_test
from tests.engine.conftest import NoDice

W = warmaster()


def entered(faces: str) -> EnteredDice:
    return EnteredDice(faces, NoDice())


def fighters(name, stands=3, hits=3, armour=None, fighting=1, attack=3, troop="infantry", **kw) -> Fighters:
    return Fighters(Unit(name, stands, hits, armour, Position.OPEN, W.troops[troop]), fighting, attack, **kw)


# 1. Flyers that win a round against a tower.
# 001:118: "They may never occupy fortifications and thus if they win a round of combat against
# troops in fortifications, they may not pursue them for a second round of combat and may either
# stand their ground, or fall back."
# 001:119: "The normal rules for attacking towers still apply though, so the defenders will not retreat".

def test_flyers_that_win_at_a_tower_stop_and_the_defenders_stay():
    # Bats (flyers) at a tower: 6s to hit (fortified), 6 6 1 -> 2 hits; the defenders 1 1 1 miss.
    a = assault(entered("6 6 1  1 1 1"), W.positions, fighters("bats", flyers=True), fighters("cannons"), kind=AssaultKind.TOWER)
    assert a.outcome is Outcome.ATTACKERS_WIN and (a.attackers_result, a.defenders_result) == (2, 0)
    assert a.defenders_hold and a.retreat == 0 and not a.defenders_destroyed
    assert a.flyers_stop and not a.fight_on


def test_flyers_are_refused_a_second_round_with_the_pursuit_bonus():
    with pytest.raises(RulesError, match="Flyers never fight a second round"):
        assault(RandomDice(1), W.positions, fighters("bats", flyers=True), fighters("cannons"), kind=AssaultKind.TOWER,
                won_before=True)
    with pytest.raises(RulesError, match="Flyers never fight a second round"):
        assault(RandomDice(1), W.positions, fighters("guards"), fighters("cannons"), kind=AssaultKind.TOWER, won_before=True,
                others=(fighters("bats", flyers=True),))


def test_walkers_fight_on_into_a_tower_while_flyers_beside_them_stop():
    # Grave guard and bats at two facings: 6 6 1 and 6 1 1 -> 3 hits; the defenders miss both.
    a = assault(entered("6 6 1  6 1 1  1 1 1  1 1 1"), W.positions, fighters("grave guard"), fighters("helblaster", stands=2),
                kind=AssaultKind.TOWER, others=(fighters("bats", flyers=True),))
    assert a.defenders_hold and a.fight_on and a.flyers_stop


def test_flyers_winning_on_a_wall_still_drive_the_defenders_off():
    # 001:118: "The defenders, however, do still have to retreat."
    a = assault(entered("6 6 1  1 1 1"), W.positions, fighters("bats", flyers=True), fighters("spears"), kind=AssaultKind.WALL)
    assert a.outcome is Outcome.ATTACKERS_WIN and not a.defenders_hold and a.retreat == 2 and a.flyers_stop


# 2. Several attacking units: one combat, the defenders' losses totalled.
# 001:106: "If the tower is attacked by more than one unit ... However the following combat will
# count as one big combat."
# 001:92: "The result of the Bowmen's four attacks is 6-6-3-2, the Men-at-arms' is 6-4-3-2, and
# the ogres save none. The Ogres hit the Bowmen with 6-5-1-1 and the Men-at-arms with 6-4-3-3
# (the Men-at-arms save none). The combat result is 4:4 and the Ogres (losing one stand) may hold
# their position".

def test_worked_example_the_ogres_on_the_ramparts_lose_one_stand():
    """The worked example of 001:89-92: Bowmen charge from the tower, Men-at-arms from the next
    rampart; one stand each (001:87), each +1 attack for coming from the same level (3 + 1 = 4
    dice). 2 + 2 hits on the Ogres (Hits 4): one stand lost, counted over both units. The Ogres
    answer each with one stand of Attack 4: 2 + 2 hits. 4:4, a draw (001:88: carries on)."""
    bowmen = fighters("Bowmen", stands=3)
    men = fighters("Men-at-arms", stands=3, armour=6)
    ogres = fighters("Ogres", stands=3, hits=4, armour=5, attack=4)
    a = assault(entered("6 6 3 2 1 2  6 4 3 2 3 4  6 5 1 1  6 4 3 3 1 2"), W.positions, bowmen, ogres,
                kind=AssaultKind.RAMPARTS, others=(men,))
    assert a.attackers_struck.hits_taken == 2 and a.others[0].struck.hits_taken == 2
    assert a.defenders_hits_taken == 4 and a.defenders_lost == 1
    assert (a.attackers_result, a.defenders_result) == (4, 4) and a.outcome is Outcome.DRAW
    assert a.attackers_lost == 0 and a.others[0].lost == 0 and not a.defenders_destroyed


@pytest.mark.parametrize("kind", [AssaultKind.WALL, AssaultKind.COURTYARD, AssaultKind.TOWER])
def test_every_kind_of_assault_totals_the_defenders_losses(kind):
    # Two units score 2 hits each on Hits 3 defenders: 4 together, one stand lost (neither alone would).
    a = assault(entered("6 6 1  6 6 1  1 1 1  1 1 1"), W.positions, fighters("orcs"), fighters("spears"), kind=kind, others=(fighters("goblins"),))
    if kind is AssaultKind.COURTYARD:  # defended: 5+ to hit, still 2 + 2
        assert a.attackers_struck.to_hit_needed == 5
    assert a.defenders_hits_taken == 4 and a.defenders_lost == 1


def test_two_units_wipe_out_a_unit_neither_could_alone():
    a = assault(entered("6 6 6  6 6 6  1 1 1  1 1 1"), W.positions, fighters("orcs"), fighters("spears", stands=2),
                others=(fighters("goblins"),))
    assert a.defenders_lost == 2 and a.defenders_destroyed and a.outcome is Outcome.ATTACKERS_WIN


# 3. Only a gateway tower and a palisade tower have a gate.
# 001:376: "†2 The gateway may be destroyed independently with a Structure Point value of 12. If
# the tower is destroyed the gateway is destroyed with it." (†2 is on the Gateway tower, 001:313,
# and the Palisade tower, 001:353, only; the Tower, 001:334-343, has †1 alone.)

@pytest.mark.parametrize("kind", ["tower", "wall", "gateway", "palisade-wall"])
def test_no_gate_on_any_other_kind(kind):
    with pytest.raises(RulesError, match="only a gateway tower or a palisade tower"):
        structure_test(W.structures[kind], RandomDice(1), hits=1, gate=True)


@pytest.mark.parametrize("kind", ["gateway-tower", "palisade-tower"])
def test_a_gate_of_its_own_on_the_two_that_have_one(kind):
    t = structure_test(W.structures[kind], entered("6 6 1"), hits=3, gate=True)
    assert t.points == 12 and t.destroyed


# 4. One stand on a counter-attacked rampart and at a tower.
# 001:87: "Only one stand may come into combat contact and neither side gains support from friendly stands."
# 001:104: "only one stand may attack each facing of the tower ... These must be from different units
# and the defender may also only defend with one stand per facing".

@pytest.mark.parametrize("kind", [AssaultKind.RAMPARTS, AssaultKind.TOWER])
def test_one_stand_a_unit_on_the_ramparts_and_at_a_tower(kind):
    with pytest.raises(RulesError, match="only one stand of each unit fights"):
        assault(RandomDice(1), W.positions, fighters("orcs", fighting=2), fighters("spears"), kind=kind)
    with pytest.raises(RulesError, match="one stand against each attacking unit"):
        assault(RandomDice(1), W.positions, fighters("orcs"), fighters("spears", fighting=2), kind=kind)
    with pytest.raises(RulesError, match="only one stand of each unit fights"):
        assault(RandomDice(1), W.positions, fighters("orcs"), fighters("spears"), kind=kind,
                others=(fighters("goblins", fighting=2),))
    # One stand each: 4 attacks with the +1 on the ramparts, 3 at a tower (fortified: no bonus).
    a = assault(RandomDice(3), W.positions, fighters("orcs"), fighters("spears"), kind=kind)
    assert a.attackers_struck.attacks == (4 if kind is AssaultKind.RAMPARTS else 3) and a.defenders_struck.attacks == 3


def test_a_wall_assault_still_fights_with_every_stand_in_contact():
    # 001:71: "The two sides then fight a round of combat as if they were touching."
    a = assault(RandomDice(3), W.positions, fighters("orcs", fighting=3), fighters("spears", fighting=2))
    assert a.attackers_struck.attacks == 9 and a.defenders_struck.attacks == 6


# 5. Troops manning a tower, for every machine.
# 001:523: "Be aware that cannons shooting at troops manning the tower have no bounce-through
# effect. Also remember that troops within the tower do not roll for drive back and are never confused."
# 001:254: "This does not apply when shooting at walls/towers as the stonework will obviously stop
# the cannon ball and prevent it bouncing."

def in_tower(name="target", stands=3, armour=None, position=Position.FORTIFIED) -> Unit:
    return Unit(name, stands, 3, armour, position, W.troops["infantry"], in_tower=True)


def test_helblaster_at_troops_in_a_tower_rolls_no_drive_back():
    from engine.warmaster.helblaster import fire_helblaster

    # 6 attacks at 8 cm, fortified 6+: five 6s and a 1 (no explosion: 1 one against 5 sixes). NoDice refuses a drive-back die.
    shot = fire_helblaster(W.artillery["helblaster"], W.positions, in_tower(), 8, entered("6 6 6 6 6 1"))
    assert shot.result.hits_taken == 5 and shot.result.drive_back is None and shot.result.no_drive_back.startswith("in a tower")


@pytest.mark.parametrize("fire, key", [("fire_elven_bolt_thrower", "elven-bolt-thrower"), ("fire_rock_lobber", "rock-lobber")])
def test_bolt_thrower_and_rock_lobber_at_troops_in_a_tower(fire, key):
    from engine.warmaster import bolt_thrower

    v = getattr(bolt_thrower, fire)(W.artillery[key], W.positions, in_tower(), 30, entered("6 6 6"))
    assert v.result.stands_lost == 1 and v.result.drive_back is None and "tower" in v.result.no_drive_back


@pytest.mark.parametrize("weapon", ["tribock", "mangonel"])
def test_tribock_and_mangonel_at_troops_in_a_tower(weapon):
    from engine.warmaster.siege_artillery import fire_siege_artillery

    w = W.siege_artillery[weapon]
    v = fire_siege_artillery(w, W.positions, in_tower(), 50, entered(" ".join(["6"] * w.attacks)))
    assert v.result.hits_taken == w.attacks and v.result.drive_back is None and "tower" in v.result.no_drive_back


def test_the_bombards_ball_is_stopped_by_a_tower():
    from engine.geometry import Point
    from engine.warmaster.cannon import PlacedUnit, fire_cannons
    from engine.warmaster.siege_artillery import bombard_as_cannon
    from engine.warmaster.stands import Formation, lay_out

    target = PlacedUnit(in_tower(), lay_out(Formation.COLUMN, 3, Point(0, 50)))
    shot = fire_cannons(bombard_as_cannon(W.siege_artillery["bombard"]), W.positions, target, entered("5 5 5 1"), in_tower=True,
                        corridor=2)
    # 4 attacks, no +1 for stands bounced through; fortified counts as defended: 5+.
    assert shot.target.attacks == 4 and shot.end == shot.strike and shot.target.result.hits_taken == 3
    assert shot.target.result.drive_back is None


def test_the_bone_throwers_bolt_stops_in_the_first_stand_of_a_tower():
    from engine.geometry import Point
    from engine.warmaster.bone_thrower import fire_bone_thrower
    from engine.warmaster.cannon import PlacedUnit
    from engine.warmaster.stands import Formation, lay_out

    target = PlacedUnit(Unit("target", 3, 3, None, Position.FORTIFIED, W.troops["infantry"]),
                        lay_out(Formation.COLUMN, 3, Point(0, 20)))
    shot = fire_bone_thrower(W.artillery["bone-thrower"], W.positions, target, entered("6"), in_tower=True)
    assert len(shot.skewered) == 1 and shot.target.attacks == 1 and shot.in_tower
    assert shot.target.result.drive_back is None and "tower" in shot.target.result.no_drive_back


# 6. A lost assault from a siege tower.
# 001:161: "If a unit assaulting walls via Siege Tower loses the combat and retreats 4cm or less, it
# still counts as being in the tower and can assault again in the next turn. If the unit retreats
# more than 4cm and the wall section it faces is subsequently occupied by the enemy, it is
# automatically destroyed. They push it over!"

def test_thrown_back_4_cm_or_less_the_unit_stays_in_its_siege_tower():
    # One attacking stand, 4 attacks in the open: 1 1 1 1; two defending stands, 6 attacks: 6 6 1 1 1 1.
    a = assault(entered("1 1 1 1  6 6 1 1 1 1"), W.positions, fighters("orcs"), fighters("spears", fighting=2),
                kind=AssaultKind.SIEGE_TOWER)
    assert a.outcome is Outcome.DEFENDERS_WIN and a.retreat == 2 and a.siege_tower == "stays"


def test_thrown_back_further_the_siege_tower_is_pushed_over():
    a = assault(entered("1 1 1 1  6 6 6 6 6 1"), W.positions, fighters("orcs", stands=4), fighters("spears", fighting=2),
                kind=AssaultKind.SIEGE_TOWER)
    assert a.outcome is Outcome.DEFENDERS_WIN and a.retreat == 5 and a.siege_tower == "pushed over"


def test_a_siege_tower_assault_that_fails_to_stand_and_shoot_is_a_retreat_too():
    a = assault(entered(""), W.positions, fighters("orcs"), fighters("spears"), kind=AssaultKind.SIEGE_TOWER, shot_hits=5)
    assert a.outcome is Outcome.FAILED and a.retreat == 5 and a.siege_tower == "pushed over"
    won = assault(entered("6 6 6 6  1 1 1"), W.positions, fighters("orcs"), fighters("spears"), kind=AssaultKind.SIEGE_TOWER)
    assert won.siege_tower is None


# 7. Siege equipment shot at.
# 001:149: "All enemy shots against the unit are assumed to hit the Siege Tower because the troops
# are actually inside it. A Siege Tower and the unit inside it cannot be driven back by missile fire."
# 001:177 (the battering ram, the same); 001:456: "†3 Have a move of 15. Are not driven back by shooting."
# 001:199-200: mantlets: "the unit is considered to be in a defended position ... if driven back more
# than its half pace move (10cm for standard infantry), the unit automatically abandons its Mantlets".

def sheltered(equipment, **kw) -> Unit:
    from engine.warmaster.siege_equipment import Equipment, target_of_shooting

    base = Unit("orcs", 3, 3, 6, Position.OPEN, W.troops["infantry"], **kw)
    return target_of_shooting(base, Equipment(equipment), dict(W.siege_profiles), W.troops["machine"])


@pytest.mark.parametrize("equipment", ["battering-ram", "sow"])
def test_shots_hit_the_machine_which_is_never_driven_back(equipment):
    from engine.warmaster.shooting import shoot

    t = sheltered(equipment)
    assert (t.stands, t.hits, t.armour, t.position, t.equipment) == (1, 3, 3, Position.OPEN, equipment)
    s = shoot(entered("6 6 1 1  1 1"), t, 4, W.positions)  # 2 hits, 3+ save: 1 1 -> both taken
    assert s.result.hits_taken == 2 and s.result.drive_back is None and "never driven back" in s.result.no_drive_back


# 001:148: "As Siege Towers are such huge constructions the same shooting rules apply to them as to
# wall sections"; 001:29: "a wall, gateway or tower counts as fortified (6 to hit) but has no armour".

def test_a_siege_tower_is_shot_at_as_a_wall_section_fortified_with_no_armour():
    from engine.warmaster.shooting import shoot

    t = sheltered("siege-tower")
    assert (t.stands, t.hits, t.armour, t.position, t.equipment) == (1, 3, None, Position.FORTIFIED, "siege-tower")
    s = shoot(entered("6 6 6 5"), t, 4, W.positions)  # 6+ to hit: three 6s; no armour roll: a whole stand
    assert s.result.to_hit_needed == 6 and s.result.hits == 3 and s.result.saves == ()
    assert s.result.stands_lost == 1 and s.result.drive_back is None  # destroyed: the unit in it abandons it
    # The same dice at a battering ram (in the open, 3+ save): four hits, two saved.
    ram = shoot(entered("6 6 6 5  3 4 1 2"), sheltered("battering-ram"), 4, W.positions)
    assert ram.result.hits == 4 and ram.result.hits_taken == 2 and ram.result.stands_lost == 0


def test_a_siege_tower_in_the_open_or_defended_is_still_fortified():
    assert sheltered("siege-tower").position is Position.FORTIFIED
    from engine.warmaster.siege_equipment import Equipment, target_of_shooting

    base = Unit("orcs", 3, 3, 6, Position.DEFENDED, W.troops["infantry"])
    t = target_of_shooting(base, Equipment.SIEGE_TOWER, dict(W.siege_profiles), W.troops["machine"])
    assert t.position is Position.FORTIFIED and t.armour is None


def test_stand_and_shoot_at_a_unit_assaulting_from_a_siege_tower_takes_its_3_plus():
    # 001:206 and 001:77: the troops in the tower save with its 3+ when it is better than their own.
    t = sheltered("siege-tower", charging=True)
    assert (t.stands, t.armour, t.position) == (3, 3, Position.OPEN)


def test_stand_and_shoot_at_a_unit_assaulting_under_a_sow_takes_the_sows_save():
    # 001:77: attackers under siege equipment save with its armour when it is the better one.
    from engine.warmaster.shooting import shoot

    t = sheltered("sow", charging=True)
    assert (t.stands, t.armour) == (3, 3)
    s = shoot(entered("6 6  3 2"), t, 2, W.positions)
    assert s.result.hits_taken == 1 and s.result.drive_back is None


def test_mantlets_count_as_defended_and_are_lost_past_half_pace():
    from engine.warmaster.shooting import shoot

    t = sheltered("mantlets")
    assert t.position is Position.DEFENDED and t.stands == 3
    # 3 hits on 5+ (armour 6+: 1 1 1), one drive-back die fewer (defended): 6 5 = 11 cm > 10: mantlets lost.
    far = shoot(entered("5 5 5  1 1 1  6 5"), t, 3, W.positions).result
    assert far.drive_back.distance == 11 and far.drive_back.mantlets_lost
    near = shoot(entered("5 5 5  1 1 1  5 5"), t, 3, W.positions).result
    assert near.drive_back.distance == 10 and not near.drive_back.mantlets_lost
    with pytest.raises(RulesError, match="abandons its mantlets"):
        sheltered("mantlets", charging=True)


# 8. The scenarios' buying rules.
# 001:513-515: "This scenario is played with 2000 points or less on both sides. The defender may use
# up to one quarter of his points to defend the watchtower. ... Up to two units may be placed in
# the watchtower itself – but these units cost three times their normal points. ... The attacker
# may only buy sows or mantlets."
# 001:498: "the defender should invest about half of his points in fortifications, but only has to
# pay for the front side of the fortress i.e. the one facing the enemy."

def kit(**counts):
    return tuple((W.equipment[k.replace("_", "-")], n) for k, n in counts.items())


def test_watchtower_attacker_may_only_buy_sows_or_mantlets():
    from engine.warmaster.siege_lists import check_list

    tower = W.scenarios["watchtower"]
    c = check_list(W.siege, 2000, kit(sow=2, mantlets=1, tribock=1, ladders=1, cannon=1), defender=False, scenario=tower)
    assert c.problems == ("Tribock: in the watchtower the attacker may only buy sows or mantlets.",
                          "Ladders: in the watchtower the attacker may only buy sows or mantlets.")
    assert check_list(W.siege, 2000, kit(sow=2, mantlets=1), defender=False, scenario=tower).ok


def test_watchtower_units_inside_cost_three_times_within_a_quarter():
    from engine.warmaster.siege_lists import check_list

    tower = W.scenarios["watchtower"]
    # 3 x (110 + 50) = 480, and 10 for the oil: 490, within a quarter of 2000 (500).
    ok = check_list(W.siege, 2000, kit(boiling_oil=2), defender=True, scenario=tower, garrison=(110, 50))
    assert ok.garrison_cost == 480 and ok.ok
    tight = check_list(W.siege, 2000, kit(boiling_oil=2), defender=True, scenario=tower, garrison=(110, 55))
    assert tight.problems == ("The tower's defence costs 505 points (units inside at 3 times their points: 495; boiling oil: 10): "
                              "at most a quarter of 2000, 500.",)
    over = check_list(W.siege, 2000, (), defender=True, scenario=tower, garrison=(110, 65, 90))
    assert over.garrison_cost == 795
    assert "3 units inside the tower: at most 2." in over.problems
    assert any(p.startswith("The tower's defence costs 795 points") for p in over.problems)
    big = check_list(W.siege, 2500, (), defender=True, scenario=tower)
    assert big.problems == ("The watchtower: played with 2000 points or less a side, not 2500.",)
    with pytest.raises(RulesError, match="Only the defender"):
        check_list(W.siege, 2000, (), defender=False, scenario=tower, garrison=(100,))
    with pytest.raises(RulesError, match="only in the watchtower"):
        check_list(W.siege, 2000, (), defender=True, garrison=(100,))


def test_into_the_breach_notes_half_on_the_front_side():
    from engine.warmaster.siege_lists import check_list

    c = check_list(W.siege, 2000, kit(wall=6, gateway_tower=1, tower=2), defender=True, scenario=W.scenarios["into-the-breach"])
    assert c.ok and len(c.notes) == 1 and "880" in c.notes[0] and "about 1000" in c.notes[0] and "front side" in c.notes[0]


# 9. Earthworks dug out.
# 001:280: "a unit of infantry (and only infantry) must be adjacent to the earthworks. If the unit is
# not in combat at the beginning of the combat phase each stand in contact with an earthwork section
# gets its basic attacks against it (no charge bonuses ...). Any 6's that are rolled will destroy the
# earthwork that is attacked in this way." 001:378: "May be removed by troops being in contact and
# rolling a 6 with their attacks."

def test_each_stand_rolls_its_basic_attacks_and_a_6_destroys_its_section():
    from engine.warmaster.earthworks import dig_out

    d = dig_out(entered("1 2 3 4 5 6  1 1 5"), W.troops["infantry"], attacks=3, declared=(1, 1, 2))
    assert [(s.section, s.attacks, s.destroyed) for s in d.sections] == [(1, 6, True), (2, 3, False)]
    assert d.destroyed == (1,) and d.hits == 1


def test_only_infantry_not_in_combat_digs():
    from engine.warmaster.earthworks import dig_out

    with pytest.raises(RulesError, match="Only infantry"):
        dig_out(RandomDice(1), W.troops["cavalry"], attacks=3, declared=(1,))
    with pytest.raises(RulesError, match="in combat"):
        dig_out(RandomDice(1), W.troops["infantry"], attacks=3, declared=(1,), in_combat=True)


# 10. The giant batters only with no defender he can fight.
# 001:97: "A Giant can only do this if there are no troops on the ramparts that he can fight,
# otherwise he must fight the defenders instead."

def test_a_giant_with_foes_on_the_ramparts_must_fight_them():
    from engine.warmaster.battering import Batterer, batter

    giant = Unit("giant", 1, 8, 5, Position.OPEN, W.troops["monster"])
    with pytest.raises(RulesError, match="giant batters only when there are no troops on the ramparts"):
        batter(W.structures["wall"], W.siege, W.oil, W.positions, giant, RandomDice(1), batterer=Batterer.GIANT, fightable=True)
    b = batter(W.structures["wall"], W.siege, W.oil, W.positions, giant, entered("3"), batterer=Batterer.GIANT)
    assert b.test.hits == 1 and not b.destroyed


# 11. The bombard's ban by kindred.
# 001:492: "May not be used by Elves of any kindred, or Bretonnians."

@pytest.mark.parametrize("army", ["Bretonnia", "Bretonnian", "Dark Elf", "Elf", "Sea Elves", "wood elves"])
def test_the_bombard_is_barred_to_every_elf_kindred_and_bretonnians(army):
    from engine.warmaster.siege_lists import check_list

    c = check_list(W.siege, 2000, kit(bombard=1), defender=True, army=army)
    assert c.problems == (f"Bombard: {army.title()} may not field one.",)


def test_other_armies_may_and_an_unknown_name_is_refused():
    from engine.warmaster.siege_lists import check_list

    assert check_list(W.siege, 2000, kit(bombard=1), defender=True, army="Orcs & Goblins").ok
    with pytest.raises(RulesError, match="'Elvs': not an army the bot can place; give one of: Empire"):
        check_list(W.siege, 2000, kit(bombard=1), defender=True, army="Elvs")


# 13. One outcome, said once.
# 001:97 (a giant batters as a ram does) with 001:44: "if the battering unit loses one stand the
# assault is failed and the assaulting unit has to retreat 1cm for each hit": a giant is one stand,
# so losing it is death, not a retreat.

def test_a_giant_that_loses_its_only_stand_is_dead_not_retreating():
    from engine.warmaster.battering import Batterer, batter

    giant = Unit("giant", 1, 8, 5, Position.OPEN, W.troops["monster"])
    b = batter(W.structures["wall"], W.siege, W.oil, W.positions, giant, entered(" ".join(["6"] * 9 + ["1"] * 12)),
               batterer=Batterer.GIANT, shots=12)
    assert b.failed and b.unit_destroyed and b.retreat == 0


def test_an_assaulting_unit_that_loses_its_last_stand_is_destroyed():
    a = assault(entered(""), W.positions, fighters("orcs", stands=1), fighters("spears"), shot_hits=3)
    assert a.outcome is Outcome.FAILED and a.attackers_destroyed and a.retreat == 0


from hypothesis import given, settings, strategies as st  # noqa: E402

from tests.engine.replay import assert_replays  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), kind=st.sampled_from(list(AssaultKind)), more=st.integers(0, 3), flyers=st.booleans(),
       d_stands=st.integers(1, 4), d_hits=st.integers(1, 4))
def test_one_combat_properties(seed, kind, more, flyers, d_stands, d_hits):
    """Any assault by several units: the defenders' stands come from every unit's hits together;
    flyers never fight on; a siege tower's fate is given exactly when its unit was thrown back."""
    others = tuple(fighters(f"unit {i}", flyers=flyers and i == 0) for i in range(more))
    defenders = fighters("defenders", stands=d_stands, hits=d_hits)
    fire = lambda dice: assault(dice, W.positions, fighters("first"), defenders, kind=kind, others=others)
    if any(o.flyers for o in others) and kind in (AssaultKind.SIEGE_TOWER, AssaultKind.RAMPARTS):
        with pytest.raises(RulesError, match="flyers do not"):  # 001:118 and 001:157: not flyers' assaults
            fire(RandomDice(seed))
        return
    a = fire(RandomDice(seed))
    total = a.attackers_struck.hits_taken + sum(o.struck.hits_taken for o in a.others)
    assert a.defenders_hits_taken == total == a.attackers_result
    assert a.defenders_lost == min(d_stands, total // d_hits)
    assert a.fight_on <= a.defenders_hold
    assert not (a.fight_on and all(s.flyers for s in (a.attackers, *(o.fighters for o in a.others))))
    thrown = a.outcome in (Outcome.DEFENDERS_WIN, Outcome.FAILED) and not a.attackers_destroyed
    assert (a.siege_tower is not None) == (kind is AssaultKind.SIEGE_TOWER and thrown)
    if a.attackers_destroyed and all(o.destroyed for o in a.others):
        assert a.retreat == 0  # no one left to throw back
    assert_replays(fire, seed)


# Found by the independent test of issue 27 (T27).
# 001:120 "if they are attacked and lose a round of combat or if they are pushed back they are
# destroyed": flyers that lose are destroyed, so none is left to be thrown back (item 13: one outcome).

def test_flyers_that_lose_are_destroyed_not_thrown_back():
    a = assault(entered("1 1 1 6 6"), W.positions, fighters("bats", flyers=True), fighters("spears", attack=2),
                kind=AssaultKind.TOWER)
    assert a.outcome is Outcome.DEFENDERS_WIN and a.attackers_destroyed and a.retreat == 0
    # with a unit that is not flying, the walkers are thrown back by the difference
    b = assault(entered("1 1 1 1 1 1 6 6 6 6"), W.positions, fighters("bats", flyers=True), fighters("spears", attack=2),
                kind=AssaultKind.WALL, others=(fighters("orcs"),))
    assert b.attackers_destroyed and not b.others[0].destroyed and b.retreat == 4


# 001:118 "Flyers may attack fortified targets in the same way as infantry, hitting on 6s with no
# charge bonus. They may never occupy fortifications"; 001:147 and 001:157 (a siege tower is pushed
# by infantry and its unit fights from the top): flyers make neither a siege-tower assault nor a
# counter attack from a tower or the next rampart (both of which give +1 attack a stand).

@pytest.mark.parametrize("kind", [AssaultKind.SIEGE_TOWER, AssaultKind.RAMPARTS])
def test_flyers_make_no_siege_tower_or_rampart_assault(kind):
    with pytest.raises(RulesError, match="flyers do not"):
        assault(NoDice(), W.positions, fighters("bats", flyers=True), fighters("spears"), kind=kind)
    with pytest.raises(RulesError, match="flyers do not"):
        assault(NoDice(), W.positions, fighters("orcs"), fighters("spears"), kind=kind, others=(fighters("bats", flyers=True),))


# 001:44 "the battering unit may ignore the defending troops to batter the structure"; 001:97 (only
# a giant must fight the defenders he can reach): `foes` on a ram would be silently ignored.

def test_foes_is_the_giants_alone():
    from engine.warmaster.battering import Batterer, batter

    orcs = Unit("orcs", 3, 3, None, Position.OPEN, W.troops["infantry"])
    for by in (Batterer.RAM, Batterer.LOG_RAM):
        with pytest.raises(RulesError, match="foes: is the giant's"):
            batter(W.structures["wall"], W.siege, W.oil, W.positions, orcs, NoDice(), batterer=by, fightable=True)


# 001:157 "The assaulting unit fights with only one stand (the warriors at the top of the Siege
# Tower)": a further unit in a siege-tower assault fights with one stand too, never a whole front
# at +1 in the open.

def test_every_unit_from_a_siege_tower_fights_with_one_stand():
    with pytest.raises(RulesError, match="only one stand of each unit fights"):
        assault(NoDice(), W.positions, fighters("orcs"), fighters("spears"), kind=AssaultKind.SIEGE_TOWER,
                others=(fighters("goblins", fighting=3),))


# 001:523 troops within the tower: no drive back, never confused; a unit that charges (or is met by
# grapeshot) has left its tower, so a shot cannot take it as both (the tower's fortified status
# would otherwise apply to a charger).

def test_a_charging_unit_is_not_manning_a_tower():
    with pytest.raises(RulesError, match="not manning a tower"):
        Unit("orcs", 3, 3, None, Position.FORTIFIED, W.troops["infantry"], charging=True, in_tower=True)


# 001:95 "Towers and anything higher than a normal fortress wall are assumed to be out of his
# reach"; 001:96 "Although he can clear the ramparts of foes, he can't take and hold ramparts as
# infantry can"; 001:97 a giant with foes he can fight must fight them: the assault says so.

def test_a_giant_clears_the_ramparts_but_does_not_take_them():
    giant = Fighters(Unit("giant", 1, 8, 5, Position.OPEN, W.troops["monster"]), 1, 8, giant=True)
    a = assault(entered("6 6 1 1 1 1 1 1 1 1 1"), W.positions, giant, fighters("spears"))
    assert a.outcome is Outcome.ATTACKERS_WIN and a.giant_stays
    with pytest.raises(RulesError, match="a giant fights only troops on the ramparts of a wall"):
        assault(NoDice(), W.positions, giant, fighters("spears"), kind=AssaultKind.TOWER)
