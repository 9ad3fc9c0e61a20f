"""Campaigns, battles, war machine rosters and the shots fired in each battle.

Every table carries ``guild_id`` and every function takes it first and filters by it: a name, an
id or a channel from another server finds nothing, so nothing in one server can be read or
changed from another (and the guild id is the key a sharded store would partition on;
docs/architecture.md, "Scaling"). Every function that changes something is one :meth:`Store.transaction`.

Names (campaigns, machines) are matched without regard to case or surrounding spaces and are
unique per server. A channel has at most one battle in progress.

Machine state: ``ok``, ``destroyed``, or ``silenced`` (cannot fire before turn
``silent_until_turn`` of battle ``silent_battle_id``, for ``reason``). A silence belongs to the
battle it happened in: in a later battle the machine fires again. Turns count game turns (each
player's turn within one), so "this turn and your next" on turn 2 means it fires again on turn 4.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import RulesError
from storage import roll_log
from storage.database import Migration, Store

MAX_NAME = 40
"""Longest campaign or machine name, in characters."""
MAX_CREW = 20


class CampaignError(RulesError):
    """A campaign, battle or roster request that cannot be done; the message says why."""


# -- schema ------------------------------------------------------------------------------------
def _create(db) -> None:
    db["campaigns"].create(
        {"id": int, "guild_id": int, "name": str, "key": str, "created_by": int, "created_at": float}, pk="id",
    )
    db["campaigns"].create_index(["guild_id", "key"], unique=True)
    db["campaign_members"].create(
        {"campaign_id": int, "guild_id": int, "user_id": int, "joined_at": float},
        pk=("campaign_id", "user_id"), foreign_keys=[("campaign_id", "campaigns", "id")],
    )
    db["battles"].create(
        {"id": int, "guild_id": int, "channel_id": int, "campaign_id": int, "turn": int, "started_by": int,
         "started_at": float, "ended_at": float},
        pk="id", foreign_keys=[("campaign_id", "campaigns", "id")],
    )
    db.execute("CREATE UNIQUE INDEX battles_one_per_channel ON battles (guild_id, channel_id) WHERE ended_at IS NULL")
    db["battle_players"].create(
        {"battle_id": int, "guild_id": int, "user_id": int}, pk=("battle_id", "user_id"),
        foreign_keys=[("battle_id", "battles", "id")],
    )
    db["machines"].create(
        {"id": int, "guild_id": int, "name": str, "key": str, "kind": str, "game": str, "crew": int,
         "crew_max": int, "bs": int, "owner_id": int, "state": str, "silent_battle_id": int,
         "silent_until_turn": int, "reason": str, "added_by": int, "created_at": float},
        pk="id", defaults={"state": "ok"},
    )
    db["machines"].create_index(["guild_id", "key"], unique=True)
    db["shots"].create(
        {"id": int, "guild_id": int, "battle_id": int, "machine_id": int, "machine": str, "kind": str,
         "user_id": int, "turn": int, "fired": int, "hits": int, "outcome": str, "state_after": str, "at": float},
        pk="id", foreign_keys=[("battle_id", "battles", "id")],
    )
    db["shots"].create_index(["battle_id"])


def _turn_asks(db) -> None:
    # A player's request to move the turn on, waiting for another player (or the GM) to confirm it.
    db.execute("ALTER TABLE battles ADD COLUMN turn_asked_by INTEGER")
    db.execute("ALTER TABLE battles ADD COLUMN turn_asked_on INTEGER")


def _siege_events(db) -> None:
    # A siege battle's rolls (issue 18): each /siege roll made in a channel while a battle runs
    # there, with what it did to a kept fortress section.
    db["siege_events"].create(
        {"id": int, "guild_id": int, "battle_id": int, "user_id": int, "turn": int, "command": str, "section": str,
         "tokens_before": int, "tokens_after": int, "fell": str, "outcome": str, "at": float},
        pk="id", foreign_keys=[("battle_id", "battles", "id")],
    )
    db["siege_events"].create_index(["battle_id"])


def _shot_tally_index(db) -> None:
    # /battle status and /battle turn count a battle's shots and find its lost machines in SQL
    # (issue 15): one index answers both without reading the shots themselves.
    db.execute("CREATE INDEX shots_tally ON shots (battle_id, guild_id, state_after, machine, turn)")
    db.execute("CREATE INDEX siege_events_tally ON siege_events (battle_id, guild_id)")


MIGRATIONS = (Migration("campaigns-1", _create), Migration("campaigns-2", _turn_asks),
              Migration("campaigns-3-siege-events", _siege_events), Migration("campaigns-4-tally-index", _shot_tally_index))


# -- records -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Campaign:
    id: int
    guild_id: int
    name: str
    created_by: int
    members: tuple[int, ...]
    """User ids, in the order they joined."""


@dataclass(frozen=True, slots=True)
class Battle:
    id: int
    guild_id: int
    channel_id: int
    campaign: str | None
    """The campaign's name, or None for a battle outside any campaign."""
    turn: int
    started_by: int
    started_at: float
    ended_at: float | None
    players: tuple[int, ...]
    turn_asked_by: int | None = None
    """A player who asked to move on from :attr:`turn`, waiting for another player or the GM."""


