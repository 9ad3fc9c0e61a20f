"""Claims: which bot process answers an interaction, and which holds a shard.

Two processes started with the same shard would each get every interaction of its servers from
Discord, and each answer it: a turn moved twice, a roll logged twice. Two guards, both in the store
the processes share:

- **Each interaction is claimed once** (:func:`claim_interaction`): the first process to insert its
  id answers it; the other's insert conflicts, and it leaves the interaction alone. Claims are
  forgotten after :data:`CLAIM_KEEP_S` (Discord's interaction ids are never reused; an interaction
  cannot be answered after 15 minutes).
- **A live process's shard is not started again** (:func:`take_shards`): a process records the
  shards it runs (a lease, renewed every :data:`HEARTBEAT_S` by :func:`renew`); another process
  asking for one of them while that lease is live is refused, with the holder named. A lease is
  live while it is renewed, and, on the same machine, while its process still runs (a process killed
  with SIGKILL frees its shards at once for its restart). "Its process" is the pid with the start
  time recorded beside it (:func:`process_start`): a dead holder's pid taken since by another
  process is not the holder, so its shards are free at once too, not after :data:`LEASE_S`.
"""

from __future__ import annotations

import math
import os
import socket
import time
from collections.abc import Iterable
from dataclasses import dataclass

from storage.database import Migration, Store

CLAIM_KEEP_S = 3600.0
"""How long a claimed interaction id is kept (an interaction is dead after 15 minutes)."""
CLAIM_WAIT_S = 1.0
"""How long after an interaction's arrival its claim may take: a store that is slow or away (its
calls give up after 2 s, 10 s in a burst) must not keep the interaction from its first response
inside Discord's 3 seconds. Past it the process answers unclaimed, as when the store cannot be
reached at all, and the claim is not made any more."""
LEASE_S = 90.0
"""A shard lease not renewed for this long is taken to be a dead process's."""
HEARTBEAT_S = 20.0
"""How often a running process renews its leases."""
EVERY_SHARD = -1
"""The shard number of a lease on every shard (a process that runs as many as Discord recommends)."""


def _create(db) -> None:
    db["interaction_claims"].create({"id": str, "holder": str, "claimed_at": float}, pk="id",
                                    not_null={"holder", "claimed_at"})
    db["interaction_claims"].create_index(["claimed_at"])
    db["shard_leases"].create({"shard_count": int, "shard": int, "holder": str, "host": str, "pid": int,
                               "started_at": float, "renewed_at": float}, pk=("shard_count", "shard"),
                              not_null={"holder", "host", "pid", "started_at", "renewed_at"})


PG_CLAIMS_1 = """CREATE TABLE interaction_claims (id TEXT COLLATE "C" PRIMARY KEY, holder TEXT NOT NULL,
    claimed_at DOUBLE PRECISION NOT NULL);
CREATE INDEX idx_interaction_claims_claimed_at ON interaction_claims (claimed_at);
CREATE TABLE shard_leases (shard_count INTEGER NOT NULL, shard INTEGER NOT NULL, holder TEXT NOT NULL, host TEXT NOT NULL,
    pid INTEGER NOT NULL, started_at DOUBLE PRECISION NOT NULL, renewed_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (shard_count, shard))"""

MIGRATIONS = (Migration("claims-1", _create, PG_CLAIMS_1),)


def _process_start_column(db) -> None:
    # Which process the lease's pid was when it was taken (its start time, process_start): a pid
    # reused by another process after the holder died no longer passes for the holder.
    db.execute("ALTER TABLE shard_leases ADD COLUMN process_start TEXT")


PROCESS_START = Migration("claims-2-process-start", _process_start_column,
                          'ALTER TABLE shard_leases ADD COLUMN process_start TEXT COLLATE "C"')
"""Listed last in storage/migrations.py (written after the other modules' migrations)."""


def process_start(pid: int) -> str | None:
    """Which process `pid` is on this machine, as long as it runs: its boot and its start time in
    clock ticks since that boot (Linux's /proc), e.g. ``"8d0c...:123456"``; None where that cannot
    be read (no such process, no /proc). A pid reused by a later process gives another value."""
    try:
        with open(f"/proc/{int(pid)}/stat", "rb") as f:
            stat = f.read()
        fields = stat[stat.rindex(b")") + 2:].split()  # after the command name, which may hold spaces and ')'
        ticks = int(fields[19])  # field 22 of proc(5): starttime; the fields after the name start at 3
    except (OSError, ValueError, IndexError):
        return None
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            boot = f.read().strip()
    except OSError:
        boot = ""
    return f"{boot}:{ticks}"


def this_process() -> str:
    """A name for this process that the operator can find: ``host:pid``."""
    return f"{socket.gethostname()}:{os.getpid()}"


def claim_interaction(store: Store, interaction_id: int | str, holder: str, *, now: float | None = None) -> bool:
    """Claim the interaction for `holder`; False when another process claimed it first (leave it)."""
    now = time.time() if now is None else now
    with store.transaction() as db:
        claimed = db.execute("INSERT OR IGNORE INTO interaction_claims (id, holder, claimed_at) VALUES (?, ?, ?)",
                             (str(interaction_id), holder, now)).rowcount == 1
        db.execute("DELETE FROM interaction_claims WHERE claimed_at < ?", (now - CLAIM_KEEP_S,))
    return claimed


