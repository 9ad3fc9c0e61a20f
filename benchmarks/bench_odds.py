"""/odds (issue 17): what pricing a shot costs, through the same path the command takes (the
command's own callback caught at its engine call, then every way the dice can fall (a /shoot volley:
one shot's, added up), or seeded
throws where the scatter die's direction is continuous). Medians of calls timed one by one;
printed, never asserted. Targets from the issue: a cannon or a stone thrower at a 100-model horde
exact to ±0.1% in 100 ms; a 40k penetration with its damage table, or a Warmaster structure test,
in 1 ms; the odds picture (a 10 x 10 heat map with its centre of landing and bars, and a table-only
chart) in 25 ms."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from benchmarks.bench_cannon import median_time, report
from bot import create_bot
from cogs.odds.commands import DIRECTION_FREE, POOLS, odds_of, price, procedure_of, read_line
from cogs.odds.words.odds import picture_of
from renders.odds.picture import render_odds
from config.settings import Settings
from console.offline import OfflineInteraction

LINES = [
    ("40k penetration with its damage table (exact)", "40k penetrate strength:9 armour:13", 1),
    ("Warmaster structure test, gateway, 2 hits, 1 token (exact)", "siege structure kind:gateway hits:2 tokens:1", 1),
    ("misfire chart (exact)", "misfire chart:blackpowder", 1),
    ("/roll 3d6 (exact)", "roll expression:3d6", 1),
    ("cannon at a 100-model horde with a profile (estimate)", "fire cannon distance:30 ranks:10 files:10 toughness:3", 100),
    ("stone thrower at the same horde (estimate)", "fire stone-thrower distance:30 ranks:10 files:10 toughness:3", 100),
    ("/shoot 10 shots with saves", "shoot shots:10 bs:3 strength:4 toughness:3 save:5", 100),
]


def main() -> None:
    loop = asyncio.new_event_loop()
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(Settings(data_dir=Path(tmp), sync_commands=False))
        loop.run_until_complete(bot.load_cogs())
        for label, line, target in LINES:
            command, kwargs, shown = read_line(bot, line)
            interaction = OfflineInteraction(bot, bot.tree.get_command("odds"))

            def priced():
                return loop.run_until_complete(odds_of(interaction, command, kwargs, shown))

            odds = priced()
            errors = [c.error for _, c in odds.outcomes if c.error is not None]
            how = (f"exact, {odds.exact_how or f'{odds.ways:,} ways'}" if odds.exact else
                   f"{odds.ways:,} throws, worst ±{max(errors) * 100:.1f}%")
            report(f"{label} [{how}]", median_time(priced, calls=5 if target > 1 else 30), "ms", 1e3, target)
            if target == 1:  # the pricing itself, without the command's hop to a worker thread and back
                caught = loop.run_until_complete(procedure_of(command, interaction, kwargs))
                name = command.qualified_name
                free = 0 if name in DIRECTION_FREE else None
                alone = median_time(lambda: price(caught, shown, free, POOLS.get(name, frozenset())), calls=100)
                report("  the pricing alone (enumeration and tally, in the calling thread)", alone, "ms", 1e3, target)
            if label.startswith(("cannon", "40k")):
                picture = picture_of(odds)
                what = "heat map and bars, 10 x 10" if picture.grid else "outcome bars"
                report(f"  its picture ({what}) + PNG", median_time(lambda: render_odds(picture), calls=30), "ms", 1e3, 25)
        bot.store.close()
    loop.close()


if __name__ == "__main__":
    main()
