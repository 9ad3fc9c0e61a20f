"""A private shot's misfire through the real discord.py client and the Discord stand-in: its answer
is the roller's alone (flags 64) and names the chart's row; what the channel sees of the machine
afterwards (/machine list, /battle status, posted for everyone) is its state, never that row."""

from __future__ import annotations

import json

from storage.campaigns import PRIVATE_REASON
from tests.e2e.standin import USER_ID
from tests.e2e.test_campaign_e2e import public, send


async def test_a_private_misfire_is_the_rollers_and_the_channel_sees_only_the_state(live_bot, standin):
    public(await send(standin, "/machine add", name="Old Betsy", kind="cannon", crew=3))
    public(await send(standin, "/battle start"))
    shot = await send(standin, "/fire cannon", distance=30, machine="Old Betsy", dice="@0 M 3", private=True)
    data = shot.json.get("data", shot.json)
    assert data["flags"] & 64, data
    assert "Malfunction, Black Powder Misfire Chart 3" in json.dumps(data)
    for command in ("/machine list", "/battle status"):
        payload = standin.slash(command, as_user=USER_ID + 1)
        await standin.dispatch("INTERACTION_CREATE", payload)
        embed = public(await standin.answer_as_callback(payload))
        text = json.dumps(embed)
        assert f"cannot fire until turn 3 ({PRIVATE_REASON})" in text, text
        assert "Misfire Chart" not in text and "Malfunction" not in text
