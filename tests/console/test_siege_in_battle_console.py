"""A siege battle counts its /siege rolls as shots (issue 18, part 4): /battle status counts them,
and the report lists the siege turn by turn, when a section took Destruction Tokens and when it
fell and to what. Through the console's --json, with entered dice and real roles."""

from __future__ import annotations

from storage import sieges

OTHER = 555


async def test_siege_rolls_are_a_battles_shots_and_its_report_tells_the_siege_turn_by_turn(bot, play, tmp_path):
    assert (await play("/battle start"))[0] == 0
    # Turn 1: 2 hits on the wall (20 points): 6 + 5 = 11, not more than 20: a token.
    code, r = await play('/siege structure kind:wall section:"West wall" hits:2 dice:"6 5"')
    assert code == 0, r
    assert r["battle_shot"] == {"battle": 1, "turn": 1, "section": "West wall", "tokens_before": 0, "tokens_after": 1,
                                "fell": None}
    assert (await play("/battle turn"))[0] == 0
    # Turn 2: 3 hits and the token: 4 dice, 24 > 20: the wall falls.
    code, r = await play('/siege structure kind:wall section:"West wall" hits:3 dice:"6 6 6 6"')
    assert code == 0 and r["battle_shot"]["fell"] == "wall 'West wall'"
    code, r = await play('/siege sally-gate distance:20 dice:"1 1 1"')  # a roll at no section counts too
    assert code == 0 and r["battle_shot"]["section"] is None

    code, status = await play("/battle status")
    assert code == 0
    assert "Shots so far: 3 (3 of them siege rolls)" in status["summary"]
    assert [(e["turn"], e["command"], e["section"], e["tokens_before"], e["tokens_after"], e["fell"])
            for e in status["siege"]] == [(1, "siege structure", "West wall", 0, 1, None),
                                          (2, "siege structure", "West wall", 1, 0, "wall 'West wall'"),
                                          (2, "siege sally-gate", None, None, None, None)]

    code, end = await play("/battle end")
    assert code == 0
    assert end["totals"]["siege_rolls"] == 3 and end["totals"]["sections_fallen"] == ["wall 'West wall'"]
    report = next(tmp_path.rglob("battle-*.md")).read_text()
    turn1, turn2 = report.index("### Turn 1"), report.index("### Turn 2")
    assert turn1 < turn2 < report.index("## War machines at the end")
    assert "Destruction Tokens 0 -> 1" in report[turn1:turn2]
    assert "**wall 'West wall' fell**" in report[turn2:]
    assert "- Siege rolls: 3 (wall 'West wall' fell)" in report


async def test_a_siege_roll_outside_a_battle_is_not_a_shot(play):
    code, r = await play('/siege structure kind:wall section:"West wall" hits:2 dice:"6 5"')
    assert code == 0 and "battle_shot" not in r


async def test_a_non_player_cannot_roll_into_the_battle_and_changes_nothing(bot, play):
    assert (await play("/battle start"))[0] == 0
    code, r = await play('/siege structure kind:wall section:"West wall" hits:2 dice:"6 5"', user_id=OTHER)
    assert code == 2 and "you do not play in it" in r["error"]
    assert sieges.sections(bot.store, 300) == []  # refused before the section was read or kept
    code, r = await play('/siege sally-gate distance:20 dice:"1 1 1"', user_id=OTHER)
    assert code == 2 and "you do not play in it" in r["error"]
    code, status = await play("/battle status")
    assert "Shots so far: 0" in status["summary"] and "siege" not in status
    code, log = await play("/log show")
    assert code == 0 and not any("sally" in str(e) for e in log.get("entries", []))
    # once they join, their rolls count
    assert (await play("/battle join", user_id=OTHER))[0] == 0
    code, r = await play('/siege sally-gate distance:20 dice:"1 1 1"', user_id=OTHER)
    assert code == 0 and r["battle_shot"]["turn"] == 1
