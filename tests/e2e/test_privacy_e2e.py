"""/settings forget-me and /settings purge-server through the real discord.py client and the
Discord stand-in: the member's permissions as Discord sends them, the server's name from the
guild Discord described at connection, the answers' flags."""

from __future__ import annotations

from tests.e2e.standin import GUILD_ID
from tests.e2e.test_campaign_e2e import ephemeral, public, send


async def test_forget_me_answers_privately(live_bot, standin):
    public(await send(standin, "/machine add", name="Old Betsy", kind="cannon"))
    public(await send(standin, "/roll", expression="2d6"))
    call = await send(standin, "/settings forget-me")
    assert call.json["type"] == 4 and call.json["data"]["flags"] & 64, call.json  # only the caller sees it
    embed = call.json["data"]["embeds"][0]
    assert embed["title"] == "The bot has forgotten you"
    assert "1 war machine" in embed["description"] and "Kept: your 1 roll log entry" in embed["description"]
    assert "no war machines" in public(await send(standin, "/machine list"))["description"].lower()


async def test_purge_server_is_for_managers_and_takes_the_servers_name(live_bot, standin):
    public(await send(standin, "/settings game", manager=True, game="warmaster"))
    assert ephemeral(await send(standin, "/settings purge-server", confirm="The Table")) == \
        "To delete everything the bot keeps for this server you need the Manage Server permission."
    assert "is not this server" in ephemeral(await send(standin, "/settings purge-server", manager=True, confirm="Other"))
    embed = public(await send(standin, "/settings purge-server", manager=True, confirm="the table"))
    assert embed["title"] == "Everything the bot kept for The Table is deleted"
    assert "Warhammer Fantasy" in public(await send(standin, "/settings show"))["description"]
    again = public(await send(standin, "/settings purge-server", manager=True, confirm=str(GUILD_ID)))
    assert "Deleted: 0 settings rows" in again["description"]
