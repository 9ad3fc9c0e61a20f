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


def median_time(fn, *, calls: int, clock=time.perf_counter_ns) -> float:
    """Median seconds of one call, each call timed on its own (a burst of noise from a shared
    machine then spoils a few calls, not a whole batch); `clock` (ns): wall time, or the thread's
    CPU time (``time.thread_time_ns``: what other processes on a shared machine take is not
    counted)."""
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
    own palette images, its glance picture's included, at the zlib level the bot used before it wrote its own PNGs),
    rounds alternating; the picture's share that is label placement and encoding; and the bot's own PNG writer
    on the same pixels. Target: the picture at most 2x its floor."""
    import io

    from PIL import Image

    from renders import canvas

    png = render_cannon(shot)
    images = [Image.open(io.BytesIO(data)) for data in (png, getattr(png, "glance", None)) if data]
    for image in images:  # the picture, and the glance picture its bytes carry (renders/canvas.py)
        image.load()

    def encode():
        for image in images:
            image.save(io.BytesIO(), format="PNG", compress_level=canvas.PNG_COMPRESS_LEVEL)

    def ours():  # the bot's own PNG writer (ISA-L) on the same pixels, for comparison
        for image in images:
            canvas._encode(image)

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
    cpu_pictures, cpu_floors, cpu_ratios, cpu_ours = [], [], [], []
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
        # The same, in the thread's CPU time: on a shared machine, what the other processes take of
        # the cores is then left out of both.
        cpu_floor = median_time(encode, calls=calls, clock=time.thread_time_ns)
        cpu_picture = median_time(lambda: render_cannon(shot), calls=calls, clock=time.thread_time_ns)
        cpu_pictures.append(cpu_picture * 1e3)
        cpu_floors.append(cpu_floor * 1e3)
        cpu_ratios.append(cpu_picture / cpu_floor)
        cpu_ours.append(median_time(ours, calls=calls, clock=time.thread_time_ns) * 1e3)

    def spread(values, unit=" ms"):
        return f"{statistics.median(values):.2f}{unit} ({min(values):.2f}-{max(values):.2f})"

    print(f"  the cannon picture, 5x10 unit: {spread(pictures)}; its floor, Pillow encoding the same pixels: "
          f"{spread(floors)}; median of {rounds} rounds (lowest-highest), wall time")
    print(f"  of the picture: label placement {spread(places)}, encoding (the picture is drawn on its palette: "
          f"nothing left to map) {spread(pngs)}")
    verdict = "met" if statistics.median(ratios) <= 2 else "NOT met"
    print(f"  picture / floor: {spread(ratios, 'x')} (target at most 2x: {verdict}), wall time")
    verdict = "met" if statistics.median(cpu_ratios) <= 2 else "NOT met"
    print(f"  in CPU time: the picture {spread(cpu_pictures)}, its floor {spread(cpu_floors)}; "
          f"picture / floor: {spread(cpu_ratios, 'x')} (target at most 2x: {verdict}); load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"  the bot's PNG writer (ISA-L) on the same pixels, copying them out of Pillow first (a canvas needs no copy): "
          f"{spread(cpu_ours)} CPU, against Pillow's {spread(cpu_floors)}")


def different_pictures_against_their_floor(count: int = 200, rounds: int = 3) -> None:
    """A burst's pictures beside their floor (issue 26): `count` different cannon shots, as
    ``bench_burst.py`` fires them (a 4 x 5 unit, 12" to 47", the bot's dice), each drawn once a round,
    against Pillow encoding each one's pixels; CPU time of the whole set, rounds alternating. Unlike
    one shot drawn again and again, every title, note and distance is new text, as on a busy bot."""
    import io

    from PIL import Image

    from renders import canvas

    data = fantasy()
    unit = TargetUnit(4, 5, data.troops["infantry"], 20, 20)
    dice = RandomDice(26)
    shots = [fire_cannon(data.cannons["cannon"], data.misfire_charts["black-powder"], unit, 12 + i % 36, dice)
             for i in range(count)]
    images = []
    for shot in shots:
        png = render_cannon(shot)
        images.append([Image.open(io.BytesIO(d)) for d in (png, getattr(png, "glance", None)) if d])
    for pair in images:
        for image in pair:
            image.load()
    pictures, floors, ratios = [], [], []
    for _ in range(rounds):
        start = time.thread_time()
        for pair in images:
            for image in pair:
                image.save(io.BytesIO(), format="PNG", compress_level=canvas.PNG_COMPRESS_LEVEL)
        floor = (time.thread_time() - start) / count
        start = time.thread_time()
        for shot in shots:
            render_cannon(shot)
        picture = (time.thread_time() - start) / count
        pictures.append(picture * 1e3)
        floors.append(floor * 1e3)
        ratios.append(picture / floor)

    def spread(values, unit=" ms"):
        return f"{statistics.median(values):.2f}{unit} ({min(values):.2f}-{max(values):.2f})"

    verdict = "met" if statistics.median(ratios) <= 2 else "NOT met"
    print(f"  {count} different cannon pictures (a burst's): {spread(pictures)} CPU a picture; their floor, Pillow "
          f"encoding the same pixels: {spread(floors)}; picture / floor {spread(ratios, 'x')} (target at most 2x: "
          f"{verdict}); load average {os.getloadavg()[0]:.1f}")


def main() -> None:
    data = fantasy()
    if os.environ.get("BOMBARDIER_PICTURE_ONLY"):  # the picture beside its floor alone (issue 26)
        wide = TargetUnit(5, 10, data.troops["infantry"], 25, 25, profile=Profile(3, 1, 5))
        shot = fire_cannon(data.cannons["cannon"], data.misfire_charts["black-powder"], wide, 30,
                           EnteredDice("@30 4 10", RandomDice(1)))
        picture_against_its_floor(shot, rounds=int(os.environ.get("ROUNDS", 5)))
        different_pictures_against_their_floor(rounds=int(os.environ.get("ROUNDS", 3)))
        return
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
    different_pictures_against_their_floor()

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
