"""Digging out earthworks (seed 001, Siege & Fortresses: Earthworks; Fortification list, footnote 4).

:func:`dig_out`, in the book's order:

1. Only infantry can remove earthworks, and only a unit that is not in combat at the beginning of
   the combat phase, with stands in contact with the sections.
2. Each stand in contact rolls its basic attacks against the earthwork section declared for it
   (each 40 x 10 mm section counts as a unit of its own): no charge bonus, the troops are digging.
3. Any 6 destroys the section it was rolled against.

Our reading where the book is silent: every declared stand rolls (the attacks are made at once),
so a section may take more than one 6; it is destroyed once.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.warmaster.profiles import Troop

MAX_STANDS = 12
MAX_ATTACKS = 12
MAX_SECTIONS = 20
DESTROYS_ON = 6


@dataclass(frozen=True, slots=True)
class SectionDug:
    """One earthwork section and the stands digging at it."""

    section: int
    """The section's number, as the players declared it."""
    stands: int
    attacks: int
    rolled: tuple[DieRoll, ...]
    destroyed: bool
    """A 6 among its dice."""


@dataclass(frozen=True, slots=True)
class DigOut:
    attacks_per_stand: int
    """Each stand's basic Attacks (no charge bonus)."""
    declared: tuple[int, ...]
    """The section each stand digs at, stand by stand."""
    sections: tuple[SectionDug, ...]
    """Each section attacked, in the order first declared."""
    hits: int
    """6s rolled: each one destroys the section it was rolled against."""
    dice: tuple[DieRoll, ...]

    @property
    def destroyed(self) -> tuple[int, ...]:
        return tuple(s.section for s in self.sections if s.destroyed)


def dig_out(dice: Dice, troop: Troop, *, attacks: int, declared: tuple[int, ...], in_combat: bool = False) -> DigOut:
    """Stands of an infantry unit in contact with earthworks dig at them: `declared` gives the
    section each stand attacks (e.g. (1, 1, 2): two stands at section 1, one at section 2)."""
    # 1. Infantry only, not in combat.
    if troop.key != "infantry":
        raise RulesError(f"Only infantry can dig out earthworks, not {troop.name}.")
    if in_combat:
        raise RulesError("A unit in combat at the beginning of the combat phase cannot dig out earthworks.")
    if not 1 <= attacks <= MAX_ATTACKS:
        raise RulesError(f"{attacks} attacks a stand: give its basic Attacks, 1 to {MAX_ATTACKS}.")
    if not 1 <= len(declared) <= MAX_STANDS:
        raise RulesError(f"{len(declared)} stands digging: give 1 to {MAX_STANDS}, one section for each stand in contact.")
    for n in declared:
        if not 1 <= n <= MAX_SECTIONS:
            raise RulesError(f"Earthwork section {n}: number the sections 1 to {MAX_SECTIONS}.")
    # 2. Each stand's basic attacks at its section, section by section as first declared.
    rec = RecordingDice(dice)
    order = tuple(dict.fromkeys(declared))
    sections = []
    for n in order:
        stands = declared.count(n)
        rolled = tuple(rec.d6(f"earthwork {n}") for _ in range(stands * attacks))
        # 3. Any 6 destroys it.
        sections.append(SectionDug(n, stands, stands * attacks, rolled, any(d.value >= DESTROYS_ON for d in rolled)))
    rec.finish()
    sixes = sum(1 for s in sections for d in s.rolled if d.value >= DESTROYS_ON)
    return DigOut(attacks, tuple(declared), tuple(sections), sixes, tuple(rec.rolled))
