"""config/fantasy.toml against the rulebook (Warhammer Fantasy Battles, War Machines).

The expected numbers below are copied from the book by hand (Cannons, Great Cannon, Black Powder
Misfire Chart, and the cannon's "Who's Been Hit?" list of monstrous troop types); where the book
text is beside the project (../shared/seeds) its profile tables are read as well.
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

RULEBOOK = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "000_1635bd6a8de0a672.txt"

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
