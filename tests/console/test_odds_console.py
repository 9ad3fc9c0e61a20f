"""/odds (issue 17) through the console's --json: the chances of a shot from the command's own
engine call, exact where every way the dice can fall is enumerated, and agreeing with the
referee's own dice thrown many times (a property test, within 4 standard errors)."""

from __future__ import annotations

import math
import re
from collections import Counter
from fractions import Fraction

import pytest

from cogs.odds.commands import driven, procedure_of, read_line
from cogs.odds.words.odds import outcome
from console.offline import OfflineInteraction
from engine.dice import RandomDice


def chances(result) -> dict[str, float]:
    return {o["outcome"]: o["chance"] for o in result["odds"]["outcomes"]}


@pytest.fixture(autouse=True)
def no_time_bound(monkeypatch):
    """Exact or estimated by the dice alone, not by how fast this machine enumerates (as the docs'
    pictures are made): the engine's time bound lifted, for every test here (a loaded machine
    would otherwise turn an exact answer into an estimate; tests/engine/test_odds_enumeration.py
    checks the bound itself)."""
    import engine.odds.enumeration

    monkeypatch.setattr(engine.odds.enumeration, "SECONDS", None)


async def test_exact_odds_of_a_penetration_with_its_damage_table(play):
    # S9 + D6 against armour 13: 1-3 bounce off (1/2), a 4 glances (1/6), 5-6 penetrate (1/3); then the tables.
    code, r = await play('/odds shot:"40k penetrate strength:9 armour:13"')
    assert code == 0, r
    odds = r["odds"]
    # 43 ways: a wreck's scatter die is a hit or an arrow (1/3, 2/3); where it points never changes the row
    assert odds["method"] == "exact" and odds["ways"] == 43
    exact = {o["outcome"]: Fraction(o["exact"]) for o in odds["outcomes"]}
    assert sum(exact.values()) == 1
    assert exact["no effect"] == Fraction(1, 2)
    assert sum(v for k, v in exact.items() if k.startswith("glancing")) == Fraction(1, 6)
    assert sum(v for k, v in exact.items() if k.startswith("penetrating")) == Fraction(1, 3)
    # issue 28 item 8: the answer leads with the classes a player names, then the likeliest in detail
    assert r["summary"][0].endswith("No effect 50.0% (1/2) · glancing 16.7% (1/6) · penetrating 33.3% (1/3)")
    assert r["summary"][1] == "Most likely: no effect, 50.0% (1/2)"


async def test_exact_odds_of_a_structure_test(play):
    # A gateway (12 points) with 2 hits and 1 token: 3D6 must beat 12: 81 of 216 ways... as the engine counts.
    code, r = await play('/odds shot:"siege structure kind:gateway hits:2 tokens:1"')
    assert code == 0, r
    exact = {o["outcome"]: Fraction(o["exact"]) for o in r["odds"]["outcomes"]}
    beats = sum(1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) if a + b + c > 12)
    assert exact["it falls"] == Fraction(beats, 216)
    assert exact["it holds, with a Destruction Token"] == 1 - Fraction(beats, 216)


async def test_roll_and_misfire_are_priced_too(play):
    _, r = await play('/odds shot:"roll expression:2d6+1"')
    assert {o["outcome"]: Fraction(o["exact"]) for o in r["odds"]["outcomes"]}["2d6+1 = 8"] == Fraction(6, 36)
    assert r["odds"]["expected"]["total"] == pytest.approx(8.0)
    _, r = await play('/odds shot:"misfire chart:blackpowder"')
    assert sorted(chances(r).values()) == pytest.approx([1 / 3] * 3)


