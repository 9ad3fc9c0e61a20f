"""The roll log in the store: chains of hashed entries, each chain under its own secret.

A *chain* is keyed by a chain id: ``channel:<guild>:<channel>`` for rolls made in a channel
(:func:`channel_chain`), and whatever id a battle picks for its own (``battle:<id>``). Each chain
runs in *epochs*: epoch 1 starts with the chain's first roll under a fresh secret; revealing the
secret (``/log reveal``, or a battle's end) closes the epoch and starts the next under a new one.
Roll numbers count 1, 2, 3 ... within an epoch, as :mod:`engine.ledger` derives the dice.

How the bot uses it (cogs/common/ledger.py): ``bot.new_dice()`` draws the serving command's roll
number with :func:`next_roll` (one short transaction), the command runs, and ``send_reply``
logs it with :func:`append` (one transaction, off the event loop). Commands running at once in
one chain may so append out of number order, and a command that fails after drawing leaves its
number unused: entries keep their append order (``position``) and verify allows both.
:func:`log_roll` does the two in one transaction for a caller outside Discord.

Tables (migrations ``roll-log-1`` to ``roll-log-3``): ``roll_chains`` (one row per chain and epoch: the
secret, its commitment, the next roll number, the last hash, when it started and was revealed,
and the export ``version`` its dice and hashes follow: 3 for epochs begun since
docs/roll-derivation.md, 2 for older ones, which keep their numpy dice to the end) and
``roll_entries`` (one row per entry, as :class:`engine.ledger.Entry` holds it, with its
``salt`` and whether its roller or the GM ``unsealed`` it).

Private entries: an export for a viewer who may not see every result (:func:`export_log`'s
`viewer`) carries other players' private entries sealed (:class:`engine.ledger.SealedEntry`)
until the roller or the GM unseals one (:func:`unseal`).
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, TypeVar

import sqlite_utils

from engine.dice import DieRoll, RandomDice
from engine.errors import RulesError
from engine.ledger import (
    FLAGGED, SALT_BYTES, SEALED, VERSION, Entry, LoggedDie, SealedEntry, commitment, dice_for_roll, export, make_entry,
)
from storage.database import Migration, Store

T = TypeVar("T")


def _create(db: sqlite_utils.Database) -> None:
    db["roll_chains"].create(
        {"chain": str, "epoch": int, "secret": str, "commitment": str, "next_roll": int, "last_hash": str,
         "started_at": str, "revealed_at": str},
        pk=("chain", "epoch"), not_null={"secret", "commitment", "next_roll", "last_hash", "started_at"},
    )
    db["roll_entries"].create(
        {"chain": str, "epoch": int, "roll": int, "time": str, "user": str, "command": str, "options": str,
         "dice": str, "summary": str, "previous": str, "hash": str},
        pk=("chain", "epoch", "roll"),
    )


def _append_order(db: sqlite_utils.Database) -> None:
    """Entries keep the order they were appended in (``position``), which concurrent commands
    make differ from their roll numbers' order."""
    db["roll_entries"].add_column("position", int)
    db.execute("update roll_entries set position = roll")
    db["roll_entries"].create_index(["chain", "epoch", "position"], unique=True)


def _sealed_entries(db: sqlite_utils.Database) -> None:
    """Version 3: each epoch says which derivation and hashing it follows (older ones keep
    version 2's to the end); each entry keeps its salt and whether it was unsealed."""
    db["roll_chains"].add_column("version", int)
    db.execute("update roll_chains set version = 2")
    db["roll_entries"].add_column("salt", str)
    db["roll_entries"].add_column("unsealed", int)


def _undelivered(db: sqlite_utils.Database) -> None:
    # Rolls whose reply could not be sent: kept beside the chain (its hashes stay as they were).
    db["roll_undelivered"].create({"chain": str, "epoch": int, "roll": int, "at": str}, pk=("chain", "epoch", "roll"))


