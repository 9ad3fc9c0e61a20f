"""/fire through the real discord.py client and the Discord stand-in: the gateway handshake,
command sync (its limits: test_limits_e2e.py), the interaction callback with a file, ephemeral errors, load and a dropped
gateway connection."""

from __future__ import annotations

import asyncio
import io

from PIL import Image

from tests.e2e.standin import APP_ID
from cogs.common.replies import glance_name


def callback_for(payload):
    return lambda r: r.method == "POST" and r.path == f"/interactions/{payload['id']}/{payload['token']}/callback"


async def fire(standin, **options):
    payload = standin.slash("/fire cannon", **options)
    await standin.dispatch("INTERACTION_CREATE", payload)
    return await standin.wait_for(callback_for(payload))


async def test_login_syncs_the_command_tree_once(live_bot, standin):
    puts = [r for r in standin.requests if r.method == "PUT"]
    assert [r.path for r in puts] == [f"/applications/{APP_ID}/commands"]
    fire = next(c for c in standin.global_commands if c["name"] == "fire")
    assert {o["name"] for o in fire["options"]} >= {"cannon", "great-cannon"}


async def test_fire_cannon_answers_with_an_embed_and_a_png_that_decodes(live_bot, standin):
    call = await fire(standin, distance=30, ranks=4, files=5, dice="H 4 8")
    assert call.query.get("with_response") in ("1", "true")
    assert call.json["type"] == 4
    data = call.json["data"]
    (embed,) = data["embeds"]
    assert embed["title"].startswith('Direct hit on the marker, bounced 8": 4 models hit')
    # the landscape glance picture in the embed, the full diagram as its thumbnail (issue 30)
    assert embed["image"]["url"] == "attachment://cannon-glance.png"
    assert embed["thumbnail"]["url"] == "attachment://cannon.png"
    assert [a["filename"] for a in data["attachments"]] == ["cannon-glance.png", "cannon.png"]
    png = Image.open(io.BytesIO(call.files["cannon.png"]))
    assert png.format == "PNG" and png.width == 900
    glance = Image.open(io.BytesIO(call.files["cannon-glance.png"]))
    assert glance.width == 900 and glance.height <= 675 < png.height
    assert not data.get("flags", 0) & 64


async def test_a_bad_option_gets_an_ephemeral_sentence(live_bot, standin):
    call = await fire(standin, distance=30, dice="H 7")
    assert call.json["type"] == 4
    assert call.json["data"]["flags"] & 64
    assert "does not fit the artillery die" in call.json["data"]["content"]
    assert not call.files


async def test_twenty_interactions_at_once_are_all_answered(live_bot, standin):
    payloads = [standin.slash("/fire cannon", distance=12 + i, dice=f"H 4 {2 * (1 + i % 5)}") for i in range(20)]
    await asyncio.gather(*(standin.dispatch("INTERACTION_CREATE", p) for p in payloads))
    answers = await asyncio.gather(*(standin.answered(p, timeout=60) for p in payloads))
    # The work pool is bounded: the commands that queue for it defer at once and follow up.
    assert all(first.json["type"] in (4, 5) and "cannon.png" in final.files for first, final in answers)


async def test_a_dropped_gateway_connection_is_resumed_and_the_bot_keeps_answering(live_bot, standin):
    await standin.drop_connection()
    await asyncio.wait_for(standin.resumed.wait(), 20)
    call = await fire(standin, distance=24, dice="H 2 M")
    assert "no bounce" in call.json["data"]["embeds"][0]["title"]


async def test_a_429_with_retry_after_is_honoured(live_bot, standin):
    standin.fail("POST", r"/interactions/\d+/[^/]+/callback", 429, {"message": "slow down", "retry_after": 0.3, "global": False},
                 headers={"Via": "1.1 google", "Retry-After": "0.3"})
    payload = standin.slash("/fire cannon", distance=30, dice="H 4 8")
    loop = asyncio.get_running_loop()
    start = loop.time()
    await standin.dispatch("INTERACTION_CREATE", payload)
    first = await standin.wait_for(callback_for(payload))
    second = await standin.wait_for(lambda r: callback_for(payload)(r) and r is not first)
    assert loop.time() - start >= 0.3
    assert second.json["type"] == 4 and "cannon.png" in second.files


