"""Forgetting a user and purging a server (storage/privacy.py) on real SQLite files: what goes, what
stays, nothing of another user or server touched, the roll log still verifying, one transaction
each, and every column that holds a user id accounted for."""

import re

import pytest

from engine.dice import RandomDice
from engine.ledger import verify
from pathlib import Path

from engine.roster import read_roster
from storage import actions, armies, campaigns as c, privacy, roll_log, sieges
from storage.migrations import open_store
from storage.settings import change_settings, settings_for

ALICE, BOB = 1001, 1002
G1, G2 = 11, 22
CH1, CH2 = 110, 220


@pytest.fixture
def store(database):
    with open_store(database) as s:
        yield s


def secret():
    return b"s" * 32


def roll(store, chain, user):
    return roll_log.log_roll(store, chain, secret, lambda dice: dice.d6("test"), user=str(user), command="roll",
                             options={"expression": "1d6"}, record=lambda face: ((), [f"rolled {face}"]))


def a_server(store, guild, channel):
    """Alice runs a campaign with Bob in it; both have a machine and an army list; a battle with a shot
    each; a siege; buttons; rolls in the channel's log and the battle's."""
    change_settings(store, guild, None, by=ALICE, game="fantasy")
    c.create_campaign(store, guild, "Border Wars", by=ALICE)
    c.join_campaign(store, guild, "Border Wars", BOB)
    c.add_machine(store, guild, name="Old Betsy", kind="cannon", game="fantasy", crew=3, owner_id=ALICE, by=ALICE)
    c.add_machine(store, guild, name="Thunder", kind="cannon", game="fantasy", crew=3, owner_id=BOB, by=ALICE)
    roll(store, roll_log.channel_chain(guild, channel), BOB)
    battle = c.start_battle(store, guild, channel, by=ALICE, campaign="Border Wars", players=(BOB,))
    for name, user in (("Old Betsy", ALICE), ("Thunder", BOB)):
        m = c.get_machine(store, guild, name)
        c.record_shot(store, guild, battle.id, m.id, user_id=user, kind="cannon", fired=True, hits=1, outcome="hit",
                      effect=c.Effect())
        roll(store, f"battle:{battle.id}", user)
    sieges.put_section(store, channel, sieges.Section("gate", "gateway", True, 1, False))
    c.record_siege_event(store, guild, channel, user_id=BOB, command="siege structure", section="gate",
                         tokens_before=0, tokens_after=1, outcome="stands, 1 token")  # a siege roll in the battle
    for user in (ALICE, BOB):
        armies.save_army(store, guild, user, LIST)
        actions.remember(store, guild_id=guild, channel_id=channel, user_id=user, command="fire cannon",
                         options={"distance": 30}, dice=())
    return battle


LIST = read_roster((Path(__file__).resolve().parents[1] / "fixtures" / "army" / "warmaster.ros").read_bytes())


def count(store, table, where="1", params=()):
    return store.read(f"SELECT count(*) AS n FROM {table} WHERE {where}", params)[0]["n"]


def test_every_column_holding_a_user_id_is_known(store):
    """A new table or column with a user id must be forgotten too: name it in privacy.USER_COLUMNS
    (and docs/privacy.md)."""
    looks_like_a_user = re.compile(r"(^user$|user_id|_by$|owner|member|player)")
    found = {}
    for table in store.tables():
        for column in store.columns(table):
            if looks_like_a_user.search(column):
                found.setdefault(table, set()).add(column)
    assert found == {t: set(cols) for t, cols in privacy.USER_COLUMNS.items()}


def test_forgetting_a_user_removes_theirs_everywhere_and_keeps_the_rest(store):
    battles = [a_server(store, G1, CH1), a_server(store, G2, CH2)]
    before_logs = {chain: roll_log.export_log(store, chain) for chain in
                   [roll_log.channel_chain(G1, CH1), roll_log.channel_chain(G2, CH2), *(f"battle:{b.id}" for b in battles)]}

    forgotten = privacy.forget_user(store, BOB)

    assert forgotten == privacy.Forgotten(memberships=2, battle_places=2, machines=2, shots=4, buttons=2, unnamed=0,
                                          kept_log_entries=4, armies=2)
    for guild in (G1, G2):
        assert c.get_campaign(store, guild, "Border Wars").members == (ALICE,)
        assert [m.name for m in c.machines(store, guild)] == ["Old Betsy"]
        battle = c.current_battle(store, guild, CH1 if guild == G1 else CH2)
        assert battle.players == (ALICE,)
        assert [s.user_id for s in c.battle_shots(store, guild, battle.id)] == [ALICE]
    assert count(store, "reply_actions", "user_id = ?", (BOB,)) == 0
    assert count(store, "reply_actions", "user_id = ?", (ALICE,)) == 2
    # the roll log is untouched: every chain exports and verifies as before
    for chain, export in before_logs.items():
        assert roll_log.export_log(store, chain) == export
        roll_log.reveal(store, chain, secret)
        assert verify(roll_log.export_log(store, chain, 1)).ok
    assert count(store, "roll_entries", "user = ?", (str(BOB),)) == 4


