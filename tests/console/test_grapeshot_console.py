"""/fire grapeshot through the console's --json (the issue's contract: shots and misfire)."""

import pytest


async def test_shots_are_the_artillery_die_plus_a_d6_and_long_range_costs_one(play):
    code, result = await play('/fire grapeshot distance:8 bs:3 dice:"4 2 1 3 4 5 6 6"')
    assert code == 0, result
    assert (result["shots"], result["to_hit"], result["long_range"], result["hits"]) == (6, 5, True, 3)
    assert result["misfire"] is None and result["image"] is None
    assert [d["purpose"] for d in result["dice"][:3]] == ["shots (artillery die)", "shots (D6)", "to hit shot 1"]


async def test_with_a_profile_the_hits_are_wounded_and_saved_at_s5_ap1(play):
    # BS 4 at 4": 3+. Shots 2 + 1 = 3: hits on 3 and 6. T3: 2+ to wound (S5), 2+ save worsened by 3: 5+.
    code, result = await play('/fire grapeshot distance:4 bs:4 toughness:3 save:2 dice:"2 1 3 2 6 3 4 5 4"')
    assert code == 0, result
    assert (result["shots"], result["hits"], result["unsaved"], result["slain"]) == (3, 2, 1, 1)
    assert [d["purpose"] for d in result["dice"][5:]] == [
        "to wound shot 1", "to wound shot 3", "armour save shot 1", "armour save shot 3",
    ]


async def test_a_misfire_fires_nothing(play):
    code, result = await play('/fire grapeshot distance:5 bs:3 dice:"M 3 2"')
    assert code == 0
    assert result["misfire"] == {"roll": 2, "result": "destroyed"} and result["shots"] == 0 and result["hits"] == 0


async def test_hard_cover_and_bs_1_need_a_six_then_more(play):
    # Three shots' first dice 6 6 1, then the two 6s' second dice: 5 (hit at 8+) and 4 (miss).
    code, result = await play('/fire grapeshot distance:3 bs:1 cover:hard dice:"2 1 6 6 1 5 4"')
    assert code == 0
    assert result["to_hit"] == 8 and result["hits"] == 1


@pytest.mark.parametrize("line, message", [
    ("/fire grapeshot distance:13 bs:3", "distance: 13 is out of bounds: give 0.1 to 12."),
    ("/fire grapeshot distance:5", "/fire grapeshot needs bs, the crew's best Ballistic Skill (or a machine: "
                                   "whose BS is on the roster), e.g. /fire grapeshot distance:6 bs:3"),
    ("/fire grapeshot distance:5 bs:3 cover:hrad", "is not one of the choices: none, soft, hard. Did you mean hard?"),
    ('/fire grapeshot distance:5 bs:3 dice:"5"', "'5' (die 1) does not fit the artillery die"),
    ("/fire grapeshot distance:5 bs:3 save:4", "without toughness"),
])
async def test_mistakes_are_one_sentence_and_exit_2(line, message, play):
    code, result = await play(line)
    assert code == 2 and message in result["error"]


async def test_hits_on_many_wound_models_add_up_on_the_unit(play):
    # BS 3 at 5": 4+. Shots 2 + 1: three hits (4 4 4); S5 v T3 wounds on 2+ (2 2 2): three
    # unsaved wounds on two-wound models, one model slain; no line calls a model slain alone.
    code, result = await play('/fire grapeshot distance:5 bs:3 toughness:3 wounds:2 dice:"2 1 4 4 4 2 2 2"')
    assert code == 0
    assert (result["unsaved"], result["slain"]) == (3, 1)
    hit_lines = [line for line in result["summary"] if line.startswith("Hit: ")]
    assert len(hit_lines) == 3 and not any("survives" in l or "slain" in l for l in hit_lines)
