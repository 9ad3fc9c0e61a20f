"""What a button on a reply does when pressed: the command it repeats, with the options and the
dice of the reply it sits on, kept so the button still works after the bot restarts."""

from __future__ import annotations

import json
import secrets
import time
import weakref
from dataclasses import dataclass
from typing import Any

from engine.dice import DieKind, DieRoll, Roller
from storage.database import Migration, Store

LIFETIME_S = 24 * 3600
"""How long a reply's buttons work: long enough for a game session, short enough that an old
result scrolled back to is not fired by mistake."""


PURGE_EVERY_S = 60.0
"""How often :func:`remember` drops the buttons long past their lifetime."""
_purged: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""When each open store last dropped them."""


def _create(db) -> None:
    db["reply_actions"].create(
        {
            "id": str, "guild_id": int, "channel_id": int, "user_id": int, "command": str,
            "options": str, "dice": str, "created_at": float,
        },
        pk="id", not_null={"command", "options", "dice", "created_at"},
    )
    db["reply_actions"].create_index(["created_at"])


def _log_entry(db) -> None:
    db["reply_actions"].add_column("log_entry", str)


def _details(db) -> None:
    db["reply_actions"].add_column("details", str)


PG_ACTIONS_1 = """CREATE TABLE reply_actions (id TEXT COLLATE "C" PRIMARY KEY, guild_id BIGINT, channel_id BIGINT, user_id BIGINT,
    command TEXT COLLATE "C" NOT NULL, options TEXT NOT NULL, dice TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL);
CREATE INDEX idx_reply_actions_created_at ON reply_actions (created_at)"""

MIGRATIONS = (Migration("reply-actions-1", _create, PG_ACTIONS_1),
              Migration("reply-actions-2", _log_entry, "ALTER TABLE reply_actions ADD COLUMN log_entry TEXT"),
              Migration("reply-actions-3", _details, "ALTER TABLE reply_actions ADD COLUMN details TEXT"))


def _erased(db) -> None:
    # The buttons /settings forget-me erased (issue: a press said "expired" without saying why): the
    # action's id, its server and when it would have expired; nothing of what it held, no user id.
    db["erased_actions"].create({"id": str, "guild_id": int, "expires_at": float}, pk="id")
    db["erased_actions"].create_index(["expires_at"])


ERASED = Migration("reply-actions-4-erased", _erased, """CREATE TABLE erased_actions (id TEXT COLLATE "C" PRIMARY KEY,
    guild_id BIGINT, expires_at DOUBLE PRECISION);
CREATE INDEX idx_erased_actions_expires_at ON erased_actions (expires_at)""")
"""Listed last in storage/migrations.py (written after the other modules' migrations)."""


@dataclass(frozen=True, slots=True)
class ReplyAction:
    """The reply a button sits on, as far as pressing it needs."""

    id: str
    guild_id: int | None
    channel_id: int | None
    user_id: int
    """Who ran the command: the one who may press its buttons (with the server's managers)."""
    command: str
    """The command's full name, ``fire cannon``."""
    options: dict[str, Any]
    """The options as given, by their displayed names."""
    dice: tuple[DieRoll, ...]
    """Every die of the reply, in order."""
    created_at: float
    log_entry: tuple[str, int, int] | None = None
    """Where the reply's roll was logged: chain, epoch, roll number (a re-run names it)."""
    details: dict[str, Any] | None = None
    """The reply's details embed (Discord's JSON), answered privately on "Details"."""

    def expired(self, now: float | None = None) -> bool:
        return (time.time() if now is None else now) - self.created_at > LIFETIME_S


def _die_json(d: DieRoll) -> dict[str, Any]:
    return {"kind": d.kind.value, "face": d.face, "value": d.value, "direction": d.direction,
            "purpose": d.purpose, "by": d.by.value}


def _die(raw: dict[str, Any]) -> DieRoll:
    return DieRoll(DieKind(raw["kind"]), raw["face"], raw["value"], raw["direction"], raw["purpose"], Roller(raw["by"]))


def remember(
    store: Store, *, guild_id: int | None, channel_id: int | None, user_id: int, command: str,
    options: dict[str, Any], dice: tuple[DieRoll, ...], now: float | None = None, log_entry: str | None = None,
    details: dict[str, Any] | None = None,
) -> str:
    """Keeps a reply's command, options and dice; returns the id its buttons carry."""
    action_id = secrets.token_hex(8)
    now = time.time() if now is None else now
    with store.transaction() as db:
        # plain parametrized SQL (sqlite-utils' insert looks the schema up and adds a savepoint: 9
        # statements where 4 do)
        db.execute(
            "INSERT INTO reply_actions (id, guild_id, channel_id, user_id, command, options, dice, created_at, "
            "log_entry, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [action_id, guild_id, channel_id, user_id, command, json.dumps(options, sort_keys=True),
             json.dumps([_die_json(d) for d in dice]), now, log_entry,
             None if details is None else json.dumps(details)])
        # Buttons past their lifetime can never be used again: drop them as new ones come, at most
        # once a minute per store (a busy bot would otherwise pay the delete on every reply).
        if now - _purged.get(store, float("-inf")) >= PURGE_EVERY_S or now < _purged.get(store, now):
            db.execute("delete from reply_actions where created_at < ?", [now - 2 * LIFETIME_S])
            db.execute("delete from erased_actions where expires_at < ?", [now])
            _purged[store] = now
    return action_id


def recall(store: Store, action_id: str) -> ReplyAction | None:
    """The action behind a button, or None when it is unknown (or long gone)."""
    rows = store.read("select * from reply_actions where id = ?", [action_id])
    if not rows:
        return None
    row = rows[0]
    return ReplyAction(
        row["id"], row["guild_id"], row["channel_id"], row["user_id"], row["command"],
        json.loads(row["options"]), tuple(_die(d) for d in json.loads(row["dice"])), row["created_at"],
        tuple(json.loads(row["log_entry"])) if row.get("log_entry") else None,
        json.loads(row["details"]) if row.get("details") else None,
    )


def erase(db, where: str, params) -> int:
    """Deletes the buttons `where` picks (inside the caller's transaction: /settings forget-me's),
    keeping of each only its id, its server and when it would have expired (:func:`erased`), so a
    press says why it no longer works; returns how many."""
    db.execute(f"INSERT INTO erased_actions (id, guild_id, expires_at) SELECT id, guild_id, created_at + {LIFETIME_S} "
               f"FROM reply_actions WHERE {where}", tuple(params))
    return db.execute(f"DELETE FROM reply_actions WHERE {where}", tuple(params)).rowcount


def erased(store: Store, action_id: str, guild_id: int | None, now: float | None = None) -> bool:
    """Whether the button `action_id`, pressed in `guild_id`, was erased at a member's request
    (/settings forget-me) before it would have expired."""
    rows = store.read("select guild_id, expires_at from erased_actions where id = ?", [action_id])
    now = time.time() if now is None else now
    return bool(rows) and rows[0]["guild_id"] == guild_id and now <= rows[0]["expires_at"]
