"""Shared test set-up: the project root on sys.path, whichever folder pytest starts in."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def pytest_addoption(parser):
    parser.addoption(
        "--regen-golden", action="store_true", default=False,
        help="rewrite the golden pictures of tests/renders from the current renderers",
    )


# -- the store on both backends (issue 15) ------------------------------------------------------
import pytest  # noqa: E402

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def database(request, tmp_path):
    """Where a test's store lives, once on each backend: a SQLite file in the test's folder, then a
    fresh database on a real PostgreSQL server (tests/postgres_server.py). Hand it to
    ``open_store`` or to ``Settings(database=...)``, or to a child process as a string."""
    if request.param == "sqlite":
        yield tmp_path / "b.sqlite3"
        return
    from tests import postgres_server

    try:
        url = postgres_server.fresh_database()
    except postgres_server.Unavailable as e:
        pytest.skip(str(e))
    yield url
    postgres_server.drop_database(url)


@pytest.fixture
def pg_url():
    """A fresh database on the test run's PostgreSQL server (the PostgreSQL-only tests); skips,
    saying why, where no server can be had."""
    from tests import postgres_server

    try:
        url = postgres_server.fresh_database("pg")
    except postgres_server.Unavailable as e:
        pytest.skip(str(e))
    yield url
    postgres_server.drop_database(url)
