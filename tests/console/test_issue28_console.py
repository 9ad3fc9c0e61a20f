"""Issue 28 through the console's --json: each item as a player types it (seed lines as in
tests/engine/fantasy/test_issue28_templates.py and tests/engine/wh40k/test_issue28_vehicles.py)."""

from __future__ import annotations

from cogs.wh40k.vehicles import STATE_DESCRIPTION


# Item 1. 000:144: casualties are the unit's; the wounds of a template pool on it.

async def test_fire_thrower_on_two_wound_models_pools_the_wounds_and_takes_the_panic_test(play):
    code, r = await play('/fire fire-thrower distance:4 ranks:2 files:5 toughness:3 wounds:2 leadership:7 '
                         'dice:"2 6 6 6 6 6 6 3 3"')
    assert code == 0, r
    assert (r["unsaved"], r["casualties"]) == (6, 3) and r["panic"]["required"] is True
    assert "6 unsaved wounds pool on the unit (W2): 3 slain" in r["summary"][0]
    assert not any("survives" in x for x in r["summary"])  # a hit's line gives its wounds alone


async def test_stone_thrower_and_breath_pool_the_wounds(play):
    code, r = await play('/fire stone-thrower distance:30 ranks:2 files:5 toughness:3 wounds:2 '
                         'dice:"H 4 6 6 6 6 6 6 6 1 1 1 1"')
    assert code == 0, r
    assert (r["unsaved"], r["casualties"]) == (7, 3)
    code, r = await play('/breath distance:2 strength:4 ranks:2 files:5 toughness:3 wounds:2 dice:"6 6 6 6 6 1"')
    assert code == 0, r
    assert (r["unsaved"], r["casualties"]) == (5, 2) and "2 slain" in r["summary"][0]


# Item 3. 000:144 not physical; 003:246 Immunity (Flaming Attacks); 003:190, 003:248-250 Panic.

async def test_fire_thrower_immune_flaming_and_immune_panic(play):
    code, r = await play('/fire fire-thrower distance:4 ranks:2 files:5 toughness:3 immune:flaming dice:"2"')
    assert code == 0, r
    assert r["no_effect"] and r["casualties"] == 0 and r["panic"]["required"] is False
    assert "does nothing" in r["summary"][0]
    code, r = await play('/fire fire-thrower distance:4 ranks:2 files:5 toughness:3 leadership:7 immune:frenzy '
                         'dice:"2 6 6 6 6 6 6"')
    assert code == 0, r
    assert r["casualties"] == 6 and r["panic"]["immunity"] == "Psychology" and r["panic"]["test"] is None
    assert any("takes no Panic test" in x for x in r["summary"])


async def test_immune_is_refused_with_the_names_each_command_takes(play):
    code, r = await play('/fire fire-thrower distance:4 immune:fear')
    assert code == 2 and "flaming, panic, psychology" in r["error"]
    code, r = await play('/shoot shots:1 bs:3 strength:4 toughness:3 immune:panic')
    assert code == 2 and "not one of flaming, killing-blow" in r["error"]  # /shoot has no Panic test to spare


async def test_combat_breath_takes_immune(play):
    code, r = await play('/combat breath strength:4 models:10 toughness:3 flaming:true immune:flaming dice:"6 6"')
    assert code == 0, r
    assert r["hits"] == 0 and any("not physical" in x for x in r["rules"])


# Item 4. 003:94 Dodge against templates in the front arc; 000:81 the bounce is a kind of template.

async def test_dodge_on_the_stone_thrower_fire_thrower_and_cannon(play):
    code, r = await play('/fire stone-thrower distance:30 ranks:1 files:1 toughness:3 dodge:4 dice:"H 4 6 4"')
    assert code == 0, r
    assert r["casualties"] == 0 and any("Dodge (4+)" in x for x in r["rules"])
    code, r = await play('/fire fire-thrower distance:2 ranks:1 files:1 toughness:3 dodge:5 dice:"2 6 5"')
    assert code == 0, r
    assert r["casualties"] == 0 and r["dodge"] == 5
    code, r = await play('/fire cannon distance:20 ranks:1 files:1 toughness:3 dodge:6 facing:flank dice:"H 2 6 6"')
    assert code == 0, r
    assert r["casualties"] == 1 and any("outside its front arc" in x for x in r["rules"])


# Item 2. 004:394, 004:409: the second blast hit finds the vehicle immobilised.

async def test_ordnance_on_an_open_topped_vehicle_carries_its_state(play):
    code, r = await play('/40k ordnance distance:30 strength:8 armour:"13 11 10" open_topped:true dice:"H 1 5 2 4 5 2 4"')
    assert code == 0, r
    first, second = r["vehicle"]["hits"]
    assert first["damage"]["result"] == "immobilised" and second["damage"]["counts_as"] == "crew stunned"
    assert r["vehicle"]["after"]["immobilised"] and r["vehicle"]["after"]["stunned"]
    assert "immobilised; glancing hit: crew stunned" in r["summary"][0]


# Item 5. 004:128-130, 004:416, 004:494: the slow skimmer lands.

async def test_an_immobilised_slow_skimmer_lands(play):
    code, r = await play('/40k penetrate strength:6 armour:10 skimmer:true dice:"5 3"')
    assert code == 0, r
    assert r["damage"]["landed"] and r["vehicle_after"]["landed"] and r["vehicle_after"]["immobilised"]
    assert "lands where it is" in r["summary"][0]
    code, r = await play('/40k damage table:glancing skimmer:true dice:"5"')
    assert code == 0, r
    assert r["damage"]["landed"] and r["vehicle_after"]["landed"]


