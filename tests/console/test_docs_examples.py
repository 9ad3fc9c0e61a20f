"""What README.md and docs/ tell people to type works: the ten commands of README, the worked
examples of the getting-started pages (with the outcome the page quotes), and the standard-library
script of docs/roll-log.md run on a real export with nothing but Python."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from console import offline as console
from cogs.common.replies import ERROR_KEY, FAILURE_KEY, REPLY_KEY

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def readme_commands() -> list[str]:
    section = README.split("## The ten commands people use most", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `(/[^`]+)` \|", section, flags=re.M)


async def run(bot, line: str, **where):
    interaction = await console.invoke(bot, line, **where)
    assert ERROR_KEY not in interaction.extras and FAILURE_KEY not in interaction.extras, (
        line, interaction.extras.get(ERROR_KEY) or interaction.extras.get(FAILURE_KEY))
    return interaction.extras[REPLY_KEY]


def test_readme_lists_ten_commands():
    commands = readme_commands()
    assert len(commands) == 10 and len(set(commands)) == 10, commands


@pytest.mark.parametrize("line", readme_commands())
async def test_each_of_readmes_ten_commands_runs(bot, line):
    if line.startswith("/battle"):
        await run(bot, "/battle start")  # there is a battle to show
    await run(bot, line)


def check_log_script() -> str:
    page = (ROOT / "docs" / "roll-log.md").read_text(encoding="utf-8")
    section = page.split("## Checking a log yourself", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


async def test_the_standard_library_check_passes_a_real_export_and_catches_a_change(bot, tmp_path):
    for line in ('/fire cannon distance:30 dice:"H 4 8"', '/roll expression:"2d6+1, 10d6>=4"', "/misfire chart:blackpowder"):
        await run(bot, line)
    reply = await run(bot, "/log reveal")
    name, data = next((n, d) for n, d in reply.attachments if n.endswith(".json"))
    export = json.loads(data)
    assert export["secret"] and len(export["entries"]) == 3
    script = tmp_path / "check_log.py"
    script.write_text(check_log_script(), encoding="utf-8")

    def check(log: dict) -> subprocess.CompletedProcess:
        path = tmp_path / name
        path.write_text(json.dumps(log), encoding="utf-8")
        # -I -S: no site-packages, no project on the path: nothing but Python itself
        return subprocess.run([sys.executable, "-I", "-S", str(script), str(path)], capture_output=True, text=True, timeout=60)

    ok = check(export)
    assert ok.returncode == 0, ok.stderr
    assert "the secret matches the commitment" in ok.stdout
    assert f"3 entries chained; the last hash is {export['entries'][-1]['hash']}" in ok.stdout

    changed = json.loads(data)
    changed["entries"][1]["dice"][0]["face"] = "1" if changed["entries"][1]["dice"][0]["face"] != "1" else "2"
    bad = check(changed)
    assert bad.returncode != 0 and "roll 2: changed after it was logged" in bad.stderr

    removed = json.loads(data)
    del removed["entries"][0]
    assert "moved" in check(removed).stderr

    wrong_secret = json.loads(data)
    wrong_secret["secret"] = "00" * 32
    assert "does not match the commitment" in check(wrong_secret).stderr


def worked_examples(page: Path) -> list[tuple[str, list[str]]]:
    """The page's ```console blocks: a command line, then the first lines of its answer as the
    page quotes them (the reply's summary, the headline first)."""
    blocks = re.findall(r"^[ \t]*```console\n(.*?)^[ \t]*```", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    examples = []
    for block in blocks:
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        assert lines and lines[0].startswith("/"), f"{page.name}: a console block starts with its command: {block!r}"
        examples.append((lines[0], lines[1:]))
    return examples


PAGES_WITH_EXAMPLES = [p for p in sorted((ROOT / "docs").glob("*.md")) if "```console" in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=lambda p: p.name)
async def test_every_worked_example_answers_as_the_page_says(bot, page):
    """The examples of a page run in order, in a server and channel of their own (a campaign page
    builds its battle as it goes)."""
    where = {"guild_id": 7000 + PAGES_WITH_EXAMPLES.index(page), "channel_id": 7100 + PAGES_WITH_EXAMPLES.index(page)}
    examples = worked_examples(page)
    assert examples
    for line, expected in examples:
        reply = await run(bot, line, **where)
        assert list(reply.summary[: len(expected)]) == expected, (page.name, line, reply.summary[:3])


def test_the_getting_started_pages_have_worked_examples():
    names = {p.name for p in PAGES_WITH_EXAMPLES}
    assert {"fantasy.md", "warmaster.md", "wh40k.md", "campaigns.md"} <= names, names
