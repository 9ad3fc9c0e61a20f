"""The fire thrower's figures: teardrop coverage for a 100-model horde (target under 1 ms, issue
3), one whole shot, and one picture. Medians of calls timed one by one; printed, never asserted."""

from __future__ import annotations

from benchmarks.bench_cannon import median_time, report
from config.gamedata import fantasy
from engine.dice import EnteredDice, RandomDice
from engine.fantasy.fire_thrower import fire_fire_thrower
from engine.fantasy.formation import TargetUnit, lay_out
from engine.fantasy.wounding import Profile
from engine.geometry import Point
from renders.fantasy.fire_thrower import render_fire_thrower


def main() -> None:
    data = fantasy()
    weapon, chart = data.fire_throwers["fire-thrower"], data.misfire_charts["black-powder"]
    t = weapon.template
    horde = TargetUnit(10, 10, data.troops["infantry"], 20, 20, profile=Profile(3, 1, 5))
    formation, _ = lay_out(horde, 8)
    report("teardrop coverage, 100-model horde (numpy)",
           median_time(lambda: formation.under_teardrop(Point(0.0, 4.0), t.length, t.narrow_radius, t.wide_radius),
                       calls=20000), "µs", 1e6, 1000)
    dice = RandomDice(7)
    report("fire thrower shot, 100-model horde, bot dice",
           median_time(lambda: fire_fire_thrower(weapon, chart, data.flaming_attacks, horde, 8, dice, leadership=7),
                       calls=5000), "µs", 1e6, 1000)
    shot = fire_fire_thrower(weapon, chart, data.flaming_attacks, TargetUnit(5, 10, data.troops["infantry"], 25, 25), 8,
                             EnteredDice("4", RandomDice(1)))
    report("fire thrower picture + PNG encoding, 5x10 unit", median_time(lambda: render_fire_thrower(shot), calls=60), "ms", 1e3, 25)


if __name__ == "__main__":
    main()
