"""/settings, /campaign, /battle, /machine and /fire ... machine: through the command callbacks with
a stand-in interaction (the console's, given a user, server, channel, roles and permissions): what
each sends, who is refused and why, isolation between servers, concurrency, restarts."""

import asyncio
import json

import discord
import pytest

from bot import create_bot
from console import offline as console
from cogs.common.replies import ERROR_KEY, FAILURE_KEY, REPLY_KEY
from config.settings import Settings
from storage import campaigns

GM_ROLE = 555
ALICE, BOB, CAROL = 1001, 1002, 1003
GUILD, OTHER_GUILD = 7, 8
CHANNEL = 70


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
    assert not i.sent[-1].get("ephemeral")
    return i.extras[REPLY_KEY]


async def refused(bot, line, **who) -> str:
    i = await run(bot, line, **who)
    assert REPLY_KEY not in i.extras and FAILURE_KEY not in i.extras
    assert i.sent[-1]["ephemeral"] is True
    return i.extras[ERROR_KEY]


async def campaign_table(bot):
    """Alice runs a campaign as GM (by role); Bob plays in it; both have a cannon."""
    await ok(bot, f"/settings gm-role role:{GM_ROLE}", user=CAROL, manager=True)
    await ok(bot, '/campaign create name:"Border Wars"', roles=(GM_ROLE,))
    await ok(bot, '/campaign join name:"border wars"', user=BOB)
    await ok(bot, '/machine add name:"Old Betsy" kind:cannon')
    await ok(bot, '/machine add name:"Thunder" kind:great-cannon crew:4', user=BOB)
    await ok(bot, '/battle start campaign:"Border Wars"', roles=(GM_ROLE,))


# -- /settings ---------------------------------------------------------------------------------
async def test_settings_need_manage_server_and_a_channel_overrides_the_server(bot):
    assert await refused(bot, "/settings game game:warmaster") == \
        "To change the bot's settings you need the Manage Server permission."
    reply = await ok(bot, "/settings game game:warmaster", manager=True)
    assert reply.fields["settings"]["game"] == "warmaster" and reply.system == "warmaster"
    await ok(bot, "/settings game game:40k scope:channel", manager=True)
    await ok(bot, "/settings private-rolls allowed:false", manager=True)
    here = (await ok(bot, "/settings show")).fields["settings"]
    assert here == {"game": "40k", "private_rolls": False, "gm_role_id": None, "turns": "players", "joining": "open",
                    "channel_overrides": ["game"]}
    elsewhere = (await ok(bot, "/settings show", channel=71)).fields["settings"]
    assert elsewhere["game"] == "warmaster"
    assert (await ok(bot, "/settings show", guild=OTHER_GUILD)).fields["settings"]["game"] == "fantasy"


async def test_the_gm_role_is_set_cleared_and_checked(bot):
    reply = await ok(bot, f"/settings gm-role role:<@&{GM_ROLE}>", manager=True)
    assert reply.fields["settings"]["gm_role_id"] == GM_ROLE
    assert await refused(bot, "/settings gm-role role:abc", manager=True) == "'abc' is not a role: mention one, or give its id."
    assert (await ok(bot, "/settings gm-role", manager=True)).fields["settings"]["gm_role_id"] is None


async def test_campaign_commands_refuse_direct_messages(bot):
    assert "in a server channel" in await refused(bot, "/campaign info name:x", guild=None)


# -- /campaign ---------------------------------------------------------------------------------
async def test_creating_a_campaign_needs_the_gm_role_or_manage_server(bot):
    message = await refused(bot, '/campaign create name:"Border Wars"')
    assert message == "To create a campaign you need the campaign GM role or the Manage Server permission."
    await ok(bot, f"/settings gm-role role:{GM_ROLE}", manager=True)
    assert f"<@&{GM_ROLE}>" in await refused(bot, '/campaign create name:"Border Wars"')
    reply = await ok(bot, '/campaign create name:"Border Wars"', roles=(GM_ROLE,))
    assert reply.fields["campaign"]["members"] == [ALICE]
    assert "already has a campaign" in await refused(bot, '/campaign create name:"border wars"', manager=True)
    assert "is 41 characters" in await refused(bot, f"/campaign create name:{'x' * 41}", manager=True)