@dataclass(frozen=True, slots=True)
class TurnAsk:
    """What ``/battle turn`` did: moved the battle on, or recorded a request awaiting confirmation."""

    battle: Battle
    moved: bool
    waiting_for: tuple[int, ...] = ()
    """The other players, any of whom (or the GM) can confirm a recorded request."""


@dataclass(frozen=True, slots=True)
class Machine:
    id: int
    guild_id: int
    name: str
    kind: str
    """``cannon``, ``great-cannon``, ``stone-thrower``, ``bolt-thrower``..."""
    game: str
    crew: int
    crew_max: int
    bs: int | None
    """The crew's best Ballistic Skill, when the owner gave it."""
    owner_id: int
    state: str
    """``ok``, ``destroyed`` or ``silenced``."""
    silent_battle_id: int | None
    silent_until_turn: int | None
    reason: str | None
    battle_turn: int | None = None
    """The current turn of the battle it was silenced in, while that battle is in progress."""

    def turn_now(self, battle: Battle | None = None) -> int | None:
        """The current turn of the battle it was silenced in (`battle`'s when that is the one)."""
        if battle is not None and battle.id == self.silent_battle_id:
            return battle.turn
        return self.battle_turn

    def silenced_in(self, battle: Battle | None = None) -> bool:
        """Whether it cannot fire now: the battle it was silenced in (`battle`, when that is the
        one given) is in progress and has not reached the turn it fires again."""
        turn = self.turn_now(battle)
        return self.state == "silenced" and turn is not None and turn < (self.silent_until_turn or 0)

    def status(self, battle: Battle | None = None) -> str:
        """Its state in words, as the roster and /battle status show it."""
        if self.state == "destroyed":
            return f"destroyed ({self.reason})" if self.reason else "destroyed"
        if self.silenced_in(battle):
            return f"{SILENCED_PREFIX}{self.silent_until_turn} ({self.reason})"
        return "ready"


@dataclass(frozen=True, slots=True)
class Effect:
    """What a shot did to the machine that fired it (from the misfire chart, if any)."""

    destroyed: bool = False
    silent_turns: int = 0
    """Turns it cannot fire, counting this one (1: fires again next turn)."""
    wounds: int = 0
    """Wounds to the machine: each removes a crew model."""
    reason: str | None = None
    """The chart row, e.g. ``Malfunction (Black Powder Misfire Chart 3)``."""


@dataclass(frozen=True, slots=True)
class SiegeEvent:
    """A /siege roll made during a battle: who, which command, and what it did to a section."""

    id: int
    battle_id: int
    user_id: int
    turn: int
    command: str
    section: str | None
    """The kept fortress section it tested or battered; None for a roll at no section."""
    tokens_before: int | None
    tokens_after: int | None
    fell: str | None
    """What fell, when it did ("the wall", "the gateway tower and its gate"); None when nothing."""
    outcome: str
    at: float


@dataclass(frozen=True, slots=True)
class Shot:
    id: int
    battle_id: int
    machine: str
    kind: str
    user_id: int
    turn: int
    fired: bool
    hits: int
    outcome: str
    state_after: str
    at: float


# -- names -------------------------------------------------------------------------------------
def name_key(name: str, what: str) -> tuple[str, str]:
    """A name as shown (spaces tidied) and as matched (lower case); refuses empty and overlong ones."""
    shown = " ".join(name.split())
    if not shown:
        raise CampaignError(f"Give the {what} a name.")
    if len(shown) > MAX_NAME:
        raise CampaignError(f"The {what} name '{shown[:MAX_NAME]}...' is {len(shown)} characters; keep it to {MAX_NAME}.")
    return shown, shown.lower()


