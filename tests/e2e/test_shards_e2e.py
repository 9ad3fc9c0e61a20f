"""Shards (issue 15, part 3): the real client sharded against the stand-in, which sends each
guild's events only to the shard Discord would use, ``(guild_id >> 22) % shard_count``.

- one process running both shards of two answers in both servers;
- two bot processes, each with one shard of two, share one store (PostgreSQL, and SQLite): campaigns and battles
  run in a server on each shard; one process is killed (SIGKILL) and restarted while the other
  keeps answering; nothing is lost and no command is answered twice."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot import create_bot
from config.settings import Settings
from storage import campaigns
from storage.migrations import open_store
from tests.e2e.conftest import serving
from tests.e2e.standin import GUILD_2_ID, GUILD_ID, MANAGER_PERMISSIONS, DiscordStandIn, start_client

ROOT = Path(__file__).resolve().parents[2]


def test_the_stand_in_puts_the_two_servers_on_different_shards():
    assert DiscordStandIn.shard_of(GUILD_ID, 2) != DiscordStandIn.shard_of(GUILD_2_ID, 2)


@pytest.fixture
async def two_shard_standin(request):
    async with serving(DiscordStandIn(guilds=(GUILD_ID, GUILD_2_ID), shard_count=2), request) as server:
        yield server


async def answered_once(standin: DiscordStandIn, payload: dict, timeout: float = 20.0):
    await standin.dispatch("INTERACTION_CREATE", payload)
    first, final = await standin.answered(payload, timeout)
    callbacks = [r for r in standin.responses(payload) if r.path.endswith("/callback")]
    assert len(callbacks) == 1, f"{payload['data']['name']} answered {len(callbacks)} times"
    return first, final


async def test_one_process_with_both_shards_answers_in_both_servers(two_shard_standin, tmp_path):
    bot = create_bot(Settings(token="standin-token", data_dir=tmp_path, dice_seed=3, shard_count=2))
    runner = await start_client(bot)
    try:
        assert sorted(bot.shards) == [0, 1]
        assert {s[0] for s in two_shard_standin.shards.values()} == {0, 1}
        for guild in (GUILD_ID, GUILD_2_ID):
            await answered_once(two_shard_standin, two_shard_standin.slash("/roll", guild_id=guild, expression="2d6"))
        assert {g.id for g in bot.guilds} == {GUILD_ID, GUILD_2_ID}
    finally:
        await bot.close()
        await asyncio.wait_for(runner, 10)


def start_shard(standin: DiscordStandIn, shard: int, database: str, data: Path) -> subprocess.Popen:
    """One bot process running `shard` of 2; what it says on stderr goes to ``data/shardN.err``
    (a file, not a pipe nobody reads, which a chatty process could fill and block on)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOMBARDIER_")}
    env.update(DISCORD_TOKEN="standin-token", BOMBARDIER_SHARDS=f"{shard}/2", BOMBARDIER_DATABASE=database,
               BOMBARDIER_DATA=str(data / f"shard{shard}"), BOMBARDIER_CONFIG=os.devnull)
    with open(data / f"shard{shard}.err", "ab") as err:
        proc = subprocess.Popen([sys.executable, str(ROOT / "tests/e2e/shard_process.py"), standin.rest_base,
                                 standin.gateway_url], env=env, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True)  # its render workers in its group, for the clean-up
    proc.err_path = data / f"shard{shard}.err"  # type: ignore[attr-defined]
    return proc


async def wait_for_shards(standin: DiscordStandIn, procs: dict[int, subprocess.Popen], shards: set[int],
                          timeout: float = 90.0) -> None:
    """Until each of `shards` has identified; a shard process that exits instead fails the test at
    once with its own words (it had been a silent 90 s wait: two processes migrating one new SQLite
    file at once, one dying on 'table already exists')."""
    waiting = asyncio.ensure_future(standin.wait_for_shards(shards, timeout=timeout))
    try:
        while not waiting.done():
            for shard, proc in procs.items():
                if shard in shards and proc.poll() is not None:
                    said = proc.err_path.read_text(errors="replace")[-3000:]  # type: ignore[attr-defined]
                    pytest.fail(f"shard {shard}'s process exited with {proc.returncode}:\n{said}")
            await asyncio.wait({waiting}, timeout=0.25)
        waiting.result()
    finally:
        waiting.cancel()


async def test_two_shard_processes_share_one_store_and_survive_a_kill(two_shard_standin, tmp_path, database):
    """On PostgreSQL, as a bot many servers add runs; on SQLite too (one file, several processes)."""
    database = str(database)
    standin = two_shard_standin
    procs = {0: start_shard(standin, 0, database, tmp_path), 1: start_shard(standin, 1, database, tmp_path)}
    killed: list[subprocess.Popen] = []
    try:
        await wait_for_shards(standin, procs, {0, 1})
        await standin.wait_for(lambda r: r.method == "PUT" and r.path.endswith("/commands"), timeout=30)

        def gm(command: str, guild: int, **options):
            return standin.slash(command, guild_id=guild, permissions=MANAGER_PERMISSIONS, **options)

        # a campaign and its battle in a server on each shard, each answered by its own process
        for guild in (GUILD_ID, GUILD_2_ID):
            for payload in (gm("/campaign create", guild, name="Border Wars"),
                            gm("/battle start", guild, campaign="Border Wars"),
                            gm("/battle turn", guild), gm("/roll", guild, expression="1d6")):
                await answered_once(standin, payload)

        # the process of GUILD_2's shard dies mid-game; the other keeps answering in its server
        dead, alive = DiscordStandIn.shard_of(GUILD_2_ID, 2), DiscordStandIn.shard_of(GUILD_ID, 2)
        procs[dead].send_signal(signal.SIGKILL)
        procs[dead].wait(10)
        killed.append(procs[dead])
        await standin.wait_for_shards({alive}, exactly=True)
        for payload in (gm("/battle turn", GUILD_ID), gm("/battle status", GUILD_ID)):
            await answered_once(standin, payload)

        # restarted, it finds its battle where it was and carries on
        procs[dead] = start_shard(standin, dead, database, tmp_path)
        await wait_for_shards(standin, procs, {0, 1})
        for payload in (gm("/battle turn", GUILD_2_ID), gm("/battle status", GUILD_2_ID)):
            await answered_once(standin, payload)

        with open_store(database) as store:
            here = campaigns.current_battle(store, GUILD_ID, standin.channel_of(GUILD_ID))
            there = campaigns.current_battle(store, GUILD_2_ID, standin.channel_of(GUILD_2_ID))
            assert (here.turn, there.turn) == (3, 3)  # every turn counted once, none lost in the kill
            assert here.campaign == there.campaign == "Border Wars"
        # no interaction was answered twice, in all
        callbacks = [r.path for r in standin.requests if r.path.endswith("/callback")]
        assert len(callbacks) == len(set(callbacks)) == 12
    finally:
        for p in [*procs.values(), *killed]:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:
                    p.kill()
            # what a process leaves behind: a SIGKILLed one's render workers and forkserver live on
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(p.pid, signal.SIGKILL)
