"""Issue 27, Warmaster sieges (third fidelity pass), through the console's --json: a test per item,
each quoting the seed lines it follows (`001:92` is line 92 of seed 001, Siege & Fortresses)."""

from __future__ import annotations

OGRES = ('/siege assault kind:ramparts a_stands:3 d_stands:3 d_attacks:4 d_hits:4 d_armour:5 more:"armour 6" '
         'dice:"6 6 3 2 1 2 6 4 3 2 3 4 6 5 1 1 6 4 3 3 1 2"')


# 1. 001:118 "if they win a round of combat against troops in fortifications, they may not pursue
# them for a second round of combat and may either stand their ground, or fall back"; 001:119 "the
# defenders will not retreat".

async def test_flyers_winning_at_a_tower(play):
    code, r = await play('/siege assault kind:tower flyers:true dice:"6 6 1 1 1 1"')
    assert code == 0, r
    assert r["outcome"] == "attackers win" and r["defenders_hold"] is True and r["retreat"] == 0
    assert r["flyers_stop"] is True and r["fight_on"] is False
    assert "stand their ground or fall back" in r["summary"][0] and "next round" not in r["summary"][0]
    code, r = await play('/siege assault kind:tower flyers:true won:true')
    assert code == 2 and "Flyers never fight a second round" in r["error"]
    code, r = await play('/siege assault kind:tower won:true more:"flyers"')
    assert code == 2 and "Flyers never fight a second round" in r["error"]


# 2. 001:92 (the Ogres) and 001:106 "the following combat will count as one big combat".

async def test_the_ogres_example_totals_the_defenders_losses(play):
    code, r = await play(OGRES)
    assert code == 0, r
    assert (r["attackers_result"], r["defenders_result"], r["outcome"]) == (4, 4, "draw")
    assert r["defenders_hits_taken"] == 4 and r["defenders_lost"] == 1
    assert r["attackers_struck"]["stands_lost"] == 1 and r["others"][0]["struck"]["stands_lost"] == 1
    text = "\n".join(r["summary"])
    assert "0 stands lost" not in text.split("One combat")[0]
    assert "defenders take 4 hits from every attacking unit together (Hits 4): 1 stand lost" in text


async def test_a_wall_assault_by_two_units_totals_too(play):
    code, r = await play('/siege assault more:"stands 3" dice:"6 6 1 6 6 1 1 1 1 1 1 1"')
    assert code == 0, r
    assert r["defenders_lost"] == 1 and r["attackers_result"] == 4


# 3. 001:376 "†2 The gateway may be destroyed independently ... If the tower is destroyed the
# gateway is destroyed with it." (†2 only on the Gateway tower, 001:313, and Palisade tower, 001:353.)

async def test_a_plain_tower_has_no_gate(play):
    code, r = await play('/siege structure kind:tower section:keep hits:1 dice:"1"')
    assert code == 0 and r["structure"]["tokens_after"] == 1
    code, r = await play('/siege structure kind:gateway-tower gate:true section:keep hits:1 dice:"1"')
    assert code == 2 and "'keep' is a tower, not a gateway tower" in r["error"] and "has no gate" in r["error"]
    code, r = await play('/siege structure kind:tower gate:true hits:1')
    assert code == 2 and "only a gateway tower or a palisade tower" in r["error"]
    code, r = await play('/siege batter kind:wall gate:true')
    assert code == 2 and "only a gateway tower or a palisade tower" in r["error"]
    code, r = await play('/siege structure kind:palisade-tower section:stockade hits:1 dice:"1"')
    assert code == 0
    code, r = await play('/siege structure kind:gateway-tower gate:true section:stockade hits:1 dice:"1"')
    assert code == 2 and "is a palisade tower, not a gateway tower" in r["error"]
    code, r = await play("/siege fortress")
    assert code == 0 and [s["section"] for s in r["sections"]] == ["keep", "stockade"]


async def test_a_fallen_gateway_tower_shows_its_gate_fallen(play):
    code, r = await play('/siege structure kind:gateway-tower gate:true section:north hits:1 dice:"1"')
    assert code == 0 and r["structure"]["tokens_after"] == 1
    code, r = await play('/siege structure kind:gateway-tower section:north hits:5 dice:"6 6 6 6 6"')
    assert code == 0 and r["structure"]["destroyed"] is True
    assert "Its gate alone" not in " ".join(r["summary"]) and "its gate with it" in r["summary"][0]
    code, r = await play("/siege fortress")
    assert {s["section"]: s["breached"] for s in r["sections"]} == {"north": True, "north (gate)": True}
    code, r = await play('/siege structure kind:gateway-tower gate:true section:north hits:1')
    assert code == 2 and "fell with it" in r["error"]
    code, r = await play('/siege structure kind:tower section:north hits:1')
    assert code == 2 and "not a tower" in r["error"]


