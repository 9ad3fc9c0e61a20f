"""A store that cannot be used at start, for a reason the store itself did not foresee (the
database's own error: a file another program wrote, a PostgreSQL database holding another
program's tables), is one line on stderr naming the store and what to do, exit code 2, never a
traceback; a file that is no database at all keeps its own line. Real files and a real server,
the bot started in a child process as an operator would (tests/test_startup.py)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.test_startup import DRIVER, ROOT, TOKEN, one_line


def start(tmp_path: Path, database: str | Path | None = None) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "BOMBARDIER_DATA": str(tmp_path / "data"), "DISCORD_TOKEN": TOKEN}
    if database is not None:
        env["BOMBARDIER_DATABASE"] = str(database)
    return subprocess.run([sys.executable, "-c", DRIVER, str(ROOT), "http://127.0.0.1:9/api/v10"], env=env,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


def another_programs_store(database) -> None:
    """A database that holds a table the bot's first migration would make, as another program's would."""
    if isinstance(database, Path):
        with sqlite3.connect(database) as db:
            db.execute("CREATE TABLE settings (key TEXT, value TEXT)")
        return
    import psycopg

    with psycopg.connect(database, autocommit=True) as db:
        db.execute("CREATE TABLE settings (key TEXT, value TEXT)")


def test_another_programs_database_is_one_line_naming_it_and_what_to_do(tmp_path, database):
    another_programs_store(database)
    result = start(tmp_path, database)
    assert result.returncode == 2
    line = one_line(result)
    shown = str(database) if isinstance(database, Path) else database.split("://", 1)[0]
    assert f"The database {shown}" in line and "cannot be used" in line and "already exists" in line, line
    assert "point `database` (or BOMBARDIER_DATABASE) at the bot's own store, or restore it from a backup" in line
    if not isinstance(database, Path):
        password = database.split("://", 1)[1].split("@", 1)[0].partition(":")[2]
        assert not password or password not in result.stderr  # the URL's password is never shown
    assert tables_of(database) == ["settings"]  # the other program's file left as it was found


def tables_of(database) -> list[str]:
    if isinstance(database, Path):
        with sqlite3.connect(database) as db:
            return sorted(r[0] for r in db.execute("select name from sqlite_master where type = 'table'"))
    import psycopg

    with psycopg.connect(database, autocommit=True) as db:
        return sorted(r[0] for r in db.execute("select tablename from pg_tables where schemaname = current_schema()"))


def test_a_file_that_is_no_database_keeps_its_one_line(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "bombardier.sqlite3").write_bytes(b"not a database, whatever it is " * 64)
    result = start(tmp_path)
    assert result.returncode == 2
    assert one_line(result).endswith("cannot be opened: file is not a database.")


def test_the_console_on_another_programs_database_is_one_line_too(tmp_path, database):
    another_programs_store(database)
    env = {"PATH": "/usr/bin:/bin", "BOMBARDIER_DATA": str(tmp_path / "data"), "BOMBARDIER_DATABASE": str(database)}
    result = subprocess.run([sys.executable, str(ROOT / "bot.py"), "play", "/machine list"], env=env, capture_output=True,
                            text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    line = one_line(result)
    assert "cannot be used" in line and "already exists" in line and "restore it from a backup" in line, line
    assert tables_of(database) == ["settings"]
