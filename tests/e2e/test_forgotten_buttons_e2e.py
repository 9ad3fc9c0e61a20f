"""Buttons after /settings forget-me, through the real discord.py client and the Discord stand-in:
a press on a reply whose stored action the forgetting erased says so (privately, naming nobody),
not "expired"; once it would have expired anyway it says that, as any old button does."""

from __future__ import annotations

from cogs.common.buttons import ERASED, EXPIRED
from storage.actions import LIFETIME_S
from tests.e2e.standin import MANAGER_PERMISSIONS, USER_ID
from tests.e2e.test_buttons_e2e import buttons, run


def private_line(recorded) -> str:
    data = recorded.json["data"]
    assert data["flags"] & 64, data
    return data["content"]


async def test_a_forgotten_members_buttons_say_their_data_was_erased(live_bot, standin):
    first = await run(standin, standin.slash("/fire cannon", distance=30, ranks=3, files=4, dice="H 4 6"))
    labels = buttons(first)
    assert {"Fire again", "Details"} <= set(labels)
    forgot = await run(standin, standin.slash("/settings forget-me"))
    assert forgot.json["data"]["flags"] & 64
    message = standin.message_with(first)
    for label in ("Fire again", "Details", "Resolve wounds"):
        assert private_line(await run(standin, standin.press(labels[label], message))) == ERASED, label
    # a manager pressing it hears the same, and nothing of whose it was
    manager = await run(standin, standin.press(labels["Fire again"], message, user_id=USER_ID + 2,
                                               permissions=MANAGER_PERMISSIONS))
    assert private_line(manager) == ERASED and str(USER_ID) not in ERASED
    # once it would have expired anyway, it says so as any old button does
    with live_bot.store.transaction() as db:
        db.execute("update erased_actions set expires_at = expires_at - ?", [LIFETIME_S + 1])
    assert private_line(await run(standin, standin.press(labels["Fire again"], message))) == EXPIRED


async def test_another_members_buttons_still_work_after_someone_forgets(live_bot, standin):
    other = USER_ID + 7
    theirs = await run(standin, standin.slash("/fire cannon", as_user=other, distance=30, dice="H 4 6"))
    await run(standin, standin.slash("/settings forget-me"))
    again = await run(standin, standin.press(buttons(theirs)["Fire again"], standin.message_with(theirs), user_id=other))
    assert again.json["type"] == 4 and again.json["data"]["embeds"]