async def test_a_scatter_shot_is_exact_over_the_hit_and_the_360_directions(play):
    """A small target under a stone thrower: the scatter die's hit and each of its 360 whole-degree
    directions, every artillery die and centre-hole roll, counted exactly."""
    code, r = await play('/odds shot:"fire stone-thrower distance:24 ranks:2 files:2"')
    assert code == 0, r
    odds = r["odds"]
    assert odds["method"] == "exact" and odds["reason"] is None and odds["ways"] > 360
    assert sum(o["chance"] for o in odds["outcomes"]) == pytest.approx(1, abs=1e-12)
    assert all(o["error"] is None for o in odds["outcomes"])
    # the scatter die's hit with no misfire (1/3 of 5/6) lands the template on the unit's centre, all
    # four hit; a short arrow does too
    four = odds["distributions"]["hits"][-1]
    assert four["value"] == 4 and Fraction(four["exact"]) > Fraction(5, 18)


async def test_the_centre_of_landing_is_where_the_shots_come_down_on_average(play):
    """Exact over the 360 directions, the arrows average out: the template comes down, on average,
    on the aimed model's centre, and it lands whenever the stone thrower does not misfire (5/6)."""
    _, r = await play('/odds shot:"fire stone-thrower distance:24 ranks:2 files:2"')
    centre = r["odds"]["landing_centre"]
    assert centre == {"ranks_from_front": 0.5, "files_from_left": 0.5, "lands": pytest.approx(5 / 6, abs=1e-12)}
    _, r = await play('/odds shot:"fire cannon distance:30 ranks:5 files:6 toughness:3 aim_file:3"')
    centre = r["odds"]["landing_centre"]
    assert 2 <= centre["files_from_left"] <= 3 and 0 < centre["lands"] < 1  # in the aimed file, misfires aside
    _, r = await play('/odds shot:"40k penetrate strength:8 armour:13"')
    assert r["odds"]["landing_centre"] is None  # a penetration lands nowhere


async def test_a_shot_with_too_many_ways_is_estimated_and_says_why(play):
    code, r = await play('/odds shot:"fire cannon distance:30 ranks:5 files:6 toughness:3"')
    assert code == 0, r
    odds = r["odds"]
    assert odds["method"] == "estimated" and "ways the dice can fall" in odds["reason"]
    assert sum(o["chance"] for o in odds["outcomes"]) == pytest.approx(1)
    assert all(o["error"] is not None for o in odds["outcomes"])
    assert {"hits", "slain"} <= set(odds["expected"])


async def test_compare_prices_two_shots_side_by_side(play):
    code, r = await play('/odds shot:"40k penetrate strength:9 armour:13" compare:"40k penetrate strength:8 armour:13"')
    assert code == 0, r
    worse = {o["outcome"]: o["chance"] for o in r["compare"]["outcomes"]}
    assert worse["no effect"] == pytest.approx(4 / 6) and chances(r)["no effect"] == pytest.approx(3 / 6)


@pytest.mark.parametrize("line, message", [
    ("fire cannon", "needs distance"),
    ("fire canon distance:30", "Did you mean /fire cannon"),
    ("help", "rolls no dice of a shot, so it has no odds"),
    ("siege army points:1000 side:defender", "checks a list, with no dice"),
    ("fire cannon distance:30 machine:Betsy", "leave machine: out"),
    ("siege structure kind:wall hits:2 section:West", "give its tokens: with tokens:N"),
    ("odds shot:x", "has no odds"),
    ('fire cannon distance:"30', "check the quotes"),
])
async def test_a_line_that_cannot_be_priced_is_one_sentence(play, line, message):
    code, r = await play(f"/odds shot:'{line}'")
    assert code == 2 and message in r["error"], r


async def test_nothing_is_rolled_for_real_or_logged(play):
    await play('/odds shot:"40k penetrate strength:9 armour:13"')
    code, r = await play("/log show")
    assert code == 0 and not r.get("entries")


# ------------------------------------------------------------------------------ the property

THROWS = 20_000


async def priced_procedure(bot, line: str):
    command, kwargs, _ = read_line(bot, line)
    interaction = OfflineInteraction(bot, bot.tree.get_command("odds"))
    return driven(await procedure_of(command, interaction, kwargs))


