"""storage/armies.py on SQLite and PostgreSQL: a member's lists per server, kept as read (the
roster record round-trips), replaced by name, removed, bounded, and gone with forget-me and the
server's purge."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.roster import read_roster
from storage import armies, privacy
from storage.campaigns import CampaignError
from storage.migrations import open_store

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "army"
EMPIRE = read_roster((FIXTURES / "empire.rosz").read_bytes())
GUARD = read_roster((FIXTURES / "guard.json").read_bytes())


@pytest.fixture
def store(database):
    with open_store(database) as s:
        yield s


def test_a_list_is_kept_as_read_and_belongs_to_its_member_in_its_server(store):
    army, replaced = armies.save_army(store, 1, 10, EMPIRE)
    assert not replaced and army.roster == EMPIRE and (army.guild_id, army.user_id, army.points) == (1, 10, 760.0)
    assert armies.get_army(store, 1, 10, "host of talabheim").roster == EMPIRE
    armies.save_army(store, 1, 10, GUARD)
    assert armies.list_names(store, 1, 10) == [("Cadian 3rd Armoured", "wh40k", 385.0, 4), ("Host of Talabheim", "fantasy", 760.0, 5)]
    assert armies.list_names(store, 1, 11) == [] and armies.list_names(store, 2, 10) == []
    assert [a.name for a in armies.armies(store, 1, (10, 11))] == ["Cadian 3rd Armoured", "Host of Talabheim"]
    assert armies.save_army(store, 1, 10, EMPIRE)[1] is True  # the same name replaces
    assert len(armies.list_names(store, 1, 10)) == 2
    removed = armies.remove_army(store, 1, 10, "Host of Talabheim")
    assert removed.name == "Host of Talabheim" and len(armies.list_names(store, 1, 10)) == 1
    with pytest.raises(CampaignError, match="no list called 'Host of Talabheim'"):
        armies.remove_army(store, 1, 10, "Host of Talabheim")


def test_a_member_keeps_at_most_twenty_lists_in_a_server(store, monkeypatch):
    monkeypatch.setattr(armies, "MAX_LISTS", 2)
    armies.save_army(store, 1, 10, EMPIRE)
    armies.save_army(store, 1, 10, GUARD)
    with pytest.raises(CampaignError, match="You keep 2 lists here already"):
        armies.save_army(store, 1, 10, read_roster((FIXTURES / "warmaster.ros").read_bytes()))
    armies.save_army(store, 1, 10, EMPIRE)  # replacing one is not a new one


def test_forget_me_and_the_purge_take_the_lists(store):
    armies.save_army(store, 1, 10, EMPIRE)
    armies.save_army(store, 2, 10, GUARD)
    armies.save_army(store, 1, 11, GUARD)
    assert privacy.forget_user(store, 10).armies == 2
    assert armies.list_names(store, 1, 10) == [] and armies.list_names(store, 1, 11) != []
    armies.save_army(store, 2, 12, EMPIRE)
    assert privacy.purge_guild(store, 1).armies == 1
    assert armies.list_names(store, 1, 11) == [] and armies.list_names(store, 2, 12) != []