# -- campaigns ---------------------------------------------------------------------------------
def create_campaign(store: Store, guild_id: int, name: str, *, by: int) -> Campaign:
    shown, key = name_key(name, "campaign")
    with store.transaction() as db:
        if db.execute("SELECT 1 FROM campaigns WHERE guild_id = ? AND key = ?", (guild_id, key)).fetchone():
            raise CampaignError(f"This server already has a campaign called '{shown}'; pick another name.")
        cid = db["campaigns"].insert(
            {"guild_id": guild_id, "name": shown, "key": key, "created_by": by, "created_at": time.time()}
        ).last_pk
        db["campaign_members"].insert({"campaign_id": cid, "guild_id": guild_id, "user_id": by, "joined_at": time.time()})
    return get_campaign(store, guild_id, shown)


def campaign_names(store: Store, guild_id: int) -> list[str]:
    return [r["name"] for r in store.read("SELECT name FROM campaigns WHERE guild_id = ? ORDER BY key", (guild_id,))]


def get_campaign(store: Store, guild_id: int, name: str) -> Campaign:
    """The campaign called `name` in this server; a clear refusal naming the known ones if none."""
    shown, key = name_key(name, "campaign")
    rows = store.read("SELECT * FROM campaigns WHERE guild_id = ? AND key = ?", (guild_id, key))
    if not rows:
        known = campaign_names(store, guild_id)
        listed = f" Campaigns here: {', '.join(known)}." if known else " Create one with /campaign create."
        raise CampaignError(f"There is no campaign called '{shown}' on this server.{listed}")
    row = rows[0]
    members = store.read(
        "SELECT user_id FROM campaign_members WHERE campaign_id = ? AND guild_id = ? ORDER BY joined_at, user_id",
        (row["id"], guild_id),
    )
    return Campaign(row["id"], guild_id, row["name"], row["created_by"], tuple(m["user_id"] for m in members))


def join_campaign(store: Store, guild_id: int, name: str, user_id: int, *, invited: bool = True) -> Campaign:
    """`user_id` joins the campaign: on their own word where campaigns are open (`invited` True), or
    added by the GM where they are by invitation (a player's own request is then refused)."""
    with store.transaction() as db:
        campaign = get_campaign(store, guild_id, name)
        if user_id in campaign.members:
            raise CampaignError(f"<@{user_id}> is already in the campaign '{campaign.name}'.")
        if not invited:
            raise CampaignError(f"Campaigns on this server are by invitation: ask the GM to add you to "
                                f"'{campaign.name}' (/campaign add).")
        db["campaign_members"].insert(
            {"campaign_id": campaign.id, "guild_id": guild_id, "user_id": user_id, "joined_at": time.time()}
        )
    return get_campaign(store, guild_id, name)


def leave_campaign(store: Store, guild_id: int, name: str, user_id: int) -> Campaign:
    with store.transaction() as db:
        campaign = get_campaign(store, guild_id, name)
        if user_id not in campaign.members:
            raise CampaignError(f"You are not in the campaign '{campaign.name}'.")
        db.execute("DELETE FROM campaign_members WHERE campaign_id = ? AND guild_id = ? AND user_id = ?",
                   (campaign.id, guild_id, user_id))
    return get_campaign(store, guild_id, name)


def campaign_battles(store: Store, guild_id: int, campaign_id: int) -> list[dict]:
    return store.read(
        "SELECT id, channel_id, turn, started_at, ended_at FROM battles WHERE guild_id = ? AND campaign_id = ? ORDER BY id",
        (guild_id, campaign_id),
    )


# -- battles -----------------------------------------------------------------------------------
def _battle(store: Store, row: dict) -> Battle:
    players = store.read("SELECT user_id FROM battle_players WHERE battle_id = ? ORDER BY rowid", (row["id"],))
    campaign = None
    if row["campaign_id"] is not None:
        campaign = store.read("SELECT name FROM campaigns WHERE id = ?", (row["campaign_id"],))[0]["name"]
    asked = row.get("turn_asked_by") if row.get("turn_asked_on") == row["turn"] else None
    return Battle(row["id"], row["guild_id"], row["channel_id"], campaign, row["turn"], row["started_by"],
                  row["started_at"], row["ended_at"], tuple(p["user_id"] for p in players), asked)


def current_battle(store: Store, guild_id: int, channel_id: int) -> Battle | None:
    rows = store.read("SELECT * FROM battles WHERE guild_id = ? AND channel_id = ? AND ended_at IS NULL",
                      (guild_id, channel_id))
    return _battle(store, rows[0]) if rows else None


