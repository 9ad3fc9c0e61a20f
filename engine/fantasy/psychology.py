"""Leadership tests (Warhammer Fantasy): 2D6 against the unit's Leadership, after modifiers; the
test is passed when the total is no more than that. Panic tests are Leadership tests."""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice, DieRoll
from engine.errors import RulesError

MAX_LEADERSHIP = 10


def check_leadership(leadership: int | None) -> None:
    if leadership is not None and (isinstance(leadership, bool) or not isinstance(leadership, int)
                                   or not 1 <= leadership <= MAX_LEADERSHIP):
        raise RulesError(f"Leadership {leadership!r} is not possible: give 1 to {MAX_LEADERSHIP}.")


@dataclass(frozen=True, slots=True)
class LeadershipTest:
    """A Leadership test as rolled."""

    name: str
    """"Panic test", "Break test"."""
    leadership: int
    """The unit's Leadership."""
    modifiers: tuple[tuple[str, int], ...]
    """Each modifier to the Leadership with why: ("Flaming Attacks", -1)."""
    dice: tuple[DieRoll, DieRoll]
    """The two D6."""

    @property
    def needed(self) -> int:
        """The most the 2D6 may total to pass."""
        return self.leadership + sum(m for _, m in self.modifiers)

    @property
    def total(self) -> int:
        return self.dice[0].value + self.dice[1].value

    @property
    def passed(self) -> bool:
        return self.total <= self.needed


def take_leadership_test(
    dice: Dice, name: str, leadership: int, modifiers: tuple[tuple[str, int], ...] = (),
) -> LeadershipTest:
    """Roll 2D6 for the `name` test against `leadership` with `modifiers`."""
    check_leadership(leadership)
    first = dice.d6(f"{name} (first D6)")
    second = dice.d6(f"{name} (second D6)")
    return LeadershipTest(name, leadership, tuple(modifiers), (first, second))
