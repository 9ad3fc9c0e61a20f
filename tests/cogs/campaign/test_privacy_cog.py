"""/settings forget-me and /settings purge-server through the command callbacks, with the
permissions Discord would give (the console's stand-in interaction with a user, server, channel,
roles and permissions): who may, what goes, what stays and what the reply says."""

import json
from types import SimpleNamespace

import discord
import pytest

from bot import create_bot
from cogs.common.dice_source import call_command
from cogs.common.replies import ERROR_KEY, FAILURE_KEY, REPLY_KEY
from config.settings import Settings
from console import offline as console
from engine.ledger import verify
from storage import campaigns, roll_log, sieges

GM_ROLE = 555
ALICE, BOB, CAROL = 1001, 1002, 1003
GUILD, OTHER_GUILD = 7, 8
CHANNEL, OTHER_CHANNEL = 70, 80


@pytest.fixture
async def bot(tmp_path, database):
    """The bot with every cog, its store on each backend in turn (SQLite, then PostgreSQL)."""
    bot = create_bot(Settings(data_dir=tmp_path, database=database, sync_commands=False, dice_seed=5))
    await bot.load_cogs()
    yield bot
    await bot.close()


async def run(bot, line, *, user=ALICE, guild=GUILD, channel=CHANNEL, roles=(), manager=False):
    perms = discord.Permissions.all() if manager else discord.Permissions(send_messages=True)
    return await console.invoke(bot, line, user_id=user, guild_id=guild, channel_id=channel, roles=roles,
                                permissions=perms)


async def ok(bot, line, **who):
    i = await run(bot, line, **who)
    assert ERROR_KEY not in i.extras and FAILURE_KEY not in i.extras, i.extras
    return i


async def refused(bot, line, **who) -> str:
    i = await run(bot, line, **who)
    assert REPLY_KEY not in i.extras and FAILURE_KEY not in i.extras
    assert i.sent[-1]["ephemeral"] is True
    return i.extras[ERROR_KEY]


