"""Every rolling command in the roll log, through the console: /fire, /wm, /40k, /roll and a
"Resolve wounds" re-run in one honest export that verifies; tampering fails naming the entry;
battles commit at the start and reveal at the end; many commands at once; private rolls."""

import asyncio
import copy
import json
from pathlib import Path

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import create_bot
from cogs.common import buttons
from console import offline as console
from console.offline import OFFLINE_CHANNEL_ID, OFFLINE_GUILD_ID
from config.settings import Settings
from engine.ledger import verify
from storage import roll_log
from storage.actions import recall

CHANNEL = roll_log.channel_chain(OFFLINE_GUILD_ID, OFFLINE_CHANNEL_ID)

COMMANDS = [
    "/fire cannon distance:30",
    '/fire stone-thrower distance:30 dice:"@90"',
    "/wm cannon distance:40",
    "/siege structure kind:wall shots:3",
    "/40k penetrate strength:9 armour:12",
    '/roll expression:"2d6+1, 10d6>=5 r1, 1a 1s"',
    "/misfire chart:blackpowder",
    "/shoot shots:5 bs:3 strength:3 toughness:3",
]


async def reveal(bot, chain=CHANNEL):
    return roll_log.reveal(bot.store, chain, bot.new_secret).export


def through_json(data):
    return json.loads(json.dumps(data))


async def resolve_wounds(bot, first: console.OfflineInteraction, profile: dict[str, str]) -> console.OfflineInteraction:
    """Press the first result's "Resolve wounds" and submit the profile form, as Discord would."""
    view = first.sent[-1]["view"]
    custom_id = next(item.item.custom_id for item in view.children if "wounds" in item.item.custom_id)
    stored = recall(bot.store, custom_id.rsplit(":", 1)[1])
    again = console.OfflineInteraction(bot, first.command)
    await buttons.resolve_wounds(again, stored, profile)
    return again


@pytest.fixture
async def honest(bot, play):
    for line in COMMANDS:
        code, out = await play(line)
        assert code == 0, (line, out)
        assert out["log"]["chain"] == CHANNEL
    first = await console.invoke(bot, '/fire cannon distance:30 ranks:3 files:4 dice:"H 4 6"')
    again = await resolve_wounds(bot, first, {"toughness": "3", "wounds": "1", "save": "5", "ward": ""})
    reply = again.extras[console.REPLY_KEY]
    assert [d.by.value for d in reply.dice[:3]] == ["player"] * 3 and len(reply.dice) > 3
    return through_json(await reveal(bot))


def test_every_rolling_command_is_logged_and_the_export_verifies(honest):
    result = verify(honest)
    assert result.ok, result.report()
    commands = [e["command"] for e in honest["entries"]]
    assert commands == ["fire cannon", "fire stone-thrower", "wm cannon", "siege structure", "40k penetrate", "roll",
                        "misfire", "shoot", "fire cannon", "fire cannon"]
    replay = honest["entries"][-1]
    assert replay["options"]["replay_of"] == honest["entries"][-2]["roll"] and "dice" not in replay["options"]
    assert result.given_back == 3 and "given back to a re-run" in result.report()
    assert honest["entries"][1]["options"]["dice"] == "@90" and honest["entries"][1]["dice"][0]["by"] == "player"


from tests.engine.test_ledger import rehash  # noqa: E402  (a forger's repair of the chain, any version)


def test_a_changed_die_face_fails_naming_its_entry(honest):
    e = honest["entries"][2]  # /wm cannon
    i = next(i for i, d in enumerate(e["dice"]) if d["by"] == "bot" and d["die"] == "D6")
    e["dice"][i]["face"] = "6" if e["dice"][i]["face"] != "6" else "5"
    result = verify(copy.deepcopy(honest))
    assert not result.ok and result.failed_roll == e["roll"] and "changed after it was logged" in result.reason
    result = verify(rehash(honest, 2))
    assert not result.ok and result.failed_roll == e["roll"] and "the secret gives" in result.reason


def test_a_changed_option_fails_naming_its_entry(honest):
    honest["entries"][4]["options"]["armour"] = 11
    result = verify(honest)
    assert not result.ok and result.failed_roll == honest["entries"][4]["roll"]


def test_two_entries_swapped_fail_naming_the_entry(honest):
    e = honest["entries"]
    e[3], e[4] = e[4], e[3]
    result = verify(honest)
    assert not result.ok and result.failed_roll == e[3]["roll"] and "chain is broken" in result.reason


def test_a_changed_secret_fails(honest):
    honest["secret"] = bytes(32).hex()
    result = verify(honest)
    assert not result.ok and "does not match the commitment" in result.reason


