"""A whole campaign through the offline console's --json, as the console's own user (a server
manager in the offline server and channel), and the store kept between console runs."""

import json
import subprocess
import sys
from pathlib import Path

import discord

from console.offline import OFFLINE_CHANNEL_ID, OFFLINE_GUILD_ID, OFFLINE_USER_ID

ROOT = Path(__file__).resolve().parents[2]


async def test_a_campaign_from_settings_to_the_battle_report(play):
    assert (await play("/settings game game:fantasy"))[1]["settings"]["game"] == "fantasy"
    code, out = await play('/campaign create name:"Border Wars"')
    assert code == 0 and out["campaign"]["members"] == [OFFLINE_USER_ID] and out["command"] == "campaign create"
    await play('/machine add name:"Old Betsy" kind:cannon crew:3')
    code, out = await play('/battle start campaign:"Border Wars"')
    assert out["battle"]["channel"] == OFFLINE_CHANNEL_ID and out["battle"]["turn"] == 1
    code, out = await play('/fire cannon distance:30 machine:"Old Betsy" dice:"@90 M 4"')
    assert code == 0 and out["machine"]["silent_until_turn"] == 3 and out["dice"][-1]["face"] == "4"
    code, out = await play('/fire cannon distance:30 machine:"Old Betsy"')
    assert (code, out) == (2, {"error": "Old Betsy cannot fire until turn 3 (Malfunction, Black Powder Misfire Chart 4); it is turn 1."})
    code, out = await play("/battle status")
    assert out["image"].endswith(".png") and out["machines"][0]["status"].startswith("cannot fire until turn 3")
    code, out = await play("/battle end")
    assert code == 0 and out["totals"]["shots"] == 1 and len(out["files"]) == 4
    report = json.loads(Path(next(f for f in out["files"] if f.endswith(".json") and not f.endswith("-rolls.json"))).read_text())
    assert report["battle"]["campaign"] == "Border Wars" and report["shots"][0]["fired"] is False
    assert Path(next(f for f in out["files"] if f.endswith(".md"))).read_text().startswith("# Battle report")


async def test_bad_input_and_refusals_are_errors_with_exit_code_2(play):
    assert await play("/machine add name:X kind:trebuchet") == (
        2, {"error": "kind: 'trebuchet' is not one of the choices: cannon, great-cannon, stone-thrower, bolt-thrower, "
               "fire-thrower, wm-artillery, 40k-vehicle."})
    assert (await play("/campaign info name:Nowhere"))[1]["error"].startswith("There is no campaign called 'Nowhere'")
    code, out = await play("/settings game game:40k", permissions=discord.Permissions.none())
    assert (code, out["error"]) == (2, "To change the bot's settings you need the Manage Server permission.")
    assert (await play("/battle turn", guild_id=OFFLINE_GUILD_ID + 1))[1]["error"].startswith("There is no battle")


def test_the_store_lasts_between_console_runs(tmp_path):
    env = {"BOMBARDIER_DATA": str(tmp_path), "PATH": "/usr/bin:/bin"}

    def play(line):
        done = subprocess.run([sys.executable, "bot.py", "play", "--json", line], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=60)
        return done.returncode, json.loads(done.stdout)

    assert play('/machine add name:"Old Betsy" kind:cannon')[0] == 0
    assert play("/battle start")[0] == 0
    assert play("/battle turn")[1]["battle"]["turn"] == 2
    code, out = play("/machine list")
    assert out["machines"][0]["name"] == "Old Betsy" and out["machines"][0]["owner"] == OFFLINE_USER_ID
    assert play("/battle status")[1]["battle"]["turn"] == 2


async def test_battle_status_and_report_carry_the_channels_siege(play):
    assert (await play("/battle start"))[0] == 0
    code, out = await play('/siege structure kind:gateway section:gate hits:2 dice:"3 3"')
    assert code == 0 and out["structure"]["tokens_after"] == 1
    code, out = await play("/battle status")
    assert code == 0 and out["fortifications"] == [{"section": "gate", "kind": "gateway", "gate": False,
                                                    "structure_points": 12, "tokens": 1, "breached": False}]
    assert "  **gate** (Gateway, 12 structure points): 1 Destruction Token" in out["summary"]
    await play("/battle turn")
    await play('/siege structure kind:gateway section:gate hits:2 dice:"6 6 6"')
    code, out = await play("/battle end")
    report = next(f for f in out["files"] if f.endswith(".md"))
    assert "| gate | Gateway | 12 | - | breached |" in open(report, encoding="utf-8").read()
