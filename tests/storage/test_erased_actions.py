"""The buttons /settings forget-me erased: each keeps only its id, its server and when it would
have expired (no user id, nothing it held), so a press says why it stopped working; a server's
purge takes them with the rest, and they go once they would have expired. On both backends."""

import json

import pytest

from storage import actions, privacy
from storage.actions import LIFETIME_S
from storage.migrations import open_store

ALICE, BOB = 301234567890123456, 401234567890123456
G1, G2 = 11, 22


@pytest.fixture
def store(database):
    with open_store(database) as s:
        yield s


def button(store, user, guild=G1, *, details=None, options=None, now=1000.0) -> str:
    return actions.remember(store, guild_id=guild, channel_id=5, user_id=user, command="fire cannon",
                            options=options or {"distance": 30}, dice=(), details=details, now=now)


def test_forgetting_erases_the_users_buttons_and_those_naming_them_and_says_so_until_they_would_expire(store):
    own, named, typed, alices = (button(store, BOB), button(store, ALICE, details={"description": f"Players: <@{BOB}>"}),
                                 button(store, ALICE, options={"owner": str(BOB)}), button(store, ALICE))
    assert privacy.forget_user(store, BOB).buttons == 3
    for action_id in (own, named, typed):
        assert actions.recall(store, action_id) is None
        assert actions.erased(store, action_id, G1, now=1000.0 + LIFETIME_S)
        assert not actions.erased(store, action_id, G2, now=1000.0)  # pressed in another server: nothing to say
        assert not actions.erased(store, action_id, G1, now=1000.0 + LIFETIME_S + 1)  # it would have expired by now
    assert actions.recall(store, alices) is not None and not actions.erased(store, alices, G1)
    kept = store.read("SELECT * FROM erased_actions")
    assert {tuple(sorted(r)) for r in kept} == {("expires_at", "guild_id", "id")}  # nothing of who, nothing it held
    assert str(BOB) not in json.dumps(kept)


def test_a_purge_takes_a_servers_erased_buttons_and_new_buttons_drop_the_lapsed(store):
    b1, b2 = button(store, BOB, G1), button(store, BOB, G2)
    privacy.forget_user(store, BOB)
    privacy.purge_guild(store, G1)
    assert not actions.erased(store, b1, G1, now=1000.0) and actions.erased(store, b2, G2, now=1000.0)
    button(store, ALICE, G2, now=1000.0 + LIFETIME_S + actions.PURGE_EVERY_S + 1)  # later: the periodic clean-up
    assert store.read("SELECT count(*) AS n FROM erased_actions")[0]["n"] == 0
