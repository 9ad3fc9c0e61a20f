"""What both stores share and callers name: the error a store raises when it cannot be used, and
a schema migration (each carries its SQLite change and its PostgreSQL text). Kept apart from
storage/database.py (SQLite) and storage/postgres.py so that each imports it and neither the other."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sqlite_utils


class StoreError(Exception):
    """The store cannot be used: a file unreadable or locked too long, a server unreachable or gone
    mid-command, a schema newer than this bot. The message is for the user, with what to do."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One change to the schema, applied once per database, in the order listed."""

    name: str
    """Unique and never renamed, e.g. ``"campaigns-1"``: the database records it once applied."""
    apply: Callable[[sqlite_utils.Database], None]
    """Creates or alters tables; runs inside the migration's own transaction."""
    postgres: str | None = None
    """The same change in PostgreSQL's dialect (statements separated by ``;``), for the
    PostgreSQL store (storage/postgres.py)."""


def unusable_line(shown: str, error: BaseException) -> str:
    """What an operator (or the console's user) is told when the store `shown` (a path, or a
    PostgreSQL URL without its password) cannot be used for a reason the database itself gives,
    one it does not foresee (a file another program wrote, a damaged one): which store, why, what
    to do; one line, no traceback."""
    lines = str(error).strip().splitlines()
    why = lines[0].rstrip(".") if lines else type(error).__name__
    return (f"The database {shown} cannot be used: {why}. It is not Bombardier's store, or it is damaged: point "
            "`database` (or BOMBARDIER_DATABASE) at the bot's own store, or restore it from a backup (docs/hosting.md, "
            "Backups).")
