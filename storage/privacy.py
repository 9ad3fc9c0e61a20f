"""Forgetting: one user's data everywhere (``/settings forget-me``), or one server's data whole
(``/settings purge-server``). Each is one transaction: it happens completely or not at all.

What the bot keeps is listed table by table in docs/privacy.md; a test there checks that every
column holding a user id is handled here. The roll log is the exception to forgetting a user: its
entries are hash-chained (each entry's hash covers the one before), so taking one out would break
every later entry's check for every player of that channel or battle. A user's entries stay; a
server's purge removes its chains whole, which leaves nothing half-checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from storage import actions, campaigns
from storage.database import Store

USER_COLUMNS = {
    "settings": ("updated_by",),
    "campaigns": ("created_by",),
    "campaign_members": ("user_id",),
    "battles": ("started_by", "turn_asked_by"),
    "battle_players": ("user_id",),
    "machines": ("owner_id", "added_by"),
    "shots": ("user_id",),
    "siege_events": ("user_id",),
    "reply_actions": ("user_id",),
    "roll_entries": ("user",),
    "armies": ("user_id",),
}
"""Every column that holds a Discord user id, by table (tests/storage/test_privacy.py keeps it whole)."""


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What :func:`forget_user` removed, and what it kept."""

    memberships: int
    """Campaigns the user was a member of (left)."""
    battle_places: int
    """Battles the user was listed as a player in (taken off)."""
    machines: int
    """War machines the user owned (removed from their rosters)."""
    shots: int
    """Shots the user fired in battles (removed from the battles' records)."""
    buttons: int
    """Buttons on the user's replies, and on others' replies that name them (they stop working)."""
    unnamed: int
    """Settings, campaigns, battles and machines others keep, where the user's id stood as the one
    who made or changed them: the id is blanked, the thing stays."""
    kept_log_entries: int
    """Roll log entries of the user, kept: hash-chained evidence for every player of that log."""
    armies: int = 0
    """Army lists the user imported (/army import), in every server."""


@dataclass(frozen=True, slots=True)
class Purged:
    """What :func:`purge_guild` removed, table by table."""

    settings: int
    campaigns: int
    battles: int
    machines: int
    shots: int
    buttons: int
    siege_sections: int
    roll_logs: int
    """Roll log chain epochs (a channel's or a battle's log, per secret)."""
    roll_entries: int
    armies: int = 0
    """Army lists its members imported."""

    @property
    def total(self) -> int:
        return sum((self.settings, self.campaigns, self.battles, self.machines, self.shots, self.buttons,
                    self.siege_sections, self.roll_logs, self.roll_entries, self.armies))


def _count(db, sql: str, params: Iterable = ()) -> int:
    return db.execute(sql, tuple(params)).fetchone()[0]


def _delete(db, sql: str, params: Iterable = ()) -> int:
    return db.execute(sql, tuple(params)).rowcount


def forget_user(store: Store, user_id: int) -> Forgotten:
    """Deletes what the store holds about `user_id` in every server, but their roll log entries
    (see the module's docstring); one transaction."""
    with store.transaction() as db:
        kept = _count(db, 'SELECT count(*) FROM roll_entries WHERE "user" = ?', (str(user_id),))
        memberships = _delete(db, "DELETE FROM campaign_members WHERE user_id = ?", (user_id,))
        places = _delete(db, "DELETE FROM battle_players WHERE user_id = ?", (user_id,))
        shots = _delete(db, "DELETE FROM shots WHERE user_id = ? OR machine_id IN "
                            "(SELECT id FROM machines WHERE owner_id = ?)", (user_id, user_id))
        shots += _delete(db, "DELETE FROM siege_events WHERE user_id = ?", (user_id,))  # their siege rolls in battles
        for machine in campaigns.machines_of(store, user_id):  # a battle's doings stay with the name (issue 25)
            campaigns.mark_in_battles(store, db, machine)
        machines = _delete(db, "DELETE FROM machines WHERE owner_id = ?", (user_id,))
        buttons = actions.erase(db, "user_id = ?", (user_id,))  # a press then says why they no longer work
        # Others' replies can name the user too (a battle's players, a campaign's new member, a
        # machine's owner: a mention or "player N" in the Details kept for the button, or the id in
        # the options typed): those buttons go as well (they would expire within 48 hours anyway).
        uid = int(user_id)
        named = [f"%<@{uid}>%", f"%<@!{uid}>%", f"%player {uid}%"]
        typed = [f"%<@{uid}>%", f'%"{uid}"%', f"%: {uid},%", f"%: {uid}}}%"]
        buttons += actions.erase(db, " OR ".join(["details LIKE ?"] * len(named) + ["options LIKE ?"] * len(typed)),
                                 (*named, *typed))
        armies = _delete(db, "DELETE FROM armies WHERE user_id = ?", (user_id,))
        unnamed = sum(
            _delete(db, f"UPDATE {table} SET {column} = NULL WHERE {column} = ?", (user_id,))
            for table, column in (("settings", "updated_by"), ("campaigns", "created_by"),
                                  ("battles", "started_by"), ("battles", "turn_asked_by"), ("machines", "added_by"))
        )
    return Forgotten(memberships, places, machines, shots, buttons, unnamed, kept, armies)


