"""/40k through the real discord.py client and the Discord stand-in: every subcommand answers,
the ordnance picture is attached, a mistake is ephemeral."""

from __future__ import annotations

import io

from PIL import Image

from tests.e2e.test_fire_e2e import callback_for
from cogs.common.replies import glance_name


async def test_every_40k_command_answers_through_the_real_client(live_bot, standin):
    for command, options, attachment in [
        ("/40k penetrate", {"strength": 9, "armour": 13, "dice": "4 3"}, None),
        ("/40k damage", {"table": "ordnance", "dice": "1"}, None),
        ("/40k ordnance", {"distance": 30, "strength": 8, "dice": "@60 2 4 2 5"}, "ordnance.png"),
        ("/40k ordnance", {"distance": 30, "strength": 9, "barrage": True, "armour": "13 11 10", "dice": "3 @0 5 2 3"}, "barrage.png"),
        ("/40k assault", {"attacks": 2, "armour": 10, "moved": "stationary", "strength": 4, "dice": "1 1"}, None),
        ("/40k tank-shock", {"leadership": 8, "dice": "6 6 1 1"}, None),
        ("/40k terrain", {"dice": "4"}, None),
        ("/40k firing", {"type": "fast", "moved": 10}, None),
    ]:
        payload = standin.slash(command, **options)
        await standin.dispatch("INTERACTION_CREATE", payload)
        call = await standin.wait_for(callback_for(payload))
        assert call.json["type"] == 4 and call.json["data"]["embeds"], command
        # a picture comes as its landscape glance (in the embed) and the full diagram (its thumbnail)
        assert list(call.files) == ([glance_name(attachment), attachment] if attachment else []), command
        if attachment:
            assert Image.open(io.BytesIO(call.files[attachment])).format == "PNG"


async def test_a_40k_mistake_is_ephemeral(live_bot, standin):
    payload = standin.slash("/40k penetrate", armour=12)
    await standin.dispatch("INTERACTION_CREATE", payload)
    call = await standin.wait_for(callback_for(payload))
    assert call.json["data"]["flags"] & 64 and "needs its Strength" in call.json["data"]["content"]
