"""The reply path's shared plumbing: when a command defers (counted from the interaction's
arrival, ephemeral exactly when the answer will be private, at once when the work is
expected to end past the deadline), and how errors quote what was typed. Every wait here is on an event, never on the clock."""

from __future__ import annotations

import asyncio
import threading
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

import cogs.common.replies as replies
from cogs.common.dice_source import OPTIONS_KEY


def fake_interaction(*, private: bool = False) -> MagicMock:
    interaction = MagicMock(spec=discord.Interaction)
    interaction.extras = {OPTIONS_KEY: {"private": True}} if private else {}
    interaction.id = 1
    interaction.response.is_done = MagicMock(return_value=False)
    interaction.response.send_message = AsyncMock()
    interaction.followup.send = AsyncMock()
    return interaction


def gated(interaction: MagicMock) -> threading.Event:
    """The interaction's defer sets the returned event: work that waits on it can only end once
    the command has deferred."""
    deferred = threading.Event()
    interaction.response.defer = AsyncMock(side_effect=lambda **_: deferred.set())
    return deferred


async def test_a_slow_private_command_defers_ephemerally(monkeypatch):
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.05)
    interaction = fake_interaction(private=True)
    deferred = gated(interaction)
    assert await replies.off_the_loop(interaction, lambda: deferred.wait(30) and "done") == "done"
    interaction.response.defer.assert_awaited_once_with(thinking=True, ephemeral=True)


async def test_the_deadline_counts_from_arrival_not_from_the_callback(monkeypatch):
    """An interaction that waited for the event loop past the deadline defers before its work
    is even looked at, however quick that work is."""
    monkeypatch.setattr(replies, "DEFER_AFTER", 1.5)
    interaction = fake_interaction()
    interaction.extras[replies.ARRIVED_KEY] = asyncio.get_running_loop().time() - 1.6
    deferred = gated(interaction)
    assert await replies.off_the_loop(interaction, lambda: deferred.wait(30) and 7) == 7
    interaction.response.defer.assert_awaited_once_with(thinking=True, ephemeral=False)


async def test_the_arrival_is_the_stamp_of_the_gateway_event_when_there_is_one():
    interaction = fake_interaction()
    token = replies.received.set(12.5)
    try:
        assert replies.arrived(interaction) == 12.5
    finally:
        replies.received.reset(token)
    assert replies.arrived(interaction) == 12.5  # kept with the interaction
    other = fake_interaction()
    now = asyncio.get_running_loop().time()
    assert replies.arrived(other) >= now  # no stamp (the console): from when first asked


async def test_a_burst_queues_for_the_pool_and_the_queued_commands_defer_at_once(monkeypatch):
    """With every worker busy on work expected to outlast the deadline (1,000 s a job against
    600 s), a new command defers at once instead of waiting out the deadline, and its work runs when
    a worker is free."""
    from cogs.common import work

    monkeypatch.setattr(replies, "DEFER_AFTER", 600.0)
    monkeypatch.setattr(work.work_lane, "service", work.ServiceTimes(prior=1000.0))
    release = threading.Event()
    holders = [fake_interaction() for _ in range(replies.WORKERS)]
    for h in holders:
        h.response.defer = AsyncMock()
    held = [asyncio.ensure_future(replies.off_the_loop(h, release.wait, 30)) for h in holders]
    await asyncio.sleep(0)
    queued = fake_interaction()
    deferred = gated(queued)
    waiting = asyncio.ensure_future(replies.off_the_loop(queued, lambda: "queued"))
    await asyncio.wait_for(asyncio.to_thread(deferred.wait, 30), 35)
    queued.response.defer.assert_awaited_once_with(thinking=True, ephemeral=False)
    assert not waiting.done()
    release.set()
    assert await waiting == "queued"
    assert all(await asyncio.gather(*held))


async def test_work_raises_through_and_the_pool_is_freed():
    interaction = fake_interaction()
    interaction.response.defer = AsyncMock()

    def boom():
        raise ValueError("bad")

    with pytest.raises(ValueError):
        await replies.off_the_loop(interaction, boom)
    assert replies._queued == 0


