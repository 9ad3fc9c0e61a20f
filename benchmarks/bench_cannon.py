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


def picture_against_its_floor(shot, rounds: int = 5, calls: int = 30) -> None:
    """The cannon picture beside its floor (issue 26): Pillow encoding the same pixels (the picture's
    own palette images, its glance picture's included, at the same compression level), rounds alternating; the picture's share that
    is label placement and palette mapping. Target: the picture at most 2x its floor."""
    import io

    from PIL import Image

    from renders import canvas

    png = render_cannon(shot)
    images = [Image.open(io.BytesIO(data)) for data in (png, getattr(png, "glance", None)) if data]
    for image in images:  # the picture, and the glance picture its bytes carry (renders/glance.py)
        image.load()

    def encode():
        for image in images:
            image.save(io.BytesIO(), format="PNG", compress_level=canvas.PNG_COMPRESS_LEVEL)

    place, quantize = canvas.Canvas.place, canvas.Canvas.png
    spent = {"place": 0.0, "png": 0.0}

    def timed(name, fn):
        def run(*args, **kwargs):
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += time.perf_counter() - start
        return run

    pictures, floors, ratios, places, pngs = [], [], [], [], []
    for _ in range(rounds):
        floor = median_time(encode, calls=calls)
        canvas.Canvas.place, canvas.Canvas.png = timed("place", place), timed("png", quantize)
        spent.update(place=0.0, png=0.0)
        try:
            picture = median_time(lambda: render_cannon(shot), calls=calls)
        finally:
            canvas.Canvas.place, canvas.Canvas.png = place, quantize
        pictures.append(picture * 1e3)
        floors.append(floor * 1e3)
        ratios.append(picture / floor)
        places.append(spent["place"] / calls * 1e3)
        pngs.append(spent["png"] / calls * 1e3)

    def spread(values, unit=" ms"):
        return f"{statistics.median(values):.2f}{unit} ({min(values):.2f}-{max(values):.2f})"

    print(f"  the cannon picture, 5x10 unit: {spread(pictures)}; its floor, Pillow encoding the same pixels: "
          f"{spread(floors)}; median of {rounds} rounds (lowest-highest)")
    print(f"  of the picture: label placement {spread(places)}, palette mapping + encoding {spread(pngs)}")
    verdict = "met" if statistics.median(ratios) <= 2 else "NOT met"
    print(f"  picture / floor: {spread(ratios, 'x')} (target at most 2x: {verdict})")


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
    picture_against_its_floor(shot)

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
