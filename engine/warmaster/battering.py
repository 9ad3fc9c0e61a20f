"""Battering (seed 001, Siege & Fortresses: Battering, Giants, Battering rams, Log rams).

:func:`batter`, in the book's order:

1. The battering unit charges the section. The defenders of that section and the ones beside it
   may stand and shoot and pour boiling oil, as against any assault: their hits count together.
   Under a battering ram the unit uses the ram's 3+ save (one worse against oil); with log rams,
   or a giant, its own armour.
2. If it loses a stand to them, the attempt fails and it retreats 1 cm for each hit taken.
3. Otherwise each ram (or giant) makes one automatic hit in the shooting phase, and the section
   takes a structure test at the end of it (:func:`engine.warmaster.structure.structure_test`):
   a die per hit plus one per Destruction Token.
4. It collapses: the battering unit may advance (or fall back) as if it had destroyed its first
   enemy in combat. It stands: it gains a token and the battering unit falls back 10 cm.

A giant batters only when there are no troops on the ramparts he can fight; otherwise he must
fight them (Giants): with ``fightable`` the attempt is refused.
A unit whose last stand falls to the defenders' fire is destroyed, not sent back (the retreat is 0).

When the attempt fails, no structure test is made for it (our reading: the ram never struck).
A section that already has Destruction Tokens still takes its test at the end of the attacker's
Shooting phase, hits or not (seed 001, Structure tests): :attr:`BatterAttempt.test_due` says so,
and the players roll it with any hits other machines score on that section this phase, in one
test (``/siege structure``), so that the section is never tested twice in a phase.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.warmaster.profiles import UNIT, OilChart, Position, PositionRule, SiegeRules, Structure
from engine.warmaster.shooting import AttackResult, Unit, roll_attacks
from engine.warmaster.structure import StructureTest, structure_test


class Batterer(enum.Enum):
    RAM = "ram"
    """A battering ram: the unit inside uses its 3+ save."""
    LOG_RAM = "log-ram"
    """Log rams: no cover, the unit's own armour."""
    GIANT = "giant"


@dataclass(frozen=True, slots=True)
class BatterAttempt:
    structure: Structure
    gate: bool
    batterer: Batterer
    rams: int
    """Rams (or giants) battering: one automatic hit each."""
    shooting: AttackResult | None
    """The defenders' stand and shoot, if they shot."""
    oil_roll: DieRoll | None
    oil: AttackResult | None
    hits_taken: int
    """From shooting and oil together."""
    stands_lost: int
    failed: bool
    retreat: int
    """cm the battering unit retreats when the attempt failed."""
    test: StructureTest | None
    """None when the attempt failed."""
    fall_back: int
    """cm the unit falls back when the section stood."""
    dice: tuple[DieRoll, ...]
    unit: str = UNIT

    @property
    def destroyed(self) -> bool:
        return self.test is not None and self.test.destroyed

    @property
    def tokens_after(self) -> int:
        return self.test.tokens_after if self.test is not None else self.tokens_before

    tokens_before: int = 0
    """The section's Destruction Tokens before the attempt."""

    @property
    def unit_destroyed(self) -> bool:
        """Its last stand lost to the defenders' fire (a giant is one stand): destroyed, no retreat."""
        return self.failed and self.stands_lost >= self.unit_stands

    unit_stands: int = 0
    """Stands of the battering unit."""

    @property
    def test_due(self) -> bool:
        """The attempt failed but the section has tokens: it still tests at the end of the
        attacker's Shooting phase (a die a token, plus any hits it takes this phase)."""
        return self.failed and self.tokens_before > 0


def batter(structure: Structure, rules: SiegeRules, oil_chart: OilChart, positions: dict[Position, PositionRule],
           unit: Unit, dice: Dice, *, batterer: Batterer = Batterer.RAM, rams: int = 1, tokens: int = 0,
           shots: int = 0, oil: bool = False, gate: bool = False, fightable: bool = False) -> BatterAttempt:
    if batterer is Batterer.GIANT and fightable:
        raise RulesError("A giant batters only when there are no troops on the ramparts he can fight: he must fight them "
                         "instead (/siege assault giant:true), or batter once they are gone.")
    if fightable:  # a ram (or log ram) may ignore the defenders to batter (seed 001, Battering)
        raise RulesError(f"foes: is the giant's: a unit with {'log rams' if batterer is Batterer.LOG_RAM else 'a ram'} may ignore "
                         "the defenders on the ramparts and batter. Leave foes out, or give by:giant.")
    if gate and structure.gate_points is None:
        raise RulesError(f"A {structure.name.lower()} has no gate of its own to target; only a gateway tower or a palisade tower "
                         "has one: leave gate out, or give one of those kinds.")
    if not 1 <= rams <= 4:
        raise RulesError(f"{rams} rams: give 1 to 4.")
    if not 0 <= shots <= 40:
        raise RulesError(f"{shots} stand-and-shoot attacks: give 0 to 40.")
    rec = RecordingDice(dice)
    unit = replace(unit, charging=True)
    equipment = oil_chart.equipment_save if batterer is Batterer.RAM else None
    # 1. Stand and shoot, then boiling oil: their hits count together.
    shooting = roll_attacks(rec, unit, shots, positions, save_override=equipment, purpose="stand and shoot") if shots else None
    oil_roll, oil_result = None, None
    if oil:
        oil_roll = rec.d6("boiling oil chart")
        oil_result = roll_attacks(rec, unit, oil_chart.row(oil_roll.value).attacks, positions, armour_worse=oil_chart.armour_worse,
                                  save_override=equipment, purpose="boiling oil")
    taken = sum(r.hits_taken for r in (shooting, oil_result) if r is not None)
    lost = min(unit.stands, taken // unit.hits)
    # 2. A stand lost: the attempt fails, 1 cm back a hit.
    if lost:
        rec.finish()
        retreat = 0 if lost >= unit.stands else taken
        return BatterAttempt(structure, gate, batterer, rams, shooting, oil_roll, oil_result, taken, lost, True, retreat, None, 0,
                             tuple(rec.rolled), tokens_before=tokens, unit_stands=unit.stands)
    # 3. One automatic hit a ram; the structure test.
    test = structure_test(structure, rec, hits=rams * rules.ram_hits, tokens=tokens, gate=gate)
    rec.finish()
    # 4. Stood: a token (in the test) and 10 cm back.
    back = 0 if test.destroyed else rules.failed_batter_fall_back
    return BatterAttempt(structure, gate, batterer, rams, shooting, oil_roll, oil_result, taken, 0, False, 0, test, back,
                         tuple(rec.rolled), tokens_before=tokens, unit_stands=unit.stands)
