"""/shoot through the console's --json: the shooting sequence and the special rules it applies."""


async def test_a_volley_lists_every_shot_and_the_rules_applied(play):
    code, result = await play('/shoot shots:3 bs:3 strength:4 toughness:3 save:4 ap:1 killing_blow:true troop:infantry dice:"4 1 5 6 5 2"')
    assert code == 0, result
    assert result["command"] == "shoot" and result["hits"] == 2 and result["to_hit"] == 4
    first, second, third = result["results"]
    assert second["hit"] is False
    assert first["killing_blow"] is True and first["wounds"] == 1
    assert third["wounded"] is True and third["saved"] is False
    assert result["unsaved"] == 2 and result["slain"] == 2
    assert any(r.startswith("Armour Piercing (1)") for r in result["rules"])
    assert any(r.startswith("Killing Blow") for r in result["rules"])


async def test_shots_at_a_war_machine_remove_crew(play):
    code, result = await play('/shoot shots:2 bs:3 strength:7 toughness:7 save:6 crew:2 dice:"5 5 4 6"')
    assert code == 0, result
    assert result["war_machine"] == {"crew": 2, "crew_lost": 2, "destroyed": True} and result["slain"] is None


async def test_ethereal_takes_the_better_ward(play):
    code, result = await play('/shoot shots:1 bs:3 strength:3 toughness:3 ethereal:true dodge:4 dice:"4 4 2"')
    assert code == 0, result
    assert result["ward"] == 2 and result["unsaved"] == 0


async def test_a_bad_troop_is_one_sentence(play):
    code, result = await play("/shoot shots:1 bs:3 strength:3 toughness:3 troop:dragon")
    assert code == 2 and "Troop type 'dragon'" in result["error"]


async def test_a_breath_weapon_at_range_hits_what_the_flame_template_covers(play):
    code, result = await play('/breath distance:6.5 strength:4 ranks:1 files:9')
    assert code == 0, result
    assert result["command"] == "breath" and [h["file"] for h in result["hits"]] == [3, 4, 5, 6, 7]
    assert result["breathed"] is True and result["casualties"] is None


async def test_shots_at_a_mixed_crew_are_allocated_and_listed(play):
    # Seed 000: a crew of models with different profiles takes hits as characters in a unit do.
    code, result = await play('/shoot shots:6 bs:3 strength:4 toughness:7 save:6 crew:"3, engineer W2 4+" '
                              'dice:"5 5 5 5 1 1  1 4 4 2  6 6  6 5  5"')
    assert code == 0, result
    wm = result["war_machine"]
    assert (wm["crew"], wm["crew_lost"], wm["destroyed"]) == (4, 2, False)
    assert [(a["shot"], a["model"]) for a in wm["allocation"]] == [(1, "crew"), (2, "engineer"), (3, "engineer"), (4, "crew")]
    assert [(m["model"], m["lost"]) for m in wm["models"]] == [("crew", 2), ("engineer", 0)]
    assert any("engineer" in line and "saved" in line for line in result["summary"])


async def test_a_crew_that_cannot_be_read_changes_nothing(play):
    code, result = await play('/shoot shots:1 bs:3 strength:4 toughness:7 crew:"3, engineer W2 x7"')
    assert code == 2 and "'x7' is not a name" in result["error"]
