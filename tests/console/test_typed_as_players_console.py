"""Issue 30, items 3 and 5: the console reads a command as players type it. ``/roll 2d6`` takes
its expression first (never a hint to write distance:30); an unknown command suggests the
nearest three and /help, never the whole list."""

import pytest


@pytest.mark.parametrize("line, total_dice", [("/roll 2d6", 2), ("/roll 1d20+5 adv", 2), ("/roll expression:2d6 x2", 4),
                                              ("/roll 1d20 \u2013 2", 1)])
async def test_roll_takes_its_expression_first(play, line, total_dice):
    code, out = await play(line)
    assert code == 0 and len(out["dice"]) == total_dice


async def test_a_word_without_a_colon_names_the_commands_own_option(play):
    code, out = await play("/fire cannon 30")
    assert code == 2 and "distance:30" not in out["error"] and "distance:VALUE" in out["error"]


@pytest.mark.parametrize("line, first", [("/xyzzy", None), ("/frie cannon", "/fire cannon"), ("/fire canon distance:30", "/fire cannon")])
async def test_an_unknown_command_suggests_the_nearest_three_and_help(play, line, first):
    code, out = await play(line)
    error = out["error"]
    assert code == 2 and "/help" in error and error.count("/") <= 5
    if first:
        assert f"Did you mean {first}" in error


async def test_the_help_glance_leads_with_fire_and_counts_the_rest(play):
    code, out = await play("/help")
    lines = out["glance"]["lines"]
    assert code == 0 and lines[1].startswith("• /fire:") and "/fire cannon" in lines[1]
    assert lines[-1].startswith("and ") and lines[-1].endswith("more: see Details")
    assert len(out["commands"]) >= 15  # Details (and --json) still have every command


async def test_the_verify_path_docs_console_gives_is_the_one_the_console_writes(play):
    import re
    from pathlib import Path

    from console.verify import verify_file

    await play("/roll 2d6")
    code, out = await play("/log export")
    path = next(f for f in out["files"] if f.endswith(".json"))
    assert code == 0 and re.search(r"console/[0-9a-f]{10}/roll-log-epoch1\.json$", path)
    doc = (Path(__file__).parents[2] / "docs" / "console.md").read_text(encoding="utf-8")
    assert "./bombardier verify data/console/<hash>/roll-log-epoch1.json" in doc
    assert verify_file(path, None) == 0