# Item 6. The state option's own description, typed as shown.

async def test_the_state_option_takes_what_its_description_shows(play):
    example = STATE_DESCRIPTION.removeprefix("e.g. ")
    code, r = await play(f'/40k ordnance distance:30 strength:8 armour:"13 11 10" passengers:2 state:"{example}" dice:"H 1 1 1"')
    assert code == 0, r
    # typed as shown and nothing else: a player copying the description is not refused
    code, r = await play(f'/40k ordnance distance:30 strength:8 armour:"13 11 10" state:"{example}" dice:"H 1 1 1"')
    assert code == 0, r
    code, r = await play('/40k ordnance distance:30 strength:8 armour:"13 11 10" state:"smoke, save 4" dice:"H 1 1 1"')
    assert code == 2 and "no passengers aboard" in r["error"]
    code, r = await play('/40k ordnance distance:30 strength:8 armour:"13 11 10" state:"smoke, nearby" dice:"H 1 1 1"')
    assert code == 2 and "nearby 1,3" in r["error"]


# Item 9. Small ones.

async def test_grapeshot_misfire_prints_no_to_hit_line(play):
    code, r = await play('/fire grapeshot distance:6 bs:3 dice:"M 3 4"')
    assert code == 0, r
    assert not any("to hit" in x for x in r["summary"])


async def test_assault_names_the_passengers_once(play):
    code, r = await play('/40k assault attacks:2 armour:10 moved:stationary strength:6 passengers:4 dice:"5 2 5 4"')
    assert code == 0, r
    assert sum(x.startswith("Passengers:") for x in r["summary"]) == 1


async def test_ignored_options_are_refused(play):
    code, r = await play('/40k tank-shock leadership:7 strength:6')
    assert code == 2 and "give hero" in r["error"]
    code, r = await play('/40k penetrate strength:6 armour:10 passenger_save:4')
    assert code == 2 and "no passengers aboard" in r["error"]
    code, r = await play('/40k penetrate strength:6 armour:10 skimmer:true skimmer_fast:true')
    assert code == 2 and "cannot both be true" in r["error"]


async def test_skimmer_drift_only_for_stunned_crew(play):
    code, r = await play('/40k penetrate strength:6 armour:10 skimmer:true dice:"5 2"')
    assert code == 0, r
    assert r["damage"]["result"] == "armament destroyed" and not any("drifts" in n for n in r["damage"]["notes"])


# T28 (independent check). 003:70 a breath is not a physical attack; 003:246 Immunity: with no
# profile the breath still does nothing, and /combat breath says why its hits came to nothing.

async def test_breath_immune_without_a_profile_does_nothing(play):
    code, r = await play('/breath distance:1 strength:4 flaming:true immune:flaming ranks:2 files:5')
    assert code == 0, r
    assert r["no_effect"] is True and r["hits"] == [] and (r["unsaved"], r["casualties"]) == (0, 0)
    assert "does nothing" in r["summary"][0] and any("not physical" in x for x in r["rules"])
    code, r = await play('/breath distance:1 strength:4 immune:flaming ranks:2 files:5')  # not a flaming breath
    assert code == 0, r
    assert r["no_effect"] is False and len(r["hits"]) == 6


async def test_combat_breath_says_why_it_did_nothing(play):
    code, r = await play('/combat breath strength:4 flaming:true models:10 toughness:3 wounds:2 immune:flaming dice:"3 3"')
    assert code == 0, r
    assert r["no_effect"] is True and (r["rolled_hits"], r["hits"]) == (6, 0)
    assert "6 hits, and they do nothing" in r["summary"][0] and "Immune" in r["summary"][0]
    code, r = await play('/combat breath strength:4 models:10 toughness:3 used_before:true dice:"2"')
    assert code == 0, r
    assert r["out_of_breath"] is True and "out of breath (rolled 2, needs 4+)" in r["summary"][0]


async def test_pooled_wounds_short_of_a_model_are_said_and_counted_in_words(play):
    # T28: 000:144 counts by the unit: one unsaved wound on a W2 unit slays nobody, yet a model now
    # carries it; the reply says so (and "1 unsaved wound pools", not "pool")
    code, r = await play('/fire fire-thrower distance:4 ranks:1 files:3 toughness:3 wounds:2 dice:"2 6 1 1"')
    assert code == 0, r
    assert (r["unsaved"], r["casualties"]) == (1, 0) and r["panic"]["required"] is False
    assert "1 unsaved wound pools on the unit (W2): 0 slain, 1 wound on a model still standing" in r["summary"][0]
    code, r = await play('/fire fire-thrower distance:4 ranks:1 files:3 toughness:3 wounds:2 dice:"2 6 6 1"')
    assert code == 0, r
    assert (r["unsaved"], r["casualties"]) == (2, 1) and "still standing" not in r["summary"][0]


async def test_a_landed_skimmer_stunned_does_not_drift(play):
    # T28: 004:128-130, 004:416 a landed skimmer may not move again, so it does not drift (004:386)
    code, r = await play('/40k damage table:glancing immobilised:true skimmer:true dice:"5"')
    assert code == 0, r
    assert r["damage"]["counts_as"] == "crew stunned" and r["damage"]["crew_stunned"]
    assert not any("drifts D6" in x for x in r["summary"]) and any("does not drift" in x for x in r["summary"])
    code, r = await play('/40k damage table:glancing skimmer:true dice:"3"')
    assert code == 0, r
    assert any("drifts D6" in x for x in r["summary"])
