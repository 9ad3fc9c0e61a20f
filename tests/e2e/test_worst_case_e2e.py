"""One player's worst case cannot stall the others (issue 19, part 1), through the real discord.py
client and the Discord stand-in: while the engine is still working on the biggest `/wm cannon`
the caps allow, a `/roll` sent right after it is answered, and then the cannon's answer arrives.

Deterministic: the cannon's engine call is held (a threading event) until the roll's answer has
been seen, so what is checked is the order of answers, never how fast this machine is."""

from __future__ import annotations

import asyncio
import sys
import threading

from tests.console.test_bounded_console import near


async def test_a_command_sent_after_the_worst_case_is_answered_while_it_works(live_bot, standin, monkeypatch):
    from cogs.warmaster.options import MAX_NEAR

    wm = sys.modules["cogs.warmaster.wm"]  # the module the bot loaded as its extension
    real = wm.fire_cannons
    started, release = threading.Event(), threading.Event()
    calls = []

    def held(*args, **kwargs):
        calls.append(threading.current_thread().name)
        started.set()
        assert release.wait(30), "the roll was never answered while the cannon worked"
        return real(*args, **kwargs)

    monkeypatch.setattr(wm, "fire_cannons", held)
    cannon = standin.slash("/wm cannon", distance=30, near=near(MAX_NEAR), dice="4 4 4")
    await standin.dispatch("INTERACTION_CREATE", cannon)
    assert await asyncio.to_thread(started.wait, 30), "the cannon's engine call never started"
    assert calls and calls[0].startswith("bombardier-work")  # off the event loop, in the bounded pool

    roll = standin.slash("/roll", expression="2d6+1")
    await standin.dispatch("INTERACTION_CREATE", roll)
    first, answer = await standin.answered(roll, timeout=30)
    assert first.json["type"] == 4 and answer is first  # answered directly, not deferred behind the cannon
    assert "2d6+1" in str(answer.json["data"]["embeds"][0])
    cannon_calls = [r for r in standin.requests if cannon["token"] in r.path]
    assert all(r.json is None or r.json.get("type") != 4 for r in cannon_calls)  # the cannon is still working

    release.set()
    _, final = await standin.answered(cannon, timeout=60)
    assert "wm_cannon.png" in final.files
    assert standin.requests.index(final) > standin.requests.index(answer)
