"""/roll and the roll log: figures, printed (issue 9).

* ``/roll 1000d6>=4``: our grammar and dice (engine/roll.py with the log's HMAC-seeded RandomDice)
  beside d20 (Avrae's roller, a widely used Python dice library, a bench-only dependency) on the
  same thousand dice in the same run. d20 has no success pools, so it rolls ``1000d6k>3`` (keep the
  dice above 3): the same dice and the same selection; the successes are the kept dice.
* The reply for it (every die listed, within Discord's limits).
* One log entry: its hash alone (canonical JSON + SHA-256), and appended to a real SQLite file in
  one transaction (storage/roll_log.py).

Medians of calls timed one by one; never asserted.
"""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

from benchmarks.bench_cannon import median_time
from cogs.dice.words.roll import roll_reply, roll_summary
from engine.ledger import dice_for_roll, make_entry
from engine.roll import roll
from storage import roll_log
from storage.migrations import open_store

SECRET = bytes(range(32))


def line(name: str, seconds: float, unit: str, scale: float, note: str = "") -> None:
    print(f"{name:<60} {seconds * scale:10.2f} {unit:<3} {note}")


def main() -> None:
    import d20

    numbers = itertools.count(1)
    print("side by side with d20 1.1.2 in one run (issue 14's figures); ours draws each die from the roll log's")
    print("HMAC-SHA256 derivation (docs/roll-derivation.md), d20 from Python's random; both keep parsed expressions")

    def pair(ours_text: str, theirs, label: str, unit: str, scale: float, calls: int) -> None:
        ours = median_time(lambda: roll(ours_text, dice_for_roll(SECRET, next(numbers))), calls=calls)
        theirs_t = median_time(theirs, calls=calls)
        line(f"/roll {ours_text}, ours", ours, unit, scale)
        line(f"{label} with d20", theirs_t, unit, scale)
        print(f"{'ratio d20 / ours (above 1: ours is faster)':<60} {theirs_t / ours:10.2f}")

    pair("1d20", lambda: d20.roll("1d20").total, "1d20", "µs", 1e6, 5000)
    pair("2d6+1", lambda: d20.roll("2d6+1").total, "2d6+1", "µs", 1e6, 5000)
    # d20 has no success pools: 1000d6k>3 keeps the dice above 3, the same dice and selection.
    pair("1000d6>=4", lambda: len(d20.roll("1000d6k>3").expr.roll.keptset), "1000d6k>3 (its nearest: keep >3)",
         "ms", 1e3, 100)
    pair("1000d6", lambda: d20.roll("1000d6").total, "1000d6 (a plain sum)", "ms", 1e3, 100)
    # 10000d6: both refuse it in one roll (ours caps a command at 1000 dice, issue 19; d20 at 1000
    # rolls). d20 with its limit raised, beside ours as ten 1000d6 commands (the same 10,000 dice).
    big = d20.Roller(context=d20.RollContext(max_rolls=20_000))
    ten = median_time(lambda: [roll("1000d6", dice_for_roll(SECRET, next(numbers))) for _ in range(10)], calls=10)
    theirs = median_time(lambda: big.roll("10000d6").total, calls=10)
    line("10,000d6 as ten /roll 1000d6, ours", ten, "ms", 1e3)
    line("10000d6 with d20 (its limit raised to 20,000 rolls)", theirs, "ms", 1e3)
    print(f"{'ratio d20 / ours (above 1: ours is faster)':<60} {theirs / ten:10.2f}")

    result = roll("1000d6>=4", dice_for_roll(SECRET, 1))
    line("the reply for 1000d6>=4 (embed, summary, --json fields)", median_time(lambda: roll_reply(result), calls=200), "ms", 1e3)

    summary = roll_summary(result)
    line("one log entry's hash (1000 dice, canonical JSON + SHA-256)", median_time(
        lambda: make_entry(previous="0" * 64, number=1, time="2026-11-21T22:00:00+00:00", user="1", command="roll",
                           options={"expression": "1000d6>=4"}, dice=result.dice, summary=summary), calls=200), "ms", 1e3)
    small = roll("2d6+1", dice_for_roll(SECRET, 1))
    with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "bench.sqlite3") as store:
        secrets = (n.to_bytes(32, "big") for n in itertools.count(1))
        chain = "channel:0:0"
        roll_log.open_chain(store, chain, lambda: next(secrets))

        def append() -> None:
            with store.transaction():
                slot = roll_log.next_roll(store, chain, lambda: next(secrets))
                roll_log.append(store, slot, user="1", command="roll", options={"expression": "2d6+1"},
                                dice=small.dice, summary=roll_summary(small))

        line("one log append (2d6+1 entry, hash + SQLite transaction, WAL)", median_time(append, calls=300), "ms", 1e3)

        def append_big() -> None:
            with store.transaction():
                slot = roll_log.next_roll(store, chain, lambda: next(secrets))
                roll_log.append(store, slot, user="1", command="roll", options={"expression": "1000d6>=4"},
                                dice=result.dice, summary=summary)

        line("one log append of a 1,000-die entry (hash + transaction)", median_time(append_big, calls=100), "ms", 1e3)
    fire_logging()


def fire_logging() -> None:
    """What logging adds to every /fire: drawing the roll number in ``bot.new_dice()`` (on the
    event loop) and appending the entry in ``send_reply`` (in a worker thread)."""
    import asyncio

    from bot import create_bot
    from console import offline as console
    from config.settings import Settings

    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(Settings(data_dir=Path(tmp), sync_commands=False, dice_seed=1))

        async def one_shot():
            await bot.load_cogs()
            return await console.invoke(bot, "/fire cannon distance:30 ranks:5 files:10 toughness:3")

        reply = asyncio.run(one_shot()).extras[console.REPLY_KEY]
        store, chain = bot.store, "channel:1:1"
        line("/fire: draw the roll number in new_dice (one transaction)", median_time(
            lambda: roll_log.next_roll(store, chain, bot.new_secret), calls=300), "ms", 1e3)

        def append() -> None:
            slot = roll_log.next_roll(store, chain, bot.new_secret)
            roll_log.append(store, slot, user="100", command=reply.command, options={"distance": 30.0, "ranks": 5},
                            dice=reply.dice, summary=reply.summary)

        line(f"/fire: draw + append its entry ({len(reply.dice)} dice, hash + transaction)",
             median_time(append, calls=300), "ms", 1e3)
        bot.store.close()


if __name__ == "__main__":
    main()
