"""Issue 16, Warmaster, through the cogs: the kept siege links a gateway tower and its gate, a
failed battering attempt says the structure test is still due, and plurals read right."""

from cogs.common.replies import ERROR_KEY, REPLY_KEY
from cogs.warmaster.words.shooting import plural
from tests.cogs.fantasy.test_fire_cog import bot  # noqa: F401  (the fixture)
from tests.cogs.warmaster.test_warmaster_cog import run


# Seed 001, Fortification list, footnote 2: "The gateway may be destroyed independently with a
# Structure Point value of 12. If the tower is destroyed the gateway is destroyed with it."

async def test_the_gate_falls_alone_at_12_and_the_tower_stands(bot):
    i = await run(bot, "siege", "structure", kind="gateway-tower", section="gatehouse", gate=True, hits=3, dice="6 6 1")
    f = i.extras[REPLY_KEY].fields["structure"]
    assert f["gate"] and f["points"] == 12 and f["destroyed"]
    t = await run(bot, "siege", "structure", kind="gateway-tower", section="gatehouse", hits=1, dice="2")
    assert not t.extras[REPLY_KEY].fields["structure"]["destroyed"]
    assert t.extras[REPLY_KEY].fields["structure"]["tokens_after"] == 1


async def test_when_the_tower_falls_its_gate_falls_with_it(bot):
    await run(bot, "siege", "structure", kind="gateway-tower", section="north gate", gate=True, hits=1, dice="1")
    i = await run(bot, "siege", "structure", kind="gateway-tower", section="north gate", hits=5, dice="6 6 6 6 6")
    assert i.extras[REPLY_KEY].fields["structure"]["destroyed"]
    f = await run(bot, "siege", "fortress")
    sections = {s["section"]: s for s in f.extras[REPLY_KEY].fields["sections"]}
    assert sections["north gate (gate)"]["breached"] and sections["north gate"]["breached"]
    again = await run(bot, "siege", "structure", kind="gateway-tower", section="north gate", gate=True, hits=1, dice="1")
    assert "fell with it" in again.extras[ERROR_KEY]


async def test_a_palisade_tower_may_carry_a_gateway(bot):
    i = await run(bot, "siege", "structure", kind="palisade-tower", section="stockade", gate=True, hits=1, dice="1")
    assert i.extras[REPLY_KEY].fields["structure"]["points"] == 12


# Seed 001, Structure tests: "If there are Destruction Tokens on a building it must make a
# Structure Test at the end of the attacker's Shooting phase, even if it took no hits in the current round."

async def test_a_failed_batter_on_a_kept_section_says_the_test_is_due_and_how(bot):
    await run(bot, "siege", "structure", kind="wall", section="w9", hits=1, dice="1")
    i = await run(bot, "siege", "batter", kind="wall", section="w9", shots=6, dice="6 6 6 6 6 6 1 1 1 1 1 1")
    r = i.extras[REPLY_KEY]
    assert r.fields["failed"] and r.fields["structure_test_due"]
    assert "/siege structure kind:wall section:w9 hits:N" in r.summary[0]
    held = await run(bot, "siege", "structure", kind="wall", section="w9", hits=0, dice="3")
    assert "tests again at the end of the attacker's next Shooting phase" in held.extras[REPLY_KEY].summary[0]


def test_plurals():
    assert [plural(2, "six"), plural(1, "six"), plural(1, "section"), plural(3, "die"), plural(2, "automatic hit")] == [
        "2 sixes", "1 six", "1 section", "3 dice", "2 automatic hits"]


# Seed 001, Giants: "Giants can use their clubs to batter in the same way as a Battering Ram":
# the battering unit is then the giant, not three stands of infantry.

async def test_a_giant_batters_as_a_giant(bot):
    # Six stand-and-shoot attacks: six 6s hit a giant (Armour 5+: saves 1 1 1 5 5 6); three taken
    # of its 8 Hits: no stand lost, the ram's hit goes in.
    i = await run(bot, "siege", "batter", kind="wall", by="giant", shots=6, dice="6 6 6 6 6 6 1 1 1 5 5 6 3")
    r = i.extras[REPLY_KEY]
    assert not r.fields["failed"] and r.fields["hits_taken"] == 3 and r.fields["stands_lost"] == 0


# Seed 001, Breaches: "count the number of wounds the lost stand had and proceed as if the unit
# had taken that many wounds by shooting ... the defender may still choose which stand he removes".

async def test_a_fallen_wall_sets_up_the_lost_stands_as_shooting_hits(bot):
    i = await run(bot, "siege", "structure", kind="wall", hits=6, dice="6 6 6 6 6 6")
    assert any("as if from shooting" in line and "defender picks" in line for line in i.extras[REPLY_KEY].summary)
    gate = await run(bot, "siege", "structure", kind="gateway", hits=3, dice="6 6 6")
    assert not any("as if from shooting" in line for line in gate.extras[REPLY_KEY].summary)


async def test_helblaster_stand_and_shoot_reads_as_such(bot):
    i = await run(bot, "wm", "helblaster", range=5.0, charging=True, dice="6 6 6 4 4 1")
    r = i.extras[REPLY_KEY]
    assert r.summary[0].startswith("Stand and shoot") and r.fields["target"]["carried_into_combat"] == 5
