"""/fire cannon and /fire great-cannon through a fake interaction: what the cog sends to Discord."""

import io
import logging
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
from discord import app_commands

from tests import discord_limits as limits
from PIL import Image

from bot import create_bot
from cogs.common.replies import APOLOGY, REPLY_KEY
from config.settings import Settings
from engine.errors import RulesError


@pytest.fixture
async def bot(tmp_path):
    bot = create_bot(Settings(data_dir=tmp_path, sync_commands=False, dice_seed=7))
    await bot.load_cogs()
    return bot


def fake_interaction(done: bool = False) -> MagicMock:
    interaction = MagicMock(spec=discord.Interaction)
    interaction.extras = {}
    interaction.id = 1
    interaction.guild_id, interaction.channel_id = 1, 5  # a server's channel, as Discord sends them
    interaction.user.id = 1
    interaction.response.is_done = MagicMock(return_value=done)
    interaction.response.send_message = AsyncMock()
    interaction.followup.send = AsyncMock()
    return interaction


def command(bot, name: str) -> app_commands.Command:
    return bot.tree.get_command("fire").get_command(name)


async def fire(bot, name="cannon", **options):
    cmd = command(bot, name)
    interaction = fake_interaction()
    interaction.command = cmd
    try:
        await cmd.callback(cmd.binding, interaction, **options)
    except Exception as e:
        await bot.tree.on_error(interaction, app_commands.CommandInvokeError(cmd, e))
    return interaction


async def test_the_fire_group_registers_both_cannons_with_their_range_bands(bot):
    group = bot.tree.get_command("fire")
    assert {c.name for c in group.commands} >= {"cannon", "great-cannon"}
    bands = {c.name: (c.get_parameter("distance").min_value, c.get_parameter("distance").max_value) for c in group.commands}
    assert bands["cannon"] == (12, 48)
    assert bands["great-cannon"] == (12, 60)
    for c in group.commands:
        assert c.description and all(p.description and p.description != "…" for p in c.parameters)


async def test_a_hit_sends_one_embed_with_the_diagram_attached(bot):
    interaction = await fire(bot, distance=30, ranks=4, files=5, dice="H 4 8")
    interaction.response.send_message.assert_awaited_once()
    kwargs = interaction.response.send_message.await_args.kwargs
    embed, (glance, file) = kwargs["embed"], kwargs["files"]  # the glance picture, then the full diagram (issue 30)
    assert not kwargs.get("ephemeral")
    # The glance: the answer as the title, a few lines, one dice line, the picture as its image.
    assert embed.title.startswith("Direct hit on the marker, bounced 8\": 4 models hit")
    lines = embed.description.splitlines()
    assert len(lines) <= 8 and lines[-1] == "Dice: scatter H · scatter distance 4 · bounce 8 (all yours)"
    assert embed.image.url == "attachment://cannon-glance.png" and glance.filename == "cannon-glance.png"
    assert embed.thumbnail.url == "attachment://cannon.png"
    assert file.filename == "cannon.png"
    png = Image.open(io.BytesIO(file.fp.read()))
    assert png.format == "PNG"
    # The details: every die with its purpose.
    details = interaction.extras[REPLY_KEY].details()
    dice = next(f.value for f in details.fields if f.name == "Dice")
    assert "`H` scatter · entered" in dice and "`8` bounce · entered" in dice


async def test_a_misfire_reply_names_the_chart_result_and_fires_nothing(bot):
    interaction = await fire(bot, distance=30, dice="@90 M 3")
    embed = interaction.response.send_message.await_args.kwargs["embed"]
    assert embed.title.startswith("Misfire! Black Powder Misfire Chart rolled 3: Malfunction")
    assert "file" not in interaction.response.send_message.await_args.kwargs  # a card, not an unfired diagram
    details = interaction.extras[REPLY_KEY].details()
    assert any(f.name == "Misfire" for f in details.fields)
    assert not any(f.name == "Hits" for f in details.fields)


async def test_the_great_cannon_bounce_carries_d6_wounds(bot):
    interaction = await fire(bot, "great-cannon", distance=50, dice="H 2 4")
    hits = next(f.value for f in interaction.extras[REPLY_KEY].details().fields if f.name == "Hits")
    assert "R2 F3 bounce: S10, D6 wounds" in hits