def battle_here(store: Store, guild_id: int, channel_id: int) -> Battle:
    """The battle in progress in this channel, or a refusal saying how to start one."""
    battle = current_battle(store, guild_id, channel_id)
    if battle is None:
        raise CampaignError("There is no battle in progress in this channel: start one with /battle start.")
    return battle


def get_battle(store: Store, guild_id: int, battle_id: int) -> Battle:
    rows = store.read("SELECT * FROM battles WHERE guild_id = ? AND id = ?", (guild_id, battle_id))
    if not rows:
        raise CampaignError(f"There is no battle {battle_id} on this server.")
    return _battle(store, rows[0])


def start_battle(store: Store, guild_id: int, channel_id: int, *, by: int, campaign: str | None = None,
                 players: tuple[int, ...] = ()) -> Battle:
    with store.transaction() as db:
        if current_battle(store, guild_id, channel_id) is not None:
            raise CampaignError("A battle is already in progress in this channel: finish it with /battle end first.")
        campaign_id = get_campaign(store, guild_id, campaign).id if campaign else None
        bid = db["battles"].insert({
            "guild_id": guild_id, "channel_id": channel_id, "campaign_id": campaign_id, "turn": 1, "started_by": by,
            "started_at": time.time(), "ended_at": None,
        }).last_pk
        for user in dict.fromkeys((by, *players)):
            db["battle_players"].insert({"battle_id": bid, "guild_id": guild_id, "user_id": user})
    return get_battle(store, guild_id, bid)


def add_player(store: Store, guild_id: int, battle_id: int, user_id: int) -> None:
    """Make `user_id` a player of the battle (the GM's call, or after :func:`join_battle`'s checks)."""
    with store.transaction() as db:
        db.execute("INSERT OR IGNORE INTO battle_players (battle_id, guild_id, user_id) VALUES (?, ?, ?)",
                   (battle_id, guild_id, user_id))


def join_battle(store: Store, guild_id: int, channel_id: int, user_id: int) -> Battle:
    """A player joins this channel's battle on their own word: any member of the server for a battle
    outside a campaign, only the campaign's members for a campaign's battle (others ask the GM)."""
    with store.transaction():
        battle = battle_here(store, guild_id, channel_id)
        if user_id in battle.players:
            raise CampaignError("You already play in this battle.")
        if battle.campaign is not None and user_id not in get_campaign(store, guild_id, battle.campaign).members:
            raise CampaignError(f"This battle belongs to the campaign {battle.campaign}: join the campaign first, "
                                "or ask the GM to add you to the battle (/battle add).")
        add_player(store, guild_id, battle.id, user_id)
    return get_battle(store, guild_id, battle.id)


def next_turn(store: Store, guild_id: int, channel_id: int) -> Battle:
    """Advance this channel's battle by one turn (one UPDATE inside the transaction, so turns
    pressed at once each count). The GM's move; players go through :func:`ask_next_turn`."""
    with store.transaction() as db:
        battle = battle_here(store, guild_id, channel_id)
        db.execute("UPDATE battles SET turn = turn + 1, turn_asked_by = NULL, turn_asked_on = NULL "
                   "WHERE id = ? AND guild_id = ?", (battle.id, guild_id))
    return get_battle(store, guild_id, battle.id)


def ask_next_turn(store: Store, guild_id: int, channel_id: int, user_id: int) -> TurnAsk:
    """A player of the battle asks to move on. Alone in the battle, the turn moves at once. With
    other players, the first request is recorded and the turn moves when another player confirms
    it, so no player can run down their own machine's silence alone. All in one transaction; the
    confirming UPDATE names the request it confirms, so two confirmations at once move it once."""
    with store.transaction() as db:
        battle = battle_here(store, guild_id, channel_id)
        if user_id not in battle.players:
            raise CampaignError("Only the battle's players (or the GM) move the turn on: join it with /battle join.")
        others = tuple(p for p in battle.players if p != user_id)
        if not others:
            db.execute("UPDATE battles SET turn = turn + 1, turn_asked_by = NULL, turn_asked_on = NULL "
                       "WHERE id = ? AND guild_id = ?", (battle.id, guild_id))
            return TurnAsk(get_battle(store, guild_id, battle.id), moved=True)
        if battle.turn_asked_by == user_id:
            raise CampaignError(f"You already asked to move on from turn {battle.turn}: another player of this battle "
                                "(or the GM) confirms it with /battle turn.")
        if battle.turn_asked_by is not None:
            moved = db.execute(
                "UPDATE battles SET turn = turn + 1, turn_asked_by = NULL, turn_asked_on = NULL "
                "WHERE id = ? AND guild_id = ? AND turn = ? AND turn_asked_by = ?",
                (battle.id, guild_id, battle.turn, battle.turn_asked_by)).rowcount
            if moved:
                return TurnAsk(get_battle(store, guild_id, battle.id), moved=True)
        db.execute("UPDATE battles SET turn_asked_by = ?, turn_asked_on = turn WHERE id = ? AND guild_id = ?",
                   (user_id, battle.id, guild_id))
        return TurnAsk(get_battle(store, guild_id, battle.id), moved=False, waiting_for=others)


