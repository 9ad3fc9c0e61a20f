"""The store on PostgreSQL: the same :class:`storage.database.Store` contract, for a bot that
several processes (Discord shards) share.

Selected by a ``postgresql://`` (or ``postgres://``) URL as ``database`` in ``bombardier.toml`` or
``BOMBARDIER_DATABASE``; a path keeps the embedded SQLite file. Nothing outside ``storage/``
knows which one it has: the storage functions take a store, call :meth:`PostgresStore.transaction`
and :meth:`PostgresStore.read`, and get the same records and :class:`CampaignError` refusals.

How it keeps SQLite's guarantees with many writers at once:

- **One unit of change.** :meth:`PostgresStore.transaction` is one PostgreSQL transaction on one
  pooled connection (psycopg 3 and ``psycopg_pool``), joined by nested calls in the same thread.
- **No lost update.** SQLite's ``BEGIN IMMEDIATE`` lets one writer in at a time; PostgreSQL lets
  writers run side by side, so each read-then-write takes the narrowest lock that covers it:
  :meth:`PostgresStore.lock` (a transaction-scoped advisory lock on a name: one roll log chain,
  one channel's battle, one server's names) or :meth:`PostgresStore.lock_row` (``SELECT ... FOR
  UPDATE`` on a machine). Counters move in one statement (``turn = turn + 1``).
- **Connections that fail** are replaced by the pool (each is checked as it is taken, and a lost
  server is reconnected with backoff); a read whose connection drops is retried once on another;
  a command whose connection drops mid-transaction gets a :class:`StoreError` saying so (it is not
  re-run: its dice may have been shown), and the server rolls its transaction back, so nothing
  half-written is ever seen.
- **Schema.** The named migrations each carry their PostgreSQL text (:attr:`Migration.postgres`)
  and are recorded in the same ``schema_migrations`` table; a database written by a newer bot is
  refused. Text columns use the ``C`` collation, so ordering and range scans (``state_after >=
  'destroyed'``) behave as SQLite's byte order does.

The SQL of the storage modules is written once, in the dialect both share; this module rewrites
the few SQLite spellings on the way (``?`` parameter marks, ``INSERT OR IGNORE``).
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from storage.contract import Migration, StoreError, unusable_line

def redacted(url: str) -> str:
    """The URL with its password replaced, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


@lru_cache(maxsize=512)
def translate(sql: str) -> str:
    """SQLite's spellings in the storage modules' SQL, in PostgreSQL's: ``?`` parameter marks become
    ``%s`` (a literal ``%`` is doubled first) and ``INSERT OR IGNORE`` becomes ``ON CONFLICT DO
    NOTHING``; the column ``user`` is quoted. The storage SQL keeps string literals free of ``?``."""
    out = sql.replace("%", "%%").replace("?", "%s")
    # the roll log's column "user" is a word of PostgreSQL's own (the session's user): as a bare
    # word it would compare with that, so it is always quoted here
    out = re.sub(r'(?<![\w".])user(?![\w"(])', '"user"', out, flags=re.IGNORECASE)
    if re.match(r"\s*INSERT\s+OR\s+IGNORE\s+", out, re.IGNORECASE):
        out = re.sub(r"^\s*INSERT\s+OR\s+IGNORE\s+", "INSERT ", out, flags=re.IGNORECASE) + " ON CONFLICT DO NOTHING"
    return out


def quoted(name: str) -> str:
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
        raise ValueError(f"not a plain identifier: {name!r}")  # a bug: names come from our own code
    return f'"{name}"'


