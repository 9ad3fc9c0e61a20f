"""Shard leases across shard counts (storage/claims.py): a process is refused a shard whose servers
a live process's shard already gets, whatever shard count each was started with.

Discord sends a server's events to shard ``(server_id >> 22) % count``: shard 2 of 4 gets a quarter
of the servers shard 0 of 2 gets, shard 0 of 3 shares a sixth of them with shard 0 of 2."""

from __future__ import annotations

import itertools

import pytest

from storage import claims
from storage.migrations import open_store

OTHER = "elsewhere.example:4242"
"""A live process on another machine (its lease is fresh, so it counts as alive)."""


def shard_of(server_id: int, count: int) -> int:
    return (server_id >> 22) % count


@pytest.mark.parametrize("held, asked, shares", [
    ((2, 0), (4, [2]), True),    # inside it
    ((2, 0), (4, [1, 3]), False),
    ((2, 0), (3, [0]), True),    # a sixth of the servers in common
    ((2, 0), (3, [1]), True),
    ((4, 1), (2, [0]), False),
    ((4, 1), (6, [3]), True),
    ((4, 1), (6, [0, 2, 4]), False),
    ((2, 1), (2, [0]), False),
    ((2, 1), (2, [1]), True),
])
def test_a_shard_sharing_servers_with_a_live_shard_of_another_count_is_refused(database, held, asked, shares):
    # the arithmetic the test relies on: some server goes to both shards exactly when they share
    some = any(shard_of(g << 22, held[0]) == held[1] and shard_of(g << 22, asked[0]) in asked[1]
               for g in range(held[0] * asked[0]))
    assert some == shares
    with open_store(database) as store:
        claims.take_shards(store, held[0], [held[1]], OTHER)
        if shares:
            with pytest.raises(claims.ShardsHeld, match=f"shard {held[1]} of {held[0]}.*{OTHER}"):
                claims.take_shards(store, asked[0], asked[1], claims.this_process())
        else:
            claims.take_shards(store, asked[0], asked[1], claims.this_process())


def test_every_shard_shares_with_any_live_shard(database):
    with open_store(database) as store:
        claims.take_shards(store, 7, [5], OTHER)
        with pytest.raises(claims.ShardsHeld, match="shard 5 of 7"):
            claims.take_shards(store, None, None, claims.this_process())


def test_the_overlap_rule_agrees_with_discords_routing():
    for (c1, c2) in itertools.product(range(1, 9), repeat=2):
        for s1, s2 in itertools.product(range(c1), range(c2)):
            routed = any(g % c1 == s1 and g % c2 == s2 for g in range(c1 * c2))
            assert claims.overlap(c1, s1, c2, s2) == routed, (c1, s1, c2, s2)


def test_many_leases_are_checked_in_time(tmp_path):
    """Half of 10,000 shards held, the other half asked: counted by residues, not pair by pair."""
    with open_store(tmp_path / "b.sqlite3") as store:
        claims.take_shards(store, 10_000, range(5_000), OTHER)
        claims.take_shards(store, 10_000, range(5_000, 10_000), claims.this_process())
        with pytest.raises(claims.ShardsHeld, match="shard 0 of 10000"):
            claims.take_shards(store, 5_000, [0], "third.example:1")