def test_given_back_dice_must_be_the_first_runs(honest):
    replay = honest["entries"][-1]
    replay["dice"][0]["face"] = "@91"
    result = verify(rehash(honest, len(honest["entries"]) - 1))
    assert not result.ok and result.failed_roll == replay["roll"]
    assert f"marked as given back from roll {replay['options']['replay_of']}" in result.reason


async def test_a_refused_command_uses_no_number_and_one_that_failed_after_drawing_is_reported(bot, play):
    await play("/roll expression:1d6")
    for line in ('/fire cannon distance:30 dice:"H 4 6 6 6 6 6 6 6"', "/fire cannon distance:30 aim_rank:10",
                 "/fire fire-thrower distance:6 start:10"):
        code, _ = await play(line)  # refused before the bot drew a die: no number taken
        assert code == 2, line
    roll_log.next_roll(bot.store, CHANNEL, bot.new_secret)  # as a command failing after its first die would
    await play("/roll expression:1d6")
    result = verify(through_json(await reveal(bot)))
    assert result.ok and result.unused == (2,) and "drawn but not logged" in result.report()
    assert [e.number for e in roll_log.last_entries(bot.store, CHANNEL, 5)] == []  # the new epoch is empty


async def test_commands_with_no_dice_log_nothing(bot, play):
    for line in ("/log show", "/40k firing type:normal moved:6", "/rules term:cannon", "/siege army points:2000 side:attacker"):
        code, out = await play(line)
        assert code == 0 and out.get("log") is None, line
    assert roll_log.current_chain(bot.store, CHANNEL) is None


async def test_many_commands_at_once_in_one_channel_are_all_logged(bot):
    lines = [COMMANDS[i % len(COMMANDS)] for i in range(40)]
    done = await asyncio.gather(*(console.invoke(bot, line) for line in lines))
    assert all(console.REPLY_KEY in i.extras for i in done)
    data = through_json(await reveal(bot))
    assert sorted(e["roll"] for e in data["entries"]) == list(range(1, 41))
    result = verify(data)
    assert result.ok and result.entries == 40 and result.unused == ()


# ------------------------------------------------------------------------------------------ battles


async def test_a_battle_commits_at_its_start_and_reveals_at_its_end(bot, play, tmp_path, capsys):
    await play("/roll expression:1d6")  # the channel's chain, before the battle
    code, start = await play("/battle start")
    chain = start["roll_log"]["chain"]
    assert code == 0 and chain == f"battle:{start['battle']['id']}"
    assert any(start["roll_log"]["commitment"] in line for line in start["summary"])
    for line in COMMANDS[:3]:
        code, out = await play(line)
        assert out["log"]["chain"] == chain and "commitment" not in out["log"]  # committed at the start
    code, shown = await play("/log show")
    assert shown["chain"] == chain and len(shown["entries"]) == 3
    code, out = await play("/log reveal")  # the battle's secret is /battle end's to disclose
    assert code == 2 and "/battle end" in out["error"]
    code, end = await play("/battle end")
    assert Path(next(f for f in end["files"] if f.endswith("-rolls.json"))).name in " ".join(end["summary"])
    assert code == 0 and end["roll_log"]["entries"] == 3
    path = next(f for f in end["files"] if f.endswith("-rolls.json"))
    data = json.loads(Path(path).read_text())
    assert data["chain"] == chain and data["commitment"] == start["roll_log"]["commitment"]
    assert data["secret"] == end["roll_log"]["secret"]
    import bot as bot_module

    assert bot_module.main(["verify", path]) == 0
    assert "3 entries checked" in capsys.readouterr().out
    code, out = await play("/roll expression:1d6")  # after the battle: the channel's chain again
    assert out["log"]["chain"] == CHANNEL and out["log"]["roll"] == 2


# -------------------------------------------------------------------------------------- private rolls


async def test_a_private_roll_is_ephemeral_and_logged_marked_private(bot):
    rolled = await console.invoke(bot, "/fire cannon distance:30 private:true")
    assert rolled.sent[-1]["ephemeral"] is True
    public = await console.invoke(bot, "/roll expression:1d6")
    assert not public.sent[-1].get("ephemeral")
    entries = roll_log.last_entries(bot.store, CHANNEL, 5)
    assert entries[0].command == "fire cannon" and dict(entries[0].options)["private"] is True
    # /log show: the roller and managers see the result; another player sees that it happened
    mine = (await console.invoke(bot, "/log show")).extras[console.REPLY_KEY]
    assert mine.fields["entries"][0]["summary"] == list(entries[0].summary)
    player = discord.Permissions.none()
    theirs = (await console.invoke(bot, "/log show", user_id=101, permissions=player)).extras[console.REPLY_KEY]
    assert theirs.fields["entries"][0] == {"roll": 1, "time": entries[0].time, "user": "100", "command": "fire cannon",
                                           "private": True, "hash": entries[0].hash}
    assert "a private roll" in theirs.summary[1] and entries[0].summary[0] not in "\n".join(theirs.summary)
    assert theirs.fields["entries"][1]["summary"] == list(entries[1].summary)
    # the export has it in full
    data = roll_log.export_log(bot.store, CHANNEL)
    assert data["entries"][0]["summary"] == list(entries[0].summary)


