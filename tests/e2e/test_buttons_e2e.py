"""Buttons on results through the real discord.py client and the Discord stand-in: pressing
"Fire again" and "Resolve wounds", refusals, expiry, and buttons that outlive a restart."""

from __future__ import annotations

import asyncio
import json

from storage.actions import LIFETIME_S
from tests.e2e.standin import MANAGER_PERMISSIONS, USER_ID


def callback_for(payload):
    return lambda r: r.method == "POST" and r.path == f"/interactions/{payload['id']}/{payload['token']}/callback"


async def run(standin, payload):
    await standin.dispatch("INTERACTION_CREATE", payload)
    return await standin.wait_for(callback_for(payload))


def buttons(recorded):
    rows = recorded.json["data"].get("components") or []
    return {b["label"]: b["custom_id"] for row in rows for b in row["components"]}


def embed(recorded):
    return recorded.json["data"]["embeds"][0]


async def test_fire_again_fires_the_same_shot_with_new_dice(live_bot, standin):
    first = await run(standin, standin.slash("/fire cannon", distance=30, ranks=3, files=4, dice="H 4 6"))
    labels = buttons(first)
    assert set(labels) == {"Fire again", "Resolve wounds", "Details", "Odds"}
    press = standin.press(labels["Fire again"], standin.message_with(first))
    again = await run(standin, press)
    assert again.json["type"] == 4  # a new message in the channel
    new = embed(again)
    assert new["description"].split("\n")[0] == embed(first)["description"].split("\n")[0]  # same cannon, same distance
    assert "yours" not in new["description"]  # the players' dice are not reused
    assert "entered" not in json.dumps((await standin.details(again))["fields"][0])
    assert "Fire again" in buttons(again)  # and the new result has its own buttons


async def test_resolve_wounds_replays_the_shot_with_the_profile(live_bot, standin):
    first = await run(standin, standin.slash("/fire cannon", distance=30, ranks=3, files=4, dice="H 4 6"))
    press = standin.press(buttons(first)["Resolve wounds"], standin.message_with(first))
    modal = await run(standin, press)
    assert modal.json["type"] == 9
    form = modal.json["data"]
    inputs = [c["components"][0]["custom_id"] for c in form["components"]]
    values = dict(zip(inputs, ["3", "1", "5", ""]))
    result = await run(standin, standin.submit(form["custom_id"], values))
    fields = {f["name"]: f["value"] for f in (await standin.details(result))["fields"]}
    first_dice = {f["name"]: f["value"] for f in (await standin.details(first))["fields"]}["Dice"].splitlines()
    # The shot's own three dice come back as given, in order, then the wounding dice are new.
    assert fields["Dice"].splitlines()[:3] == first_dice
    assert len(fields["Dice"].splitlines()) > 3
    assert "Resolve wounds" not in buttons(result)


async def test_a_bad_profile_is_refused_privately(live_bot, standin):
    first = await run(standin, standin.slash("/fire cannon", distance=30, dice="H 4 6"))
    modal = await run(standin, standin.press(buttons(first)["Resolve wounds"], standin.message_with(first)))
    form = modal.json["data"]
    inputs = [c["components"][0]["custom_id"] for c in form["components"]]
    refused = await run(standin, standin.submit(form["custom_id"], dict(zip(inputs, ["12", "", "", ""]))))
    assert refused.json["data"]["flags"] & 64
    assert "Toughness: 12 is out of bounds" in refused.json["data"]["content"]


async def test_someone_else_is_refused_but_a_manager_may_press(live_bot, standin):
    first = await run(standin, standin.slash("/fire cannon", distance=30, dice="H 4 6"))
    custom_id = buttons(first)["Fire again"]
    other = await run(standin, standin.press(custom_id, standin.message_with(first), user_id=USER_ID + 1))
    assert other.json["data"]["flags"] & 64
    assert f"<@{USER_ID}>" in other.json["data"]["content"]
    manager = await run(standin, standin.press(custom_id, standin.message_with(first), user_id=USER_ID + 2,
                                               permissions=MANAGER_PERMISSIONS))
    assert manager.json["data"]["embeds"]