@pytest.mark.parametrize("line", [
    "40k penetrate strength:9 armour:13",
    "40k penetrate weapon:ordnance strength:10 armour:14 open_topped:true",
    "siege structure kind:wall hits:3 tokens:1",
    "misfire chart:stonethrower",
    "roll expression:3d6",
    # a volley: one shot enumerated, the volley added up (each shot is rolled on its own)
    "shoot shots:3 bs:3 strength:4 toughness:3 save:5",
    "shoot shots:4 bs:4 strength:5 toughness:4 wounds:2 save:4 ward:6 multiple_wounds:D3 flaming:true flammable:true",
    # attacks in combat, Frenzy's one more among them, Hatred re-rolling misses
    "combat attacks attacks:3 ws:4 enemy_ws:3 strength:4 toughness:3 save:6 frenzy:true hatred:true",
])
async def test_exact_odds_agree_with_the_referees_own_dice_thrown_many_times(bot, play, line):
    """Each outcome's frequency over THROWS shots of the bot's real dice lies within 4 standard
    errors of its exact chance: the odds and the referee cannot disagree."""
    _, r = await play(f'/odds shot:"{line}"')
    assert r["odds"]["method"] == "exact", r
    exact = {o["outcome"]: float(Fraction(o["exact"])) for o in r["odds"]["outcomes"]}
    run = await priced_procedure(bot, line)
    seen = Counter(outcome(run(RandomDice(1000 + n))).label for n in range(THROWS))
    assert set(seen) <= set(exact)
    for label, p in exact.items():
        se = math.sqrt(p * (1 - p) / THROWS)
        assert abs(seen[label] / THROWS - p) <= 4 * se + 1e-12, (label, seen[label] / THROWS, p)


async def test_an_estimate_agrees_with_an_independent_one(bot, play):
    line = "fire stone-thrower distance:30 ranks:4 files:5 toughness:3"
    _, r = await play(f'/odds shot:"{line}"')
    estimate = {o["outcome"]: (o["chance"], o["error"]) for o in r["odds"]["outcomes"]}
    run = await priced_procedure(bot, line)
    n = 4000
    seen = Counter(outcome(run(RandomDice(777_000 + i))).label for i in range(n))
    for label, (p, err) in estimate.items():
        q = seen[label] / n
        both = math.sqrt(err ** 2 + p * (1 - p) / n)
        assert abs(q - p) <= 4 * both + 1e-12, (label, q, p)


async def test_the_picture_shades_each_model_by_its_chance_of_being_hit(play):
    from PIL import Image

    code, r = await play('/odds shot:"fire cannon distance:30 ranks:5 files:6 toughness:3 aim_file:3"')
    assert code == 0, r
    grid = r["odds"]["hit_chance"]
    assert len(grid) == 5 and all(len(row) == 6 for row in grid)
    assert all(0 <= p <= 1 for row in grid for p in row)
    front = grid[0]
    assert max(front) == front[2]  # the aimed file, where the ball lands most often
    png = Image.open(r["image"])
    assert png.format == "PNG" and png.width == 900


async def test_a_table_only_shot_gets_a_chart_of_its_outcomes(play):
    from PIL import Image

    code, r = await play('/odds shot:"siege structure kind:wall hits:3"')
    assert code == 0 and "hit_chance" not in r["odds"]
    assert Image.open(r["image"]).format == "PNG"


async def test_a_volley_is_exact_whatever_its_shots(play):
    code, r = await play('/odds shot:"shoot shots:10 bs:3 strength:4 toughness:3 save:5"')
    assert code == 0 and r["odds"]["method"] == "exact" and "added up 10 times" in r["odds"]["how"]
    assert sum(Fraction(o["exact"]) for o in r["odds"]["outcomes"]) == 1
    # BS3 hits on 4+ (1/2), S4 v T3 wounds on 3+ (2/3), the 5+ save is 6+ at S4 (fails 5/6): 5/18 a shot slays
    assert r["odds"]["expected"]["slain"] == pytest.approx(10 * 5 / 18)


