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


async def test_ordnance_at_a_squad_shows_wholly_and_partly_under(play):
    code, result = await play('/40k ordnance distance:30 strength:8 range:72 dice:"@60 2 4 2 5"')
    assert code == 0, result
    assert result["command"] == "40k ordnance" and result["miss"] is None
    assert result["scatter"] == {"hit": False, "direction_deg": 60, "distance": 2.0}
    cover = {m["number"]: (m["coverage"], m["roll"], m["hit"]) for m in result["models"]}
    assert cover[8] == ("wholly", None, True) and cover[9] == ("wholly", None, True)
    assert [cover[n] for n in (3, 4, 10)] == [("partly", 4, True), ("partly", 2, False), ("partly", 5, True)]
    assert result["hits"] == 4 and result["image"].endswith(".png")


async def test_a_barrage_onto_a_vehicles_rear(play):
    code, result = await play('/40k ordnance distance:30 strength:9 barrage:true min_range:12 armour:"13 11 10" dice:"3 @0 5 2 3"')
    assert code == 0, result
    v = result["vehicle"]
    assert (v["hit"], v["hole_over"], v["facing"]) == (True, False, "rear")
    (hit,) = v["hits"]
    assert hit["penetration"]["effective_strength"] == 5 and hit["penetration"]["result"] == "glancing"
    assert hit["damage"]["result"] == "crew stunned"


async def test_ordnance_mistakes_are_clear(play):
    code, result = await play('/40k ordnance distance:30 strength:8 armour:"13 11"')
    assert code == 2 and "'13 11'" in result["error"]
    code, result = await play('/40k ordnance distance:30 strength:8 barrage:true moved:true')
    assert code == 2 and "not moved" in result["error"]
    code, result = await play('/40k ordnance distance:80 strength:8 range:72')
    assert code == 0 and result["miss"] == "out of range" and result["dice"] == []


async def test_assault_tank_shock_terrain_firing_and_damage(play):
    code, r = await play('/40k assault attacks:3 armour:10 moved:up-to-6 strength:4 dice:"4 1 6 6 2 5"')
    assert code == 0, r
    assert (r["needed"], r["to_hit"], r["hits"]) == (4, [4, 1, 6], 2)
    assert [x["penetration"]["total"] for x in r["results"]] == [10, 9]
    assert r["results"][0]["damage"]["result"] == "crew shaken" and r["results"][1]["damage"] is None
    code, r = await play('/40k tank-shock leadership:8 hero:melta-bomb front:14 dice:"3 3 4 3 4"')
    assert code == 0, r
    assert r["morale"] == {"roll": 6, "leadership": 8, "passed": True}
    dog = r["death_or_glory"]
    assert dog["penetration"]["total"] == 15 and dog["damage"]["result"] == "vehicle destroyed" and dog["tank_stopped"]
    code, r = await play('/40k terrain hazardous:true dice:"3"')
    assert code == 0 and r["immobilised"] and not r["crashed"]
    code, r = await play('/40k firing type:normal moved:5')
    assert code == 0 and r["may_fire"] == "all defensive weapons and 1 main weapon" and r["dice"] == []
    code, r = await play('/40k damage table:ordnance open_topped:true passengers:2 dice:"5"')
    assert code == 0 and r["damage"]["roll"] == 6 and r["damage"]["result"] == "vehicle annihilated"
    assert r["damage"]["passengers"]["killed_all"]


async def test_the_other_commands_refuse_mistakes(play):
    code, r = await play('/40k assault attacks:3 armour:10 moved:stationary')
    assert code == 2 and "needs its Strength" in r["error"]
    code, r = await play('/40k tank-shock leadership:8 hero:krak')
    assert code == 2 and "front" in r["error"]
    code, r = await play('/40k terrain mover:walker hazardous:true')
    assert code == 2 and "hazardous" in r["error"]
    code, r = await play('/40k firing type:walker moved:9')
    assert code == 2 and "at most 6" in r["error"]
