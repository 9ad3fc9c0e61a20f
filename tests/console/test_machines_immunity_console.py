"""Immunity (Multiple Wounds, Armour Piercing) and Ethereal on every /fire war machine, through the
console's --json (seed 003:101, 003:246): typed, refused when wrong, and from a list unit."""

from pathlib import Path

EMPIRE = Path(__file__).resolve().parents[1] / "fixtures" / "army" / "empire.rosz"


async def test_a_cannon_at_a_monster_immune_to_multiple_wounds_does_one_wound(play):
    line = '/fire great-cannon distance:30 ranks:1 files:1 troop:monster toughness:6 wounds:6 {} dice:"H 8 6 6{}"'
    code, plain = await play(line.format("", " 5"))
    assert code == 0, plain
    assert plain["hits"][0]["wounds"] == 5 and plain["immune"] == []
    code, r = await play(line.format("immune:multiple-wounds", ""))
    assert code == 0, r
    assert r["hits"][0]["wounds"] == 1 and r["unsaved"] == 1 and r["immune"] == ["multiple-wounds"]
    assert any(x.startswith("Rules applied: Immunity (multiple-wounds)") for x in r["summary"])
    assert not any(d["purpose"].startswith("Multiple Wounds") for d in r["dice"])


async def test_without_a_profile_the_immune_hits_say_one_wound(play):
    code, r = await play('/fire cannon distance:30 ranks:2 files:3 immune:"multiple wounds" dice:"H 8 2"')
    assert code == 0, r
    assert [h["wounds"] for h in r["hits"]] == [1, 1]
    assert any("1 wound if it wounds" in x for x in r["summary"])
    assert any("Immunity (multiple-wounds): each unsaved wound is one wound" in x for x in r["summary"])


async def test_stone_thrower_and_bolt_thrower_take_the_immunities_they_carry(play):
    code, r = await play('/fire stone-thrower distance:30 ranks:1 files:1 troop:monster toughness:5 wounds:6 '
                         'immune:multiple-wounds dice:"H 4 6"')
    assert code == 0, r
    assert r["hits"][0]["wounds"] == 1 and r["casualties"] == 0
    code, r = await play('/fire bolt-thrower distance:20 bs:3 ranks:1 files:1 troop:monster toughness:3 wounds:6 save:2 '
                         'immune:"multiple-wounds armour-piercing" dice:"5 6 4"')
    assert code == 0, r
    assert r["hits"][0]["wounds"] == 1 and r["immune"] == ["multiple-wounds", "armour-piercing"]
    assert any("armour 4 (needs 5+)" in x for x in r["summary"])  # S6 alone: 2+ becomes 5+, not 6+


async def test_an_immunity_the_machine_does_not_carry_is_refused_in_one_sentence(play):
    code, r = await play("/fire cannon distance:30 immune:flaming")
    assert (code, r) == (2, {"error": "immune: 'flaming' is not one of multiple-wounds."})
    code, r = await play("/fire bolt-thrower distance:20 bs:3 immune:poison")
    assert (code, r) == (2, {"error": "immune: 'poison' is not one of multiple-wounds, armour-piercing."})


async def test_ethereal_is_a_2_plus_ward_against_every_war_machine(play):
    shots = {
        '/fire fire-thrower distance:6 ranks:1 files:1 toughness:3 ethereal:true dice:"4 6 {}"': "ward save rank 1 file 1",
        '/fire cannon distance:30 ranks:1 files:1 toughness:3 ethereal:true dice:"H 8 2 6 {}"': "ward save rank 1 file 1",
        '/fire stone-thrower distance:30 ranks:1 files:1 toughness:3 ethereal:true dice:"H 4 6 {}"': "ward save rank 1 file 1",
        '/fire bolt-thrower distance:20 bs:3 ranks:1 files:1 toughness:3 ethereal:true dice:"4 6 {}"': "ward save rank 1 file 1",
        '/fire grapeshot distance:6 bs:3 toughness:3 ethereal:true dice:"2 1 4 1 1 6 {}"': "ward save shot 1",
    }
    for line, purpose in shots.items():
        for face, unsaved in (("2", 0), ("1", 1)):
            code, r = await play(line.format(face))
            assert code == 0, (line, r)
            assert r["ethereal"] is True and r["unsaved"] == unsaved, (line, face, r["summary"])
            assert [d["purpose"] for d in r["dice"]][-1] == purpose
            assert any("Ethereal (2+ against mundane attacks)" in x for x in r["rules"]), line


async def test_ethereal_without_a_profile_tells_the_players_their_ward(play):
    code, r = await play('/fire fire-thrower distance:6 ranks:1 files:3 ethereal:true dice:"4"')
    assert code == 0, r
    assert any("Ethereal: a 2+ ward save against each wound" in x for x in r["summary"])


async def test_a_list_units_ethereal_reaches_the_fire_thrower(play):
    await play(f"/army import file:{EMPIRE}")
    named = await play('/fire fire-thrower distance:6 troop:"Spirit Host" ranks:1 dice:"4 3 3 1 1 2"')
    typed = await play('/fire fire-thrower distance:6 troop:swarm ranks:1 files:3 toughness:3 wounds:4 ethereal:true '
                       'dice:"4 3 3 1 1 2"')
    assert named[0] == typed[0] == 0, named
    assert named[1]["from_list"]["filled"]["ethereal"] is True and named[1]["from_list"]["not_applied"] == []
    assert named[1]["unsaved"] == typed[1]["unsaved"] == 1
    assert [x for x in named[1]["summary"] if not x.startswith("From ")] == typed[1]["summary"]