async def test_join_info_leave(bot):
    await campaign_table(bot)
    info = (await ok(bot, '/campaign info name:"Border Wars"', user=CAROL)).fields["campaign"]
    assert info["members"] == [ALICE, BOB] and info["battles"] == 1
    assert {m["name"] for m in info["machines"]} == {"Old Betsy", "Thunder"}
    assert (await ok(bot, '/campaign leave name:"Border Wars"', user=BOB)).fields["campaign"]["members"] == [ALICE]
    assert "no campaign called 'Nowhere'" in await refused(bot, "/campaign join name:Nowhere")


async def test_nothing_in_one_server_is_seen_or_changed_from_another(bot):
    await campaign_table(bot)
    assert "no campaign called" in await refused(bot, '/campaign info name:"Border Wars"', guild=OTHER_GUILD)
    assert "no war machine called 'Old Betsy'" in await refused(
        bot, '/machine remove name:"Old Betsy"', guild=OTHER_GUILD, manager=True)
    assert "no battle in progress" in await refused(bot, "/battle turn", guild=OTHER_GUILD, manager=True)
    assert "no war machine" in await refused(
        bot, '/fire cannon distance:30 machine:"Old Betsy"', guild=OTHER_GUILD)
    assert (await ok(bot, "/machine list", guild=OTHER_GUILD)).fields["machines"] == []
    # the same names are free there
    await ok(bot, '/campaign create name:"Border Wars"', guild=OTHER_GUILD, manager=True)
    await ok(bot, '/machine add name:"Old Betsy" kind:cannon', guild=OTHER_GUILD)
    assert (await ok(bot, "/battle status")).fields["battle"]["turn"] == 1


# -- /machine ----------------------------------------------------------------------------------
async def test_rosters_add_list_remove_repair_with_permissions(bot):
    await campaign_table(bot)
    reply = await ok(bot, '/machine add name:"Rock Lobber" kind:stone-thrower bs:3', user=BOB)
    assert reply.fields["machine"] | {} == {**reply.fields["machine"], "crew": 3, "crew_max": 3, "bs": 3,
                                            "owner": BOB, "state": "ok", "status": "ready"}
    assert "already has a war machine called 'rock lobber'" in await refused(
        bot, '/machine add name:"rock lobber" kind:cannon')
    assert "To add a war machine to another player's roster you need" in await refused(
        bot, f"/machine add name:Gift kind:cannon owner:{BOB}")
    assert (await ok(bot, f"/machine add name:Gift kind:cannon owner:{BOB}", roles=(GM_ROLE,))).fields["machine"]["owner"] == BOB
    mine = (await ok(bot, f"/machine list owner:<@{BOB}>")).fields["machines"]
    assert [m["name"] for m in mine] == ["Gift", "Rock Lobber", "Thunder"]
    assert "Thunder belongs to <@1002>: to remove another player's war machine you need" in await refused(
        bot, "/machine remove name:Thunder")
    await ok(bot, "/machine remove name:Gift", roles=(GM_ROLE,))
    assert "Thunder can be repaired between battles: its owner plays in the battle in <#70> (turn 1)" in await refused(
        bot, "/machine repair name:Thunder", user=BOB)
    assert (await ok(bot, "/machine repair name:Thunder", roles=(GM_ROLE,))).fields["machine"]["status"] == "ready"
    assert "Give the machine a name" in await refused(bot, '/machine add name:" " kind:cannon')


async def test_machine_autocomplete_offers_only_the_callers_machines_of_that_kind(bot):
    await campaign_table(bot)
    await ok(bot, '/machine add name:"Big Bertha" kind:cannon', user=BOB)
    cmd = bot.tree.get_command("fire").get_command("cannon")
    i = console.OfflineInteraction(bot, cmd, user_id=BOB, guild_id=GUILD, channel_id=CHANNEL)
    choices = await cmd._params["machine"].autocomplete(i, "")
    assert [c.value for c in choices] == ["Big Bertha"]
    grape = bot.tree.get_command("fire").get_command("grapeshot")
    choices = await grape._params["machine"].autocomplete(i, "")
    assert [c.value for c in choices] == ["Big Bertha", "Thunder"]
    assert choices[0].name == "Big Bertha (ready)"


