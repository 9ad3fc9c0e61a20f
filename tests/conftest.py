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


# -- extensions executed once per test run ------------------------------------------------------
# discord.py's load_extension executes an extension's module afresh for every bot (its command
# objects are built from the decorators again: ~80 ms for the bot's twelve), and the suite builds
# a bot for most of its tests. Here each extension's module is executed by discord.py the first
# time, as in the bot, and later bots get that same module back and run its setup(bot): their own
# cogs and commands, as discord.py makes them for each instance. The extensions keep no state in
# their modules (constants, choices), and tests patch them with monkeypatch, which puts them back.
import sys as _sys  # noqa: E402

from discord.ext import commands as _commands  # noqa: E402
from discord.ext.commands import errors as _errors  # noqa: E402

_EXTENSION_MODULES: dict[str, object] = {}
_load_from_module_spec = _commands.bot.BotBase._load_from_module_spec


async def _load_extension_once(self, spec, key):
    lib = _EXTENSION_MODULES.get(key)
    if lib is None:
        await _load_from_module_spec(self, spec, key)
        _EXTENSION_MODULES[key] = self.extensions[key]
        return
    _sys.modules[key] = lib  # as discord.py leaves it while loaded (closing a bot removes it)
    try:
        await lib.setup(self)
    except Exception as e:
        del _sys.modules[key]
        await self._remove_module_references(lib.__name__)
        await self._call_module_finalizers(lib, key)
        raise _errors.ExtensionFailed(key, e) from e
    self._BotBase__extensions[key] = lib


_commands.bot.BotBase._load_from_module_spec = _load_extension_once
