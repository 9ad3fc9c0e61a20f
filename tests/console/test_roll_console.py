"""/roll and /log through the console's --json, and `python bot.py verify` on what they export."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import create_bot
from config.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


async def test_roll_json_has_every_expression_total_and_die(play):
    code, result = await play('/roll expression:"2d6+1, 10d6>=5 r1, 2d6kh1 1a 1s" dice:"3 4"')
    assert code == 0, result
    assert result["command"] == "roll"
    exprs = result["expressions"]
    assert [e["expression"] for e in exprs] == ["2d6+1", "10d6>=5r1", "2d6kh1", "1a", "1s"]
    assert [e["kind"] for e in exprs] == ["sum", "pool", "sum", "sum", "scatter"]
    assert exprs[0]["total"] == 8
    assert [d["by"] for d in exprs[0]["terms"][0]["dice"]] == ["player", "player"]
    pool = exprs[1]["terms"][0]["dice"]
    assert len(pool) == 10 + sum(d["rerolled"] for d in pool)
    assert exprs[1]["total"] == sum(1 for d in pool if d["success"])
    assert len(result["dice"]) == sum(len(t["dice"]) for e in exprs for t in e["terms"])
    assert result["log"]["roll"] == 1 and len(result["log"]["hash"]) == 64
    assert result["summary"][0] == "2d6+1: 8"


async def test_each_roll_is_the_next_in_the_channel_log(play):
    await play("/roll expression:1d6")
    code, result = await play("/roll expression:1d20")
    assert result["log"]["roll"] == 2
    assert result["dice"][0]["die"] == "d20"


async def test_a_seeded_session_replays_from_a_fresh_database(tmp_path):
    from console import offline as console
    import io

    answers = []
    for n in range(2):
        bot = create_bot(Settings(data_dir=tmp_path / str(n), sync_commands=False, dice_seed=42))
        await bot.load_cogs()
        out = io.StringIO()
        await console.run_line(bot, "/roll expression:20d6", as_json=True, out=out)
        answers.append(json.loads(out.getvalue()))
    assert answers[0]["dice"] == answers[1]["dice"]


@pytest.mark.parametrize("line, message", [
    ('/roll expression:"2d6+x"', "Roll: 'x' cannot start a roll: write a die like 2d6, 1a or 1s, or a number (at character 5):\n```\n2d6+x\n    ^\n```"),
    ("/roll expression:1001d6", "that makes 1001 dice; one /roll rolls at most 1000"),
    ('/roll expression:1a dice:"5"', "'5' (die 1) does not fit the artillery die rolled for 1a"),
    ('/roll expression:1d6 dice:"4 4"', "left over"),
])
async def test_roll_mistakes_are_errors_and_log_nothing(line, message, play):
    code, result = await play(line)
    assert code == 2 and message in result["error"]
    code, shown = await play("/log show")
    assert shown["entries"] == []


async def test_log_show_lists_the_last_entries(play):
    for text in ("1d6", "2d6", "3d6"):
        await play(f"/roll expression:{text}")
    code, result = await play("/log show count:2")
    assert code == 0
    assert [e["roll"] for e in result["entries"]] == [2, 3]
    assert result["epoch"] == 1 and len(result["commitment"]) == 64
    assert result["entries"][1]["options"] == {"expression": "3d6"}


def run_cli(*args: str, tmp_path) -> subprocess.CompletedProcess:
    env = {**os.environ, "BOMBARDIER_DATA": str(tmp_path)}
    env.pop("DISCORD_TOKEN", None)
    return subprocess.run([sys.executable, str(ROOT / "bot.py"), *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)


async def test_export_and_reveal_attach_json_and_csv_that_verify(play, tmp_path):
    await play('/roll expression:"10d6>=4 r1, 1a+1d6, 1s" dice:"1"')
    await play("/roll expression:d100")
    code, exported = await play("/log export")
    assert code == 0 and exported["entries"] == 2 and not exported["revealed"]
    json_file, csv_file, html_file = exported["files"]
    assert json_file.endswith(".json") and csv_file.endswith(".csv") and html_file.endswith(".html")
    assert '"format": "bombardier-roll-log"' in Path(html_file).read_text() or "bombardier-roll-log" in Path(html_file).read_text()
    assert json.loads(Path(json_file).read_text())["secret"] is None
    code, revealed = await play("/log reveal")
    assert code == 0 and revealed["epoch"] == 1 and len(revealed["secret"]) == 64
    data = json.loads(Path(revealed["files"][0]).read_text())
    assert data["secret"] == revealed["secret"]

    ok = run_cli("verify", revealed["files"][0], tmp_path=tmp_path)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "OK: the chain is unbroken and the secret matches the commitment." in ok.stdout
    assert "1 dice were entered by players" in ok.stdout

    data["entries"][1]["dice"][0]["face"] = "100" if data["entries"][1]["dice"][0]["face"] != "100" else "99"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    failed = run_cli("verify", str(bad), tmp_path=tmp_path)
    assert failed.returncode == 1
    assert "FAILED at roll 2: its content does not match its seal: it was changed after it was logged" in failed.stdout

    (tmp_path / "junk.json").write_text("not json")
    unreadable = run_cli("verify", str(tmp_path / "junk.json"), tmp_path=tmp_path)
    assert unreadable.returncode == 2 and "is not JSON" in unreadable.stdout
    missing = run_cli("verify", str(tmp_path / "none.json"), tmp_path=tmp_path)
    assert missing.returncode == 2 and "Cannot read" in missing.stdout

    # after the reveal a new epoch starts at roll 1; the old one can still be exported, secret and all
    code, again = await play("/roll expression:1d6")
    assert again["log"]["roll"] == 1
    code, old = await play("/log export epoch:1")
    assert code == 0 and old["revealed"]


@pytest.mark.parametrize("line, message", [
    ("/log export", "Nothing has been rolled in this channel yet"),
    ("/log reveal", "Nothing has been rolled in this channel yet"),
])
async def test_an_empty_log_has_nothing_to_export_or_reveal(line, message, play):
    code, result = await play(line)
    assert code == 2 and message in result["error"]


async def test_exporting_an_epoch_that_does_not_exist(play):
    await play("/roll expression:1d6")
    code, result = await play("/log export epoch:5")
    assert code == 2 and "This channel's log has no epoch 5" in result["error"]
