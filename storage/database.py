"""The bot's store: one SQLite file through sqlite-utils (the embedded default), or a
PostgreSQL server that several bot processes share (storage/postgres.py, chosen by a
``postgresql://`` URL as the ``database`` setting). Both keep the contract below.

Everything that lasts between commands (server and channel settings, campaigns, battles, war
machine rosters, fortress state, the roll log) lives in one database file opened here. The
rest of the project talks to it only through the small functions of the ``storage`` modules,
each taking a :class:`Store`; nothing outside ``storage/`` writes SQL.

Guarantees:

- WAL mode, so readers never wait for the writer and a killed process leaves the file
  consistent (SQLite's own journal does the work; we never write outside a transaction).
  :meth:`Store.read` outside a transaction reads on a connection of its own thread's (read-only),
  a snapshot of what is committed, beside the writer rather than after it: a long read (an
  export of a 100,000-entry log) never holds up a command's write, nor waits for one.
- :meth:`Store.transaction` is the unit of change: one command's changes commit together or
  not at all. It takes SQLite's write lock at the start (``BEGIN IMMEDIATE``), so two commands
  changing the same battle run one after the other and never lose an update, whether they run
  in threads of this process or in other processes sharing the file.
- The schema carries a version: named migrations (``storage/migrations.py``, handed to :meth:`Store.open`) are applied once
  each, in order, when the store opens; ``PRAGMA user_version`` is the number applied.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import sqlite_utils

from config.settings import is_postgres
from storage.contract import Migration, StoreError, unusable_line

__all__ = ["Migration", "Store", "StoreError"]


class Store:
    """One open database file. Use :meth:`open`; close with :meth:`close` (or ``with``)."""

    backend = "sqlite"

    BUSY_TIMEOUT_S = 10.0
    """How long a write waits for another process's write lock before giving up."""

    def __init__(self, db: sqlite_utils.Database, path: Path | None) -> None:
        self.db = db
        self.path = path
        self._lock = threading.RLock()
        self._local = threading.local()
        """This thread's read connection, and whether it is inside a transaction."""
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()

    @classmethod
    def open(cls, path: Path | str, migrations: Sequence[Migration]) -> Store:
        """Opens (creating if needed) the file at ``path`` and brings its schema up to date with the
        ``migrations`` it is handed (the bot's are storage.migrations.MIGRATIONS: use
        :func:`storage.migrations.open_store`). ``":memory:"`` gives a private in-memory store; a
        ``postgresql://`` URL opens the PostgreSQL store instead (same contract)."""
        if is_postgres(path):
            from storage.postgres import PostgresStore

            return PostgresStore.open(path, migrations)
        memory = str(path) == ":memory:"
        if not memory:
            path = Path(path)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreError(f"The database folder {path.parent} cannot be created: {e.strerror}.") from None
        try:
            conn = sqlite3.connect(
                ":memory:" if memory else path, timeout=cls.BUSY_TIMEOUT_S,
                isolation_level=None, check_same_thread=False,
            )
            conn.execute("PRAGMA foreign_keys = ON")
            db = sqlite_utils.Database(conn)
            if not memory:
                db.enable_wal()
                conn.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error as e:
            raise StoreError(f"The database {path} cannot be opened: {e}.") from None
        store = cls(db, None if memory else path)
        store.migrate(migrations)
        return store

    def migrate(self, migrations: Sequence[Migration]) -> list[str]:
        """Applies the migrations not yet applied, each in its own transaction; returns their names."""
        names = [m.name for m in migrations]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate migration names in {names}")
        with self.transaction() as db:
            # Read only: the table is made with the first migration, in its transaction, so a file the
            # bot cannot use (another program's, whose table is in the way) is left as it was found.
            ours = db["schema_migrations"].exists()
            done = {row["name"] for row in db["schema_migrations"].rows} if ours else set()
        unknown = done - set(names)
        if unknown:
            raise StoreError(
                f"The database was written by a newer Bombardier (migrations {sorted(unknown)}); "
                "update the bot before using it."
            )
        applied = []
        for m in migrations:
            if m.name in done:
                continue
            with self.transaction() as db:
                db["schema_migrations"].create({"name": str, "applied_at": float}, pk="name", if_not_exists=True)
                # Asked again under the write lock: another process opening the same file at the
                # same moment (a second shard) may have applied it since `done` was read.
                if db.execute("SELECT 1 FROM schema_migrations WHERE name = ?", (m.name,)).fetchone():
                    continue
                try:
                    m.apply(db)
                except sqlite3.Error as e:  # a table of another program's in the way, a damaged file: said in one line
                    raise StoreError(unusable_line(str(self.path or ":memory:"), e)) from None
                db["schema_migrations"].insert({"name": m.name, "applied_at": time.time()})
                count = db.execute("SELECT count(*) FROM schema_migrations").fetchone()[0]
                db.execute(f"PRAGMA user_version = {int(count)}")
            applied.append(m.name)
        return applied

    @property
    def version(self) -> int:
        """The schema version: how many migrations this database has had."""
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite_utils.Database]:
        """One unit of change: everything inside commits together, or nothing does.

        Nested calls join the outer transaction (sqlite-utils' own ``atomic()`` blocks inside
        become savepoints)."""
        with self._lock:
            conn = self.db.conn
            if conn.in_transaction:
                yield self.db
                return
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as e:
                raise StoreError(f"The database is busy ({e}); try again in a moment.") from None
            self._local.writing = True
            try:
                yield self.db
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            else:
                conn.execute("COMMIT")
            finally:
                self._local.writing = False

    def read(self, sql: str, params: Sequence | dict = ()) -> list[dict]:
        """Rows of a read-only query as dicts: inside this thread's transaction, on its connection
        (it sees its own writes); otherwise on this thread's read connection, a snapshot of what
        is committed that neither waits for a write in progress nor holds one up (an in-memory
        store, which other connections cannot see, reads on its one connection)."""
        if getattr(self._local, "writing", False) or self.path is None:
            with self._lock:
                return _dicts(self.db.execute(sql, params))
        try:
            return _dicts(self._reader().execute(sql, params))
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                raise StoreError(f"The database is busy ({e}); try again in a moment.") from None
            raise

    def _reader(self) -> sqlite3.Connection:
        reader = getattr(self._local, "reader", None)
        if reader is None:
            reader = sqlite3.connect(self.path, timeout=self.BUSY_TIMEOUT_S, isolation_level=None,
                                     check_same_thread=False)
            reader.execute("PRAGMA query_only = ON")
            self._local.reader = reader
            with self._readers_lock:
                self._readers.append(reader)
        return reader

    def lock(self, *key: object) -> None:
        """Hold a named lock until the transaction ends. Nothing to do here: a SQLite transaction
        already holds the whole database's write lock (``BEGIN IMMEDIATE``). PostgreSQL's store,
        where writers run side by side, takes an advisory lock on the name."""

    def lock_row(self, table: str, row_id: int) -> None:
        """Lock one row until the transaction ends: as :meth:`lock`, already held here."""

    def tables(self) -> list[str]:
        return sorted(self.db.table_names())

    def columns(self, table: str) -> list[str]:
        return list(self.db[table].columns_dict)

    def close(self) -> None:
        with self._readers_lock:
            for reader in self._readers:
                reader.close()
            self._readers.clear()
        with self._lock:
            self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _dicts(cursor: sqlite3.Cursor) -> list[dict]:
    columns = [c[0] for c in cursor.description]
    return [dict(zip(columns, row)) for row in cursor.fetchall()]
