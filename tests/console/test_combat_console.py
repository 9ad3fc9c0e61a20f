"""/combat through the console's --json: strike order, attacks, Impact Hits, breath, result, war machines."""


async def test_always_strikes_first_on_both_sides(play):
    code, r = await play("/combat strike-order initiative:4 enemy_initiative:6 strikes:first enemy_strikes:first")
    assert code == 0, r
    assert r["first"] == "defender" and r["defender_reroll"] == "re-roll failed hits" and r["attacker_reroll"] == "none"


async def test_attacks_with_hatred_and_always_strikes_first(play):
    code, r = await play('/combat attacks attacks:2 ws:4 enemy_ws:4 strength:4 toughness:4 initiative:5 enemy_initiative:3 '
                         'strikes:first hatred:true dice:"1 4 3 5"')
    assert code == 0, r
    assert r["strike_order"]["first"] == "attacker"
    assert r["results"] == [{"attack": 1, "to_hit": [1, 3], "hit": False}, {"attack": 2, "to_hit": [4], "hit": True}]
    assert r["hits"] == 1 and r["unsaved"] == 1


async def test_devastating_charge_is_lost_on_a_war_machine(play):
    code, r = await play('/combat attacks attacks:2 ws:4 enemy_ws:3 strength:3 toughness:3 devastating_charge:true war_machine:true dice:"1 1"')
    assert code == 0, r
    assert r["attacks"] == 2 and any("lost" in x for x in r["rules"])


async def test_breath_weapon_hits_no_model_twice(play):
    code, r = await play('/combat breath strength:4 models:3 toughness:3 dice:"6 6 4 4 4"')
    assert code == 0, r
    assert (r["rolled_hits"], r["hits"], r["unsaved"]) == (12, 3, 3)


async def test_combat_result_with_fear_against_a_war_machine(play):
    code, r = await play('/combat result wounds:1 enemy_wounds:1 flank:true fear:true war_machine:true leadership:7 dice:"6 2"')
    assert code == 0, r
    assert r["scores"] == [2, 1] and r["winner"] == "attacker"
    assert r["break_test"]["needed"] == 6 and r["break_test"]["passed"] is False and "destroyed" in r["outcome"]


async def test_the_assault_party(play):
    code, r = await play("/combat war-machine models:20 unit_strength:3")
    assert code == 0 and r["assault_party"] == 2 and r["panic"] is None


async def test_impact_hits_need_a_number_or_a_die(play):
    code, r = await play("/combat impact-hits strength:5 toughness:4")
    assert code == 2 and "either hits" in r["error"]


async def test_a_defender_immune_to_fear_ignores_the_bonus(play):
    code, r = await play("/combat result wounds:1 enemy_wounds:1 fear:true enemy_immune:true")
    assert code == 0 and r["scores"] == [1, 1] and r["winner"] is None


async def test_frenzy_gives_one_more_attack(play):
    # Seed 003, Frenzy: "Frenzied troops gain +1 Attack and the Immunity (Psychology) special rule."
    # 2 Attacks with Frenzy: three to-hit dice (WS4 against WS3: 3+), 4 4 1; two wound (4+) on 5 6.
    code, r = await play('/combat attacks attacks:2 ws:4 enemy_ws:3 strength:3 toughness:3 frenzy:true dice:"4 4 1 5 6"')
    assert code == 0, r
    assert r["attacks"] == 3 and r["hits"] == 2 and r["unsaved"] == 2
    assert "Frenzy: +1 Attack" in r["rules"]
    code, r = await play('/combat attacks attacks:2 ws:4 enemy_ws:3 strength:3 toughness:3 frenzy:true '
                         'devastating_charge:true dice:"4 4 1 1 5 6"')
    assert code == 0 and r["attacks"] == 4  # and Devastating Charge's on the charge


async def test_the_war_machine_switch_reads_as_the_targets_troop_type(play):
    # /combat attacks gave its 25th option to Frenzy; war_machine:true (scripts) still reads, as
    # troop:war-machine, and the charge bonus is lost the same way (seed 000).
    _, old = await play('/combat attacks attacks:2 ws:4 enemy_ws:3 strength:3 toughness:3 devastating_charge:true war_machine:true dice:"1 1"')
    _, new = await play('/combat attacks attacks:2 ws:4 enemy_ws:3 strength:3 toughness:3 devastating_charge:true troop:war-machine dice:"1 1"')
    assert old["attacks"] == new["attacks"] == 2
    assert {k: v for k, v in old.items() if k not in ("roll", "log")} == {k: v for k, v in new.items() if k not in ("roll", "log")}
    code, r = await play('/combat attacks attacks:2 ws:4 enemy_ws:3 strength:3 toughness:3 war_machine:true troop:infantry')
    assert code == 2 and "give troop:war-machine alone" in r["error"]
    code, r = await play('/combat attacks attacks:2 ws:4 enemy_ws:3 strength:3 toughness:3 war_machine:false dice:"1 1"')
    assert code == 0 and r["attacks"] == 2