def battles_played(store: Store, guild_id: int, user_id: int) -> list[Battle]:
    """The battles in progress on this server that `user_id` plays in."""
    rows = store.read(
        "SELECT b.* FROM battles b JOIN battle_players p ON p.battle_id = b.id AND p.guild_id = b.guild_id "
        "WHERE b.guild_id = ? AND p.user_id = ? AND b.ended_at IS NULL ORDER BY b.id", (guild_id, user_id))
    return [_battle(store, r) for r in rows]


def start_battle_logged(store: Store, guild_id: int, channel_id: int, new_secret: Callable[[], bytes], *, by: int,
                        campaign: str | None = None, players: tuple[int, ...] = (),
                        log: Store | None = None) -> tuple[Battle, roll_log.Chain]:
    """Start a battle in this channel and open its roll log (the bot's commitment to the secret),
    in ONE transaction: a crash leaves either no battle or a battle with its committed log, never
    a battle whose players saw no commitment. `log` as for :func:`end_battle_revealed`."""
    log = store if log is None else log
    with store.transaction(), log.transaction():
        battle = start_battle(store, guild_id, channel_id, by=by, campaign=campaign, players=players)
        chain = roll_log.open_chain(log, roll_log.battle_chain(battle.id), new_secret)
    return battle, chain


def end_battle_revealed(store: Store, guild_id: int, channel_id: int, new_secret: Callable[[], bytes], *,
                        log: Store | None = None) -> tuple[Battle, roll_log.Reveal]:
    """End this channel's battle and reveal its roll log, in ONE transaction: a crash at any point
    leaves either the battle in progress with its log sealed, or the battle ended with its log
    revealed, never an ended battle whose log no command reaches. (A battle started before battles
    had logs gets its chain opened here, empty.) `log` is where the roll log lives when it is not
    `store` (the console's throwaway log under ``--seed``: two files, so not one transaction)."""
    log = store if log is None else log
    with store.transaction(), log.transaction():
        battle = end_battle(store, guild_id, channel_id)
        chain = roll_log.battle_chain(battle.id)
        roll_log.open_chain(log, chain, new_secret)
        revealed = roll_log.reveal(log, chain, new_secret, rotate=False)
    return battle, revealed


def unrevealed_battles(store: Store, guild_id: int, channel_id: int) -> list[Battle]:
    """Ended battles of this channel whose roll log was never revealed (a crash between the steps
    of /battle end before they were one transaction), newest first."""
    rows = store.read(
        "SELECT b.* FROM battles b JOIN roll_chains c ON c.chain = 'battle:' || b.id "
        "WHERE b.guild_id = ? AND b.channel_id = ? AND b.ended_at IS NOT NULL AND c.revealed_at IS NULL "
        "AND c.epoch = (SELECT MAX(epoch) FROM roll_chains WHERE chain = c.chain) ORDER BY b.id DESC",
        (guild_id, channel_id))
    return [_battle(store, r) for r in rows]


def reveal_ended_battle(store: Store, guild_id: int, channel_id: int, battle_id: int | None,
                        new_secret: Callable[[], bytes]) -> tuple[Battle, roll_log.Reveal]:
    """Reveal the log of an ended battle of this channel that missed its reveal (the newest one
    when `battle_id` is None), in one transaction."""
    with store.transaction():
        waiting = unrevealed_battles(store, guild_id, channel_id)
        if battle_id is not None:
            waiting = [b for b in waiting if b.id == battle_id]
        if not waiting:
            which = f"Battle {battle_id}" if battle_id is not None else "Every ended battle in this channel"
            raise CampaignError(f"{which} has its roll log revealed already (or is not this channel's).")
        battle = waiting[0]
        revealed = roll_log.reveal(store, roll_log.battle_chain(battle.id), new_secret, rotate=False)
    return battle, revealed


