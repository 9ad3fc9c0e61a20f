"""/fire fire-thrower through the console's --json: hits, misfire, panic."""

from PIL import Image


async def test_the_flame_hits_every_model_under_the_template_and_calls_for_panic(play):
    code, result = await play('/fire fire-thrower distance:8.5 ranks:1 files:9 toughness:3 leadership:7 dice:"2 1 2 3 4 5 5 4"')
    assert code == 0, result
    assert result["command"] == "fire fire-thrower" and result["misfire"] is None and result["moved"] == 2
    assert [(h["rank"], h["file"], h["strength"]) for h in result["hits"]] == [(1, f, 5) for f in range(3, 8)]
    assert [h["slain"] for h in result["hits"]] == [False, True, True, True, True]
    assert result["casualties"] == 4
    assert result["panic"]["required"] is True
    assert result["panic"]["test"] == {"leadership": 7, "needed": 7, "roll": 9, "passed": False, "modifiers": []}
    assert result["template"] == {"length": 8.0, "narrow": 1.0, "wide": 3.0}
    assert "Flaming Attacks" in result["rules"]
    assert Image.open(result["image"]).format == "PNG"


async def test_cavalry_and_flammable_take_panic_at_minus_one(play):
    code, result = await play('/fire fire-thrower distance:8.5 ranks:2 files:1 troop:cavalry toughness:3 leadership:7 dice:"2 6 1 3 3"')
    assert code == 0, result
    assert result["panic"]["test"]["needed"] == 6 and result["panic"]["test"]["passed"] is True
    assert result["panic"]["modifiers"] == [{"rule": "Flaming Attacks", "modifier": -1}]


async def test_a_unit_wiped_out_takes_no_panic_test(play):
    # Issue 16: no one is left to take it.
    code, result = await play('/fire fire-thrower distance:8.5 ranks:1 files:1 toughness:3 leadership:7 dice:"2 6"')
    assert code == 0, result
    assert result["wiped_out"] is True and result["panic"]["required"] is False and result["panic"]["test"] is None
    assert "no one is left to take a Panic test" in " ".join(result["summary"])


async def test_flammable_re_rolls_failed_wounds(play):
    code, result = await play('/fire fire-thrower distance:8.5 ranks:1 files:1 toughness:5 flammable:true dice:"2 1 4"')
    assert code == 0, result
    assert [d["purpose"] for d in result["dice"]] == ["how far the flame goes", "to wound rank 1 file 1", "to wound rank 1 file 1, re-roll"]
    assert result["hits"][0]["slain"] is True


async def test_a_misfire_goes_to_the_black_powder_chart(play):
    code, result = await play('/fire fire-thrower distance:8 dice:"M 4"')
    assert code == 0
    assert result["misfire"] == {"roll": 4, "result": "malfunction"} and result["hits"] == []
    assert result["panic"]["required"] is False


async def test_a_start_short_of_the_target_is_required(play):
    code, result = await play("/fire fire-thrower distance:3 start:4")
    assert code == 2 and "not short of the target" in result["error"]
