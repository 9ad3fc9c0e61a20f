"""/40k through the console's --json (the issue's console contract)."""


async def test_penetrate_gives_the_penetration_and_damage_fields(play):
    code, result = await play('/40k penetrate strength:9 armour:13 dice:"4 3"')
    assert code == 0, result
    assert result["command"] == "40k penetrate" and result["system"] == "wh40k"
    p = result["penetration"]
    assert (p["roll"], p["total"], p["armour"], p["result"]) == (4, 13, 13, "glancing")
    d = result["damage"]
    assert (d["table"], d["roll"], d["result"]) == ("glancing", 3, "crew stunned")
    assert [x["by"] for x in result["dice"]] == ["player", "player"]


async def test_a_bounce_has_no_damage(play):
    code, result = await play('/40k penetrate strength:4 armour:14 dice:"6"')
    assert code == 0 and result["penetration"]["result"] == "no effect" and result["damage"] is None


async def test_open_topped_ordnance_and_hull_down(play):
    code, result = await play('/40k penetrate strength:8 armour:12 weapon:ordnance open_topped:true dice:"1 6 5"')
    assert code == 0, result
    assert result["damage"]["table"] == "ordnance" and result["damage"]["roll"] == 6
    assert result["damage"]["result"] == "vehicle annihilated"
    code, result = await play('/40k penetrate strength:9 armour:10 hull_down:true dice:"6 6"')
    assert result["penetration"]["result"] == "glancing" and result["damage"]["result"] == "vehicle destroyed"


async def test_penetrate_mistakes_are_clear(play):
    code, result = await play('/40k penetrate armour:12')
    assert code == 2 and "needs its Strength" in result["error"]
    code, result = await play('/40k penetrate strength:9 armour:12 nearby:"1 x"')
    assert code == 2 and "'x'" in result["error"]
    code, result = await play('/40k penetrate strength:9 armour:12 dice:"7"')
    assert code == 2 and "'7'" in result["error"]