async def test_an_expired_button_says_so(live_bot, standin):
    first = await run(standin, standin.slash("/fire cannon", distance=30, dice="H 4 6"))
    custom_id = buttons(first)["Fire again"]
    action_id = custom_id.rsplit(":", 1)[1]
    with live_bot.store.transaction() as db:
        db.execute("update reply_actions set created_at = created_at - ? where id = ?", [LIFETIME_S + 1, action_id])
    answer = await run(standin, standin.press(custom_id, standin.message_with(first)))
    assert answer.json["data"]["flags"] & 64 and "expired" in answer.json["data"]["content"]


async def test_buttons_keep_working_after_a_restart(standin, tmp_path):
    from bot import create_bot
    from config.settings import Settings
    from tests.e2e.standin import start_client

    async def started():
        bot = create_bot(Settings(token="standin-token", data_dir=tmp_path, dice_seed=5))
        return bot, await start_client(bot)

    bot, task = await started()
    first = await run(standin, standin.slash("/fire cannon", distance=30, dice="H 4 6"))
    await bot.close()
    await asyncio.wait_for(task, 10)
    bot, task = await started()  # a new process would see the same database file
    try:
        again = await run(standin, standin.press(buttons(first)["Fire again"], standin.message_with(first)))
        assert again.json["data"]["embeds"]
    finally:
        await bot.close()
        await asyncio.wait_for(task, 10)


async def test_roll_the_misfire_chart_finishes_a_shot_that_stopped_for_it(live_bot, standin):
    first = await run(standin, standin.slash("/fire cannon", distance=30, dice="H M"))
    assert "waits for your D6" in embed(first)["title"]
    labels = buttons(first)
    assert "Roll the misfire chart" in labels and "Resolve wounds" not in labels
    done = await run(standin, standin.press(labels["Roll the misfire chart"], standin.message_with(first)))
    dice = {f["name"]: f["value"] for f in (await standin.details(done))["fields"]}["Dice"].splitlines()
    assert [line.split(" · ")[1] for line in dice] == ["entered", "entered", "bot"]
    assert "Black Powder Misfire Chart" in dice[2]
    assert "Roll the misfire chart" not in buttons(done)


async def test_details_answer_whoever_presses_them_privately_with_the_full_breakdown(live_bot, standin):
    first = await run(standin, standin.slash("/fire cannon", distance=30, ranks=4, files=5, toughness=3, dice="H 4 8"))
    glance = embed(first)
    assert glance["title"].startswith("Direct hit on the marker") and "fields" not in glance
    assert len(glance["description"].splitlines()) <= 8 and glance["description"].splitlines()[-1].startswith("Dice: ")
    full = await standin.details(first, user_id=USER_ID + 1)  # another player may read them too
    names = [f["name"] for f in full["fields"]]
    assert names[:2] == ["Dice", "Hits"] and "Shot" in names and "Target" in names
    assert "`H` scatter · entered" in full["fields"][0]["value"]


async def test_the_odds_button_prices_the_same_shot_for_the_presser_alone(live_bot, standin):
    first = await run(standin, standin.slash("/40k penetrate", strength=9, armour=13, dice="4 2"))
    press = standin.press(buttons(first)["Odds"], standin.message_with(first))
    odds = await run(standin, press)
    data = odds.json["data"]
    assert odds.json["type"] == 4 and data["flags"] & 64  # ephemeral: the presser's eyes only
    # the shot's options priced, not its dice; the classes a player names first (issue 28 item 8)
    assert embed(odds)["title"] == "No effect 50.0% (1/2) · glancing 16.7% (1/6) · penetrating 33.3% (1/3)"
    assert "Odds: /40k penetrate armour:13 strength:9" in embed(odds)["description"]
