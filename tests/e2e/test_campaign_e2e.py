"""/settings, /campaign, /battle, /machine and /fire ... machine: through the real discord.py client
and the Discord stand-in (permissions come from the interaction's member, as Discord sends them)."""

from __future__ import annotations

import io
import json

from PIL import Image

from tests.e2e.standin import USER_ID

MANAGE_GUILD = 1 << 5


def callback_for(payload):
    return lambda r: r.method == "POST" and r.path == f"/interactions/{payload['id']}/{payload['token']}/callback"


async def send(standin, command, *, manager=False, **options):
    payload = standin.slash(command, **options)
    if manager:
        payload["member"]["permissions"] = str(int(payload["member"]["permissions"]) | MANAGE_GUILD)
    await standin.dispatch("INTERACTION_CREATE", payload)
    return await standin.answer_as_callback(payload)  # (/battle end defers first: its follow-up)


def public(call):
    assert call.json["type"] == 4 and not call.json["data"].get("flags", 0) & 64, call.json
    return call.json["data"]["embeds"][0]


def ephemeral(call) -> str:
    assert call.json["type"] == 4 and call.json["data"]["flags"] & 64, call.json
    return call.json["data"]["content"]


async def test_settings_refuse_a_player_and_answer_a_manager(live_bot, standin):
    assert ephemeral(await send(standin, "/settings game", game="warmaster")) == \
        "To change the bot's settings you need the Manage Server permission."
    embed = public(await send(standin, "/settings game", manager=True, game="warmaster", scope="channel"))
    assert "Warmaster" in embed["description"]
    assert "Warmaster" in public(await send(standin, "/settings show"))["description"]


async def test_campaign_create_needs_a_gm_and_info_lists_members(live_bot, standin):
    assert "Manage Server" in ephemeral(await send(standin, "/campaign create", name="Border Wars"))
    public(await send(standin, "/campaign create", manager=True, name="Border Wars"))
    embed = public(await send(standin, "/campaign info", name="border wars"))
    assert f"<@{USER_ID}>" in embed["description"]
    assert "no campaign called" in ephemeral(await send(standin, "/campaign join", name="Nowhere"))


async def test_machine_battle_and_fire_with_a_machine(live_bot, standin):
    public(await send(standin, "/machine add", name="Old Betsy", kind="cannon"))
    payload = standin.autocomplete("/fire cannon", "machine", distance=30, machine="old")
    await standin.dispatch("INTERACTION_CREATE", payload)
    choices = (await standin.wait_for(callback_for(payload))).json["data"]["choices"]
    assert choices == [{"name": "Old Betsy (ready)", "value": "Old Betsy"}]
    assert "start one in this channel" in ephemeral(await send(standin, "/fire cannon", distance=30, machine="Old Betsy"))
    public(await send(standin, "/battle start"))
    call = await send(standin, "/fire cannon", distance=30, machine="Old Betsy", dice="@90 M 3")
    assert any(f["name"] == "War machine" and "until turn 3" in f["value"] for f in (await standin.details(call))["fields"])
    refusal = ephemeral(await send(standin, "/fire cannon", distance=30, machine="Old Betsy"))
    assert refusal.startswith("Old Betsy cannot fire until turn 3")
    assert "Turn 2" in public(await send(standin, "/battle turn"))["title"]
    status = await send(standin, "/battle status")
    assert public(status)["image"]["url"] == "attachment://battle.png"
    assert Image.open(io.BytesIO(status.files["battle.png"])).format == "PNG"
    end = await send(standin, "/battle end")
    assert "shots: 1" in public(end)["description"]
    names = sorted(end.files)
    assert names[0].endswith("-rolls.html") and names[1].endswith("-rolls.json")  # the page that checks the export, and it
    assert names[2].endswith(".json") and names[3].endswith(".md")
    assert json.loads(end.files[names[2]])["totals"]["shots"] == 1
    assert "Old Betsy" in public(await send(standin, "/machine list"))["description"]


async def test_the_channels_game_ranks_rules_and_status_shows_the_siege(live_bot, standin):
    assert public(await send(standin, "/rules", term="cannon"))["title"] == "Cannon · Warhammer Fantasy"
    public(await send(standin, "/settings game", manager=True, game="warmaster", scope="channel"))
    call = await send(standin, "/rules", term="cannon")
    assert public(call)["title"] == "Cannon · Warmaster"
    embed = await standin.details(call)
    assert any(f["name"] == "Profile: Cannon" and f["value"].startswith("Range: 60 cm") for f in embed["fields"])
    public(await send(standin, "/battle start"))
    public(await send(standin, "/siege structure", kind="gateway", section="north gate", hits=2, dice="3 3"))
    status = await send(standin, "/battle status")
    public(status)
    fields = {f["name"]: f["value"] for f in (await standin.details(status))["fields"]}
    assert fields["Fortifications"] == "**north gate** (Gateway, 12 structure points): 1 Destruction Token"
    assert Image.open(io.BytesIO(status.files["battle.png"])).format == "PNG"
    end = await send(standin, "/battle end")
    report = next(v for k, v in end.files.items() if k.endswith(".md")).decode()
    assert "| north gate | Gateway | 12 | 1 | standing |" in report