def test_errors_quote_at_most_about_a_hundred_characters_of_what_was_typed():
    typed = "x" * 6000
    message = replies.short_error(f"Near: '{typed}' is not a unit.")
    assert len(message) < 200 and "more characters" in message
    message = replies.short_error(f"Dice: {typed} is not a die face.", (typed,))
    assert len(message) < 200
    assert "\x00" not in replies.short_error("Near: 'a\x00b' is not a unit.")
    assert len(replies.short_error("y" * 5000)) <= replies.ERROR_LIMIT


async def test_an_error_after_a_public_defer_replaces_the_thinking_message_privately():
    interaction = fake_interaction()
    interaction.response.is_done = MagicMock(return_value=True)
    interaction.response.type = discord.InteractionResponseType.deferred_channel_message
    interaction.delete_original_response = AsyncMock()
    await replies.send_error(interaction, "Distance 0: give 1 or more.")
    interaction.delete_original_response.assert_awaited_once()
    interaction.followup.send.assert_awaited_once_with(content="Distance 0: give 1 or more.", ephemeral=True)


async def test_an_error_after_a_private_defer_follows_up_in_place():
    interaction = fake_interaction(private=True)
    interaction.response.is_done = MagicMock(return_value=True)
    interaction.response.type = discord.InteractionResponseType.deferred_channel_message
    interaction.delete_original_response = AsyncMock()
    await replies.send_error(interaction, "No.")
    interaction.delete_original_response.assert_not_awaited()
    interaction.followup.send.assert_awaited_once_with(content="No.", ephemeral=True)


def test_the_dice_line_groups_dice_named_one_by_one_under_their_kind():
    from engine.dice import DieKind, DieRoll, Roller

    def d6(face: int, purpose: str) -> DieRoll:
        return DieRoll(DieKind.D6, str(face), face, None, purpose, Roller.PLAYER)

    dice = (d6(2, "scatter distance"), d6(6, "model 2 partly under"), d6(1, "model 4 partly under"),
            d6(4, "to hit shot 1"), d6(5, "to hit shot 2"))
    assert replies.dice_line(dice) == "Dice: scatter distance 2 · partly under 6 1 · to hit 4 5 (all yours)"


def test_wound_lines_group_along_a_rank_or_down_a_file_counted_by_outcome():
    lines = [
        "R1 F5 direct: to wound 1 (needs 2+), no wound",
        "R2 F5 bounce: to wound 3 (needs 2+), no armour save: 1 wound, slain",
        "R3 F5 bounce: to wound 1 (needs 2+), no wound",
        "R4 F5 bounce: to wound 5 (needs 2+), no armour save: 1 wound, slain",
        "R6 F1 under the template: to wound 4 (needs 4+), armour 5 (5+): saved",
        "R6 F2 under the template: to wound 6 (needs 4+), armour 1 (5+): 1 wound, slain",
    ]
    assert replies._wound_groups(lines) == [
        "R1 F5 direct: to wound 1 (needs 2+), no wound",
        "R2-R4 F5 bounce: 2 slain, 1 no wound",
        "R6 F1-F2 under the template: 1 slain, 1 saved",
    ]


def test_models_counted_by_the_wounds_they_took_say_who_took_them():
    # A bounce down a file of W3 models: "2 took 2 wounds", never "2 2 wounds" (issue 26's read-through).
    lines = [
        "R2 F3 bounce: to wound 1 (needs 2+), no wound",
        "R3 F3 bounce: to wound 4 (needs 2+), no armour save, D3 2: 2 wounds",
        "R4 F3 bounce: to wound 5 (needs 2+), no armour save, D3 2: 2 wounds",
        "R5 F3 bounce: to wound 3 (needs 2+), no armour save, D3 1: 1 wound",
    ]
    assert replies._wound_groups(lines) == ["R2-R5 F3 bounce: 1 no wound, 2 took 2 wounds, 1 took 1 wound"]