def test_forgetting_the_maker_blanks_their_id_on_what_others_keep(store):
    a_server(store, G1, CH1)
    forgotten = privacy.forget_user(store, ALICE)
    # settings, the campaign and the battle stay; the machine she added for Bob stays, his
    assert forgotten.unnamed == 4 and forgotten.machines == 1
    assert settings_for(store, G1).game == "fantasy"
    assert c.get_campaign(store, G1, "Border Wars").created_by is None
    assert c.current_battle(store, G1, CH1).started_by is None
    assert [(m.name, m.owner_id) for m in c.machines(store, G1)] == [("Thunder", BOB)]
    for table, columns in privacy.USER_COLUMNS.items():
        for column in columns:
            if table != "roll_entries":
                assert count(store, table, f"{column} = ?", (ALICE,)) == 0, (table, column)


def test_purging_a_server_removes_all_of_it_and_nothing_of_another(store):
    a_server(store, G1, CH1)
    battle2 = a_server(store, G2, CH2)
    guild_tables = [t for t in privacy.USER_COLUMNS if "guild_id" in store.columns(t)]

    def other_server():
        def unordered(rows):
            return sorted(repr(sorted(r.items())) for r in rows)

        rows = {t: unordered(store.read(f"SELECT * FROM {t} WHERE guild_id = ?", (G2,))) for t in guild_tables}
        rows["roll_entries"] = unordered(store.read("SELECT * FROM roll_entries WHERE chain IN (?, ?)",
                                                    (roll_log.channel_chain(G2, CH2), f"battle:{battle2.id}")))
        return rows

    other_before = other_server()
    assert all(other_before.values())

    purged = privacy.purge_guild(store, G1)

    assert purged == privacy.Purged(settings=1, campaigns=1, battles=1, machines=2, shots=3, buttons=2,
                                    siege_sections=1, roll_logs=2, roll_entries=3, armies=2)
    for table in ("settings", "campaigns", "campaign_members", "battles", "battle_players", "machines", "shots",
                  "siege_events", "reply_actions", "armies"):
        assert count(store, table, "guild_id = ?", (G1,)) == 0, table
    assert sieges.sections(store, CH1) == [] and len(sieges.sections(store, CH2)) == 1
    assert count(store, "roll_chains", "chain LIKE ?", (f"channel:{G1}:%",)) == 0
    assert roll_log.export_log(store, roll_log.channel_chain(G2, CH2)) is not None
    assert c.get_campaign(store, G2, "Border Wars").members == (ALICE, BOB)
    assert other_server() == other_before  # the other server lost nothing


def test_a_purge_reaches_a_siege_in_a_channel_only_discord_lists(store):
    sieges.put_section(store, 999, sieges.Section("wall", "wall", False, 2, False))
    assert privacy.purge_guild(store, G1).siege_sections == 0
    assert privacy.purge_guild(store, G1, channel_ids=[999]).siege_sections == 1


@pytest.mark.parametrize("work", [lambda s: privacy.forget_user(s, BOB), lambda s: privacy.purge_guild(s, G1)],
                         ids=["forget", "purge"])
def test_each_is_one_transaction(store, monkeypatch, work):
    """A failure half-way (here, at the fourth statement) leaves every row as it was."""
    a_server(store, G1, CH1)
    tables = store.tables()

    def rows(t):
        return sorted(repr(sorted(r.items())) for r in store.read(f"SELECT * FROM {t}"))

    before = {t: rows(t) for t in tables}
    real, calls = privacy._delete, []

    def failing(db, sql, params=()):
        calls.append(sql)
        if len(calls) == 4:
            raise RuntimeError("killed half-way")
        return real(db, sql, params)

    monkeypatch.setattr(privacy, "_delete", failing)
    with pytest.raises(RuntimeError):
        work(store)
    assert {t: rows(t) for t in tables} == before
