"""Siege & Fortresses (seed 001): structure tests, boiling oil, and the worked examples."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from config.gamedata import warmaster
from engine.dice import EnteredDice, RandomDice
from engine.errors import RulesError
from engine.warmaster.boiling_oil import pour_oil
from engine.warmaster.profiles import Position
from engine.warmaster.shooting import Unit
from engine.warmaster.structure import structure_test
from tests.engine.conftest import NoDice
from tests.engine.replay import assert_replays

W = warmaster()
S = W.structures


def entered(faces):
    return EnteredDice(faces, NoDice())


def test_no_hits_and_no_tokens_means_no_test():
    t = structure_test(S["wall"], entered(""), hits=0)
    assert not t.tested and t.tokens_after == 0 and not t.destroyed


def test_tokens_test_every_round_even_without_hits_but_add_no_token():
    t = structure_test(S["wall"], entered("1 2"), hits=0, tokens=2)
    assert t.tested and not t.destroyed and not t.token_added and t.tokens_after == 2


def test_a_total_equal_to_the_points_is_not_enough():
    t = structure_test(S["palisade-wall"], entered("5 5 5"), hits=3)
    assert t.total == 15 and not t.destroyed and t.tokens_after == 1


def test_one_token_at_most_per_round():
    t = structure_test(S["tower"], entered("1 1 1 1 1"), hits=5, tokens=0)
    assert t.tokens_after == 1


def test_gateway_tower_gate_is_its_own_target():
    t = structure_test(S["gateway-tower"], entered("6 6 1"), hits=3, gate=True)
    assert t.points == 12 and t.destroyed
    with pytest.raises(RulesError, match="no gate"):
        structure_test(S["wall"], RandomDice(1), hits=1, gate=True)


def test_cannon_scores_its_own_to_hit():
    t = structure_test(S["wall"], entered("5 4  3"), shots=2, to_hit=5)
    assert t.hits == 1


def test_brognaks_gate_over_several_rounds():
    """Seed 001, Structure tests: Brognak's two Rock Lobbers against Hundstadt's gate (12)."""
    gate = S["gateway"]
    # Round 1: 1-3-4-6-6-6 at fortified 6+ is three hits; the test 2-3-6 = 11 does not beat 12.
    r1 = structure_test(gate, entered("1 3 4 6 6 6  2 3 6"), shots=6)
    assert (r1.hits, r1.total, r1.destroyed, r1.tokens_after) == (3, 11, False, 1)
    # Round 2: one 6 (one hit) and the token: two dice, not enough (the book gives no faces).
    r2 = structure_test(gate, entered("6  4 5"), shots=1, tokens=r1.tokens_after)
    assert len(r2.test_dice) == 2 and not r2.destroyed and r2.tokens_after == 2
    # After five rounds, four tokens; this round every shot misses: no token added, but the
    # four tokens test: 3-3-4-5 = 15, more than 12: the gate cracks.
    r6 = structure_test(gate, entered("2 5  3 3 4 5"), shots=2, tokens=4)
    assert r6.hits == 0 and len(r6.test_dice) == 4 and r6.total == 15 and r6.destroyed and r6.tokens_after == 0


def test_the_giant_and_the_tower():
    """Seed 001, Battering: a giant batters a tower (30) with 8 tokens on it. The rule text
    rolls one die per hit plus one per token, so 9 dice (the giant's automatic hit + 8 tokens);
    the worked example lists only 8 faces (6-6-5-5-4-3-2-1 = 32). The rule text wins: we give
    the example's 8 faces and a ninth; the tower collapses either way (32 > 30)."""
    t = structure_test(S["tower"], entered("6 6 5 5 4 3 2 1  1"), hits=W.siege.ram_hits, tokens=8)
    assert len(t.test_dice) == 9 and t.total == 33 and t.destroyed


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), kind=st.sampled_from(list(S)), shots=st.integers(0, 12), tokens=st.integers(0, 12))
def test_structure_properties(seed, kind, shots, tokens):
    fire = lambda dice: structure_test(S[kind], dice, shots=shots, tokens=tokens)
    t = fire(RandomDice(seed))
    assert len(t.test_dice) == t.hits + tokens
    assert t.destroyed == (t.total > t.points and t.tested)
    assert t.tokens_after == (0 if t.destroyed else tokens + (t.hits > 0))
    assert_replays(fire, seed)


# Boiling oil.

def assaulting(armour=None, stands=3):
    return Unit("assaulting unit", stands, 3, armour, Position.OPEN, W.troops["infantry"])


@pytest.mark.parametrize("roll, attacks", [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3)])
def test_oil_chart(roll, attacks):
    p = pour_oil(W.oil, W.positions, assaulting(), EnteredDice(str(roll), RandomDice(1)))
    assert p.attacks == attacks


def test_oil_armour_one_worse_and_a_lost_stand_fails_the_assault():
    p = pour_oil(W.oil, W.positions, assaulting(armour=4), entered("6  4 5 6  4 4 4"))
    r = p.result
    assert r.save_needed == 5 and r.hits_taken == 3 and r.stands_lost == 1
    assert p.assault_failed and p.retreat == 3 and r.drive_back is None


def test_oil_against_a_sow_uses_its_3_plus_save_one_worse():
    p = pour_oil(W.oil, W.positions, assaulting(), entered("2  5  4"), equipment=True)
    assert p.result.save_needed == 4 and p.result.hits_taken == 0 and not p.assault_failed


# Battering.

from engine.warmaster.battering import Batterer, batter  # noqa: E402


def batter_with(faces, **kw):
    return batter(kw.pop("structure", S["wall"]), W.siege, W.oil, W.positions, assaulting(armour=kw.pop("armour", None)), entered(faces), **kw)


def test_batter_the_giant_and_the_tower_scenario():
    b = batter_with("6 6 5 5 4 3 2 1  1", structure=S["tower"], batterer=Batterer.GIANT, tokens=8)
    assert not b.failed and b.destroyed and b.test.hits == 1 and len(b.test.test_dice) == 9 and b.fall_back == 0


def test_batter_survived_adds_a_token_and_falls_back_10():
    b = batter_with("3 4", tokens=1)
    assert not b.destroyed and b.tokens_after == 2 and b.fall_back == 10


def test_batter_fails_when_shooting_and_oil_together_take_a_stand():
    # 2 shots hit (ram's 3+ save: 1 and 2 fail), oil 2: 1 attack hits (save 4+ with oil: 3 fails) -> 3 hits, a stand.
    b = batter_with("5 6  1 2  2  4  3", shots=2, oil=True)
    assert b.failed and b.stands_lost == 1 and b.retreat == 3 and b.test is None and b.tokens_after == 0


def test_log_rams_have_no_cover():
    b = batter_with("5  5  2", armour=6, shots=1, batterer=Batterer.LOG_RAM)
    assert b.shooting.save_needed == 6 and b.hits_taken == 1 and not b.failed


def test_two_rams_two_hits():
    b = batter_with("1 1", rams=2)
    assert b.test.hits == 2 and b.tokens_after == 1
