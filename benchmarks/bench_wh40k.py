"""The 40k figures: blast coverage over a 30-model squad (issue 5), one whole ordnance shot at
it, one penetration with its damage roll, and one ordnance picture. Medians of calls timed one by
one; printed, never asserted."""

from __future__ import annotations

from benchmarks.bench_cannon import median_time, report
from config.gamedata import wh40k
from engine.dice import EnteredDice, RandomDice
from engine.geometry import Point
from engine.wh40k.blast import base_coverage
from engine.wh40k.ordnance import fire_ordnance
from engine.wh40k.penetration import penetrate
from engine.wh40k.squad import Squad
from engine.wh40k.vehicle import VehicleState
from renders.wh40k.ordnance import render_ordnance


def main() -> None:
    data = wh40k()
    marker, weapon = data.blast_markers["large"], data.penetration["ordnance"]
    squad = Squad(30, 25, per_row=10)
    xs, ys = squad.positions(Point(0.0, 30.0))
    report("blast coverage, 30-model squad (numpy)",
           median_time(lambda: base_coverage(Point(0.7, 31.1), marker.radius, xs, ys, squad.base), calls=20000), "µs", 1e6, 1000)
    dice = RandomDice(7)
    report("ordnance shot at a 30-model squad, bot dice",
           median_time(lambda: fire_ordnance(marker, weapon, data.damage_tables, data.wounds, dice, strength=8,
                                             distance=30, squad=squad), calls=5000), "µs", 1e6, 1000)
    report("armour penetration and damage roll, bot dice",
           median_time(lambda: penetrate(data.penetration["normal"], 12, VehicleState(passengers=10), dice,
                                         data.damage_tables, data.wounds, strength=9), calls=20000), "µs", 1e6, 50)
    shot = fire_ordnance(marker, weapon, data.damage_tables, data.wounds, EnteredDice("@60 2", RandomDice(1)),
                         strength=8, distance=30, squad=squad)
    report("ordnance picture + PNG encoding, 30-model squad", median_time(lambda: render_ordnance(shot), calls=60), "ms", 1e3, 25)


if __name__ == "__main__":
    main()
