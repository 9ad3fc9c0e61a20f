"""Warmaster figures: one structure test, one cannon-with-bounce resolution, one cannon picture.

Issue 4 sets no targets, so none are printed (the Fantasy cannon's are 50 µs a resolution and
25 ms a picture, for comparison). Medians of calls timed one by one; printed, never asserted.
"""

from __future__ import annotations

from benchmarks.bench_cannon import median_time


def report(name: str, seconds: float, unit: str, scale: float) -> None:
    print(f"{name:<52} {seconds * scale:10.2f} {unit}")
from config.gamedata import warmaster
from engine.dice import RandomDice
from engine.geometry import Point
from engine.warmaster.cannon import PlacedUnit, fire_cannons, the_path
from engine.warmaster.profiles import Position
from engine.warmaster.shooting import Side, Unit
from engine.warmaster.stands import Formation, lay_out
from engine.warmaster.structure import structure_test
from renders.warmaster.artillery import render_cannon


def main() -> None:
    w = warmaster()
    dice = RandomDice(2024)
    gate = w.structures["gateway"]
    report("structure test: gateway, 6 shots, 4 tokens, bot dice",
           median_time(lambda: structure_test(gate, dice, shots=6, tokens=4), calls=30000), "µs", 1e6)

    inf = w.troops["infantry"]
    target = PlacedUnit(Unit("target", 4, 3, None, Position.OPEN, inf), lay_out(Formation.COLUMN, 4, Point(0, 30), turn=15))
    friend = PlacedUnit(Unit("friend 1", 3, 3, 4, Position.OPEN, inf, Side.FRIEND), lay_out(Formation.LINE, 3, Point(2, 39)))
    engaged = PlacedUnit(Unit("enemy 1", 3, 3, 5, Position.OPEN, inf, engaged=True), lay_out(Formation.LINE, 3, Point(-9, 33)))
    cannon = w.artillery["cannon"]
    def fresh():  # a shot at a new placing: the path worked out as well as the dice rolled
        the_path.cache_clear()
        fire_cannons(cannon, w.positions, target, dice, cannons=2, others=(friend, engaged))

    report("cannon battery with bounce: 2 cannons, column + 2 units", median_time(fresh, calls=10000), "µs", 1e6)
    report("  the same placing again (its path kept: /odds's throws)",
           median_time(lambda: fire_cannons(cannon, w.positions, target, dice, cannons=2, others=(friend, engaged)),
                       calls=10000), "µs", 1e6)
    shot = fire_cannons(cannon, w.positions, target, RandomDice(1), cannons=2, others=(friend, engaged))
    report("cannon picture + PNG encoding", median_time(lambda: render_cannon(shot), calls=40), "ms", 1e3)


if __name__ == "__main__":
    main()
