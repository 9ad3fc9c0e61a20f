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
