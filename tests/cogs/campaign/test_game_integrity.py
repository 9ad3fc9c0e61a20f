"""Game integrity (issue 19, part 4): each way an ordinary member bent a campaign is refused through
the cogs, with real roles and permissions, and the refusal changes nothing.

The rules a fair group would want, as Bombardier enforces them:
- only a battle's players fire into it; joining is explicit (/battle join: anyone for a battle outside
  a campaign, the campaign's members for its battles) or the GM's call (/battle add);
- the turn moves when the GM says so, or when a player says so and no other player has to agree:
  with other players in the battle, one of them confirms (or the GM); /settings turns rule:gm leaves
  it to the GM alone. No player runs down their own machine's silence alone;
- repairing a machine is the GM's call, or its owner's between battles;
- campaigns may be by invitation (/settings joining rule:invite): the GM adds players.
"""

from cogs.common.replies import REPLY_KEY
from storage import campaigns
from tests.cogs.campaign.test_campaign_cog import (  # noqa: F401  (the bot fixture)
    ALICE, BOB, CAROL, CHANNEL, GM_ROLE, GUILD, bot, campaign_table, ok, refused, run,
)

DAVE = 1004


def state(bot):
    """Everything a refusal must leave as it was: the battle, the machines, the shots."""
    battle = campaigns.current_battle(bot.store, GUILD, CHANNEL)
    shots = campaigns.battle_shots(bot.store, GUILD, battle.id) if battle else []
    return battle, campaigns.machines(bot.store, GUILD), shots


async def test_a_member_cannot_fire_into_a_battle_they_do_not_play_in(bot):
    await campaign_table(bot)  # Alice and Bob play the Border Wars battle here
    await ok(bot, "/machine add name:Sneaky kind:cannon", user=CAROL)
    before = state(bot)
    message = await refused(bot, '/fire cannon distance:30 machine:Sneaky dice:"@0 M 3"', user=CAROL)
    assert message.startswith("You do not play in this battle")
    assert state(bot) == before and CAROL not in before[0].players
    # A campaign's battle takes its members only; the GM may add anyone.
    assert "join the campaign first" in await refused(bot, "/battle join", user=CAROL)
    assert "To add a player to a battle you need" in await refused(bot, f"/battle add player:{CAROL}", user=BOB)
    added = await ok(bot, f"/battle add player:{CAROL}", roles=(GM_ROLE,))
    assert added.fields["battle"]["players"] == [ALICE, BOB, CAROL]
    assert (await ok(bot, '/fire cannon distance:30 machine:Sneaky dice:"H 4 6"', user=CAROL)).fields["machine"]


async def test_a_battle_outside_a_campaign_is_joined_explicitly(bot):
    await ok(bot, "/battle start")  # Alice's skirmish
    await ok(bot, "/machine add name:Roller kind:cannon", user=DAVE)
    assert "You do not play in this battle" in await refused(bot, '/fire cannon distance:30 machine:Roller', user=DAVE)
    joined = await ok(bot, "/battle join", user=DAVE)
    assert joined.fields["battle"]["players"] == [ALICE, DAVE]
    assert "already play" in await refused(bot, "/battle join", user=DAVE)
    assert (await ok(bot, '/fire cannon distance:30 machine:Roller dice:"H 4 6"', user=DAVE)).fields["machine"]["turn"] == 1


async def test_a_player_cannot_skip_their_own_machines_silence_alone(bot):
    await campaign_table(bot)
    reply = await ok(bot, '/fire great-cannon distance:30 machine:Thunder dice:"@90 M 3"', user=BOB)
    assert reply.fields["machine"]["silent_until_turn"] == 3  # Malfunction: this turn and the next
    asked = await ok(bot, "/battle turn", user=BOB)
    assert asked.fields["battle"]["turn"] == 1 and "moving on when another player confirms" in asked.embed.title
    before = state(bot)
    assert "You already asked to move on from turn 1" in await refused(bot, "/battle turn", user=BOB)
    assert state(bot) == before
    assert (await ok(bot, "/battle turn")).fields["battle"]["turn"] == 2  # Alice confirms
    await ok(bot, "/battle turn", user=BOB)  # asks again on turn 2: still Alice's (or the GM's) call
    assert "cannot fire until turn 3" in await refused(bot, '/fire great-cannon distance:30 machine:Thunder', user=BOB)
    assert campaigns.battle_here(bot.store, GUILD, CHANNEL).turn == 2


async def test_two_confirmations_at_once_move_the_turn_on_once(bot):
    import asyncio

    await campaign_table(bot)
    await ok(bot, "/battle add player:%d" % CAROL, roles=(GM_ROLE,))
    await ok(bot, "/battle turn", user=BOB)
    done = await asyncio.gather(run(bot, "/battle turn"), run(bot, "/battle turn", user=CAROL))
    assert all(REPLY_KEY in i.extras for i in done)
    battle = campaigns.battle_here(bot.store, GUILD, CHANNEL)
    assert battle.turn == 2  # one confirmed; the other asked to move on from turn 2
    assert battle.turn_asked_by in (ALICE, CAROL)