PG_ROLL_LOG_1 = """
CREATE TABLE roll_chains (chain TEXT COLLATE "C" NOT NULL, epoch INTEGER NOT NULL, secret TEXT NOT NULL, commitment TEXT NOT NULL,
    next_roll INTEGER NOT NULL, last_hash TEXT NOT NULL, started_at TEXT NOT NULL, revealed_at TEXT,
    PRIMARY KEY (chain, epoch));
CREATE TABLE roll_entries (chain TEXT COLLATE "C" NOT NULL, epoch INTEGER NOT NULL, roll INTEGER NOT NULL, "time" TEXT,
    "user" TEXT COLLATE "C", command TEXT COLLATE "C", options TEXT, dice TEXT, summary TEXT, previous TEXT, hash TEXT,
    PRIMARY KEY (chain, epoch, roll))
"""
PG_ROLL_LOG_2 = """ALTER TABLE roll_entries ADD COLUMN "position" INTEGER;
UPDATE roll_entries SET "position" = roll;
CREATE UNIQUE INDEX idx_roll_entries_chain_epoch_position ON roll_entries (chain, epoch, "position")"""
PG_ROLL_LOG_3 = """ALTER TABLE roll_chains ADD COLUMN version INTEGER; UPDATE roll_chains SET version = 2;
ALTER TABLE roll_entries ADD COLUMN salt TEXT; ALTER TABLE roll_entries ADD COLUMN unsealed INTEGER"""
PG_UNDELIVERED_1 = """CREATE TABLE roll_undelivered (chain TEXT COLLATE "C" NOT NULL, epoch INTEGER NOT NULL, roll INTEGER NOT NULL,
    at TEXT, PRIMARY KEY (chain, epoch, roll))"""

MIGRATIONS = (Migration("roll-log-1", _create, PG_ROLL_LOG_1), Migration("roll-log-2", _append_order, PG_ROLL_LOG_2),
              Migration("roll-log-3", _sealed_entries, PG_ROLL_LOG_3),
              Migration("roll-log-undelivered-1", _undelivered, PG_UNDELIVERED_1))


def mark_undelivered(store: Store, chain: str, epoch: int, roll: int) -> None:
    """Note that the reply of roll `roll` never reached the channel (the roll stays in the chain)."""
    with store.transaction() as db:
        db.execute("INSERT OR IGNORE INTO roll_undelivered (chain, epoch, roll, at) VALUES (?, ?, ?, ?)",
                   (chain, epoch, roll, now()))


def undelivered(store: Store, chain: str, epoch: int) -> list[int]:
    """The rolls of one epoch whose reply could not be sent, in order."""
    rows = store.read("SELECT roll FROM roll_undelivered WHERE chain = ? AND epoch = ? ORDER BY roll", (chain, epoch))
    return [r["roll"] for r in rows]


def battle_chain(battle_id: int) -> str:
    """The chain of a battle's rolls (opened at /battle start, revealed at /battle end)."""
    return f"battle:{battle_id}"


def channel_chain(guild_id: int | None, channel_id: int | None) -> str:
    """The chain id of a channel's rolls outside any battle."""
    return f"channel:{guild_id or 0}:{channel_id or 0}"


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class Chain:
    """A chain's current epoch."""

    chain: str
    epoch: int
    commitment: str
    next_roll: int
    last_hash: str
    started: bool
    """True when this call started the epoch (its commitment should be shown)."""
    logged: int | None = None
    """How many entries the epoch has (when read by :func:`current_chain`)."""
    version: int = VERSION
    """The export version the epoch follows (engine/ledger.py): 3, or 2 for one begun before."""


@dataclass(frozen=True)
class RollSlot:
    """The next roll of a chain: its number and the dice derived for it."""

    chain: Chain
    number: int
    dice: RandomDice


def _current(db: sqlite_utils.Database, chain: str, new_secret: Callable[[], bytes],
             store: Store) -> tuple[Chain, bytes]:
    # Plain parametrized SQL throughout this module's writes (no sqlite-utils table helpers, which
    # look up the schema and wrap each call in a savepoint: 20 of a logged roll's 33 statements).
    # store.read inside a transaction reads on the transaction's own connection, on both stores.
    rows = store.read("select * from roll_chains where chain = ? order by epoch desc limit 1", [chain])
    row = rows[0] if rows else None
    if row is not None and row["revealed_at"] is None:
        return (Chain(chain, row["epoch"], row["commitment"], row["next_roll"], row["last_hash"], False,
                      version=row["version"] or 2), bytes.fromhex(row["secret"]))
    epoch = 1 if row is None else row["epoch"] + 1
    secret = new_secret()
    committed = commitment(secret)
    db.execute(
        "INSERT INTO roll_chains (chain, epoch, secret, commitment, next_roll, last_hash, started_at, revealed_at, version) "
        "VALUES (?, ?, ?, ?, 1, ?, ?, NULL, ?)", [chain, epoch, secret.hex(), committed, committed, now(), VERSION])
    return Chain(chain, epoch, committed, 1, committed, True), secret


