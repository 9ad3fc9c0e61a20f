"""Shared fixtures for the engine tier: the shipped game data and a way to fire a cannon or a stone
thrower with dice the players entered, checking that none had to be rolled by the bot."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from config.gamedata import FantasyData, fantasy
from engine.dice import Dice, DieKind, DieRoll, EnteredDice, RandomDice, Roller
from engine.fantasy.cannon import CannonShot, fire_cannon
from engine.fantasy.formation import TargetUnit
from engine.fantasy.profiles import CannonProfile, MisfireChart, StoneThrowerProfile, TroopType
from engine.fantasy.stone_thrower import StoneShot, fire_stone_thrower


class NoDice(Dice):
    """A fallback for tests that give every die: asking it for one fails the test."""

    def roll(self, kind: DieKind, purpose: str, *, small_arrow: bool = False) -> DieRoll:
        raise AssertionError(f"the procedure asked for a {kind.label} ({purpose}) the test did not give")


@pytest.fixture(scope="session")
def data() -> FantasyData:
    return fantasy()


@pytest.fixture(scope="session")
def cannon(data: FantasyData) -> CannonProfile:
    return data.cannons["cannon"]


@pytest.fixture(scope="session")
def great_cannon(data: FantasyData) -> CannonProfile:
    return data.cannons["great-cannon"]


@pytest.fixture(scope="session")
def black_powder(data: FantasyData) -> MisfireChart:
    return data.misfire_charts["black-powder"]


@pytest.fixture(scope="session")
def troop(data: FantasyData) -> Callable[[str], TroopType]:
    return lambda key: data.troops[key]


@pytest.fixture
def fire(data: FantasyData) -> Callable[..., CannonShot]:
    """``fire(weapon, unit, distance, "H 4 8", aim_rank=None, aim_file=None)``: the shot with
    every die entered.

    The fallback is a seeded RandomDice, as the bot would use; the helper then checks that every
    die in the record was the players' and that the record holds exactly the dice given."""

    def _fire(
        weapon: CannonProfile,
        unit: TargetUnit,
        distance: float,
        faces: str,
        *,
        aim_rank: int | None = None,
        aim_file: int | None = None,
    ) -> CannonShot:
        entered = EnteredDice(faces, RandomDice(0))
        chart = data.misfire_charts[weapon.misfire_chart]
        shot = fire_cannon(weapon, chart, unit, distance, entered, aim_rank=aim_rank, aim_file=aim_file)
        assert [d.by for d in shot.dice] == [Roller.PLAYER] * len(shot.dice)
        assert len(shot.dice) == entered.given
        return shot

    return _fire


@pytest.fixture(scope="session")
def stone_thrower(data: FantasyData) -> StoneThrowerProfile:
    return data.stone_throwers["stone-thrower"]


@pytest.fixture
def throw(data: FantasyData) -> Callable[..., StoneShot]:
    """``throw(unit, distance, "H@30 8 4", indirect=True, ballistic_skill=3)``: a stone thrower
    shot with every die entered, checked as :func:`fire` checks a cannon shot. `weapon` defaults
    to the rulebook's stone thrower."""

    def _throw(
        unit: TargetUnit,
        distance: float,
        faces: str,
        *,
        weapon: StoneThrowerProfile | None = None,
        **options,
    ) -> StoneShot:
        weapon = weapon or data.stone_throwers["stone-thrower"]
        entered = EnteredDice(faces, RandomDice(0))
        shot = fire_stone_thrower(weapon, data.misfire_charts[weapon.misfire_chart], unit, distance, entered, **options)
        assert [d.by for d in shot.dice] == [Roller.PLAYER] * len(shot.dice)
        assert len(shot.dice) == entered.given
        return shot

    return _throw


@pytest.fixture
def no_dice() -> Dice:
    """A dice source that fails the test when asked for any die."""
    return NoDice()