class ShardsHeld(Exception):
    """A shard this process would run is held by another live process; the message names it."""


@dataclass(frozen=True, slots=True)
class Lease:
    shard_count: int
    shard: int
    holder: str
    host: str
    pid: int
    renewed_at: float
    process_start: str | None = None
    """Which process the pid was when the lease was taken (:func:`process_start`), where known."""


def _alive(lease: Lease, now: float) -> bool:
    if now - lease.renewed_at > LEASE_S:
        return False
    if lease.host == socket.gethostname():  # on this machine, whether its process still runs
        try:
            os.kill(lease.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass  # another user's process: its start time still tells whether it is the holder
        if lease.process_start is not None and (now_start := process_start(lease.pid)) is not None:
            return now_start == lease.process_start  # the pid taken by another process: the holder is gone
    return True


def _words(count: int, shard: int) -> str:
    return "every shard" if shard == EVERY_SHARD else f"shard {shard} of {count}"


def overlap(count: int, shard: int, other_count: int, other_shard: int) -> bool:
    """Whether shard `shard` of `count` and shard `other_shard` of `other_count` get some server's
    interactions both: Discord sends a server's events to shard ``(server_id >> 22) % count``, so two
    shards of different counts share the servers whose number is `shard` modulo `count` and
    `other_shard` modulo `other_count`: some exist exactly when the two agree modulo the counts'
    greatest common divisor (shard 2 of 4 lies inside shard 0 of 2; shard 0 of 3 and of 2 share a
    sixth of the servers)."""
    if shard == EVERY_SHARD or other_shard == EVERY_SHARD:
        return True
    common = math.gcd(count, other_count)
    return shard % common == other_shard % common


def take_shards(store: Store, count: int | None, shards: Iterable[int] | None, holder: str, *,
                now: float | None = None) -> None:
    """Record that `holder` runs `shards` of `count` (None, None: every shard Discord recommends),
    with which process its pid is (:func:`process_start`, for a holder on this machine).
    Raises :class:`ShardsHeld` naming the process that holds one of them, live; takes over leases
    of processes that are gone."""
    now = time.time() if now is None else now
    host, pid = holder.rsplit(":", 1)[0], int(holder.rsplit(":", 1)[1]) if holder.rsplit(":", 1)[1].isdigit() else 0
    started = process_start(pid) if host == socket.gethostname() and pid > 0 else None
    wanted = [(0, EVERY_SHARD)] if count is None else [(count, s) for s in (shards if shards is not None else range(count))]
    with store.transaction() as db:
        store.lock("shard-leases")
        rows = db.execute("SELECT shard_count, shard, holder, host, pid, renewed_at, process_start FROM shard_leases").fetchall()
        live = [lease for lease in (Lease(*r) for r in rows) if lease.holder != holder and _alive(lease, now)]
        residues: dict[int, dict[int, int]] = {}
        """common divisor -> {a shard asked, modulo the divisor: that shard}, built once for each."""

        def shared(lease: Lease) -> int | None:
            """A shard asked for that gets some of the lease's servers (:func:`overlap`), or None."""
            if count is None or lease.shard == EVERY_SHARD:
                return wanted[0][1] if wanted else None
            common = math.gcd(count, lease.shard_count)
            if common not in residues:
                residues[common] = {}
                for _, mine in wanted:
                    residues[common].setdefault(mine % common, mine)
            return residues[common].get(lease.shard % common)

        for lease in live:
            asked = shared(lease)
            if asked is not None:
                seen = max(0, int(now - lease.renewed_at))
                shares = ("" if count is None or lease.shard == EVERY_SHARD or (lease.shard_count, lease.shard) == (count, asked)
                          else f", which gets servers of {_words(count, asked)} asked for here")
                raise ShardsHeld(
                    f"Not starting: {_words(lease.shard_count, lease.shard)}{shares} is run by another live bot "
                    f"process ({lease.holder}, seen {seen} s ago) sharing this database, and two processes on one "
                    "shard would answer every command twice. Stop that process first, or give this one other shards "
                    "(BOMBARDIER_SHARDS, with the same shard count as the others).")
        for c, s in wanted:
            db.execute("DELETE FROM shard_leases WHERE shard_count = ? AND shard = ?", (c, s))
            db.execute("INSERT INTO shard_leases (shard_count, shard, holder, host, pid, started_at, renewed_at, "
                       "process_start) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (c, s, holder, host, pid, now, now, started))


def renew(store: Store, holder: str, *, now: float | None = None) -> int:
    """Renew `holder`'s leases (every :data:`HEARTBEAT_S`); how many it holds."""
    now = time.time() if now is None else now
    with store.transaction() as db:
        return db.execute("UPDATE shard_leases SET renewed_at = ? WHERE holder = ?", (now, holder)).rowcount


def release(store: Store, holder: str) -> None:
    """Give `holder`'s shards up (the process is stopping)."""
    with store.transaction() as db:
        db.execute("DELETE FROM shard_leases WHERE holder = ?", (holder,))
