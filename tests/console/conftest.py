"""The console tier's shared set-up: a bot with its cogs loaded, and `play` to run one command
line through the console and read its --json answer."""

import io
import json

import pytest

from bot import create_bot
from console import offline as console
from config.settings import Settings


@pytest.fixture
async def bot(tmp_path):
    bot = create_bot(Settings(data_dir=tmp_path, sync_commands=False, dice_seed=3))
    await bot.load_cogs()
    return bot


@pytest.fixture
def play(bot):
    """``await play(line)``: the exit code and the JSON object the console printed. Keyword
    arguments stand in for another user, server or channel (console.OfflineInteraction)."""

    async def run(line: str, on=None, **who) -> tuple[int, dict]:
        out = io.StringIO()
        code = await console.run_line(on or bot, line, as_json=True, out=out, **who)
        return code, json.loads(out.getvalue())

    return run
