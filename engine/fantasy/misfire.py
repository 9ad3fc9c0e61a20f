"""Misfire charts: a D6 on the chart the war machine's profile names."""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice, DieRoll
from engine.fantasy.profiles import MisfireChart, MisfireRow


@dataclass(frozen=True, slots=True)
class Misfire:
    """A roll on a misfire chart and what it did."""

    chart: MisfireChart
    roll: DieRoll
    """The D6 rolled on the chart."""
    row: MisfireRow
    """The row it gave."""


def roll_on_misfire_chart(dice: Dice, chart: MisfireChart) -> Misfire:
    roll = dice.d6(chart.name)
    return Misfire(chart, roll, chart.row_for(roll.value))


def consult_misfire_chart(dice: Dice, chart: MisfireChart) -> Misfire:
    """The chart on its own, as ``/misfire`` rolls it: one D6 and no more dice."""
    misfire = roll_on_misfire_chart(dice, chart)
    dice.finish()
    return misfire