async def test_dice_given_in_the_shot_are_fixed_and_the_rest_priced(play):
    # The marker lands on target (H): only the artillery dice are left, so the odds are exact again.
    code, r = await play("/odds shot:'fire cannon distance:30 ranks:5 files:6 dice:H'")
    assert code == 0 and r["odds"]["method"] == "exact", r
    exact = {o["outcome"]: Fraction(o["exact"]) for o in r["odds"]["outcomes"]}
    # artillery 2-10 (5/6) then the bounce; M (1/6) waits for the players' own chart roll
    assert sum(exact.values()) == 1 and exact["misfire"] == Fraction(1, 6) and exact["5 hits"] == Fraction(5, 9)


async def test_combat_attacks_are_exact_with_the_attacks_frenzy_adds(play):
    code, r = await play('/odds shot:"combat attacks attacks:2 ws:4 enemy_ws:4 strength:3 toughness:3 frenzy:true"')
    assert code == 0 and r["odds"]["method"] == "exact" and "added up 3 times" in r["odds"]["how"]
    # WS4 v WS4 hits on 4+ (1/2), S3 v T3 wounds on 4+ (1/2), no save: 1/4 an attack slays, 3 attacks
    assert r["odds"]["expected"]["slain"] == pytest.approx(3 / 4)


@pytest.mark.parametrize("shot", [
    "shoot shots:2 bs:3 strength:7 toughness:7 save:6 crew:2 multiple_wounds:D3",
    "shoot shots:2 bs:4 strength:5 toughness:7 save:5 crew:1",
    "shoot shots:2 bs:5 strength:6 toughness:6 crew:3 multiple_wounds:D3",
])
async def test_a_volley_at_a_war_machines_crew_is_exact_and_agrees_with_every_way_of_the_whole_volley(
        play, bot, shot, monkeypatch):
    """A war machine's ordinary crew: each shot on its own, the crew lost the unsaved wounds up to
    the crew. The same odds as enumerating the whole volley through the engine, to the fraction."""
    code, volley = await play(f'/odds shot:"{shot}"')
    assert code == 0, volley
    assert volley["odds"]["method"] == "exact" and "added up 2 times" in volley["odds"]["how"]
    # now every way of the whole volley, leaf by leaf (the module the bot loaded as its extension)
    loaded = type(bot.get_cog("OddsCog")).price_shot.__globals__
    monkeypatch.setitem(loaded, "VOLLEYS", {})
    code, whole = await play(f'/odds shot:"{shot}"')
    assert code == 0 and whole["odds"]["method"] == "exact" and whole["odds"]["how"] is None
    assert {o["outcome"]: o["exact"] for o in volley["odds"]["outcomes"]} == {
        o["outcome"]: o["exact"] for o in whole["odds"]["outcomes"]}
    assert volley["odds"]["expected"] == pytest.approx(whole["odds"]["expected"])
    assert "crew_lost" in volley["odds"]["expected"]


async def test_a_volley_at_a_mixed_crew_is_estimated(play):
    code, r = await play('/odds shot:"shoot shots:6 bs:3 strength:4 toughness:7 crew:\\"2, engineer W2 4+\\""')
    assert code == 0, r
    assert r["odds"]["method"] == "estimated"


