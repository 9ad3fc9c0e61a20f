"""Structure tests and Destruction Tokens (seed 001, Siege & Fortresses: Shooting at
fortifications, Structure tests).

:func:`structure_test` reads in the book's order:

1. Roll to hit the section as normal: it counts as fortified (6+) and has no armour, unless the
   weapon has its own rule (a cannon or bombard counts fortified as defended: 5+). Hits rolled at
   the table can be given instead.
2. At the end of the shooting phase, roll one die for each hit this round plus one for each
   Destruction Token from earlier rounds. A section with tokens tests even without hits.
3. A total higher than the section's Structure points destroys it (stands on it are lost).
   Otherwise it gains a Destruction Token: at most one a round, and only for a round with a hit.

The tokens come in as a number: the cog keeps them per section of the channel's siege.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.warmaster.profiles import Structure

MAX_TOKENS = 40
MAX_SHOTS = 40


@dataclass(frozen=True, slots=True)
class StructureTest:
    structure: Structure
    gate: bool
    """The gate of a gateway tower, tested on its own points."""
    points: int
    """Structure points of what was tested."""
    shots: int
    """Attacks rolled to hit (0 when the hits were given)."""
    to_hit_needed: int
    to_hit: tuple[DieRoll, ...]
    hits: int
    """Hits this round."""
    tokens_before: int
    test_dice: tuple[DieRoll, ...]
    """Empty when no test was due (no hits, no tokens)."""
    total: int
    destroyed: bool
    token_added: bool
    tokens_after: int
    """0 once destroyed."""
    dice: tuple[DieRoll, ...]

    @property
    def tested(self) -> bool:
        return bool(self.test_dice)

    @property
    def needed(self) -> int:
        """The total that destroys it: one more than its points."""
        return self.points + 1


POOLED = frozenset({"to hit (fortification)", "structure test"})
"""Purposes of the dice :func:`structure_test` reads as a pool (how many hit; their sum): the order
they fall in never matters, so the odds may count each set of faces once (engine/odds)."""


def structure_test(structure: Structure, dice: Dice, *, hits: int | None = None, shots: int = 0, to_hit: int = 6,
                   tokens: int = 0, gate: bool = False) -> StructureTest:
    if gate and structure.gate_points is None:
        raise RulesError(f"A {structure.name.lower()} has no gate of its own to target; only a gateway tower or a palisade tower has one: "
                         "leave gate out, or give one of those kinds.")
    if not 0 <= tokens <= MAX_TOKENS:
        raise RulesError(f"{tokens} Destruction Tokens: give 0 to {MAX_TOKENS}.")
    if hits is not None and shots:
        raise RulesError("Give either the hits rolled at the table or the shots for the bot to roll, not both.")
    if not 0 <= shots <= MAX_SHOTS or (hits is not None and not 0 <= hits <= MAX_SHOTS):
        raise RulesError(f"Give 0 to {MAX_SHOTS} shots or hits.")
    if not 2 <= to_hit <= 6:
        raise RulesError(f"To hit {to_hit}+: give 2 to 6.")
    points = structure.gate_points if gate else structure.points
    rec = RecordingDice(dice)
    # 1. Roll to hit: fortified 6+, no armour (or the weapon's own score).
    rolled = tuple(rec.d6("to hit (fortification)") for _ in range(shots))
    if hits is None:
        hits = sum(1 for d in rolled if d.value >= to_hit)
    # 2. End of the shooting phase: a die per hit this round and per token.
    n = hits + tokens
    test = tuple(rec.d6("structure test") for _ in range(n))
    total = sum(d.value for d in test)
    # 3. Higher than the points: destroyed. Otherwise a token for a round with hits.
    destroyed = n > 0 and total > points
    added = not destroyed and hits > 0
    after = 0 if destroyed else tokens + (1 if added else 0)
    rec.finish()
    return StructureTest(structure, gate, points, shots, to_hit, rolled, hits, tokens, test, total, destroyed, added, after,
                         tuple(rec.rolled))


@dataclass(frozen=True, slots=True)
class SectionState:
    """A fortification section of a siege as the players named it, with its tokens."""

    name: str
    structure: Structure
    gate: bool
    tokens: int
    breached: bool


@dataclass(frozen=True, slots=True)
class Fortress:
    """The channel's siege: every section named so far, and the one just tested (if any)."""

    sections: tuple[SectionState, ...]
    tested: str | None = None
