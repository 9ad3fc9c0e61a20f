"""The fuzz of every command and option, larger than CI's (issue 19, part 5): how many inputs
each command was given, how many it answered, refused in one sentence, or met with the apology
(the goal: none), and the slowest single example. Fresh randomness each run; the input space is
tests/fuzz.py's. ``BOMBARDIER_FUZZ_EXAMPLES`` sets the examples per command (default 150).

``make fuzz`` runs this; a failing example is printed with its options so it can be replayed."""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from bot import create_bot
from config.settings import Settings
from tests.fuzz import every_command, options_strategy, run_one


def main() -> None:
    examples = int(os.environ.get("BOMBARDIER_FUZZ_EXAMPLES", "150"))
    loop = asyncio.new_event_loop()
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(Settings(data_dir=Path(tmp), sync_commands=False))
        loop.run_until_complete(bot.load_cogs())
        totals: Counter[str] = Counter()
        bad: list[str] = []
        print(f"{'command':<28} {'inputs':>7} {'replies':>8} {'errors':>7} {'apology':>8} {'refused':>8} {'slowest':>9}")
        for command in every_command(bot.tree):
            counts: Counter[str] = Counter()
            slowest = 0.0

            @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
            @given(options_strategy(command))
            def run(kwargs):
                nonlocal slowest
                start = time.process_time()
                outcome = loop.run_until_complete(run_one(bot, command, kwargs))
                slowest = max(slowest, time.process_time() - start)
                counts["inputs"] += 1
                counts[outcome.kind] += 1
                if outcome.problems:
                    counts["refused"] += 1
                if outcome.kind == "apology" or outcome.problems:
                    bad.append(f"/{command.qualified_name} {kwargs!r}: {outcome.problems or outcome.logged[-1:]}")

            run()
            totals.update(counts)
            print(f"/{command.qualified_name:<27} {counts['inputs']:>7} {counts['reply']:>8} {counts['error']:>7} "
                  f"{counts['apology']:>8} {counts['refused']:>8} {slowest * 1e3:>7.0f}ms")
        print(f"{'all ' + str(len(every_command(bot.tree))) + ' commands':<28} {totals['inputs']:>7} {totals['reply']:>8} "
              f"{totals['error']:>7} {totals['apology']:>8} {totals['refused']:>8}")
        for line in bad[:20]:
            print("FAILED", line[:400])
        bot.store.close()
    loop.close()


if __name__ == "__main__":
    main()
