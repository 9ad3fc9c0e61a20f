"""A kept reply's buttons are sent as the components of a finished view, copied from one view built
once per set of buttons (cogs/common/buttons.py, issue 26): the same JSON as the view itself, for
every set a reply can carry, and nothing discord.py would keep."""

from __future__ import annotations

import itertools

from cogs.common import buttons


async def test_the_sent_buttons_are_the_full_views_components_for_every_set():
    names = (buttons.AGAIN, buttons.WOUNDS, buttons.CHART, buttons.DETAILS, buttons.ODDS)
    for n in range(1, len(names) + 1):
        for actions in itertools.permutations(names, n):
            for action_id in ("0123456789abcdef", "fedcba9876543210"):
                sent = buttons.view_for(actions, action_id)
                assert sent.to_components() == buttons.full_view(actions, action_id).to_components(), actions
                assert sent.is_finished() and not sent.has_components_v2()
    first = buttons.view_for((buttons.AGAIN,), "0123456789abcdef").to_components()
    first[0]["components"][0]["custom_id"] = "changed"  # what one reply's request does to its copy
    assert buttons.view_for((buttons.AGAIN,), "0123456789abcdef").to_components()[0]["components"][0]["custom_id"] \
        == "bombardier:again:0123456789abcdef"


async def test_the_sent_buttons_children_are_the_routed_buttons():
    sent = buttons.view_for((buttons.AGAIN, buttons.DETAILS), "0123456789abcdef")
    assert [item.item.custom_id for item in sent.children] == ["bombardier:again:0123456789abcdef",
                                                              "bombardier:details:0123456789abcdef"]
