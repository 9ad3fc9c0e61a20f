"""Every schema change, in the order applied. Append new ones at the end of the list; never
rename, reorder or edit one that has shipped (databases in use record them by name).

Each storage module owns its migrations (``MIGRATIONS`` tuple in the module) and is listed here
once, after the modules its tables refer to.
"""

from __future__ import annotations

from storage import actions, campaigns, roll_log, settings, sieges
from storage.database import Migration

MIGRATIONS: tuple[Migration, ...] = (
    *settings.MIGRATIONS,
    *campaigns.MIGRATIONS,
    *actions.MIGRATIONS,
    *sieges.MIGRATIONS,
    *roll_log.MIGRATIONS,
)
