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