# 4. 001:87 "Only one stand may come into combat contact"; 001:104 "only one stand may attack each
# facing of the tower ... the defender may also only defend with one stand per facing".

async def test_one_stand_on_the_ramparts_and_at_a_tower(play):
    for kind in ("ramparts", "tower"):
        code, r = await play(f'/siege assault kind:{kind} a_fighting:2')
        assert code == 2 and "a_fighting:2" in r["error"] and "more:" in r["error"]
        code, r = await play(f'/siege assault kind:{kind} d_fighting:2')
        assert code == 2 and "d_fighting:2" in r["error"]
        code, r = await play(f'/siege assault kind:{kind} more:"fighting 2"')
        assert code == 2 and "only one stand of each unit fights" in r["error"]
    code, r = await play('/siege assault kind:wall a_fighting:2 d_fighting:2 dice:"1 1 1 1 1 1 1 1 1 1 1 1"')
    assert code == 0 and r["attackers_struck"]["attacks"] == 6


# 5. 001:523 "troops within the tower do not roll for drive back and are never confused"; cannons
# "have no bounce-through effect"; 001:254 the bombard's ball is stopped by the stonework.

async def test_in_tower_on_every_machine(play):
    for line in ('/wm helblaster range:8 in_tower:true dice:"6 6 6 6 6 1"',
                 '/wm elven-bolt-thrower range:30 in_tower:true dice:"6 6 6"',
                 '/wm rock-lobber range:30 in_tower:true dice:"6 6 6"',
                 '/siege artillery weapon:tribock distance:50 in_tower:true dice:"6 6 6 6 1 1"',
                 '/siege artillery weapon:mangonel distance:50 in_tower:true dice:"6 6 6 6"'):
        code, r = await play(line)
        assert code == 0, (line, r)
        assert r["target"]["in_tower"] is True and r["target"]["drive_back"] is None, line
        assert r["target"]["no_drive_back"].startswith("in a tower"), line
    code, r = await play('/wm bone-thrower distance:20 in_tower:true dice:"6"')
    assert code == 0 and r["in_tower"] is True and len(r["skewered"]) == 1 and r["units"][0]["drive_back"] is None
    code, r = await play('/siege artillery weapon:bombard distance:50 in_tower:true dice:"6 6 6 6"')
    assert code == 0 and r["in_tower"] is True and r["units"][0]["attacks"] == 4 and r["path"]["end"] == r["path"]["strike"]


# 6. 001:161 "retreats 4cm or less, it still counts as being in the tower and can assault again ...
# more than 4cm and the wall section it faces is subsequently occupied by the enemy ... They push it over!"

async def test_a_lost_siege_tower_assault_says_what_becomes_of_the_tower(play):
    code, r = await play('/siege assault kind:siege-tower d_fighting:2 dice:"1 1 1 1 6 6 1 1 1 1"')
    assert code == 0, r
    assert r["retreat"] == 2 and r["siege_tower"] == "stays" and "still in their siege tower" in r["summary"][0]
    code, r = await play('/siege assault kind:siege-tower a_stands:4 d_fighting:2 dice:"1 1 1 1 6 6 6 6 6 1"')
    assert code == 0 and r["retreat"] == 5 and r["siege_tower"] == "pushed over" and "push the siege tower over" in r["summary"][0]


# 7. 001:149 "All enemy shots against the unit are assumed to hit the Siege Tower ... cannot be
# driven back by missile fire"; 001:456 "Are not driven back by shooting"; 001:199-200 mantlets.

async def test_a_shot_names_its_target_as_siege_equipment(play):
    code, r = await play('/wm shoot attacks:4 troop:siege-tower dice:"6 6 1 1 1 1"')
    assert code == 0, r
    t = r["target"]
    assert t["name"] == "target's siege tower" and t["equipment"] == "siege-tower" and t["save"] == 3
    assert t["drive_back"] is None and "never driven back" in t["no_drive_back"]
    code, r = await play('/wm shoot attacks:4 troop:sow dice:"6 6 6 6 1 1 1 1"')
    assert code == 0 and r["target"]["stands_lost"] == 1 and any("abandons it" in line for line in r["summary"])
    code, r = await play('/wm shoot attacks:3 troop:mantlets dice:"5 5 5 6 5"')
    assert code == 0 and r["target"]["to_hit"] == 5 and r["target"]["mantlets_lost"] is True
    code, r = await play('/wm shoot attacks:3 troop:mantlets charging:true')
    assert code == 2 and "abandons its mantlets" in r["error"]
    code, r = await play('/siege oil troop:sow')
    assert code == 2 and "siege equipment" in r["error"]
