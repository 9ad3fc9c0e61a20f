"""``bot.py migrate-store``: copy a SQLite store into PostgreSQL (or another SQLite file), whole.

What it does, in order:

1. opens the source (it must exist: a missing path is refused, never created) and the target,
   each brought up to this bot's schema;
2. refuses a target that holds anything already, unless told to ``replace`` it (then the target's
   rows are deleted first, in the same transaction as the copy);
3. copies every table in one transaction on the target, in an order that keeps foreign keys
   satisfied, a few thousand rows at a time; ids are kept, and PostgreSQL's id sequences are moved
   past the highest copied id so that new rows never collide;
4. checks that every table has as many rows on the target as on the source, and that every roll
   log epoch exports identically from both and verifies on the target.

A failure at any step leaves the target as it was (the copy is one transaction) and is one clear
message; the source is only read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from config.settings import is_postgres
from storage.database import StoreError
from storage.migrations import open_store
from storage.postgres import redacted

TABLES = (
    "settings", "campaigns", "campaign_members", "battles", "battle_players", "machines", "shots", "siege_events",
    "reply_actions", "siege_sections", "roll_chains", "roll_entries", "roll_undelivered",
    "machine_marks", "armies", "erased_actions",
)
"""Every table of the bot's schema, parents before the tables whose foreign keys name them; but the
claims (``interaction_claims``, ``shard_leases``: the old store's processes', meaningless to the
new one's). tests/storage/test_migrate_every_table.py fails when a new table is left out."""

ORDERED_BY_ROWID = {"battle_players"}
"""Tables whose order of insertion the bot reads back (SQLite's implicit rowid, an explicit
``rowid`` column on PostgreSQL): copied with it."""

BATCH = 5000


class MigrateError(Exception):
    """The copy cannot be made or did not check out; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class Copied:
    """What a migration copied and checked."""

    rows: tuple[tuple[str, int], ...]
    """(table, rows) for every table, in copy order; each count checked on the target."""
    chains: int
    """Roll log epochs exported from both stores, found identical, and verified on the target."""

    @property
    def total(self) -> int:
        return sum(n for _, n in self.rows)


def migrate_store(source: Path | str, target: Path | str, *, replace: bool = False,
                  progress: Callable[[str], None] = lambda line: None) -> Copied:
    if is_postgres(source):
        raise MigrateError("--from takes the SQLite file to copy (a path); the PostgreSQL store is the target.")
    source = Path(source)
    if not source.is_file():
        raise MigrateError(f"There is no SQLite store at {source}: give the path of the bot's database file "
                           "(bombardier.sqlite3 in its data folder, or its `database` setting).")
    if not is_postgres(target) and Path(target).resolve() == source.resolve():
        raise MigrateError("--from and --to are the same file.")
    where = redacted(target) if is_postgres(target) else str(target)
    try:
        src = open_store(source)
    except StoreError as e:
        raise MigrateError(str(e)) from None
    try:
        try:
            dst = open_store(target)
        except StoreError as e:
            raise MigrateError(str(e)) from None
        try:
            return _copy(src, dst, where, replace, progress)
        finally:
            dst.close()
    finally:
        src.close()


def _copy(src, dst, where: str, replace: bool, progress: Callable[[str], None]) -> Copied:
    held = {t: _count(dst, t) for t in TABLES}
    if any(held.values()) and not replace:
        listed = ", ".join(f"{t} {n}" for t, n in held.items() if n)
        raise MigrateError(f"The target {where} already holds a store ({listed} rows). Nothing was copied: "
                           "run again with --replace to delete what it holds and copy afresh.")
    progress(f"Copying {src.path} into {where}:")
    counts: list[tuple[str, int]] = []
    with dst.transaction() as db:
        if any(held.values()):
            for table in reversed(TABLES):
                db.execute(f"DELETE FROM {table}")
        for table in TABLES:
            columns = [c for c in src.columns(table) if c in set(dst.columns(table))]
            if table in ORDERED_BY_ROWID:
                columns = ["rowid", *columns]
            n = 0
            for rows in _batches(src, table, columns):
                insert_rows(dst, db, table, columns, rows)
                n += len(rows)
            counts.append((table, n))
            progress(f"  {table}: {n} {'row' if n == 1 else 'rows'}")
        if dst.backend == "postgresql":
            for table, column in _identities(dst):
                db.raw(f"SELECT setval(pg_get_serial_sequence(%s, %s), "
                       f"COALESCE((SELECT MAX(\"{column}\") FROM \"{table}\"), 0) + 1, false)", [table, column])
    for table, n in counts:
        if _count(dst, table) != n or _count(src, table) != n:
            raise MigrateError(f"{table}: {_count(src, table)} rows in the source but {_count(dst, table)} in "
                               f"{where} after the copy; the target is not to be used as it is.")
    chains = _check_logs(src, dst, where)
    progress(f"  {chains} roll log {'epoch' if chains == 1 else 'epochs'} identical on both stores and verified")
    return Copied(tuple(counts), chains)


def _count(store, table: str) -> int:
    return store.read(f"SELECT COUNT(*) AS n FROM {table}")[0]["n"]


def _batches(src, table: str, columns: list[str]) -> Iterator[list[tuple]]:
    """The source's rows in rowid order, a batch at a time (SQLite: every table has a rowid)."""
    listed = ", ".join(f'"{c}"' if c != "rowid" else "rowid" for c in columns)
    last = 0
    while True:
        rows = src.read(f"SELECT rowid AS _r, {listed} FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT ?",
                        (last, BATCH))
        if not rows:
            return
        last = rows[-1]["_r"]
        yield [tuple(r[c] for c in columns) for r in rows]


def insert_rows(dst, db, table: str, columns: list[str], rows: list[tuple]) -> None:
    """Many rows into `table` at once, inside `dst`'s open transaction `db` (either backend).
    For copies and figures: the bot's own writes go through the storage functions."""
    names = ", ".join(f'"{c}"' for c in columns)
    if dst.backend == "postgresql":
        with db.conn.cursor() as cursor:
            cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({', '.join(['%s'] * len(columns))})", rows)
    else:
        if "rowid" in columns:  # SQLite's own rowid is set by naming it
            names = names.replace('"rowid"', "rowid")
        db.conn.executemany(f"INSERT INTO {table} ({names}) VALUES ({', '.join(['?'] * len(columns))})", rows)


def _identities(dst) -> list[tuple[str, str]]:
    return [(r["table_name"], r["column_name"]) for r in dst.read(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND is_identity = 'YES' ORDER BY table_name")]


def _check_logs(src, dst, where: str) -> int:
    from engine.ledger import verify
    from storage import roll_log

    epochs = src.read("SELECT chain, epoch FROM roll_chains ORDER BY chain, epoch")
    for row in epochs:
        mine = roll_log.export_log(src, row["chain"], row["epoch"])
        theirs = roll_log.export_log(dst, row["chain"], row["epoch"])
        if theirs != mine:
            raise MigrateError(f"The roll log {row['chain']} epoch {row['epoch']} exports differently from {where} "
                               "than from the source; the target is not to be used as it is.")
        report = verify(theirs)
        if not report.ok:
            raise MigrateError(f"The roll log {row['chain']} epoch {row['epoch']} does not verify on {where}: "
                               f"{report.reason}.")
    return len(epochs)
