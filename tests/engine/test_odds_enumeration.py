"""engine/odds/enumeration.py: every way a procedure's dice can fall, with exact chances that sum
to one, a die rolled only on some paths counted only there; scatter directions refused unless
the caller says they cannot matter; a budget past which the caller estimates instead."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from engine.dice import DieKind
from engine.odds.enumeration import BUDGET, Continuous, TooMany, enumerate_outcomes, simulate


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


def test_a_scatter_die_is_continuous_unless_its_direction_cannot_matter():
    with pytest.raises(Continuous):
        enumerate_outcomes(lambda d: d.scatter("s").is_hit)
    assert by_result(enumerate_outcomes(lambda d: d.scatter("s").is_hit, directions=0)) == {
        True: Fraction(1, 3), False: Fraction(2, 3)}


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
