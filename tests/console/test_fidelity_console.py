"""Issue 16 through the console's --json: the replies agree with the book on the points it raised."""


# Fantasy 1. Seed 003, Dodge: "a Ward save against attacks in their front arc".

async def test_shoot_from_the_flank_says_dodge_does_not_apply(play):
    code, r = await play('/shoot shots:1 bs:4 strength:4 toughness:4 dodge:5 facing:flank dice:"4 4"')
    assert code == 0, r
    assert r["unsaved"] == 1
    assert any("outside its front arc" in x for x in r["summary"])


async def test_combat_attacks_from_the_flank_are_not_dodged(play):
    code, r = await play('/combat attacks attacks:1 ws:4 enemy_ws:4 strength:4 toughness:4 dodge:"5+ flank" dice:"4 4"')
    assert code == 0, r
    assert r["unsaved"] == 1 and any("outside its front arc" in x for x in r["rules"])
    code, r = await play('/combat attacks attacks:1 ws:4 enemy_ws:4 strength:4 toughness:4 dodge:5 dice:"4 4 5"')
    assert code == 0, r
    assert r["unsaved"] == 0


async def test_combat_breath_takes_dodge_and_magical(play):
    code, r = await play('/combat breath strength:4 models:5 toughness:4 dodge:4 magical:true dice:"1 1 6 6"')
    assert code == 0, r
    assert r["unsaved"] == 2 and any("magical attacks that hit automatically" in x for x in r["rules"])


# Fantasy 5: one model in the rank needs no die to pick it.

async def test_bolt_thrower_at_one_model_names_no_die(play):
    code, r = await play('/fire bolt-thrower distance:10 bs:4 ranks:1 files:1 dice:"3"')
    assert code == 0, r
    text = " ".join(r["summary"])
    assert "(D6 )" not in text and "no die needed" in text


# 40k 1. Seed 004, Vehicle Moving & Firing Summary, "More than 12"": "No weapons".

async def test_firing_after_more_than_12_inches_is_no_weapons_not_an_error(play):
    code, r = await play("/40k firing type:normal moved:14")
    assert code == 0, r
    assert r["may_fire"] == "no weapons" and r["road"] is True and "road" in r["summary"][0]


# 40k 3. Ordnance at a vehicle takes its state, as /40k penetrate does.

async def test_ordnance_at_an_immobilised_vehicle_glancing_5_reads_crew_stunned(play):
    code, r = await play('/40k ordnance distance:30 strength:8 armour:"13 11 10" state:"immobilised skimmer" dice:"H 1 5 2 5"')
    assert code == 0, r
    d = r["vehicle"]["hits"][0]["damage"]
    # the crew stunned; an immobilised skimmer has landed and may not move again (004:128-130), so
    # it does not drift (T28's reading; it said "drifts" before)
    assert d["counts_as"] == "crew stunned" and any("does not drift" in n for n in d["notes"])
    assert "crew stunned" in r["summary"][0]


async def test_ordnance_refuses_options_that_do_not_fit_the_target(play):
    code, r = await play('/40k ordnance distance:30 strength:8 armour:"13 11 10" models:5')
    assert code == 2 and "for a squad target" in r["error"]
    code, r = await play('/40k ordnance distance:30 strength:8 state:smoke')
    assert code == 2 and "for a vehicle target" in r["error"]
    code, r = await play('/40k ordnance distance:30 strength:8 state:"flying"')
    assert code == 2


# 40k 5. Wording: one scatter die reads its inches once.

async def test_ordnance_wording(play):
    code, r = await play('/40k ordnance distance:30 strength:8 armour:"13 11 10" facing:side dice:"@90 1 1 1"')
    assert code == 0, r
    text = " ".join(r["summary"])
    assert 'moves 1"' in text and "1 = 1" not in text and "side (side)" not in text
    code, r = await play('/40k penetrate armour:14 strength:4 dice:"2"')
    assert " ".join(r["summary"]).lower().count("no effect") == 1


# Warmaster 7: /siege army checks a whole list and says what breaks which limit.

async def test_siege_army_checks_a_whole_list(play):
    code, r = await play('/siege army points:1500 side:defender list:"2 towers, wall 4, gateway, bombard, army high elves"')
    assert code == 0, r
    assert r["cost"] == 400 + 220 + 40 + 130 and r["ok"] is False
    assert r["problems"] == ["Bombard: High Elves may not field one."]
    code, r = await play('/siege army points:1000 side:attacker list:"ladders 3, siege tower"')
    assert code == 0 and r["ok"] is True and r["cost"] == 35
    code, r = await play('/siege army points:1000 side:attacker list:"catapults"')
    assert code == 2 and "not an item of the siege lists" in r["error"]


async def test_rules_shows_the_fortification_costs(play):
    code, r = await play('/rules term:"fortification list"')
    assert code == 0, r
    text = " ".join(r["summary"]) if "summary" in r else str(r)
    assert "150" in text and "165" in text and "+10 on a wall section" in text


# Warmaster 3: assaults /siege assault could not express.

async def test_siege_assault_two_units_a_tower_and_flyers(play):
    code, r = await play('/siege assault kind:ramparts d_attacks:4 d_hits:4 d_armour:5 '
                         'more:"armour 6 against 1" dice:"6 6 3 2 1 2 6 4 3 2 3 4 6 5 1 1 6 4 3 3 1 2"')
    assert code == 0, r
    assert (r["attackers_result"], r["defenders_result"], r["outcome"]) == (4, 4, "draw") and len(r["others"]) == 1
    code, r = await play('/siege assault kind:tower dice:"6 6 1 1 1 1"')
    assert code == 0 and r["defenders_hold"] is True and "never driven out" in r["summary"][0]
    code, r = await play('/siege assault kind:tower flyers:true dice:"1 1 1 6 6 1"')
    assert code == 0 and r["attackers_destroyed"] is True and "destroyed" in r["summary"][0]
    code, r = await play('/siege assault kind:wall won:true')
    assert code == 2 and "tower" in r["error"]
    code, r = await play('/siege assault more:"dragons 3"')
    assert code == 2 and "More:" in r["error"]


# Fantasy 6: Frenzy's and Hatred's pursuit.

async def test_combat_pursuit_with_frenzy_and_hatred(play):
    code, r = await play('/combat pursuit leadership:8 won_by:3 frenzy:true dice:"3 3"')
    assert code == 0, r
    assert r["restrained"] is False and r["test"]["needed"] == 5
    code, r = await play('/combat pursuit leadership:8 hatred:true dice:"2 2 1 1"')
    assert code == 0 and r["restrained"] is True and r["reroll"]["roll"] == 2


async def test_breath_against_immunity_does_nothing(play):
    code, r = await play('/breath distance:6.5 strength:4 ranks:1 files:1 toughness:3 flaming:true immune:flaming')
    assert code == 0, r
    assert r["summary"][0].startswith("The breath does nothing")
    code, r = await play('/shoot shots:1 bs:4 strength:4 toughness:4 immune:"fire"')
    assert code == 2 and "immune" in r["error"]
