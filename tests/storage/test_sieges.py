"""Siege state in the store: a section's tokens survive closing and reopening the file."""

from engine.dice import EnteredDice, RandomDice
from cogs.warmaster.fortress_state import fortress, section_test
from storage import sieges
from storage.migrations import open_store

import pytest
from engine.errors import RulesError


def test_tokens_survive_a_restart_and_fall_with_the_section(database):
    path = database
    store = open_store(path)
    t = section_test(store, 7, "Gate", "gateway", False, EnteredDice("2 3 6", RandomDice(1)), hits=3)
    assert t.tokens_after == 1
    store.close()
    store = open_store(path)  # the bot restarted
    assert sieges.get_section(store, 7, "gate").tokens == 1
    assert sieges.get_section(store, 8, "gate") is None  # another channel's siege
    t = section_test(store, 7, " GATE ", "gateway", False, EnteredDice("6 6 6", RandomDice(1)), hits=2)
    assert t.tokens_before == 1 and t.destroyed
    f = fortress(store, 7)
    assert [(s.name, s.breached, s.tokens) for s in f.sections] == [("gate", True, 0)]
    with pytest.raises(RulesError, match="already fallen"):
        section_test(store, 7, "gate", "gateway", False, RandomDice(1), hits=1)
    section_test(store, 7, "w1", "wall", False, EnteredDice("1", RandomDice(1)), hits=1)
    with pytest.raises(RulesError, match="is a wall"):
        section_test(store, 7, "w1", "tower", False, RandomDice(1), hits=1)
    assert sieges.reset_siege(store, 7) == 2
    assert fortress(store, 7).sections == ()
    store.close()


def test_a_refused_test_changes_nothing(database):
    store = open_store(database)
    with pytest.raises(RulesError, match="left over"):
        section_test(store, 1, "wall", "wall", False, EnteredDice("1 1 1", RandomDice(1)), hits=1)
    assert sieges.sections(store, 1) == []
    store.close()