async def test_the_gm_role_sees_private_results(bot, play):
    await play("/settings gm-role role:555")
    await console.invoke(bot, "/roll expression:1d6 private:true", user_id=102, permissions=discord.Permissions.none())
    gm = (await console.invoke(bot, "/log show", user_id=101, roles=(555,), permissions=discord.Permissions.none()))
    assert "summary" in gm.extras[console.REPLY_KEY].fields["entries"][0]


async def test_private_rolls_refused_where_the_channel_does_not_allow_them(bot, play):
    await play("/settings private-rolls allowed:false scope:channel")
    code, out = await play("/fire cannon distance:30 private:true")
    assert code == 2 and "/settings private-rolls allowed:true" in out["error"]
    assert roll_log.current_chain(bot.store, CHANNEL) is None  # refused before drawing: no number used
    code, out = await play("/fire cannon distance:30")
    assert code == 0 and out["log"]["roll"] == 1


async def test_the_commitment_shows_with_the_first_entry_even_when_the_first_draw_failed(bot, play):
    code, _ = await play('/roll expression:"2d6+x"')  # refused before drawing: no number used
    assert code == 2
    code, _ = await play('/roll expression:1d6 dice:"3 4"')  # a face left over: no bot die drawn either
    assert code == 2
    roll_log.next_roll(bot.store, CHANNEL, bot.new_secret)  # a first draw whose command then failed
    code, out = await play("/roll expression:1d6")
    assert out["log"]["roll"] == 2 and "commitment" in out["log"]
    code, out = await play("/roll expression:1d6")
    assert "commitment" not in out["log"]


# ------------------------------------------------------------------------------------ the property

LINES = st.sampled_from(COMMANDS + ['/roll expression:"3d6kh1" dice:"2"', "/40k ordnance distance:30 strength:8 range:72", "/wm shoot attacks:4"])


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(LINES, min_size=1, max_size=6), seed=st.integers(0, 2**32))
def test_any_sequence_of_commands_replays_exactly_from_the_secret(tmp_path_factory, lines, seed):
    async def session():
        bot = create_bot(Settings(data_dir=tmp_path_factory.mktemp("p"), sync_commands=False, dice_seed=seed))
        await bot.load_cogs()
        shown = []
        for line in lines:
            interaction = await console.invoke(bot, line)
            reply = interaction.extras.get(console.REPLY_KEY)
            if reply is not None:
                shown.append([(d.die, d.face, d.by.value) for d in reply.dice])
        data = through_json(await reveal(bot))
        await bot.close()
        return shown, data

    shown, data = asyncio.run(session())
    assert [[(d["die"], d["face"], d["by"]) for d in e["dice"]] for e in data["entries"]] == shown
    result = verify(data)
    assert result.ok, result.report()


def test_a_reply_listing_its_bot_dice_otherwise_logs_the_draws():
    from cogs.common.ledger import logged_dice
    from engine.dice import EnteredDice, RandomDice, RecordingDice

    drawn = RecordingDice(RandomDice(5))
    source = EnteredDice("4", drawn)
    rolled = [source.d6("to hit"), source.d6("to wound"), source.d6("save")]
    assert logged_dice(tuple(rolled), drawn.rolled) == tuple(rolled)
    assert logged_dice((rolled[0],), drawn.rolled) == (rolled[0], *drawn.rolled)  # a bot die left out


async def test_a_chart_roll_finishing_a_players_misfire_is_logged_as_a_re_run_that_verifies(bot):
    first = await console.invoke(bot, '/fire cannon distance:30 dice:"H M"')
    assert first.extras[console.REPLY_KEY].awaits_chart
    view = first.sent[-1]["view"]
    custom_id = next(item.item.custom_id for item in view.children if ":chart:" in item.item.custom_id)
    again = console.OfflineInteraction(bot, first.command)
    await buttons.press(again, "chart", custom_id.rsplit(":", 1)[1])
    reply = again.extras[console.REPLY_KEY]
    assert [d.by.value for d in reply.dice] == ["player", "player", "bot"]
    assert not reply.awaits_chart and reply.fields["misfire"]["roll"] == reply.dice[2].value
    data = through_json(await reveal(bot))
    result = verify(data)
    assert result.ok, result.report()
    assert data["entries"][-1]["options"]["replay_of"] == data["entries"][-2]["roll"]
