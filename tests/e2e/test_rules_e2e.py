"""/rules and /help through the real discord.py client and the Discord stand-in."""

from __future__ import annotations


def callback_for(payload):
    return lambda r: r.method == "POST" and r.path == f"/interactions/{payload['id']}/{payload['token']}/callback"


async def test_rules_autocomplete_answers_within_discords_limits(live_bot, standin):
    payload = standin.autocomplete("/rules", "term", term="stone throwr", game="fantasy")
    await standin.dispatch("INTERACTION_CREATE", payload)
    call = await standin.wait_for(callback_for(payload))
    assert call.json["type"] == 8
    choices = call.json["data"]["choices"]
    assert choices[0] == {"name": "Stone Thrower · Warhammer Fantasy", "value": "warhammer-fantasy:stone-thrower"}
    assert 1 <= len(choices) <= 25 and all(1 <= len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in choices)
    assert all(c["value"].startswith("warhammer-fantasy:") for c in choices)


async def test_rules_and_help_answer_through_the_real_client(live_bot, standin):
    for command, options, title in [
        ("/rules", {"term": "warmaster:tribock"}, "Tribock · Warmaster"),
        ("/rules", {"term": "glance"}, "Glancing Hit Table · Warhammer 40,000"),
        ("/help", {}, "Bombardier: help"),
    ]:
        payload = standin.slash(command, **options)
        await standin.dispatch("INTERACTION_CREATE", payload)
        call = await standin.wait_for(callback_for(payload))
        assert call.json["type"] == 4 and call.json["data"]["embeds"][0]["title"] == title, command
        assert not call.files
