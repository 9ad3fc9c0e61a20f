"""/fire stone-thrower and /misfire through the console's --json (the issue's console contract)."""

import pytest
from PIL import Image


async def test_a_hit_puts_the_centre_model_at_s10_and_the_rest_under_the_template_at_s4(play):
    code, result = await play('/fire stone-thrower distance:30 ranks:4 files:5 dice:"H 4"')
    assert code == 0, result
    assert result["command"] == "fire stone-thrower" and result["misfire"] is None
    assert result["scatter"] == {"hit": True, "direction_deg": None, "distance": 0.0}
    centre, *rest = result["hits"]
    assert (centre["rank"], centre["file"], centre["kind"], centre["strength"], centre["wounds"]) == (1, 3, "centre", 10, "D6")
    # 20 mm bases, 3" template on R1 F3: all of ranks 1-2, and F2-F4 of rank 3 (R3 F1/F5 lie 1.67" off).
    assert sorted((h["rank"], h["file"]) for h in rest) == sorted(
        [(1, 1), (1, 2), (1, 4), (1, 5)] + [(2, f) for f in range(1, 6)] + [(3, 2), (3, 3), (3, 4)]
    )
    assert {(h["kind"], h["strength"], h["wounds"]) for h in rest} == {("template", 4, 1)}
    assert Image.open(result["image"]).format == "PNG"


async def test_an_arrow_moves_the_template_the_full_artillery_number(play):
    code, result = await play('/fire stone-thrower distance:30 dice:"@90 8"')
    assert code == 0
    assert result["scatter"] == {"hit": False, "direction_deg": 90, "distance": 8.0}
    assert result["centre"] == {"x": 8.0, "y": 30.0} and result["hits"] == []


async def test_an_indirect_hit_scatters_along_the_small_arrow_by_the_die_less_bs(play):
    code, result = await play('/fire stone-thrower distance:30 indirect:true bs:3 dice:"H@270 4"')
    assert code == 0
    assert result["indirect"] is True
    assert result["scatter"] == {"hit": True, "direction_deg": 270, "distance": 1.0}
    assert result["centre"] == {"x": -1.0, "y": 30.0}


async def test_a_misfire_answers_with_the_stone_thrower_chart(play):
    code, result = await play('/fire stone-thrower distance:30 dice:"H M 3"')
    assert code == 0
    assert result["misfire"] == {"roll": 3, "result": "disabled"} and result["hits"] == []


@pytest.mark.parametrize(
    "line, message",
    [
        ('/fire stone-thrower distance:30 indirect:true dice:"H@90 8"', "give bs"),
        ('/fire stone-thrower distance:30 indirect:true bs:3 dice:"H 8"', "enter it as H@DEG"),
        ("/fire stone-thrower distance:61", "distance: 61 is out of bounds: give 12 to 60."),
        ("/fire stone-thrower distance:30 indirect:maybe", "indirect: 'maybe' is not true or false."),
        ("/misfire chart:bigbang", "chart: 'bigbang' is not one of the choices: blackpowder, stonethrower."),
        ("/misfire chart:blackpowder dice:7", "'7' (die 1) does not fit the D6 rolled for Black Powder Misfire Chart"),
        ('/misfire chart:blackpowder dice:"3 4"', "left over"),
    ],
)
async def test_mistakes_are_one_sentence_and_exit_2(line, message, play):
    code, result = await play(line)
    assert code == 2 and message in result["error"]


@pytest.mark.parametrize("chart, roll, result", [
    ("blackpowder", 1, "destroyed"), ("blackpowder", 4, "malfunction"), ("blackpowder", 6, "may not shoot"),
    ("stonethrower", 1, "destroyed"), ("stonethrower", 3, "disabled"), ("stonethrower", 4, "may not shoot"),
])
async def test_misfire_consults_the_chart_alone(chart, roll, result, play):
    code, answer = await play(f"/misfire chart:{chart} dice:{roll}")
    assert code == 0
    assert answer["misfire"] == {"roll": roll, "result": result} and answer["chart"] == chart
    assert answer["image"] is None and [d["by"] for d in answer["dice"]] == ["player"]


async def test_an_indirect_hit_that_bs_cancels_stays_on_target(play):
    code, result = await play('/fire stone-thrower distance:30 indirect:true bs:4 dice:"H@0 2"')
    assert code == 0, result
    assert result["scatter"] == {"hit": True, "direction_deg": None, "distance": 0.0}
    assert result["centre"] == {"x": 0.0, "y": 30.0} and result["hits"][0]["kind"] == "centre"
    assert any("the template does not move" in line for line in result["summary"])
