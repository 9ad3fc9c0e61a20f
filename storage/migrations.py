"""Every schema change, in the order applied. Append new ones at the end of the list; never
rename, reorder or edit one that has shipped (databases in use record them by name).

Each storage module owns its migrations (``MIGRATIONS`` tuple in the module) and is listed here
once, after the modules its tables refer to. storage/database.py never imports this module: the
list is handed to :meth:`Store.open` (here, by :func:`open_store`), so imports run one way.
"""

from __future__ import annotations

from storage import actions, armies, campaigns, claims, roll_log, settings, sieges
from pathlib import Path

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
)


def open_store(path: Path | str) -> Store:
    """The bot's store at ``path`` (``":memory:"`` for a private one), its schema brought up to date."""
    return Store.open(path, MIGRATIONS)
