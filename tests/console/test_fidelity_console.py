"""Issue 16 through the console's --json: the replies agree with the book on the points it raised."""


# Fantasy 1. Seed 003, Dodge: "a Ward save against attacks in their front arc".

async def test_shoot_from_the_flank_says_dodge_does_not_apply(play):
    code, r = await play('/shoot shots:1 bs:4 strength:4 toughness:4 dodge:5 facing:flank dice:"4 4"')
    assert code == 0, r
    assert r["unsaved"] == 1
    assert any("outside its front arc" in x for x in r["summary"])


async def test_combat_attacks_from_the_flank_are_not_dodged(play):
    code, r = await play('/combat attacks attacks:1 ws:4 enemy_ws:4 strength:4 toughness:4 dodge:"5 flank" dice:"4 4"')
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
