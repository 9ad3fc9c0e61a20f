"""Every schema change, in the order applied. Append new ones at the end of the list; never
rename, reorder or edit one that has shipped (databases in use record them by name).

Each storage module owns its migrations (``MIGRATIONS`` tuple in the module) and is listed here
once, after the modules its tables refer to. storage/database.py never imports this module: the
list is handed to :meth:`Store.open` (here, by :func:`open_store`), so imports run one way.
"""

from __future__ import annotations

import sqlite3
import sys
from storage import actions, armies, campaigns, claims, roll_log, settings, sieges
from pathlib import Path

from storage.contract import unusable_line
from storage.database import Migration, Store

MIGRATIONS: tuple[Migration, ...] = (
    *settings.MIGRATIONS,
    *campaigns.MIGRATIONS,
    *actions.MIGRATIONS,
    *sieges.MIGRATIONS,
    *roll_log.MIGRATIONS,
    *armies.MIGRATIONS,
    *claims.MIGRATIONS,
    campaigns.PRIVATE_REASONS,
    actions.ERASED,
    claims.PROCESS_START,
)


def open_store(path: Path | str) -> Store:
    """The bot's store at ``path`` (``":memory:"`` for a private one), its schema brought up to date."""
    return Store.open(path, MIGRATIONS)


def is_database_error(error: BaseException) -> bool:
    """Whether `error` is the database driver's own (SQLite's, or psycopg's when PostgreSQL is used)."""
    psycopg = sys.modules.get("psycopg")
    return isinstance(error, sqlite3.Error) or (psycopg is not None and isinstance(error, psycopg.Error))


def unusable_store(where: object, error: BaseException) -> str:
    """The one line for a store at `where` (a path, or a PostgreSQL URL: shown without its password)
    that the database driver refuses at start (storage/contract.py :func:`unusable_line`)."""
    from config.settings import is_postgres
    from storage.postgres import redacted  # imports no driver

    return unusable_line(redacted(where) if isinstance(where, str) and is_postgres(where) else str(where), error)