def open_chain(store: Store, chain: str, new_secret: Callable[[], bytes]) -> Chain:
    """The chain's current epoch, started under a new secret if it has none open (a battle
    calls this at its start to post the commitment)."""
    with store.transaction() as db:
        store.lock("roll-chain", chain)
        return _current(db, chain, new_secret, store)[0]


def next_roll(store: Store, chain: str, new_secret: Callable[[], bytes]) -> RollSlot:
    """Draw the chain's next roll number and its Dice, in one short transaction (two indexed
    statements): no other command gets the same number. The command then runs outside any
    transaction and :func:`append` logs it; a command that fails leaves the number unused."""
    with store.transaction() as db:
        store.lock("roll-chain", chain)  # one number per roll, and one epoch begun, across processes
        state, secret = _current(db, chain, new_secret, store)
        db.execute("update roll_chains set next_roll = next_roll + 1 where chain = ? and epoch = ?",
                   [chain, state.epoch])
    return RollSlot(state, state.next_roll, dice_for_roll(secret, state.next_roll, chain, state.version))


def append(
    store: Store, slot: RollSlot, *, user: str, command: str, options: Mapping[str, Any],
    dice: Iterable[DieRoll | LoggedDie], summary: Iterable[str], time: str | None = None,
) -> Entry:
    """Log a finished command as the slot's roll, chained to the entry appended before it (so
    entries stand in append order; their numbers are the ones drawn). A command still running
    when its epoch is revealed is logged in that epoch all the same: its dice came from it."""
    with store.transaction() as db:
        store.lock("roll-chain", slot.chain.chain)  # the chain never forks: one append at a time
        # the chain's head, the last position and whether this number is logged, in one statement
        found = store.read(
            "select next_roll, last_hash, "
            "(select coalesce(max(position), 0) from roll_entries where chain = ? and epoch = ?) as last, "
            "(select count(*) from roll_entries where chain = ? and epoch = ? and roll = ?) as logged "
            "from roll_chains where chain = ? and epoch = ?",
            [slot.chain.chain, slot.chain.epoch, slot.chain.chain, slot.chain.epoch, slot.number,
             slot.chain.chain, slot.chain.epoch])
        if not found:
            raise KeyError(f"no epoch {slot.chain.epoch} of {slot.chain.chain}")  # a wiring bug, as the lookup raised
        row = found[0]
        if slot.number >= row["next_roll"] or row["logged"]:
            raise RuntimeError(f"roll {slot.number} of {slot.chain.chain} was not drawn or is logged already")  # a wiring bug
        entry = make_entry(
            previous=row["last_hash"], number=slot.number, time=time or now(), user=user, command=command,
            options=options, dice=dice, summary=summary,
            salt=os.urandom(SALT_BYTES) if slot.chain.version >= SEALED else None,
            flagged=slot.chain.version >= FLAGGED,  # version 4: the private flag is hashed
        )
        db.execute(
            "INSERT INTO roll_entries (chain, epoch, roll, time, user, command, options, dice, summary, previous, hash, "
            "position, salt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [slot.chain.chain, slot.chain.epoch, entry.number, entry.time, entry.user, entry.command,
             json.dumps(dict(entry.options)), json.dumps([d.json() for d in entry.dice]),
             json.dumps(list(entry.summary)), entry.previous, entry.hash, row["last"] + 1, entry.salt])
        db.execute("update roll_chains set last_hash = ? where chain = ? and epoch = ?",
                   [entry.hash, slot.chain.chain, slot.chain.epoch])
    return entry


