"""A shard lease names its holder by host and pid, and, since claims-2, by which process that pid
was (its start time, storage/claims.py ``process_start``). A dead holder's pid taken since by
another process on the same machine used to pass for the holder until the lease lapsed (90 s), and
the holder's restart was refused ("run by another live bot process"); now the shards are free at
once. Deterministic: a real other process holds the pid, and the lease says it was an earlier one."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from storage import claims
from storage.migrations import open_store

HOST = socket.gethostname()


@pytest.fixture
def store(database):
    with open_store(database) as s:
        yield s


@pytest.fixture
def other_process():
    """A real process on this machine, not this one (it sleeps until the test ends)."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    yield child.pid
    child.kill()
    child.wait()


def test_a_process_start_names_one_process_while_it_runs(other_process):
    mine, theirs = claims.process_start(claims.os.getpid()), claims.process_start(other_process)
    assert mine and theirs and mine != theirs and claims.process_start(other_process) == theirs
    assert claims.process_start(2**22 + 12345) is None  # no such process


def test_a_live_holders_shard_is_refused_and_its_pid_taken_by_another_process_frees_it_at_once(store, other_process):
    holder = f"{HOST}:{other_process}"
    claims.take_shards(store, 2, [0], holder)
    recorded = store.read("SELECT process_start FROM shard_leases")[0]["process_start"]
    assert recorded == claims.process_start(other_process)
    with pytest.raises(claims.ShardsHeld, match=f"shard 0 of 2 is run by another live bot process \\({holder}"):
        claims.take_shards(store, 2, [0], claims.this_process())
    # the lease was taken by an earlier process that had this pid (it died, the pid was given again)
    boot, ticks = recorded.rsplit(":", 1)
    with store.transaction() as db:
        db.execute("UPDATE shard_leases SET process_start = ?", (f"{boot}:{int(ticks) - 1}",))
    claims.take_shards(store, 2, [0], claims.this_process())  # free at once, though renewed just now
    assert [r["holder"] for r in store.read("SELECT holder FROM shard_leases")] == [claims.this_process()]


def test_a_lease_from_before_the_start_time_was_kept_counts_on_its_pid_alone(store, other_process):
    holder = f"{HOST}:{other_process}"
    claims.take_shards(store, 2, [0], holder)
    with store.transaction() as db:
        db.execute("UPDATE shard_leases SET process_start = NULL")  # written by a bot before claims-2
    with pytest.raises(claims.ShardsHeld):
        claims.take_shards(store, 2, [0], claims.this_process())
