"""Misfire charts: a D6 on the chart the war machine's profile names."""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice, DieRoll
from engine.fantasy.profiles import MisfireChart, MisfireRow


@dataclass(frozen=True, slots=True)
class Misfire:
    """A roll on a misfire chart and what it did."""

    chart: MisfireChart
    roll: DieRoll | None
    """The D6 rolled on the chart; None while the chart waits for the players' roll."""
    row: MisfireRow | None
    """The row it gave; None while the chart waits for the players' roll."""

    @property
    def awaits_roll(self) -> bool:
        """The players entered the shot's dice and it misfired: the chart is theirs to roll."""
        return self.roll is None


def roll_on_misfire_chart(dice: Dice, chart: MisfireChart) -> Misfire:
    """The war machine misfired: a D6 on its chart. When the players are rolling the shot's dice
    themselves and gave no chart die, the procedure stops here for them to roll it."""
    if dice.players_roll_next():
        return Misfire(chart, None, None)
    roll = dice.d6(chart.name)
    return Misfire(chart, roll, chart.row_for(roll.value))


def consult_misfire_chart(dice: Dice, chart: MisfireChart) -> Misfire:
    """The chart on its own, as ``/misfire`` rolls it: one D6 and no more dice."""
    roll = dice.d6(chart.name)
    dice.finish()
    return Misfire(chart, roll, chart.row_for(roll.value))
