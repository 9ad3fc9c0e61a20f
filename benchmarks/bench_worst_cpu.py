"""Issue 19, part 1: the worst-case CPU of every command after the caps. One command cannot stall
the others: each free-text list is capped at what a table holds (the cap is tested, not the
time: tests/console/test_bounded_console.py), the engine call and the picture run in the bounded
work pool off the event loop (tests/e2e/test_worst_case_e2e.py), and this prints what the worst
input the caps allow costs.

For every command: its required options at their largest, then every option at its largest (the
lines of tests/console/test_worst_cases.py), the hand-written worst cases there (the biggest units,
the most dice), and the capped `near:` lists of /wm cannon, /wm bone-thrower and /siege artillery, and then a full
roster and a battle of SHOTS logged shots read back (/battle status, /log show, /log export).
Each line runs through the console's reply path (engine, words, picture, roll log); the figure is
the process CPU time (all threads) of the costliest line per command, worst of RUNS runs (a cached picture would flatter the best). Printed,
never asserted (docs/figures.md)."""

from __future__ import annotations

import asyncio
import shlex
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bot import create_bot
from config.settings import Settings
from console import offline as console

RUNS = 3
BUDGET_MS = 1000
"""The stated budget: a command's worst case costs at most this much CPU (Discord's window is 3 s;
the defer goes out at 1.5 s whatever the work costs, since it runs off the event loop)."""


def worst_lines(bot) -> list[str]:
    from cogs.warmaster.options import MAX_NEAR
    from engine.fantasy.formation import MAX_FILES, MAX_RANKS
    from engine.warmaster.shooting import MAX_STANDS
    from tests.console.test_bounded_console import near
    from tests.console.test_worst_cases import WORST, _line

    lines = []
    for command in console._commands(bot.tree):
        for everything in (False, True):
            lines.append(_line(command, everything=everything))
    lines += [w.format(R=MAX_RANKS, F=MAX_FILES, N=("Thunder " * 12).strip()[:90]) for w in WORST]
    crowd = near(MAX_NEAR)
    lines += [
        f'/wm cannon distance:30 near:"{crowd}"',
        f'/wm bone-thrower distance:30 near:"{crowd}"',
        f'/siege artillery weapon:bombard distance:30 near:"{crowd}"',
        '/wm cannon distance:30 at:"' + " ".join(f"{4 * i},1" for i in range(MAX_STANDS)) + '"',
        '/roll expression:"100d6+100d8+100d10"',
        # /odds at its costliest: no exact answer, the time-bounded throws of a slow procedure
        "/odds shot:'wm cannon distance:60'",
        "/odds shot:'roll expression:1000d6'",
        "/odds shot:'fire fire-thrower distance:8 ranks:20 files:30 toughness:3 leadership:7' "
        "compare:'breath distance:8 strength:10 ranks:20 files:30 base:60 depth:150 toughness:10'",
    ]
    return lines


SHOTS = 400
"""The stateful worst cases: a roster of 30 machines and a battle of SHOTS recorded shots (every one
in the roll log), then the commands that read all of it."""


def fill(loop, bot) -> list[str]:
    name = "Great Cannon of the Northern Reach {:02d}"
    for i in range(30):
        loop.run_until_complete(console.invoke(bot, f'/machine add name:"{name.format(i)}" kind:great-cannon'))
    loop.run_until_complete(console.invoke(bot, "/battle start"))
    for i in range(SHOTS):
        loop.run_until_complete(console.invoke(bot, f'/fire great-cannon distance:40 machine:"{name.format(i % 30)}" dice:"H 4 2"'))
        if i % 40 == 39:
            loop.run_until_complete(console.invoke(bot, "/battle turn"))
    return ["/battle status", "/machine list", "/log show count:10", "/log export", "/battle end", "/log export"]


def measure(loop, bot, lines, worst) -> int:
    """Run each line RUNS times; keep the costliest line per command. Returns the lines refused."""
    refused = 0
    for line in lines:
        spent_most = None
        for _ in range(RUNS):
            start = time.process_time()
            try:
                loop.run_until_complete(console.invoke(bot, line))
            except console.ConsoleError:
                refused += 1
                break
            spent = time.process_time() - start
            spent_most = spent if spent_most is None else max(spent_most, spent)
        if spent_most is None:
            continue
        name = "/" + console.find_command(bot.tree, shlex.split(line))[0].qualified_name
        if spent_most > worst[name][0]:
            worst[name] = (spent_most, line)
    return refused


def main() -> None:
    loop = asyncio.new_event_loop()
    worst: dict[str, tuple[float, str]] = defaultdict(lambda: (0.0, ""))
    refused = 0
    # Stateless worst cases first; then, in a fresh store (those lines end battles and forget
    # players), the full roster and battle read back.
    for stateful in (False, True):
        with tempfile.TemporaryDirectory() as tmp:
            bot = create_bot(Settings(data_dir=Path(tmp), sync_commands=False))
            loop.run_until_complete(bot.load_cogs())
            lines = fill(loop, bot) if stateful else worst_lines(bot)
            refused += measure(loop, bot, lines, worst)
            bot.store.close()
    print(f"worst-case CPU per command (worst of {RUNS} runs, process CPU, all threads); budget {BUDGET_MS} ms")
    for name, (spent, line) in sorted(worst.items(), key=lambda kv: -kv[1][0]):
        flag = "" if spent * 1e3 <= BUDGET_MS else "  OVER BUDGET"
        print(f"  {name:<26} {spent * 1e3:8.1f} ms   {line[:90]}{flag}")
    print(f"  ({len(worst)} commands; {refused} lines the console refused before running; stateful lines after "
          f"30 machines and {SHOTS} logged shots)")
    loop.close()


if __name__ == "__main__":
    main()
