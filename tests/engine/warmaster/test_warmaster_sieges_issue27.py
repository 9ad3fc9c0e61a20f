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