def end_battle(store: Store, guild_id: int, channel_id: int) -> Battle:
    with store.transaction() as db:
        battle = battle_here(store, guild_id, channel_id)
        db.execute("UPDATE battles SET ended_at = ? WHERE id = ? AND guild_id = ?", (time.time(), battle.id, guild_id))
    return get_battle(store, guild_id, battle.id)


SHOT_COLUMNS = "id, battle_id, machine, kind, user_id, turn, fired, hits, outcome, state_after, at"


def record_siege_event(store: Store, guild_id: int, channel_id: int, *, user_id: int, command: str,
                       section: str | None = None, tokens_before: int | None = None, tokens_after: int | None = None,
                       fell: str | None = None, outcome: str) -> SiegeEvent | None:
    """Count a /siege roll as a shot of the battle running in this channel (None when none runs).
    Only the battle's players shoot into it, as with the roster's machines."""
    with store.transaction() as db:
        battle = current_battle(store, guild_id, channel_id)
        if battle is None:
            return None
        if user_id not in battle.players:
            raise CampaignError(NOT_A_SIEGE_PLAYER)
        eid = db["siege_events"].insert({
            "guild_id": guild_id, "battle_id": battle.id, "user_id": user_id, "turn": battle.turn, "command": command,
            "section": section, "tokens_before": tokens_before, "tokens_after": tokens_after, "fell": fell,
            "outcome": outcome, "at": time.time(),
        }).last_pk
    return battle_siege_events(store, guild_id, battle.id, only=eid)[0]


def check_siege_roller(store: Store, guild_id: int | None, channel_id: int | None, user_id: int) -> None:
    """Refuse, before anything is rolled or kept, a /siege roll by someone who does not play in the
    battle running in this channel (see :func:`record_siege_event`)."""
    if guild_id is None or channel_id is None:
        return
    battle = current_battle(store, guild_id, channel_id)
    if battle is not None and user_id not in battle.players:
        raise CampaignError(NOT_A_SIEGE_PLAYER)


def battle_siege_events(store: Store, guild_id: int, battle_id: int, *, only: int | None = None) -> list[SiegeEvent]:
    """The battle's /siege rolls in order (or the one `only`)."""
    extra, params = ("AND id = ?", (guild_id, battle_id, only)) if only is not None else ("", (guild_id, battle_id))
    rows = store.read(f"SELECT {SIEGE_COLUMNS} FROM siege_events WHERE guild_id = ? AND battle_id = ? {extra} ORDER BY id",
                      params)
    return [SiegeEvent(**r) for r in rows]


SIEGE_COLUMNS = "id, battle_id, user_id, turn, command, section, tokens_before, tokens_after, fell, outcome, at"

NOT_A_SIEGE_PLAYER = ("A battle is being fought in this channel and you do not play in it, so your siege rolls "
                      "cannot count in it: join it with /battle join (a campaign's battle: its members), or ask "
                      "the GM to add you.")


@dataclass(frozen=True, slots=True)
class ShotTally:
    """A battle's shots as /battle status and /battle turn show them, counted in SQL rather than
    loaded (a battle may hold many thousands): how many, and the turn each machine was lost."""

    count: int
    lost_at: tuple[tuple[str, int], ...]
    """(machine, turn) for each machine a shot destroyed, by the first such turn."""
    silences: tuple[tuple[str, int, int], ...] = ()
    """(machine, turn, until) for each shot that left its machine unable to fire until a turn."""

    def __len__(self) -> int:
        return self.count


def shot_tally(store: Store, guild_id: int, battle_id: int) -> ShotTally:
    count = store.read("SELECT COUNT(*) AS n FROM shots WHERE battle_id = ? AND guild_id = ?",
                       (battle_id, guild_id))[0]["n"]
    # "destroyed..." as a range, so the index answers it (LIKE would read every shot)
    lost = store.read(
        "SELECT machine, MIN(turn) AS turn FROM shots WHERE battle_id = ? AND guild_id = ? "
        "AND state_after >= 'destroyed' AND state_after < 'destroyee' GROUP BY machine ORDER BY MIN(turn), machine",
        (battle_id, guild_id))
    silenced = store.read(
        "SELECT machine, turn, state_after FROM shots WHERE battle_id = ? AND guild_id = ? "
        "AND state_after >= ? AND state_after < ? ORDER BY turn, machine",
        (battle_id, guild_id, SILENCED_PREFIX, SILENCED_PREFIX[:-1] + chr(ord(SILENCED_PREFIX[-1]) + 1)))
    return ShotTally(count, tuple((r["machine"], r["turn"]) for r in lost), tuple(
        (r["machine"], r["turn"], until) for r in silenced if (until := silenced_until(r["state_after"])) is not None))


