"""The shooting sequence of Warhammer Fantasy: roll to hit with Ballistic Skill, then wound.

To hit: the standard Ballistic Skill chart (BS 1 needs 6+, each point of BS one better, so
7 - BS), worsened by one per point of to-hit penalty. A roll of 1 always misses. A score above 6
is still possible: 7+ is a 6 followed by a 4+, 8+ a 6 then a 5+, 9+ a 6 then a 6+; 10+ cannot hit.
Every hit then goes through the wounding sequence of :mod:`engine.fantasy.wounding`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.dice import Dice, DieKind, DieRoll
from engine.errors import RulesError
from engine.fantasy.profiles import ToHitPenalties
from engine.fantasy.wounding import Profile, WoundRoll, resolve_hits

MAX_BS = 10
MAX_SHOTS = 100
MAX_MODIFIER = 3


class Cover(enum.Enum):
    NONE = "none"
    SOFT = "soft"
    HARD = "hard"


def to_hit_penalty(
    penalties: ToHitPenalties, *, distance: float, max_range: float, cover: Cover, modifier: int
) -> tuple[bool, int]:
    """The shooting modifiers a war machine can suffer, as points of penalty (positive is worse):
    long range (beyond half the maximum range), cover, and any other `modifier` the players name
    (+1 helps). War machines ignore the penalties for moving and for multiple shots. Returns
    whether the target is at long range, and the penalty."""
    if isinstance(modifier, bool) or not isinstance(modifier, int) or abs(modifier) > MAX_MODIFIER:
        raise RulesError(f"To-hit modifier {modifier!r} is not possible here: give -{MAX_MODIFIER} to +{MAX_MODIFIER}.")
    long_range = distance > max_range / 2
    penalty = (
        (penalties.long_range if long_range else 0)
        + {Cover.NONE: 0, Cover.SOFT: penalties.soft_cover, Cover.HARD: penalties.hard_cover}[cover]
        - modifier
    )
    return long_range, penalty


@dataclass(frozen=True, slots=True)
class ToHit:
    """The score a shot needs."""

    needed: int
    """The modified score: 7 - BS + penalties, never below 2 (a 1 always misses)."""

    @property
    def possible(self) -> bool:
        return self.needed <= 9

    @property
    def first(self) -> int:
        """What the first D6 must show."""
        return min(self.needed, 6)

    @property
    def then(self) -> int | None:
        """What a second D6 must show after a 6, for a score above 6; None when one die does."""
        return {7: 4, 8: 5, 9: 6}.get(self.needed)

    def describe(self) -> str:
        if not self.possible:
            return f"{self.needed}+: cannot hit"
        return f"{self.needed}+" if self.then is None else f"{self.needed}+ (a 6, then {self.then}+)"


def to_hit_needed(ballistic_skill: int, penalty: int = 0) -> ToHit:
    """The Ballistic Skill chart with `penalty` points of to-hit modifiers (positive is worse)."""
    if isinstance(ballistic_skill, bool) or not isinstance(ballistic_skill, int) or not 1 <= ballistic_skill <= MAX_BS:
        raise RulesError(f"Ballistic Skill {ballistic_skill!r} is not possible: give 1 to {MAX_BS}.")
    return ToHit(max(2, 7 - ballistic_skill + penalty))


@dataclass(frozen=True, slots=True)
class Shot:
    """One shot: its to-hit dice and, when it hit and a profile was given, its wound roll."""

    to_hit: tuple[DieRoll, ...]
    """The to-hit D6, and the second one after a 6 when more than 6 was needed."""
    hit: bool
    wound: WoundRoll | None


@dataclass(frozen=True, slots=True)
class Volley:
    """A number of shots at one target, each rolled to hit, the hits rolled to wound."""

    shots: tuple[Shot, ...]
    to_hit: ToHit
    strength: int
    armour_piercing: int
    profile: Profile | None

    @property
    def hits(self) -> int:
        return sum(s.hit for s in self.shots)

    @property
    def unsaved(self) -> int:
        """Wounds that got through every save (after Multiple Wounds)."""
        return sum(s.wound.wounds for s in self.shots if s.wound is not None)

    @property
    def models_slain(self) -> int:
        """Whole models the unsaved wounds remove, taken one model at a time."""
        if self.profile is None:
            return 0
        return self.unsaved // self.profile.wounds


def roll_to_hit(dice: Dice, to_hit: ToHit, who: str) -> tuple[tuple[DieRoll, ...], bool]:
    """One shot's to-hit roll: a D6, and a second after a 6 when more than 6 is needed."""
    if not to_hit.possible:
        return (), False
    first = dice.d6(f"to hit {who}")
    if first.value < to_hit.first or first.value == 1:
        return (first,), False
    if to_hit.then is None:
        return (first,), True
    second = dice.d6(f"to hit {who}, after the 6")
    return (first, second), second.value >= to_hit.then


def shoot(
    dice: Dice,
    *,
    shots: int,
    to_hit: ToHit,
    strength: int,
    profile: Profile | None,
    armour_piercing: int = 0,
    multiple_wounds: DieKind | None = None,
    **wounding: object,
) -> Volley:
    """Roll `shots` to hit, then the hits to wound against `profile` (when given), as players roll
    them: every to-hit die first (and, when more than 6 is needed, the second die for every 6
    after them), then the wounding sequence for all the hits together. `wounding` passes the
    special rules' options on to :func:`~engine.fantasy.wounding.resolve_hits`."""
    if not 0 <= shots <= MAX_SHOTS:
        raise RulesError(f"{shots} shots is not possible here: give 0 to {MAX_SHOTS}.")
    # Every shot's to-hit die, then, for a score above 6, the second die of each 6 together.
    firsts = [dice.d6(f"to hit shot {n}") if to_hit.possible else None for n in range(1, shots + 1)]
    rolls: list[tuple[tuple[DieRoll, ...], bool]] = []
    for n, first in enumerate(firsts, 1):
        if first is None:
            rolls.append(((), False))
        elif first.value == 1 or first.value < to_hit.first:
            rolls.append(((first,), False))
        elif to_hit.then is None:
            rolls.append(((first,), True))
        else:
            rolls.append(((first,), None))  # a 6: decided by the second die below
    for i, (rolled, hit) in enumerate(rolls):
        if hit is None:
            second = dice.d6(f"to hit shot {i + 1}, after the 6")
            rolls[i] = ((*rolled, second), second.value >= to_hit.then)
    wounds: list[WoundRoll | None] = [None] * shots
    if profile is not None:
        hit_index = [i for i, (_, hit) in enumerate(rolls) if hit]
        resolved = resolve_hits(dice, names=[f"shot {i + 1}" for i in hit_index], strength=strength, profile=profile,
                                multiple_wounds=multiple_wounds, armour_piercing=armour_piercing, **wounding)
        for i, wound in zip(hit_index, resolved):
            wounds[i] = wound
    return Volley(tuple(Shot(r, hit, w) for (r, hit), w in zip(rolls, wounds)), to_hit, strength, armour_piercing, profile)
