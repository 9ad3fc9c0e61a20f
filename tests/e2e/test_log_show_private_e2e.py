"""/log show never posts a private roll's result to the channel (issue 25, item 4, T25's probe).

/log show shows a private roll's result to its roller, the GM role and managers. It did so in a
public answer: the roller's own /log show, or a manager's, put the result of a private roll in the
channel for everyone, and another member pressing that answer's Details read it too. Such a
/log show is answered privately; one that shows no private result stays in the channel."""

from __future__ import annotations

from tests.e2e.standin import MANAGER_PERMISSIONS, USER_ID

OTHER = USER_ID + 1
ROLLER = USER_ID + 2


async def answer(standin, payload):
    await standin.dispatch("INTERACTION_CREATE", payload)
    first, final = await standin.answered(payload)
    data = final.json.get("data") if final is first else final.json
    return final, " ".join(e.get("description") or "" for e in data["embeds"])


async def test_a_log_show_that_shows_a_private_result_is_answered_privately(live_bot, standin):
    allow = standin.slash("/settings private-rolls", allowed=True, permissions=MANAGER_PERMISSIONS)
    await standin.dispatch("INTERACTION_CREATE", allow)
    await standin.answered(allow)
    secret = standin.slash("/roll", expression="3d6+100", private=True, as_user=ROLLER)
    await standin.dispatch("INTERACTION_CREATE", secret)
    first, final = await standin.answered(secret)
    assert standin.shown_privately(secret, final)

    # the roller's own /log show, and a manager's: the result, for their eyes alone
    for who in ({"as_user": ROLLER}, {"as_user": OTHER, "permissions": MANAGER_PERMISSIONS}):
        payload = standin.slash("/log show", **who)
        shown, text = await answer(standin, payload)
        assert "(private) 3d6+100" in text, text
        assert standin.shown_privately(payload, shown), f"{who}: a private roll's result posted to the channel"

    # another member's: the channel may see it (nothing private in it), and its Details hide the result too
    payload = standin.slash("/log show", as_user=OTHER)
    shown, text = await answer(standin, payload)
    assert "a private roll" in text and "(private) 3d6+100" not in text
    assert not standin.shown_privately(payload, shown)
    details = await standin.details(shown, user_id=USER_ID)
    assert "(private) 3d6+100" not in str(details)
