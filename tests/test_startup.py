"""Starting the bot as an operator would: whatever keeps it from starting is one line on stderr and
a non-zero exit, never a traceback, and never the token.

Each case runs ``bot.py``'s ``main`` in a child process (its logging and stderr are the real ones),
pointed at a local address: nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from config.settings import KNOWN_KEYS, Settings, SettingsError, load_settings

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "MTIz.secret-token.never-shown"

DRIVER = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[1])
    import discord.http
    discord.http.Route.BASE = sys.argv[2]
    import bot
    sys.exit(bot.main([]))
""")


def start(tmp_path: Path, base: str, *, config: str | None = None, token: str | None = TOKEN) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "BOMBARDIER_DATA": str(tmp_path / "data")}
    if token:
        env["DISCORD_TOKEN"] = token
    if config is not None:
        (tmp_path / "bombardier.toml").write_text(config, encoding="utf-8")
        env["BOMBARDIER_CONFIG"] = str(tmp_path / "bombardier.toml")
    return subprocess.run([sys.executable, "-c", DRIVER, str(ROOT), base], env=env, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)


def one_line(result: subprocess.CompletedProcess) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr and TOKEN not in result.stderr + result.stdout
    return lines[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_no_reachable_discord_is_one_line_and_exit_1(tmp_path):
    result = start(tmp_path, f"http://127.0.0.1:{free_port()}/api/v10")  # nothing listens there
    assert result.returncode == 1
    line = one_line(result)
    assert "Cannot reach Discord" in line and "connection was refused" in line


def test_a_refused_token_is_one_line_and_exit_1(tmp_path):
    """A tiny HTTP server on 127.0.0.1 answers every request as Discord answers a bad token: 401."""
    server = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent("""
            import http.server, json, sys
            class H(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    body = json.dumps({"message": "401: Unauthorized", "code": 0}).encode()
                    self.send_response(401); self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
                def log_message(self, *a): pass
            s = http.server.HTTPServer(("127.0.0.1", 0), H)
            print(s.server_address[1], flush=True)
            s.serve_forever()
        """)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        port = int(server.stdout.readline())
        result = start(tmp_path, f"http://127.0.0.1:{port}/api/v10")
    finally:
        server.kill()
        server.wait()
    assert result.returncode == 1
    assert "Discord refused the token" in one_line(result)


def test_an_unreadable_settings_file_is_one_line_and_exit_2(tmp_path):
    result = start(tmp_path, "http://127.0.0.1:9/api/v10", config="sync_guilds = [1, 2\n")
    assert result.returncode == 2
    assert "cannot be read" in one_line(result)


def test_an_unusable_data_folder_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "data").write_text("a file where the data folder should be", encoding="utf-8")
    result = start(tmp_path, "http://127.0.0.1:9/api/v10")
    assert result.returncode == 2
    assert "cannot be used" in one_line(result)


def test_an_unknown_key_is_named_at_start_with_the_likely_one(tmp_path):
    result = start(tmp_path, "http://127.0.0.1:9/api/v10", config="sync_guild = [123]\n")
    assert result.returncode == 2
    line = one_line(result)
    assert "'sync_guild'" in line and "did you mean 'sync_guilds'?" in line


def test_every_unknown_key_is_named_and_known_keys_pass(tmp_path):
    path = tmp_path / "b.toml"
    path.write_text('log_levl = "DEBUG"\nflavour = 1\n', encoding="utf-8")
    with pytest.raises(SettingsError) as e:
        load_settings({"BOMBARDIER_CONFIG": str(path)})
    assert "'log_levl' (did you mean 'log_level'?)" in str(e.value) and "'flavour'" in str(e.value)
    path.write_text("\n".join(f"{k} = {v}" for k, v in {
        "data_dir": '"d"', "sync_guilds": "[1]", "sync_commands": "false", "log_level": '"debug"',
    }.items()) + "\n", encoding="utf-8")
    settings = load_settings({"BOMBARDIER_CONFIG": str(path)})
    assert settings.sync_guilds == (1,) and settings.log_level == "DEBUG" and not settings.sync_commands
    assert {"token_file", "data_dir", "database", "sync_guilds", "sync_commands", "log_level"} <= set(KNOWN_KEYS)


