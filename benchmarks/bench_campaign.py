"""Campaign play's figures: one turn and one recorded shot as transactions on a real SQLite file
(WAL, synchronous NORMAL), the /battle status lookup, and its picture. Medians of calls timed one
by one; printed, never asserted. The targets are ours (the issue names none): a store call should
be a small part of Discord's 3-second window and of a render."""

from __future__ import annotations

import tempfile
from pathlib import Path

from benchmarks.bench_cannon import median_time, report
from cogs.campaign.words import battle_board
from renders.campaign.battle import render_battle
from storage import campaigns as c
from storage.migrations import open_store
from storage.campaigns import Effect


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, open_store(Path(folder) / "bench.sqlite3") as store:
        guns = [c.add_machine(store, 1, name=f"Gun {n}", kind="cannon", game="fantasy", crew=3, owner_id=n % 4, by=1)
                for n in range(12)]
        battle = c.start_battle(store, 1, 10, by=0, players=(1, 2, 3))
        report("/battle turn: one transaction on a file", median_time(lambda: c.next_turn(store, 1, 10), calls=2000),
               "ms", 1e3, 5)
        report("a shot recorded against its machine (one transaction)", median_time(
            lambda: c.record_shot(store, 1, battle.id, guns[0].id, user_id=0, kind="cannon", fired=True, hits=3,
                                  outcome="hit", effect=Effect()), calls=2000), "ms", 1e3, 5)

        def status():
            b = c.battle_here(store, 1, 10)
            return [m for m in c.machines(store, 1) if m.owner_id in b.players], c.battle_shots(store, 1, b.id)

        report("/battle status reads (battle, roster, 2000 shots loaded)", median_time(status, calls=200), "ms", 1e3, 20)

        def status_sql():
            b = c.battle_here(store, 1, 10)
            return ([m for m in c.machines(store, 1) if m.owner_id in b.players], c.shot_tally(store, 1, b.id),
                    c.siege_tally(store, 1, b.id))

        report("/battle status reads (battle, roster, 2000 shots counted in SQL)", median_time(status_sql, calls=200),
               "ms", 1e3, 20)
        roster, shots = status()
        board = battle_board(c.battle_here(store, 1, 10), roster, shots, lambda uid: f"player {uid}")
        report("/battle status picture + PNG, 9 machines", median_time(lambda: render_battle(board), calls=60), "ms", 1e3, 25)

        # 100,000 recorded shots (issue 15): what /battle status and /battle turn read now (SQL
        # aggregates), beside loading every shot as they did before.
        with store.transaction() as db:
            db["shots"].insert_all(({"guild_id": 1, "battle_id": battle.id, "machine_id": guns[n % 12].id,
                                     "machine": f"Gun {n % 12}", "kind": "cannon", "user_id": 1, "turn": 1 + n // 1000,
                                     "fired": 1, "hits": 2, "outcome": "hit", "state_after": "ok", "at": 0.0}
                                    for n in range(100_000 - 2000)), batch_size=5000)
        report("/battle status reads, 100,000 shots counted in SQL", median_time(status_sql, calls=30), "ms", 1e3, 20)
        report("/battle status reads, 100,000 shots loaded (before)", median_time(status, calls=5), "ms", 1e3, 20)


if __name__ == "__main__":
    main()