class PostgresTable:
    """The few sqlite-utils table methods the storage modules use, on a PostgreSQL table."""

    def __init__(self, db: PostgresDatabase, name: str) -> None:
        self.db = db
        self.name = name
        self.last_pk: Any = None

    def _pk(self) -> tuple[str, ...]:
        return self.db.primary_key(self.name)

    def _insert_sql(self, record: dict[str, Any]) -> str:
        return (f"INSERT INTO {quoted(self.name)} ({', '.join(quoted(c) for c in record)}) "
                f"VALUES ({', '.join(['%s'] * len(record))})")

    def insert(self, record: dict[str, Any]) -> PostgresTable:
        pk = self._pk()
        sql = f"{self._insert_sql(record)} RETURNING {', '.join(quoted(c) for c in pk)}"
        row = self.db.raw(sql, list(record.values())).fetchone()
        self.last_pk = row[0] if len(pk) == 1 else tuple(row)
        return self

    def upsert(self, record: dict[str, Any], pk: str | Sequence[str]) -> PostgresTable:
        keys = (pk,) if isinstance(pk, str) else tuple(pk)
        rest = [c for c in record if c not in keys]
        action = (f"DO UPDATE SET {', '.join(f'{quoted(c)} = EXCLUDED.{quoted(c)}' for c in rest)}" if rest
                  else "DO NOTHING")
        sql = f"{self._insert_sql(record)} ON CONFLICT ({', '.join(quoted(k) for k in keys)}) {action}"
        self.db.raw(sql, list(record.values()))
        return self

    def _where(self, pk_values: Any) -> tuple[str, list[Any]]:
        keys = self._pk()
        values = list(pk_values) if isinstance(pk_values, (tuple, list)) else [pk_values]
        if len(values) != len(keys):
            raise ValueError(f"{self.name}'s key is {keys}, not {pk_values!r}")
        return " AND ".join(f"{quoted(k)} = %s" for k in keys), values

    def get(self, pk_values: Any) -> dict[str, Any]:
        where, values = self._where(pk_values)
        rows = self.db.raw_dicts(f"SELECT * FROM {quoted(self.name)} WHERE {where}", values)
        if not rows:
            raise KeyError(f"no row {pk_values!r} in {self.name}")
        return rows[0]

    def update(self, pk_values: Any, updates: dict[str, Any]) -> PostgresTable:
        where, values = self._where(pk_values)
        sets = ", ".join(f"{quoted(c)} = %s" for c in updates)
        self.db.raw(f"UPDATE {quoted(self.name)} SET {sets} WHERE {where}", [*updates.values(), *values])
        return self


