"""The stone thrower's figures: template coverage for a 100-model horde (target under 1 ms, issue
3), one whole shot, and one picture. Medians of calls timed one by one; printed, never asserted."""

from __future__ import annotations

from benchmarks.bench_cannon import median_time, report
from config.gamedata import fantasy
from engine.dice import EnteredDice, RandomDice
from engine.fantasy.formation import TargetUnit, lay_out
from engine.fantasy.stone_thrower import fire_stone_thrower
from engine.geometry import Point
from renders.fantasy.stone_thrower import render_stone_thrower


def main() -> None:
    data = fantasy()
    weapon, chart = data.stone_throwers["stone-thrower"], data.misfire_charts["stone-thrower"]
    horde = TargetUnit(10, 10, data.troops["infantry"], 20, 20)
    formation, _ = lay_out(horde, 30)
    report("template coverage, 100-model horde (numpy)",
           median_time(lambda: formation.under_circle(Point(0.4, 31.2), weapon.template.radius), calls=20000), "µs", 1e6, 1000)
    dice = RandomDice(7)
    report("stone thrower shot, 100-model horde, bot dice",
           median_time(lambda: fire_stone_thrower(weapon, chart, horde, 30, dice), calls=5000), "µs", 1e6, 1000)
    shot = fire_stone_thrower(weapon, chart, TargetUnit(5, 10, data.troops["infantry"], 25, 25), 30,
                              EnteredDice("@30 4", RandomDice(1)))
    report("stone thrower picture + PNG encoding, 5x10 unit", median_time(lambda: render_stone_thrower(shot), calls=60), "ms", 1e3, 25)


if __name__ == "__main__":
    main()
