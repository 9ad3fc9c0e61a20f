"""config/fantasy.toml against the rulebook (Warhammer Fantasy Battles, War Machines).

The expected numbers below are copied from the book by hand (Cannons, Great Cannon, Black Powder
Misfire Chart, the cannon's "Who's Been Hit?" list of monstrous troop types, Stone Throwers and the
Stone Thrower Misfire Chart); where the book text is beside the project (../shared/seeds) its
profile tables and charts are read as well.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

import config.gamedata as gamedata
from engine.dice import DieKind
from engine.errors import RulesError
from engine.fantasy.formation import BASE_WIDTHS, MAX_BASE_DEPTH, MIN_BASE_DEPTH, TargetUnit
from engine.fantasy.profiles import MisfireOutcome

RULEBOOK = Path(__file__).resolve().parents[4] / "shared" / "seeds" / "000_1635bd6a8de0a672.txt"

# (min range, max range, Strength, Multiple Wounds on a direct hit, on the bounce)
BOOK_CANNONS = {
    "cannon": ("Cannon", 12, 48, 10, DieKind.D6, DieKind.D3),
    "great-cannon": ("Great Cannon", 12, 60, 10, DieKind.D6, DieKind.D6),
}

# Black Powder Misfire Chart: D6 score -> (outcome, turns of the controlling player, counting this
# one, in which the machine cannot fire; 0 when it is destroyed)
BOOK_BLACK_POWDER = {
    1: (MisfireOutcome.DESTROYED, "Destroyed!", 0),
    2: (MisfireOutcome.DESTROYED, "Destroyed!", 0),
    3: (MisfireOutcome.MALFUNCTION, "Malfunction", 2),
    4: (MisfireOutcome.MALFUNCTION, "Malfunction", 2),
    5: (MisfireOutcome.MAY_NOT_SHOOT, "May Not Shoot", 1),
    6: (MisfireOutcome.MAY_NOT_SHOOT, "May Not Shoot", 1),
}

# Stone Throwers: 12-60" | 4(10) | Multiple Wounds (D6), the small round (3") template; the higher
# Strength and the Multiple Wounds only for the model under the centre hole (Damage).
# (name, min range, max range, Strength, centre Strength, centre Multiple Wounds, template inches)
BOOK_STONE_THROWERS = {
    "stone-thrower": ("Stone Thrower", 12, 60, 4, 10, DieKind.D6, 3.0),
}

# Stone Thrower Misfire Chart: D6 score -> (outcome, title, turns the machine cannot fire counting
# this one, wounds it suffers with no armour save)
BOOK_STONE_THROWER_MISFIRES = {
    1: (MisfireOutcome.DESTROYED, "Destroyed!", 0, 0),
    2: (MisfireOutcome.DISABLED, "Disabled", 2, 1),
    3: (MisfireOutcome.DISABLED, "Disabled", 2, 1),
    4: (MisfireOutcome.MAY_NOT_SHOOT, "May Not Shoot", 1, 0),
    5: (MisfireOutcome.MAY_NOT_SHOOT, "May Not Shoot", 1, 0),
    6: (MisfireOutcome.MAY_NOT_SHOOT, "May Not Shoot", 1, 0),
}

# "If the cannonball bounces into a monstrous infantry/beast/cavalry or monster..."
BOOK_MONSTROUS = {"monstrous-infantry", "monstrous-beast", "monstrous-cavalry", "monster"}
NOT_MONSTROUS = {"infantry", "war-beast", "cavalry", "chariot", "swarm", "war-machine"}


@pytest.mark.parametrize("key", sorted(BOOK_CANNONS))
def test_cannon_profile_matches_the_book(data, key):
    name, low, high, strength, direct, bounce = BOOK_CANNONS[key]
    profile = data.cannons[key]
    assert profile.key == key
    assert profile.name == name
    assert (profile.min_range, profile.max_range) == (low, high)
    assert profile.strength == strength
    assert (profile.direct_wounds, profile.bounce_wounds) == (direct, bounce)
    assert profile.misfire_chart == "black-powder"
    assert "Cannons" in profile.source and "Warhammer Fantasy" in profile.source


def test_only_the_two_cannon_profiles_of_the_book_are_shipped(data):
    assert set(data.cannons) == set(BOOK_CANNONS)


def test_cannon_special_rules_name_the_multiple_wounds_dice(data):
    assert data.cannons["cannon"].special_rules == ("Multiple Wounds (D6/D3)",)
    assert data.cannons["great-cannon"].special_rules == ("Multiple Wounds (D6)",)


@pytest.mark.parametrize("score", range(1, 7))
def test_black_powder_misfire_chart_matches_the_book(data, score):
    outcome, title, silent = BOOK_BLACK_POWDER[score]
    row = data.misfire_charts["black-powder"].row_for(score)
    assert (row.outcome, row.title, row.silent_turns) == (outcome, title, silent)
    assert row.wounds == 0  # no row of the black powder chart wounds the machine


def test_black_powder_chart_has_three_rows_of_two_scores(data):
    chart = data.misfire_charts["black-powder"]
    assert chart.name == "Black Powder Misfire Chart"
    assert [(r.low, r.high) for r in chart.rows] == [(1, 2), (3, 4), (5, 6)]
    assert "Misfire" in chart.source


def test_every_shipped_misfire_chart_covers_one_to_six(data):
    for chart in data.misfire_charts.values():
        covered = [n for r in chart.rows for n in range(r.low, r.high + 1)]
        assert covered == [1, 2, 3, 4, 5, 6], chart.key


@pytest.mark.parametrize("key", sorted(BOOK_STONE_THROWERS))
def test_stone_thrower_profile_matches_the_book(data, key):
    name, low, high, strength, centre, wounds, template = BOOK_STONE_THROWERS[key]
    profile = data.stone_throwers[key]
    assert profile.key == key and profile.name == name
    assert (profile.min_range, profile.max_range) == (low, high)
    assert (profile.strength, profile.centre_strength) == (strength, centre)
    assert profile.centre_wounds is wounds
    assert profile.template.diameter == template and profile.template.radius == template / 2
    assert profile.template is data.templates["small-round"]
    assert profile.misfire_chart == "stone-thrower"
    assert "Stone Throwers" in profile.source and "Warhammer Fantasy" in profile.source


def test_only_the_stone_thrower_of_the_book_is_shipped(data):
    assert set(data.stone_throwers) == set(BOOK_STONE_THROWERS)


def test_stone_thrower_special_rule_is_multiple_wounds_d6_on_the_centre_hole_only(stone_thrower):
    (rule,) = stone_thrower.special_rules
    assert rule.startswith("Multiple Wounds (D6)")
    assert "centre" in rule


def test_small_round_template_is_three_inches(data):
    template = data.templates["small-round"]
    assert (template.key, template.diameter, template.radius) == ("small-round", 3.0, 1.5)
    assert template.name == "small round template"


@pytest.mark.parametrize("score", range(1, 7))
def test_stone_thrower_misfire_chart_matches_the_book(data, score):
    outcome, title, silent, wounds = BOOK_STONE_THROWER_MISFIRES[score]
    row = data.misfire_charts["stone-thrower"].row_for(score)
    assert (row.outcome, row.title, row.silent_turns, row.wounds) == (outcome, title, silent, wounds)


def test_stone_thrower_chart_rows_are_one_two_three_four_to_six(data):
    chart = data.misfire_charts["stone-thrower"]
    assert chart.name == "Stone Thrower Misfire Chart"
    assert [(r.low, r.high) for r in chart.rows] == [(1, 1), (2, 3), (4, 6)]
    assert "Stone Thrower Misfire Chart" in chart.source and "Warhammer Fantasy" in chart.source


def test_the_disabled_row_says_the_wound_allows_no_armour_save(data):
    row = data.misfire_charts["stone-thrower"].row_for(2)
    assert "1 wound" in row.effect and "no armour save" in row.effect


def test_the_stone_thrower_and_the_cannon_use_different_charts(data):
    assert data.misfire_charts["stone-thrower"].row_for(2).outcome is MisfireOutcome.DISABLED
    assert data.misfire_charts["black-powder"].row_for(2).outcome is MisfireOutcome.DESTROYED


@pytest.mark.parametrize(("field", "value", "match"), [
    ("template", "huge-round", "no template 'huge-round'"),
    ("misfire_chart", "gunpowder", "no misfire chart 'gunpowder'"),
])
def test_a_stone_thrower_naming_missing_data_is_a_bug_not_a_rules_error(data, field, value, match):
    raw = {"name": "X", "range": [12, 60], "strength": 4, "centre_strength": 10, "centre_wounds": "D6",
           "template": "small-round", "special_rules": [], "misfire_chart": "stone-thrower", "source": "s"}
    gamedata._stone_thrower("x", raw, data.misfire_charts, data.templates)  # the good one loads
    with pytest.raises(ValueError, match=f"fantasy.toml stone_throwers.x: {match}") as err:
        gamedata._stone_thrower("x", raw | {field: value}, data.misfire_charts, data.templates)
    assert not isinstance(err.value, RulesError)


@pytest.mark.parametrize("key", sorted(BOOK_MONSTROUS))
def test_monsters_and_monstrous_troop_types_stop_a_cannon_ball(data, key):
    assert data.troops[key].monstrous


@pytest.mark.parametrize("key", sorted(NOT_MONSTROUS))
def test_other_troop_types_do_not_stop_a_cannon_ball(data, key):
    assert not data.troops[key].monstrous


def test_every_shipped_troop_type_is_classified(data):
    assert set(data.troops) == BOOK_MONSTROUS | NOT_MONSTROUS


@pytest.mark.parametrize("key", sorted(BOOK_MONSTROUS | NOT_MONSTROUS))
def test_troop_default_base_is_one_the_engine_accepts(data, key):
    t = data.troops[key]
    assert t.base_width in BASE_WIDTHS
    assert MIN_BASE_DEPTH <= t.base_depth <= MAX_BASE_DEPTH
    TargetUnit(1, 1, t, t.base_width, t.base_depth)  # does not raise


def test_game_data_is_loaded_once_and_read_only(data):
    assert gamedata.fantasy() is data
    with pytest.raises(TypeError):
        data.cannons["cannon"] = data.cannons["great-cannon"]  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.cannons["cannon"].strength = 9  # type: ignore[misc]
    with pytest.raises(TypeError):
        data.stone_throwers["stone-thrower"] = data.stone_throwers["stone-thrower"]  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.stone_throwers["stone-thrower"].centre_strength = 9  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.templates["small-round"].diameter = 5  # type: ignore[misc]


def test_a_malformed_misfire_chart_is_a_bug_not_a_rules_error():
    raw = {"name": "X", "source": "s", "rows": [
        {"rolls": [1, 2], "outcome": "destroyed", "title": "t", "effect": "e", "silent_turns": 0, "wounds": 0},
        {"rolls": [4, 6], "outcome": "may not shoot", "title": "t", "effect": "e", "silent_turns": 1, "wounds": 0},
    ]}
    with pytest.raises(ValueError, match="misfire_charts.x") as err:
        gamedata._misfire_chart("x", raw)
    assert not isinstance(err.value, RulesError)


def test_an_unknown_die_in_the_data_is_a_bug_not_a_rules_error():
    with pytest.raises(ValueError, match="'D7' is not a die") as err:
        gamedata._die("D7", "fantasy.toml cannons.x")
    assert not isinstance(err.value, RulesError)


# --- the book itself, when it is beside the project ------------------------------------------------

needs_book = pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook text is not beside the project")


def _profile_row(text: str, heading: str) -> tuple[int, int, int, str]:
    """The Range | Strength | Special Rules row under `heading` (a line of its own)."""
    after = text.split(f"\n{heading}\n", 1)[1]
    m = re.search(r'^(\d+)-(\d+)" \| (\d+) \| (Multiple Wounds \([^)]*\))', after, re.MULTILINE)
    assert m, heading
    return int(m[1]), int(m[2]), int(m[3]), m[4]


@needs_book
@pytest.mark.parametrize("key", sorted(BOOK_CANNONS))
def test_cannon_profile_matches_the_rulebook_text(data, key):
    profile = data.cannons[key]
    low, high, strength, rule = _profile_row(RULEBOOK.read_text(encoding="utf-8"), profile.name)
    assert (profile.min_range, profile.max_range, profile.strength) == (low, high, strength)
    assert profile.special_rules == (rule,)
    dice = re.findall(r"D\d", rule)
    assert profile.direct_wounds.value == dice[0]
    assert profile.bounce_wounds.value == dice[-1]


@needs_book
def test_black_powder_chart_matches_the_rulebook_text(data):
    text = RULEBOOK.read_text(encoding="utf-8").split("Black Powder Misfire Chart\n", 1)[1]
    rows = re.findall(r"^(\d)-(\d) \| ([^|]+?) \|", text, re.MULTILINE)[:3]
    chart = data.misfire_charts["black-powder"]
    assert [(int(a), int(b), t.strip()) for a, b, t in rows] == [(r.low, r.high, r.title) for r in chart.rows]


@needs_book
def test_stone_thrower_profile_matches_the_rulebook_text(data):
    text = RULEBOOK.read_text(encoding="utf-8")
    section = text.split("\nStone Throwers\n", 1)[1].split("\nStone Thrower Misfire Chart\n", 1)[0]
    m = re.search(r'^(\d+)-(\d+)" \| (\d+)\((\d+)\) \| (Multiple Wounds \((D\d)\))', section, re.MULTILINE)
    assert m, "the Range | Strength | Special Rules row"
    profile = data.stone_throwers["stone-thrower"]
    assert (profile.min_range, profile.max_range) == (int(m[1]), int(m[2]))
    assert (profile.strength, profile.centre_strength) == (int(m[3]), int(m[4]))
    assert profile.special_rules[0].startswith(m[5]) and profile.centre_wounds.value == m[6]
    # The template and which Strength goes where (Firing a Stone Thrower, Damage).
    template = re.search(r'small round \((\d+)"\) template', section)
    assert template and profile.template.diameter == int(template[1])
    assert re.search(rf"higher of the stone thrower's two Strengths \(normally {profile.centre_strength}\)", section)
    assert re.search(rf"lower Strength \(normally {profile.strength}\)", section)
    assert "applies only to the high-Strength hit" in section


@needs_book
def test_stone_thrower_chart_matches_the_rulebook_text(data):
    text = RULEBOOK.read_text(encoding="utf-8").split("\nStone Thrower Misfire Chart\n", 1)[1]
    rows = re.findall(r"^(\d)(?:-(\d))? \| ([^|]+?) \|[^|]*\| ([^|]+?) \|", text, re.MULTILINE)[:3]
    chart = data.misfire_charts["stone-thrower"]
    assert [(int(a), int(b or a), t.strip()) for a, b, t, _ in rows] == [(r.low, r.high, r.title) for r in chart.rows]
    for (_, _, _, effect), row in zip(rows, chart.rows):
        # What the row does to the machine, read from the book's words.
        if "destroyed" in effect:
            expected = (0, 0)
        elif "cannot fire this turn or in the controlling player's next turn" in effect:
            expected = (2, 1 if "suffers a wound, with no armour saves allowed" in effect else 0)
        else:
            assert "can shoot as normal again in the controlling player's next turn" in effect
            expected = (1, 0)
        assert (row.silent_turns, row.wounds) == expected, row.title


# --- Grapeshot (War Machines: Grapeshot) and the shooting modifiers ---------------------------------------

# Grapeshot: 12" | 5 | Armour Piercing (1), no minimum range; "roll an artillery dice and a D6" for the
# shots, and a misfire goes to the Black Powder War Machine Misfire chart.
# (name, range, Strength, Armour Piercing, special rules, misfire chart)
BOOK_GRAPESHOT = ("Grapeshot", 12, 5, 1, ("Armour Piercing (1)",), "black-powder")

# The core rules' to-hit modifiers for shooting that a war machine can suffer (Shooting: long range,
# beyond half the weapon's range, -1; soft cover -1; hard cover -2), as points of penalty. They are
# not in the war machines chapter beside the project, so they are typed in from the core rules.
BOOK_TO_HIT_PENALTIES = {"long_range": 1, "soft_cover": 1, "hard_cover": 2}


def test_grapeshot_profile_matches_the_book(data):
    name, range_, strength, ap, rules, chart = BOOK_GRAPESHOT
    g = data.grapeshot
    assert (g.key, g.name) == ("grapeshot", name)
    assert (g.range, g.strength, g.armour_piercing) == (range_, strength, ap)
    assert g.special_rules == rules
    assert g.misfire_chart == chart and chart in data.misfire_charts
    assert "Grapeshot" in g.source and "Warhammer Fantasy" in g.source


def test_grapeshot_fires_from_a_cannon_and_misfires_like_one(data):
    assert {c.misfire_chart for c in data.cannons.values()} == {data.grapeshot.misfire_chart}


def test_to_hit_penalties_are_the_core_rules(data):
    p = data.to_hit_penalties
    assert {"long_range": p.long_range, "soft_cover": p.soft_cover, "hard_cover": p.hard_cover} == BOOK_TO_HIT_PENALTIES


def test_grapeshot_data_is_read_only(data):
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.grapeshot.range = 18  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.to_hit_penalties.hard_cover = 1  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.grapeshot = data.grapeshot  # type: ignore[misc]


def test_a_grapeshot_naming_a_missing_chart_is_a_bug_not_a_rules_error(tmp_path, monkeypatch):
    text = (Path(gamedata.__file__).parent / "fantasy.toml").read_text(encoding="utf-8")
    section = text.split("[grapeshot.grapeshot]", 1)[1].split("\n[", 1)[0]
    assert 'misfire_chart = "black-powder"' in section
    (tmp_path / "fantasy.toml").write_text(
        text.replace(section, section.replace('"black-powder"', '"gunpowder"')), encoding="utf-8")
    monkeypatch.setattr(gamedata, "HERE", tmp_path)
    with pytest.raises(ValueError, match="fantasy.toml grapeshot: no misfire chart 'gunpowder'") as err:
        gamedata.fantasy.__wrapped__()  # the loader itself, not the cached shipped data
    assert not isinstance(err.value, RulesError)


@needs_book
def test_grapeshot_profile_matches_the_rulebook_text(data):
    text = RULEBOOK.read_text(encoding="utf-8")
    section = text.split("\nGrapeshot\n", 1)[1].split("\nBlack Powder Misfire Chart\n", 1)[0]
    m = re.search(r'^(\d+)" \| (\d+) \| (Armour Piercing \((\d+)\)) \|', section, re.MULTILINE)
    assert m, "the Range | Strength | Special Rules row"
    g = data.grapeshot
    assert (g.range, g.strength, g.armour_piercing) == (int(m[1]), int(m[2]), int(m[4]))
    assert g.special_rules == (m[3],)
    # The shots and the misfire (Firing Grapeshot).
    assert "roll an artillery dice and a D6 to find out how many shots are fired" in section
    assert "number rolled on the artillery dice plus the D6" in section
    assert "roll a D6 on the Black Powder War Machine Misfire chart" in section
    assert data.misfire_charts[g.misfire_chart].name == "Black Powder Misfire Chart"


# --- Bolt Throwers (War Machines: Bolt Throwers) --------------------------------------------------------

# Bolt Thrower: 48" | 6 | Multiple Wounds (D3), Armour Piercing (1); no minimum range. A unit of five
# or more ranked-up models takes the bolt through its ranks (Resolving Bolt Thrower Hits); below
# five rank-and-file models the model hit in the rank is randomised (Bolt Throwers and Characters).
# (name, range, Strength, Multiple Wounds die, Armour Piercing, special rules, ranked target)
BOOK_BOLT_THROWERS = {
    "bolt-thrower": ("Bolt Thrower", 48, 6, DieKind.D3, 1, ("Multiple Wounds (D3)", "Armour Piercing (1)"), 5),
}


@pytest.mark.parametrize("key", sorted(BOOK_BOLT_THROWERS))
def test_bolt_thrower_profile_matches_the_book(data, key):
    name, range_, strength, wounds, ap, rules, ranked = BOOK_BOLT_THROWERS[key]
    b = data.bolt_throwers[key]
    assert (b.key, b.name) == (key, name)
    assert (b.range, b.strength, b.multiple_wounds, b.armour_piercing) == (range_, strength, wounds, ap)
    assert b.special_rules == rules
    assert b.ranked_target == ranked
    assert "Bolt Throwers" in b.source and "Warhammer Fantasy" in b.source


def test_only_the_bolt_thrower_of_the_book_is_shipped(data):
    assert set(data.bolt_throwers) == set(BOOK_BOLT_THROWERS)


def test_a_bolt_thrower_has_no_minimum_range_and_no_misfire(data):
    b = data.bolt_throwers["bolt-thrower"]
    fields = {f.name for f in dataclasses.fields(b)}
    assert "min_range" not in fields and "misfire_chart" not in fields


def test_bolt_thrower_data_is_read_only(data):
    with pytest.raises(TypeError):
        data.bolt_throwers["bolt-thrower"] = data.bolt_throwers["bolt-thrower"]  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.bolt_throwers["bolt-thrower"].strength = 5  # type: ignore[misc]


def test_a_bolt_thrower_with_an_unknown_die_is_a_bug_not_a_rules_error(tmp_path, monkeypatch):
    text = (Path(gamedata.__file__).parent / "fantasy.toml").read_text(encoding="utf-8")
    section = text.split("[bolt_throwers.bolt-thrower]", 1)[1].split("\n[", 1)[0]
    assert 'multiple_wounds = "D3"' in section
    (tmp_path / "fantasy.toml").write_text(
        text.replace(section, section.replace('multiple_wounds = "D3"', 'multiple_wounds = "D7"')), encoding="utf-8")
    monkeypatch.setattr(gamedata, "HERE", tmp_path)
    with pytest.raises(ValueError, match="fantasy.toml bolt_throwers.bolt-thrower: 'D7' is not a die") as err:
        gamedata.fantasy.__wrapped__()  # the loader itself, not the cached shipped data
    assert not isinstance(err.value, RulesError)


@needs_book
def test_bolt_thrower_profile_matches_the_rulebook_text(data):
    text = RULEBOOK.read_text(encoding="utf-8")
    section = text.split("\nBolt Throwers\n", 1)[1].split("\nCannons\n", 1)[0]
    m = re.search(r'^(\d+)" \| (\d+) \| (Multiple Wounds \((D\d)\))(Armour Piercing \((\d+)\)) \|', section, re.MULTILINE)
    assert m, "the Range | Strength | Special Rules row"
    b = data.bolt_throwers["bolt-thrower"]
    assert (b.range, b.strength, b.multiple_wounds, b.armour_piercing) == (int(m[1]), int(m[2]), DieKind(m[4]), int(m[6]))
    assert b.special_rules == (m[3], m[5])
    # Resolving Bolt Thrower Hits: five or more ranked-up models, full Strength 6, one less a rank.
    assert "If the target is a unit of five or more ranked-up models" in section
    assert f"the bolt thrower's full Strength of {b.strength}" in section
    assert f"-1 Strength (normally Strength {b.strength - 1})" in section
    assert f"-2 Strength (normally Strength {b.strength - 2})" in section
    assert "until either the unit runs out of ranks or the bolt fails to slay a target" in section
    assert "all hits, at any Strength, inflict multiple wounds" in section
    assert "the target's files count as ranks" in section
    assert "the last rank if the bolt thrower is in the unit's rear arc" in section
    # Bolt Throwers and Characters: fewer than five, randomise.
    assert "the total number of rank and file models in the unit is less than five" in section
    assert "randomise which model in the rank is hit" in section
    assert b.ranked_target == 5
    # Firing a Bolt Thrower: the crew's Ballistic Skill and the normal penalties.
    assert "roll to hit using the crew's Ballistic Skill" in section
    assert "All the normal To Hit penalties (except firing Multiple Shots) apply" in section


# --- fire thrower, flame template, Flaming Attacks ---------------------------------------------------


def test_fire_thrower_profile_matches_the_book(data):
    f = data.fire_throwers["fire-thrower"]
    assert (f.strength, f.special_rules, f.misfire_chart) == (5, ("Flaming Attacks",), "black-powder")
    assert f.template is data.flame_templates["flame"]


def test_the_flame_template_is_the_core_rulebooks_and_says_so(data):
    t = data.flame_templates["flame"]
    assert (t.length, t.narrow, t.wide) == (8, 1, 3)
    assert "core rulebook" in t.source and "not in the seeds" in t.source


def test_flaming_attacks_panic_penalty_is_the_special_rules(data):
    assert data.flaming_attacks.panic_penalty == 1
    assert set(data.flaming_attacks.troops) == {"war-beast", "cavalry", "chariot"}


@needs_book
def test_fire_thrower_profile_matches_the_rulebook_text(data):
    section = RULEBOOK.read_text(encoding="utf-8").split("\nFire Throwers\n", 1)[1]
    m = re.search(r"^- \| (\d+) \| (Flaming Attacks) \|", section, re.MULTILINE)
    assert m and int(m[1]) == data.fire_throwers["fire-thrower"].strength
    assert "roll on the Black Powder War Machine Misfire chart" in section
    assert "must take a Panic test" in section


def test_a_flame_template_wider_at_the_narrow_end_is_a_bug_not_a_rules_error(tmp_path, monkeypatch):
    text = (Path(gamedata.__file__).parent / "fantasy.toml").read_text(encoding="utf-8")
    (tmp_path / "fantasy.toml").write_text(text.replace("narrow = 1\n", "narrow = 4\n"), encoding="utf-8")
    monkeypatch.setattr(gamedata, "HERE", tmp_path)
    with pytest.raises(ValueError, match="flame_templates.flame") as err:
        gamedata.fantasy.__wrapped__()
    assert not isinstance(err.value, RulesError)