class PostgresDatabase:
    """What :meth:`PostgresStore.transaction` yields: the subset of ``sqlite_utils.Database`` the
    storage modules use (``execute``, ``query``, ``db[table]``), on the transaction's connection."""

    def __init__(self, conn: Any, store: PostgresStore) -> None:
        self.conn = conn
        self.store = store

    def raw(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.conn.execute(sql, list(params))

    def raw_dicts(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        cursor = self.conn.execute(sql, list(params))
        if cursor.description is None:
            return []
        columns = [c.name for c in cursor.description]
        return [dict(zip(columns, row)) for row in cursor.fetchall()]

    def execute(self, sql: str, params: Sequence[Any] | dict = ()) -> Any:
        return self.conn.execute(translate(sql), list(params) if not isinstance(params, dict) else params)

    def query(self, sql: str, params: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
        return iter(self.raw_dicts(translate(sql), params))

    def __getitem__(self, table: str) -> PostgresTable:
        return PostgresTable(self, table)

    def primary_key(self, table: str) -> tuple[str, ...]:
        return self.store.primary_key(self, table)


class PostgresStore:
    """A PostgreSQL database shared by any number of bot processes. Use :meth:`open`."""

    backend = "postgresql"
    path = None
    """No file: see :attr:`url`."""

    POOL_SIZE = 8
    """Connections per process at most: the bot's worker threads share them."""
    CONNECT_TIMEOUT_S = 10.0
    """How long opening the store at start waits for the server."""
    WAIT_S = 2.0
    """How long a command's store call waits for a connection (a free one, or the server back) before
    it gives up with "the database cannot be reached": a command is answered inside Discord's 3
    seconds even while the server is away (a pooled connection is taken in a millisecond or two
    otherwise, even in a burst)."""

    def __init__(self, url: str, pool: Any) -> None:
        self.url = url
        self._pool = pool
        self._local = threading.local()
        self._failures_seen = 0
        """The pool's failed and lost connections counted when a connection was last had: more
        since then means the server is failing, not busy (:meth:`_connection`)."""
        self._keys: dict[str, tuple[str, ...]] = {}

    # -- opening ---------------------------------------------------------------------------------
    @classmethod
    def open(cls, url: str, migrations: Sequence[Migration]) -> PostgresStore:
        try:
            import psycopg
            from psycopg_pool import ConnectionPool, PoolTimeout
        except ImportError:
            raise StoreError("The database is PostgreSQL, but psycopg is not installed: run ./bombardier once "
                             "(it installs requirements.lock), or pip install 'psycopg[binary]' psycopg-pool.") from None
        try:  # one connection first, so that a server that is not there says why at once
            psycopg.connect(url, connect_timeout=int(cls.CONNECT_TIMEOUT_S)).close()
        except (psycopg.Error, ValueError) as e:
            raise StoreError(f"The database {redacted(url)} cannot be reached: {_reason(e)}.") from None
        try:
            pool = ConnectionPool(
                url, min_size=1, max_size=cls.POOL_SIZE, timeout=cls.CONNECT_TIMEOUT_S, open=False,
                kwargs={"autocommit": True, "connect_timeout": int(cls.CONNECT_TIMEOUT_S)},
                check=ConnectionPool.check_connection, name="bombardier",
                # a lost server is retried with backoff for this long, then afresh on the next command,
                # so a server back after a long outage is in use again within seconds
                reconnect_timeout=cls.CONNECT_TIMEOUT_S,
            )
            pool.open(wait=True, timeout=cls.CONNECT_TIMEOUT_S)
        except (psycopg.Error, PoolTimeout, ValueError) as e:
            raise StoreError(f"The database {redacted(url)} cannot be reached: {_reason(e)}.") from None
        store = cls(url, pool)
        try:
            store.migrate(migrations)
        except BaseException:
            store.close()
            raise
        return store

    def migrate(self, migrations: Sequence[Migration]) -> list[str]:
        """As SQLite's, each migration not yet applied, in order, recorded by name; here all in one
        transaction (each in a savepoint) under an advisory lock, so processes starting together
        apply each once, and a migration that fails leaves the schema as it was."""
        import psycopg  # installed: this store is open

        names = [m.name for m in migrations]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate migration names in {names}")
        applied: list[str] = []
        with self.transaction() as db:
            self.lock("schema-migrations")
            db.raw("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT COLLATE \"C\" PRIMARY KEY, "
                   "applied_at DOUBLE PRECISION)")
            done = {r["name"] for r in db.raw_dicts("SELECT name FROM schema_migrations")}
            unknown = done - set(names)
            if unknown:
                raise StoreError(
                    f"The database was written by a newer Bombardier (migrations {sorted(unknown)}); "
                    "update the bot before using it.")
            for m in migrations:
                if m.name in done:
                    continue
                if m.postgres is None:
                    raise ValueError(f"migration {m.name} has no PostgreSQL text")  # a bug
                try:
                    with db.conn.transaction():  # a savepoint: a migration that fails leaves nothing
                        for statement in _statements(m.postgres):
                            db.raw(statement)
                        db.raw("INSERT INTO schema_migrations (name, applied_at) VALUES (%s, %s)", [m.name, time.time()])
                except psycopg.Error as e:  # another program's table in the way: said in one line
                    raise StoreError(unusable_line(redacted(self.url), e)) from None
                applied.append(m.name)
        self._keys.clear()
        return applied

    @property
    def version(self) -> int:
        """The schema version: how many migrations this database has had."""
        return self.read("SELECT count(*) AS n FROM schema_migrations")[0]["n"]

    # -- the contract ----------------------------------------------------------------------------
    @contextlib.contextmanager
    def transaction(self) -> Iterator[PostgresDatabase]:
        """One unit of change on one connection; nested calls in this thread join it."""
        import psycopg

        current = getattr(self._local, "db", None)
        if current is not None:
            yield current
            return
        try:
            with self._connection() as conn:
                db = PostgresDatabase(conn, self)
                self._local.db = db
                try:
                    with conn.transaction():
                        yield db
                finally:
                    self._local.db = None
        except psycopg.OperationalError as e:
            raise StoreError(UNREACHABLE) from e  # the server rolls the transaction back: nothing half-written
        except psycopg.errors.DeadlockDetected:
            raise StoreError("The bot's database was busy with the same rows, so this command was not done (nothing "
                             "of it was saved): try again.") from None
        except _pool_timeout() as e:
            raise StoreError(UNREACHABLE) from e

    def read(self, sql: str, params: Sequence | dict = ()) -> list[dict]:
        """Rows of a read-only query as dicts: on this thread's transaction when one is open (so it
        sees its own writes), else on a pooled connection of its own."""
        import psycopg

        current = getattr(self._local, "db", None)
        if current is not None:
            return current.raw_dicts(translate(sql), params)
        for attempt in (1, 2):  # a read changes nothing: one lost connection is retried on another
            try:
                with self._connection() as conn:
                    return PostgresDatabase(conn, self).raw_dicts(translate(sql), params)
            except _pool_timeout() as e:  # (before OperationalError, which it is: no connection is not retried)
                raise StoreError(UNREACHABLE) from e
            except psycopg.OperationalError as e:
                if attempt == 2:
                    raise StoreError(UNREACHABLE) from e
        raise AssertionError("unreachable")

    @contextlib.contextmanager
    def _connection(self) -> Iterator[Any]:
        """A pooled connection (as ``pool.connection()``), waited for :attr:`WAIT_S`; longer (up to
        :attr:`CONNECT_TIMEOUT_S`) only while the pool's connections are in use by other commands,
        a burst rather than a server that is away."""
        pool_timeout = _pool_timeout()
        try:
            conn = self._pool.getconn(timeout=self.WAIT_S)
        except pool_timeout:
            stats = self._pool.get_stats()
            if stats.get("pool_size", 0) - stats.get("pool_available", 0) <= 0:
                raise  # no connection in use anywhere: the server cannot be reached
            if _failures(stats) > self._failures_seen:
                raise  # connections failed or were lost since one was last had: the server is away, not busy
            conn = self._pool.getconn(timeout=self.CONNECT_TIMEOUT_S - self.WAIT_S)
        self._failures_seen = _failures(self._pool.get_stats())
        try:
            with conn:
                yield conn
        finally:
            self._pool.putconn(conn)

    def lock(self, *key: object) -> None:
        """Hold a lock on the name ``key`` until this transaction ends: another process's
        transaction taking the same name waits. (SQLite's store needs none: its transactions
        hold the whole database's write lock.)"""
        db = getattr(self._local, "db", None)
        if db is None:
            raise RuntimeError("lock() outside a transaction")  # a bug
        db.raw("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [":".join(str(k) for k in key)])

    def lock_row(self, table: str, row_id: int) -> None:
        """Lock one row by its id until this transaction ends (``SELECT ... FOR UPDATE``)."""
        db = getattr(self._local, "db", None)
        if db is None:
            raise RuntimeError("lock_row() outside a transaction")  # a bug
        db.raw(f"SELECT 1 FROM {quoted(table)} WHERE id = %s FOR UPDATE", [row_id])

    def primary_key(self, db: PostgresDatabase, table: str) -> tuple[str, ...]:
        if table not in self._keys:
            rows = db.raw(
                "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
                "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = %s::regclass AND i.indisprimary "
                "ORDER BY array_position(i.indkey, a.attnum)", [quoted(table)]).fetchall()
            self._keys[table] = tuple(r[0] for r in rows)
        return self._keys[table]

    def tables(self) -> list[str]:
        return [r["tablename"] for r in self.read(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")]

    def columns(self, table: str) -> list[str]:
        return [r["column_name"] for r in self.read(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = ? ORDER BY ordinal_position", [table])]

    def close(self) -> None:
        self._pool.close()

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


UNREACHABLE = ("The bot's database cannot be reached right now, so this command was not done (nothing of it was "
               "saved): try again in a moment.")
"""What a command is answered when no connection can be had within :attr:`PostgresStore.WAIT_S`."""


def _statements(text: str) -> list[str]:
    return [s.strip() for s in text.split(";") if s.strip()]


def _reason(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0].rstrip(".") if text else type(e).__name__


def _pool_timeout() -> type[BaseException]:
    from psycopg_pool import PoolTimeout
    return PoolTimeout


def _failures(stats: dict[str, int]) -> int:
    """Connections the pool failed to open or lost, so far (its counters only grow)."""
    return stats.get("connections_errors", 0) + stats.get("connections_lost", 0)
