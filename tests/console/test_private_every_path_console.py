"""Issue 25, item 4: private stays private on every path: the Odds button's deferred answer, a
battle's totals, the reveal of an epoch begun before sealed rolls, and others' Details after
/settings forget-me."""

import json
from pathlib import Path

from cogs.common import replies
from cogs.common.replies import DEFERRED_KEY, REPLY_KEY
from console import offline as console
from storage import actions


async def test_the_odds_buttons_answer_stays_private_when_its_pricing_defers(bot, monkeypatch):
    """The presser's answer is private; a defer on the way (the pricing takes a while) is too, though
    the button's interaction has no ``private`` option."""
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.0)  # every command defers at once
    pressed = console.OfflineInteraction(bot, None, user_id=4242)
    await bot.price_shot(pressed, "shoot", {"shots": 20, "bs": 3, "strength": 4, "toughness": 4})
    assert pressed.extras[DEFERRED_KEY]["ephemeral"] is True
    assert REPLY_KEY in pressed.extras and all(m["ephemeral"] is True for m in pressed.sent)


async def test_a_battles_totals_leave_its_private_shots_out(play):
    await play('/machine add name:"Old Betsy" kind:cannon crew:3')
    await play("/battle start")
    code, secret = await play('/fire cannon distance:30 ranks:4 files:5 machine:"Old Betsy" dice:"H 4 8" private:true')
    assert code == 0 and secret["summary"][0]
    code, public = await play('/fire cannon distance:24 ranks:4 files:5 machine:"Old Betsy" dice:"H 2 2"')
    assert code == 0
    code, out = await play("/battle end")
    report = Path(next(f for f in out["files"] if f.endswith(".md"))).read_text()
    export = json.loads(Path(next(f for f in out["files"] if f.endswith(".json") and not f.endswith("-rolls.json"))).read_text())
    private_row, public_row = export["shots"]
    assert export["totals"]["hits"] == public_row["hits"]  # the private shot's hits are not in the total
    assert export["totals"]["private_shots"] == 1 and export["totals"]["shots"] == 2
    assert f"hits: {public_row['hits']}; 1 private shot, not counted" in report
    assert "1 private shot, not counted" in " ".join(out["summary"])


async def test_a_reveal_of_an_epoch_begun_before_sealed_rolls_posts_no_private_roll(bot, play):
    await play("/settings private-rolls allowed:true")
    code, first = await play("/roll expression:1d6")
    with bot.store.transaction() as db:  # the epoch was open when the bot was upgraded: version 2
        db.execute("update roll_chains set version = 2")
    code, hidden = await play("/roll expression:3d6 private:true", user_id=555)
    assert code == 0
    code, out = await play("/log reveal")
    assert code == 0 and not out.get("files")  # no export attached: it would show the private roll in full
    text = " ".join(out["summary"])
    assert "1 private roll" in text and "/log export epoch:1" in text and out["head"]
    # the GM's export has it whole, and checks against the head posted
    code, gm = await play("/log export epoch:1")
    data = json.loads(Path(next(f for f in gm["files"] if f.endswith(".json"))).read_text())
    assert data["head"] == out["head"] and any(e.get("options", {}).get("private") for e in data["entries"])


async def test_a_battle_end_of_an_epoch_begun_before_sealed_rolls_attaches_no_private_roll(bot, play):
    await play("/settings private-rolls allowed:true")
    code, start = await play("/battle start")
    with bot.store.transaction() as db:
        db.execute("update roll_chains set version = 2")
    code, hidden = await play("/roll expression:3d6 private:true", user_id=555)
    assert code == 0
    code, out = await play("/battle end")
    assert code == 0
    assert not any(f.endswith("-rolls.json") or f.endswith("-rolls.html") for f in out.get("files", []))
    assert "1 private roll" in " ".join(out["summary"])


async def test_forget_me_takes_the_user_out_of_others_stored_details(bot, play):
    victim = 987654321012345678
    await play("/campaign create name:Reach")
    code, added = await play(f"/campaign add name:Reach player:<@{victim}>")
    assert code == 0
    kept = bot.store.read("SELECT id FROM reply_actions")
    named = [r["id"] for r in kept if str(victim) in json.dumps(actions.recall(bot.store, r["id"]).details or {})
             or str(victim) in json.dumps(actions.recall(bot.store, r["id"]).options)]
    assert named, "the campaign's reply kept the added player's id (the premise)"
    code, out = await play("/settings forget-me", user_id=victim)
    assert code == 0
    for r in bot.store.read("SELECT options, details FROM reply_actions"):
        assert str(victim) not in (r["options"] or "") + (r["details"] or "")
