"""Issue 18's figures: what a reply costs, per command, and the end-to-end time through the strict
Discord stand-in (the one that refuses what Discord refuses, tests/discord_limits.py).

1. Per command: building the reply (engine, words, the glance and the details) plus rendering and
   encoding its picture, through the same path the console and Discord take (the store's writes
   included: the roll log, the buttons). Median of RUNS; target 25 ms.
2. End to end: from dispatching INTERACTION_CREATE to the stand-in accepting the answer, over a
   mix of commands; p95, target 100 ms.

Printed, never asserted (docs/figures.md)."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import discord.gateway
import discord.http

from bot import create_bot
from config.settings import Settings
from console import offline as console
from tests.e2e.standin import DiscordStandIn, point_discord_py_at

RUNS = 15
COMMANDS = [
    '/fire cannon distance:30 ranks:4 files:5 toughness:3',
    '/fire great-cannon distance:40 ranks:5 files:6',
    '/fire stone-thrower distance:30 ranks:5 files:6 toughness:3',
    '/fire bolt-thrower distance:20 bs:3 ranks:4 files:5 toughness:3',
    '/fire fire-thrower distance:8 ranks:4 files:5 toughness:3 leadership:7',
    '/fire grapeshot distance:6 bs:3 toughness:3',
    '/misfire chart:blackpowder',
    '/shoot shots:10 bs:3 strength:3 toughness:3 save:5',
    '/breath distance:4 strength:4 toughness:3',
    '/combat attacks attacks:10 ws:4 enemy_ws:3 strength:4 toughness:3',
    '/wm cannon distance:30',
    '/wm helblaster range:15',
    '/siege structure kind:gateway hits:2',
    '/40k ordnance distance:30 strength:8',
    '/40k penetrate strength:9 armour:13',
    '/roll expression:"10d6>=4 r1"',
    '/log show count:10',
    '/rules term:bounce',
    '/help',
]
MIX = [("/fire cannon", {"distance": 30, "ranks": 4, "files": 5}), ("/wm helblaster", {"range": 15}),
       ("/40k ordnance", {"distance": 30, "strength": 8}), ("/roll", {"expression": "4d6"}),
       ("/fire stone-thrower", {"distance": 30, "toughness": 3})]


async def per_command() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(Settings(data_dir=Path(tmp), sync_commands=False, dice_seed=1))
        await bot.load_cogs()
        out = {}
        for line in COMMANDS:
            times = []
            for _ in range(RUNS):
                start = time.perf_counter()
                interaction = await console.invoke(bot, line)
                reply = interaction.extras[console.REPLY_KEY]
                reply.glance(), reply.details()
                times.append(time.perf_counter() - start)
            out[" ".join(w for w in line.split()[:2] if ":" not in w)] = statistics.median(times)
        return out


async def end_to_end() -> list[float]:
    standin = DiscordStandIn()
    await standin.start()
    point_discord_py_at(standin)
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(Settings(token="standin", data_dir=Path(tmp), sync_commands=True))
        bot._connection.guild_ready_timeout = 0
        runner = asyncio.create_task(bot.start("standin"))
        await asyncio.wait_for(bot.wait_until_ready(), 15)
        times = []
        for i in range(100):
            command, options = MIX[i % len(MIX)]
            payload = standin.slash(command, **options)
            start = time.perf_counter()
            await standin.dispatch("INTERACTION_CREATE", payload)
            path = f"/interactions/{payload['id']}/{payload['token']}/callback"
            await standin.wait_for(lambda r: r.path == path)
            times.append(time.perf_counter() - start)
        await bot.close()
        await runner
    refused = len(standin.refused)
    await standin.stop()
    if refused:
        print(f"  the stand-in refused {refused} answers: see tests/e2e")
    return times


def main() -> None:
    medians = asyncio.run(per_command())
    for name, median in medians.items():
        verdict = "within" if median * 1e3 <= 25 else "OVER"
        print(f"{'reply + picture, median: ' + name:<52} {median * 1e3:10.2f} ms  (target 25 ms: {verdict})")
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    try:
        times = asyncio.run(end_to_end())
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
    p95 = statistics.quantiles(times, n=20)[-1] * 1e3
    verdict = "within" if p95 <= 100 else "OVER"
    print(f"{'five commands via the strict stand-in (p50)':<52} {statistics.median(times) * 1e3:10.2f} ms")
    print(f"{'five commands via the strict stand-in (p95)':<52} {p95:10.2f} ms  (target 100 ms: {verdict})")


if __name__ == "__main__":
    main()
