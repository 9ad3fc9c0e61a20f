"""Private stays private on every path, through the real discord.py client and the stand-in
(issue 19, part 2): a slow private command defers ephemerally and its answer follows privately,
a slow error is private whether the command was or not, another member's /log show and button
presses never show a private roll's result, and no message may ping anyone.

No test here waits on the clock: slow work is held on an event that the test releases once the
stand-in has seen the defer, so every command defers whatever the machine's speed."""

from __future__ import annotations

import sys
import threading

import pytest

import cogs.common.replies as replies
from engine.errors import RulesError
from tests.e2e.standin import USER_ID

OTHER = USER_ID + 1


def callback_for(payload):
    return lambda r: r.method == "POST" and r.path == f"/interactions/{payload['id']}/{payload['token']}/callback"


@pytest.fixture
def held(monkeypatch):
    """/fire cannon's picture waits for `release`; commands defer at 50 ms after arrival."""
    fire_module = sys.modules["cogs.fantasy.fire"]
    real = fire_module.render_cannon
    release = threading.Event()

    def slow_render(shot):
        release.wait(30)
        return real(shot)

    monkeypatch.setattr(replies, "DEFER_AFTER", 0.05)
    monkeypatch.setattr(fire_module, "render_cannon", slow_render)
    yield release
    release.set()


async def slow(standin, release, payload):
    await standin.dispatch("INTERACTION_CREATE", payload)
    await standin.wait_for(callback_for(payload))  # the first response: it can only be the defer
    release.set()
    return await standin.answered(payload, timeout=30)


async def test_a_slow_private_command_defers_ephemerally_and_answers_privately(live_bot, standin, held):
    payload = standin.slash("/fire cannon", distance=30, dice="H 4 8", private=True)
    first, final = await slow(standin, held, payload)
    assert first.json["type"] == 5 and first.json["data"]["flags"] & 64
    assert "cannon.png" in final.files and final.json["embeds"]
    assert standin.shown_privately(payload, final)


async def test_a_slow_public_command_defers_publicly(live_bot, standin, held):
    payload = standin.slash("/fire cannon", distance=30, dice="H 4 8")
    first, final = await slow(standin, held, payload)
    assert first.json["type"] == 5 and not (first.json.get("data") or {}).get("flags", 0) & 64
    assert not standin.shown_privately(payload, final) and "cannon.png" in final.files


def failing_engine(monkeypatch, release):
    fire_module = sys.modules["cogs.fantasy.fire"]

    def fire_cannon(*args, **kwargs):
        release.wait(30)
        raise RulesError("Distance 30: the test refuses it.")

    monkeypatch.setattr(fire_module, "fire_cannon", fire_cannon)


async def test_a_slow_private_error_stays_private(live_bot, standin, held, monkeypatch):
    failing_engine(monkeypatch, held)
    payload = standin.slash("/fire cannon", distance=30, private=True)
    first, final = await slow(standin, held, payload)
    assert first.json["type"] == 5 and first.json["data"]["flags"] & 64
    assert final.json["content"] == "Distance 30: the test refuses it."
    assert standin.shown_privately(payload, final)


async def test_a_slow_error_of_a_public_command_is_private_too(live_bot, standin, held, monkeypatch):
    """The public "thinking..." is deleted and the error follows up on its own, ephemerally."""
    failing_engine(monkeypatch, held)
    payload = standin.slash("/fire cannon", distance=30)
    first, final = await slow(standin, held, payload)
    assert first.json["type"] == 5 and not (first.json.get("data") or {}).get("flags", 0) & 64
    assert any(r.method == "DELETE" and r.path.endswith("/messages/@original") for r in standin.responses(payload))
    assert final.json["content"] == "Distance 30: the test refuses it." and final.json["flags"] & 64
    assert standin.shown_privately(payload, final)


async def test_another_member_never_sees_a_private_roll(live_bot, standin):
    # The roller's private roll: a result only they see.
    mine = standin.slash("/roll", expression="3d6+100", private=True)
    await standin.dispatch("INTERACTION_CREATE", mine)
    first, final = await standin.answered(mine)
    assert standin.shown_privately(mine, final)

    async def log_show(**who):
        payload = standin.slash("/log show", **who)
        await standin.dispatch("INTERACTION_CREATE", payload)
        first, shown = await standin.answered(payload)
        data = shown.json.get("data") if shown is first else shown.json
        details = await standin.details(shown, **({"user_id": who["as_user"]} if "as_user" in who else {}))
        return " ".join([e.get("description") or "" for e in data["embeds"]] + [f["value"] for f in details.get("fields", [])])

    # The roller sees their result in /log show; another member sees that a private roll was
    # made, never its result.
    own = await log_show()
    result = own.split("(private) ", 1)[1].split("\n")[0]
    assert "10" in result  # 3d6+100: the total is in the line
    theirs = await log_show(as_user=OTHER)
    assert "a private roll" in theirs and result not in theirs


async def test_another_member_cannot_press_the_buttons_of_a_private_result(live_bot, standin):
    mine = standin.slash("/fire cannon", distance=30, ranks=3, files=4, dice="H 4 6", private=True)
    await standin.dispatch("INTERACTION_CREATE", mine)
    first, final = await standin.answered(mine)
    assert standin.shown_privately(mine, final)
    message = standin.message_with(final)
    rows = message["components"]
    custom_ids = [b["custom_id"] for row in rows for b in row["components"]]
    assert custom_ids
    for custom_id in custom_ids:
        press = standin.press(custom_id, message, user_id=OTHER)
        await standin.dispatch("INTERACTION_CREATE", press)
        answer = await standin.wait_for(callback_for(press))
        data = answer.json["data"]
        assert data["flags"] & 64 and "Only <@" in data["content"] and not data.get("embeds")


async def test_no_message_may_ping_anyone(live_bot, standin):
    """allowed_mentions is none on the bot as a whole: every message the bot sends says so, even
    one that quotes a mention a player typed."""
    for payload in (standin.slash("/roll", expression="d6", private=False),
                    standin.slash("/fire cannon", distance=30, dice="<@123> @everyone")):
        await standin.dispatch("INTERACTION_CREATE", payload)
        await standin.answered(payload)
    sent = [r for r in standin.requests
            if r.method in ("POST", "PATCH") and r.json and ((r.json.get("data") or {}).get("embeds") is not None
                                                            or (r.json.get("data") or {}).get("content") is not None
                                                            or "embeds" in r.json or "content" in r.json)]
    assert sent
    for r in sent:
        body = r.json.get("data") if "/callback" in r.path else r.json
        assert body.get("allowed_mentions") == {"parse": []}, (r.path, body)
