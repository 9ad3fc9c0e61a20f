"""engine/odds/enumeration.py: every way a procedure's dice can fall, with exact chances that sum
to one, a die rolled only on some paths counted only there; the scatter die's hit and its 360
directions counted exactly; a budget past which the caller estimates instead."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from engine.dice import DieKind
from engine.odds.enumeration import BUDGET, TooMany, enumerate_outcomes, simulate


def by_result(leaves) -> dict:
    out: Counter = Counter()
    for leaf in leaves:
        out[leaf.result] += leaf.chance
    return dict(out)


def test_two_d6_sum_as_the_textbook_says():
    odds = by_result(enumerate_outcomes(lambda d: d.d6("a").value + d.d6("b").value))
    assert odds == {n: Fraction(6 - abs(n - 7), 36) for n in range(2, 13)}


def test_a_die_rolled_only_on_some_paths_counts_only_there():
    # a D6; on a 6, a second D6 (a bounce, a damage roll): 1-5 are 1/6 each, 6+k is 1/36 each
    def procedure(d):
        first = d.d6("first").value
        return first if first < 6 else 6 + d.d6("again").value

    odds = by_result(enumerate_outcomes(procedure))
    assert sum(odds.values()) == 1
    assert odds[3] == Fraction(1, 6) and odds[9] == Fraction(1, 36) and len(odds) == 11


def test_every_die_kind_the_games_roll():
    odds = by_result(enumerate_outcomes(lambda d: d.artillery("a").face))
    assert odds == {f: Fraction(1, 6) for f in ("2", "4", "6", "8", "10", "M")}
    assert by_result(enumerate_outcomes(lambda d: d.d3("x").value)) == {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
    assert by_result(enumerate_outcomes(lambda d: d.dx(20, "x").value))[20] == Fraction(1, 20)


def test_the_scatter_die_is_enumerated_whole_hit_or_each_of_360_directions():
    """The bot's scatter die (docs/roll-derivation.md): a hit on 2 faces of 6, else an arrow to one
    of 360 whole degrees, each as likely; a hit draws no direction unless its small arrow is read."""
    assert by_result(enumerate_outcomes(lambda d: d.scatter("s").is_hit)) == {True: Fraction(1, 3), False: Fraction(2, 3)}
    leaves = enumerate_outcomes(lambda d: d.scatter("s").face)
    assert len(leaves) == 1 + 360
    assert by_result(leaves)["H"] == Fraction(1, 3) and by_result(leaves)["@90"] == Fraction(2, 3) / 360
    small = by_result(enumerate_outcomes(lambda d: d.scatter("s", small_arrow=True).face))
    assert len(small) == 720 and small["H@359"] == Fraction(1, 3) / 360
    # an arrow within 45 degrees of straight on: 91 of the 360 directions (315 to 359 and 0 to 45)
    ahead = by_result(enumerate_outcomes(lambda d: (lambda r: r.direction is not None and (r.direction <= 45 or r.direction >= 315))(d.scatter("s"))))
    assert ahead[True] == Fraction(2, 3) * Fraction(91, 360)
    # with a direction given (tests of one direction), six faces as before
    assert by_result(enumerate_outcomes(lambda d: d.scatter("s").is_hit, directions=0)) == {
        True: Fraction(1, 3), False: Fraction(2, 3)}


def test_exact_scatter_odds_agree_with_the_bots_own_dice():
    """A procedure turning on the direction: exact by enumeration, and 20,000 throws of the bot's
    dice land within 4 standard errors of it."""
    def quadrant(d):
        r = d.scatter("s")
        return "hit" if r.is_hit else r.direction // 90
    exact = by_result(enumerate_outcomes(quadrant))
    assert exact == {"hit": Fraction(1, 3), 0: Fraction(1, 6), 1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 6)}
    thrown = simulate(quadrant, runs=20_000, seconds=None).results
    for k, p in exact.items():
        seen = sum(1 for r in thrown if r == k) / len(thrown)
        assert abs(seen - float(p)) <= 4 * (float(p) * (1 - float(p)) / len(thrown)) ** 0.5, k


def test_past_the_budget_the_caller_estimates():
    with pytest.raises(TooMany):
        enumerate_outcomes(lambda d: sum(d.d6(str(i)).value for i in range(8)))  # 6**8 ways
    assert BUDGET >= 6 ** 5


def test_a_simulation_uses_the_bots_dice_and_repeats_itself():
    a = simulate(lambda d: d.d6("x").value, runs=600)
    b = simulate(lambda d: d.d6("x").value, runs=600)
    assert a == b and a.runs == 600 and set(a.results) == {1, 2, 3, 4, 5, 6}


def test_a_heavy_throw_gets_fewer_runs_within_the_dice_budget():
    sample = simulate(lambda d: [d.roll(DieKind.D6, "x") for _ in range(600)], runs=6000)
    assert 100 <= sample.runs < 6000


def test_past_the_time_bound_the_caller_estimates_with_at_least_the_fewest_throws():
    """The engine's time for one price is bounded (SECONDS): a bound already past stops the
    enumeration at its first check and the simulation at its fewest throws."""
    from engine.odds.enumeration import MIN_THROWS

    with pytest.raises(TooMany):
        enumerate_outcomes(lambda d: sum(d.d6(str(i)).value for i in range(3)), seconds=-1.0)  # 216 ways
    assert len(enumerate_outcomes(lambda d: sum(d.d6(str(i)).value for i in range(3)), seconds=None)) == 216
    assert simulate(lambda d: d.d6("x").value, runs=5_000, seconds=-1.0).runs == MIN_THROWS


# Pools: dice read together (their highest, their sum, how many succeed) counted as multisets.

from hypothesis import given, settings, strategies as st  # noqa: E402

from config.gamedata import warmaster, wh40k  # noqa: E402
from engine.warmaster import structure as structure_rules  # noqa: E402
from engine.wh40k import penetration as penetration_rules  # noqa: E402
from engine.wh40k.vehicle import VehicleState  # noqa: E402

WM, W40 = warmaster(), wh40k()


def test_a_pool_of_three_d6_is_56_ways_with_the_same_sum_odds_as_216():
    def three(d):
        return sum(d.d6("pool").value for _ in range(3))

    full, pooled = enumerate_outcomes(three), enumerate_outcomes(three, pools=frozenset({"pool"}))
    assert (len(full), len(pooled)) == (216, 56)
    assert by_result(pooled) == by_result(full)
    # each multiset once, weighted by its orders: (1, 2, 3) comes in 6 orders, (1, 1, 2) in 3, (1, 1, 1) in 1
    sets = enumerate_outcomes(lambda d: tuple(d.d6("pool").value for _ in range(3)), pools=frozenset({"pool"}))
    chance = {leaf.result: leaf.chance for leaf in sets}
    assert all(list(r) == sorted(r) for r in chance)
    assert (chance[(1, 2, 3)], chance[(1, 1, 2)], chance[(1, 1, 1)]) == (Fraction(6, 216), Fraction(3, 216), Fraction(1, 216))


def test_a_pool_ends_at_a_die_of_another_purpose():
    # two pooled dice, a plain die between them: not one pool of two (the order across it matters)
    def split(d):
        return d.d6("pool").value, d.d6("other").value, d.d6("pool").value

    full, pooled = enumerate_outcomes(split), enumerate_outcomes(split, pools=frozenset({"pool"}))
    assert len(pooled) == len(full) == 216 and by_result(pooled) == by_result(full)


def outcomes_of_structure(leaves) -> dict:
    out: Counter = Counter()
    for leaf in leaves:
        t = leaf.result
        out[(t.hits, t.total, t.destroyed, t.tokens_after if hasattr(t, "tokens_after") else t.after)] += leaf.chance
    return dict(out)


@settings(max_examples=30, deadline=None)
@given(kind=st.sampled_from(sorted(WM.structures)), hits=st.integers(0, 3), tokens=st.integers(0, 2),
       shots=st.integers(0, 2))
def test_structure_tests_priced_as_pools_give_the_same_fractions(kind, hits, tokens, shots):
    structure = WM.structures[kind]

    def test(d):
        if shots:
            return structure_rules.structure_test(structure, d, shots=shots, tokens=tokens)
        return structure_rules.structure_test(structure, d, hits=hits, tokens=tokens)

    full = enumerate_outcomes(test, seconds=None)
    pooled = enumerate_outcomes(test, seconds=None, pools=structure_rules.POOLED)
    assert outcomes_of_structure(pooled) == outcomes_of_structure(full)
    assert len(pooled) <= len(full)


@settings(max_examples=30, deadline=None)
@given(weapon=st.sampled_from(sorted(W40.penetration)), strength=st.integers(1, 10), armour=st.integers(10, 14),
       open_topped=st.booleans())
def test_a_penetration_priced_as_a_pool_gives_the_same_fractions(weapon, strength, armour, open_topped):
    w = W40.penetration[weapon]
    vehicle = VehicleState(open_topped=open_topped)

    def hit(d):
        s = w.strength if w.strength is not None else strength
        h = penetration_rules.hit_vehicle(w, armour, vehicle, d, W40.damage_tables, W40.wounds, strength=s)
        return (h.penetration.counts_as, None if h.damage is None else (h.damage.result, h.damage.destroyed))

    full = by_result(enumerate_outcomes(hit, seconds=None, directions=0))
    pooled = by_result(enumerate_outcomes(hit, seconds=None, directions=0, pools=penetration_rules.POOLED))
    assert pooled == full


def test_a_fixed_direction_scatter_is_hit_or_arrow_a_third_and_two_thirds():
    odds = by_result(enumerate_outcomes(lambda d: d.scatter("s").face, directions=90))
    assert odds == {"H": Fraction(1, 3), "@90": Fraction(2, 3)}
