"""One check every procedure's properties share: entering the bot's own faces as the players'
dice replays exactly the same record, and one face more is refused as left over."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass, replace
from typing import Any

import pytest

from engine.dice import Dice, DiceError, DieRoll, EnteredDice, RandomDice, Roller


def as_bot(x: Any) -> Any:
    """`x` with every die in it marked as the bot's, through nested records and tuples."""
    if isinstance(x, DieRoll):
        return replace(x, by=Roller.BOT)
    if isinstance(x, tuple):
        return tuple(as_bot(i) for i in x)
    if is_dataclass(x) and not isinstance(x, type):
        return replace(x, **{f.name: as_bot(getattr(x, f.name)) for f in fields(x) if f.init})
    return x


def assert_replays(fire: Callable[[Dice], Any], seed: int) -> None:
    """`fire(dice)` makes a record; the bot's faces entered by hand must give the same record."""
    by_bot = fire(RandomDice(seed))
    faces = " ".join(d.face for d in by_bot.dice)
    by_players = fire(EnteredDice(faces, RandomDice(seed + 1)))
    assert all(d.by is Roller.PLAYER for d in by_players.dice)
    assert as_bot(by_players) == by_bot
    with pytest.raises(DiceError, match="left over"):
        fire(EnteredDice(faces + " 4", RandomDice(0)))
