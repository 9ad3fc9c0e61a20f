"""Boiling oil and rock droppers (seed 001, Siege & Fortresses).

:func:`pour_oil`: a D6 on the chart gives the attacks on the assaulting unit (1 none; 2-3 one;
4-5 two; 6 three); each attack is rolled to hit as usual (the assaulting unit at the foot of the
wall, in the open unless said otherwise: core rules) and its armour saves are one worse. A unit
under a sow or siege tower uses its equipment's 3+ save instead of its own. The hits carry into
the combat (no drive back); losing a stand to them fails the assault (or the battering), and the
unit retreats 1 cm for each hit it took.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.dice import Dice, DieRoll, RecordingDice
from engine.warmaster.profiles import UNIT, OilChart, OilRow, Position, PositionRule
from engine.warmaster.shooting import AttackResult, Unit, roll_attacks


@dataclass(frozen=True, slots=True)
class OilPour:
    chart: OilChart
    roll: DieRoll
    row: OilRow
    equipment: bool
    """The unit shelters under a sow or siege tower (3+ save)."""
    result: AttackResult
    dice: tuple[DieRoll, ...]
    unit: str = UNIT

    @property
    def attacks(self) -> int:
        return self.row.attacks

    @property
    def assault_failed(self) -> bool:
        return self.result.stands_lost > 0

    @property
    def retreat(self) -> int:
        """cm the unit retreats when the assault failed: 1 a hit taken."""
        return self.result.hits_taken if self.assault_failed else 0


def pour_oil(chart: OilChart, positions: dict[Position, PositionRule], target: Unit, dice: Dice, *,
             equipment: bool = False) -> OilPour:
    rec = RecordingDice(dice)
    roll = rec.d6("boiling oil chart")
    row = chart.row(roll.value)
    target = replace(target, charging=True)
    result = roll_attacks(rec, target, row.attacks, positions, armour_worse=chart.armour_worse,
                          save_override=chart.equipment_save if equipment else None)
    rec.finish()
    return OilPour(chart, roll, row, equipment, result, tuple(rec.rolled))
