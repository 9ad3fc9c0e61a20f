"""Issue 14 part 3 through the console: another member's export carries private rolls sealed (the
roller's own stay in full, the GM's and managers' have everything) and still verifies; the roller
or the GM unseals one and both exports agree on its seal; /battle end and /log reveal post the
head and count that catch an export cut short; /log export finds the battle logs after a battle
ends; ``--seed`` repeats itself in two processes sharing one data folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import discord

from console import offline as console
from engine.ledger import verify
from storage import roll_log

ROOT = Path(__file__).resolve().parents[2]
CHANNEL = roll_log.channel_chain(console.OFFLINE_GUILD_ID, console.OFFLINE_CHANNEL_ID)
PLAYER = discord.Permissions.none()


async def run(bot, line, **who):
    interaction = await console.invoke(bot, line, **who)
    return interaction, interaction.extras.get(console.REPLY_KEY)


def exported(reply) -> dict:
    return json.loads(dict(reply.attachments)[next(n for n, _ in reply.attachments if n.endswith(".json"))])


async def private_rolls(bot):
    await run(bot, "/roll expression:3d6 private:true", user_id=201, permissions=PLAYER)
    await run(bot, "/roll expression:2d6", user_id=202, permissions=PLAYER)
    await run(bot, "/fire cannon distance:30 private:true", user_id=202, permissions=PLAYER)
    await run(bot, "/roll expression:1d20 private:true", user_id=203, permissions=PLAYER)


async def test_another_members_export_seals_others_private_rolls_and_still_verifies(bot):
    await private_rolls(bot)
    asked, reply = await run(bot, "/log export", user_id=202, permissions=PLAYER)
    data = exported(reply)
    sealed = {e["roll"]: e for e in data["entries"] if e.get("sealed")}
    assert set(sealed) == {1, 4}  # 201's and 203's; 202's own private roll stays in full
    for e in sealed.values():
        assert set(e) == {"roll", "time", "user", "sealed", "seal", "previous", "hash", "private"}  # version 4
        assert e["private"] is True  # its hash covers it
    assert data["entries"][2]["command"] == "fire cannon" and data["entries"][2]["options"]["private"] is True
    assert asked.sent[-1].get("ephemeral") is True  # it holds 202's private roll: for 202's eyes
    assert "2 private roll(s) of other players are sealed" in reply.summary[0]
    page = dict(reply.attachments)["roll-log-epoch1.html"].decode()
    # the sealed roll's expression is nowhere in the page's export (quoted: a hex hash may hold "3d6" by chance)
    assert '"3d6' not in page.split('<script id="export"')[1].split("</script>")[0]
    result = verify(data, head=data["head"])
    assert result.ok and result.sealed == (1, 4)
    # someone with no private roll of their own gets a public answer, everything private sealed
    asked, reply = await run(bot, "/log export", user_id=299, permissions=PLAYER)
    assert not asked.sent[-1].get("ephemeral") and [e["roll"] for e in exported(reply)["entries"] if e.get("sealed")] == [1, 3, 4]
    # a manager, and the GM role, see everything
    _, reply = await run(bot, "/log export")
    assert not any(e.get("sealed") for e in exported(reply)["entries"])
    await run(bot, "/settings gm-role role:555")
    _, reply = await run(bot, "/log export", user_id=298, roles=(555,), permissions=PLAYER)
    assert not any(e.get("sealed") for e in exported(reply)["entries"])


async def test_the_roller_or_the_gm_unseals_and_the_seal_is_the_same(bot):
    await private_rolls(bot)
    _, before = await run(bot, "/log export", user_id=299, permissions=PLAYER)
    sealed = exported(before)["entries"][0]
    refused, _ = await run(bot, "/log unseal roll:1", user_id=202, permissions=PLAYER)
    assert "only its roller or the GM can unseal it" in refused.sent[-1]["content"]
    refused, _ = await run(bot, "/log unseal roll:2", user_id=202, permissions=PLAYER)
    assert "is not a private roll" in refused.sent[-1]["content"]
    _, reply = await run(bot, "/log unseal roll:1", user_id=201, permissions=PLAYER)
    assert reply.fields["seal"] == sealed["seal"] and "unsealed" in reply.summary[0]
    await run(bot, "/settings gm-role role:555")
    await run(bot, "/log unseal roll:4", user_id=298, roles=(555,), permissions=PLAYER)
    _, after = await run(bot, "/log export", user_id=299, permissions=PLAYER)
    data = exported(after)
    full = data["entries"][0]
    assert not full.get("sealed") and full["seal"] == sealed["seal"] and full["hash"] == sealed["hash"]
    assert [e["roll"] for e in data["entries"] if e.get("sealed")] == [3]
    assert verify(data).ok
    full["summary"] = ["3d6: 18"] if full["summary"] != ["3d6: 18"] else ["3d6: 17"]
    result = verify(data)
    assert not result.ok and result.failed_roll == 1 and "does not match its seal" in result.reason


async def test_reveal_posts_the_head_and_count_and_seals_private_rolls(bot, tmp_path):
    await private_rolls(bot)
    _, reply = await run(bot, "/log reveal")
    data = exported(reply)
    assert reply.fields["head"] == data["head"] == data["entries"][-1]["hash"] and reply.fields["count"] == 4
    assert f"Head hash after 4 entries: {data['head']}" in reply.summary[0]
    assert [e["roll"] for e in data["entries"] if e.get("sealed")] == [1, 3, 4]  # posted in the channel
    assert verify(data, head=data["head"]).ok
    cut = dict(data, entries=data["entries"][:2])
    result = verify(cut, head=reply.fields["head"])
    assert not result.ok and "not at the head posted in the channel" in result.reason


async def test_log_export_finds_the_battle_logs_after_the_battle(bot, play):
    code, out = await play("/log export")
    assert code == 2 and "Nothing has been rolled in this channel yet" in out["error"]
    await play("/battle start")
    await play("/roll expression:2d6")
    await play("/roll expression:1d6 private:true")
    code, end = await play("/battle end")
    assert end["roll_log"]["count"] == 2 and end["roll_log"]["head"]
    assert f"Head hash after 2 entries: {end['roll_log']['head']}" in " ".join(end["summary"])
    battle_export = json.loads(Path(next(f for f in end["files"] if f.endswith("-rolls.json"))).read_text())
    assert [e.get("sealed", False) for e in battle_export["entries"]] == [False, True]  # posted in the channel
    assert any(f.endswith("-rolls.html") for f in end["files"])
    code, listed = await play("/log export")
    assert code == 0 and listed["battles"][0]["rolls"] == 2 and "battle:1" in listed["summary"][0]
    code, shown = await play("/log show")
    assert "Nothing has been rolled in this channel outside its battles" in shown["summary"][0]
    code, one = await play("/log export battle:1")
    assert code == 0 and one["chain"] == "battle:1" and one["entries"] == 2 and one["head"] == end["roll_log"]["head"]
    code, out = await play("/log export battle:9")
    assert code == 2 and "Battle 9 has no roll log in this channel" in out["error"]
    await play("/roll expression:1d6")  # the channel's own log now: its export names the battle's
    code, own = await play("/log export")
    assert own["chain"] == CHANNEL and "battle:1 (ended, 2 roll(s))" in own["summary"][0]


def seeded(data_dir: Path, line: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["BOMBARDIER_DATA"] = str(data_dir)
    done = subprocess.run([sys.executable, "bot.py", "play", "--json", "--seed", "7", line], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def test_a_seed_gives_the_same_dice_in_two_processes_sharing_one_data_folder(tmp_path):
    line = '/roll expression:"10d6, 1a 1s"'
    first = seeded(tmp_path, line)
    second = seeded(tmp_path, line)
    assert [d["face"] for d in first["dice"]] == [d["face"] for d in second["dice"]]
    assert first["log"]["roll"] == second["log"]["roll"] == 1
    other = seeded(tmp_path, "/fire cannon distance:30")
    again = seeded(tmp_path, "/fire cannon distance:30")
    assert [d["face"] for d in other["dice"]] == [d["face"] for d in again["dice"]]
    # and at once, two processes in the same folder
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        a, b = pool.map(lambda _: seeded(tmp_path, line), range(2))
    assert [d["face"] for d in a["dice"]] == [d["face"] for d in b["dice"]] == [d["face"] for d in first["dice"]]
