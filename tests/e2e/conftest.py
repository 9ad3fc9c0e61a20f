"""The real discord.py client, built by create_bot(settings), logged in to the Discord stand-in."""

from __future__ import annotations

import asyncio

import discord.gateway
import discord.http
import pytest

from bot import create_bot
from config.settings import Settings
from tests.e2e.standin import DiscordStandIn, point_discord_py_at, start_client


@pytest.fixture
async def standin():
    server = DiscordStandIn()
    await server.start()
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    point_discord_py_at(server)
    yield server
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
    await server.stop()


@pytest.fixture
async def live_bot(standin, tmp_path):
    bot = create_bot(Settings(token="standin-token", data_dir=tmp_path, dice_seed=11))
    runner = await start_client(bot)
    yield bot
    await bot.close()
    await asyncio.wait_for(runner, 10)