@pytest.mark.parametrize(
    "options, message",
    [
        ({"distance": 50}, "outside the cannon's range: the marker must be 12-48\""),
        ({"distance": 30, "dice": "H 7"}, "'7' (die 2) does not fit the artillery die"),
        ({"distance": 30, "dice": "H 4 8 3 3"}, "left over"),
        ({"distance": 30, "save": 4}, "without toughness"),
        ({"distance": 30, "dice": "Q"}, "'Q' (die 1) is not a die face"),
    ],
)
async def test_user_mistakes_get_one_ephemeral_sentence_and_nothing_else(bot, options, message):
    interaction = await fire(bot, **options)
    interaction.response.send_message.assert_awaited_once()
    args, kwargs = interaction.response.send_message.await_args
    assert kwargs["ephemeral"] is True
    assert message in kwargs["content"]
    assert "embed" not in kwargs and "file" not in kwargs


async def test_an_error_after_the_reply_went_out_uses_a_followup(bot):
    interaction = fake_interaction(done=True)
    await bot.tree.on_error(interaction, app_commands.CommandInvokeError(command(bot, "cannon"), RulesError("Bad.")))
    interaction.followup.send.assert_awaited_once_with(content="Bad.", ephemeral=True)
    interaction.response.send_message.assert_not_awaited()


async def test_a_bug_is_logged_with_its_traceback_and_the_user_only_gets_an_apology(bot, caplog):
    interaction = fake_interaction()
    interaction.command = command(bot, "cannon")
    try:
        raise KeyError("internal detail")
    except KeyError as e:
        error = app_commands.CommandInvokeError(interaction.command, e)
    with caplog.at_level(logging.ERROR):
        await bot.tree.on_error(interaction, error)
    kwargs = interaction.response.send_message.await_args.kwargs
    assert kwargs == {"content": APOLOGY, "ephemeral": True}
    assert "internal detail" not in kwargs["content"]
    assert any(r.exc_info and "internal detail" in str(r.exc_info[1]) for r in caplog.records)


async def test_every_command_fits_discords_limits(bot):
    """Discord refuses a whole sync if one name or description is out of bounds."""
    import re

    for cmd in bot.tree.walk_commands():
        assert re.fullmatch(r"[-_a-z0-9]{1,32}", cmd.name), cmd.name
        assert 1 <= len(cmd.description) <= 100, cmd.qualified_name
        if isinstance(cmd, app_commands.Command):
            assert len(cmd.parameters) <= 25
            required = [p.required for p in cmd.parameters]
            assert required == sorted(required, reverse=True), "required options must come first"
            for p in cmd.parameters:
                assert re.fullmatch(r"[-_a-z0-9]{1,32}", p.display_name), p.display_name
                assert 1 <= len(p.description) <= 100, f"{cmd.qualified_name} {p.display_name}: {len(p.description)}"
                assert len(p.choices) <= 25 and all(1 <= len(c.name) <= 100 for c in p.choices)


async def test_quick_work_answers_at_once_and_slow_work_defers_first(monkeypatch):
    """Deterministic: the quick work has a deadline no machine misses; the slow work cannot end
    until the defer has been sent, so it defers whatever the machine's speed."""
    import threading

    import cogs.common.replies as replies

    monkeypatch.setattr(replies, "DEFER_AFTER", 60.0)
    quick = fake_interaction()
    quick.response.defer = AsyncMock()
    assert await replies.off_the_loop(quick, lambda x: x * 2, 21) == 42
    quick.response.defer.assert_not_awaited()

    monkeypatch.setattr(replies, "DEFER_AFTER", 0.05)
    deferred = threading.Event()
    slow = fake_interaction()
    slow.response.defer = AsyncMock(side_effect=lambda **_: deferred.set())
    assert await replies.off_the_loop(slow, lambda: deferred.wait(30) and "done") == "done"
    slow.response.defer.assert_awaited_once_with(thinking=True, ephemeral=False)


async def test_every_top_level_command_keeps_a_quarter_of_discords_4000_characters(bot):
    """Discord counts names, descriptions and choices of a command and all its subcommands
    (tests/discord_limits.py); each keeps 25% of its 4,000 spare."""
    for cmd in bot.tree.get_commands():
        schema = cmd.to_dict(bot.tree)
        limits.assert_accepted(limits.command_problems(schema), f"/{cmd.name}")
        assert limits.command_size(schema) <= limits.HEADROOM, f"/{cmd.name}: {limits.command_size(schema)} characters"