async def test_a_slow_command_defers_then_follows_up_through_a_500(live_bot, standin, monkeypatch):
    import sys

    import cogs.common.replies

    fire_module = sys.modules["cogs.fantasy.fire"]  # the module the bot loaded as its extension
    real = fire_module.render_cannon

    def slow_render(shot):
        import time

        time.sleep(0.4)
        return real(shot)

    monkeypatch.setattr(cogs.common.replies, "DEFER_AFTER", 0.05)
    monkeypatch.setattr(fire_module, "render_cannon", slow_render)
    standin.fail("POST", rf"/webhooks/{APP_ID}/[^/]+", 500, times=1)
    payload = standin.slash("/fire cannon", distance=30, dice="H 4 8")
    await standin.dispatch("INTERACTION_CREATE", payload)
    deferred = await standin.wait_for(callback_for(payload))
    assert deferred.json["type"] == 5 and not deferred.files
    followup = lambda r: r.method == "POST" and r.path == f"/webhooks/{APP_ID}/{payload['token']}"
    failed = await standin.wait_for(followup)
    sent = await standin.wait_for(lambda r: followup(r) and r is not failed, timeout=15)
    assert sent.json["embeds"][0]["title"].startswith("Direct hit")
    assert Image.open(io.BytesIO(sent.files["cannon.png"])).format == "PNG"
    # After the failed follow-up the bot still answers an ordinary command directly. The deadline
    # goes back up to one no render reaches, so a loaded machine cannot turn this into a deferral.
    monkeypatch.setattr(fire_module, "render_cannon", real)
    monkeypatch.setattr(cogs.common.replies, "DEFER_AFTER", 60.0)
    again = await fire(standin, distance=20, dice="H 2 2")
    assert again.json["type"] == 4


async def test_listed_guilds_get_the_commands_instead_of_a_global_sync(standin, tmp_path):
    from bot import create_bot
    from config.settings import Settings
    from tests.e2e.standin import GUILD_ID, start_client

    bot = create_bot(Settings(token="standin-token", data_dir=tmp_path, sync_guilds=(GUILD_ID,)))
    runner = await start_client(bot)
    try:
        assert [r.path for r in standin.requests if r.method == "PUT"] == [f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"]
        assert "fire" in [c["name"] for c in standin.guild_commands[GUILD_ID]]
        assert standin.global_commands == []
    finally:
        await bot.close()
        await asyncio.wait_for(runner, 10)


async def test_troop_autocomplete_answers_within_discords_limits(live_bot, standin):
    payload = standin.autocomplete("/fire cannon", "troop", distance=30, troop="mon")
    await standin.dispatch("INTERACTION_CREATE", payload)
    call = await standin.wait_for(callback_for(payload))
    assert call.json["type"] == 8
    choices = call.json["data"]["choices"]
    assert [c["value"] for c in choices] == ["monstrous-infantry", "monstrous-beast", "monstrous-cavalry", "monster"]
    assert len(choices) <= 25 and all(1 <= len(c["name"]) <= 100 for c in choices)


async def test_every_fire_command_answers_through_the_real_client(live_bot, standin):
    for command, options, attachment in [
        ("/fire great-cannon", {"distance": 40, "dice": "H 2 4"}, "great-cannon.png"),
        ("/fire stone-thrower", {"distance": 30, "dice": "H 4"}, "stone-thrower.png"),
        ("/fire bolt-thrower", {"distance": 20, "bs": 3, "dice": "6"}, "bolt-thrower.png"),
        ("/fire grapeshot", {"distance": 6, "bs": 3, "dice": "2 1 4 4 4"}, None),
        ("/misfire", {"chart": "stonethrower", "dice": "1"}, None),
        ("/fire fire-thrower", {"distance": 8, "dice": "4"}, "fire-thrower.png"),
        ("/shoot", {"shots": 2, "bs": 3, "strength": 4, "toughness": 3, "dice": "1 1"}, None),
        ("/breath", {"distance": 4, "strength": 4}, None),
        ("/combat strike-order", {"initiative": 4, "enemy_initiative": 4, "strikes": "first", "enemy_strikes": "first"}, None),
        ("/combat result", {"wounds": 2, "enemy_wounds": 1}, None),
    ]:
        payload = standin.slash(command, **options)
        await standin.dispatch("INTERACTION_CREATE", payload)
        call = await standin.wait_for(callback_for(payload))
        assert call.json["type"] == 4 and call.json["data"]["embeds"], command
        # a picture comes as its landscape glance (in the embed) and the full diagram (its thumbnail)
        assert list(call.files) == ([glance_name(attachment), attachment] if attachment else []), command
