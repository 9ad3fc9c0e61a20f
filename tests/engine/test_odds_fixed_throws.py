"""An estimate does not depend on the machine's speed (issue 26): a fixed number of throws from a
seed, the count decided by the dice alone; the time bound only a safety net that says when it cut."""

import time

import pytest

from engine.dice import DieKind
from engine.odds import enumeration
from engine.odds.enumeration import (
    DICE_BUDGET, MIN_THROWS, THROWS, TimeCut, TooMany, enumerate_outcomes, seed_of, simulate,
)


def two_dice(d):
    return d.d6("a").value + d.d6("b").value


def test_the_same_seed_gives_the_same_throws_whatever_the_time_bound():
    quick = simulate(two_dice, runs=2_000, seed=seed_of("roll expression:2d6"), seconds=0.5)
    roomy = simulate(two_dice, runs=2_000, seed=seed_of("roll expression:2d6"), seconds=None)
    assert quick == roomy and quick.runs == quick.planned == 2_000 and not quick.cut


def test_a_slow_throw_changes_nothing_but_the_time():
    """A procedure made slower (as on a slower machine) throws the same dice the same number of times."""
    def slow(d):
        start = time.thread_time()
        while time.thread_time() - start < 0.0002:
            pass
        return two_dice(d)

    assert simulate(slow, runs=300, seed=5) == simulate(two_dice, runs=300, seed=5)


def test_the_default_is_the_fixed_number_of_throws():
    assert simulate(two_dice, seed=1).runs == THROWS


def test_the_seed_is_derived_from_the_shot():
    assert seed_of("fire cannon distance:30.0") == seed_of("fire cannon distance:30.0")
    assert seed_of("fire cannon distance:30.0") != seed_of("fire cannon distance:31.0")
    assert 0 <= seed_of("x") < 2 ** 32
    a = simulate(two_dice, runs=500, seed=seed_of("a"))
    b = simulate(two_dice, runs=500, seed=seed_of("b"))
    assert a.results != b.results


def test_the_dice_budget_decides_fewer_throws_the_same_everywhere():
    def heavy(d):
        return [d.roll(DieKind.D6, "x") for _ in range(300)]

    sample = simulate(heavy, runs=6_000, seed=3)
    assert sample.runs == sample.planned == DICE_BUDGET // 300 and not sample.cut
    assert simulate(heavy, runs=6_000, seed=3, seconds=None).runs == sample.runs


def test_the_safety_net_cuts_and_says_so():
    sample = simulate(two_dice, runs=5_000, seconds=-1.0)
    assert sample.cut and sample.runs == MIN_THROWS and sample.planned == 5_000


def test_an_enumeration_cut_by_time_says_so_and_one_past_the_budget_does_not():
    with pytest.raises(TimeCut, match="time bound"):
        enumerate_outcomes(lambda d: sum(d.d6(str(i)).value for i in range(3)), seconds=-1.0)
    with pytest.raises(TooMany) as caught:
        enumerate_outcomes(lambda d: sum(d.d6(str(i)).value for i in range(8)))  # 6**8 ways
    assert not isinstance(caught.value, TimeCut)


def test_the_time_bound_is_a_net_well_above_the_priced_work():
    assert enumeration.SECONDS is None or enumeration.SECONDS >= 1.0