SILENCED_PREFIX = "cannot fire until turn "
"""How a shot's machine-after reads when it left the machine silenced (:meth:`Machine.status`)."""


def silenced_until(state_after: str) -> int | None:
    """The turn a shot's "cannot fire until turn N (...)" names, or None."""
    if not state_after.startswith(SILENCED_PREFIX):
        return None
    digits = state_after[len(SILENCED_PREFIX):].split(" ", 1)[0]
    return int(digits) if digits.isascii() and digits.isdigit() else None


def siege_tally(store: Store, guild_id: int, battle_id: int, last: int = 10) -> tuple[int, list[SiegeEvent]]:
    """How many /siege rolls the battle counted, and the `last` of them (for /battle status)."""
    count = store.read("SELECT COUNT(*) AS n FROM siege_events WHERE guild_id = ? AND battle_id = ?",
                       (guild_id, battle_id))[0]["n"]
    rows = store.read(f"SELECT {SIEGE_COLUMNS} FROM siege_events WHERE guild_id = ? AND battle_id = ? "
                      "ORDER BY id DESC LIMIT ?", (guild_id, battle_id, last))
    return count, [SiegeEvent(**r) for r in reversed(rows)]


def battle_shots(store: Store, guild_id: int, battle_id: int) -> list[Shot]:
    rows = store.read(
        f"SELECT {SHOT_COLUMNS} FROM shots WHERE guild_id = ? AND battle_id = ? ORDER BY id", (guild_id, battle_id),
    )
    return [Shot(**{**r, "fired": bool(r["fired"])}) for r in rows]


# -- war machines ------------------------------------------------------------------------------
MACHINE_SELECT = (
    "SELECT m.*, b.turn AS battle_turn FROM machines m "
    "LEFT JOIN battles b ON b.id = m.silent_battle_id AND b.guild_id = m.guild_id AND b.ended_at IS NULL "
)
"""A machine with the current turn of the battle it was silenced in (while that battle lasts)."""


def _machine(row: dict) -> Machine:
    return Machine(
        row["id"], row["guild_id"], row["name"], row["kind"], row["game"], row["crew"], row["crew_max"], row["bs"],
        row["owner_id"], row["state"], row["silent_battle_id"], row["silent_until_turn"], row["reason"],
        row.get("battle_turn"),
    )


def machines(store: Store, guild_id: int, *, owner_id: int | None = None, kinds: tuple[str, ...] = ()) -> list[Machine]:
    """This server's machines (one owner's, some kinds), by name."""
    sql, params = MACHINE_SELECT + "WHERE m.guild_id = ?", [guild_id]
    if owner_id is not None:
        sql += " AND m.owner_id = ?"
        params.append(owner_id)
    if kinds:
        sql += f" AND m.kind IN ({', '.join('?' * len(kinds))})"
        params.extend(kinds)
    return [_machine(r) for r in store.read(sql + " ORDER BY m.key", params)]


def get_machine(store: Store, guild_id: int, name: str) -> Machine:
    shown, key = name_key(name, "machine")
    rows = store.read(MACHINE_SELECT + "WHERE m.guild_id = ? AND m.key = ?", (guild_id, key))
    if not rows:
        raise CampaignError(f"There is no war machine called '{shown}' on this server: see /machine list.")
    return _machine(rows[0])


def add_machine(store: Store, guild_id: int, *, name: str, kind: str, game: str, crew: int, owner_id: int,
                by: int, bs: int | None = None) -> Machine:
    shown, key = name_key(name, "machine")
    if not 1 <= crew <= MAX_CREW:
        raise CampaignError(f"A crew of {crew} cannot be: give 1 to {MAX_CREW}.")
    with store.transaction() as db:
        if db.execute("SELECT 1 FROM machines WHERE guild_id = ? AND key = ?", (guild_id, key)).fetchone():
            raise CampaignError(f"This server already has a war machine called '{shown}'; pick another name.")
        db["machines"].insert({
            "guild_id": guild_id, "name": shown, "key": key, "kind": kind, "game": game, "crew": crew,
            "crew_max": crew, "bs": bs, "owner_id": owner_id, "state": "ok", "added_by": by, "created_at": time.time(),
        })
    return get_machine(store, guild_id, shown)


def remove_machine(store: Store, guild_id: int, name: str) -> Machine:
    with store.transaction() as db:
        machine = get_machine(store, guild_id, name)
        db.execute("DELETE FROM machines WHERE id = ? AND guild_id = ?", (machine.id, guild_id))
    return machine


