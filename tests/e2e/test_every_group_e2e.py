"""Every top-level command, through the real client and the stand-in: each /help example (one per
command or group, config/help.toml) is typed as Discord would send it and must be answered with
an embed, not an error or an apology."""

from __future__ import annotations

import shlex

import pytest

from console.offline import find_command, parse_options
from config.rules import help_page
from tests.e2e.standin import MANAGER_PERMISSIONS


PRIVATE_BY_DEFAULT = {"help"}
"""Answered to the asker alone unless they post it (issue 18)."""


def callback_for(payload):
    return lambda r: r.method == "POST" and r.path == f"/interactions/{payload['id']}/{payload['token']}/callback"


@pytest.mark.parametrize("name, example", sorted(help_page().examples.items()))
async def test_every_help_example_is_answered_through_the_real_client(live_bot, standin, name, example):
    command, rest = find_command(live_bot.tree, shlex.split(example))
    kwargs = parse_options(command, rest)
    display = {p.name: p.display_name for p in command.parameters}
    payload = standin.slash("/" + command.qualified_name, **{display[k]: v for k, v in kwargs.items()})
    payload["member"]["permissions"] = MANAGER_PERMISSIONS  # /campaign create and the like are a GM's
    await standin.dispatch("INTERACTION_CREATE", payload)
    call = await standin.wait_for(callback_for(payload))
    data = call.json.get("data") or {}
    if call.json["type"] == 5:  # deferred: the answer follows up
        answer = await standin.wait_for(lambda r: r.method in ("POST", "PATCH") and payload["token"] in r.path
                                        and r.path.startswith("/webhooks/"))
        data = answer.json or {}
    private = name in PRIVATE_BY_DEFAULT
    assert bool(data.get("flags", 0) & 64) == private, (example, data.get("content"))
    assert data.get("embeds"), (example, data)
    assert "Sorry" not in (data.get("content") or "")