async def test_a_player_alone_moves_on_and_the_gm_rule_leaves_turns_to_the_gm(bot):
    await ok(bot, "/battle start", user=DAVE)
    assert (await ok(bot, "/battle turn", user=DAVE)).fields["battle"]["turn"] == 2  # nobody else has to agree
    await ok(bot, "/settings turns rule:gm", user=CAROL, manager=True)
    assert "moves the turn on (/settings turns)" in await refused(bot, "/battle turn", user=DAVE)
    assert (await ok(bot, "/battle turn", manager=True, user=CAROL)).fields["battle"]["turn"] == 3
    shown = (await ok(bot, "/settings show")).fields["settings"]
    assert shown["turns"] == "gm" and shown["joining"] == "open"


async def test_repair_is_the_gms_or_between_battles(bot):
    await campaign_table(bot)
    await ok(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"@90 M 2"')  # Destroyed
    before = state(bot)
    message = await refused(bot, '/machine repair name:"Old Betsy"')
    assert "can be repaired between battles" in message and "The GM can repair it now" in message
    assert state(bot) == before
    await ok(bot, "/battle end", roles=(GM_ROLE,))
    repaired = await ok(bot, '/machine repair name:"Old Betsy"')
    assert repaired.fields["machine"]["status"] == "ready" and repaired.fields["machine"]["crew"] == 3


async def test_invitation_only_campaigns_take_players_the_gm_adds(bot):
    await ok(bot, f"/settings gm-role role:{GM_ROLE}", user=CAROL, manager=True)
    await ok(bot, "/settings joining rule:invite", user=CAROL, manager=True)
    await ok(bot, '/campaign create name:"Closed Circle"', roles=(GM_ROLE,))
    message = await refused(bot, '/campaign join name:"closed circle"', user=DAVE)
    assert "by invitation" in message and "/campaign add" in message
    assert "must be in it" in await refused(bot, '/battle start campaign:"Closed Circle"', user=DAVE)
    assert "To add a player to a campaign you need" in await refused(
        bot, f'/campaign add name:"Closed Circle" player:{DAVE}', user=BOB)
    added = await ok(bot, f'/campaign add name:"Closed Circle" player:{DAVE}', roles=(GM_ROLE,))
    assert DAVE in added.fields["campaign"]["members"]
    started = await ok(bot, '/battle start campaign:"Closed Circle"', user=DAVE)
    assert sorted(started.fields["battle"]["players"]) == [ALICE, DAVE]


# -- one command, one transaction (issue 19, part 3), through the cogs -------------------------
async def test_a_battle_end_that_fails_midway_leaves_the_battle_in_progress(bot, monkeypatch):
    from storage import roll_log

    await campaign_table(bot)
    await ok(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"H 4 6"')

    def crash(*a, **k):
        raise OSError("disk gone")

    monkeypatch.setattr(roll_log, "reveal", crash)
    i = await run(bot, "/battle end", roles=(GM_ROLE,))
    assert REPLY_KEY not in i.extras
    assert campaigns.current_battle(bot.store, GUILD, CHANNEL) is not None
    monkeypatch.undo()
    ended = await ok(bot, "/battle end", roles=(GM_ROLE,))
    assert ended.fields["roll_log"]["entries"] == 1 and ended.fields["roll_log"]["secret"]


async def test_the_gm_reveals_a_battle_that_missed_its_reveal(bot):
    await campaign_table(bot)
    await ok(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"H 4 6"')
    campaigns.end_battle(bot.store, GUILD, CHANNEL)  # ended as before the fix, then a crash
    assert "no battle in progress" in await refused(bot, "/battle end", roles=(GM_ROLE,))
    assert "To reveal a battle's roll log you need" in await refused(bot, "/battle reveal")
    revealed = await ok(bot, "/battle reveal", roles=(GM_ROLE,))
    assert revealed.fields["roll_log"]["entries"] == 1 and revealed.attachments[0][0].endswith("-rolls.json")
    assert "has its roll log revealed already" in await refused(bot, "/battle reveal battle:1", roles=(GM_ROLE,))


async def test_a_refused_roster_shot_logs_no_roll_and_changes_no_machine(bot):
    from storage import roll_log

    await campaign_table(bot)
    b = campaigns.battle_here(bot.store, GUILD, CHANNEL)
    await ok(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"@90 M 3"')  # Malfunction
    before = roll_log.export_log(bot.store, roll_log.battle_chain(b.id))["entries"]
    campaigns.next_turn(bot.store, GUILD, CHANNEL)
    assert "cannot fire until turn 3" in await refused(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"H 4 6"')
    assert roll_log.export_log(bot.store, roll_log.battle_chain(b.id))["entries"] == before
    assert len(campaigns.battle_shots(bot.store, GUILD, b.id)) == 1


async def test_a_logged_roll_whose_reply_cannot_be_sent_is_marked_not_delivered(bot, monkeypatch):
    from cogs.common import replies
    from storage import roll_log

    await campaign_table(bot)
    b = campaigns.battle_here(bot.store, GUILD, CHANNEL)

    real, calls = replies._send, []

    async def discord_refuses(*a, **k):  # the reply fails; the apology after it goes through
        calls.append(k)
        if len(calls) == 1:
            raise OSError("connection reset")
        return await real(*a, **k)

    monkeypatch.setattr(replies, "_send", discord_refuses)
    await run(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"H 4 6"')
    monkeypatch.undo()
    data = roll_log.export_log(bot.store, roll_log.battle_chain(b.id))
    assert [e["roll"] for e in data["entries"]] == [1] and data["undelivered"] == [1]
    assert len(campaigns.battle_shots(bot.store, GUILD, b.id)) == 1  # state and log committed together
    await ok(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"H 4 6"')
    assert roll_log.export_log(bot.store, roll_log.battle_chain(b.id))["undelivered"] == [1]


async def test_a_machine_taken_off_mid_battle_comes_back_as_the_battle_left_it(bot):
    """Issue 25, item 5: /machine remove then /machine add of the same name (or forget-me and adding it
    again) does not renew a destroyed or silenced machine while the battle lasts; after it, it does."""
    await campaign_table(bot)
    await ok(bot, '/fire great-cannon distance:30 machine:Thunder dice:"@0 M 1"', user=BOB)
    assert campaigns.get_machine(bot.store, GUILD, "Thunder").state == "destroyed"
    silenced = await ok(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"@90 M 3"')
    until = silenced.fields["machine"]["silent_until_turn"]
    await ok(bot, "/machine remove name:Thunder", user=BOB)
    await ok(bot, "/machine add name:Thunder kind:great-cannon crew:4", user=BOB)
    assert "is destroyed" in await refused(bot, '/fire great-cannon distance:30 machine:Thunder dice:"H 4 6"', user=BOB)
    await ok(bot, '/machine remove name:"Old Betsy"')
    await ok(bot, '/machine add name:"old  betsy" kind:cannon')  # the same name, however typed
    assert f"cannot fire until turn {until}" in await refused(bot, '/fire cannon distance:30 machine:"Old Betsy" dice:"H 4 6"')
    # forgetting the owner and adding it again: the same
    assert REPLY_KEY in (await run(bot, "/settings forget-me", user=BOB)).extras  # (answered privately)
    await ok(bot, '/campaign add name:"Border Wars" player:' + str(BOB), roles=(GM_ROLE,))
    await ok(bot, f"/battle add player:{BOB}", roles=(GM_ROLE,))
    await ok(bot, "/machine add name:Thunder kind:great-cannon", user=BOB)
    assert campaigns.get_machine(bot.store, GUILD, "Thunder").state == "destroyed"
    # the battle over, a machine added under the name is a new one
    await ok(bot, "/battle end", roles=(GM_ROLE,))
    await ok(bot, "/machine remove name:Thunder", user=BOB)
    assert campaigns.get_machine(bot.store, GUILD, (await ok(bot, "/machine add name:Thunder kind:great-cannon",
                                                             user=BOB)).fields["machine"]["name"]).state == "ok"


async def test_a_machine_taken_off_mid_battle_comes_back_with_no_more_crew_than_the_battle_left_it(bot):
    """T25's probe of item 5: a stone thrower Disabled (a crewman lost, 2 of 3 left), removed and added
    again typing a crew of 6, came back with 5 of 6: the battle's losses renewed by typing a bigger crew."""
    await campaign_table(bot)
    await ok(bot, "/machine add name:Rock kind:stone-thrower crew:3")
    hit = await ok(bot, '/fire stone-thrower distance:30 ranks:2 files:5 toughness:3 machine:Rock dice:"H M 2"')
    assert hit.fields["machine"]["crew"] == 2  # Disabled: a crewman caught in the mechanism
    await ok(bot, "/machine remove name:Rock")
    back = await ok(bot, "/machine add name:Rock kind:stone-thrower crew:6")
    assert back.fields["machine"]["crew"] == 2 and back.fields["machine"]["crew_max"] == 6
    assert campaigns.get_machine(bot.store, GUILD, "Rock").crew == 2
    await ok(bot, "/machine remove name:Rock")
    # a smaller crew typed: no fewer men than it had either (its 2 of 6 were not 4 lost from 2)
    assert (await ok(bot, "/machine add name:Rock kind:stone-thrower crew:2")).fields["machine"]["crew"] == 2
    await ok(bot, "/machine remove name:Rock")
    assert (await ok(bot, "/machine add name:Rock kind:stone-thrower crew:1")).fields["machine"]["crew"] == 1
    # the battle over, the name's losses are gone with it
    await ok(bot, "/battle end", roles=(GM_ROLE,))
    await ok(bot, "/machine remove name:Rock")
    assert (await ok(bot, "/machine add name:Rock kind:stone-thrower crew:6")).fields["machine"]["crew"] == 6
