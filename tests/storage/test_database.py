"""The store against real SQLite files: migrations, transactions, WAL, concurrency, a kill mid-write;
the transactions, concurrency and kill tests on PostgreSQL too (the `database` fixture)."""

import contextlib
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from storage.database import Migration, Store, StoreError

ROOT = Path(__file__).resolve().parents[2]


def counters(db):
    db["counters"].create({"name": str, "value": int}, pk="name")


def counters_note(db):
    db["counters"].add_column("note", str)


BASE = (Migration("test-counters-1", counters, 'CREATE TABLE counters (name TEXT COLLATE "C" PRIMARY KEY, value BIGINT)'),)


def test_open_creates_the_file_in_wal_mode_and_applies_migrations(tmp_path):
    path = tmp_path / "sub" / "b.sqlite3"
    with Store.open(path, BASE) as store:
        assert path.exists()
        assert store.db.journal_mode == "wal"
        assert store.version == 1
        assert "counters" in store.db.table_names()


def test_migrations_apply_once_and_new_ones_on_the_next_open(tmp_path):
    path = tmp_path / "b.sqlite3"
    Store.open(path, BASE).close()
    with Store.open(path, BASE) as store:
        assert store.version == 1
        assert store.migrate(BASE) == []
    with Store.open(path, BASE + (Migration("test-counters-2", counters_note),)) as store:
        assert store.version == 2
        assert "note" in store.db["counters"].columns_dict


def test_a_database_from_a_newer_bot_is_refused(tmp_path):
    path = tmp_path / "b.sqlite3"
    Store.open(path, BASE + (Migration("test-counters-2", counters_note),)).close()
    with pytest.raises(StoreError, match="newer Bombardier"):
        Store.open(path, BASE)


def test_duplicate_migration_names_are_a_bug():
    with pytest.raises(ValueError, match="duplicate"):
        Store.open(":memory:", BASE + BASE)


def test_a_failed_migration_leaves_nothing_behind(tmp_path):
    def broken(db):
        db["half"].create({"id": int}, pk="id")
        raise RuntimeError("boom")

    path = tmp_path / "b.sqlite3"
    with pytest.raises(RuntimeError):
        Store.open(path, BASE + (Migration("test-broken", broken),))
    with Store.open(path, BASE) as store:
        assert "half" not in store.db.table_names()
        assert store.version == 1


def test_two_processes_opening_a_new_file_at_once_apply_each_migration_once(tmp_path):
    """Two shards of a bot started together on one SQLite file: one reads which migrations are
    applied, the other applies them all before the first goes on. The first must not apply them
    again (it died on 'table already exists' / 'duplicate column name', and its shard never came)."""
    from storage.migrations import MIGRATIONS, open_store

    path = tmp_path / "b.sqlite3"

    class Late(Store):
        """A store whose process is overtaken between reading what is applied and applying."""
        transactions = 0

        @contextlib.contextmanager
        def transaction(self):
            Late.transactions += 1
            if Late.transactions == 2 and not self.db.conn.in_transaction:  # `done` read, nothing applied
                open_store(path).close()  # the other process, started at the same moment
            with super().transaction() as db:
                yield db

    with Late.open(path, MIGRATIONS) as store:
        assert Late.transactions > 2  # the other process really came in between
        assert store.version == len(MIGRATIONS)
        names = [r["name"] for r in store.read("SELECT name FROM schema_migrations")]
        assert sorted(names) == sorted(m.name for m in MIGRATIONS)


def test_a_transaction_commits_together_or_not_at_all(database):
    with Store.open(database, BASE) as store:
        with store.transaction() as db:
            db["counters"].insert({"name": "a", "value": 1})
        with pytest.raises(KeyError):
            with store.transaction() as db:
                db["counters"].insert({"name": "b", "value": 1})
                db["counters"].update("a", {"value": 99})
                raise KeyError("user mistake found half way")
        assert store.read("select name, value from counters") == [{"name": "a", "value": 1}]


def test_nested_transactions_join_the_outer_one(database):
    with Store.open(database, BASE) as store:
        with pytest.raises(KeyError):
            with store.transaction() as db:
                db["counters"].insert({"name": "a", "value": 1})
                with store.transaction() as inner:
                    inner["counters"].insert({"name": "b", "value": 2})
                raise KeyError("outer fails")
        assert store.read("select * from counters") == []


def increment(store: Store, name: str) -> None:
    """A read-then-write, as the storage functions make them: under the lock of what it changes
    (PostgreSQL lets writers run side by side; SQLite's write lock already covers it)."""
    with store.transaction() as db:
        store.lock("counter", name)
        row = db.execute("select value from counters where name = ?", [name]).fetchone()
        time.sleep(0.0005)  # widen the window in which a lost update would happen
        db["counters"].upsert({"name": name, "value": (row[0] if row else 0) + 1}, pk="name")


