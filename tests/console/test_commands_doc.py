"""docs/commands.md is generated from the command tree (``python bot.py commands --markdown``);
these tests fail when a command, option, bound or choice changed and the page was not
regenerated. The tree is built without connecting, so they stay cheap."""

import os
import subprocess
import sys
from pathlib import Path

from console import offline as console

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "commands.md"
REGENERATE = "run: make docs (or .venv/bin/python bot.py commands --markdown > docs/commands.md)"


async def test_docs_commands_md_is_what_the_command_tree_makes_now(bot):
    made = console.command_markdown(bot.tree)
    assert DOC.read_text(encoding="utf-8") == made, f"docs/commands.md is stale; {REGENERATE}"


async def test_every_command_and_option_is_in_the_page(bot):
    page = console.command_markdown(bot.tree)
    for record in console.command_tree(bot.tree):
        heading = f"`/{record['name']}`"
        assert heading in page, record["name"]
        section = page.split(heading, 1)[1].split("\n#", 1)[0]
        for option in record["options"]:
            assert f"| `{option['name']}` |" in section, (record["name"], option["name"])
    for top in bot.tree.get_commands():
        assert f"[/{top.name}](#{top.name})" in page


async def test_a_pipe_in_a_description_does_not_break_the_table(bot):
    record = {"name": "x", "description": "a | b", "options": [{
        "name": "o", "description": "c | d", "type": "string", "required": False,
        "choices": [{"name": "e|f", "value": "g"}], "min_value": None, "max_value": None, "autocomplete": False,
    }]}
    lines = console._markdown_command(record, "##")
    row = next(line for line in lines if line.startswith("| `o`"))
    assert row.replace("\\|", "").count("|") == 6


def test_bot_py_commands_markdown_prints_the_page(tmp_path):
    env = {**os.environ, "BOMBARDIER_DATA": str(tmp_path)}
    env.pop("DISCORD_TOKEN", None)
    done = subprocess.run([sys.executable, str(ROOT / "bot.py"), "commands", "--markdown"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == DOC.read_text(encoding="utf-8"), f"docs/commands.md is stale; {REGENERATE}"
