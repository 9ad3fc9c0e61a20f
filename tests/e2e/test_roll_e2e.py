"""/roll and /log through the real discord.py client and the Discord stand-in: the embed with
struck re-rolls, and /log export's two attachments in one callback."""

from __future__ import annotations

import json

from tests.e2e.test_fire_e2e import callback_for


async def slash(standin, command, **options):
    payload = standin.slash(command, **options)
    await standin.dispatch("INTERACTION_CREATE", payload)
    return await standin.answer_as_callback(payload)  # (/log export defers first: its follow-up)


async def test_roll_answers_with_every_die_and_its_log_entry(live_bot, standin):
    call = await slash(standin, "/roll", expression="4d6>=4 r1", dice="1 4 5 2 6")
    (embed,) = call.json["data"]["embeds"]
    assert embed["title"] == "4d6>=4r1: 3 successes of 4"
    assert (await standin.details(call))["fields"][0]["value"] == "[~~1~~ **6** **4** **5** 2]"
    assert embed["footer"]["text"].startswith("Roll #1 in the log")
    assert not call.json["data"].get("flags", 0) & 64


async def test_log_export_sends_json_and_csv_in_one_answer(live_bot, standin):
    await slash(standin, "/roll", expression="2d6+1")
    call = await slash(standin, "/log export")
    data = call.json["data"]
    assert [a["filename"] for a in data["attachments"]] == ["roll-log-epoch1.json", "roll-log-epoch1.csv", "roll-log-epoch1.html"]
    exported = json.loads(call.files["roll-log-epoch1.json"])
    assert exported["format"] == "bombardier-roll-log" and len(exported["entries"]) == 1
    assert call.files["roll-log-epoch1.csv"].decode().startswith("roll,time,user,command")


async def test_a_roll_syntax_error_is_ephemeral(live_bot, standin):
    call = await slash(standin, "/roll", expression="2d6+x")
    assert call.json["data"]["flags"] & 64
    assert "```\n2d6+x\n    ^\n```" in call.json["data"]["content"]