def log_roll(
    store: Store, chain: str, new_secret: Callable[[], bytes], work: Callable[[RandomDice], T], *,
    user: str, command: str, options: Mapping[str, Any],
    record: Callable[[T], tuple[Iterable[DieRoll], Iterable[str]]],
) -> tuple[T, Entry, Chain]:
    """Run `work` with the chain's next dice and log it, all in one transaction: if `work`
    raises (a player's mistake), nothing is logged and the roll number is not used.
    `record(result)` gives the dice and the summary lines to log."""
    with store.transaction():
        slot = next_roll(store, chain, new_secret)
        result = work(slot.dice)
        dice, summary = record(result)
        entry = append(store, slot, user=user, command=command, options=options, dice=dice, summary=summary)
    return result, entry, slot.chain


def _entry(row: Mapping[str, Any], version: int = VERSION) -> Entry:
    """An entry as logged, in an epoch of export `version` (version 4's hash covers the private flag)."""
    return Entry(
        number=row["roll"], time=row["time"], user=row["user"], command=row["command"],
        options=tuple(sorted(json.loads(row["options"]).items())),
        dice=tuple(LoggedDie(**d) for d in json.loads(row["dice"])),
        summary=tuple(json.loads(row["summary"])), previous=row["previous"], hash=row["hash"], salt=row.get("salt"),
        flagged=version >= FLAGGED and row.get("salt") is not None,
    )


def _epoch_row(store: Store, chain: str, epoch: int | None) -> dict | None:
    if epoch is None:
        rows = store.read("select * from roll_chains where chain = ? order by epoch desc limit 1", [chain])
    else:
        rows = store.read("select * from roll_chains where chain = ? and epoch = ?", [chain, epoch])
    return rows[0] if rows else None


def current_chain(store: Store, chain: str) -> Chain | None:
    """The chain's latest epoch without starting one; None if it never rolled."""
    row = _epoch_row(store, chain, None)
    if row is None:
        return None
    logged = store.read("select count(*) as n from roll_entries where chain = ? and epoch = ?", [chain, row["epoch"]])[0]["n"]
    return Chain(chain, row["epoch"], row["commitment"], row["next_roll"], row["last_hash"], False, logged,
                 row["version"] or 2)


def last_entries(store: Store, chain: str, n: int) -> list[Entry]:
    """The last `n` entries of the chain's latest epoch, oldest first."""
    row = _epoch_row(store, chain, None)
    if row is None:
        return []
    rows = store.read(
        "select * from roll_entries where chain = ? and epoch = ? order by position desc limit ?", [chain, row["epoch"], n])
    return [_entry(r, row["version"] or 2) for r in reversed(rows)]


def epochs(store: Store, chain: str) -> list[dict]:
    """Every epoch of the chain: number, commitment, rolls, started, revealed (no secrets)."""
    return store.read(
        "select epoch, commitment, next_roll - 1 as rolls, started_at, revealed_at from roll_chains "
        "where chain = ? order by epoch", [chain])


PUBLIC = ""
"""The viewer of an export posted in the channel (a battle's end, /log reveal): every private
entry not unsealed is sealed."""


class SealedEpochError(RulesError):
    """An epoch begun before version 3 holds other players' private rolls, which its hashes
    cannot seal."""


def export_log(store: Store, chain: str, epoch: int | None = None, *, viewer: str | None = None) -> dict[str, Any] | None:
    """The export of one epoch (the latest by default): :func:`engine.ledger.export`'s JSON, with
    the secret only once revealed. None when there is no such epoch.

    `viewer`: None for one who may see every result (the GM role, managers, the console); a
    user id for anyone else, who sees their own private entries and those unsealed, and the
    others sealed; :data:`PUBLIC` for the channel (no private entry but those unsealed)."""
    row = _epoch_row(store, chain, epoch)
    if row is None:
        return None
    rows = store.read("select * from roll_entries where chain = ? and epoch = ? order by position", [chain, row["epoch"]])
    secret = bytes.fromhex(row["secret"]) if row["revealed_at"] is not None else None
    version = row.get("version") or 2
    entries: list[Entry | SealedEntry] = []
    for r in rows:
        e = _entry(r, version)
        if viewer is not None and e.private and e.user != viewer and not r.get("unsealed"):
            if version < SEALED:
                raise SealedEpochError(
                    f"Epoch {row['epoch']} of this log began before private rolls could be sealed, and it holds "
                    "other players' private rolls: the GM or a manager can export it, and its next epoch seals them.")
            entries.append(e.sealed())
        else:
            entries.append(e)
    out = export(chain=chain, commitment_hex=row["commitment"], secret=secret, entries=entries,
                 reserved=row["next_roll"] - 1, version=version)
    out["epoch"] = row["epoch"]
    out["undelivered"] = undelivered(store, chain, row["epoch"])
    return out