async def test_a_small_tree_is_priced_on_the_loop_a_big_one_off_it(bot, monkeypatch):
    # Pricing a penetration on the event loop gives the very odds the worker thread gives; a horde's
    # tree is handed over (None) after at most SMALL ways, to be priced from the start off the loop.
    # Decided by the count of ways: the loop's time net (SMALL_SECONDS, which a loaded machine can
    # reach) is lifted here, so the test does not depend on the machine's speed.
    from cogs.odds import commands as odds_commands
    from cogs.odds.commands import POOLS, SMALL, price, price_small

    monkeypatch.setattr(odds_commands, "SMALL_SECONDS", None)

    command, kwargs, shown = read_line(bot, "40k penetrate strength:9 armour:13")
    caught = await procedure_of(command, OfflineInteraction(bot, bot.tree.get_command("odds")), kwargs)
    small = price_small(caught, shown, 0, POOLS["40k penetrate"])
    assert small is not None and small == price(caught, shown, 0, POOLS["40k penetrate"]) and small.ways <= SMALL
    command, kwargs, shown = read_line(bot, "fire cannon distance:30 ranks:10 files:10 toughness:3")
    caught = await procedure_of(command, OfflineInteraction(bot, bot.tree.get_command("odds")), kwargs)
    assert price_small(caught, shown, None, frozenset()) is None


async def test_a_huge_tree_is_sized_and_given_up_at_once(bot):
    # Knuth's estimate of a cannon at a 10 x 10 horde: far past the budget, so the enumeration stops
    # after PROBE_AFTER leaves rather than at its time bound.
    from engine.odds.enumeration import BUDGET, PROBE_AFTER, PROBE_FACTOR, TooMany, enumerate_outcomes, tree_size

    run = await priced_procedure(bot, "fire cannon distance:30 ranks:10 files:10 toughness:3")
    assert tree_size(run) > PROBE_FACTOR * BUDGET
    calls = 0

    def counted(dice):
        nonlocal calls
        calls += 1
        return run(dice)

    with pytest.raises(TooMany):
        enumerate_outcomes(counted, seconds=None)
    assert calls <= PROBE_AFTER + 8 * 40  # the leaves, then eight probes of a few dozen dice at most
    small = await priced_procedure(bot, "siege structure kind:wall hits:3 tokens:1")
    assert tree_size(small) == 6 ** 4  # 3 hits and 1 token: four dice, every path as long


@pytest.mark.parametrize(("line", "labels"), [
    ("wm cannon distance:24", r"(\d+ stands? lost|no hit)"),
    # two stands of 2 hits: counted exactly in a second (the default three stands of 3 hits took
    # 12 s estimated) with the same outcomes, 'no hit', '0 stands lost' and '1 stand lost'; of 1 hit: '2 stands lost'
    ("wm bone-thrower distance:24 stands:2 hits:2", r"(\d+ stands? lost|no hit)"),
    ("wm bone-thrower distance:24 stands:2 hits:1", r"(\d+ stands? lost|no hit)"),
    ("siege assault", r"(attackers win|draw|defenders win|failed)(, the defenders destroyed)?"),
    ("siege sally-gate distance:6", r"the gate is left open|the gate shuts"),
    ("siege scenario scenario:watchtower turn:3", r"the relief force arrives|no relief yet"),
    ("siege scenario scenario:into-the-breach turn:5", r"the game ends|the game goes on"),
    ("40k damage table:glancing", r"crew shaken|crew stunned|armament destroyed|immobilised|vehicle destroyed"),
    ("40k terrain", r"gets through|immobilised|crashes: destroyed|moves up to \d+\""),
    ("40k assault attacks:3 armour:10 moved:stationary strength:6", r"(no hit|\d+ hits?)(, vehicle destroyed)?"),
    ("combat result wounds:3 enemy_wounds:1 leadership:7", r"the (attacker|defender) wins(, the loser (holds|breaks))?|a draw"),
])
async def test_every_outcome_is_named_in_words_players_use(play, line, labels):
    # Not a record's type ("CannonShot", "SallyGate"): what happened, and a stand, not "1 stands".
    code, r = await play(f'/odds shot:"{line}"')
    assert code == 0, r
    names = [o["outcome"] for o in r["odds"]["outcomes"]]
    assert names and all(re.fullmatch(labels, name) for name in names), names
