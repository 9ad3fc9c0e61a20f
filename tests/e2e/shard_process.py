"""One bot process of a sharded bot, for tests/e2e/test_shards_e2e.py: the real start-up path
(``bot.run_discord`` with settings from the environment: DISCORD_TOKEN, BOMBARDIER_SHARDS,
BOMBARDIER_DATABASE, BOMBARDIER_DATA), its Discord the stand-in whose REST base and gateway are
the two arguments. ``python tests/e2e/shard_process.py http://127.0.0.1:P/api/v10 ws://127.0.0.1:P/``"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402

discord.http.Route.BASE = sys.argv[1]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])

import bot  # noqa: E402
from config.settings import load_settings  # noqa: E402

if __name__ == "__main__":  # (not again in a worker process that re-imports this script)
    sys.exit(bot.run_discord(load_settings()))
