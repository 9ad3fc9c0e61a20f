"""/fire bolt-thrower through the console's --json (the issue's contract: hits with rank and strength)."""

import pytest


async def test_the_bolt_goes_on_through_the_ranks_one_strength_less_per_kill(play):
    # T3 5+ save: S6, S5 and S4 slay on 2, 3, 5 (no save left); S3 wounds on a 6 and the 6+ save
    # (5 + AP 1) fails on a 4; S2 needs 5+ and rolls 2: the bolt stops in rank 5.
    code, result = await play('/fire bolt-thrower distance:20 bs:3 ranks:5 files:5 toughness:3 save:5 dice:"4 2 3 5 6 4 2"')
    assert code == 0, result
    assert [(h["rank"], h["strength"], h["slain"]) for h in result["hits"]] == [
        (1, 6, True), (2, 5, True), (3, 4, True), (4, 3, True), (5, 2, False),
    ]
    assert result["hit"] is True and result["to_hit"] == 4 and result["ranked"] is True


async def test_without_a_profile_the_ranks_behind_are_conditional(play):
    code, result = await play('/fire bolt-thrower distance:20 bs:3 facing:rear dice:"6"')
    assert code == 0
    assert [(h["rank"], h["strength"], h["wounds"], h["conditional"]) for h in result["hits"]] == [
        (4, 6, "D3", False), (3, 5, "D3", True), (2, 4, "D3", True), (1, 3, "D3", True),
    ]


async def test_a_miss_strikes_nobody(play):
    code, result = await play('/fire bolt-thrower distance:30 bs:3 cover:soft dice:"5"')
    assert code == 0
    assert (result["to_hit"], result["hit"], result["hits"]) == (6, False, [])


async def test_a_small_unit_has_its_model_picked_at_random(play):
    code, result = await play('/fire bolt-thrower distance:10 bs:4 ranks:1 files:2 dice:"3 2"')
    assert code == 0
    assert result["ranked"] is False and [(h["rank"], h["file"]) for h in result["hits"]] == [(1, 1)]


@pytest.mark.parametrize("line, message", [
    ("/fire bolt-thrower distance:49 bs:3", "distance: 49 is out of bounds: give 0.1 to 48."),
    ("/fire bolt-thrower distance:20", "/fire bolt-thrower needs bs, the crew's best Ballistic Skill (or a machine: "
                                       "whose BS is on the roster), e.g. /fire bolt-thrower distance:20 bs:3"),
    ('/fire bolt-thrower distance:20 bs:3 dice:"4 4"', "left over"),
    ("/fire bolt-thrower distance:20 bs:3 aim_rank:2", "has no option 'aim_rank'"),
])
async def test_mistakes_are_one_sentence_and_exit_2(line, message, play):
    code, result = await play(line)
    assert code == 2 and message in result["error"]
