"""Bursts in one process (issue 15, part 0): 20, 200 and 1,000 `/fire cannon` interactions dispatched
at once through the real discord.py client and the Discord stand-in on 127.0.0.1, with real
pictures. For each burst: the share whose first response (the answer, or a defer) reached the
stand-in within Discord's 3 seconds of the interaction's dispatch, the slowest first response, and
the p50, p95 and p99 of the final answer. Printed, never asserted (the order and the deadline are
tests/e2e/test_burst_e2e.py's, with the work held)."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
from pathlib import Path

import discord.gateway
import discord.http

from bot import create_bot
from config.settings import Settings
from tests.e2e.standin import DiscordStandIn, point_discord_py_at, start_client

BURSTS = (20, 200, 1000)
DEADLINE = 3.0


async def burst(standin: DiscordStandIn, n: int, start: int) -> tuple[float, float, list[float]]:
    payloads = [standin.slash("/fire cannon", distance=12 + (start + i) % 36, ranks=4, files=5) for i in range(n)]
    await asyncio.gather(*(standin.dispatch("INTERACTION_CREATE", p) for p in payloads))
    results = await asyncio.gather(*(standin.answered(p, timeout=600) for p in payloads))
    firsts = [first.at - standin.dispatched_at[p["id"]] for p, (first, _) in zip(payloads, results)]
    finals = [final.at - standin.dispatched_at[p["id"]] for p, (_, final) in zip(payloads, results)]
    on_time = sum(1 for f in firsts if f <= DEADLINE) / n
    return on_time, max(firsts), finals


async def measure() -> list[tuple[int, float, float, list[float]]]:
    standin = DiscordStandIn()
    await standin.start()
    point_discord_py_at(standin)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(Settings(token="standin-token", data_dir=Path(tmp)))
        runner = await start_client(bot)
        start = 0
        for n in BURSTS:
            on_time, slowest, finals = await burst(standin, n, start)
            start += n
            out.append((n, on_time, slowest, finals))
        await bot.close()
        await asyncio.wait_for(runner, 30)
    await standin.stop()
    return out


def main() -> None:
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    try:
        results = asyncio.run(measure())
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
    print(f"{'burst of /fire cannon':<24} {'first within 3 s':>16} {'slowest first':>14} {'final p50':>10} {'p95':>8} {'p99':>8}")
    for n, on_time, slowest, finals in results:
        q = statistics.quantiles(finals, n=100)
        print(f"{n:<24} {on_time:>15.1%} {slowest:>12.2f} s {statistics.median(finals):>8.2f} s "
              f"{q[94]:>6.2f} s {q[98]:>6.2f} s")


if __name__ == "__main__":
    main()