async def a_table(bot, guild=GUILD, channel=CHANNEL):
    """Carol manages the server; Alice is the GM; Bob plays; both fire in a battle; a siege."""
    where = {"guild": guild, "channel": channel}
    await ok(bot, f"/settings gm-role role:{GM_ROLE}", user=CAROL, manager=True, **where)
    await ok(bot, '/campaign create name:"Border Wars"', roles=(GM_ROLE,), **where)
    await ok(bot, '/campaign join name:"Border Wars"', user=BOB, **where)
    await ok(bot, '/machine add name:"Old Betsy" kind:cannon', **where)
    await ok(bot, '/machine add name:"Thunder" kind:cannon', user=BOB, **where)
    await ok(bot, '/roll expression:"2d6"', user=BOB, **where)  # the channel's log
    await ok(bot, '/battle start campaign:"Border Wars"', roles=(GM_ROLE,), **where)
    await ok(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"H 4 8"', **where)
    await ok(bot, '/fire cannon distance:30 machine:"Thunder" dice:"H 4 6"', user=BOB, **where)
    await ok(bot, '/siege structure kind:wall section:north hits:1 dice:"3"', **where)


def tables(store) -> dict[str, list[dict]]:
    """Every row of every table, in an order both backends give (sorted, not by SQLite's rowid)."""
    return {t: sorted(store.read(f"SELECT * FROM {t}"), key=lambda r: repr(sorted(r.items()))) for t in store.tables()}


# -- /settings forget-me ---------------------------------------------------------------------------
async def test_forget_me_deletes_the_callers_data_and_says_what_stays_and_why(bot):
    await a_table(bot)
    await a_table(bot, OTHER_GUILD, OTHER_CHANNEL)

    i = await ok(bot, "/settings forget-me", user=BOB)

    assert i.sent[-1]["ephemeral"] is True  # answered to Bob alone
    reply = i.extras[REPLY_KEY]
    assert reply.fields["forgotten"] == {"memberships": 2, "battle_places": 2, "machines": 2, "shots": 2,
                                         "buttons": 8, "unnamed": 0, "kept_log_entries": 4, "armies": 0}
    text = "\n".join(reply.summary)
    assert "Deleted, in every server: 2 campaign memberships, 2 places in battles, 2 war machines" in text
    assert "Kept: your 4 roll log entries. The roll log is sealed evidence" in text
    for guild in (GUILD, OTHER_GUILD):
        assert [m.name for m in campaigns.machines(bot.store, guild)] == ["Old Betsy"]
        assert campaigns.get_campaign(bot.store, guild, "Border Wars").members == (ALICE,)
    # Bob's machine is gone; Alice's battle goes on; the battle's log still verifies at its end
    assert "Thunder" in await refused(bot, '/fire cannon distance:30 machine:"Thunder"', user=BOB)
    await ok(bot, "/battle turn", roles=(GM_ROLE,))
    end = (await ok(bot, "/battle end", roles=(GM_ROLE,))).extras[REPLY_KEY]
    rolls = next(json.loads(data) for name, data in end.attachments if name.endswith("-rolls.json"))
    assert verify(rolls).ok and str(BOB) in {e["user"] for e in rolls["entries"]}


async def test_forget_me_with_nothing_kept_says_so(bot):
    reply = (await ok(bot, "/settings forget-me", user=CAROL)).extras[REPLY_KEY]
    assert "Kept: nothing (you have no roll log entries)." in reply.summary
    assert reply.fields["forgotten"]["machines"] == 0


# -- /settings purge-server --------------------------------------------------------------------------
@pytest.mark.parametrize("who", [{"user": BOB}, {"user": ALICE, "roles": (GM_ROLE,)}], ids=["player", "gm"])
async def test_only_a_manager_may_purge_a_server(bot, who):
    await a_table(bot)
    before = tables(bot.store)
    message = await refused(bot, f"/settings purge-server confirm:{GUILD}", **who)
    assert message == "To delete everything the bot keeps for this server you need the Manage Server permission."
    assert tables(bot.store) == before


async def test_a_purge_needs_the_servers_name_or_id(bot):
    await a_table(bot)
    before = tables(bot.store)
    message = await refused(bot, f"/settings purge-server confirm:{OTHER_GUILD}", user=CAROL, manager=True)
    assert message == f"'{OTHER_GUILD}' is not this server: give its name or id ({GUILD}) to confirm. Nothing was deleted."
    assert tables(bot.store) == before


async def test_a_manager_purges_this_server_and_nothing_of_another(bot):
    await a_table(bot)
    await a_table(bot, OTHER_GUILD, OTHER_CHANNEL)
    other = {t: [r for r in rows if r.get("guild_id") == OTHER_GUILD] for t, rows in tables(bot.store).items()}

    i = await ok(bot, f"/settings purge-server confirm:{GUILD}", user=CAROL, manager=True)

    purged = i.extras[REPLY_KEY].fields["purged"]
    # shots: the two roster shots and the siege roll made during the battle (issue 18)
    assert purged == {"settings": 1, "campaigns": 1, "battles": 1, "machines": 2, "shots": 3, "buttons": 7,
                      "siege_sections": 1, "roll_logs": 2, "roll_entries": 4, "armies": 0, "total": 22}
    assert all(not r.get("guild_id") == GUILD for rows in tables(bot.store).values() for r in rows)
    assert {t: [r for r in rows if r.get("guild_id") == OTHER_GUILD] for t, rows in tables(bot.store).items()} == other
    assert sieges.sections(bot.store, CHANNEL) == [] and sieges.sections(bot.store, OTHER_CHANNEL)
    assert roll_log.current_chain(bot.store, roll_log.channel_chain(GUILD, CHANNEL)) is None
    # the server starts afresh
    assert "no battle in progress" in await refused(bot, "/battle status")
    shown = (await ok(bot, "/settings show")).extras[REPLY_KEY].fields["settings"]
    assert shown == {"game": "fantasy", "private_rolls": True, "gm_role_id": None, "turns": "players", "joining": "open",
                     "channel_overrides": []}


async def test_the_servers_name_confirms_and_discords_channels_are_purged_too(bot):
    """On Discord the interaction's guild has a name and its channels: a siege in a channel the
    store knows only by its id is found through them."""
    sieges.put_section(bot.store, 999, sieges.Section("gate", "gateway", True, 2, False))
    command, rest = console.find_command(bot.tree, ["/settings", "purge-server", "confirm:border  KEEP"])
    interaction = console.OfflineInteraction(bot, command, user_id=CAROL, guild_id=GUILD, channel_id=CHANNEL,
                                             permissions=discord.Permissions(manage_guild=True))
    interaction.guild = SimpleNamespace(id=GUILD, name="Border Keep", channels=[SimpleNamespace(id=999)], threads=[])
    await call_command(command, interaction, console.parse_options(command, rest))
    reply = interaction.extras[REPLY_KEY]
    assert reply.embed.title == "Everything the bot kept for Border Keep is deleted"
    assert reply.fields["purged"]["siege_sections"] == 1 and sieges.sections(bot.store, 999) == []


async def test_forget_me_works_outside_a_server_and_purge_server_does_not(bot):
    await a_table(bot)
    i = await ok(bot, "/settings forget-me", user=BOB, guild=None)
    assert i.extras[REPLY_KEY].fields["forgotten"]["machines"] == 1
    message = await refused(bot, "/settings purge-server confirm:x", user=CAROL, guild=None, manager=True)
    assert message.startswith("Campaigns, battles and rosters live in a server")