def repair_machine(store: Store, guild_id: int, name: str, *, gm: bool = True) -> Machine:
    """Back to ready with its full crew: the GM's call at any time; its owner's only between
    battles (while the owner plays in no battle in progress on the server)."""
    with store.transaction() as db:
        machine = get_machine(store, guild_id, name)
        playing = [] if gm else battles_played(store, guild_id, machine.owner_id)
        if playing:
            b = playing[0]
            raise CampaignError(f"{machine.name} can be repaired between battles: its owner plays in the battle in "
                                f"<#{b.channel_id}> (turn {b.turn}). The GM can repair it now.")
        db.execute(
            "UPDATE machines SET state = 'ok', crew = crew_max, silent_battle_id = NULL, silent_until_turn = NULL, "
            "reason = NULL WHERE id = ? AND guild_id = ?", (machine.id, guild_id),
        )
    return get_machine(store, guild_id, name)


def refusal(machine: Machine, battle: Battle) -> str | None:
    """Why `machine` cannot fire now in `battle`, or None when it can."""
    if machine.state == "destroyed":
        why = f" ({machine.reason})" if machine.reason else ""
        return f"{machine.name} is destroyed{why} and cannot fire; /machine repair brings it back."
    if machine.silenced_in(battle):
        where = "" if battle.id == machine.silent_battle_id else " of the battle it was silenced in"
        return (f"{machine.name} cannot fire until turn {machine.silent_until_turn}{where} ({machine.reason}); "
                f"it is turn {machine.turn_now(battle)}{' there' if where else ''}.")
    return None


NOT_A_PLAYER = ("You do not play in this battle, so your war machines cannot fire into it: join it with "
                "/battle join (a campaign's battle: its members), or ask the GM to add you.")


def record_shot(store: Store, guild_id: int, battle_id: int, machine_id: int, *, user_id: int, kind: str,
                fired: bool, hits: int, outcome: str, effect: Effect) -> tuple[Machine, Shot]:
    """Apply `effect` to the machine and log the shot, in one transaction. The machine is read again
    inside it, so a shot that raced another is refused if that one silenced or destroyed it."""
    with store.transaction() as db:
        battle = get_battle(store, guild_id, battle_id)
        if battle.ended_at is not None:
            raise CampaignError("The battle ended before the shot was recorded; start a new one with /battle start.")
        rows = store.read(MACHINE_SELECT + "WHERE m.guild_id = ? AND m.id = ?", (guild_id, machine_id))
        if not rows:
            raise CampaignError("That war machine was removed from the roster before the shot was recorded.")
        machine = _machine(rows[0])
        why = refusal(machine, battle)
        if why:
            raise CampaignError(why)
        crew = max(0, machine.crew - effect.wounds)
        state, until, reason, silent_battle = machine.state, machine.silent_until_turn, machine.reason, machine.silent_battle_id
        if effect.destroyed:  # the crew go with their machine
            crew, state, until, reason, silent_battle = 0, "destroyed", None, effect.reason, None
        elif crew == 0:
            state, until, silent_battle = "destroyed", None, None
            reason = f"{effect.reason}: the last crewman fell" if effect.reason else "no crew left"
        elif effect.silent_turns:
            state, until, reason, silent_battle = "silenced", battle.turn + effect.silent_turns, effect.reason, battle.id
        db.execute(
            "UPDATE machines SET crew = ?, state = ?, silent_battle_id = ?, silent_until_turn = ?, reason = ? "
            "WHERE id = ? AND guild_id = ?", (crew, state, silent_battle, until, reason, machine.id, guild_id),
        )
        if user_id not in battle.players:
            raise CampaignError(NOT_A_PLAYER)
        after = _machine(store.read(MACHINE_SELECT + "WHERE m.id = ?", (machine.id,))[0])
        shot_id = db["shots"].insert({
            "guild_id": guild_id, "battle_id": battle.id, "machine_id": machine.id, "machine": machine.name,
            "kind": kind, "user_id": user_id, "turn": battle.turn, "fired": int(fired), "hits": hits,
            "outcome": outcome, "state_after": after.status(battle), "at": time.time(),
        }).last_pk
    row = store.read(f"SELECT {SHOT_COLUMNS} FROM shots WHERE guild_id = ? AND id = ?", (guild_id, shot_id))[0]
    return after, Shot(**{**row, "fired": bool(row["fired"])})
