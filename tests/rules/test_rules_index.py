"""The rules index with the full shipped entries: real queries and the entry they must put first."""

from __future__ import annotations

import pytest

from config.rules import rule_entries
from storage.rules_index import RulesIndex, normalise


@pytest.fixture(scope="module")
def index() -> RulesIndex:
    return RulesIndex(rule_entries())


def top(index: RulesIndex, query: str, **kw) -> str:
    return index.search(query, **kw).entries[0].key


@pytest.mark.parametrize("query, key", [
    ("bounce", "warhammer-fantasy:bounce"),
    ("Black Powder Misfire Chart", "warhammer-fantasy:black-powder-misfire-chart"),
    ("tribock", "warmaster:tribock"),
    ("tank shock", "wh40k:tank-shock"),
    ("who's been hit", "warhammer-fantasy:whos-been-hit-cannon"),
])
def test_a_name_finds_its_entry(index, query, key):
    assert top(index, query) == key


@pytest.mark.parametrize("query, key", [
    ("canon", "warhammer-fantasy:cannon"),
    ("stone throwr", "warhammer-fantasy:stone-thrower"),
    ("tank shok", "wh40k:tank-shock"),
    ("helblastr", "warmaster:helblaster-gun"),
    ("dreadnougt close combat weapon", "wh40k:dreadnought-close-combat-weapons"),
    ("boiling oyl", "warmaster:boiling-oil"),
    ("killing blw", "warhammer-fantasy:killing-blow"),
])
def test_typos_are_forgiven(index, query, key):
    assert top(index, query) == key


@pytest.mark.parametrize("query, key", [
    ("glance", "wh40k:glancing-hit-table"),
    ("catapult", "warhammer-fantasy:stone-thrower"),
    ("trebuchet", "warmaster:tribock"),
    ("pinning", "wh40k:barrage-pinning"),
    ("ap", "warhammer-fantasy:armour-piercing"),
])
def test_other_words_for_the_same_thing(index, query, key):
    assert top(index, query) == key


def test_misfire_finds_every_misfire_chart_and_the_helblaster(index):
    keys = [e.key for e in index.search("misfire").entries[:6]]
    assert {"warhammer-fantasy:black-powder-misfire-chart", "warhammer-fantasy:stone-thrower-misfire-chart",
            "warhammer-fantasy:misfire"} <= set(keys)
    assert "warmaster:helblaster-gun" in [e.key for e in index.search("misfire").entries]


@pytest.mark.parametrize("query, key", [
    ("what happens when a cannon ball hits a monster", "warhammer-fantasy:whos-been-hit-cannon"),
    ("how do I fire a stone thrower at something it can't see", "warhammer-fantasy:firing-indirectly"),
    ("how many dice do I roll for a structure test?", "warmaster:structure-test"),
    ("can troops get out of a transport after it moved 12 inches", "wh40k:disembarking"),
    ("what does a penetrating hit do", "wh40k:penetrating-hit-table"),
    ("when does a war machine get destroyed if it flees", "warhammer-fantasy:moving-war-machines"),
])
def test_whole_questions(index, query, key):
    assert top(index, query) == key


def test_the_same_name_in_two_games_gives_both_with_the_game_filter_choosing(index):
    both = [e.key for e in index.search("cannon").entries[:2]]
    assert set(both) == {"warhammer-fantasy:cannon", "warmaster:cannon"}
    assert top(index, "cannon", game="warmaster") == "warmaster:cannon"
    assert top(index, "grapeshot", game="warmaster") == "warmaster:grapeshot"
    assert all(e.game == "wh40k" for e in index.search("cannon", game="wh40k").entries)
    assert top(index, "cannon", game="wh40k") == "wh40k:battle-cannon"


def test_a_preferred_game_ranks_its_entries_first_among_good_matches(index):
    assert top(index, "bounce", preferred="warmaster") == "warmaster:bounce"
    assert top(index, "bounce", preferred="warhammer-fantasy") == "warhammer-fantasy:bounce"
    # a preference does not push a poor match above the one the question is about
    assert top(index, "glancing hit", preferred="warmaster") == "wh40k:glancing-hit-table"


@pytest.mark.parametrize("query", ["xyzzy", "qqqq wwww", "!!!", ""])
def test_never_an_empty_answer(index, query):
    found = index.search(query)
    assert found.entries and not found.matched


def test_nothing_matching_suggests_the_nearest_names(index):
    found = index.search("bombardment of the catapolt")
    assert found.entries
    found = index.search("zzzrock lobberzzz")
    assert "warmaster:orc-rock-lobber" in [e.key for e in found.entries]


def test_lookup_by_key_gives_the_entry_then_its_related(index):
    found = index.lookup("warmaster:siege-towers")
    assert found.entries[0].key == "warmaster:siege-towers" and found.matched
    assert index.lookup("warmaster:siege-towers", game="wh40k").entries[0].game == "wh40k"


def test_autocomplete_within_discords_limits(index):
    for typed in ("", "b", "bou", "stone thr", "what happens when", "x" * 100, "glance"):
        choices = index.autocomplete(typed)
        assert 1 <= len(choices) <= 25, typed
        assert all(1 <= len(label) <= 100 and 1 <= len(key) <= 100 for label, key in choices)
        assert all(key in index.by_key for _, key in choices)
    assert {k for _, k in index.autocomplete("bou")[:2]} == {"warhammer-fantasy:bounce", "warmaster:bounce"}
    assert ("Bounce · Warhammer Fantasy", "warhammer-fantasy:bounce") in index.autocomplete("bou")
    assert index.autocomplete("stone thr")[0][1] == "warhammer-fantasy:stone-thrower"
    assert index.autocomplete("bou", preferred="warmaster")[0][1] == "warmaster:bounce"
    assert all(k.startswith("wh40k:") for _, k in index.autocomplete("", game="wh40k"))


def test_normalise_drops_case_and_punctuation():
    assert normalise("Who's Been Hit? (Cannon)") == "whos been hit cannon"
    assert normalise("  Fire & Flee ") == "fire flee"


def test_the_index_is_built_in_well_under_a_second(index):
    assert 0 < index.build_seconds < 1.0
    assert len(index.entries) == len(rule_entries())


def test_a_game_filter_does_not_pass_off_another_games_rule_as_an_answer(index):
    found = index.search("killing blow", game="wh40k")
    assert not found.matched and found.elsewhere.key == "warhammer-fantasy:killing-blow"
    assert all(e.game == "wh40k" for e in found.entries)
    # a weaker match still about what was asked is an answer
    assert index.search("cannon", game="wh40k").matched
    assert index.search("misfire", game="warmaster").entries[0].key == "warmaster:helblaster-gun"
