"""Issue 25, items 5 and 6: what an operator can get wrong, and what then happens.

- A token the gateway refuses (close 4004) ends the bot with one line, no traceback.
- A huge BOMBARDIER_SHARDS is refused at once, in one line.
- A second process started with a shard a live process holds is refused, the holder named.
- Two processes that both get an interaction (the same shard) answer it once: each interaction is
  claimed in the store, and a turn moves once, a roll is logged once.
- /log export and /battle end defer before they read the store."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

from bot import create_bot
from cogs.common.replies import DEFERRED_KEY
from config.settings import Settings
from storage import campaigns, claims, roll_log
from storage.migrations import open_store
from tests.e2e.standin import CHANNEL_ID, GUILD_ID, MANAGER_PERMISSIONS, start_client

ROOT = Path(__file__).resolve().parents[2]


def bot_process(standin, env: dict[str, str], data: Path, *, entry: str = "tests/e2e/shard_process.py") -> subprocess.Popen:
    """The bot's start-up path in a process of its own, its Discord the stand-in (or nothing there:
    127.0.0.1:9); `entry` bot.py for the operator's own command line."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("BOMBARDIER_")}
    clean.update(DISCORD_TOKEN="standin-token", BOMBARDIER_DATA=str(data), BOMBARDIER_CONFIG=os.devnull, **env)
    rest, gateway = (standin.rest_base, standin.gateway_url) if standin else ("http://127.0.0.1:9/api/v10", "ws://127.0.0.1:9/")
    args = [rest, gateway] if entry.endswith("shard_process.py") else []
    return subprocess.Popen([sys.executable, str(ROOT / entry), *args], env=clean,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


async def finished(proc: subprocess.Popen, timeout: float = 90) -> tuple[int, str]:
    out, err = await asyncio.to_thread(proc.communicate, timeout=timeout)
    return proc.returncode, err


async def test_a_token_the_gateway_refuses_is_one_line_and_no_traceback(standin, tmp_path):
    standin.close_identify_with = 4004
    code, err = await finished(bot_process(standin, {}, tmp_path))
    assert code == 1, err
    assert err.strip().count("\n") == 0 and "Traceback" not in err, err
    assert "Discord refused the token" in err and "standin-token" not in err


async def test_a_huge_shard_count_is_refused_at_once_in_one_line(tmp_path):
    started = time.monotonic()
    code, err = await finished(bot_process(None, {"BOMBARDIER_SHARDS": "0-100000000/100000001"}, tmp_path,
                                           entry="bot.py"))
    assert code == 2 and err.strip().count("\n") == 0 and "100,000,001 shards" in err, err
    assert time.monotonic() - started < 30  # start-up and the refusal, not 44 s of reading


async def test_a_shard_a_live_process_holds_is_not_started_again(tmp_path):
    database = tmp_path / "shared.sqlite3"
    with open_store(database) as store:  # this test's process runs shard 0 of 2 (it is alive)
        claims.take_shards(store, 2, [0], claims.this_process())
    code, err = await finished(bot_process(None, {"BOMBARDIER_SHARDS": "0/2", "BOMBARDIER_DATABASE": str(database)},
                                           tmp_path / "second"))
    assert code == 2 and err.strip().count("\n") == 0, err
    assert f"shard 0 of 2 is run by another live bot process ({claims.this_process()}" in err
    # another shard starts (refused only later, at the stand-in-less gateway: exit 1, not 2)
    code, err = await finished(bot_process(None, {"BOMBARDIER_SHARDS": "1/2", "BOMBARDIER_DATABASE": str(database)},
                                           tmp_path / "third"))
    assert code == 1 and "another live bot process" not in err, err
    # a process that is gone (killed) holds nothing: its shard starts again at once
    with open_store(database) as store:
        claims.release(store, claims.this_process())
        claims.take_shards(store, 2, [0], f"{claims.this_process().split(':')[0]}:{2**22 + 12345}")
    code, err = await finished(bot_process(None, {"BOMBARDIER_SHARDS": "0/2", "BOMBARDIER_DATABASE": str(database)},
                                           tmp_path / "fourth"))
    assert "another live bot process" not in err, err


async def test_two_processes_on_one_shard_answer_each_interaction_once(standin, tmp_path):
    database = tmp_path / "shared.sqlite3"
    bots = [create_bot(Settings(token="standin-token", data_dir=tmp_path / f"p{n}", database=database, dice_seed=n,
                                sync_commands=n == 0)) for n in range(2)]
    for n, bot in enumerate(bots):
        bot.claims_holder = f"test-process-{n}:{n}"  # as run_discord's lease_shards sets it
    runners = [await start_client(bot) for bot in bots]
    try:
        async def once(payload):
            await standin.dispatch("INTERACTION_CREATE", payload)
            await standin.answered(payload, timeout=30)

        await once(standin.slash("/battle start", permissions=MANAGER_PERMISSIONS))
        for _ in range(3):
            await once(standin.slash("/battle turn", permissions=MANAGER_PERMISSIONS))
        await once(standin.slash("/roll", expression="1d6"))
        await asyncio.sleep(0.5)  # time for a second answer, were there one
        callbacks = [r.path for r in standin.requests if r.path.endswith("/callback")]
        assert len(callbacks) == len(set(callbacks)) == 5  # each interaction answered once, in all
        store = bots[0].store
        battle = campaigns.current_battle(store, GUILD_ID, CHANNEL_ID)
        assert battle.turn == 4  # three turns pressed, three moved
        assert roll_log.current_chain(store, roll_log.battle_chain(battle.id)).logged == 1  # one roll, logged once
    finally:
        for bot, runner in zip(bots, runners):
            await bot.close()
            await asyncio.wait_for(runner, 10)


async def test_log_export_and_battle_end_defer_before_reading_the_store(tmp_path, monkeypatch):
    from console import offline as console
    from cogs.dice import roll as roll_cog

    bot = create_bot(Settings(data_dir=tmp_path, sync_commands=False, dice_seed=3))
    await bot.load_cogs()
    seen: list[tuple[str, bool]] = []
    real_export, real_end = roll_log.export_log, campaigns.end_battle_revealed

    def export_log(*args, **kwargs):
        seen.append(("export", DEFERRED_KEY in serving_interaction().extras))
        return real_export(*args, **kwargs)

    def end_battle(*args, **kwargs):
        seen.append(("end", DEFERRED_KEY in serving_interaction().extras))
        return real_end(*args, **kwargs)

    def serving_interaction():
        from cogs.common.dice_source import serving
        return serving.get()

    monkeypatch.setattr(roll_cog.roll_log, "export_log", export_log)
    monkeypatch.setattr(campaigns, "end_battle_revealed", end_battle)
    try:
        await console.invoke(bot, "/battle start")
        await console.invoke(bot, "/roll expression:1d6")
        await console.invoke(bot, "/log export")
        await console.invoke(bot, "/battle end")
    finally:
        await bot.close()
    assert ("export", True) in seen and ("end", True) in seen and all(deferred for _, deferred in seen), seen