def test_concurrent_changes_never_lose_an_update(database):
    with Store.open(database, BASE) as store:
        threads = [threading.Thread(target=lambda: [increment(store, "turn") for _ in range(25)]) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert store.read("select value from counters")[0]["value"] == 200


def test_two_processes_sharing_the_file_never_lose_an_update(database):
    path = database
    Store.open(path, BASE).close()
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2]);"
        "from test_database import BASE, increment; from storage.database import Store;"
        "s = Store.open(sys.argv[3], BASE); [increment(s, 'turn') for _ in range(40)]"
    )
    here = str(Path(__file__).parent)
    procs = [subprocess.Popen([sys.executable, "-c", script, str(ROOT), here, str(path)]) for _ in range(3)]
    assert all(p.wait(60) == 0 for p in procs)
    with Store.open(path, BASE) as store:
        assert store.read("select value from counters")[0]["value"] == 120


WRITER = """
import sys, time
sys.path.insert(0, sys.argv[1])
from storage.database import Migration, Store
def setup(db):
    db["rows"].create({"id": int, "batch": int}, pk="id")
s = Store.open(sys.argv[2], (Migration("kill-1", setup, "CREATE TABLE rows (id BIGINT PRIMARY KEY, batch BIGINT)"),))
batch = 0
while True:
    batch += 1
    with s.transaction() as db:
        for i in range(200):
            db["rows"].insert({"id": batch * 1000 + i, "batch": batch})
            if i == 100:
                print(batch, flush=True)
"""


def test_killing_the_process_mid_write_leaves_the_database_consistent(database):
    path = database
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(ROOT), str(path)], stdout=subprocess.PIPE, text=True)
    for _ in range(5):  # let it commit a few batches, then kill it inside a transaction
        proc.stdout.readline()
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    if not isinstance(path, str):
        conn = sqlite3.connect(path)
        assert conn.execute("pragma integrity_check").fetchone()[0] == "ok"
        conn.close()
    with Store.open(path, (Migration("kill-1", lambda db: None, "SELECT 1"),)) as store:
        counts = [(r["batch"], r["n"]) for r in store.read("select batch, count(*) as n from rows group by batch")]
    assert counts, "at least one batch committed before the kill"
    assert all(n == 200 for _, n in counts), counts  # whole batches only: the one killed is gone


def test_an_unusable_folder_is_a_store_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="cannot be created"):
        Store.open(blocker / "b.sqlite3", BASE)


def test_a_file_that_is_not_a_database_is_a_store_error(tmp_path):
    path = tmp_path / "b.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError):
        Store.open(path, BASE)


def test_the_bot_opens_its_store_from_the_settings(tmp_path):
    from bot import create_bot
    from config.settings import Settings
    from storage.migrations import MIGRATIONS

    bot = create_bot(Settings(data_dir=tmp_path, sync_commands=False))
    assert bot.store.path == tmp_path / "bombardier.sqlite3"
    assert bot.store.version == len(MIGRATIONS)
    other = create_bot(Settings(data_dir=tmp_path, database=tmp_path / "elsewhere.db", sync_commands=False))
    assert other.store.path == tmp_path / "elsewhere.db"


def test_the_console_refuses_an_unusable_database_without_a_traceback(tmp_path):
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"garbage" * 200)
    env = {"BOMBARDIER_DATA": str(tmp_path), "BOMBARDIER_DATABASE": str(bad), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, str(ROOT / "bot.py"), "play", "/misfire chart:blackpowder"],
                         env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "cannot be opened" in out.stderr and "Traceback" not in out.stderr


def test_a_read_does_not_wait_for_a_write_in_progress_and_sees_what_is_committed(tmp_path):
    """Issue 15: a read in another thread (a long export, /battle status) reads the committed
    snapshot beside a write transaction, on its own connection, instead of queueing behind it;
    the writer's own reads still see its uncommitted change."""
    import threading

    from storage import campaigns
    from storage.migrations import open_store

    with open_store(tmp_path / "b.sqlite3") as store:
        campaigns.start_battle(store, 1, 5, by=1)
        seen: list[int] = []
        with store.transaction() as db:
            db.execute("UPDATE battles SET turn = 2")
            assert campaigns.battle_here(store, 1, 5).turn == 2  # the writer sees its own change
            reader = threading.Thread(target=lambda: seen.append(campaigns.battle_here(store, 1, 5).turn))
            reader.start()
            reader.join(10)
            assert seen == [1], "the read waited for the write, or saw it before its commit"
        assert campaigns.battle_here(store, 1, 5).turn == 2