async def test_each_top_level_command_is_mapped_to_the_extension_that_defines_it(tmp_path):
    """The console's one-shot run loads only the listed extension, so the map must agree with the
    tree: a command missing from it still works (every cog is loaded), but costs start-up time."""
    from bot import COMMAND_EXTENSIONS, EXTENSIONS, create_bot
    from config.settings import Settings

    bot = create_bot(Settings(data_dir=tmp_path, sync_commands=False))
    await bot.load_cogs()
    defined = {command.name: type(cog).__module__ for cog in bot.cogs.values() for command in cog.get_app_commands()}
    assert set(defined) == {c.name for c in bot.tree.get_commands()}
    for name, extensions in COMMAND_EXTENSIONS.items():
        assert name in defined, f"/{name} is mapped but not in the tree"
        assert defined[name] in extensions and set(extensions) <= set(EXTENSIONS), name
    unmapped = sorted(set(defined) - set(COMMAND_EXTENSIONS))
    assert unmapped == ["help"], f"add these to bot.COMMAND_EXTENSIONS (or the console loads every cog): {unmapped}"
    await bot.close()


async def test_a_one_shot_console_command_loads_only_its_own_cog_and_the_buttons(tmp_path):
    from bot import create_bot
    from config.settings import Settings
    from console.offline import top_level_name

    bot = create_bot(Settings(data_dir=tmp_path, sync_commands=False))
    await bot.load_cogs(top_level_name('/fire cannon distance:30 dice:"H 4 8"'))
    assert set(bot.extensions) == {"cogs.fantasy.fire", "cogs.common.buttons"}
    assert [c.name for c in bot.tree.get_commands()] == ["fire", "misfire"]
    await bot.load_cogs(top_level_name("/help"))  # /help walks the whole tree: everything loads
    assert {"cogs.campaign.commands", "cogs.rules.commands", "cogs.wh40k.vehicles"} <= set(bot.extensions)
    await bot.close()


# -- shards (issue 15) ----------------------------------------------------------------------------
@pytest.mark.parametrize("written, count, ids", [
    ("0-3/8", 8, (0, 1, 2, 3)), ("1,5/8", 8, (1, 5)), ("0-1,6/8", 8, (0, 1, 6)), ("8", 8, None), (" 1/2 ", 2, (1,)),
])
def test_bombardier_shards_names_this_processs_shards(written, count, ids):
    from config.settings import load_settings

    settings = load_settings({"BOMBARDIER_SHARDS": written, "BOMBARDIER_CONFIG": os.devnull})
    assert (settings.shard_count, settings.shard_ids) == (count, ids)


@pytest.mark.parametrize("written, says", [
    ("4/4", "shard 4 does not exist among 4 shards (they are 0 to 3)"),
    ("0,0/2", "a shard is listed twice"),
    ("0/0", "at least 1 shard"),
    ("two", "is not a list of shards: e.g. 0-3/8"),
    ("a-b/8", "is not a list of shards"),
    ("3-1/8", "the range 3-1 runs backwards: write 1-3"),
    ("9" * 5000, "is not a list of shards"),
    ("9" * 4000, "shards is more than a bot can have here"),
    ("0-3/8" + "x" * 5000, "is not a list of shards"),
])
def test_a_wrong_bombardier_shards_is_refused_in_words(written, says):
    from config.settings import SettingsError, load_settings

    with pytest.raises(SettingsError, match=re.escape(says)) as refused:
        load_settings({"BOMBARDIER_SHARDS": written, "BOMBARDIER_CONFIG": os.devnull})
    assert len(str(refused.value)) < 300  # one line an operator reads, not the whole value echoed back


def test_the_toml_shard_keys_are_checked_too(tmp_path):
    from config.settings import SettingsError, load_settings

    toml = tmp_path / "b.toml"
    toml.write_text("shard_count = 4\nshard_ids = [2, 3]\n")
    settings = load_settings({"BOMBARDIER_CONFIG": str(toml)})
    assert (settings.shard_count, settings.shard_ids) == (4, (2, 3))
    toml.write_text("shard_ids = [1]\n")
    with pytest.raises(SettingsError, match="shard_ids needs shard_count"):
        load_settings({"BOMBARDIER_CONFIG": str(toml)})
    toml.write_text('shard_count = "8"\n')
    with pytest.raises(SettingsError, match="must be a whole number of shards"):
        load_settings({"BOMBARDIER_CONFIG": str(toml)})


def test_the_bot_runs_every_shard_by_default_and_the_configured_ones_otherwise(tmp_path):
    from bot import create_bot

    default = create_bot(Settings(data_dir=tmp_path, sync_commands=False))
    assert default.shard_count is None and default.shard_ids is None  # as many as Discord recommends, all here
    some = create_bot(Settings(data_dir=tmp_path, sync_commands=False, shard_count=8, shard_ids=(2, 3)))
    assert some.shard_count == 8 and some.shard_ids == [2, 3]