def unseal(store: Store, chain: str, epoch: int | None, roll: int, *, user: str, may_see_all: bool) -> Entry:
    """Show a private entry in every later export (its roller or the GM decides); the entry,
    or RulesError saying why not."""
    with store.transaction() as db:
        row = _epoch_row(store, chain, epoch)
        if row is None:
            raise RulesError("Nothing has been rolled in this log yet, so there is nothing to unseal.")
        found = store.read("select * from roll_entries where chain = ? and epoch = ? and roll = ?", [chain, row["epoch"], roll])
        if not found:
            raise RulesError(f"Roll {roll} is not in epoch {row['epoch']} of this log: /log show lists its rolls.")
        e = _entry(found[0], row.get("version") or 2)
        if not e.private:
            raise RulesError(f"Roll {roll} is not a private roll: every export shows it already.")
        if e.user != user and not may_see_all:
            raise RulesError(f"Roll {roll} is another player's private roll: only its roller or the GM can unseal it.")
        if (row.get("version") or 2) < SEALED:
            raise RulesError(f"Roll {roll} is in an epoch begun before private rolls were sealed: the GM's export shows it.")
        db.execute("update roll_entries set unsealed = 1 where chain = ? and epoch = ? and roll = ?", [chain, row["epoch"], roll])
    return e


CSV_COLUMNS = ("roll", "time", "user", "command", "options", "dice", "summary", "previous", "hash")


def export_csv(data: Mapping[str, Any]) -> str:
    """An export as CSV, one row per entry: options as JSON; dice as ``die:face:by`` words."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for e in data["entries"]:
        if e.get("sealed"):
            writer.writerow([e["roll"], e["time"], e["user"], "(private, sealed)", "", "", "", e["previous"], e["hash"]])
            continue
        writer.writerow([
            e["roll"], e["time"], e["user"], e["command"], json.dumps(e["options"], sort_keys=True),
            " ".join(f"{d['die']}:{d['face']}:{d['by']}" for d in e["dice"]), " | ".join(e["summary"]),
            e["previous"], e["hash"],
        ])
    return out.getvalue()


@dataclass(frozen=True)
class Reveal:
    """What :func:`reveal` disclosed, and the epoch it started."""

    export: dict[str, Any]
    """The closed epoch's export, secret included, as the channel sees it (private entries
    sealed; an epoch begun before version 3 in full, as it always was)."""
    secret: bytes
    next_commitment: str | None
    """The new epoch's commitment (None when the chain ends: a battle's)."""
    withheld: int = 0
    """Private rolls of an epoch begun before version 3, which its hashes cannot seal: when there
    are any, the export is not for the channel (:attr:`export` then holds them in full, for the
    head and count only; the GM's and managers' /log export gives it)."""


def reveal(store: Store, chain: str, new_secret: Callable[[], bytes], *, rotate: bool = True) -> Reveal | None:
    """Disclose the chain's current secret and, with `rotate`, start the next epoch under a new
    one (a channel's); a battle's chain ends instead. None when the chain never rolled."""
    with store.transaction() as db:
        store.lock("roll-chain", chain)
        row = _epoch_row(store, chain, None)
        if row is None:
            return None
        if row["revealed_at"] is None:
            db.execute("update roll_chains set revealed_at = ? where chain = ? and epoch = ?", [now(), chain, row["epoch"]])
        committed = _current(db, chain, new_secret, store)[0].commitment if rotate else None
        data = export_log(store, chain, row["epoch"], viewer=None)
        withheld = 0
        if (row.get("version") or 2) < SEALED:  # its private rolls cannot be sealed: they are never posted
            withheld = sum(1 for e in data["entries"] if e.get("options", {}).get("private") is True)
        else:
            data = export_log(store, chain, row["epoch"], viewer=PUBLIC)
    return Reveal(data, bytes.fromhex(row["secret"]), committed, withheld)
