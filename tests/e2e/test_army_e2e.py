"""/army and target: through the real discord.py client and the Discord stand-in: a roster sent as
an attachment option (fetched from its url as from Discord's CDN), its units offered by the
autocomplete, a shot at one by name, a hostile file refused privately without being fetched."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.test_campaign_e2e import callback_for, ephemeral, public, send

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "army"


async def test_import_a_real_list_and_shoot_at_its_units_by_name(live_bot, standin):
    embed = public(await send(standin, "/army import", file=("Host of Talabheim.rosz", (FIXTURES / "empire.rosz").read_bytes())))
    assert embed["title"] == "Imported Host of Talabheim · 760 pts"
    assert "Spirit Host ×3 · T3 W4 swarm Ld4 ethereal" in embed["description"]
    assert len(standin.downloads) == 1

    payload = standin.autocomplete("/shoot", "troop", shots=6, bs=3, strength=4, troop="spirit")
    await standin.dispatch("INTERACTION_CREATE", payload)
    choices = (await standin.wait_for(callback_for(payload))).json["data"]["choices"]
    assert choices[0] == {"name": "Spirit Host · T3 W4 · 3 models", "value": "Spirit Host"}

    embed = public(await send(standin, "/shoot", shots=6, bs=3, strength=4, magical=True, troop="Spirit Host", dice="6 6 6 6 6 6 5 5 5 5 5 5"))
    assert "From Host of Talabheim: Spirit Host · toughness 3, wounds 4, troop swarm, ethereal yes" in embed["footer"]["text"]
    assert embed["title"].startswith("6 shots, 6 hits")

    payload = standin.autocomplete("/fire cannon", "troop", distance=30, troop="great")
    await standin.dispatch("INTERACTION_CREATE", payload)
    choices = (await standin.wait_for(callback_for(payload))).json["data"]["choices"]
    assert choices[0] == {"name": "Great Cannon · T7 W3", "value": "Great Cannon"}  # then the troop types
    embed = public(await send(standin, "/fire cannon", distance=30, troop="Great Cannon", dice="H 4 6"))
    assert "From Host of Talabheim: Great Cannon" in embed["footer"]["text"]

    assert "give save:" in ephemeral(await send(standin, "/shoot", shots=6, bs=3, strength=4, troop="Halberdiers"))
    assert "1 army list" in public(await send(standin, "/army list"))["title"]


async def test_a_file_over_a_megabyte_is_refused_before_it_is_fetched(live_bot, standin):
    message = ephemeral(await send(standin, "/army import", file=("huge.ros", b"<roster>" + b" " * 1_200_000 + b"</roster>")))
    assert message == "That file is 1,200,017 bytes: a roster is at most 1,000,000 (1 MB)."
    assert standin.downloads == []
    message = ephemeral(await send(standin, "/army import", file=("laughs.ros", b'<!DOCTYPE r [<!ENTITY a "a">]><roster>&a;</roster>')))
    assert "entities" in message
    assert "no army lists" in public(await send(standin, "/army list"))["title"]


async def test_fire_again_after_the_list_is_removed_fires_the_same_shot(live_bot, standin):
    """The button keeps the values the list gave: pressed after /army remove, it fires at the same
    profile, not at the command's defaults and not with an error about the missing list."""
    from tests.e2e.test_buttons_e2e import buttons, embed, run

    public(await send(standin, "/army import", file=("Host of Talabheim.rosz", (FIXTURES / "empire.rosz").read_bytes())))
    first = await run(standin, standin.slash("/fire cannon", distance=30, troop="War Altar of Sigmar", dice="H 4 6"))
    assert "From Host of Talabheim: War Altar of Sigmar" in embed(first)["footer"]["text"]
    public(await send(standin, "/army remove", list="Host of Talabheim"))
    again = await run(standin, standin.press(buttons(first)["Fire again"], standin.message_with(first)))
    assert again.json["type"] == 4, again.json
    text = json.dumps(await standin.details(again))
    assert "T5" in text and "chariot" in text.lower(), text[:2000]
