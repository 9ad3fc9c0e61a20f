"""Memory that stays flat (issue 26): a private reply keeps nothing alive once it is sent.

discord.py gives every view sent on an ephemeral message a 15-minute timeout task when the view has
none, and that task (its context: the interaction being served) keeps the interaction, its reply
and its picture alive for those 15 minutes. The reply buttons are DynamicItems, found again by
their custom id and the store, so the view that carries them is sent finished: discord.py keeps no
task and nothing of the interaction. Counted, not timed: after private replies with buttons and
/help, no view timeout task is left and no interaction is still alive."""

from __future__ import annotations

import asyncio
import gc
import heapq

import discord

from tests.e2e.test_buttons_e2e import buttons


def view_timeouts() -> list[asyncio.Task]:
    return [t for t in asyncio.all_tasks() if "timeout_task_impl" in repr(t.get_coro())]


def interactions_alive() -> int:
    """Interactions still alive, once the timers asyncio keeps after they are cancelled are dropped,
    as asyncio itself drops them once they are many (over 100, more than half cancelled): a
    cancelled timer keeps the context it was made in (an HTTP request's 300 s timeout, made while
    the interaction was served) until then, so they are bounded, not a leak."""
    loop = asyncio.get_running_loop()
    loop._scheduled = [h for h in loop._scheduled if not h.cancelled()]  # type: ignore[attr-defined]
    heapq.heapify(loop._scheduled)  # type: ignore[attr-defined]
    loop._timer_cancelled_count = 0  # type: ignore[attr-defined]
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, discord.Interaction))


async def private_replies(standin, n: int) -> list[dict]:
    lines = [standin.slash("/help")] + [
        standin.slash("/fire cannon", distance=30, ranks=4, files=5, dice="H 4 8", private=True) for _ in range(n)
    ] + [standin.slash("/roll", expression="2d6", private=True) for _ in range(n)]
    for payload in lines:
        await standin.dispatch("INTERACTION_CREATE", payload)
        _, answer = await standin.answered(payload, timeout=30)
        assert standin.shown_privately(payload, answer)
    return lines


async def test_private_replies_and_help_keep_no_view_task_and_no_interaction_alive(live_bot, standin):
    lines = await private_replies(standin, 5)
    cannon = (await standin.answered(lines[1]))[1]
    assert "Details" in buttons(cannon)  # the private replies do carry their buttons
    await asyncio.sleep(0.05)  # let discord.py finish its own bookkeeping of the last reply
    assert view_timeouts() == []
    after_11 = interactions_alive()
    await private_replies(standin, 10)
    await asyncio.sleep(0.05)
    assert view_timeouts() == []
    after_32 = interactions_alive()  # at most one a pooled HTTP connection (its socket's context), not one a reply
    assert after_32 <= after_11 <= 2, (after_11, after_32)
    # and the buttons still work: found by their custom id and the store
    details = await standin.details(cannon)
    assert details["fields"]


async def test_a_bot_run_as_run_discord_runs_it_freezes_its_heap_once_ready_and_answers(standin, tmp_path):
    """``freeze_when_ready`` (what run_discord sets): once ready, the bot's heap (modules, commands,
    caches) is in the permanent generation, so full collections leave it out, and the bot answers as
    before. A bot a test starts has it off: its heap is collected as ever."""
    from bot import create_bot
    from config.settings import Settings
    from tests.e2e.standin import start_client

    plain = create_bot(Settings(token="standin-token", data_dir=tmp_path / "plain"))
    assert plain.freeze_when_ready is False and plain.heap_frozen == 0
    bot = create_bot(Settings(token="standin-token", data_dir=tmp_path / "frozen", dice_seed=3))
    bot.freeze_when_ready = True
    before = gc.get_freeze_count()
    runner = await start_client(bot)
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        for _ in range(100):  # on_ready runs just after the ready event is set
            if bot.heap_frozen:
                break
            await asyncio.sleep(0.01)
        assert bot.heap_frozen > 10_000 and gc.get_freeze_count() > before + 10_000  # (freed ones leave the count)
        payload = standin.slash("/fire cannon", distance=30, ranks=4, files=5, dice="H 4 8")
        await standin.dispatch("INTERACTION_CREATE", payload)
        _, answer = await standin.answered(payload, timeout=30)
        assert "Cannon" in str(answer)
    finally:
        await bot.close()
        await asyncio.wait_for(runner, 10)
        gc.unfreeze()  # the rest of this test process collects as before


def test_run_discord_has_the_bot_freeze_its_heap_once_ready(tmp_path, monkeypatch):
    import bot as bot_module
    from config.settings import Settings

    seen = []
    monkeypatch.setattr(bot_module, "setup_logging", lambda *a, **k: None)  # the test process's logging left as it is
    monkeypatch.setattr(bot_module.BombardierBot, "run", lambda self, *a, **k: seen.append(self.freeze_when_ready))
    assert bot_module.run_discord(Settings(token="standin-token", data_dir=tmp_path)) == 0
    assert seen == [True]
