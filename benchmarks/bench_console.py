"""The console's cold start: ``python bot.py play --json '/fire cannon distance:30'`` in a fresh
process, as a player's shell runs it, from start to exit (imports, the store, the one cog the
command needs, the engine, the picture, the JSON). Target (issue 13): median under 1 s on the
2-core machine. Printed, never asserted.

Two figures: runs in one data folder (the usual case: the store exists), and first use (a new
data folder each run: the store is created and migrated). Every run has
PYTHONDONTWRITEBYTECODE=1 as this machine's environment does: the project's bytecode comes from
the compile scripts/bootstrap.sh does at set-up. CPU is the child's user + system time, which a
busy machine disturbs less than the wall clock.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 15
COMMAND = "/fire cannon distance:30"


def one_run(data: Path) -> tuple[float, float]:
    env = {**os.environ, "BOMBARDIER_DATA": str(data), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("DISCORD_TOKEN", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, str(ROOT / "bot.py"), "play", "--json", COMMAND], env=env, check=True,
                   stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    subprocess.run([sys.executable, "-m", "compileall", "-q", "bot.py", "cogs", "console", "engine", "renders",
                    "config", "storage"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory() as tmp:
        one_run(Path(tmp) / "kept")  # creates the store the usual runs then find
        for label, folder in (("store kept", lambda i: Path(tmp) / "kept"), ("first use", lambda i: Path(tmp) / f"new{i}")):
            runs = [one_run(folder(i)) for i in range(RUNS)]
            walls, cpus = [w for w, _ in runs], [c for _, c in runs]
            print(f"console cold start, `play --json '{COMMAND}'` x{RUNS}, {label}: wall median "
                  f"{statistics.median(walls):.2f} s (min {min(walls):.2f}, max {max(walls):.2f}); CPU median "
                  f"{statistics.median(cpus):.2f} s (target: median under 1 s; load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
