"""The cannon's figures: one resolution, one diagram, one console cold start.

Targets (issue 2): resolution under 50 µs, render with PNG encoding under 25 ms, console
one-shot cold start under 1 s. Medians of calls timed one by one; printed, never asserted.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from config.gamedata import fantasy
from engine.dice import EnteredDice, RandomDice
from engine.fantasy.cannon import fire_cannon
from engine.fantasy.formation import TargetUnit
from engine.fantasy.wounding import Profile
from renders.fantasy.cannon import render_cannon

ROOT = Path(__file__).resolve().parent.parent


def median_time(fn, *, calls: int) -> float:
    """Median seconds of one call, each call timed on its own (a burst of noise from a shared
    machine then spoils a few calls, not a whole batch)."""
    clock = time.perf_counter_ns
    times = []
    for _ in range(calls):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times) / 1e9


def report(name: str, seconds: float, unit: str, scale: float, target: float) -> None:
    value = seconds * scale
    verdict = "within" if value <= target else "OVER"
    print(f"{name:<52} {value:10.2f} {unit:<3} (target {target:g} {unit}: {verdict})")


def main() -> None:
    data = fantasy()
    cannon, chart = data.cannons["cannon"], data.misfire_charts["black-powder"]
    infantry = TargetUnit(4, 5, data.troops["infantry"], 20, 20)
    armoured = TargetUnit(4, 5, data.troops["infantry"], 20, 20, profile=Profile(3, 1, 4))
    dice = RandomDice(2024)
    report("cannon resolution, 4x5 infantry, bot dice", median_time(lambda: fire_cannon(cannon, chart, infantry, 30, dice), calls=30000), "µs", 1e6, 50)
    report("cannon resolution, with a profile (wound rolls)", median_time(lambda: fire_cannon(cannon, chart, armoured, 30, dice), calls=30000), "µs", 1e6, 50)

    wide = TargetUnit(5, 10, data.troops["infantry"], 25, 25, profile=Profile(3, 1, 5))
    shot = fire_cannon(cannon, chart, wide, 30, EnteredDice("@30 4 10", RandomDice(1)))
    report("diagram render + PNG encoding, 5x10 unit", median_time(lambda: render_cannon(shot), calls=60), "ms", 1e3, 25)

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "BOMBARDIER_DATA": tmp}
        env.pop("DISCORD_TOKEN", None)
        command = [sys.executable, str(ROOT / "bot.py"), "play", "--json", "/fire cannon distance:30"]
        subprocess.run(command, env=env, capture_output=True, check=True)  # warm the file cache once
        times = []
        for _ in range(7):
            start = time.perf_counter()
            subprocess.run(command, env=env, capture_output=True, check=True)
            times.append(time.perf_counter() - start)
    report("console one-shot cold start (/fire cannon --json)", statistics.median(times), "s", 1, 1)


if __name__ == "__main__":
    main()
