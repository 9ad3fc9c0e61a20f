"""Server and channel settings: the default game, whether rolls may be private, the campaign GM role,
who moves a battle's turn on, and whether campaigns take players by invitation only.

A server's settings are the row with ``channel_id = 0``; a channel's row overrides them field by
field (a ``NULL`` field falls back to the server's, then to :data:`DEFAULTS`). Every function
takes the guild id first: nothing here reads or writes another server's rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.database import Migration, Store

GAMES = ("fantasy", "warmaster", "40k")
"""The games a server or channel can default to."""

TURN_RULES = ("players", "gm")
"""Who moves a battle's turn on: ``players`` (a player may; when others play too, another player or
the GM confirms it) or ``gm`` (only the GM role and server managers)."""

JOINING_RULES = ("open", "invite")
"""How players join campaigns: ``open`` (anyone, with /campaign join) or ``invite`` (the GM adds them)."""

SERVER = 0
"""The channel id under which a server's own settings are kept."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What one channel uses, after the channel's own choices override the server's."""

    game: str
    """Default game: one of :data:`GAMES`."""
    private_rolls: bool
    """Whether players may ask for rolls only they see (issue 9 reads it)."""
    gm_role_id: int | None
    """The role that runs campaigns (with server managers); None: managers only."""
    turns: str = "players"
    """Who moves a battle's turn on: one of :data:`TURN_RULES`."""
    joining: str = "open"
    """How players join campaigns: one of :data:`JOINING_RULES`."""
    overridden: tuple[str, ...] = ()
    """The fields the channel itself sets."""


DEFAULTS = Settings(game="fantasy", private_rolls=True, gm_role_id=None, turns="players", joining="open")

FIELDS = ("game", "private_rolls", "gm_role_id", "turns", "joining")


def _create(db) -> None:
    db["settings"].create(
        {"guild_id": int, "channel_id": int, "game": str, "private_rolls": int, "gm_role_id": int, "updated_by": int,
         "updated_at": float},
        pk=("guild_id", "channel_id"),
    )


def _rules(db) -> None:
    db.execute("ALTER TABLE settings ADD COLUMN turns TEXT")
    db.execute("ALTER TABLE settings ADD COLUMN joining TEXT")


PG_SETTINGS_1 = """CREATE TABLE settings (guild_id BIGINT NOT NULL, channel_id BIGINT NOT NULL, game TEXT COLLATE "C",
    private_rolls INTEGER, gm_role_id BIGINT, updated_by BIGINT, updated_at DOUBLE PRECISION, PRIMARY KEY (guild_id, channel_id))"""
PG_SETTINGS_2 = 'ALTER TABLE settings ADD COLUMN turns TEXT COLLATE "C"; ALTER TABLE settings ADD COLUMN joining TEXT COLLATE "C"'

MIGRATIONS = (Migration("settings-1", _create, PG_SETTINGS_1), Migration("settings-2", _rules, PG_SETTINGS_2))


def settings_for(store: Store, guild_id: int, channel_id: int | None = None) -> Settings:
    """The settings a command in `channel_id` of `guild_id` uses (the server's when channel is None)."""
    rows = store.read(
        "SELECT * FROM settings WHERE guild_id = ? AND channel_id IN (?, ?)",
        (guild_id, SERVER, SERVER if channel_id is None else channel_id),
    )
    server = next((r for r in rows if r["channel_id"] == SERVER), {})
    channel = next((r for r in rows if r["channel_id"] != SERVER), {})
    values = {}
    for f in FIELDS:
        for source in (channel, server):
            if source.get(f) is not None:
                values[f] = source[f]
                break
        else:
            values[f] = getattr(DEFAULTS, f)
    return Settings(
        game=values["game"], private_rolls=bool(values["private_rolls"]), gm_role_id=values["gm_role_id"],
        turns=values["turns"], joining=values["joining"], overridden=tuple(f for f in FIELDS if channel.get(f) is not None),
    )


def chosen_game(store: Store, guild_id: int, channel_id: int | None = None) -> str | None:
    """The default game the channel (or else its server) has chosen; None when neither has chosen
    one (:func:`settings_for` then gives :data:`DEFAULTS`' game). One indexed read."""
    rows = store.read(
        "SELECT channel_id, game FROM settings WHERE guild_id = ? AND channel_id IN (?, ?) AND game IS NOT NULL",
        (guild_id, SERVER, SERVER if channel_id is None else channel_id),
    )
    by = {r["channel_id"]: r["game"] for r in rows}
    return by.get(SERVER if channel_id is None else channel_id) or by.get(SERVER)


def change_settings(store: Store, guild_id: int, channel_id: int | None, *, by: int, **changes) -> Settings:
    """Set some fields for the server (`channel_id` None) or one channel, in one transaction; a
    value of None clears a channel's override (or a server's choice, back to the default)."""
    import time

    unknown = set(changes) - set(FIELDS)
    if unknown:
        raise ValueError(f"unknown settings {sorted(unknown)}")
    if changes.get("game") is not None and changes["game"] not in GAMES:
        raise ValueError(f"unknown game {changes['game']!r}")
    if changes.get("turns") is not None and changes["turns"] not in TURN_RULES:
        raise ValueError(f"unknown turn rule {changes['turns']!r}")
    if changes.get("joining") is not None and changes["joining"] not in JOINING_RULES:
        raise ValueError(f"unknown joining rule {changes['joining']!r}")
    if "private_rolls" in changes and changes["private_rolls"] is not None:
        changes["private_rolls"] = int(bool(changes["private_rolls"]))
    key = SERVER if channel_id is None else channel_id
    with store.transaction() as db:
        db["settings"].upsert(
            {"guild_id": guild_id, "channel_id": key, **changes, "updated_by": by, "updated_at": time.time()},
            pk=("guild_id", "channel_id"),
        )
    return settings_for(store, guild_id, channel_id)