# -- /battle -----------------------------------------------------------------------------------
async def test_battle_start_turn_status_end_with_permissions(bot):
    await campaign_table(bot)
    assert "already in progress" in await refused(bot, "/battle start", manager=True)
    assert "Only the battle's players (or the GM) move the turn on" in await refused(bot, "/battle turn", user=CAROL)
    asked = await ok(bot, "/battle turn", user=BOB)  # Alice plays too: she (or the GM) confirms
    assert asked.fields["battle"]["turn"] == 1 and asked.fields["battle"]["turn_asked_by"] == BOB
    assert (await ok(bot, "/battle turn")).fields["battle"]["turn"] == 2
    status = await ok(bot, "/battle status", user=CAROL)
    assert status.fields["battle"]["players"] == [ALICE, BOB]
    assert {m["name"] for m in status.fields["machines"]} == {"Old Betsy", "Thunder"}
    assert status.image is not None and status.image.startswith(b"\x89PNG")
    assert "Only the player who started this battle" in await refused(bot, "/battle end", user=BOB)
    assert "must be in it" in await refused(bot, '/battle start campaign:"Border Wars"', user=CAROL, channel=71)


async def test_battle_end_posts_a_summary_a_markdown_report_and_a_json_export(bot):
    await campaign_table(bot)
    await ok(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"H 4 6"')
    await ok(bot, '/fire great-cannon distance:30 machine:Thunder dice:"@0 M 1"', user=BOB)
    await ok(bot, "/battle turn", roles=(GM_ROLE,))
    i = await run(bot, "/battle end", roles=(GM_ROLE,))
    reply = i.extras[REPLY_KEY]
    assert reply.fields["totals"] == {"turns": 2, "shots": 2, "hits": 4, "misfired": 1, "private_shots": 0,
                                      "machines_lost": ["Thunder"], "siege_rolls": 0, "sections_fallen": []}
    assert reply.summary[:3] == ("Battle over after 2 turns", "Turns: **2** · shots: **2** · hits: **4**",
                                 "War machines lost: Thunder")
    files = {f.filename: f.fp.read() for f in i.sent[-1]["files"]}
    md, export = files[f"battle-{GUILD}-1.md"].decode(), json.loads(files[f"battle-{GUILD}-1.json"])
    # People by the names the server shows ("player N" when the bot does not know it), never their ids;
    # the ids are in the JSON export.
    assert "| 2 | 1 | Thunder | /fire great-cannon | player 1 | 0 | Misfire!" in md and "War machines lost: Thunder" in md
    assert str(BOB) not in md and export["shots"][1]["user"] == BOB
    assert export["totals"]["machines_lost"] == ["Thunder"] and len(export["shots"]) == 2
    assert export["shots"][1]["machine_after"].startswith("destroyed (Destroyed, Black Powder Misfire Chart 1)")
    assert "no battle in progress" in await refused(bot, "/battle status")


# -- /fire ... machine: ------------------------------------------------------------------------
async def test_a_cannon_malfunctions_on_turn_2_is_refused_on_turn_3_and_fires_on_turn_4(bot):
    await campaign_table(bot)
    await ok(bot, "/battle turn", roles=(GM_ROLE,))
    reply = await ok(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"@90 M 3"')
    assert reply.fields["machine"]["silent_until_turn"] == 4 and reply.fields["machine"]["turn"] == 2
    field = next(f.value for f in reply.embed.fields if f.name == "War machine")
    assert "cannot fire until turn 4 (Malfunction, Black Powder Misfire Chart 3)" in field
    await ok(bot, "/battle turn", roles=(GM_ROLE,))
    message = await refused(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"H 4 6"')
    assert message == "Old Betsy cannot fire until turn 4 (Malfunction, Black Powder Misfire Chart 3); it is turn 3."
    await ok(bot, "/battle turn", roles=(GM_ROLE,))
    reply = await ok(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"H 4 6"')
    assert reply.fields["machine"]["status"] == "ready" and reply.embed.description.startswith("**Direct hit")
    shots = campaigns.battle_shots(bot.store, GUILD, 1)
    assert [(s.turn, s.fired, s.hits) for s in shots] == [(2, False, 0), (4, True, 4)]


async def test_may_not_shoot_fires_again_next_turn_and_destroyed_stays_destroyed(bot):
    await campaign_table(bot)
    reply = await ok(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"@90 M 5"')
    assert reply.fields["machine"]["silent_until_turn"] == 2
    await ok(bot, "/battle turn", roles=(GM_ROLE,))
    await ok(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"@90 M 2"')
    await ok(bot, "/battle turn", roles=(GM_ROLE,))
    assert await refused(bot, '/fire cannon distance:30 machine:"Old Betsy"') == (
        "Old Betsy is destroyed (Destroyed, Black Powder Misfire Chart 2) and cannot fire; /machine repair brings it back.")


async def test_a_disabled_stone_thrower_loses_crew_until_none_is_left(bot):
    await campaign_table(bot)
    await ok(bot, '/machine add name:Rocky kind:stone-thrower crew:2 bs:4')
    reply = await ok(bot, '/fire stone-thrower distance:30 machine:Rocky dice:"@0 M 2"')
    assert (reply.fields["machine"]["crew"], reply.fields["machine"]["silent_until_turn"]) == (1, 3)
    for _ in range(2):
        await ok(bot, "/battle turn", roles=(GM_ROLE,))
    reply = await ok(bot, '/fire stone-thrower distance:30 machine:Rocky dice:"@0 M 3"')
    assert reply.fields["machine"]["state"] == "destroyed" and reply.fields["machine"]["crew"] == 0
    assert "the last crewman fell" in reply.fields["machine"]["status"]


async def test_stored_bs_is_used_and_the_owner_alone_fires(bot):
    await campaign_table(bot)
    await ok(bot, '/machine add name:Skewer kind:bolt-thrower bs:4')
    reply = await ok(bot, '/fire bolt-thrower distance:20 machine:Skewer dice:"3"')
    assert reply.fields["to_hit"] == 3  # the stored BS 4 hits on 3+
    assert "needs bs" in await refused(bot, "/fire bolt-thrower distance:20")
    message = await refused(bot, '/fire bolt-thrower distance:20 machine:Skewer', user=BOB)
    assert message == "Skewer belongs to <@1001>: you can fire only your own war machines."
    assert "Old Betsy is a cannon; /fire stone-thrower needs a stone thrower." == await refused(
        bot, '/fire stone-thrower distance:30 machine:"Old Betsy"')
    assert "start one in this channel with /battle start" in await refused(
        bot, '/fire cannon distance:30 machine:"Old Betsy"', channel=71)


async def test_without_machine_fire_stays_stateless(bot):
    await campaign_table(bot)
    reply = await ok(bot, '/fire cannon distance:30 dice:"@90 M 1"')
    assert "machine" not in reply.fields
    assert campaigns.battle_shots(bot.store, GUILD, 1) == []


async def test_concurrent_turns_and_shots_on_one_battle_lose_no_update(bot):
    await campaign_table(bot)
    for n in range(10):
        await ok(bot, f"/machine add name:Gun{n} kind:cannon crew:5", user=BOB)
    turns = [run(bot, "/battle turn", user=BOB, roles=(GM_ROLE,)) for _ in range(15)]
    shots = [run(bot, f'/fire cannon distance:30 machine:Gun{n} dice:"@0 M 5"', user=BOB) for n in range(10)]
    done = await asyncio.gather(*turns, *shots)
    assert all(REPLY_KEY in i.extras for i in done)
    battle = campaigns.battle_here(bot.store, GUILD, CHANNEL)
    assert battle.turn == 16
    logged = campaigns.battle_shots(bot.store, GUILD, battle.id)
    assert sorted(s.machine for s in logged) == [f"Gun{n}" for n in range(10)]
    assert all(m.state == "silenced" for m in campaigns.machines(bot.store, GUILD, owner_id=BOB) if m.name.startswith("Gun"))


async def test_the_same_machine_fired_twice_at_once_is_silenced_once(bot):
    await campaign_table(bot)
    done = await asyncio.gather(*[run(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"@0 M 3"') for _ in range(6)])
    answered = [i for i in done if REPLY_KEY in i.extras]
    refusals = [i.extras[ERROR_KEY] for i in done if ERROR_KEY in i.extras]
    assert len(answered) >= 1 and len(answered) + len(refusals) == 6
    assert all("cannot fire until turn 3" in r for r in refusals)
    assert len(campaigns.battle_shots(bot.store, GUILD, 1)) == len(answered)


async def test_state_survives_a_restart_of_the_bot(tmp_path, database):
    settings = Settings(data_dir=tmp_path, database=database, sync_commands=False, dice_seed=5)
    first = create_bot(settings)
    await first.load_cogs()
    await campaign_table(first)
    await ok(first, '/fire cannon distance:30 machine:"Old Betsy" dice:"@90 M 3"')
    await first.close()
    second = create_bot(settings)
    await second.load_cogs()
    try:
        await ok(second, "/battle turn", roles=(GM_ROLE,))
        assert "until turn 3" in await refused(second, '/fire cannon distance:30 machine:"Old Betsy"')
        status = await ok(second, "/battle status")
        assert status.fields["battle"]["turn"] == 2 and status.fields["battle"]["campaign"] == "Border Wars"
    finally:
        await second.close()


async def test_grapeshot_is_fired_by_a_cannon_with_its_bs_and_its_misfire_silences_the_cannon(bot):
    await campaign_table(bot)
    await ok(bot, '/machine add name:Blunder kind:cannon bs:4')
    reply = await ok(bot, '/fire grapeshot distance:6 machine:Blunder dice:"2 1 3 3 3"')
    assert reply.fields["to_hit"] == 3 and reply.fields["hits"] == 3
    assert reply.fields["machine"]["status"] == "ready"
    reply = await ok(bot, '/fire grapeshot distance:6 machine:Blunder dice:"M 1 4"')
    assert reply.fields["machine"]["silent_until_turn"] == 3
    assert "until turn 3" in await refused(bot, "/fire cannon distance:30 machine:Blunder")
    shots = campaigns.battle_shots(bot.store, GUILD, 1)
    assert [(s.kind, s.hits, s.fired) for s in shots] == [("grapeshot", 3, True), ("grapeshot", 0, False)]


async def test_name_autocompletes_campaigns_and_owned_machines(bot):
    await campaign_table(bot)
    create = bot.tree.get_command("campaign").get_command("join")
    i = console.OfflineInteraction(bot, create, user_id=CAROL, guild_id=GUILD, channel_id=CHANNEL)
    assert [c.value for c in await create._params["name"].autocomplete(i, "bor")] == ["Border Wars"]
    i = console.OfflineInteraction(bot, create, user_id=CAROL, guild_id=OTHER_GUILD, channel_id=CHANNEL)
    assert await create._params["name"].autocomplete(i, "") == []
    repair = bot.tree.get_command("machine").get_command("repair")
    player = console.OfflineInteraction(bot, repair, user_id=BOB, guild_id=GUILD, channel_id=CHANNEL,
                                        permissions=discord.Permissions.none())
    assert [c.value for c in await repair._params["name"].autocomplete(player, "")] == ["Thunder"]
    gm = console.OfflineInteraction(bot, repair, user_id=CAROL, guild_id=GUILD, channel_id=CHANNEL, roles=(GM_ROLE,),
                                    permissions=discord.Permissions.none())
    assert [c.value for c in await repair._params["name"].autocomplete(gm, "")] == ["Old Betsy", "Thunder"]


async def test_a_misfire_waiting_for_the_players_chart_roll_leaves_the_machine_as_it_was(bot):
    await campaign_table(bot)
    waiting = await ok(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"H M"')
    assert waiting.awaits_chart and waiting.fields["machine"]["status"] == "awaiting chart roll"
    status = await ok(bot, "/battle status")
    assert next(m for m in status.fields["machines"] if m["name"] == "Old Betsy")["state"] == "ok"
    rolled = await ok(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"H M 3"')
    assert rolled.fields["machine"]["silent_until_turn"] == 3
# -- fortifications (Warmaster sieges) in a battle ---------------------------------------------
async def test_a_gate_takes_tokens_across_three_turns_and_falls(bot):
    """The issue's scenario: a gateway (12 structure points) is shot at on turns 1, 2 and 3 with
    entered dice; /battle status shows its Destruction Tokens after each round and the breach at the
    end, and the battle report lists it."""
    await campaign_table(bot)
    gate = '/siege structure kind:gateway section:"North Gate" hits:2'

    async def status(**who):
        reply = await ok(bot, "/battle status", **who)
        (fort,) = [f for f in reply.fields["fortifications"] if f["section"] == "north gate"]
        return reply, fort

    reply = await ok(bot, "/battle status")
    assert reply.fields["fortifications"] == [] and "Fortifications" not in [f.name for f in reply.embed.fields]

    # turn 1: 2 hits, two dice total 6: not over 12, the gate gains its first token
    test = (await ok(bot, f'{gate} dice:"3 3"')).fields["structure"]
    assert (test["dice_total"], test["destroyed"], test["tokens_after"]) == (6, False, 1)
    reply, fort = await status()
    assert reply.fields["battle"]["turn"] == 1
    assert fort == {"section": "north gate", "kind": "gateway", "gate": False, "structure_points": 12, "tokens": 1,
                    "breached": False}
    field = next(f.value for f in reply.embed.fields if f.name == "Fortifications")
    assert field == "**north gate** (Gateway, 12 structure points): 1 Destruction Token"

    # turn 2: 2 hits + 1 token = three dice, 12: still not over 12, a second token
    await ok(bot, "/battle turn", roles=(GM_ROLE,))
    test = (await ok(bot, f'{gate} dice:"4 4 4"')).fields["structure"]
    assert (test["tokens_before"], test["dice_total"], test["tokens_after"]) == (1, 12, 2)
    reply, fort = await status(user=BOB)
    assert reply.fields["battle"]["turn"] == 2 and (fort["tokens"], fort["breached"]) == (2, False)

    # turn 3: 2 hits + 2 tokens = four dice, 15 beats 12: the gate falls
    await ok(bot, "/battle turn", roles=(GM_ROLE,))
    test = (await ok(bot, f'{gate} dice:"3 4 4 4"')).fields["structure"]
    assert (test["tokens_before"], test["dice_total"], test["destroyed"]) == (2, 15, True)
    reply, fort = await status()
    assert reply.fields["battle"]["turn"] == 3 and fort["breached"] is True
    assert "**north gate** (Gateway, 12 structure points): breached" in reply.embed.fields[-1].value
    assert reply.image.startswith(b"\x89PNG")
    assert "already fallen" in await refused(bot, f'{gate} dice:"6 6"')

    i = await run(bot, "/battle end", roles=(GM_ROLE,))
    assert "Fortifications breached: 1 of 1 (north gate)" in i.extras[REPLY_KEY].summary
    files = {f.filename: f.fp.read() for f in i.sent[-1]["files"]}
    md, export = files[f"battle-{GUILD}-1.md"].decode(), json.loads(files[f"battle-{GUILD}-1.json"])
    assert "- Fortifications breached: north gate" in md
    assert "| north gate | Gateway | 12 | - | breached |" in md
    assert export["fortifications"] == [{"section": "north gate", "kind": "gateway", "gate": False,
                                         "structure_points": 12, "tokens": 0, "breached": True}]


async def test_status_shows_only_this_channels_siege(bot):
    await campaign_table(bot)
    await ok(bot, '/siege structure kind:wall section:"east wall" hits:1 dice:"1"', channel=71)
    await ok(bot, '/siege structure kind:gateway-tower gate:true section:gatehouse hits:1 dice:"2"')
    reply = await ok(bot, "/battle status")
    # The gate of the gateway tower "gatehouse" keeps its tokens as "gatehouse (gate)" (issue 16).
    assert reply.fields["fortifications"] == [{"section": "gatehouse (gate)", "kind": "gateway-tower", "gate": True,
                                               "structure_points": 12, "tokens": 1, "breached": False}]
    i = await run(bot, "/battle end", roles=(GM_ROLE,))
    md = {f.filename: f.fp.read() for f in i.sent[-1]["files"]}[f"battle-{GUILD}-1.md"].decode()
    assert "| gatehouse (gate) | Gateway tower gate | 12 | 1 | standing |" in md and "east wall" not in md
