"""The roll log through the real discord.py client and the Discord stand-in: a battle commits at
its start and attaches its verifiable log at its end; private rolls answer with flags 64 and stay
in the log; a Resolve-wounds re-run is logged as one."""

from __future__ import annotations

import json

from engine.ledger import verify
from tests.e2e.test_buttons_e2e import buttons, run
from tests.e2e.test_campaign_e2e import ephemeral, public, send


async def test_a_battle_from_start_to_end_verifies(live_bot, standin):
    start = await send(standin, "/battle start")
    public(start)
    committed = next(f["value"] for f in (await standin.details(start))["fields"] if f["name"] == "Roll log")
    fired = public(await send(standin, "/fire cannon", distance=30, dice="H 4 6"))
    assert "Roll #1 in the log" in fired["footer"]["text"]
    public(await send(standin, "/40k penetrate", strength=9, armour=12))
    public(await send(standin, "/roll", expression="2d6+1"))
    end = await send(standin, "/battle end")
    rolls = next(name for name in end.files if name.endswith("-rolls.json"))
    data = json.loads(end.files[rolls])
    public(end)
    assert data["commitment"] in committed and data["secret"] in json.dumps((await standin.details(end))["fields"])
    assert [e["command"] for e in data["entries"]] == ["fire cannon", "40k penetrate", "roll"]
    assert verify(data).ok


async def test_private_rolls_are_ephemeral_logged_and_refusable(live_bot, standin):
    call = await send(standin, "/fire cannon", distance=30, private=True)
    assert call.json["data"]["flags"] & 64 and call.json["data"]["embeds"]
    public(await send(standin, "/roll", expression="1d6"))
    shown = await send(standin, "/log show")
    assert shown.json["type"] == 4 and shown.json["data"]["flags"] & 64  # the roller's private result: theirs alone
    assert "#1 /fire cannon" in (await standin.details(shown))["fields"][0]["name"]  # the roller sees their own result
    public(await send(standin, "/settings private-rolls", allowed=False, manager=True))
    assert "/settings private-rolls allowed:true" in ephemeral(await send(standin, "/roll", expression="1d6", private=True))


async def test_a_resolve_wounds_rerun_is_logged_as_one(live_bot, standin):
    first = await run(standin, standin.slash("/fire cannon", distance=30, ranks=3, files=4, dice="H 4 6"))
    modal = await run(standin, standin.press(buttons(first)["Resolve wounds"], standin.message_with(first)))
    form = modal.json["data"]
    inputs = [c["components"][0]["custom_id"] for c in form["components"]]
    await run(standin, standin.submit(form["custom_id"], dict(zip(inputs, ["3", "1", "", ""]))))
    public(await send(standin, "/log reveal", manager=True))
    export = await send(standin, "/log export", epoch=1)
    data = json.loads(export.files["roll-log-epoch1.json"])
    assert [e["options"].get("replay_of") for e in data["entries"]] == [None, 1]
    result = verify(data)
    assert result.ok and result.given_back == 3