_CHANNEL_CHAIN = re.compile(r"^channel:(\d+):(\d+)$")


def guild_channels(store: Store, guild_id: int) -> set[int]:
    """The channels of `guild_id` the store knows of: its settings, battles, buttons and roll logs
    (a siege is kept by channel alone, so a purge finds its channels through these)."""
    channels = {r["channel_id"] for r in store.read(
        "SELECT channel_id FROM settings WHERE guild_id = ? AND channel_id != 0 "
        "UNION SELECT channel_id FROM battles WHERE guild_id = ? "
        "UNION SELECT channel_id FROM reply_actions WHERE guild_id = ?", (guild_id, guild_id, guild_id))}
    for r in store.read("SELECT DISTINCT chain FROM roll_chains WHERE chain LIKE ?", (f"channel:{guild_id}:%",)):
        m = _CHANNEL_CHAIN.match(r["chain"])
        if m and int(m.group(1)) == guild_id:
            channels.add(int(m.group(2)))
    return {c for c in channels if c is not None}


def purge_guild(store: Store, guild_id: int, channel_ids: Iterable[int] = ()) -> Purged:
    """Deletes everything the store holds for one server: settings, campaigns, battles, rosters,
    shots, buttons, the sieges of its channels (those known to the store, and `channel_ids`, the
    channels Discord lists) and its roll logs (its channels' and its battles', whole); one
    transaction."""
    with store.transaction() as db:
        channels = guild_channels(store, guild_id) | {int(c) for c in channel_ids}
        battles = [r[0] for r in db.execute("SELECT id FROM battles WHERE guild_id = ?", (guild_id,)).fetchall()]
        chains = [f"battle:{b}" for b in battles] + [
            r[0] for r in db.execute("SELECT DISTINCT chain FROM roll_chains WHERE chain LIKE ?",
                                     (f"channel:{guild_id}:%",)).fetchall()
            if (m := _CHANNEL_CHAIN.match(r[0])) and int(m.group(1)) == guild_id
        ]
        entries = logs = 0
        for chain in chains:
            entries += _delete(db, "DELETE FROM roll_entries WHERE chain = ?", (chain,))
            logs += _delete(db, "DELETE FROM roll_chains WHERE chain = ?", (chain,))
            _delete(db, "DELETE FROM roll_undelivered WHERE chain = ?", (chain,))
        sections = sum(_delete(db, "DELETE FROM siege_sections WHERE channel_id = ?", (c,)) for c in sorted(channels))
        shots = _delete(db, "DELETE FROM shots WHERE guild_id = ?", (guild_id,))
        shots += _delete(db, "DELETE FROM siege_events WHERE guild_id = ?", (guild_id,))
        _delete(db, "DELETE FROM battle_players WHERE guild_id = ?", (guild_id,))
        _delete(db, "DELETE FROM machine_marks WHERE guild_id = ?", (guild_id,))
        battle_rows = _delete(db, "DELETE FROM battles WHERE guild_id = ?", (guild_id,))
        _delete(db, "DELETE FROM campaign_members WHERE guild_id = ?", (guild_id,))
        campaign_rows = _delete(db, "DELETE FROM campaigns WHERE guild_id = ?", (guild_id,))
        machines = _delete(db, "DELETE FROM machines WHERE guild_id = ?", (guild_id,))
        buttons = _delete(db, "DELETE FROM reply_actions WHERE guild_id = ?", (guild_id,))
        _delete(db, "DELETE FROM erased_actions WHERE guild_id = ?", (guild_id,))
        settings = _delete(db, "DELETE FROM settings WHERE guild_id = ?", (guild_id,))
        armies = _delete(db, "DELETE FROM armies WHERE guild_id = ?", (guild_id,))
    return Purged(settings, campaign_rows, battle_rows, machines, shots, buttons, sections, logs, entries, armies)
