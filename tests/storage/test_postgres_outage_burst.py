"""A PostgreSQL server that is away costs each store call about 2 s, in a burst too (issue 25,
item 3: "fail fast, about 2 s"; T25's probe).

With the server stopped, six reads at once each took 20 s and one read after them 12 s: a read
retried after the pool's timeout (PoolTimeout is an OperationalError, so the "lost connection, try
another" branch took it), and a timeout while the pool was reconnecting counted its connections
being prepared as "in use by a burst" and waited the 10 s a burst may. Checked without the clock:
every wait for a connection asked is at most WAIT_S, and each read waits once."""

from __future__ import annotations

import threading

import pytest

from storage.database import StoreError
from storage.migrations import open_store
from storage.postgres import PostgresStore
from tests.storage.test_postgres import own_server  # noqa: F401  (the fixture)


def test_reads_at_once_with_the_server_away_each_give_up_after_one_short_wait(own_server):  # noqa: F811
    store = open_store(own_server.get_uri())
    try:
        assert isinstance(store, PostgresStore)
        assert store.read("SELECT 1 AS one") == [{"one": 1}]
        own_server.stop()
        asked: list[float] = []
        real = store._pool.getconn

        def getconn(timeout=None):
            asked.append(timeout)
            return real(timeout=timeout)

        store._pool.getconn = getconn
        failed: list[BaseException] = []

        def read() -> None:
            try:
                store.read("SELECT 1")
            except StoreError as e:
                failed.append(e)

        readers = [threading.Thread(target=read) for _ in range(6)]
        for t in readers:
            t.start()
        for t in readers:
            t.join(60)
        in_the_burst = len(asked)
        read()  # and one alone after them: one wait, not retried
        assert len(failed) == 7 and all("cannot be reached" in str(e) for e in failed)
        assert all(t is not None and t <= PostgresStore.WAIT_S for t in asked), asked  # never the burst's 10 s
        assert asked[in_the_burst:] == [PostgresStore.WAIT_S], asked
    finally:
        store.close()
