"""The real discord.py client, built by create_bot(settings), logged in to the Discord stand-in.

The stand-in refuses what Discord refuses (tests/discord_limits.py); a test that leaves a refusal
behind fails, unless it marks itself ``@pytest.mark.refusals_expected`` to check refusals itself."""

from __future__ import annotations

import asyncio
import contextlib

import discord.gateway
import discord.http
import pytest

from bot import create_bot
from config.settings import Settings
from tests.e2e.standin import DiscordStandIn, point_discord_py_at, start_client


@contextlib.asynccontextmanager
async def serving(server: DiscordStandIn, request):
    """`server` started with the real client aimed at it; afterwards the aim restored, the server
    stopped, and the test failed for any refusal it did not expect."""
    await server.start()
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    point_discord_py_at(server)
    try:
        yield server
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
        await server.stop()
    if not request.node.get_closest_marker("refusals_expected"):
        assert not server.refused, "Discord would refuse: " + "; ".join(
            f"{r.method} {r.path}: " + ", ".join(map(str, why)) for r, why in server.refused)


@pytest.fixture
async def standin(request):
    async with serving(DiscordStandIn(), request) as server:
        yield server


@pytest.fixture
async def live_bot(standin, tmp_path):
    bot = create_bot(Settings(token="standin-token", data_dir=tmp_path, dice_seed=11))
    runner = await start_client(bot)
    yield bot
    await bot.close()
    await asyncio.wait_for(runner, 10)
