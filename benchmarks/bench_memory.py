"""Memory over many interactions (issue 26), beside its floor: the bot's resident memory (RSS) as
mixed interactions go through the real discord.py client and the Discord stand-in, and the same
count through a bare discord.py client that answers each with one fixed embed (the floor: what
discord.py and the stand-in hold on their own), in the same run.

The mix, in waves of WAVE at once, from 20 servers: `/fire cannon` (its picture), `/fire cannon
private:true`, `/roll 2d6 private:true`, `/help` (private, with its buttons), `/rules term:bounce`,
`/roll 3d6`. RSS is read from /proc after a wave and a garbage collection: at 2,000, 6,000 and
TOTAL interactions, and idle (two seconds with nothing sent). The bot's worker processes for
pictures are counted apart (their RSS, summed). Targets: from 2,000 to 6,000 the bot grows at most
6 MiB; idle RSS after TOTAL within 20% of idle after 2,000.

The stand-in keeps nothing it is sent here (benchmarks/bench_burst.py's hook), or the PNGs would
be the growth measured. ``BOMBARDIER_BENCH_TOTAL`` sets TOTAL (default 30,000: about ten minutes
on the 2-core machine). Printed, never asserted."""

from __future__ import annotations

import asyncio
import gc
import os
import tempfile
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import discord.http

from benchmarks.bench_burst import SERVERS, Answers, hooked_standin, with_bot
from tests.e2e.standin import USER_ID, DiscordStandIn, point_discord_py_at, start_client

WAVE = 50
MARKS = (2_000, 6_000)
TOTAL = int(os.environ.get("BOMBARDIER_BENCH_TOTAL", "30000"))


def rss_mib(pid: int | str = "self") -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def children_rss_mib() -> float:
    total = 0.0
    me = str(os.getpid())
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                parent = f.read().rsplit(")", 1)[1].split()[1]
        except OSError:
            continue
        if parent == me:
            total += rss_mib(pid)
    return total


def mixed(standin: DiscordStandIn, n: int, start: int) -> list[dict[str, Any]]:
    out = []
    for i in range(n):
        k = start + i
        who = {"guild_id": SERVERS[k % len(SERVERS)], "as_user": USER_ID + 1000 + k % 500}
        kind = k % 6
        if kind == 0:
            out.append(standin.slash("/fire cannon", distance=12 + k % 36, ranks=4, files=5, **who))
        elif kind == 1:
            out.append(standin.slash("/fire cannon", distance=12 + k % 36, ranks=4, files=5, private=True, **who))
        elif kind == 2:
            out.append(standin.slash("/roll", expression="2d6", private=True, **who))
        elif kind == 3:
            out.append(standin.slash("/help", **who))
        elif kind == 4:
            out.append(standin.slash("/rules", term="bounce", **who))
        else:
            out.append(standin.slash("/roll", expression="3d6", **who))
    return out


async def run(standin: DiscordStandIn, answers: Answers, marks: tuple[int, ...], total: int) -> list[tuple[str, float, float]]:
    seen: list[tuple[str, float, float]] = []
    sent = 0
    while sent < total:
        payloads = mixed(standin, WAVE, sent)
        done = answers.expect(payloads)
        await asyncio.gather(*(standin.dispatch("INTERACTION_CREATE", p) for p in payloads))
        await asyncio.wait_for(done.wait(), 600)
        for p in payloads:  # what the hook resolved is not kept either
            answers.first.pop(p["id"], None)
            answers.final.pop(p["id"], None)
            answers._token.pop(p["token"], None)
            standin.dispatched_at.pop(p["id"], None)
        answers._wanted = 0
        sent += WAVE
        if sent in marks or sent == total:
            gc.collect()
            seen.append((f"after {sent:,}", rss_mib(), children_rss_mib()))
            if sent in (marks[0], total):
                await asyncio.sleep(2.0)
                gc.collect()
                seen.append((f"idle after {sent:,}", rss_mib(), children_rss_mib()))
    return seen


class BareMixed(discord.Client):
    """The floor: every interaction answered with one fixed embed, ephemeral like the bot's private ones."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        private = any(o.get("name") == "private" for o in (interaction.data or {}).get("options", []))
        await interaction.response.send_message(embed=discord.Embed(title="1d20: 13", description="Roll 1d20"),
                                                 ephemeral=private)


async def measure() -> dict[str, list[tuple[str, float, float]]]:
    standin, answers = hooked_standin()
    await standin.start()
    point_discord_py_at(standin)
    out: dict[str, list[tuple[str, float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        async def bot_run(bot):
            return await run(standin, answers, MARKS, TOTAL)

        out["bot"] = await with_bot(standin, Path(tmp) / "bot", bot_run)
        floor = BareMixed()
        runner = await start_client(floor)
        try:
            out["floor"] = await run(standin, answers, MARKS, min(TOTAL, MARKS[-1]))
        finally:
            await floor.close()
            await asyncio.wait_for(runner, 30)
    await standin.stop()
    return out


def main() -> None:
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    try:
        out = asyncio.run(measure())
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
    print(f"RSS over mixed interactions (waves of {WAVE}, 20 servers), the bot beside its floor (a bare client)")
    for who, rows in out.items():
        for label, rss, kids in rows:
            extra = f" (+ picture processes {kids:.1f} MiB)" if kids and who == "bot" else ""
            print(f"  {who:<6} {label:<20} {rss:8.1f} MiB{extra}")
    for who, rows in out.items():
        at = {label: rss for label, rss, _ in rows}
        grow = at.get(f"after {MARKS[1]:,}", 0) - at.get(f"after {MARKS[0]:,}", 0)
        line = f"  {who:<6} from {MARKS[0]:,} to {MARKS[1]:,}: {grow:+.1f} MiB"
        if who == "bot":
            line += f" (target at most 6 MiB: {'met' if grow <= 6 else 'NOT met'})"
            idle0, idle1 = at.get(f"idle after {MARKS[0]:,}"), at.get(f"idle after {TOTAL:,}")
            if idle0 and idle1 and TOTAL > MARKS[0]:
                change = idle1 / idle0 - 1
                line += (f"; idle after {TOTAL:,} is {change:+.1%} of idle after {MARKS[0]:,} "
                         f"(target within 20%: {'met' if abs(change) <= 0.2 else 'NOT met'})")
        print(line)


if __name__ == "__main__":
    main()
